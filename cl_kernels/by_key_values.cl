// clreduce: reduce_by_key's pass over the values after run_heads.cl's mark pass, for the
// operations whose value no order of combining changes (src/exec/fused_by_key.cpp says which).
// Placed after reduce.cl, whose plug-in contract it uses (clreduce_state, clreduce_init,
// clreduce_accumulate, clreduce_combine). The mark pass left a bit a key in mask[] (word w: keys 32w to 32w + 31)
// and each chunk's number of heads in counts[]; this launch reads the values once, the mask,
// and a key only where a run begins, and writes each run's key to run_keys[r] and its state to
// states[r]. Two launches in all: the keys read once, the values once.
//
// Group g takes the mark pass's chunk g: the runs before it are counts[0] + ... + counts[g - 1].
// It goes through the chunk in tiles of 32 keys a work-item (one mask word, the work-item's
// values in eight loads of four), and carries the pair (heads, tail) of the chunk's elements
// so far from tile to tile: the number of heads and the state of the elements after the last
// head (all of them where there is none). Pairs combine in order:
//   (h1, t1) then (h2, t2) = (h1 + h2, h2 > 0 ? t2 : t1 combined with t2),
// so one exclusive scan of the work-items' pairs gives each work-item the state of the run open
// at its first element. A run whose head and end (the next head) lie in the chunk is written
// by the group; the chunk's first run's elements (before its first head: `first`) and its last
// run's (from its last head: `last`) go to carries[2g] and carries[2g + 1]. The group that
// finishes last combines the chunks' pairs in order and writes the runs that cross chunks:
// the run ending in chunk b (b > 0 with a head) is the pair of the chunks before b combined
// with b's `first`, and the last run is the pair of all chunks. Those groups' states are
// combined in an order of their own, which only exact states ignore.
// Defined by the host: CLREDUCE_KEY (uchar, ushort, uint or ulong: keys compare as bits), and
// CLREDUCE_BV_ALIGNED (1: the values start at a multiple of four elements, so that a vector
// is one aligned load). A chunk is a multiple of 32 x CLREDUCE_WG keys (the mark pass's tile).

#define CLREDUCE_BV_TILE (32 * CLREDUCE_WG)
#define CLREDUCE_BV_T4 CLREDUCE_CAT(CLREDUCE_T, 4)

// The other groups' carries are visible device-wide before the counter says they are there: a
// device-scope fence on each side (NVIDIA: membar.gl; CPU devices order their stores, and
// mem_fence keeps the compiler from moving them).
#if CLREDUCE_NVIDIA
#define clreduce_bv_fence() asm volatile("membar.gl;" ::: "memory")
#else
#define clreduce_bv_fence() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

typedef struct {
    ulong heads;
    clreduce_state tail;
} clreduce_bv_pair;

inline clreduce_bv_pair clreduce_bv_then(clreduce_bv_pair a, clreduce_bv_pair b) {
    clreduce_bv_pair r;
    r.heads = a.heads + b.heads;
    r.tail = b.heads > 0 ? b.tail : clreduce_combine(a.tail, b.tail);
    return r;
}

inline clreduce_bv_pair clreduce_bv_empty(void) {
    clreduce_bv_pair r;
    r.heads = 0;
    r.tail = clreduce_init();
    return r;
}

#define CLREDUCE_BV_BLOCK (CLREDUCE_WG < 16 ? CLREDUCE_WG : 16)
#define CLREDUCE_BV_BLOCKS (CLREDUCE_WG / CLREDUCE_BV_BLOCK)

// The exclusive scan of the group's pairs p (one a work-item) in work-item order: the pair of
// the work-items before this one, and the group's in *total. Three barriers: one work-item a
// block of CLREDUCE_BV_BLOCK scans the block in `tmp` (CLREDUCE_WG), then work-item 0 the
// blocks' pairs in `blocks` (CLREDUCE_BV_BLOCKS + 1). The caller waits at a barrier before it
// calls again.
inline clreduce_bv_pair clreduce_bv_scan(clreduce_bv_pair p, __local clreduce_bv_pair *tmp,
                                         __local clreduce_bv_pair *blocks, clreduce_bv_pair *total) {
    const uint lid = (uint)get_local_id(0);
    tmp[lid] = p;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < CLREDUCE_BV_BLOCKS) {
        clreduce_bv_pair sum = clreduce_bv_empty();
        for (uint k = lid * CLREDUCE_BV_BLOCK; k < (lid + 1) * CLREDUCE_BV_BLOCK; ++k) {
            const clreduce_bv_pair x = tmp[k];
            tmp[k] = sum;
            sum = clreduce_bv_then(sum, x);
        }
        blocks[lid] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        clreduce_bv_pair sum = clreduce_bv_empty();
        for (uint b = 0; b < CLREDUCE_BV_BLOCKS; ++b) {
            const clreduce_bv_pair x = blocks[b];
            blocks[b] = sum;
            sum = clreduce_bv_then(sum, x);
        }
        blocks[CLREDUCE_BV_BLOCKS] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *total = blocks[CLREDUCE_BV_BLOCKS];
    return clreduce_bv_then(blocks[lid / CLREDUCE_BV_BLOCK], tmp[lid]);
}

// The finish, by the group that counts last: the runs that cross chunks (see the top). Work-item
// l takes the chunks from l * per on, in order: their pairs first, then, after a scan of the
// work-items' pairs, the runs ending in them.
inline void clreduce_bv_finish(ulong groups, __global const ulong *counts, volatile __global clreduce_state *carries,
                               __global clreduce_state *states, __local clreduce_bv_pair *tmp,
                               __local clreduce_bv_pair *blocks) {
    const uint lid = (uint)get_local_id(0);
    const ulong per = (groups + CLREDUCE_WG - 1) / CLREDUCE_WG;
    const ulong from = min(groups, lid * per), to = min(groups, from + per);
    clreduce_bv_pair mine = clreduce_bv_empty();
    for (ulong c = from; c < to; ++c) {
        const ulong h = counts[c];
        const clreduce_bv_pair p = {h, carries[2 * c + (h > 0 ? 1 : 0)]};
        mine = clreduce_bv_then(mine, p);
    }
    clreduce_bv_pair total;
    clreduce_bv_pair before = clreduce_bv_scan(mine, tmp, blocks, &total);
    for (ulong c = from; c < to; ++c) {
        const ulong h = counts[c];
        if (h > 0 && c > 0) states[before.heads - 1] = clreduce_combine(before.tail, carries[2 * c]);
        const clreduce_bv_pair p = {h, carries[2 * c + (h > 0 ? 1 : 0)]};
        before = clreduce_bv_then(before, p);
    }
    if (lid == 0) states[total.heads - 1] = total.tail;
}

__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1))) void clreduce_by_key_values(
    __global const CLREDUCE_KEY *key_buffer, ulong key_offset, __global const CLREDUCE_T *value_buffer,
    ulong value_offset, ulong n, ulong chunk, __global const uint *mask, __global const ulong *counts,
    __global CLREDUCE_KEY *run_keys, __global clreduce_state *states, __global clreduce_state *carries,
    __global uint *done) {
    __local clreduce_bv_pair tmp[CLREDUCE_WG], blocks[CLREDUCE_BV_BLOCKS + 1];
    __local uint is_last;
    __global const CLREDUCE_KEY *keys = key_buffer + key_offset;
    __global const CLREDUCE_T *values = value_buffer + value_offset;
    const uint lid = (uint)get_local_id(0);
    const ulong g = get_group_id(0);
    const ulong groups = get_num_groups(0);

    // The runs begun before the chunk: the counts before it, added by the scan (its pairs' heads).
    clreduce_bv_pair before = clreduce_bv_empty(), counted;
    for (ulong k = lid; k < g; k += CLREDUCE_WG) before.heads += counts[k];
    clreduce_bv_scan(before, tmp, blocks, &counted);
    const ulong base = counted.heads;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong begin = g * chunk, end = min(n, begin + chunk);

    clreduce_bv_pair carry = clreduce_bv_empty();  // the chunk's elements before the tile
    // Every work-item takes every tile (the loop's bound is the group's), for the barriers.
    for (ulong tile = begin; tile < end; tile += CLREDUCE_BV_TILE) {
        const ulong i = tile + 32 * (ulong)lid;
        const uint valid = i < end ? (uint)min((ulong)32, end - i) : 0;
        const uint word = valid > 0 ? mask[i / 32] : 0;  // no bits past n: the mark pass set none
        CLREDUCE_T x[32];
        if (valid == 32) {
#pragma unroll
            for (uint q = 0; q < 8; ++q) {
#if CLREDUCE_BV_ALIGNED
                const CLREDUCE_BV_T4 v = ((__global const CLREDUCE_BV_T4 *)values)[i / 4 + q];
#else
                const CLREDUCE_BV_T4 v = vload4(0, values + i + 4 * q);
#endif
                x[4 * q] = v.s0;
                x[4 * q + 1] = v.s1;
                x[4 * q + 2] = v.s2;
                x[4 * q + 3] = v.s3;
            }
        } else {
#pragma unroll
            for (uint j = 0; j < 32; ++j) x[j] = j < valid ? values[i + j] : (CLREDUCE_T)0;
        }
        // This work-item's pair: its heads, and the state after the last (of all where none).
        clreduce_bv_pair mine = clreduce_bv_empty();
        mine.heads = popcount(word);
#pragma unroll
        for (uint j = 0; j < 32; ++j) {
            if (word >> j & 1u) mine.tail = clreduce_init();
            if (j < valid) mine.tail = clreduce_accumulate(mine.tail, x[j], i + j);
        }
        clreduce_bv_pair total;
        const clreduce_bv_pair open = clreduce_bv_then(carry, clreduce_bv_scan(mine, tmp, blocks, &total));
        if (word != 0) {
            // The runs begun before element i (the chunk's and those before it), and the state of
            // the one open there; each head ends it.
            ulong run = base + open.heads;
            clreduce_state s = open.tail;
#pragma unroll
            for (uint j = 0; j < 32; ++j) {
                if (j < valid) {
                    if (word >> j & 1u) {
                        if (run == base)
                            carries[2 * g] = s;  // the chunk's first head: the elements before it
                        else
                            states[run - 1] = s;
                        run_keys[run] = keys[i + j];
                        ++run;
                        s = clreduce_init();
                    }
                    s = clreduce_accumulate(s, x[j], i + j);
                }
            }
        }
        carry = clreduce_bv_then(carry, total);
        barrier(CLK_LOCAL_MEM_FENCE);  // the scan's local memory, before the next tile's
    }
    if (lid == 0) {
        carries[2 * g + (carry.heads > 0 ? 1 : 0)] = carry.tail;
        clreduce_bv_fence();
        is_last = atomic_inc(done) == (uint)(groups - 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (is_last) {
        clreduce_bv_fence();
        clreduce_bv_finish(groups, counts, carries, states, tmp, blocks);
        if (lid == 0) *done = 0;
    }
}
