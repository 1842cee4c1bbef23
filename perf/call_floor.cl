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
