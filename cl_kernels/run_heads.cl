// clreduce: the runs of equal consecutive keys, for reduce_by_key (src/exec/run_heads.cpp).
// Element i heads a run where i == 0 or keys[i] != keys[i - 1]. Three launches make the runs'
// CSR offsets and their keys, a reduce-then-scan in two levels:
//   clreduce_count_heads  group g counts the heads of its chunk [g * chunk, (g + 1) * chunk)
//   clreduce_scan_heads   one group turns those counts into each chunk's first run (an
//                         exclusive scan, in place) and writes the number of runs after them
//   clreduce_write_heads  group g reads its chunk again, numbers its heads in order and writes
//                         each run's first element to offsets[] and its key to run_keys[]; the
//                         first work-item also writes offsets[runs] = n, the last run's end.
// Both passes over the keys go through a chunk in tiles of CLREDUCE_ROWS rows of CLREDUCE_WG
// keys: work-item l takes element l of each row, so that every load of the group is one
// contiguous row, and a work-item has CLREDUCE_ROWS loads in flight. The write pass numbers a
// tile's heads with one scan: each work-item's heads per row, 16-bit fields of a ulong2 (rows
// 0-3 in .x, 4-7 in .y; a row has at most CLREDUCE_WG <= 2^15 heads), scanned together, give
// each row's heads before the work-item, and the tile's total each row's heads in all.
// The host sizes offsets[] and run_keys[] from the number of runs, which it reads between the
// second launch and the third. Keys compare as bits: CLREDUCE_KEY is the unsigned integer of
// the key's size (integer keys are equal exactly when their bits are).
// Defined by the host: CLREDUCE_KEY (uchar, ushort, uint or ulong), CLREDUCE_WG (a power of
// two up to 2^15: the work-group size of every launch) and CLREDUCE_ROWS (8, as the fields
// above have it); each group's chunk is a multiple of CLREDUCE_WG x CLREDUCE_ROWS elements.

#if CLREDUCE_ROWS != 8
#error "CLREDUCE_ROWS must be 8 (the write pass packs 8 rows' counts into a ulong2)"
#endif

#if (CLREDUCE_WG & (CLREDUCE_WG - 1)) != 0 || CLREDUCE_WG > 32768
#error "CLREDUCE_WG must be a power of two up to 2^15"
#endif

// Whether element i (of the call: keys from key_offset on) heads a run.
inline bool clreduce_is_head(__global const CLREDUCE_KEY *keys, ulong i) {
    return i == 0 || keys[i] != keys[i - 1];
}

// The inclusive scan of the group's values v (one a work-item) in `tmp` (CLREDUCE_WG of them):
// returns this work-item's inclusive prefix; tmp[CLREDUCE_WG - 1] holds the total afterwards,
// until the next call. Hillis-Steele: log2(CLREDUCE_WG) steps, a barrier either side of each
// read so that no work-item reads a value being replaced. For ulong and ulong2.
#define CLREDUCE_GROUP_SCAN(NAME, T)                                    \
    inline T NAME(T v, __local T *tmp) {                                \
        const uint lid = (uint)get_local_id(0);                         \
        tmp[lid] = v;                                                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                   \
        for (uint step = 1; step < CLREDUCE_WG; step <<= 1) {           \
            const T add = lid >= step ? tmp[lid - step] : (T)(0);       \
            barrier(CLK_LOCAL_MEM_FENCE);                               \
            tmp[lid] += add;                                            \
            barrier(CLK_LOCAL_MEM_FENCE);                               \
        }                                                               \
        return tmp[lid];                                                \
    }
CLREDUCE_GROUP_SCAN(clreduce_group_scan, ulong)
CLREDUCE_GROUP_SCAN(clreduce_group_scan2, ulong2)

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

// Row k's 16-bit field of a tile's packed counts.
inline ulong clreduce_row_field(ulong2 packed, uint k) {
    return ((k < 4 ? packed.x : packed.y) >> (16 * (k % 4))) & 0xffff;
}

__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_count_heads(
    __global const CLREDUCE_KEY *keys_buffer, ulong key_offset, ulong n, ulong chunk, __global ulong *counts) {
    __local ulong tmp[CLREDUCE_WG];
    __global const CLREDUCE_KEY *keys = keys_buffer + key_offset;
    const ulong g = get_group_id(0);
    const ulong begin = g * chunk;
    const ulong end = min(n, begin + chunk);
    ulong heads = 0;
    for (ulong tile = begin; tile < end; tile += CLREDUCE_WG * CLREDUCE_ROWS)
        for (uint k = 0; k < CLREDUCE_ROWS; ++k) {
            const ulong i = tile + k * CLREDUCE_WG + get_local_id(0);
            heads += i < end && clreduce_is_head(keys, i) ? 1 : 0;
        }
    const ulong total = clreduce_group_sum(heads, tmp);
    if (get_local_id(0) == 0) counts[g] = total;
}

// One group: counts[0..groups) becomes the exclusive scan of itself, counts[groups] the total.
// Each work-item takes `per` consecutive counts, so any number of groups fits one launch.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_scan_heads(__global ulong *counts,
                                                                                          ulong groups) {
    __local ulong tmp[CLREDUCE_WG];
    const ulong per = (groups + CLREDUCE_WG - 1) / CLREDUCE_WG;
    const ulong begin = get_local_id(0) * per;
    const ulong end = min(groups, begin + per);
    ulong mine = 0;
    for (ulong k = begin; k < end; ++k) mine += counts[k];
    const ulong inclusive = clreduce_group_scan(mine, tmp);
    ulong before = inclusive - mine;
    for (ulong k = begin; k < end; ++k) {
        const ulong c = counts[k];
        counts[k] = before;
        before += c;
    }
    if (get_local_id(0) == CLREDUCE_WG - 1) counts[groups] = inclusive;
}

__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_write_heads(
    __global const CLREDUCE_KEY *keys_buffer, ulong key_offset, ulong n, ulong chunk, __global const ulong *firsts,
    ulong runs, __global ulong *offsets, __global CLREDUCE_KEY *run_keys) {
    __local ulong2 tmp[CLREDUCE_WG];
    __global const CLREDUCE_KEY *keys = keys_buffer + key_offset;
    const ulong g = get_group_id(0);
    const ulong begin = g * chunk;
    const ulong end = min(n, begin + chunk);
    ulong next = firsts[g];  // the run number of the tile's first head
    // Every work-item takes every tile (the loop's bound is the group's), for the barriers.
    for (ulong tile = begin; tile < end; tile += CLREDUCE_WG * CLREDUCE_ROWS) {
        uint flags = 0;  // bit k: this work-item's element of row k heads a run
        ulong2 packed = (ulong2)(0);
        for (uint k = 0; k < CLREDUCE_ROWS; ++k) {
            const ulong i = tile + k * CLREDUCE_WG + get_local_id(0);
            if (i < end && clreduce_is_head(keys, i)) {
                flags |= 1u << k;
                if (k < 4)
                    packed.x += 1ul << (16 * k);
                else
                    packed.y += 1ul << (16 * (k - 4));
            }
        }
        const ulong2 before_me = clreduce_group_scan2(packed, tmp) - packed;
        const ulong2 in_tile = tmp[CLREDUCE_WG - 1];
        ulong row_first = next;  // the run number of row k's first head
        for (uint k = 0; k < CLREDUCE_ROWS; ++k) {
            if ((flags >> k) & 1u) {
                const ulong i = tile + k * CLREDUCE_WG + get_local_id(0);
                const ulong run = row_first + clreduce_row_field(before_me, k);
                if (run < runs) {  // always, as both passes read the same keys; never past the buffers
                    offsets[run] = i;
                    run_keys[run] = keys[i];
                }
            }
            row_first += clreduce_row_field(in_tile, k);
        }
        next = row_first;
        barrier(CLK_LOCAL_MEM_FENCE);  // before the next tile's scan writes tmp
    }
    if (get_global_id(0) == 0) offsets[runs] = n;
}
