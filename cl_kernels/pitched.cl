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
#endif
