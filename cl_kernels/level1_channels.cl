// clreduce: level 1 of every channel of a dense image at once (CLREDUCE_ALL_CHANNELS with
// CLREDUCE_DENSE), for reduce.cl. Included by it (the host expands the line) after
// clreduce_level1, whose dense loads (pitched.cl) it shares: vector i is the
// CLREDUCE_DENSE pixels from pixel i * CLREDUCE_DENSE on, read as CLREDUCE_CHANNELS vectors of
// CLREDUCE_DENSE elements, with their mask bytes in one more load. Where clreduce_level1 once
// per channel would read each vector CLREDUCE_CHANNELS times (from the cache, after the
// first), this keeps a state per channel and reads it once. The plug-in takes each selected
// pixel's elements one at a time, channel by channel, with the pixel's index, as
// clreduce_level1 does for one channel. (Plug-ins with a group sink or optimistic passes, the
// correctly rounded sum's, never run with their channels at once.)
#if CLREDUCE_ALL_CHANNELS && CLREDUCE_DENSE
#if defined(CLREDUCE_GROUP_SINK) || defined(CLREDUCE_VECTOR_RETRY)
#error "a plug-in with a group sink or optimistic passes runs an image channel by channel"
#endif
#ifdef CLREDUCE_VECTOR_PATH
#define CLREDUCE_CHANNEL_STATE clreduce_vstate
#define CLREDUCE_CHANNEL_INIT clreduce_vinit
#define CLREDUCE_CHANNEL_TAKE(s, x, index) s = CLREDUCE_VACCUMULATE(s, x, index);
#else
#define CLREDUCE_CHANNEL_STATE clreduce_state
#define CLREDUCE_CHANNEL_INIT clreduce_init
#define CLREDUCE_CHANNEL_TAKE(s, x, index) s = CLREDUCE_TAKE(s, x, index);
#endif

// Vector i's selected pixels into `s`, channel by channel; LOAD(j) reads part j of a vector.
#define CLREDUCE_CHANNELS_TAKE(i, LOAD)                                                             \
    {                                                                                              \
        CLREDUCE_DENSE_LANES(i, LOAD)                                                              \
        CLREDUCE_DENSE_MASK(i)                                                                     \
        _Pragma("unroll") for (uint q = 0; q < CLREDUCE_DENSE; ++q) {                              \
            if (CLREDUCE_DENSE_SELECTED(q)) {                                                      \
                _Pragma("unroll") for (uint c = 0; c < CLREDUCE_CHANNELS; ++c)                     \
                    CLREDUCE_CHANNEL_TAKE(s[c], lanes[q * CLREDUCE_CHANNELS + c], (i) * CLREDUCE_DENSE + q) \
            }                                                                                      \
        }                                                                                          \
    }
#define CLREDUCE_CHANNELS_ALIGNED(j) ((__global const CLREDUCE_CAT(CLREDUCE_IN_T, CLREDUCE_DENSE)*)in)[j]
#define CLREDUCE_CHANNELS_UNALIGNED(j) CLREDUCE_CAT(vload, CLREDUCE_DENSE)(j, in)
#define CLREDUCE_CHANNELS_LOOP(LOAD)                                                               \
    if (whole) {                                                                                   \
        for (uint t = 0; t < CLREDUCE_TIMES; ++t) CLREDUCE_CHANNELS_TAKE(first + t * step, LOAD)   \
    } else {                                                                                       \
        for (uint t = 0; t < CLREDUCE_TIMES && first + t * step < vectors; ++t)                    \
            CLREDUCE_CHANNELS_TAKE(first + t * step, LOAD)                                         \
    }

// This work-item's state of each channel into out[c].
__attribute__((always_inline)) inline void clreduce_level1_channels(__global const CLREDUCE_IN_T* in, ulong count,
                                                                    ulong group, uint lid CLREDUCE_IMAGE_PARAMS,
                                                                    clreduce_state* out) {
    const ulong first = clreduce_first_vector(group, lid);
    const ulong step = clreduce_vector_step();
    const ulong vectors = count / CLREDUCE_DENSE;
    const bool whole = first + (ulong)(CLREDUCE_TIMES - 1) * step < vectors;
    const bool aligned = clreduce_dense_aligned(in, CLREDUCE_DENSE_MASK_POINTER);
    CLREDUCE_CHANNEL_STATE s[CLREDUCE_CHANNELS];
#pragma unroll
    for (uint c = 0; c < CLREDUCE_CHANNELS; ++c) s[c] = CLREDUCE_CHANNEL_INIT();
    if (aligned) {
        CLREDUCE_CHANNELS_LOOP(CLREDUCE_CHANNELS_ALIGNED)
    } else {
        CLREDUCE_CHANNELS_LOOP(CLREDUCE_CHANNELS_UNALIGNED)
    }
#pragma unroll
    for (uint c = 0; c < CLREDUCE_CHANNELS; ++c) {
#ifdef CLREDUCE_VECTOR_PATH
        out[c] = clreduce_vfinish(s[c]);
#else
        out[c] = s[c];
#endif
    }
    // The pixels after the whole vectors, in group 0, after this work-item's vectors (higher
    // indices), so that states keep their index order.
    if (group == 0)
        for (ulong p = vectors * CLREDUCE_DENSE + lid; p < count; p += CLREDUCE_WG) {
#if CLREDUCE_MASKED
            if (mask[p] == 0) continue;
#endif
#pragma unroll
            for (uint c = 0; c < CLREDUCE_CHANNELS; ++c) out[c] = CLREDUCE_TAKE(out[c], in[p * CLREDUCE_CHANNELS + c], p);
        }
}
#undef CLREDUCE_CHANNEL_STATE
#undef CLREDUCE_CHANNEL_INIT
#undef CLREDUCE_CHANNEL_TAKE
#undef CLREDUCE_CHANNELS_TAKE
#undef CLREDUCE_CHANNELS_ALIGNED
#undef CLREDUCE_CHANNELS_UNALIGNED
#undef CLREDUCE_CHANNELS_LOOP
#endif
