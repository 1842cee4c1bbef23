// clreduce: what every program shares, before the operation (ops/*.cl) and the skeleton
// (reduce.cl). The host (src/kernels/kernel_spec.cpp) concatenates
//     prelude.cl, fixed_point.cl, [the user's transform], ops/<operation>.cl, reduce.cl
// and specialises the result with -D options; the defaults below let it compile alone.

#ifndef CLREDUCE_T
#define CLREDUCE_T uint                 // element type
#endif
#ifndef CLREDUCE_T_FLOAT
#define CLREDUCE_T_FLOAT 0              // 1 when CLREDUCE_T is half, float or double
#endif
#ifndef CLREDUCE_ACC
#define CLREDUCE_ACC ulong              // the state's value type (accumulator)
#endif
#ifndef CLREDUCE_ACC_SIZE
#define CLREDUCE_ACC_SIZE 8             // sizeof(CLREDUCE_ACC)
#endif
#ifndef CLREDUCE_ACC_FLOAT
#define CLREDUCE_ACC_FLOAT 0            // 1 when CLREDUCE_ACC is float or double
#endif
#ifndef CLREDUCE_ACC_LOWEST
#define CLREDUCE_ACC_LOWEST 0           // identities of max and min
#endif
#ifndef CLREDUCE_ACC_HIGHEST
#define CLREDUCE_ACC_HIGHEST ULONG_MAX
#endif
#ifndef CLREDUCE_FP64
#define CLREDUCE_FP64 0                 // 1 when T or ACC is double
#endif
#ifndef CLREDUCE_FP16
#define CLREDUCE_FP16 0                 // 1 when T is half
#endif
#ifndef CLREDUCE_VEC
#define CLREDUCE_VEC 4                  // elements per load: 1, 2, 4, 8, 16
#endif
#ifndef CLREDUCE_MAP
#define CLREDUCE_MAP CLREDUCE_MAP_IDENTITY  // element map, see clreduce_map below
#endif

// Level 3: how a launch ends (CLREDUCE_FINISH, given by name; src/kernels/kernel_spec.cpp's
// Finish). Defined here so that the operation plug-ins see the names too.
#define CLREDUCE_FINISH_SECOND_PASS 0   // store this group's result at out[group] for a second pass
#define CLREDUCE_FINISH_ATOMIC 1        // atomically combine into out[slot]
#define CLREDUCE_FINISH_STORE 2         // single group: store the result at out[slot]
#define CLREDUCE_FINISH_LAST_GROUP 3    // partial at out[2 + group]; the last group combines them
#define CLREDUCE_FINISH_EXACT_ATOMIC 4  // added exactly into a fixed-point number of set `slot` (ops/add.cl)
#ifndef CLREDUCE_FINISH
#define CLREDUCE_FINISH CLREDUCE_FINISH_ATOMIC
#endif

#if CLREDUCE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if CLREDUCE_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
// The same arithmetic in the vector and the scalar paths, on every device.
#pragma OPENCL FP_CONTRACT OFF

#define CLREDUCE_CAT_(a, b) a##b
#define CLREDUCE_CAT(a, b) CLREDUCE_CAT_(a, b)

#if CLREDUCE_VEC == 1
#define CLREDUCE_T_VEC CLREDUCE_T
#define CLREDUCE_ACC_VEC CLREDUCE_ACC
#else
#define CLREDUCE_T_VEC CLREDUCE_CAT(CLREDUCE_T, CLREDUCE_VEC)
#define CLREDUCE_ACC_VEC CLREDUCE_CAT(CLREDUCE_ACC, CLREDUCE_VEC)
#endif
// CLREDUCE_LANE (optional): a 32-bit type that level 1 of an 8/16-bit integer sum adds in
// before widening to the accumulator; the host sets it only where times * max|x| cannot
// overflow it.
#ifdef CLREDUCE_LANE
#if CLREDUCE_VEC == 1
#define CLREDUCE_LANE_VEC CLREDUCE_LANE
#else
#define CLREDUCE_LANE_VEC CLREDUCE_CAT(CLREDUCE_LANE, CLREDUCE_VEC)
#endif
#define CLREDUCE_TO_LANE_VEC(x) CLREDUCE_CAT(convert_, CLREDUCE_LANE_VEC)(x)
#endif
#define CLREDUCE_TO_ACC(x) CLREDUCE_CAT(convert_, CLREDUCE_ACC)(x)
#define CLREDUCE_TO_ACC_VEC(x) CLREDUCE_CAT(convert_, CLREDUCE_ACC_VEC)(x)

// The element map, applied to each element before the operation combines it:
//   0 x   1 x*x   2 |x|   3 x != 0   4 the user's transform (clreduce_transform, defined by
//   the host before the operation's file). Maps 0-3 also have a vector form (clreduce_vmap).
#define CLREDUCE_MAP_IDENTITY 0
#define CLREDUCE_MAP_SQUARE 1
#define CLREDUCE_MAP_ABS 2
#define CLREDUCE_MAP_NONZERO 3
#define CLREDUCE_MAP_TRANSFORM 4

#if CLREDUCE_MAP == CLREDUCE_MAP_IDENTITY
#define clreduce_map(x) CLREDUCE_TO_ACC(x)
#define clreduce_vmap(v) CLREDUCE_TO_ACC_VEC(v)
#elif CLREDUCE_MAP == CLREDUCE_MAP_SQUARE
#define clreduce_map(x) (CLREDUCE_TO_ACC(x) * CLREDUCE_TO_ACC(x))
#define clreduce_vmap(v) (CLREDUCE_TO_ACC_VEC(v) * CLREDUCE_TO_ACC_VEC(v))
#elif CLREDUCE_MAP == CLREDUCE_MAP_ABS
#if CLREDUCE_T_FLOAT
#define clreduce_map(x) CLREDUCE_TO_ACC(fabs(x))
#define clreduce_vmap(v) CLREDUCE_TO_ACC_VEC(fabs(v))
#else
#define clreduce_map(x) CLREDUCE_TO_ACC(abs(x))
#define clreduce_vmap(v) CLREDUCE_TO_ACC_VEC(abs(v))
#endif
#elif CLREDUCE_MAP == CLREDUCE_MAP_NONZERO
// A vector comparison gives -1 for true, a scalar one 1.
#define clreduce_map(x) CLREDUCE_TO_ACC((x) != (CLREDUCE_T)0)
#if CLREDUCE_VEC == 1
#define clreduce_vmap(v) clreduce_map(v)
#else
#define clreduce_vmap(v) CLREDUCE_TO_ACC_VEC(-((v) != (CLREDUCE_T_VEC)0))
#endif
#elif CLREDUCE_MAP == CLREDUCE_MAP_TRANSFORM
// typed like the reduction: CLREDUCE_X is the accumulator, or the one named where the sum is
// kept in a wider exact state (defined with clreduce_transform)
#define clreduce_map(x) CLREDUCE_TO_ACC(clreduce_transform(CLREDUCE_TO_X(x)))
#else
#error "unknown CLREDUCE_MAP"
#endif

// Horizontal combine of a vector's lanes with a binary macro F (lane order kept).
#if CLREDUCE_VEC == 1
#define CLREDUCE_HORIZONTAL(F, v) (v)
#else
#define CLREDUCE_H2(F, v) F((v).s0, (v).s1)
#define CLREDUCE_H4(F, v) F(CLREDUCE_H2(F, (v).lo), CLREDUCE_H2(F, (v).hi))
#define CLREDUCE_H8(F, v) F(CLREDUCE_H4(F, (v).lo), CLREDUCE_H4(F, (v).hi))
#define CLREDUCE_H16(F, v) F(CLREDUCE_H8(F, (v).lo), CLREDUCE_H8(F, (v).hi))
#define CLREDUCE_HORIZONTAL(F, v) CLREDUCE_CAT(CLREDUCE_H, CLREDUCE_VEC)(F, v)
#endif

// TwoSum (Knuth): sum + error == a + x exactly, for any order of magnitude; a takes the sum, x
// the error. Six additions, no branch. (Compensated and correctly rounded sums.)
#define CLREDUCE_TWO_SUM(TYPE, a, x)                                  \
    {                                                                 \
        const TYPE two_sum_s = (a) + (x);                             \
        const TYPE two_sum_b = two_sum_s - (a);                       \
        (x) = ((a) - (two_sum_s - two_sum_b)) + ((x) - two_sum_b);    \
        (a) = two_sum_s;                                              \
    }

// A loop over items first, first + stride, ... below `bound` that loads AHEAD of them before it
// takes any: LOAD(i) gives item i, TAKE(value, i) adds it. Where taking an item waits on
// something (local memory, as the bins' read-modify-write does), a loop that loads and takes
// one item at a time keeps one load in flight a work-item. reduce.cl's late passes and
// segments.cl's loops use them.
#define CLREDUCE_LOADS_AHEAD(T, AHEAD, first, bound, stride, LOAD, TAKE)                        \
    for (ulong i0 = (first); i0 < (bound); i0 += (AHEAD) * (stride)) {                          \
        T loaded[AHEAD];                                                                        \
        _Pragma("unroll") for (uint u = 0; u < (AHEAD); ++u)                                    \
            if (i0 + u * (stride) < (bound)) loaded[u] = LOAD(i0 + u * (stride));               \
        _Pragma("unroll") for (uint u = 0; u < (AHEAD); ++u)                                    \
            if (i0 + u * (stride) < (bound)) TAKE(loaded[u], i0 + u * (stride))                 \
    }
// The same without the bound checks, for `items` items that AHEAD divides.
#define CLREDUCE_LOADS_AHEAD_WHOLE(T, AHEAD, first, items, stride, LOAD, TAKE)                  \
    for (ulong i0 = (first), end0 = (first) + (ulong)(items) * (stride); i0 < end0;              \
         i0 += (AHEAD) * (stride)) {                                                            \
        T loaded[AHEAD];                                                                        \
        _Pragma("unroll") for (uint u = 0; u < (AHEAD); ++u) loaded[u] = LOAD(i0 + u * (stride)); \
        _Pragma("unroll") for (uint u = 0; u < (AHEAD); ++u) TAKE(loaded[u], i0 + u * (stride))   \
    }
