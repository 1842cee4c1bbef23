// clreduce: how reduce.cl's level 1 reads element (vector) i of its range, included inside
// clreduce_level1 (the host expands the line) after `first`, `step` and `count`:
//   CLREDUCE_ALIGNED_LOAD(i), CLREDUCE_UNALIGNED_LOAD(i)  in the loops: vector i
//   CLREDUCE_LOAD_AT(i)                                   anywhere: vector i
//   CLREDUCE_SELECTED(i), CLREDUCE_SELECTED_AT(i)         whether the mask takes element i
//   CLREDUCE_IF_SELECTED(i, LOAD, TAKE)                   TAKE(i, LOAD) where it does
//   CLREDUCE_CURSOR_START, CLREDUCE_CURSOR_NEXT           a loop's first and next pixel
// and `vectors` (whole vectors in the range) and `aligned` (vector loads are aligned).
#if CLREDUCE_PITCHED
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
    const bool aligned = ((ulong)in / sizeof(CLREDUCE_IN_T)) % CLREDUCE_VEC == 0;
    __global const CLREDUCE_IN_VEC* body = (__global const CLREDUCE_IN_VEC*)in;
#define CLREDUCE_ALIGNED_LOAD(i) body[i]
#if CLREDUCE_VEC == 1
#define CLREDUCE_UNALIGNED_LOAD(i) in[i]
#else
#define CLREDUCE_UNALIGNED_LOAD(i) CLREDUCE_CAT(vload, CLREDUCE_VEC)(i, in)
#endif
#endif
#ifdef CLREDUCE_SELECTED
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
