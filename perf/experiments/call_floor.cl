// Kernels of clreduce-floor: what a synchronous call costs on a device before any reduction
// work. (Its read bandwidth row uses perf/measure/read_only.cl.)

// The smallest useful launch: one work-item writes one word.
__kernel void floor_touch(__global long* out, long value) {
    if (get_global_id(0) == 0) out[0] = value;
}

// One work-item busy for `iterations` dependent multiply-adds, then the word: a kernel of a
// chosen device time, to see how the blocking read's wait depends on it.
__kernel void floor_busy(__global long* out, long value, ulong iterations) {
    ulong x = (ulong)value;
    for (ulong i = 0; i < iterations; ++i) x = x * 6364136223846793005UL + 1442695040888963407UL;
    if (get_global_id(0) == 0) {
        out[0] = value;
        if (x == 0x5eed) out[1] = (long)x;
    }
}
