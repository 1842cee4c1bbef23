// clreduce: reduce_by_key in one launch that reads the keys and the values once, for the
// operations whose value no order of combining changes (src/exec/fused_by_key.cpp says which:
// integer accumulators that keep the result whole, extremes of integers, bitwise). Placed after
// reduce.cl, whose plug-in contract it uses (clreduce_state, clreduce_init, clreduce_accumulate,
// clreduce_combine). Element i heads a run where i == 0 or keys[i] != keys[i - 1]; run r's
// key goes to run_keys[r] and the state of its values to states[r], for r < capacity (the host
// runs the launch again with more room where the number of runs, which the last tile writes,
// passes it). The host takes this launch up to LaunchParams::by_key_one_launch_keys: a tile's
// chain of load, scan, look-back and writes is latency-bound, so for many keys the three passes
// of run_heads.cl and segments.cl, streams each, are faster.
//
// Each work-group takes one tile of CLREDUCE_BK_TILE elements: CLREDUCE_BK_ROWS rows of
// CLREDUCE_WG vectors of four keys and four values, work-item l loading vector l of each row
// (each row's loads are contiguous). A run spanning tiles is carried between them by a pair
// (heads, tail): the number of heads in a stretch of elements and the state of its elements
// after its last head (all of them where it has none). Pairs combine in order:
//   (h1, t1) then (h2, t2) = (h1 + h2, h2 > 0 ? t2 : t1 combined with t2),
// so a scan of the pairs over the elements gives each element its run's number and the state
// of its run so far. A tile scans its vectors' pairs in local memory, then finds the pair of
// every element before it by decoupled look-back (Merrill and Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", 2016): it publishes its own pair at once (AGGREGATE),
// combines the published pairs of the tiles before it back to the first whose pair includes
// everything before it (INCLUSIVE), and publishes its own inclusive pair. Tiles take their
// numbers from a counter as they start, so a tile waits only for tiles that have started
// (no order of the work-groups' start is assumed); the last tile resets the counter to 0.
// A tile's flag word holds the call's `generation` (the host's count of calls through these
// words) above the two state bits, so that no launch needs the words cleared first.
//
// A pair is at most 32 bytes (the host's room for it): states of at most 8 bytes take this kernel.
// Defined by the host: CLREDUCE_KEY (uchar, ushort, uint or ulong: keys compare as bits),
// CLREDUCE_BK_ROWS and CLREDUCE_BK_ALIGNED (1: both ranges start at a multiple of four
// elements, so a vector is one aligned load).

#define CLREDUCE_BK_TILE (4 * CLREDUCE_BK_ROWS * CLREDUCE_WG)
#define CLREDUCE_BK_KEY4 CLREDUCE_CAT(CLREDUCE_KEY, 4)
#define CLREDUCE_BK_T4 CLREDUCE_CAT(CLREDUCE_T, 4)
// Where vector f's count and tail lie in local memory: a gap after every CLREDUCE_BK_ROWS, so
// that the work-items that each take CLREDUCE_BK_ROWS vectors in turn reach different banks.
#define CLREDUCE_BK_AT(f) ((f) + (f) / CLREDUCE_BK_ROWS)
#define CLREDUCE_BK_AGGREGATE 1u
#define CLREDUCE_BK_INCLUSIVE 2u

#if CLREDUCE_NVIDIA
#define clreduce_bk_fence() asm volatile("membar.gl;" ::: "memory")
#else
#define clreduce_bk_fence() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

typedef struct {
    ulong heads;
    clreduce_state tail;
} clreduce_bk_pair;

inline clreduce_bk_pair clreduce_bk_then(clreduce_bk_pair a, clreduce_bk_pair b) {
    clreduce_bk_pair r;
    r.heads = a.heads + b.heads;
    r.tail = b.heads > 0 ? b.tail : clreduce_combine(a.tail, b.tail);
    return r;
}

inline clreduce_bk_pair clreduce_bk_empty(void) {
    clreduce_bk_pair r;
    r.heads = 0;
    r.tail = clreduce_init();
    return r;
}

// The tile descriptors: flags[t], then the pairs each tile publishes, its aggregate and its
// inclusive pair in separate words (a tile that saw AGGREGATE reads a pair nobody rewrites).
typedef struct {
    volatile __global uint *flags;
    volatile __global clreduce_bk_pair *aggregate;
    volatile __global clreduce_bk_pair *inclusive;
} clreduce_bk_tiles;

inline void clreduce_bk_publish(clreduce_bk_tiles d, ulong tile, clreduce_bk_pair p, uint kind, uint generation) {
    if (kind == CLREDUCE_BK_AGGREGATE)
        d.aggregate[tile] = p;
    else
        d.inclusive[tile] = p;
    clreduce_bk_fence();  // the pair before its flag, device-wide
    atomic_xchg(d.flags + tile, generation << 2 | kind);
}

#define CLREDUCE_BK_WINDOW CLREDUCE_WG
#if (CLREDUCE_WG & (CLREDUCE_WG - 1)) != 0
#error "CLREDUCE_WG must be a power of two (the look-back's tree over the window)"
#endif

// The pair of every element before tile `tile` into *before (every work-item calls it, for the
// barriers). Work-item l waits for tile end - 1 - l of the window (the CLREDUCE_BK_WINDOW tiles
// before `end`, all of them started) to publish and reads its pair; a tree over the window in
// the tiles' order combines them back from the nearest to the first inclusive one (an inclusive
// pair takes the place of everything before it), or all of them and the window before. (The
// state between the barriers is kept in local memory: PoCL's CPU device lost a private one of
// work-item 0 across them.)
inline void clreduce_bk_look_back(clreduce_bk_tiles d, ulong tile, uint generation, __local uint *kinds,
                                  __local clreduce_bk_pair *pairs, __local ulong *window_end,
                                  __local clreduce_bk_pair *before) {
    const uint lid = (uint)get_local_id(0);
    if (lid == 0) {
        *before = clreduce_bk_empty();
        *window_end = tile;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong end = *window_end; end > 0; end = *window_end) {  // the same for the whole group
        uint kind = 0;
        clreduce_bk_pair p = clreduce_bk_empty();
        if (lid < end) {
            const ulong t = end - 1 - lid;
            uint flag;
            do {
                flag = d.flags[t];  // volatile: read from memory every time, past this unit's cache
            } while ((flag >> 2) != generation || (flag & 3u) == 0);
            clreduce_bk_fence();  // the pair after its flag
            kind = flag & 3u;
            p = kind == CLREDUCE_BK_INCLUSIVE ? d.inclusive[t] : d.aggregate[t];
        }
        kinds[lid] = kind == CLREDUCE_BK_INCLUSIVE ? 1u : 0u;
        pairs[lid] = p;
        barrier(CLK_LOCAL_MEM_FENCE);
        // After the step of w, work-item l (a multiple of 2w) holds the window's tiles l to
        // l + 2w - 1 back combined in order, back to the first inclusive one where one is among
        // them (kinds[l]). A tree, not one work-item's walk: the window reaches across the tiles
        // in flight (a few a compute unit) with log2(CLREDUCE_WG) barriers.
        for (uint w = 1; w < CLREDUCE_BK_WINDOW; w <<= 1) {
            if ((lid & (2 * w - 1)) == 0) {
                const uint near_inclusive = kinds[lid];
                if (!near_inclusive) {
                    pairs[lid] = clreduce_bk_then(pairs[lid + w], pairs[lid]);
                    kinds[lid] = kinds[lid + w];
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) {
            const uint seen = end < CLREDUCE_BK_WINDOW ? (uint)end : CLREDUCE_BK_WINDOW;
            *before = clreduce_bk_then(pairs[0], *before);
            *window_end = kinds[0] ? 0 : end - seen;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Four keys and values from element i (all below n: the tile's full vectors).
inline void clreduce_bk_load(__global const CLREDUCE_KEY *keys, __global const CLREDUCE_T *values, ulong i,
                             CLREDUCE_BK_KEY4 *k, CLREDUCE_BK_T4 *v) {
#if CLREDUCE_BK_ALIGNED
    *k = ((__global const CLREDUCE_BK_KEY4 *)keys)[i / 4];
    *v = ((__global const CLREDUCE_BK_T4 *)values)[i / 4];
#else
    *k = vload4(0, keys + i);
    *v = vload4(0, values + i);
#endif
}

__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_reduce_by_key(
    __global const CLREDUCE_KEY *key_buffer, ulong key_offset, __global const CLREDUCE_T *value_buffer,
    ulong value_offset, ulong n, __global CLREDUCE_KEY *run_keys, __global clreduce_state *states, ulong capacity,
    __global uchar *words, ulong room, uint generation) {
    // The tiles' words (room tiles; ExecutionSlot::by_key_tiles): control[0] the tiles' counter,
    // control[2..3] the number of runs (the last tile's), then a flag a tile, then the pairs.
    __global uint *control = (__global uint *)words;
    __global uint *flags = control + 4;
    __global clreduce_bk_pair *aggregate = (__global clreduce_bk_pair *)(words + 16 + (4 * room + 15) / 16 * 16);
    __global clreduce_bk_pair *inclusive = aggregate + room;
    // Vector f's heads and tail, then those before it, at CLREDUCE_BK_AT(f).
    __local uint heads[(CLREDUCE_BK_ROWS + 1) * CLREDUCE_WG];
    __local clreduce_state tails[(CLREDUCE_BK_ROWS + 1) * CLREDUCE_WG];
    __local ulong scan_heads[CLREDUCE_WG];
    __local clreduce_state scan_tails[CLREDUCE_WG];
    __local ulong tile_at;
    __local ulong window_end;
    __local clreduce_bk_pair tile_before;
    __local uint look_kinds[CLREDUCE_BK_WINDOW];
    __local clreduce_bk_pair look_pairs[CLREDUCE_BK_WINDOW];
    __global const CLREDUCE_KEY *keys = key_buffer + key_offset;
    __global const CLREDUCE_T *values = value_buffer + value_offset;
    const uint lid = (uint)get_local_id(0);
    const ulong tiles = get_num_groups(0);
    const clreduce_bk_tiles d = {flags, aggregate, inclusive};

    if (lid == 0) {
        const uint t = atomic_inc(control);
        if (t == tiles - 1) atomic_xchg(control, 0u);  // every tile has its number
        tile_at = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong tile = tile_at;
    const ulong base = tile * CLREDUCE_BK_TILE;

    // This work-item's vectors: their keys and values, each element's head bit, and each
    // vector's pair in local memory.
    CLREDUCE_BK_KEY4 k[CLREDUCE_BK_ROWS];
    CLREDUCE_BK_T4 v[CLREDUCE_BK_ROWS];
    uint head_bits[CLREDUCE_BK_ROWS];
#pragma unroll
    for (uint r = 0; r < CLREDUCE_BK_ROWS; ++r) {
        const ulong i = base + 4 * (ulong)(r * CLREDUCE_WG + lid);
        if (i + 3 < n) {
            clreduce_bk_load(keys, values, i, &k[r], &v[r]);
        } else {  // the array's last vector, or past it
            k[r] = (CLREDUCE_BK_KEY4)(0);
            v[r] = (CLREDUCE_BK_T4)(0);
            if (i < n) k[r].s0 = keys[i], v[r].s0 = values[i];
            if (i + 1 < n) k[r].s1 = keys[i + 1], v[r].s1 = values[i + 1];
            if (i + 2 < n) k[r].s2 = keys[i + 2], v[r].s2 = values[i + 2];
        }
    }
#pragma unroll
    for (uint r = 0; r < CLREDUCE_BK_ROWS; ++r) {
        const uint f = r * CLREDUCE_WG + lid;
        const ulong i = base + 4 * (ulong)f;
        uint bits = 0;
        if (i < n) {
            bits = i == 0 || k[r].s0 != keys[i - 1] ? 1u : 0u;
            bits |= i + 1 < n && k[r].s1 != k[r].s0 ? 2u : 0u;
            bits |= i + 2 < n && k[r].s2 != k[r].s1 ? 4u : 0u;
            bits |= i + 3 < n && k[r].s3 != k[r].s2 ? 8u : 0u;
        }
        head_bits[r] = bits;
        // The vector's tail: its elements from its last head (from its first where none).
        clreduce_state tail = clreduce_init();
        if (i < n) tail = clreduce_accumulate(bits & 1u ? clreduce_init() : tail, v[r].s0, i);
        if (i + 1 < n) tail = clreduce_accumulate(bits & 2u ? clreduce_init() : tail, v[r].s1, i + 1);
        if (i + 2 < n) tail = clreduce_accumulate(bits & 4u ? clreduce_init() : tail, v[r].s2, i + 2);
        if (i + 3 < n) tail = clreduce_accumulate(bits & 8u ? clreduce_init() : tail, v[r].s3, i + 3);
        heads[CLREDUCE_BK_AT(f)] = popcount(bits);
        tails[CLREDUCE_BK_AT(f)] = tail;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // The scan of the tile's vector pairs in their order: work-item l combines vectors
    // l * ROWS to l * ROWS + ROWS - 1, then a Kogge-Stone scan takes the work-items' pairs.
    clreduce_bk_pair mine = clreduce_bk_empty();
    for (uint j = 0; j < CLREDUCE_BK_ROWS; ++j) {
        const uint at = CLREDUCE_BK_AT(lid * CLREDUCE_BK_ROWS + j);
        const clreduce_bk_pair p = {heads[at], tails[at]};
        mine = clreduce_bk_then(mine, p);
    }
    scan_heads[lid] = mine.heads;
    scan_tails[lid] = mine.tail;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint width = 1; width < CLREDUCE_WG; width <<= 1) {
        clreduce_bk_pair earlier = clreduce_bk_empty();
        if (lid >= width) {
            earlier.heads = scan_heads[lid - width];
            earlier.tail = scan_tails[lid - width];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid >= width) {
            mine = clreduce_bk_then(earlier, mine);
            scan_heads[lid] = mine.heads;
            scan_tails[lid] = mine.tail;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // scan_*[l] now hold the pair of work-items 0 to l's vectors; the tile's is the last. The
    // tile's pair goes to the tiles after it, then theirs before it comes back.
    const clreduce_bk_pair sum = {scan_heads[CLREDUCE_WG - 1], scan_tails[CLREDUCE_WG - 1]};
    if (lid == 0)
        clreduce_bk_publish(d, tile, sum, tile == 0 ? CLREDUCE_BK_INCLUSIVE : CLREDUCE_BK_AGGREGATE, generation);
    clreduce_bk_look_back(d, tile, generation, look_kinds, look_pairs, &window_end, &tile_before);
    if (lid == 0) {
        const clreduce_bk_pair before = tile_before;
        if (tile > 0) clreduce_bk_publish(d, tile, clreduce_bk_then(before, sum), CLREDUCE_BK_INCLUSIVE, generation);
        if (tile == tiles - 1) {
            const ulong runs = before.heads + sum.heads;
            control[2] = (uint)runs;
            control[3] = (uint)(runs >> 32);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Each vector's pair before it: heads[f] the tile's heads before vector f, tails[f] the
    // state of the run open there (from the tiles before where it began before the tile).
    {
        clreduce_bk_pair p = clreduce_bk_empty();
        if (lid > 0) {
            p.heads = scan_heads[lid - 1];
            p.tail = scan_tails[lid - 1];
        }
        p = clreduce_bk_then(tile_before, p);
        for (uint j = 0; j < CLREDUCE_BK_ROWS; ++j) {
            const uint at = CLREDUCE_BK_AT(lid * CLREDUCE_BK_ROWS + j);
            const clreduce_bk_pair q = {heads[at], tails[at]};
            heads[at] = (uint)(p.heads - tile_before.heads);
            tails[at] = p.tail;
            p = clreduce_bk_then(p, q);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong tile_heads = tile_before.heads;

    // Each element's run: heads before its vector, plus those in it up to it. A head writes its
    // run's key; a run's last element (the next element heads a run, or none follows) its state.
    // (The loops over rows are unrolled, and the four elements written out, so that the rows'
    // vectors stay in registers.)
#define CLREDUCE_BK_TAKE(j, lane)                                                  \
    if (i + j < n) {                                                                \
        if (bits >> j & 1u) {                                                       \
            ++run;                                                                  \
            s = clreduce_init();                                                    \
            if (run - 1 < capacity) run_keys[run - 1] = k[r].lane;                  \
        }                                                                           \
        s = clreduce_accumulate(s, v[r].lane, i + j);                               \
        if ((ends >> j & 1u) && run - 1 < capacity) states[run - 1] = s;            \
    }
#pragma unroll
    for (uint r = 0; r < CLREDUCE_BK_ROWS; ++r) {
        const uint f = r * CLREDUCE_WG + lid;
        const ulong i = base + 4 * (ulong)f;
        if (i < n) {
            ulong run = tile_heads + heads[CLREDUCE_BK_AT(f)];  // the runs begun before element i
            clreduce_state s = tails[CLREDUCE_BK_AT(f)];
            const uint bits = head_bits[r];
            // Bit j: element i + j ends its run.
            uint ends = bits >> 1;
            if (i + 4 >= n)
                ends |= 1u << (uint)(n - 1 - i);
            else if (keys[i + 4] != k[r].s3)
                ends |= 8u;
            CLREDUCE_BK_TAKE(0, s0)
            CLREDUCE_BK_TAKE(1, s1)
            CLREDUCE_BK_TAKE(2, s2)
            CLREDUCE_BK_TAKE(3, s3)
        }
    }
#undef CLREDUCE_BK_TAKE
}
