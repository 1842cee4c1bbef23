// The read-only kernel: how fast the device can read memory at all, the bound a reduction can
// approach (compare times it on each competitor's buffer, clreduce-floor on a large one).

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
