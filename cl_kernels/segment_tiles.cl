// clreduce: CSR segments whose lengths vary, read as one stream a work-group ("tiles"; placed
// after segments.cl, whose plug-in contract, long-segment chunks and emit it reuses). A team per
// segment idles where lengths vary: a warp loops as often as its longest segment needs, each
// loop a memory round trip. Here a work-group owns up to CLREDUCE_WG consecutive segments
// (a few tiles of elements on average: the host's choice), whose elements are one stretch of memory (CSR: segment
// s + 1 begins where s ends), and reads that stretch a tile (CLREDUCE_TILE elements) at a time,
// whatever the lengths:
//   Work-item l takes elements [t + l * CLREDUCE_TILE_ITEMS, ...) of the tile at t (contiguous,
//   vector loads where aligned) and reduces them in order, closing a segment at each end it
//   meets: a segment that began inside its items is final; the first one it closes may have
//   begun before, and a segmented scan of the work-items' open states (in order) gives what
//   came before it in the tile. The open state at a tile's end carries into the next tile.
//   A run inside one segment (the common case) adds its items with no test an item.
//   Segments longer than `cap` elements (a few huge ones among many small ones) keep their
//   first `cap` elements here, and the tiles that hold only their rest are skipped; that rest
//   is registered as chunks that every group shares (segments.cl's clreduce_reduce_chunks and
//   clreduce_finish_long), so no group walks a huge segment alone.
// A segment's elements are added in index order within a work-item's items; the states of its
// work-items and tiles are combined in order, so every result is deterministic.
// Offsets that descend or pass `extent` raise bad[bad_at] (the host reports the segment);
// nothing outside the buffers is read and every loop stays bounded.

#ifndef CLREDUCE_TILE_ITEMS
#define CLREDUCE_TILE_ITEMS 16
#endif
#define CLREDUCE_TILE (CLREDUCE_WG * CLREDUCE_TILE_ITEMS)
#if CLREDUCE_TILE_ITEMS % CLREDUCE_VEC != 0
#error "CLREDUCE_TILE_ITEMS must be a multiple of CLREDUCE_VEC"
#endif

// How many of the group's offsets off[0..k_max] are below `e` (strict) or at most `e`.
__attribute__((always_inline)) inline uint clreduce_tiles_rank(__local const ulong* off, uint k_max, ulong e,
                                                               bool strict) {
    uint lo = 0, hi = k_max + 1;
    while (lo < hi) {
        const uint mid = (lo + hi) / 2;
        if (strict ? off[mid] < e : off[mid] <= e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// A work-item's items of a tile: elements [e0, e0 + CLREDUCE_TILE_ITEMS) below `limit` into x
// (vector loads where the whole run is in and `in` is aligned).
__attribute__((always_inline)) inline void clreduce_tiles_load(CLREDUCE_IN_T* x, __global const CLREDUCE_IN_T* in,
                                                               bool aligned, ulong e0, ulong limit) {
    if (e0 + CLREDUCE_TILE_ITEMS <= limit) {
#if CLREDUCE_VEC > 1
#pragma unroll
        for (uint v = 0; v < CLREDUCE_TILE_ITEMS / CLREDUCE_VEC; ++v) {
            const CLREDUCE_IN_VEC y = aligned ? ((__global const CLREDUCE_IN_VEC*)in)[e0 / CLREDUCE_VEC + v]
                                              : CLREDUCE_CAT(vload, CLREDUCE_VEC)(0, in + e0 + v * CLREDUCE_VEC);
            CLREDUCE_CAT(vstore, CLREDUCE_VEC)(y, 0, x + v * CLREDUCE_VEC);
        }
#else
#pragma unroll
        for (uint k = 0; k < CLREDUCE_TILE_ITEMS; ++k) x[k] = in[e0 + k];
#endif
    } else {
#pragma unroll
        for (uint k = 0; k < CLREDUCE_TILE_ITEMS; ++k)
            if (e0 + k < limit) x[k] = in[e0 + k];
    }
}

// The arguments are clreduce_reduce_segments' (CSR: ends = begins + 1; `length`: segments a
// group, at most CLREDUCE_WG; step and parts unused). A long segment's first `cap` elements go
// to out[s] as a state, its chunks registered.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce_tiles(CLREDUCE_SEGMENT_PARAMS)
{
    const uint lid = get_local_id(0);
    const ulong per_group = min(length, (ulong)CLREDUCE_WG);  // segments a group (`length`)
    const ulong s0 = get_group_id(0) * per_group;
    __local ulong off[CLREDUCE_WG + 1];
    __local clreduce_state scan[CLREDUCE_WG];
    __local uchar closed_by[CLREDUCE_WG];

    in += offset;
    if (s0 >= segments) return;  // (the whole group leaves together)
    const uint K = (uint)min(per_group, segments - s0);  // this group's segments
    if (lid < K) {
        const ulong b = begins[begins_at + s0 + lid], e = ends[ends_at + s0 + lid];
        const bool good = b <= e && e <= extent;
        if (!good) atomic_or(bad + bad_at, 1u);
        off[lid] = min(b, extent);
        if (lid == K - 1) off[K] = min(e, extent);
        if (good && cap != 0 && e - b > cap)
            clreduce_register_long(s0 + lid, e - b, cap, bad, bad_at, long_list, chunk_table);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong keep = cap != 0 ? cap : ~(ulong)0;  // elements a segment takes here
    // (Offsets were clamped to `extent`: no element at or past `end` is read.)
    const ulong start = off[0], end = max(off[K], start);
    const bool aligned = ((ulong)in / sizeof(CLREDUCE_IN_T)) % CLREDUCE_VEC == 0;

    clreduce_state carry = clreduce_init();
    ulong t = start - start % CLREDUCE_TILE_ITEMS;
    // Every tile up to the one that holds `end` (a segment's end closes it in the tile that holds
    // the element after it).
    for (;;) {
        // The next tile: CLREDUCE_TILE on, or past the rest of a long segment it would fall in
        // (segment k - 1 holds `next`).
        ulong next = t + CLREDUCE_TILE;
        const uint kn = clreduce_tiles_rank(off, K, next, false);
        if (kn >= 1 && kn <= K) {
            const ulong b = off[kn - 1], e = off[kn];
            if (e - b > keep && next - b >= keep) next = max(next, e - e % CLREDUCE_TILE_ITEMS);
        }
        // This work-item's items, in order.
        const ulong e0 = t + lid * CLREDUCE_TILE_ITEMS;
        CLREDUCE_IN_T x[CLREDUCE_TILE_ITEMS];
        clreduce_tiles_load(x, in, aligned, e0, end);
        uint k = clreduce_tiles_rank(off, K, e0, true);  // segment k - 1 began before e0
        ulong seg_begin = k >= 1 ? off[k - 1] : 0;
        ulong seg_end = k <= K ? off[k] : ~(ulong)0;   // where segment k - 1 ends
        clreduce_state acc = clreduce_init(), head = acc;
        bool closed = false;
        uint first_closed = 0;
#define CLREDUCE_TILES_CLOSE(e)                                                                        \
    while (k <= K && seg_end <= (e)) {                                                                 \
        if (k >= 1) {                                                                                  \
            if (closed)                                                                                \
                clreduce_segment_finish(s0 + k - 1, acc, seg_end - seg_begin > keep, out, result_out,   \
                                        result_offset);                                                \
            else {                                                                                     \
                head = acc;                                                                            \
                first_closed = k - 1;                                                                  \
                closed = true;                                                                         \
            }                                                                                          \
        }                                                                                              \
        acc = clreduce_init();                                                                         \
        seg_begin = seg_end;                                                                           \
        ++k;                                                                                           \
        seg_end = k <= K ? off[k] : ~(ulong)0;                                                         \
    }
        if (k >= 1 && k <= K && seg_end >= e0 + CLREDUCE_TILE_ITEMS && e0 + CLREDUCE_TILE_ITEMS - seg_begin <= keep) {
            // Most runs: inside one segment, which takes every item (no end, no test an item).
#pragma unroll
            for (uint i = 0; i < CLREDUCE_TILE_ITEMS; ++i) acc = CLREDUCE_TAKE(acc, x[i], e0 + i - seg_begin);
        } else {
#pragma unroll
            for (uint i = 0; i < CLREDUCE_TILE_ITEMS; ++i) {
                const ulong e = e0 + i;
                CLREDUCE_TILES_CLOSE(e)
                if (k >= 1 && k <= K && e - seg_begin < keep && e < end)
                    acc = CLREDUCE_TAKE(acc, x[i], e - seg_begin);
            }
        }
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
        for (uint d = 1; d < CLREDUCE_WG; d <<= 1) {
            clreduce_state before = acc;
            uchar flag_before = 0;
            if (lid >= d) {
                before = scan[lid - d];
                flag_before = closed_by[lid - d];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid >= d) {
                if (!flag) acc = clreduce_combine(before, acc);
                flag |= flag_before;
            }
            scan[lid] = acc;
            closed_by[lid] = flag;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (closed) {
            if (lid != 0) head = clreduce_combine(scan[lid - 1], head);
            const ulong b = off[first_closed], e = off[first_closed + 1];
            clreduce_segment_finish(s0 + first_closed, head, e - b > keep, out, result_out, result_offset);
        }
        carry = scan[CLREDUCE_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);  // scan and closed_by are written again
        if (next > end) break;
        t = next;
    }
}
