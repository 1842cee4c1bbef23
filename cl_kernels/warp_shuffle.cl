// clreduce: the last warp of a work-group tree by shuffle (NVIDIA, CLREDUCE_NV_SHUFFLE), for
// reduce.cl and segments.cl; CLREDUCE_TREE_STOP is where the local-memory tree stops (the
// wavefront when the shuffle finishes it, else 1). Included by reduce.cl (the host expands the
// line), after the plug-in that defines clreduce_state.
#if CLREDUCE_NV_SHUFFLE
// Warp shuffle through inline PTX: shfl.sync names its lanes, so it stays correct under
// independent thread scheduling (Volta and later), unlike a barrier-less volatile tail.
inline uint clreduce_shfl_down_u32(uint v, uint delta) {
    uint r;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
    return r;
}
#if defined(CLREDUCE_STATE_SCALAR) && CLREDUCE_ACC_SIZE == 8
inline clreduce_state clreduce_shfl_down(clreduce_state v, uint delta) {
    const ulong bits = CLREDUCE_CAT(as_, ulong)(v);
    const uint lo = clreduce_shfl_down_u32((uint)bits, delta);
    const uint hi = clreduce_shfl_down_u32((uint)(bits >> 32), delta);
    return CLREDUCE_CAT(as_, CLREDUCE_ACC)(upsample(hi, lo));
}
#elif defined(CLREDUCE_STATE_SCALAR) && CLREDUCE_ACC_SIZE == 4
inline clreduce_state clreduce_shfl_down(clreduce_state v, uint delta) {
    return CLREDUCE_CAT(as_, CLREDUCE_ACC)(clreduce_shfl_down_u32(CLREDUCE_CAT(as_, uint)(v), delta));
}
#else
// Any other state moves as 32-bit words.
typedef union {
    clreduce_state state;
    uint words[(sizeof(clreduce_state) + 3) / 4];
} clreduce_state_words;
inline clreduce_state clreduce_shfl_down(clreduce_state v, uint delta) {
    clreduce_state_words u;
    u.state = v;
    for (uint k = 0; k < (sizeof(clreduce_state) + 3) / 4; ++k) u.words[k] = clreduce_shfl_down_u32(u.words[k], delta);
    return u.state;
}
#endif
#define CLREDUCE_TREE_STOP CLREDUCE_WAVEFRONT
#else
#define CLREDUCE_TREE_STOP 1
#endif
