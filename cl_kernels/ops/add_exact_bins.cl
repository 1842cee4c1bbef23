// Part of ops/add_exact.cl (included there, inside CLREDUCE_EXACT_GROUP): the bins, which take
// the vectors the untested passes did not hold before the tested lanes do (exact sums of whole
// numbers of a bin's unit, with no test), where they fit in local memory
// (src/kernels/kernel_spec.cpp, exact_bins_fit).


#if CLREDUCE_ACC_SIZE == 4 && defined(CLREDUCE_EXACT_BINS)
// Float data the passes above did not hold (lanes spread wider than their doubles: wide and
// whole ranges, values far above the group's anchor), before the tested lanes: each work-item
// adds every float into one of CLREDUCE_EXACT_BINS (16) doubles of its own in local memory,
// chosen by the float's top four exponent bits (bins of 16 binades). A float of bin j is a
// multiple of the bin's unit 2^(max(16j, 1) - 150) and below 2^(16j + 16 - 126): at most 2^40
// units (bin 0, with the subnormals: 2^39). A work-item takes CLREDUCE_TIMES * CLREDUCE_VEC
// <= 2^13 floats, so every partial sum of a bin stays below 2^53 units: exact in a double, in
// any order, with no test and no TwoSum (one local load, one double addition and one local
// store a float); at the end a work-item adds its bins into its own expansion (what that
// cannot hold goes to the sink). The host turns the bins on where their 128 bytes a
// work-item fit in local memory beside the group's tree and sink
// (src/kernels/kernel_spec.cpp). NaN and infinities (exponent 255, in the last bin) leave
// the pass not held; the tested lanes then take the same vectors.
#define CLREDUCE_VECTOR_BINS 1
#define CLREDUCE_VBIN_T double  // bin j at word j
#if CLREDUCE_TIMES * CLREDUCE_VEC > 8192
#error "the bins hold at most 2^13 floats a work-item (CLREDUCE_TIMES * CLREDUCE_VEC)"
#endif

typedef struct {
    clreduce_uvec largest;  // the largest magnitude's bits: 0x7f800000 and up for NaN, infinities
    clreduce_uvec lowest;   // the smallest bits, sign included: not 0 when no term was +0.0
} clreduce_vbins_state;

// Bin j's unit: its floats are whole numbers of 2^clreduce_float_bin_unit(j).
inline int clreduce_float_bin_unit(uint j) { return max(16 * (int)j, 1) - 150; }

inline clreduce_vbins_state clreduce_vbins_init(clreduce_vtry_state t) {
    clreduce_vbins_state s;
    s.largest = 0;
    s.lowest = 0xffffffffu;
    return s;
}

inline clreduce_vbins_state clreduce_vbins_add(clreduce_vbins_state s, CLREDUCE_T_VEC v, __local double* bins,
                                               __local long* sink) {
    const CLREDUCE_ACC_VEC y = clreduce_mapped_vector(v);
    const clreduce_uvec bits = clreduce_as_uvec(y);
    s.largest = max(s.largest, bits & 0x7fffffffu);
    s.lowest = min(s.lowest, bits);
#if CLREDUCE_VEC == 1
    bins[((bits >> 27) & 15u) * CLREDUCE_WG] += convert_double(y);
#else
    uint lanes[CLREDUCE_VEC];
    double values[CLREDUCE_VEC];
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(bits, 0, lanes);
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(clreduce_to_dvec(y), 0, values);
    for (int i = 0; i < CLREDUCE_VEC; ++i) bins[((lanes[i] >> 27) & 15u) * CLREDUCE_WG] += values[i];
#endif
    return s;
}

inline bool clreduce_vbins_promising(clreduce_vtry_state t) { return true; }  // every float fits a bin

inline bool clreduce_vbins_held(clreduce_vbins_state s) { return !CLREDUCE_ANY(s.largest >= 0x7f800000u); }

// A held pass's state before its bins: each lane's first term -0.0 where every term it took
// was -0.0 (or it took none), else +0.0.
inline clreduce_vstate clreduce_vbins_sign(clreduce_vbins_state s) {
    clreduce_vstate v = clreduce_vinit();
    v.a0 = clreduce_zero_sign((clreduce_dvec)(0.0), s.largest, s.lowest);
    return v;
}

// A held pass's bins into the work-item's expansion (what that cannot hold to the sink).
inline clreduce_vstate clreduce_vbins_result(clreduce_vbins_state s, __local double* bins, __local long* sink) {
    clreduce_vstate v = clreduce_vbins_sign(s);
    for (int j = 0; j < CLREDUCE_EXACT_BINS; ++j) {
        const double bin = bins[j * CLREDUCE_WG];
        if (bin != 0) clreduce_expansion_add(&v.rest, bin, sink);
    }
    return v;
}

#if CLREDUCE_EXACT_OPTIMISTIC == 2 && CLREDUCE_WG % CLREDUCE_EXACT_BINS == 0 && CLREDUCE_WG <= 1024
// NVIDIA GPUs: a work-group whose ends span too wide for the anchored pass (the same in every
// work-item: clreduce_vtry_promising) bins every vector. Where every work-item's bins held, the
// group adds them up together, bin by bin, as whole numbers of the bin's unit in 64-bit integers:
// each work-item sums one bin of 16 work-items (below 2^57 units), then one work-item a bin sums
// those (below 2^63 for up to 1024 work-items) and puts the total into the sink. No work-item
// then adds its 16 bins into its expansion, and the tree of expansions carries only the sign of
// a zero sum (the two steps this saves are most of the cost of wide float data at 2^24:
// docs/performance.md, "Correctly rounded sums"). Every work-item of the group calls it
// (barriers); false, with the bins untouched, where some work-item's bins did not hold.
#define CLREDUCE_GROUP_BINS 1
inline bool clreduce_vbins_group(clreduce_vbins_state s, __local long* sink, uint lid) {
    if (!clreduce_vbins_held(s)) atom_or((volatile __local long*)(sink + CLREDUCE_SINK_UNHELD), 1L);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (sink[CLREDUCE_SINK_UNHELD] != 0) return false;  // the same in every work-item
    // Bin w of work-item i at bins[w * WG + i]. Work-item lid sums bin lid / P of the work-items
    // lid % P + P * t, t < 16 (P = WG / 16: a warp's lanes read adjacent words).
    __local double* bins = (__local double*)(sink + CLREDUCE_SINK_WORDS);
    const uint parts = CLREDUCE_WG / CLREDUCE_EXACT_BINS;
    const uint bin = lid / parts, part = lid % parts;
    const double to_units = ldexp(1.0, -clreduce_float_bin_unit(bin));
    long total = 0;
    for (uint t = 0; t < CLREDUCE_EXACT_BINS; ++t)
        total += convert_long(bins[bin * CLREDUCE_WG + t * parts + part] * to_units);
    barrier(CLK_LOCAL_MEM_FENCE);  // every bin read before the totals take their place
    __local long* totals = (__local long*)bins;
    totals[lid] = total;  // part `part` of bin `bin`
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < CLREDUCE_EXACT_BINS) {
        long sum = 0;
        for (uint p = 0; p < parts; ++p) sum += totals[lid * parts + p];
        // As two doubles of at most 37 and 26 bits, whole numbers of the unit: exact.
        const int unit = clreduce_float_bin_unit(lid);
        const long low = sum & 0x3ffffffL;
        if (sum != low) clreduce_sink_add(sink, ldexp((double)(sum - low), unit));
        if (low != 0) clreduce_sink_add(sink, ldexp((double)low, unit));
    }
    return true;
}
#endif
#endif

#if CLREDUCE_ACC_SIZE == 8 && defined(CLREDUCE_EXACT_BINS) && CLREDUCE_EXACT_OPTIMISTIC == 2
// NVIDIA GPUs, double data spread wider than the tested lanes take fast (a work-group's ends
// over more than CLREDUCE_BINS_SPAN binades: wide ranges, the whole range), before the tested
// lanes and instead of them: each double m * 2^(p - 1074) (m its significand, p = max(exponent,
// 1) - 1) goes in as the signed 16-bit digits of m * 2^(p % 16), added into words p / 16 ..
// p / 16 + 4 of its slice's CLREDUCE_DIGIT_WORDS 32-bit words in local memory with 32-bit local
// atomics. A slice is 32 work-items of the group, at most 2^15 values (CLREDUCE_TIMES *
// CLREDUCE_VEC <= 2^10), so a word's sum stays below 2^31: exact, in any order, with no test.
// Every finite double fits, NaN and infinities go to the sink's flags, so the pass always holds;
// the group then adds its slices' words into the sink (clreduce_vbins_group).
// Why 16-bit digits in 32-bit words: NVIDIA GPUs add 32-bit words in local memory in hardware,
// where a 64-bit add (the sink's) is a loop of compare-and-swaps; the words beat both the tested
// lanes and 64-bit words for data over hundreds of binades (docs/performance.md, "Correctly
// rounded sums"). Narrower data the first pass (the three folds) or the tested lanes take faster.
// The words take the bins' local memory (CLREDUCE_DIGITS_FIT: groups of 8 work-items and more).
#define CLREDUCE_VECTOR_BINS 1
#define CLREDUCE_VBIN_T long
#define CLREDUCE_DIGIT_WORDS 132  // 16-bit places of 2^-1074 .. 2^1024, and 4 above
#define CLREDUCE_DIGIT_SLICES ((CLREDUCE_WG + 31) / 32)
#define CLREDUCE_DIGITS_FIT (CLREDUCE_DIGIT_SLICES * CLREDUCE_DIGIT_WORDS * 4 <= CLREDUCE_EXACT_BINS * CLREDUCE_WG * 8)
#define CLREDUCE_BINS_SPAN 106
#if CLREDUCE_TIMES * CLREDUCE_VEC > 1024
#error "the digits take at most 2^10 doubles a work-item (CLREDUCE_TIMES * CLREDUCE_VEC)"
#endif

typedef struct {
    int nonzero;  // some term was not -0.0
} clreduce_vbins_state;

// Whether the group takes the digits: the same in every work-item, none of which took the
// anchored route's first pass (which takes at most 102 - 3L - M binades).
inline bool clreduce_vbins_promising(clreduce_vtry_state t) {
    return CLREDUCE_DIGITS_FIT && t.k - max(t.low, 1) > CLREDUCE_BINS_SPAN;
}

inline clreduce_vbins_state clreduce_vbins_init(clreduce_vtry_state t) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the words zeroed (clreduce_vbins_of) by every work-item
    clreduce_vbins_state s;
    s.nonzero = 0;
    return s;
}

inline void clreduce_vdigits_add(ulong b, __local long* sink) {
    const int e = (int)((b >> 52) & 0x7ffUL);
    if (e == 0x7ff) {
        clreduce_sink_flags(sink, clreduce_special_flag(b & 0xfffffffffffffUL, b >> 63));
        return;
    }
    const ulong m = clreduce_double_significand(b);
    const int p = clreduce_double_position(b);
    const uint r = (uint)p & 15u;
    const ulong low = m << r;
    const int top = r != 0 ? (int)(m >> (64 - r)) : 0;
    volatile __local int* words = (volatile __local int*)(sink + CLREDUCE_SINK_WORDS) +
                                  (get_local_id(0) / 32) * CLREDUCE_DIGIT_WORDS + (p >> 4);
    const int sign = b >> 63 ? -1 : 1;
    for (uint j = 0; j < 4; ++j) {
        const int d = (int)((low >> (16 * j)) & 0xffffUL);
        if (d != 0) atomic_add(words + j, sign * d);
    }
    if (top != 0) atomic_add(words + 4, sign * top);
}

inline clreduce_vbins_state clreduce_vbins_add(clreduce_vbins_state s, CLREDUCE_T_VEC v, __local long* bins,
                                               __local long* sink) {
    ulong lanes[CLREDUCE_VEC];
#if CLREDUCE_VEC == 1
    lanes[0] = as_ulong(clreduce_mapped_vector(v));
#else
    CLREDUCE_CAT(vstore, CLREDUCE_VEC)(CLREDUCE_CAT(as_ulong, CLREDUCE_VEC)(clreduce_mapped_vector(v)), 0, lanes);
#endif
    for (int i = 0; i < CLREDUCE_VEC; ++i) {
        clreduce_vdigits_add(lanes[i], sink);
        s.nonzero |= lanes[i] != 0x8000000000000000UL;
    }
    return s;
}

inline bool clreduce_vbins_held(clreduce_vbins_state s) { return true; }  // every double fits

// The state before the group's words: the lanes' first terms -0.0 where every term was -0.0
// (or none), else +0.0.
inline clreduce_vstate clreduce_vbins_sign(clreduce_vbins_state s) {
    clreduce_vstate v = clreduce_vinit();
    v.a0 = (clreduce_dvec)(s.nonzero ? 0.0 : -0.0);
    return v;
}

// (Not reached: the group adds the words up, clreduce_vbins_group.)
inline clreduce_vstate clreduce_vbins_result(clreduce_vbins_state s, __local long* bins, __local long* sink) {
    return clreduce_vbins_sign(s);
}

// Every work-item of the group calls it (a barrier): the slices' words into the sink (word w is
// 2^(16w) units, half of limb w / 2).
#define CLREDUCE_GROUP_BINS 1
inline bool clreduce_vbins_group(clreduce_vbins_state s, __local long* sink, uint lid) {
    barrier(CLK_LOCAL_MEM_FENCE);
    const __local int* words = (const __local int*)(sink + CLREDUCE_SINK_WORDS);
    for (uint w = lid; w < CLREDUCE_DIGIT_WORDS; w += CLREDUCE_WG) {
        long total = 0;
        for (uint q = 0; q < CLREDUCE_DIGIT_SLICES; ++q) total += words[q * CLREDUCE_DIGIT_WORDS + w];
        if (total != 0) atom_add((volatile __local long*)(sink + w / 2), total * (w % 2 ? 65536L : 1L));
    }
    return true;
}
#endif

#ifdef CLREDUCE_VECTOR_BINS
// Either type's bins: CLREDUCE_EXACT_BINS words a work-item after the sink.
#if CLREDUCE_EXACT_BINS != 16
#error "the bins are 16 words a work-item (src/ops/exact_state.hpp, kExactBinWords)"
#endif
#define CLREDUCE_SINK_OWN_WORDS (CLREDUCE_EXACT_BINS * CLREDUCE_WG)

// This work-item's bins, word w at bins[w * CLREDUCE_WG] (a warp's loads of any words then meet
// no bank twice), zeroed.
inline __local CLREDUCE_VBIN_T* clreduce_vbins_of(__local long* sink, uint lid) {
    __local CLREDUCE_VBIN_T* bins = (__local CLREDUCE_VBIN_T*)(sink + CLREDUCE_SINK_WORDS) + lid;
    for (int w = 0; w < CLREDUCE_EXACT_BINS; ++w) bins[w * CLREDUCE_WG] = 0;
    return bins;
}
#endif
