// clreduce: the three-level reduction of the PCL-Reduction paper.
//   level 1  each work-item accumulates CLREDUCE_TIMES vectors in a private register
//   level 2  a work-group tree in local memory (sequential addressing)
//   level 3  one result per group: a partial for a second pass, an atomic add, or the result
// The host specialises it with -D options (src/kernel_spec.cpp); the defaults below let the
// file compile on its own.

#ifndef CLREDUCE_T
#define CLREDUCE_T uint                 // element type
#endif
#ifndef CLREDUCE_ACC
#define CLREDUCE_ACC ulong              // accumulator type
#endif
#ifndef CLREDUCE_ACC_SIZE
#define CLREDUCE_ACC_SIZE 8             // sizeof(CLREDUCE_ACC)
#endif
#ifndef CLREDUCE_FP64
#define CLREDUCE_FP64 0                 // 1 when T or ACC is double
#endif
#ifndef CLREDUCE_VEC
#define CLREDUCE_VEC 4                  // elements per load: 1, 2, 4, 8, 16
#endif
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

#define CLREDUCE_FINISH_PARTIAL 0       // store this group's result at out[group]
#define CLREDUCE_FINISH_ATOMIC 1        // atomically combine into out[slot]
#define CLREDUCE_FINISH_STORE 2         // single group: store the result at out[slot]
#ifndef CLREDUCE_FINISH
#define CLREDUCE_FINISH CLREDUCE_FINISH_ATOMIC
#endif

#define CLREDUCE_OP_SUM 0
#ifndef CLREDUCE_OP
#define CLREDUCE_OP CLREDUCE_OP_SUM
#endif

#if CLREDUCE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if CLREDUCE_FINISH == CLREDUCE_FINISH_ATOMIC && CLREDUCE_ACC_SIZE == 8
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

#define CLREDUCE_CAT_(a, b) a##b
#define CLREDUCE_CAT(a, b) CLREDUCE_CAT_(a, b)

// The operation: identity and combine; combine works on scalars and vectors alike.
#if CLREDUCE_OP == CLREDUCE_OP_SUM
#define CLREDUCE_IDENTITY 0
#define CLREDUCE_COMBINE(a, b) ((a) + (b))
#define CLREDUCE_ATOMIC_32 atomic_add
#define CLREDUCE_ATOMIC_64 atom_add
#else
#error "unknown CLREDUCE_OP"
#endif

#if CLREDUCE_VEC == 1
#define CLREDUCE_T_VEC CLREDUCE_T
#define CLREDUCE_ACC_VEC CLREDUCE_ACC
#define CLREDUCE_HORIZONTAL(v) (v)
#else
#define CLREDUCE_T_VEC CLREDUCE_CAT(CLREDUCE_T, CLREDUCE_VEC)
#define CLREDUCE_ACC_VEC CLREDUCE_CAT(CLREDUCE_ACC, CLREDUCE_VEC)
#define CLREDUCE_H2(v) CLREDUCE_COMBINE((v).s0, (v).s1)
#define CLREDUCE_H4(v) CLREDUCE_COMBINE(CLREDUCE_H2((v).lo), CLREDUCE_H2((v).hi))
#define CLREDUCE_H8(v) CLREDUCE_COMBINE(CLREDUCE_H4((v).lo), CLREDUCE_H4((v).hi))
#define CLREDUCE_H16(v) CLREDUCE_COMBINE(CLREDUCE_H8((v).lo), CLREDUCE_H8((v).hi))
#define CLREDUCE_HORIZONTAL(v) CLREDUCE_CAT(CLREDUCE_H, CLREDUCE_VEC)(v)
#endif
#define CLREDUCE_TO_ACC(x) CLREDUCE_CAT(convert_, CLREDUCE_ACC)(x)
#define CLREDUCE_TO_ACC_VEC(x) CLREDUCE_CAT(convert_, CLREDUCE_ACC_VEC)(x)

#if CLREDUCE_NV_SHUFFLE
// Warp shuffle through inline PTX: shfl.sync names its lanes, so it stays correct under
// independent thread scheduling (Volta and later), unlike a barrier-less volatile tail.
inline uint clreduce_shfl_down_u32(uint v, uint delta) {
    uint r;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
    return r;
}
inline CLREDUCE_ACC clreduce_shfl_down(CLREDUCE_ACC v, uint delta) {
#if CLREDUCE_ACC_SIZE == 8
    const ulong bits = CLREDUCE_CAT(as_, ulong)(v);
    const uint lo = clreduce_shfl_down_u32((uint)bits, delta);
    const uint hi = clreduce_shfl_down_u32((uint)(bits >> 32), delta);
    return CLREDUCE_CAT(as_, CLREDUCE_ACC)(upsample(hi, lo));
#else
    return CLREDUCE_CAT(as_, CLREDUCE_ACC)(clreduce_shfl_down_u32(CLREDUCE_CAT(as_, uint)(v), delta));
#endif
}
#define CLREDUCE_TREE_STOP CLREDUCE_WAVEFRONT
#else
#define CLREDUCE_TREE_STOP 1
#endif

// Reduces elements [offset, offset + count) of `in`. `slot` selects the result word for
// the atomic and store finishes; the other word is reset to the identity for the next call.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce(__global const CLREDUCE_T* in, ulong offset, ulong count,
                     __global CLREDUCE_ACC* out, uint slot)
{
    const uint lid = get_local_id(0);
    const ulong group = get_group_id(0);
    in += offset;

    // Vector loads need an address aligned to the vector: the `head` elements before the
    // first aligned one and the tail after the last whole vector are read as scalars.
    const ulong misalign = ((ulong)in / sizeof(CLREDUCE_T)) % CLREDUCE_VEC;
    const ulong head = min(count, (ulong)((CLREDUCE_VEC - misalign) % CLREDUCE_VEC));
    const ulong vectors = (count - head) / CLREDUCE_VEC;
    const ulong tail_start = head + vectors * CLREDUCE_VEC;
    __global const CLREDUCE_T_VEC* body = (__global const CLREDUCE_T_VEC*)(in + head);

    // Level 1: in-thread accumulation.
#if CLREDUCE_STRIDE_LOCAL
    const ulong first = group * (ulong)(CLREDUCE_WG * CLREDUCE_TIMES) + lid;
    const ulong step = CLREDUCE_WG;
#else
    const ulong first = group * (ulong)CLREDUCE_WG + lid;
    const ulong step = get_global_size(0);
#endif
    CLREDUCE_ACC_VEC acc_vec = (CLREDUCE_ACC_VEC)(CLREDUCE_IDENTITY);
    if (first + (ulong)(CLREDUCE_TIMES - 1) * step < vectors) {
        ulong i = first;
        for (uint t = 0; t < CLREDUCE_TIMES; ++t, i += step)
            acc_vec = CLREDUCE_COMBINE(acc_vec, CLREDUCE_TO_ACC_VEC(body[i]));
    } else {
        ulong i = first;
        for (uint t = 0; t < CLREDUCE_TIMES && i < vectors; ++t, i += step)
            acc_vec = CLREDUCE_COMBINE(acc_vec, CLREDUCE_TO_ACC_VEC(body[i]));
    }
    CLREDUCE_ACC acc = CLREDUCE_HORIZONTAL(acc_vec);
    if (group == 0) {
        for (ulong j = lid; j < head; j += CLREDUCE_WG)
            acc = CLREDUCE_COMBINE(acc, CLREDUCE_TO_ACC(in[j]));
        for (ulong j = tail_start + lid; j < count; j += CLREDUCE_WG)
            acc = CLREDUCE_COMBINE(acc, CLREDUCE_TO_ACC(in[j]));
    }

    // Level 2: tree in local memory, a barrier per step.
    __local CLREDUCE_ACC scratch[CLREDUCE_WG];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = CLREDUCE_WG / 2; s >= CLREDUCE_TREE_STOP; s >>= 1) {
        if (lid < s)
            scratch[lid] = CLREDUCE_COMBINE(scratch[lid], scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if CLREDUCE_NV_SHUFFLE
    // The last warp (the host guarantees CLREDUCE_WG >= CLREDUCE_WAVEFRONT): all its
    // lanes take part, so the full mask is right.
    if (lid < CLREDUCE_WAVEFRONT) {
        acc = scratch[lid];
        for (uint delta = CLREDUCE_WAVEFRONT / 2; delta > 0; delta >>= 1)
            acc = CLREDUCE_COMBINE(acc, clreduce_shfl_down(acc, delta));
    }
#else
    acc = scratch[0];
#endif

    // Level 3.
    if (lid == 0) {
#if CLREDUCE_FINISH == CLREDUCE_FINISH_PARTIAL
        out[group] = acc;
#elif CLREDUCE_FINISH == CLREDUCE_FINISH_ATOMIC
#if CLREDUCE_ACC_SIZE == 8
        CLREDUCE_ATOMIC_64((volatile __global CLREDUCE_ACC*)(out + slot), acc);
#else
        CLREDUCE_ATOMIC_32((volatile __global CLREDUCE_ACC*)(out + slot), acc);
#endif
        if (group == 0)
            out[slot ^ 1u] = CLREDUCE_IDENTITY;
#else
        out[slot] = acc;
        out[slot ^ 1u] = CLREDUCE_IDENTITY;
#endif
    }
}
