// Operation: a combine of the user's own (transform_reduce with a CombineExpression). State:
// the accumulator, which is the expression's type CLREDUCE_X. The host places before this
// file (kernel_spec.cpp) clreduce_user_combine(a, b), the user's expression in a and b parsed
// and printed back from its tree, and CLREDUCE_USER_IDENTITY, its identity as a constant of
// the accumulator. The user promises associativity; commutativity is checked on the host by a
// written rule (src/transform/symmetry.hpp), since the skeleton combines states out of the
// elements' order. No vector path (the map is a transform), no atomic finish (an atomic
// cannot run an expression): level 3 is the last group's loop or a second pass.
typedef CLREDUCE_ACC clreduce_state;
#define clreduce_value(s) (s)        // the result a state stands for (asynchronous calls)
#define CLREDUCE_STATE_SCALAR 1

#ifndef CLREDUCE_USER_IDENTITY
#error "ops/user_combine.cl needs the host's clreduce_user_combine and CLREDUCE_USER_IDENTITY"
#endif

inline clreduce_state clreduce_init(void) { return CLREDUCE_USER_IDENTITY; }
inline clreduce_state clreduce_combine(clreduce_state a, clreduce_state b) { return clreduce_user_combine(a, b); }
inline clreduce_state clreduce_accumulate(clreduce_state s, CLREDUCE_T x, ulong index) {
    return clreduce_user_combine(s, clreduce_map(x));
}
