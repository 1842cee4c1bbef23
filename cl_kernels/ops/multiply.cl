// Operation: multiply (product, transform-product). State: the accumulator.
typedef CLREDUCE_ACC clreduce_state;
#define clreduce_value(s) (s)        // the result a state stands for (asynchronous calls)
#define CLREDUCE_STATE_SCALAR 1

inline clreduce_state clreduce_init(void) { return (clreduce_state)1; }
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) { return a * b; }
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return s * clreduce_map(x);
}

#if CLREDUCE_MAP != CLREDUCE_MAP_TRANSFORM
#define CLREDUCE_VECTOR_PATH 1
typedef CLREDUCE_ACC_VEC clreduce_vstate;
inline clreduce_vstate clreduce_vinit(void) { return (clreduce_vstate)1; }
inline clreduce_vstate clreduce_vaccumulate(clreduce_vstate s, CLREDUCE_T_VEC v) { return s * clreduce_vmap(v); }
#define CLREDUCE_MUL_(a, b) ((a) * (b))
inline clreduce_state clreduce_vfinish(clreduce_vstate s) { return CLREDUCE_HORIZONTAL(CLREDUCE_MUL_, s); }
#endif
