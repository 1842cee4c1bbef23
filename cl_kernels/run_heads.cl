// clreduce: the runs of equal consecutive keys, for reduce_by_key (src/exec/run_heads.cpp).
// Element i heads a run where i == 0 or keys[i] != keys[i - 1]. Two launches make the runs'
// CSR offsets and their keys, reading the keys once:
//   clreduce_mark_heads   group g reads its chunk [g * chunk, (g + 1) * chunk) of the keys,
//                         writes one bit a key to mask[] (word w: keys 32w to 32w + 31, bit b
//                         key 32w + b) and the chunk's number of heads to counts[g]
//   clreduce_write_heads  group g adds the counts of the chunks before its own (its first run),
//                         reads its chunk's mask words, numbers their set bits in order and
//                         writes each run's first element to offsets[] and its key (the only
//                         keys it reads) to run_keys[]; the first work-item also writes
//                         offsets[runs] = n, the last run's end.
// The host reads the counts between the two launches: their sum, the number of runs, sizes
// offsets[] and run_keys[].
// The mark pass goes through a chunk in tiles of CLREDUCE_ROWS rows of CLREDUCE_WG vectors of
// four keys: work-item l takes vector l of each row, so that every load of the group is one
// contiguous row, and a work-item has CLREDUCE_ROWS loads in flight. Its four head bits per
// row go to local memory, where they lie in the keys' order (vector f of the tile: keys 4f to
// 4f + 3), from which the group writes the tile's mask words side by side.
// The write pass takes steps of CLREDUCE_WORDS mask words a work-item: one scan of the words'
// counts numbers the step's heads (the next step's words loading meanwhile). Up to
// CLREDUCE_PLACES heads, each work-item lists its heads' places at their numbers in local
// memory, and then the group writes the step's runs side by side (run k by work-item k mod
// CLREDUCE_WG), so that however the heads lie, the writes are contiguous and the keys' loads
// independent; a step of more heads (runs of a few keys) has each work-item write its own.
// Keys compare as bits: CLREDUCE_KEY is the unsigned integer of the key's size (integer keys
// are equal exactly when their bits are).
// Defined by the host: CLREDUCE_KEY (uchar, ushort, uint or ulong), CLREDUCE_WG (a power of
// two: the work-group size of both launches), CLREDUCE_ROWS (a multiple of 8: a tile's mask
// words are then a whole number a work-item) and CLREDUCE_WORDS (a write step's 32 x
// CLREDUCE_WG x CLREDUCE_WORDS keys, at most 2^16: their places are 16-bit); each group's
// chunk is a multiple of a tile's 4 x CLREDUCE_ROWS x CLREDUCE_WG keys.

#if CLREDUCE_ROWS % 8 != 0
#error "CLREDUCE_ROWS must be a multiple of 8 (a tile's mask words are then a whole number a work-item)"
#endif

#define CLREDUCE_STEP (32 * CLREDUCE_WG * CLREDUCE_WORDS)
#if (CLREDUCE_WG & (CLREDUCE_WG - 1)) != 0 || CLREDUCE_STEP > 65536
#error "CLREDUCE_WG must be a power of two, and a write step's keys at most 2^16 (16-bit places)"
#endif

#define CLREDUCE_CAT_(a, b) a##b
#define CLREDUCE_CAT(a, b) CLREDUCE_CAT_(a, b)
#define CLREDUCE_KEY4 CLREDUCE_CAT(CLREDUCE_KEY, 4)
#define CLREDUCE_TILE (4 * CLREDUCE_ROWS * CLREDUCE_WG)
#define CLREDUCE_PLACES (CLREDUCE_STEP < 4096 ? CLREDUCE_STEP : 4096)
#define CLREDUCE_SCAN_BLOCK (CLREDUCE_WG < 16 ? CLREDUCE_WG : 16)
#define CLREDUCE_SCAN_BLOCKS (CLREDUCE_WG / CLREDUCE_SCAN_BLOCK)

// Whether element i (of the call: keys from key_offset on) heads a run.
inline bool clreduce_is_head(__global const CLREDUCE_KEY *keys, ulong i) {
    return i == 0 || keys[i] != keys[i - 1];
}

// The exclusive scan of the group's values v (one a work-item): this work-item's prefix, and
// the group's total in *total. Three barriers (a tree of log2(CLREDUCE_WG) levels takes two a
// level): one work-item a block scans the block's CLREDUCE_SCAN_BLOCK values in `tmp`
// (CLREDUCE_WG), then one the blocks' totals in `blocks` (CLREDUCE_SCAN_BLOCKS + 1). The caller
// waits at a barrier before it calls again.
inline uint clreduce_group_scan(uint v, __local uint *tmp, __local uint *blocks, uint *total) {
    const uint lid = (uint)get_local_id(0);
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < CLREDUCE_SCAN_BLOCKS) {
        uint sum = 0;
        for (uint k = lid * CLREDUCE_SCAN_BLOCK; k < (lid + 1) * CLREDUCE_SCAN_BLOCK; ++k) {
            const uint x = tmp[k];
            tmp[k] = sum;
            sum += x;
        }
        blocks[lid] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        uint sum = 0;
        for (uint b = 0; b < CLREDUCE_SCAN_BLOCKS; ++b) {
            const uint x = blocks[b];
            blocks[b] = sum;
            sum += x;
        }
        blocks[CLREDUCE_SCAN_BLOCKS] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *total = blocks[CLREDUCE_SCAN_BLOCKS];
    return tmp[lid] + blocks[lid / CLREDUCE_SCAN_BLOCK];
}

// The group's sum of v.
inline ulong clreduce_group_sum(ulong v, __local ulong *tmp) {
    const uint lid = (uint)get_local_id(0);
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint width = CLREDUCE_WG / 2; width > 0; width >>= 1) {
        if (lid < width) tmp[lid] += tmp[lid + width];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return tmp[0];
}

// The head bits of keys i to i + 3 (bit j: key i + j), of those below `end`.
inline uint clreduce_head_bits(__global const CLREDUCE_KEY *keys, ulong i, ulong end) {
    if (i + 3 < end) {
        const CLREDUCE_KEY4 v = vload4(0, keys + i);
        const uint first = i == 0 || v.s0 != keys[i - 1] ? 1u : 0u;
        return first | (v.s1 != v.s0 ? 2u : 0u) | (v.s2 != v.s1 ? 4u : 0u) | (v.s3 != v.s2 ? 8u : 0u);
    }
    uint bits = 0;
    for (uint j = 0; j < 4; ++j)
        if (i + j < end && clreduce_is_head(keys, i + j)) bits |= 1u << j;
    return bits;
}

__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_mark_heads(
    __global const CLREDUCE_KEY *keys_buffer, ulong key_offset, ulong n, ulong chunk, __global uint *mask,
    __global ulong *counts) {
    __local uchar bits[CLREDUCE_ROWS * CLREDUCE_WG];  // vector f of the tile's head bits
    __local ulong tmp[CLREDUCE_WG];
    __global const CLREDUCE_KEY *keys = keys_buffer + key_offset;
    const uint lid = (uint)get_local_id(0);
    const ulong g = get_group_id(0);
    const ulong begin = g * chunk;
    const ulong end = min(n, begin + chunk);
    ulong heads = 0;
    // Every work-item takes every tile (the loop's bound is the group's), for the barriers.
    for (ulong tile = begin; tile < end; tile += CLREDUCE_TILE) {
        for (uint k = 0; k < CLREDUCE_ROWS; ++k) {
            const uint f = k * CLREDUCE_WG + lid;
            const uint b = clreduce_head_bits(keys, tile + 4 * (ulong)f, end);
            heads += popcount(b);
            bits[f] = (uchar)b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // Word m of the tile: vectors 8m to 8m + 7, keys tile + 32m to + 31.
        for (uint m = lid; m < CLREDUCE_TILE / 32; m += CLREDUCE_WG) {
            const uchar8 v = vload8(m, bits);
            const uint word = (uint)v.s0 | (uint)v.s1 << 4 | (uint)v.s2 << 8 | (uint)v.s3 << 12 | (uint)v.s4 << 16 |
                              (uint)v.s5 << 20 | (uint)v.s6 << 24 | (uint)v.s7 << 28;
            if (tile + 32 * (ulong)m < end) mask[tile / 32 + m] = word;
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // before the next tile's bits
    }
    const ulong total = clreduce_group_sum(heads, tmp);
    if (lid == 0) counts[g] = total;
}

// The lowest set bit of a nonzero word (OpenCL C 1.2 has clz, not ctz).
inline uint clreduce_lowest_bit(uint word) { return 31 - clz(word & (0u - word)); }

// Run `run`'s first element i and its key.
inline void clreduce_write_run(ulong run, ulong i, ulong runs, __global const CLREDUCE_KEY *keys,
                               __global ulong *offsets, __global CLREDUCE_KEY *run_keys) {
    if (run < runs) {  // always, as both passes read the same mask; never past the buffers
        offsets[run] = i;
        run_keys[run] = keys[i];
    }
}

__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_write_heads(
    __global const CLREDUCE_KEY *keys_buffer, ulong key_offset, ulong n, ulong chunk, __global const uint *mask,
    __global const ulong *counts, ulong runs, __global ulong *offsets, __global CLREDUCE_KEY *run_keys) {
    __local ulong tmp[CLREDUCE_WG];
    __local uint scan[CLREDUCE_WG], blocks[CLREDUCE_SCAN_BLOCKS + 1];
    __local ushort places[CLREDUCE_PLACES];  // the step's heads, by number: keys past the step's start
    __global const CLREDUCE_KEY *keys = keys_buffer + key_offset;
    const uint lid = (uint)get_local_id(0);
    const ulong g = get_group_id(0);
    ulong before = 0;
    for (ulong k = lid; k < g; k += CLREDUCE_WG) before += counts[k];
    ulong next = clreduce_group_sum(before, tmp);  // the run number of the step's first head
    const ulong end = min(n, (g + 1) * chunk);
    const ulong word_end = (end + 31) / 32;
    // This work-item's words of a step; the next step's are loaded before this one's scan.
    uint words[CLREDUCE_WORDS], coming[CLREDUCE_WORDS];
    ulong w = g * chunk / 32 + (ulong)lid * CLREDUCE_WORDS;
    for (uint j = 0; j < CLREDUCE_WORDS; ++j) coming[j] = w + j < word_end ? mask[w + j] : 0;
    // Every work-item takes every step (the loop's bound is the group's), for the barriers.
    for (ulong step = g * chunk; step < end; step += CLREDUCE_STEP, w += CLREDUCE_STEP / 32) {
        uint count = 0;
        for (uint j = 0; j < CLREDUCE_WORDS; ++j) {
            words[j] = coming[j];
            count += popcount(words[j]);
            const ulong later = w + CLREDUCE_STEP / 32 + j;
            coming[j] = later < word_end ? mask[later] : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // the last step's places and total are read
        uint total;
        uint at = clreduce_group_scan(count, scan, blocks, &total);
        // Up to CLREDUCE_PLACES heads go through `places`; more (runs of a few keys): each
        // work-item writes its own. The barrier between the places' writes and reads stands
        // outside the branch: inside it, PoCL's CPU device sometimes wrote a step's runs from
        // places not yet written (offsets that descend) when the machine was busy.
        const bool placed = total <= CLREDUCE_PLACES;  // the same for the whole group
        for (uint j = 0; j < CLREDUCE_WORDS; ++j) {
            for (uint word = words[j]; word != 0; word &= word - 1, ++at) {
                const uint place = 32 * (lid * CLREDUCE_WORDS + j) + clreduce_lowest_bit(word);
                if (placed)
                    places[at] = (ushort)place;
                else
                    clreduce_write_run(next + at, step + place, runs, keys, offsets, run_keys);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // the places are written
        if (placed)
            for (uint h = lid; h < total; h += CLREDUCE_WG)
                clreduce_write_run(next + h, step + places[h], runs, keys, offsets, run_keys);
        next += total;
    }
    if (get_global_id(0) == 0) offsets[runs] = n;
}
