// clreduce: CSR segments by equal shares of work ("tiles"), for segments whose lengths vary
// (placed after segments.cl, whose clreduce_segment_emit and plug-in contract it reuses). A
// team per segment idles where lengths vary (a warp loops as often as its longest segment
// needs); here every work-item takes the same number of items of the merged sequence of
// elements and segment ends (merge path): element e of segment s comes before end s, end s
// before the elements of s + 1, so `segments` empty segments are as much work as that many
// elements.
//   Group g takes items [g * per_group, (g + 1) * per_group), a tile of CLREDUCE_WG *
//   CLREDUCE_TILE_ITEMS at a time. A tile's ends are read into local memory, each work-item
//   finds its first and last item there (a binary search), reads its elements (contiguous:
//   the work-items of a warp cover one stretch of memory) and reduces them in order, closing a
//   segment at each end: a segment that opened inside its items is final; the first one it
//   closes may have begun before, and a segmented scan of the work-items' open states (in
//   order) gives what came before it in the tile. The open state at a tile's end carries into
//   the next tile.
//   The first segment a group closes may have begun in earlier groups: the group leaves it as
//   its head, and its open state at its end as its tail; clreduce_finish_tiles combines each
//   head with the tails of the groups before it that share its segment, in order.
// Offsets that descend or pass `extent` raise bad[bad_at] (the host reports the segment);
// nothing outside the buffers is read and every loop stays bounded.

#ifndef CLREDUCE_TILE_ITEMS
#define CLREDUCE_TILE_ITEMS 16
#endif
#define CLREDUCE_TILE (CLREDUCE_WG * CLREDUCE_TILE_ITEMS)
#define CLREDUCE_NO_SEGMENT (~(ulong)0)

// The shape of the merged sequence: `base` = offsets[0] (the first element any segment has),
// `elements` in segments, and each group's share of the items (whole tiles).
typedef struct {
    ulong base, elements, items, per_group;
} clreduce_tiles_shape;

__attribute__((always_inline)) inline clreduce_tiles_shape clreduce_tiles_shape_of(__global const ulong* offsets,
                                                                                   ulong segments, ulong groups) {
    clreduce_tiles_shape t;
    t.base = offsets[0];
    const ulong last = offsets[segments];
    t.elements = last >= t.base ? last - t.base : 0;  // descending: flagged by the window load
    t.items = t.elements + segments;
    const ulong tiles = (t.items + CLREDUCE_TILE - 1) / CLREDUCE_TILE;
    t.per_group = (tiles + groups - 1) / groups * CLREDUCE_TILE;
    return t;
}

// How many ends come among the first d items: the largest i with end i - 1 at or before
// element d - i (ends[k] relative to base). The whole group searches the global offsets
// together, CLREDUCE_WG samples a round (a few rounds for millions of segments).
__attribute__((always_inline)) inline ulong clreduce_tiles_split_global(__global const ulong* ends, ulong base,
                                                                        ulong d, ulong elements, ulong segments,
                                                                        __local uint* vote, uint lid) {
    ulong lo = d > elements ? d - elements : 0, hi = min(d, segments);
    while (lo < hi) {
        const ulong step = (hi - lo + CLREDUCE_WG - 1) / CLREDUCE_WG;
        if (lid == 0) {
            vote[0] = 0;
            vote[1] = CLREDUCE_WG + 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong c = lo + (ulong)(lid + 1) * step;
        if (c <= hi) {
            const ulong a = ends[c - 1];
            if (a >= base && a - base <= d - c)
                atomic_max(vote, lid + 1);
            else
                atomic_min(vote + 1, lid + 1);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong below = lo + (ulong)vote[0] * step;
        const ulong above = vote[1] <= CLREDUCE_WG ? lo + (ulong)vote[1] * step - 1 : hi;
        barrier(CLK_LOCAL_MEM_FENCE);  // vote is written again
        // Descending offsets (flagged elsewhere) may vote out of order: the range still shrinks.
        hi = step == 1 ? below : max(min(above, hi), below);
        lo = below;
    }
    return lo;
}

// The same inside a tile, from its ends in local memory (win[k]: end k of the tile relative to
// the tile's first element, `known` of them, `left` elements from the tile's first on).
__attribute__((always_inline)) inline uint clreduce_tiles_split_local(__local const uint* win, uint known, uint d,
                                                                      ulong left) {
    uint lo = (ulong)d > left ? (uint)(d - left) : 0u, hi = min(d, known);
    lo = min(lo, hi);
    while (lo < hi) {
        const uint mid = (lo + hi + 1) / 2;
        if (win[mid - 1] <= d - mid)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// offsets: the CSR offsets (segments + 1, at offsets_at), relative to in + offset. heads and
// tails: a state and a segment per group (clreduce_finish_tiles reads them). window_hint: how
// many ends the first load of a tile's window takes (a multiple of CLREDUCE_WG, from the
// segments' average length: more rounds for short segments, no wasted reads for long ones).
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce_tiles(__global const CLREDUCE_IN_T* in, ulong offset, ulong extent, ulong segments,
                           __global const ulong* offsets, ulong offsets_at, __global clreduce_state* out,
                           __global uchar* result_out, ulong result_offset, volatile __global uint* bad, ulong bad_at,
                           uint window_hint, __global clreduce_state* carry_states, __global ulong* carry_segments)
{
    const uint lid = get_local_id(0);
    const ulong group = get_group_id(0), groups = get_num_groups(0);
    __local uint win[CLREDUCE_TILE];
    __local clreduce_state scan[CLREDUCE_WG];
    __local uchar closed_by[CLREDUCE_WG];
    __local uint vote[2];
    __local clreduce_state group_head;
    __local ulong group_head_segment;

    in += offset;
    offsets += offsets_at;
    const clreduce_tiles_shape shape = clreduce_tiles_shape_of(offsets, segments, groups);
    __global const ulong* ends = offsets + 1;
    const ulong first = min(group * shape.per_group, shape.items);
    const ulong last = min(first + shape.per_group, shape.items);
    // The group's start: i ends and (first - i) elements before it; then tile by tile.
    ulong i0 = clreduce_tiles_split_global(ends, shape.base, first, shape.elements, segments, vote, lid);
    ulong j0 = first - i0;
    clreduce_state carry = clreduce_init();
    bool group_open = true;  // no segment closed in this group yet: `carry` began before it
    if (lid == 0) group_head_segment = CLREDUCE_NO_SEGMENT;

    for (ulong d0 = first; d0 < last; d0 += CLREDUCE_TILE) {
        const uint n = (uint)min((ulong)CLREDUCE_TILE, last - d0);
        const ulong open_begin = i0 < segments ? offsets[i0] - min(offsets[i0], shape.base) : 0;
        // The tile's ends into local memory, relative to element j0, until one comes after
        // the tile's last item (or none is left).
        const uint room = (uint)min((ulong)min(n, (uint)CLREDUCE_TILE), segments - i0);
        uint known = 0, want = window_hint;
        for (;;) {
            const uint upto = min(known + want, room);
            for (uint k = known + lid; k < upto; k += CLREDUCE_WG) {
                const ulong a = ends[i0 + k];
                const ulong before = offsets[i0 + k];
                if (a < before || a > extent) atomic_or(bad + bad_at, 1u);
                const ulong rel = a - min(a, shape.base + j0);
                win[k] = (uint)min(rel, (ulong)CLREDUCE_TILE + 1);
            }
            known = upto;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (known == room || win[known - 1] > n - known) break;
            want = CLREDUCE_WG;
        }
        const ulong left = shape.elements - min(shape.elements, j0);
        // This work-item's items: [a, b) of the tile.
        const uint da = min(lid * (uint)CLREDUCE_TILE_ITEMS, n), db = min(da + (uint)CLREDUCE_TILE_ITEMS, n);
        const uint ia = clreduce_tiles_split_local(win, known, da, left);
        uint ib = clreduce_tiles_split_local(win, known, db, left);
        const uint ja = da - ia;
        uint jb = db - ib;
        if (ib < ia || jb < ja) ib = ia, jb = ja;  // descending offsets: flagged, nothing read
        const uint tile_ends = clreduce_tiles_split_local(win, known, n, left);

        CLREDUCE_IN_T x[CLREDUCE_TILE_ITEMS];
        const uint count = jb - ja;
        const ulong element0 = shape.base + j0 + ja;
#pragma unroll
        for (uint k = 0; k < CLREDUCE_TILE_ITEMS; ++k)
            if (k < count && element0 + k < extent) x[k] = in[element0 + k];
        ulong begin = ia == 0 ? open_begin : j0 + win[ia - 1];
        clreduce_state acc = clreduce_init(), head = acc;
        bool closed = false;
        uint ic = ia;
#define CLREDUCE_TILES_CLOSE                                                                  \
    {                                                                                         \
        if (closed)                                                                           \
            clreduce_segment_emit(i0 + ic, acc, out, result_out, result_offset);                \
        else                                                                                  \
            head = acc;                                                                       \
        closed = true;                                                                        \
        begin = j0 + win[ic];                                                                 \
        acc = clreduce_init();                                                                \
        ++ic;                                                                                 \
    }
#pragma unroll
        for (uint k = 0; k < CLREDUCE_TILE_ITEMS; ++k) {
            if (k < count) {
                const ulong e = j0 + ja + k;
                while (ic < ib && j0 + win[ic] <= e) CLREDUCE_TILES_CLOSE
                acc = CLREDUCE_TAKE(acc, x[k], e - begin);
            }
        }
        while (ic < ib) CLREDUCE_TILES_CLOSE
#undef CLREDUCE_TILES_CLOSE

        // What came before each work-item's first close: an inclusive scan of the open states,
        // restarting after each work-item that closed a segment.
        if (lid == 0) {
            if (closed)
                head = clreduce_combine(carry, head);
            else
                acc = clreduce_combine(carry, acc);
        }
        uchar flag = closed;
        scan[lid] = acc;
        closed_by[lid] = flag;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint step = 1; step < CLREDUCE_WG; step <<= 1) {
            clreduce_state before = acc;
            uchar flag_before = 0;
            if (lid >= step) {
                before = scan[lid - step];
                flag_before = closed_by[lid - step];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid >= step) {
                if (!flag) acc = clreduce_combine(before, acc);
                flag |= flag_before;
            }
            scan[lid] = acc;
            closed_by[lid] = flag;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (closed) {
            const bool first_close = lid == 0 || !closed_by[lid - 1];
            if (lid != 0) head = clreduce_combine(scan[lid - 1], head);
            if (first_close && group_open) {
                group_head = head;
                group_head_segment = i0 + ia;
            } else {
                clreduce_segment_emit(i0 + ia, head, out, result_out, result_offset);
            }
        }
        carry = scan[CLREDUCE_WG - 1];
        group_open = group_open && !closed_by[CLREDUCE_WG - 1];
        i0 += tile_ends;
        j0 += n - tile_ends;
        barrier(CLK_LOCAL_MEM_FENCE);  // win, scan and closed_by are written again
    }
    if (lid == 0) {
        carry_segments[2 * group] = group_head_segment;
        carry_states[2 * group] = group_head;
        carry_segments[2 * group + 1] = first < last ? i0 : CLREDUCE_NO_SEGMENT;
        carry_states[2 * group + 1] = carry;
    }
}

// Each group's head: the tails of the groups before it that share its segment (from the one
// its segment begins in), in order, then the head; the segment's final state.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_finish_tiles(ulong segments, __global const ulong* offsets, ulong offsets_at, ulong groups,
                           __global const clreduce_state* carry_states, __global const ulong* carry_segments,
                           __global clreduce_state* out, __global uchar* result_out, ulong result_offset)
{
    const uint lid = get_local_id(0);
    const ulong g = get_group_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];
    const ulong s = carry_segments[2 * g];
    if (s >= segments) return;  // (the whole group leaves together)
    offsets += offsets_at;
    const clreduce_tiles_shape shape = clreduce_tiles_shape_of(offsets, segments, groups);
    const ulong start = offsets[s] - min(offsets[s], shape.base) + s;  // the segment's first item
    const ulong from = min(start / shape.per_group, g);
    clreduce_state acc = clreduce_init();
    for (ulong k = from + lid; k < g; k += CLREDUCE_WG)
        if (carry_segments[2 * k + 1] == s) acc = clreduce_combine(acc, carry_states[2 * k + 1]);
    acc = clreduce_level2(scratch, acc, lid);
    if (lid == 0) clreduce_segment_emit(s, clreduce_combine(acc, carry_states[2 * g]), out, result_out, result_offset);
}
