// Kernels of `clreduce-perf floor`: what a synchronous call costs on a device before any
// reduction work, and how fast the device can read memory at all.

// The smallest useful launch: one work-item writes one word.
__kernel void floor_touch(__global long* out, long value) {
    if (get_global_id(0) == 0) out[0] = value;
}

// Reads every 16-byte vector of [0, vectors) once (grid-stride) and writes nothing unless the
// XOR of everything read equals `never`, which the host picks so that it does not: the
// compiler cannot drop the loads, and the memory traffic is reads only.
__kernel void floor_read(__global const uint4* in, ulong vectors, __global uint* sink, uint never) {
    uint4 acc = (uint4)(0);
    const ulong step = get_global_size(0);
    for (ulong i = get_global_id(0); i < vectors; i += step) acc ^= in[i];
    const uint folded = acc.x ^ acc.y ^ acc.z ^ acc.w;
    if (folded == never) sink[0] = folded;
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
