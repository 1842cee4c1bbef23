// clreduce: the three-level reduction of the PCL-Reduction paper, for every operation.
//   level 1  each work-item accumulates CLREDUCE_TIMES vectors into a private state
//   level 2  a work-group tree in local memory (sequential addressing)
//   level 3  one result per group: a partial for a second pass, an atomic finish, the result,
//            a partial that the last group to finish combines (one launch, fixed order), or
//            an exact atomic add into a fixed-point number (one launch, any order)
//
// The operation (ops/*.cl, placed before this file) is a plug-in. It defines
//   clreduce_state                      its state (a scalar or a struct)
//   clreduce_init()                     the identity state
//   clreduce_accumulate(s, x, index)    s with element x (at `index` from the range's start)
//   clreduce_combine(a, b)              two states as one; a holds the lower indices
// and optionally
//   CLREDUCE_VECTOR_PATH with clreduce_vstate, clreduce_vinit(), clreduce_vaccumulate(vs, v)
//       and clreduce_vfinish(vs): level 1 on whole vectors (lane-wise operations); with
//       CLREDUCE_VECTOR_INDEXED, clreduce_vaccumulate(vs, v, first) also takes the index of
//       the vector's first element (lane k holds element first + k)
//   CLREDUCE_ATOMIC_FINISH with clreduce_atomic(p, s): level 3 straight into the result
//   CLREDUCE_STATE_SCALAR when clreduce_state is CLREDUCE_ACC (a cheaper warp shuffle)
//   CLREDUCE_GROUP_SINK with CLREDUCE_SINK_WORDS: the work-group keeps an exact sink of that
//       many longs in local memory (zero at the start) for what its states cannot hold; then
//       accumulate, combine, vaccumulate and vfinish take it as a last argument, and the exact
//       atomic finish adds it to the result with clreduce_sink_flush(sink, number, lid)
//   CLREDUCE_VECTOR_RETRY (1 or 2) with clreduce_vtry_state, clreduce_vtry_init(),
//       clreduce_vtry1/2(ts, v), clreduce_vheld1/2(ts) and clreduce_vtry_result(ts, sink): passes
//       over a work-item's vectors without tests, each checked once at its end, before
//       clreduce_vaccumulate takes the same vectors where none held; with CLREDUCE_VECTOR_PEEK,
//       clreduce_vtry_peek(ts, v) sees the work-item's first and last vectors and
//       clreduce_vtry_anchor(ts, sink) (a barrier) and clreduce_vtry_promising(ts) set the
//       first pass's scale and whether the group takes it; with CLREDUCE_VECTOR_BINS, one more
//       pass before clreduce_vaccumulate: clreduce_vbins_of(sink, lid) (this work-item's part of
//       the CLREDUCE_SINK_OWN_WORDS after the sink, of CLREDUCE_VBIN_T), clreduce_vbins_init(ts),
//       clreduce_vbins_promising(ts) (whether to try them),
//       clreduce_vbins_add(bs, v, bins, sink), clreduce_vbins_held(bs) and
//       clreduce_vbins_result(bs, bins, sink)
// With CLREDUCE_STATES_IN the input is states (the second pass over the partials).

#ifndef CLREDUCE_TIMES
#define CLREDUCE_TIMES 16               // loads per work-item (the paper's `times`)
#endif
#ifndef CLREDUCE_WG
#define CLREDUCE_WG 256                 // work-group size, a power of two
#endif
#ifndef CLREDUCE_STRIDE_LOCAL
#define CLREDUCE_STRIDE_LOCAL 0         // 0: global stride, 1: local stride
#endif
#ifndef CLREDUCE_NV_SHUFFLE
#define CLREDUCE_NV_SHUFFLE 0           // 1: finish the last warp with shfl.sync (NVIDIA only)
#endif
#ifndef CLREDUCE_WAVEFRONT
#define CLREDUCE_WAVEFRONT 32           // warp width, used with CLREDUCE_NV_SHUFFLE
#endif
#ifndef CLREDUCE_STATES_IN
#define CLREDUCE_STATES_IN 0            // 1: the input is clreduce_state partials
#endif
#ifndef CLREDUCE_PITCHED
#define CLREDUCE_PITCHED 0              // 1: one channel of a pitched 2-D image (CLREDUCE_VEC 1)
#endif
#ifndef CLREDUCE_ALL_CHANNELS
#define CLREDUCE_ALL_CHANNELS 0         // 1 (pitched only): every channel, `channel` unused
#endif
#ifndef CLREDUCE_MASKED
#define CLREDUCE_MASKED 0               // 1 (pitched only): pixels whose mask byte is 0 are skipped
#endif
#ifndef CLREDUCE_DENSE
#define CLREDUCE_DENSE 0                // > 1 (pitched only): a dense image, read that many
#endif                                  //    pixels per load
#ifndef CLREDUCE_CHANNELS
#define CLREDUCE_CHANNELS 1             // dense or all channels: the image's channels
#endif

#ifdef CLREDUCE_GROUP_SINK
#ifndef CLREDUCE_SINK_OWN_WORDS
#define CLREDUCE_SINK_OWN_WORDS 0  // words after the sink that its work-items keep for themselves
#endif
#define CLREDUCE_SINK_PARAM , __local long* sink
#define CLREDUCE_SINK_ARG , sink
#else
#define CLREDUCE_SINK_PARAM
#define CLREDUCE_SINK_ARG
#endif

#if CLREDUCE_STATES_IN
#define CLREDUCE_IN_T clreduce_state
#define CLREDUCE_IN_VEC clreduce_state
#define CLREDUCE_TAKE(s, x, index) clreduce_combine(s, x CLREDUCE_SINK_ARG)
#undef CLREDUCE_VECTOR_PATH
#else
#define CLREDUCE_IN_T CLREDUCE_T
#define CLREDUCE_IN_VEC CLREDUCE_T_VEC
#define CLREDUCE_TAKE(s, x, index) clreduce_accumulate(s, x, index CLREDUCE_SINK_ARG)
#endif
#ifndef CLREDUCE_NVIDIA
#define CLREDUCE_NVIDIA 0               // 1: NVIDIA's OpenCL (inline PTX allowed)
#endif
#ifndef CLREDUCE_DEVICE_RESULT
#define CLREDUCE_DEVICE_RESULT 0        // 1: write the final value as CLREDUCE_RESULT_T to
#endif                                  //    result_out + result_offset (asynchronous calls)

// A vector into a vector path's state; `first` is the index of its first element.
#ifdef CLREDUCE_VECTOR_INDEXED
#define CLREDUCE_VACCUMULATE(vs, v, first) clreduce_vaccumulate(vs, v, first CLREDUCE_SINK_ARG)
#else
#define CLREDUCE_VACCUMULATE(vs, v, first) clreduce_vaccumulate(vs, v CLREDUCE_SINK_ARG)
#endif

#if (CLREDUCE_STATES_IN || CLREDUCE_PITCHED) && CLREDUCE_VEC != 1
#error "states and pitched input are read one at a time (CLREDUCE_VEC 1)"
#endif

// Lane by lane, for operations without a vector path: lane k of vector i is element
// i * VEC + k of the range.
#define CLREDUCE_L1(s, v, b) s = CLREDUCE_TAKE(s, v, b);
#define CLREDUCE_L2(s, v, b) s = CLREDUCE_TAKE(s, (v).s0, b); s = CLREDUCE_TAKE(s, (v).s1, (b) + 1);
#define CLREDUCE_L4(s, v, b) CLREDUCE_L2(s, (v).lo, b) CLREDUCE_L2(s, (v).hi, (b) + 2)
#define CLREDUCE_L8(s, v, b) CLREDUCE_L4(s, (v).lo, b) CLREDUCE_L4(s, (v).hi, (b) + 4)
#define CLREDUCE_L16(s, v, b) CLREDUCE_L8(s, (v).lo, b) CLREDUCE_L8(s, (v).hi, (b) + 8)
#define CLREDUCE_LANES(s, v, b) CLREDUCE_CAT(CLREDUCE_L, CLREDUCE_VEC)(s, v, b)

#include "warp_shuffle.cl"  // clreduce_shfl_down and CLREDUCE_TREE_STOP

// Level 2: the work-group's states as one, in work-item 0 (a tree in local memory, a barrier
// per step, the last warp by shuffle where CLREDUCE_NV_SHUFFLE). Every work-item calls it.
// (Always inlined: a C99 inline function the compiler declines to inline would be a call to
// an external definition that does not exist, as with the correctly rounded sum's big state.)
__attribute__((always_inline)) inline clreduce_state clreduce_level2(__local clreduce_state* scratch, clreduce_state acc,
                                                                     uint lid CLREDUCE_SINK_PARAM) {
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = CLREDUCE_WG / 2; s >= CLREDUCE_TREE_STOP; s >>= 1) {
        if (lid < s)
            scratch[lid] = clreduce_combine(scratch[lid], scratch[lid + s] CLREDUCE_SINK_ARG);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if CLREDUCE_NV_SHUFFLE
    // The last warp (the host guarantees CLREDUCE_WG >= CLREDUCE_WAVEFRONT): all its
    // lanes take part, so the full mask is right.
    if (lid < CLREDUCE_WAVEFRONT) {
        acc = scratch[lid];
        for (uint delta = CLREDUCE_WAVEFRONT / 2; delta > 0; delta >>= 1) {
            const clreduce_state other = clreduce_shfl_down(acc, delta);
#ifdef CLREDUCE_GROUP_SINK
            // A combine that adds to the sink has an effect beyond its result: only the lanes
            // whose result counts may make it (lane l + delta's state goes into lane l once).
            if (lid < delta)
#endif
                acc = clreduce_combine(acc, other CLREDUCE_SINK_ARG);
        }
    }
    return acc;
#else
    return scratch[0];
#endif
}

#if CLREDUCE_DEVICE_RESULT
#include "result.cl"  // clreduce_write_result: the operation's result from its final state
#endif

// Where the final state goes: the result word out[slot] (the other word reset for the next
// call), or, for an asynchronous call, the result it stands for (of `result_count` elements)
// at result_out + result_offset (a result that does not fit its type: result_status, result.cl).
__attribute__((always_inline)) inline void clreduce_store_result(__global clreduce_state* out, uint slot, clreduce_state acc,
                                  __global uchar* result_out, ulong result_offset,
                                  volatile __global uint* result_status, ulong result_count) {
#if CLREDUCE_DEVICE_RESULT
    clreduce_write_result(result_out + result_offset, acc, result_count, result_status);
#else
    out[slot] = acc;
    out[slot ^ 1u] = clreduce_init();
#endif
}

#if CLREDUCE_PITCHED && CLREDUCE_MASKED
// The image's mask: one byte per pixel, rows `mask_pitch` bytes apart from mask_offset on.
#define CLREDUCE_IMAGE_PARAMS \
    , ulong cols, ulong pitch, uint channels, uint channel, __global const uchar* mask, ulong mask_pitch
#define CLREDUCE_KERNEL_IMAGE_PARAMS \
    , ulong cols, ulong pitch, uint channels, uint channel, __global const uchar* mask, ulong mask_offset, ulong mask_pitch
#define CLREDUCE_IMAGE_ARGS , cols, pitch, channels, channel, mask + mask_offset, mask_pitch
#elif CLREDUCE_PITCHED
#define CLREDUCE_IMAGE_PARAMS , ulong cols, ulong pitch, uint channels, uint channel
#define CLREDUCE_KERNEL_IMAGE_PARAMS CLREDUCE_IMAGE_PARAMS
#define CLREDUCE_IMAGE_ARGS , cols, pitch, channels, channel
#else
#define CLREDUCE_IMAGE_PARAMS
#define CLREDUCE_KERNEL_IMAGE_PARAMS
#define CLREDUCE_IMAGE_ARGS
#endif

// Level 1: this work-item's state over its CLREDUCE_TIMES vectors of `in` (already moved to
// the range's start), and, in group 0, the scalar tail after the last whole vector. Vector i
// always holds elements [i * VEC, (i + 1) * VEC) of the range, wherever the range starts:
// which work-item and lane adds which element, and so every float result's bits, depend on
// the values and the plan only, not on the range's alignment (an element offset, the pointer
// form's scratch copy). An aligned range (the host's buffers are aligned to the device's base
// alignment, so offset % VEC == 0) is read with vector loads, any other with vloadN; the
// choice is uniform across the launch, made once before the loops.
#include "pitched.cl"  // clreduce_pixel and clreduce_selected: a pixel of a pitched image, its mask

// A work-item's first vector and the step to its next (global stride: the whole launch;
// local stride: its group's block of CLREDUCE_TIMES vectors per work-item).
inline ulong clreduce_first_vector(ulong group, uint lid) {
    return CLREDUCE_STRIDE_LOCAL ? group * (ulong)(CLREDUCE_WG * CLREDUCE_TIMES) + lid : group * (ulong)CLREDUCE_WG + lid;
}
inline ulong clreduce_vector_step(void) { return CLREDUCE_STRIDE_LOCAL ? (ulong)CLREDUCE_WG : get_global_size(0); }

__attribute__((always_inline)) inline clreduce_state clreduce_level1(__global const CLREDUCE_IN_T* in, ulong count,
                                                                     ulong group, uint lid CLREDUCE_IMAGE_PARAMS
                                                                     CLREDUCE_SINK_PARAM) {
    const ulong first = clreduce_first_vector(group, lid);
    const ulong step = clreduce_vector_step();
#include "level1_loads.cl"  // LOAD, SELECTED and the pixel cursor of the loops below
    const bool whole = first + (ulong)(CLREDUCE_TIMES - 1) * step < vectors;

#ifdef CLREDUCE_VECTOR_PATH
    clreduce_vstate vs = clreduce_vinit();
#define CLREDUCE_TAKE_VECTOR(i, LOAD) vs = CLREDUCE_VACCUMULATE(vs, LOAD(i), (i) * CLREDUCE_VEC);
#else
    clreduce_state acc = clreduce_init();
#define CLREDUCE_TAKE_VECTOR(i, LOAD)               \
    {                                               \
        const CLREDUCE_IN_VEC v = LOAD(i);          \
        CLREDUCE_LANES(acc, v, (i) * CLREDUCE_VEC)  \
    }
#endif
    // The same loops for either load, taking each vector with TAKE: all CLREDUCE_TIMES vectors
    // where they are there (the common case, no bound check), else those below `vectors`.
#define CLREDUCE_LEVEL1_LOOPS(LOAD, TAKE)                                    \
    if (whole) {                                                             \
        ulong i = first;                                                     \
        CLREDUCE_CURSOR_START                                                \
        for (uint t = 0; t < CLREDUCE_TIMES; ++t, i += step) {               \
            CLREDUCE_IF_SELECTED(i, LOAD, TAKE)                              \
            CLREDUCE_CURSOR_NEXT                                             \
        }                                                                    \
    } else {                                                                 \
        ulong i = first;                                                     \
        CLREDUCE_CURSOR_START                                                \
        for (uint t = 0; t < CLREDUCE_TIMES && i < vectors; ++t, i += step) { \
            CLREDUCE_IF_SELECTED(i, LOAD, TAKE)                              \
            CLREDUCE_CURSOR_NEXT                                             \
        }                                                                    \
    }
#define CLREDUCE_LEVEL1_PASS(TAKE)                                  \
    if (aligned) {                                                  \
        CLREDUCE_LEVEL1_LOOPS(CLREDUCE_ALIGNED_LOAD, TAKE)          \
    } else {                                                        \
        CLREDUCE_LEVEL1_LOOPS(CLREDUCE_UNALIGNED_LOAD, TAKE)        \
    }
#ifdef CLREDUCE_VECTOR_RETRY
    // An optimistic plug-in's passes without tests first (clreduce_vtry1, then clreduce_vtry2
    // where CLREDUCE_VECTOR_RETRY is 2); where none held (clreduce_vheld1/2), the same
    // vectors again through clreduce_vaccumulate.
    // The passes keep their own state (clreduce_vtry_state), which becomes vs where one held.
#define CLREDUCE_TRY1_VECTOR(i, LOAD) ts = clreduce_vtry1(ts, LOAD(i));
#define CLREDUCE_TRY2_VECTOR(i, LOAD) ts = clreduce_vtry2(ts, LOAD(i));
    clreduce_vtry_state ts = clreduce_vtry_init();
#ifdef CLREDUCE_VECTOR_PEEK
    // A pass that needs a scale before it starts (add_exact.cl's anchored pass) looks at this
    // work-item's first and last vectors, then takes the group's scale (clreduce_vtry_anchor
    // holds a barrier: every work-item reaches it).
    if (first < vectors) {
        const ulong last = first + min((ulong)(CLREDUCE_TIMES - 1), (vectors - 1 - first) / step) * step;
        // (Masked: only selected elements set the scale; the passes check what they take.)
        if (CLREDUCE_SELECTED_AT(first)) ts = clreduce_vtry_peek(ts, CLREDUCE_LOAD_AT(first));
        if (CLREDUCE_SELECTED_AT(last)) ts = clreduce_vtry_peek(ts, CLREDUCE_LOAD_AT(last));
    }
    ts = clreduce_vtry_anchor(ts CLREDUCE_SINK_ARG);
    const bool try1 = clreduce_vtry_promising(ts);  // the same in the whole group
#else
    const bool try1 = true;
#endif
    if (try1) {
        CLREDUCE_LEVEL1_PASS(CLREDUCE_TRY1_VECTOR)
    }
#ifdef CLREDUCE_VECTOR_BINS
    // Where the passes did not hold: the plug-in's bins (one more pass without tests, checked
    // once), then the tested path.
// The bins, and for double data the tested lanes, load CLREDUCE_LATE_LOADS vectors before
// they take any, where the work-item's vectors are whole and aligned (the common case;
// elsewhere, and in images, whose loops walk a pixel cursor, one at a time): each value's
// read-modify-write of the bins in local memory, and the tested lanes' chain of TwoSums, would
// otherwise hold the next load. Not the float kernel's tested lanes, nor loads of every form
// (unaligned, partial): both cost the anchored pass in the same kernel more than they save,
// most likely in registers (docs/performance.md, "Correctly rounded sums").
#define CLREDUCE_LATE_LOADS 4
#if CLREDUCE_PITCHED
#define CLREDUCE_LATE_PASS(TAKE_ITEM, TAKE_VALUE) CLREDUCE_LEVEL1_PASS(TAKE_ITEM)
#else
#define CLREDUCE_LATE_PASS(TAKE_ITEM, TAKE_VALUE)                                                 \
    if (aligned && whole && CLREDUCE_TIMES % CLREDUCE_LATE_LOADS == 0) {                          \
        CLREDUCE_LOADS_AHEAD_WHOLE(CLREDUCE_IN_VEC, CLREDUCE_LATE_LOADS, first, CLREDUCE_TIMES, step, \
                                   CLREDUCE_ALIGNED_LOAD, TAKE_VALUE)                             \
    } else {                                                                                      \
        CLREDUCE_LEVEL1_PASS(TAKE_ITEM)                                                           \
    }
#endif
#if CLREDUCE_ACC_SIZE == 8
#define CLREDUCE_TESTED_PASS CLREDUCE_LATE_PASS(CLREDUCE_TAKE_VECTOR, CLREDUCE_TESTED_TAKE)
#else
#define CLREDUCE_TESTED_PASS CLREDUCE_LEVEL1_PASS(CLREDUCE_TAKE_VECTOR)
#endif
#define CLREDUCE_TESTED_TAKE(v, i) vs = CLREDUCE_VACCUMULATE(vs, v, (i) * CLREDUCE_VEC);
#define CLREDUCE_BINS_TAKE(v, i) bs = clreduce_vbins_add(bs, v, bins, sink);
#define CLREDUCE_BINS_VECTOR(i, LOAD) CLREDUCE_BINS_TAKE(LOAD(i), i)
#ifdef CLREDUCE_GROUP_BINS
// A group that skipped the first pass (the same in all its work-items) may add its bins up
// together (clreduce_vbins_group: barriers, reached by every work-item of such a group).
#define CLREDUCE_BINS_TOGETHER(bs) (!try1 && clreduce_vbins_group(bs, sink, lid))
#else
#define CLREDUCE_BINS_TOGETHER(bs) false
#endif
#define CLREDUCE_LAST_PASSES                                             \
    {                                                                   \
        bool binned = false;                                            \
        if (clreduce_vbins_promising(ts)) {                             \
            __local CLREDUCE_VBIN_T* bins = clreduce_vbins_of(sink, lid); \
            clreduce_vbins_state bs = clreduce_vbins_init(ts);          \
            CLREDUCE_LATE_PASS(CLREDUCE_BINS_VECTOR, CLREDUCE_BINS_TAKE) \
            if (CLREDUCE_BINS_TOGETHER(bs)) {                           \
                binned = true;                                          \
                vs = clreduce_vbins_sign(bs);                           \
            } else {                                                    \
                binned = clreduce_vbins_held(bs);                       \
                if (binned) vs = clreduce_vbins_result(bs, bins, sink); \
            }                                                           \
        }                                                               \
        if (!binned) {                                                  \
            CLREDUCE_TESTED_PASS                                        \
        }                                                               \
    }
#else
#define CLREDUCE_LAST_PASSES CLREDUCE_LEVEL1_PASS(CLREDUCE_TAKE_VECTOR)
#endif
    if (try1 && clreduce_vheld1(ts)) {
        vs = clreduce_vtry_result(ts CLREDUCE_SINK_ARG);
    } else {
#if CLREDUCE_VECTOR_RETRY > 1
        ts = clreduce_vtry_init();
        CLREDUCE_LEVEL1_PASS(CLREDUCE_TRY2_VECTOR)
        if (clreduce_vheld2(ts)) {
            vs = clreduce_vtry_result(ts CLREDUCE_SINK_ARG);
        } else {
            CLREDUCE_LAST_PASSES
        }
#else
        CLREDUCE_LAST_PASSES
#endif
    }
#undef CLREDUCE_TRY1_VECTOR
#undef CLREDUCE_TRY2_VECTOR
#undef CLREDUCE_BINS_VECTOR
#undef CLREDUCE_BINS_TAKE
#undef CLREDUCE_TESTED_TAKE
#undef CLREDUCE_LATE_PASS
#undef CLREDUCE_TESTED_PASS
#undef CLREDUCE_BINS_TOGETHER
#undef CLREDUCE_LAST_PASSES
#else
    CLREDUCE_LEVEL1_PASS(CLREDUCE_TAKE_VECTOR)
#endif
#undef CLREDUCE_LEVEL1_PASS
#undef CLREDUCE_LEVEL1_LOOPS
#undef CLREDUCE_TAKE_VECTOR
#undef CLREDUCE_ALIGNED_LOAD
#undef CLREDUCE_UNALIGNED_LOAD
#undef CLREDUCE_IF_SELECTED
#undef CLREDUCE_SELECTED
#undef CLREDUCE_SELECTED_AT
#undef CLREDUCE_LOAD_AT
#undef CLREDUCE_CURSOR_START
#undef CLREDUCE_CURSOR_NEXT
#ifdef CLREDUCE_VECTOR_PATH
    clreduce_state acc = clreduce_vfinish(vs CLREDUCE_SINK_ARG);
#endif
    // The tail after the whole vectors, in group 0, after this work-item's vectors (higher
    // indices), so that states keep their index order.
    if (group == 0)
        for (ulong j = tail_start + lid; j < count; j += CLREDUCE_WG) {
            CLREDUCE_TAIL_TAKE(acc, j)
        }
#undef CLREDUCE_TAIL_TAKE
    return acc;
}

#include "level1_channels.cl"  // clreduce_level1_channels: a dense image's channels at once
#include "level3.cl"  // clreduce_level3: the group's state into the result, as CLREDUCE_FINISH says

// Reduces elements [offset, offset + count) of `in` (pitched: of one channel of an image
// whose rows hold `cols` pixels of `channels` elements and start `pitch` elements apart;
// masked: of its pixels whose mask byte is not 0).
// `slot` selects the result word for the atomic and store finishes; the other word is reset
// to the identity for the next call. The three levels, in order.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce(__global const CLREDUCE_IN_T* in, ulong offset, ulong count,
                     __global clreduce_state* out, uint slot,
                     __global uchar* result_out, ulong result_offset, volatile __global uint* result_status,
                     volatile __global uint* done, ulong result_count CLREDUCE_KERNEL_IMAGE_PARAMS)
{
    const uint lid = get_local_id(0);
    const ulong group = get_group_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];
    __local uint is_last;
#ifdef CLREDUCE_GROUP_SINK
    __local long sink[CLREDUCE_SINK_WORDS + CLREDUCE_SINK_OWN_WORDS];
    for (uint k = lid; k < CLREDUCE_SINK_WORDS; k += CLREDUCE_WG) sink[k] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#endif

#if CLREDUCE_ALL_CHANNELS
    // Every channel of the image (atomic, one-group and last-group finishes): channel c's
    // result words are out[2c] and out[2c + 1], its partials (last group) follow all the
    // channels' words and its count of groups done is done[c]. A dense image's level 1 takes
    // every channel in one read; any other's runs channel by channel, each reading the cache
    // lines that the channel before it read, so the image comes from memory once.
    // (The loop is unrolled: each channel's level 1 takes its elements by constant indices,
    // and no barrier sits in a loop of a count known only at run time.)
#if CLREDUCE_DENSE
    clreduce_state states[CLREDUCE_CHANNELS];
    clreduce_level1_channels(in + offset, count, group, lid CLREDUCE_IMAGE_ARGS, states);
#endif
#pragma unroll
    for (uint c = 0; c < CLREDUCE_CHANNELS; ++c) {
        if (c > 0) barrier(CLK_LOCAL_MEM_FENCE);  // the tree before is done with scratch
#if CLREDUCE_DENSE
        clreduce_state acc = states[c];
#else
        const uint channel = c;  // in CLREDUCE_IMAGE_ARGS
        clreduce_state acc = clreduce_level1(in + offset, count, group, lid CLREDUCE_IMAGE_ARGS CLREDUCE_SINK_ARG);
#endif
        acc = clreduce_level2(scratch, acc, lid CLREDUCE_SINK_ARG);
        clreduce_level3(scratch, &is_last, acc, lid, group, out + 2 * c, out + 2 * CLREDUCE_CHANNELS + c * get_num_groups(0),
                        slot, result_out, result_offset, result_status, result_count, done + c CLREDUCE_SINK_ARG);
    }
#else
    clreduce_state acc = clreduce_level1(in + offset, count, group, lid CLREDUCE_IMAGE_ARGS CLREDUCE_SINK_ARG);
    acc = clreduce_level2(scratch, acc, lid CLREDUCE_SINK_ARG);
    clreduce_level3(scratch, &is_last, acc, lid, group, out, out + 2, slot, result_out, result_offset, result_status,
                    result_count, done CLREDUCE_SINK_ARG);
#endif
}
