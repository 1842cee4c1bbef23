// An extreme and the lowest index holding it, for the argmin, argmax (ops/argext.cl) and
// argminmax (ops/argminmax.cl) plug-ins; `is_max` is a constant at every call, so each call
// compiles to one direction. NaN loses to every number; among equals (NaN included) the lower
// index wins, so all-NaN input gives (NaN, 0). Indices count from the range's start.
typedef struct {
    ulong index;
    CLREDUCE_ACC value;
} clreduce_indexed;

#if CLREDUCE_ACC_FLOAT
#define CLREDUCE_INDEXED_INIT_(is_max) (CLREDUCE_ACC)NAN
#define CLREDUCE_INDEXED_ISNAN_(v) isnan(v)
#else
#define CLREDUCE_INDEXED_INIT_(is_max) \
    ((is_max) ? (CLREDUCE_ACC)(CLREDUCE_ACC_LOWEST) : (CLREDUCE_ACC)(CLREDUCE_ACC_HIGHEST))
#define CLREDUCE_INDEXED_ISNAN_(v) 0
#endif
// Whether a beats b strictly, lane-wise for vectors.
#define CLREDUCE_INDEXED_BETTER_(is_max, a, b) ((is_max) ? (a) > (b) : (a) < (b))

__attribute__((always_inline)) inline clreduce_indexed clreduce_indexed_init(const bool is_max) {
    clreduce_indexed s = {ULONG_MAX, CLREDUCE_INDEXED_INIT_(is_max)};
    return s;
}
// a and b as one: b when it should replace a.
__attribute__((always_inline)) inline clreduce_indexed clreduce_indexed_combine(const bool is_max, clreduce_indexed a,
                                                                               clreduce_indexed b) {
    const bool a_nan = CLREDUCE_INDEXED_ISNAN_(a.value), b_nan = CLREDUCE_INDEXED_ISNAN_(b.value);
    bool takes;
    if (a_nan != b_nan)
        takes = a_nan;
    else if (!a_nan && CLREDUCE_INDEXED_BETTER_(is_max, b.value, a.value))
        takes = true;
    else if (!a_nan && CLREDUCE_INDEXED_BETTER_(is_max, a.value, b.value))
        takes = false;
    else
        takes = b.index < a.index;
    // Field by field: a conditional of whole structs went through private memory on NVIDIA.
    a.index = takes ? b.index : a.index;
    a.value = takes ? b.value : a.value;
    return a;
}
__attribute__((always_inline)) inline clreduce_indexed clreduce_indexed_take(const bool is_max, clreduce_indexed s,
                                                                            CLREDUCE_ACC x, ulong index) {
    const clreduce_indexed e = {index, x};
    return clreduce_indexed_combine(is_max, s, e);
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
// Level 1 on whole vectors: each lane keeps its own extreme and the index of the vector it came
// from: in 32 bits where the host knows every index of the launch is below 2^32
// (CLREDUCE_INDEX32), which halves the registers of 64-bit ones. 8/16-bit integers are
// compared as 32-bit ints, the width of the index and of a GPU's registers; lanes are chosen
// with min/max and select(). A lane meets its elements in rising index order and takes only a
// strictly better value (or a number after NaN), so it keeps its first extreme; a lane that
// never takes holds no index, and its first element, then its extreme (every element equals
// the identity, or is NaN), is its answer. At the end the lanes holding the best value give the
// lowest index among them.
#define CLREDUCE_VECTOR_PATH 1
#define CLREDUCE_VECTOR_INDEXED 1
#if CLREDUCE_INDEX32
#define CLREDUCE_POSITION_T uint
#define CLREDUCE_NO_POSITION UINT_MAX
#else
#define CLREDUCE_POSITION_T ulong
#define CLREDUCE_NO_POSITION ULONG_MAX
#endif
#if !CLREDUCE_ACC_FLOAT && CLREDUCE_ACC_SIZE < 4
#define CLREDUCE_LANE_T int
#define CLREDUCE_LANE_SIZE 4
#else
#define CLREDUCE_LANE_T CLREDUCE_ACC
#define CLREDUCE_LANE_SIZE CLREDUCE_ACC_SIZE
#endif
#if CLREDUCE_LANE_SIZE == 4
#define CLREDUCE_LANE_BITS_T uint  // a lane's bits, and masks of lane width
#else
#define CLREDUCE_LANE_BITS_T ulong
#endif
#if CLREDUCE_VEC == 1
#define CLREDUCE_VECTOR_OF_(t) t
#define CLREDUCE_LANE_OFFSETS (ulong)0
// A scalar comparison gives 1 for true, a vector one -1: masks of all ones from either.
#define CLREDUCE_POSITION_MASK_(t) ((CLREDUCE_POSITION_T)0 - (CLREDUCE_POSITION_T)((t) != 0))
#define CLREDUCE_LANE_MASK_(t) ((CLREDUCE_LANE_BITS_T)0 - (CLREDUCE_LANE_BITS_T)((t) != 0))
#define CLREDUCE_INDEX_MASK_(t) ((ulong)0 - (ulong)((t) != 0))
#else
#define CLREDUCE_VECTOR_OF_(t) CLREDUCE_CAT(t, CLREDUCE_VEC)
#if CLREDUCE_VEC == 2
#define CLREDUCE_LANE_OFFSETS (ulong2)(0, 1)
#elif CLREDUCE_VEC == 4
#define CLREDUCE_LANE_OFFSETS (ulong4)(0, 1, 2, 3)
#elif CLREDUCE_VEC == 8
#define CLREDUCE_LANE_OFFSETS (ulong8)(0, 1, 2, 3, 4, 5, 6, 7)
#else
#define CLREDUCE_LANE_OFFSETS (ulong16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#endif
// A lane-width comparison's mask (`t`) as a mask of positions, of lanes' bits, of indices.
#define CLREDUCE_AS_(t, x) CLREDUCE_CAT(as_, CLREDUCE_VECTOR_OF_(t))(x)
#define CLREDUCE_TO_(t, x) CLREDUCE_CAT(convert_, CLREDUCE_VECTOR_OF_(t))(x)
#if CLREDUCE_INDEX32 && CLREDUCE_LANE_SIZE == 4
#define CLREDUCE_POSITION_MASK_(t) CLREDUCE_AS_(uint, t)
#elif CLREDUCE_INDEX32
#define CLREDUCE_POSITION_MASK_(t) CLREDUCE_AS_(uint, CLREDUCE_TO_(int, t))
#elif CLREDUCE_LANE_SIZE == 4
#define CLREDUCE_POSITION_MASK_(t) CLREDUCE_AS_(ulong, CLREDUCE_TO_(long, t))
#else
#define CLREDUCE_POSITION_MASK_(t) CLREDUCE_AS_(ulong, t)
#endif
#define CLREDUCE_LANE_MASK_(t) CLREDUCE_AS_(CLREDUCE_LANE_BITS_T, t)
#define CLREDUCE_INDEX_MASK_(t) CLREDUCE_AS_(ulong, CLREDUCE_TO_(long, t))
#endif
#define CLREDUCE_LANE_VEC CLREDUCE_VECTOR_OF_(CLREDUCE_LANE_T)
// A comparison of lanes: 1/0 for scalars, -1/0 in lane-wide integers for vectors.
#if CLREDUCE_VEC == 1 || CLREDUCE_LANE_SIZE == 4
#define CLREDUCE_COMPARE_T CLREDUCE_VECTOR_OF_(int)
#else
#define CLREDUCE_COMPARE_T CLREDUCE_VECTOR_OF_(long)
#endif
#define CLREDUCE_LANE_BITS_VEC CLREDUCE_VECTOR_OF_(CLREDUCE_LANE_BITS_T)
#define CLREDUCE_POSITION_VEC CLREDUCE_VECTOR_OF_(CLREDUCE_POSITION_T)
#define CLREDUCE_INDEX_VEC CLREDUCE_VECTOR_OF_(ulong)
// b where the mask m is all ones, else a (integer vectors of m's type).
#define CLREDUCE_BLEND_(a, b, m) (((a) & ~(m)) | ((b) & (m)))
// The mapped vector in lane values.
#define CLREDUCE_TO_LANES(x) CLREDUCE_CAT(convert_, CLREDUCE_LANE_VEC)(x)

// A plug-in's vector state keeps, per extreme, `position` (CLREDUCE_POSITION_VEC: the first
// index of the vector each lane's extreme came from) and `value` (CLREDUCE_LANE_VEC) as its own
// members: a struct of them inside the state made NVIDIA's compiler carry the lanes through
// private memory on every vector.
#define CLREDUCE_LANES_INIT(is_max, position, value)                                    \
    {                                                                                   \
        (position) = (CLREDUCE_POSITION_VEC)CLREDUCE_NO_POSITION;                       \
        (value) = (CLREDUCE_LANE_VEC)((CLREDUCE_LANE_T)CLREDUCE_INDEXED_INIT_(is_max)); \
    }
// The lanes with x (lane values) of the vector whose first index is `first`: each lane takes a
// better value, or a number over NaN (clreduce_indexed_combine for a later index). select()
// picks each lane's bits as they are (-0.0 and NaN payloads kept) and compiles to one select
// per lane from the comparison, where a blend of masks ((a & ~m) | (b & m)) cost NVIDIA's
// compiler a mask and two logic instructions per lane and value (docs/performance.md).
#if CLREDUCE_ACC_FLOAT
#define CLREDUCE_LANES_TAKE(is_max, position, value, x, first)                                          \
    {                                                                                                   \
        const CLREDUCE_COMPARE_T lanes_take_ =                                                          \
            CLREDUCE_INDEXED_BETTER_(is_max, x, value) | (isnan(value) & !isnan(x));                    \
        (value) = select(value, x, CLREDUCE_LANE_MASK_(lanes_take_));                                   \
        (position) = select(position, (CLREDUCE_POSITION_VEC)((CLREDUCE_POSITION_T)(first)),             \
                            CLREDUCE_POSITION_MASK_(lanes_take_));                                      \
    }
#else
#define CLREDUCE_LANES_TAKE(is_max, position, value, x, first)                                          \
    {                                                                                                   \
        const CLREDUCE_COMPARE_T lanes_take_ = CLREDUCE_INDEXED_BETTER_(is_max, x, value);              \
        (value) = (is_max) ? max(value, x) : min(value, x);                                             \
        (position) = select(position, (CLREDUCE_POSITION_VEC)((CLREDUCE_POSITION_T)(first)),             \
                            CLREDUCE_POSITION_MASK_(lanes_take_));                                      \
    }
#endif

// The lanes as one state: the best value of any lane, at the lowest index of the lanes that
// hold it (all lanes where every one is NaN). `first` is the work-item's first vector's first
// index, where a lane that never took has its extreme.
__attribute__((always_inline)) inline clreduce_indexed clreduce_indexed_lanes_finish(const bool is_max,
                                                                                      CLREDUCE_POSITION_VEC position,
                                                                                      CLREDUCE_LANE_VEC value,
                                                                                      ulong first) {
    const CLREDUCE_INDEX_VEC unplaced = CLREDUCE_INDEX_MASK_(position == (CLREDUCE_POSITION_VEC)CLREDUCE_NO_POSITION);
    const CLREDUCE_INDEX_VEC index =
        CLREDUCE_BLEND_(CLREDUCE_CAT(convert_, CLREDUCE_INDEX_VEC)(position), (CLREDUCE_INDEX_VEC)first, unplaced) +
        CLREDUCE_LANE_OFFSETS;
#if CLREDUCE_VEC == 1
    const clreduce_indexed r = {index, (CLREDUCE_ACC)value};
    return r;
#else
#if CLREDUCE_ACC_FLOAT
#define CLREDUCE_INDEXED_BEST_(a, b) ((is_max) ? fmax(a, b) : fmin(a, b))
#else
#define CLREDUCE_INDEXED_BEST_(a, b) ((is_max) ? max(a, b) : min(a, b))
#endif
    const CLREDUCE_LANE_T best = CLREDUCE_HORIZONTAL(CLREDUCE_INDEXED_BEST_, value);
#undef CLREDUCE_INDEXED_BEST_
    CLREDUCE_INDEX_VEC holds = CLREDUCE_INDEX_MASK_(value == (CLREDUCE_LANE_VEC)best);
#if CLREDUCE_ACC_FLOAT
    if (isnan(best)) holds = (CLREDUCE_INDEX_VEC)ULONG_MAX;
#endif
    const CLREDUCE_INDEX_VEC candidates = index | ~holds;  // ULONG_MAX where a lane does not hold it
    clreduce_indexed r = {CLREDUCE_HORIZONTAL(min, candidates), (CLREDUCE_ACC)best};
#if CLREDUCE_ACC_FLOAT
    // The value of the lane chosen, bit for bit (-0.0 and 0.0 compare equal; NaNs differ).
#define CLREDUCE_INDEXED_OR_(a, b) ((a) | (b))
#if CLREDUCE_LANE_SIZE == 4
    const CLREDUCE_LANE_BITS_VEC chosen = CLREDUCE_AS_(uint, CLREDUCE_TO_(int, index == (CLREDUCE_INDEX_VEC)r.index));
#else
    const CLREDUCE_LANE_BITS_VEC chosen = CLREDUCE_AS_(ulong, index == (CLREDUCE_INDEX_VEC)r.index);
#endif
    r.value = CLREDUCE_CAT(as_, CLREDUCE_ACC)(
        CLREDUCE_HORIZONTAL(CLREDUCE_INDEXED_OR_, CLREDUCE_CAT(as_, CLREDUCE_LANE_BITS_VEC)(value) & chosen));
#undef CLREDUCE_INDEXED_OR_
#endif
    return r;
#endif
}
#endif
