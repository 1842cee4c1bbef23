// The PCL-Reduction paper's Naive Reduction (its Algorithm 2), the baseline clreduce-perf
// compare times: one element per work-item, an interleaved-addressing tree in local memory
// (work-item l adds its neighbour i away while l is a multiple of 2i), and one partial per
// work-group. The paper ends with an atomic add of the partials; here the partials are
// summed by further launches of the same tree until one value is left (naive_sum_partials),
// so that 64-bit and floating-point sums need no atomics. Partials and local memory use the
// accumulator type (64-bit integers, double where the device has fp64) so the sum is exact.
#ifdef NAIVE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef NAIVE_T
#define NAIVE_T int
#endif
#ifndef NAIVE_ACC
#define NAIVE_ACC long
#endif

#define NAIVE_SUM_KERNEL(name, IN)                                                              \
    __kernel void name(__global const IN* src, ulong n, __global NAIVE_ACC* partials,          \
                       __local NAIVE_ACC* lsum) {                                               \
        const size_t lid = get_local_id(0);                                                     \
        const size_t lsize = get_local_size(0);                                                 \
        const size_t idx = get_global_id(0);                                                    \
        lsum[lid] = idx < n ? (NAIVE_ACC)src[idx] : (NAIVE_ACC)0;                               \
        barrier(CLK_LOCAL_MEM_FENCE);                                                           \
        for (size_t i = 1; i < lsize; i <<= 1) {                                                \
            const size_t test_bits = (i << 1) - 1;                                              \
            if ((lid & test_bits) == 0) lsum[lid] += lsum[lid + i];                             \
            barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        }                                                                                       \
        if (lid == 0) partials[get_group_id(0)] = lsum[0];                                      \
    }

NAIVE_SUM_KERNEL(naive_sum_elements, NAIVE_T)
NAIVE_SUM_KERNEL(naive_sum_partials, NAIVE_ACC)
