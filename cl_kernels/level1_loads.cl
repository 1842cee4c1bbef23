// clreduce: how reduce.cl's level 1 reads element (vector) i of its range, included inside
// clreduce_level1 (the host expands the line) after `first`, `step` and `count`:
//   CLREDUCE_ALIGNED_LOAD(i), CLREDUCE_UNALIGNED_LOAD(i)  in the loops: vector i
//   CLREDUCE_LOAD_AT(i)                                   anywhere: vector i
//   CLREDUCE_SELECTED(i), CLREDUCE_SELECTED_AT(i)         whether the mask takes element i
//   CLREDUCE_IF_SELECTED(i, LOAD, TAKE)                   TAKE(i, LOAD) where it does
//   CLREDUCE_CURSOR_START, CLREDUCE_CURSOR_NEXT           a loop's first and next pixel
//   CLREDUCE_TAIL_TAKE(s, j)                              s with element j after the vectors
// and `vectors` (whole vectors in the range) and `aligned` (vector loads are aligned).
#if CLREDUCE_PITCHED && CLREDUCE_DENSE
    // A dense image: its rows back to back, and its mask's (the host checks). Vector i is the
    // CLREDUCE_DENSE pixels from pixel i * CLREDUCE_DENSE on, read as CLREDUCE_CHANNELS vectors
    // of CLREDUCE_DENSE elements (with, masked, their CLREDUCE_DENSE mask bytes in one load),
    // in place of an element load per pixel; the plug-in takes the selected pixels' elements
    // of `channel` one at a time, with their pixel indices, as in the pitched loops.
#define CLREDUCE_DENSE_VEC CLREDUCE_CAT(CLREDUCE_IN_T, CLREDUCE_DENSE)
#define CLREDUCE_DENSE_UNIT (CLREDUCE_DENSE * CLREDUCE_CHANNELS)  // elements per vector
    const ulong vectors = count / CLREDUCE_DENSE;
    const bool aligned = clreduce_dense_aligned(in, CLREDUCE_DENSE_MASK_POINTER);
    __global const CLREDUCE_DENSE_VEC* body = (__global const CLREDUCE_DENSE_VEC*)in;
#define CLREDUCE_CURSOR_START
#define CLREDUCE_CURSOR_NEXT
    // Part j of vector i (elements [(i * CLREDUCE_CHANNELS + j) * CLREDUCE_DENSE, ...)).
#define CLREDUCE_ALIGNED_LOAD(j) body[j]
#define CLREDUCE_UNALIGNED_LOAD(j) CLREDUCE_CAT(vload, CLREDUCE_DENSE)(j, in)
    // The first pixel of vector i (CLREDUCE_VECTOR_PEEK's sample of a work-item's values).
#define CLREDUCE_LOAD_AT(i) in[(i) * CLREDUCE_DENSE_UNIT + channel]
#if CLREDUCE_MASKED
#define CLREDUCE_SELECTED_AT(i) (mask[(i) * CLREDUCE_DENSE] != 0)
#else
#define CLREDUCE_SELECTED_AT(i) true
#endif
    // Element `channel` of pixel q of the vector in `lanes` (a select among the channels: a
    // constant where the channel is, as in the all-channels loop).
#if CLREDUCE_CHANNELS == 1
#define CLREDUCE_DENSE_ELEMENT(q) lanes[q]
#elif CLREDUCE_CHANNELS == 2
#define CLREDUCE_DENSE_ELEMENT(q) (channel == 0 ? lanes[2 * (q)] : lanes[2 * (q) + 1])
#elif CLREDUCE_CHANNELS == 3
#define CLREDUCE_DENSE_ELEMENT(q) \
    (channel == 0 ? lanes[3 * (q)] : channel == 1 ? lanes[3 * (q) + 1] : lanes[3 * (q) + 2])
#else
#define CLREDUCE_DENSE_ELEMENT(q)                                                                   \
    (channel == 0 ? lanes[4 * (q)] : channel == 1 ? lanes[4 * (q) + 1] : channel == 2 ? lanes[4 * (q) + 2] \
                                                                                     : lanes[4 * (q) + 3])
#endif
#define CLREDUCE_DENSE_X(i) clreduce_x
    // TAKE(pixel, CLREDUCE_DENSE_X) for each selected pixel of vector i, in index order.
#define CLREDUCE_IF_SELECTED(i, LOAD, TAKE)                                             \
    {                                                                                  \
        CLREDUCE_DENSE_LANES(i, LOAD)                                                  \
        CLREDUCE_DENSE_MASK(i)                                                         \
        _Pragma("unroll") for (uint q = 0; q < CLREDUCE_DENSE; ++q) {                  \
            if (CLREDUCE_DENSE_SELECTED(q)) {                                          \
                const CLREDUCE_IN_T clreduce_x = CLREDUCE_DENSE_ELEMENT(q);            \
                TAKE((i) * CLREDUCE_DENSE + q, CLREDUCE_DENSE_X)                       \
            }                                                                          \
        }                                                                              \
    }
#if CLREDUCE_MASKED
#define CLREDUCE_TAIL_TAKE(s, j) \
    if (mask[j] != 0) s = CLREDUCE_TAKE(s, in[(j) * CLREDUCE_CHANNELS + channel], j);
#else
#define CLREDUCE_TAIL_TAKE(s, j) s = CLREDUCE_TAKE(s, in[(j) * CLREDUCE_CHANNELS + channel], j);
#endif
    const ulong tail_start = vectors * CLREDUCE_DENSE;
#elif CLREDUCE_PITCHED
    // The loops walk pixel i by `step` with its row and column: a column step and a row step
    // worked out once, so that the loops divide nothing (a GPU's integer division costs more
    // than the load). A loop's LOAD(i) and SELECTED(i) read the cursor's pixel, which is i;
    // LOAD_AT and SELECTED_AT any pixel (pitched.cl).
    const bool narrow = count <= 0xffffffffUL;  // pitched.cl: 32-bit row numbers
    const ulong first_row = clreduce_row(first, narrow, cols), first_col = first - first_row * cols;
    const ulong row_step = step / cols, col_step = step - row_step * cols;
    ulong row = first_row, col = first_col;
#define CLREDUCE_CURSOR_START \
    row = first_row;          \
    col = first_col;
#define CLREDUCE_CURSOR_NEXT \
    col += col_step;         \
    row += row_step;         \
    if (col >= cols) {       \
        col -= cols;         \
        ++row;               \
    }
#define CLREDUCE_ALIGNED_LOAD(i) in[row * pitch + col * channels + channel]
#define CLREDUCE_UNALIGNED_LOAD(i) CLREDUCE_ALIGNED_LOAD(i)
#define CLREDUCE_LOAD_AT(i) clreduce_pixel(in, i, narrow, cols, pitch, channels, channel)
    const ulong vectors = count;
    const bool aligned = true;
    const ulong tail_start = count;  // no tail: every pixel is a vector
#define CLREDUCE_TAIL_TAKE(s, j)
#if CLREDUCE_MASKED
    // A pixel the mask leaves out is not taken at all (the identity would not do: argmin's
    // index, statistics' count); the plug-ins see only the selected elements, in index order.
#define CLREDUCE_SELECTED(i) (mask[row * mask_pitch + col] != 0)
#define CLREDUCE_SELECTED_AT(i) clreduce_selected(mask, i, narrow, cols, mask_pitch)
#endif
#else
#define CLREDUCE_LOAD_AT(i) (aligned ? CLREDUCE_ALIGNED_LOAD(i) : CLREDUCE_UNALIGNED_LOAD(i))
#define CLREDUCE_CURSOR_START
#define CLREDUCE_CURSOR_NEXT
    const ulong vectors = count / CLREDUCE_VEC;
    const ulong tail_start = vectors * CLREDUCE_VEC;
#define CLREDUCE_TAIL_TAKE(s, j) s = CLREDUCE_TAKE(s, in[j], j);
    const bool aligned = ((ulong)in / sizeof(CLREDUCE_IN_T)) % CLREDUCE_VEC == 0;
    __global const CLREDUCE_IN_VEC* body = (__global const CLREDUCE_IN_VEC*)in;
#define CLREDUCE_ALIGNED_LOAD(i) body[i]
#if CLREDUCE_VEC == 1
#define CLREDUCE_UNALIGNED_LOAD(i) in[i]
#else
#define CLREDUCE_UNALIGNED_LOAD(i) CLREDUCE_CAT(vload, CLREDUCE_VEC)(i, in)
#endif
#endif
#if CLREDUCE_PITCHED && CLREDUCE_DENSE
// (CLREDUCE_IF_SELECTED above)
#elif defined(CLREDUCE_SELECTED)
#define CLREDUCE_IF_SELECTED(i, LOAD, TAKE) \
    if (CLREDUCE_SELECTED(i)) {             \
        TAKE(i, LOAD)                       \
    }
#else
#define CLREDUCE_SELECTED(i) true
#define CLREDUCE_IF_SELECTED(i, LOAD, TAKE) TAKE(i, LOAD)
#endif
#ifndef CLREDUCE_SELECTED_AT
#define CLREDUCE_SELECTED_AT(i) CLREDUCE_SELECTED(i)
#endif
