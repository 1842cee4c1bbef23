// Operation: argmin or argmax (CLREDUCE_IS_MAX): the extreme value and the lowest index
// holding it, by ops/indexed.cl's rules (NaN loses to every number; among equals, NaN
// included, the lower index wins, so all-NaN input gives (NaN, 0)).
#ifndef CLREDUCE_IS_MAX
#define CLREDUCE_IS_MAX 0
#endif
#include "ops/indexed.cl"

typedef clreduce_indexed clreduce_state;

__attribute__((always_inline)) inline clreduce_state clreduce_init(void) {
    return clreduce_indexed_init(CLREDUCE_IS_MAX);
}
__attribute__((always_inline)) inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) {
    return clreduce_indexed_combine(CLREDUCE_IS_MAX, a, b);
}
__attribute__((always_inline)) inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return clreduce_indexed_take(CLREDUCE_IS_MAX, s, clreduce_map(x), index);
}

#ifdef CLREDUCE_VECTOR_INDEXED
typedef struct {
    ulong first;  // the first vector's first index; ULONG_MAX: no vector yet
    CLREDUCE_POSITION_VEC position;
    CLREDUCE_LANE_VEC value;
} clreduce_vstate;

__attribute__((always_inline)) inline clreduce_vstate clreduce_vinit(void) {
    clreduce_vstate s;
    s.first = ULONG_MAX;
    CLREDUCE_LANES_INIT(CLREDUCE_IS_MAX, s.position, s.value)
    return s;
}
__attribute__((always_inline)) inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v,
                                                                           ulong first) {
    s.first = min(s.first, first);
    const CLREDUCE_LANE_VEC x = CLREDUCE_TO_LANES(clreduce_vmap(v));
    CLREDUCE_LANES_TAKE(CLREDUCE_IS_MAX, s.position, s.value, x, first)
    return s;
}
__attribute__((always_inline)) inline clreduce_state clreduce_vfinish(clreduce_vstate s) {
    if (s.first == ULONG_MAX) return clreduce_init();
    return clreduce_indexed_lanes_finish(CLREDUCE_IS_MAX, s.position, s.value, s.first);
}
#endif
