// clreduce: one element of a pitched image and its mask byte (CLREDUCE_PITCHED), for
// reduce.cl's level 1. Included by reduce.cl (the host expands the line), after the input type.
#if CLREDUCE_PITCHED
// Pixel i's row, i / cols, once per element: in 32 bits where the image has fewer than 2^32
// pixels (`narrow`, the same in the whole launch), since a GPU's 64-bit division costs several
// times a 32-bit one and would bound the image forms.
inline ulong clreduce_row(ulong i, bool narrow, ulong cols) {
    return narrow ? (ulong)((uint)i / (uint)cols) : i / cols;
}

// Element `channel` of pixel i of an image whose rows hold `cols` pixels of `channels` elements
// and start `pitch` elements apart.
inline CLREDUCE_IN_T clreduce_pixel(__global const CLREDUCE_IN_T* in, ulong i, bool narrow, ulong cols, ulong pitch,
                                    uint channels, uint channel) {
    const ulong row = clreduce_row(i, narrow, cols);
    return in[row * pitch + (i - row * cols) * channels + channel];
}

#if CLREDUCE_MASKED
// Whether pixel i's mask byte (rows `mask_pitch` bytes apart) selects it.
inline bool clreduce_selected(__global const uchar* mask, ulong i, bool narrow, ulong cols, ulong mask_pitch) {
    const ulong row = clreduce_row(i, narrow, cols);
    return mask[row * mask_pitch + (i - row * cols)] != 0;
}
#endif

#if CLREDUCE_DENSE
// A dense image (rows back to back, and its mask's): vector i is the CLREDUCE_DENSE pixels
// from pixel i * CLREDUCE_DENSE on, CLREDUCE_CHANNELS parts of CLREDUCE_DENSE elements, and
// their CLREDUCE_DENSE mask bytes. Both level 1s (reduce.cl's, one channel; level1_channels.cl,
// every channel) read them with these.
//   clreduce_dense_aligned(in, mask)   whether vector loads of both are aligned (else vloadN)
//   CLREDUCE_DENSE_LANES(i, LOAD)      declares lanes[] holding vector i's elements (LOAD(j)
//                                      reads part j)
//   CLREDUCE_DENSE_MASK(i)             declares what CLREDUCE_DENSE_SELECTED(q) reads: whether
//                                      pixel q of vector i is selected
inline bool clreduce_dense_aligned(__global const CLREDUCE_IN_T* in, __global const uchar* mask) {
    return ((ulong)in / sizeof(CLREDUCE_IN_T)) % CLREDUCE_DENSE == 0 && (ulong)mask % CLREDUCE_DENSE == 0;
}
#define CLREDUCE_DENSE_LANES(i, LOAD)                                                   \
    CLREDUCE_IN_T lanes[CLREDUCE_DENSE * CLREDUCE_CHANNELS];                           \
    _Pragma("unroll") for (uint j = 0; j < CLREDUCE_CHANNELS; ++j)                     \
        CLREDUCE_CAT(vstore, CLREDUCE_DENSE)(LOAD((i) * CLREDUCE_CHANNELS + j), j, lanes);
#if CLREDUCE_MASKED
#define CLREDUCE_DENSE_MASK(i)                                                                      \
    uchar selected[CLREDUCE_DENSE];                                                                 \
    if (aligned)                                                                                    \
        CLREDUCE_CAT(vstore, CLREDUCE_DENSE)(((__global const CLREDUCE_CAT(uchar, CLREDUCE_DENSE)*)mask)[i], 0, \
                                             selected);                                             \
    else                                                                                            \
        CLREDUCE_CAT(vstore, CLREDUCE_DENSE)(CLREDUCE_CAT(vload, CLREDUCE_DENSE)(i, mask), 0, selected);
#define CLREDUCE_DENSE_SELECTED(q) (selected[q] != 0)
#define CLREDUCE_DENSE_MASK_POINTER mask
#else
#define CLREDUCE_DENSE_MASK(i)
#define CLREDUCE_DENSE_SELECTED(q) true
#define CLREDUCE_DENSE_MASK_POINTER ((__global const uchar*)0)
#endif
#endif
#endif
