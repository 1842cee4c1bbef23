// Operation: argminmax, argmin's and argmax's states of one pass (what cv::minMaxLoc gives),
// by ops/indexed.cl's rules: each extreme at the lowest index holding it.
#include "ops/indexed.cl"

typedef struct {
    clreduce_indexed lo;
    clreduce_indexed hi;
} clreduce_state;

__attribute__((always_inline)) inline clreduce_state clreduce_init(void) {
    const clreduce_state s = {clreduce_indexed_init(0), clreduce_indexed_init(1)};
    return s;
}
__attribute__((always_inline)) inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    a.lo = clreduce_indexed_combine(0, a.lo, b.lo);
    a.hi = clreduce_indexed_combine(1, a.hi, b.hi);
    return a;
}
__attribute__((always_inline)) inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    const CLREDUCE_ACC v = clreduce_map(x);
    s.lo = clreduce_indexed_take(0, s.lo, v, index);
    s.hi = clreduce_indexed_take(1, s.hi, v, index);
    return s;
}

#ifdef CLREDUCE_VECTOR_INDEXED
typedef struct {
    ulong first;  // the first vector's first index; ULONG_MAX: no vector yet
    CLREDUCE_POSITION_VEC lo_position;
    CLREDUCE_LANE_VEC lo_value;
    CLREDUCE_POSITION_VEC hi_position;
    CLREDUCE_LANE_VEC hi_value;
} clreduce_vstate;

__attribute__((always_inline)) inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s;
    s.first = ULONG_MAX;
    CLREDUCE_LANES_INIT(0, s.lo_position, s.lo_value)
    CLREDUCE_LANES_INIT(1, s.hi_position, s.hi_value)
    return s;
}
__attribute__((always_inline)) inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v,
                                                                           ulong first) {
    s.first = min(s.first, first);
    const CLREDUCE_LANE_VEC x = CLREDUCE_TO_LANES(clreduce_vmap(v));
    CLREDUCE_LANES_TAKE(0, s.lo_position, s.lo_value, x, first)
    CLREDUCE_LANES_TAKE(1, s.hi_position, s.hi_value, x, first)
    return s;
}
__attribute__((always_inline)) inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    if (s.first == ULONG_MAX) return clreduce_init();
    const clreduce_state r = {clreduce_indexed_lanes_finish(0, s.lo_position, s.lo_value, s.first),
                              clreduce_indexed_lanes_finish(1, s.hi_position, s.hi_value, s.first)};
    return r;
}
#endif
