// (One file of about 500 lines: its kernels share one parameter list, which the host sets from
// one place (src/exec/segment_launch.cpp), and the level-1, emit and long-segment helpers.)
// clreduce: many ranges ("segments") in one launch, one state per segment. Placed after
// reduce.cl, whose plug-in contract, level 1 macros and level 2 tree it reuses; only the
// segment mapping is new:
//   CLREDUCE_TEAM work-items reduce one segment (a power of two <= CLREDUCE_WG), so a group
//   holds CLREDUCE_WG / CLREDUCE_TEAM segments: one work-item per segment for segments of a
//   few elements, a team of a few lanes, or the whole group (CLREDUCE_TEAM == CLREDUCE_WG).
//   With a whole group per segment, `parts` groups may share one segment (few, huge
//   segments): each stores a partial, and a second launch of this kernel over the partials
//   (CLREDUCE_STATES_IN, regular segments of `parts` states) combines them in order.
// Segments are regular (segment s is [s * step, s * step + length): batches and matrix rows),
// a matrix's columns (CLREDUCE_SEGMENT_COLUMNS: clreduce_reduce_columns) or listed
// (CLREDUCE_SEGMENT_LIST: [begins[s], ends[s]), CSR offsets being begins = offsets,
// ends = offsets + 1). A listed segment that is not ascending or ends past `extent` is read
// as empty and raises bad[bad_at], which the host reports; nothing outside the buffers is read.
// Listed segments longer than `cap` elements (a few huge ones among many small ones): the team
// reduces the first `cap` and registers the rest as chunks of CLREDUCE_CHUNK elements, which
// every group shares in a second launch (clreduce_reduce_chunks); a third
// (clreduce_finish_long) combines each such segment's state and chunks in order. The counts
// bad[bad_at + 1] (chunks) and bad[bad_at + 2] (long segments) start at 0 and never pass the
// tables' room (`chunk_room`, `long_room`), which the host sizes for disjoint segments. Listed
// segments may overlap or repeat, so more may be asked for: a long segment that finds no room
// raises bad[bad_at + 3], and clreduce_finish_long then reduces every long segment whole, one
// group each, in one fixed order (whether the room runs out depends on the segments alone, not
// on which group asked first, so the bits are the same run to run).
// With CLREDUCE_SEGMENT_MEDIUM (the experiment experimental::SegmentOptions::medium), listed
// segments longer than that are left by the teams to clreduce_reduce_medium, a launch between
// these, whose teams of 32 lanes reduce them (up to `cap` elements, the rest in chunks as above).

#ifndef CLREDUCE_TEAM
#define CLREDUCE_TEAM CLREDUCE_WG
#endif
#ifndef CLREDUCE_SEGMENT_LIST
#define CLREDUCE_SEGMENT_LIST 0
#endif
#ifndef CLREDUCE_CHUNK
#define CLREDUCE_CHUNK 65536
#endif
#ifndef CLREDUCE_SEGMENT_COLUMNS
#define CLREDUCE_SEGMENT_COLUMNS 0
#endif
#ifndef CLREDUCE_SEGMENT_MEDIUM
#define CLREDUCE_SEGMENT_MEDIUM 0
#endif

#if CLREDUCE_WG % CLREDUCE_TEAM != 0
#error "CLREDUCE_TEAM must divide CLREDUCE_WG"
#endif

// A device result's element count (a mean's divisor, all()'s count) in the launch that combines
// groups' partials (CLREDUCE_STATES_IN, segments of states): elements_length for regular
// segments, else ends minus begins (0 if out of order or past elements_extent). The other
// launches count the elements they read.
#define CLREDUCE_ELEMENTS_PARAMS                                                                    \
    __global const ulong *elements_begins, ulong elements_begins_at, __global const ulong *elements_ends, \
        ulong elements_ends_at, ulong elements_length, ulong elements_extent, uint elements_listed
#if CLREDUCE_STATES_IN
__attribute__((always_inline)) inline ulong clreduce_segment_elements(ulong s, CLREDUCE_ELEMENTS_PARAMS) {
    if (!elements_listed) return elements_length;
    const ulong b = elements_begins[elements_begins_at + s], e = elements_ends[elements_ends_at + s];
    return b <= e && e <= elements_extent ? e - b : 0;
}
#endif

// The arguments of the kernels over the segments (teams, columns, medium teams): one list,
// set by one function on the host (segment_launch.cpp).
#define CLREDUCE_SEGMENT_PARAMS                                                                      \
    __global const CLREDUCE_IN_T *in, ulong offset, ulong extent, ulong segments,                   \
        __global const ulong *begins, ulong begins_at, __global const ulong *ends, ulong ends_at,   \
        ulong step, ulong length, uint parts, __global clreduce_state *out, __global uchar *result_out, \
        ulong result_offset, volatile __global uint *result_status, volatile __global uint *bad, ulong bad_at, \
        ulong cap, __global ulong *long_list, \
        __global ulong *chunk_table, uint long_room, uint chunk_room, CLREDUCE_ELEMENTS_PARAMS

// Loads in flight a lane (LaunchPlan::segment_loads): a lane loads CLREDUCE_SEGMENT_UNROLL of
// its vectors before it takes any (a loop that loads and takes one vector at a time waits a
// memory round trip an iteration).
#ifndef CLREDUCE_SEGMENT_UNROLL
#define CLREDUCE_SEGMENT_UNROLL 1
#endif
// Level 1 of one segment: elements [0, count) of `in` (moved to the segment's start), this
// work-item being lane `lane` of `lanes` (element j is index_base + j of its segment): vector i
// is elements [i * VEC, (i + 1) * VEC), lane k takes vectors k, k + lanes, ..., then its share
// of the scalar tail (higher indices), so states keep their index order. Aligned segments use
// vector loads. The tail (at most VEC - 1 elements a lane) is loaded before the vectors, so
// that a short segment's loads are all in flight together.
__attribute__((always_inline)) inline clreduce_state clreduce_segment_level1(__global const CLREDUCE_IN_T* in,
                                                                             ulong count, ulong lane, ulong lanes,
                                                                             ulong index_base) {
    const ulong vectors = count / CLREDUCE_VEC;
    const ulong tail_start = vectors * CLREDUCE_VEC;
    const bool aligned = ((ulong)in / sizeof(CLREDUCE_IN_T)) % CLREDUCE_VEC == 0;
    __global const CLREDUCE_IN_VEC* body = (__global const CLREDUCE_IN_VEC*)in;
#if CLREDUCE_VEC > 1
    CLREDUCE_IN_T tail[CLREDUCE_VEC - 1];
#pragma unroll
    for (uint t = 0; t < CLREDUCE_VEC - 1; ++t) {
        const ulong j = tail_start + lane + t * lanes;
        if (j < count) tail[t] = in[j];
    }
#endif
#ifdef CLREDUCE_VECTOR_PATH
    clreduce_vstate vs = clreduce_vinit();
#define CLREDUCE_SEGMENT_TAKE(v, i) vs = CLREDUCE_VACCUMULATE(vs, v, index_base + (i) * CLREDUCE_VEC);
#else
    clreduce_state acc = clreduce_init();
#define CLREDUCE_SEGMENT_TAKE(v, i)                             \
    {                                                           \
        const CLREDUCE_IN_VEC x = v;                            \
        CLREDUCE_LANES(acc, x, index_base + (i) * CLREDUCE_VEC) \
    }
#endif
    // Regular segments: one loop per load form (the same in the whole warp). Listed ones
    // start anywhere, so a warp's lanes differ: each load chooses its form (two loops would
    // run one after the other).
#define CLREDUCE_SEGMENT_LOOP(LOAD)                                                          \
    CLREDUCE_LOADS_AHEAD(CLREDUCE_IN_VEC, CLREDUCE_SEGMENT_UNROLL, lane, vectors, lanes, LOAD, \
                         CLREDUCE_SEGMENT_TAKE)
#define CLREDUCE_SEGMENT_ALIGNED_LOAD(i) body[i]
#if CLREDUCE_VEC > 1 && CLREDUCE_SEGMENT_LIST
#define CLREDUCE_SEGMENT_EITHER_LOAD(i) (aligned ? body[i] : CLREDUCE_CAT(vload, CLREDUCE_VEC)(i, in))
    CLREDUCE_SEGMENT_LOOP(CLREDUCE_SEGMENT_EITHER_LOAD)
#undef CLREDUCE_SEGMENT_EITHER_LOAD
#elif CLREDUCE_VEC > 1
#define CLREDUCE_SEGMENT_UNALIGNED_LOAD(i) CLREDUCE_CAT(vload, CLREDUCE_VEC)(i, in)
    if (aligned) {
        CLREDUCE_SEGMENT_LOOP(CLREDUCE_SEGMENT_ALIGNED_LOAD)
    } else {
        CLREDUCE_SEGMENT_LOOP(CLREDUCE_SEGMENT_UNALIGNED_LOAD)
    }
#undef CLREDUCE_SEGMENT_UNALIGNED_LOAD
#else
    CLREDUCE_SEGMENT_LOOP(CLREDUCE_SEGMENT_ALIGNED_LOAD)
#endif
#undef CLREDUCE_SEGMENT_ALIGNED_LOAD
#undef CLREDUCE_SEGMENT_LOOP
#undef CLREDUCE_SEGMENT_TAKE
#ifdef CLREDUCE_VECTOR_PATH
    clreduce_state acc = clreduce_vfinish(vs);
#endif
#if CLREDUCE_VEC > 1
#pragma unroll
    for (uint t = 0; t < CLREDUCE_VEC - 1; ++t) {
        const ulong j = tail_start + lane + t * lanes;
        if (j < count) acc = CLREDUCE_TAKE(acc, tail[t], index_base + j);
    }
#endif
    return acc;
}

// Level 2 of each team: its states as one, in its lane 0. A whole-group team is reduce.cl's
// tree; smaller teams a tree of their own in local memory (every work-item takes every
// barrier), whose last 32 lanes (or all of a smaller team) finish by warp shuffle where the
// plan has it: a team never spans two warps, and every lane of a warp shuffles together, so the
// full mask is right; lanes past a team's end only feed lanes that are not its lane 0.
// The same for teams of `team` lanes (a power of two up to CLREDUCE_WG, a constant where it
// is called), which the medium kernel's teams of CLREDUCE_MEDIUM_TEAM use too.
__attribute__((always_inline)) inline clreduce_state clreduce_lanes_level2(__local clreduce_state* scratch,
                                                                           clreduce_state acc, uint lid,
                                                                           const uint team) {
#if CLREDUCE_NV_SHUFFLE
    const uint stop = team < CLREDUCE_WAVEFRONT ? team : CLREDUCE_WAVEFRONT;
#else
    const uint stop = 1;
#endif
    if (team > stop) {
        scratch[lid] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint lane = lid % team;
        for (uint s = team / 2; s >= stop; s >>= 1) {
            if (lane < s) scratch[lid] = clreduce_combine(scratch[lid], scratch[lid + s]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc = scratch[lid];
    }
#if CLREDUCE_NV_SHUFFLE
    for (uint delta = stop / 2; delta > 0; delta >>= 1) acc = clreduce_combine(acc, clreduce_shfl_down(acc, delta));
#endif
    return acc;
}

__attribute__((always_inline)) inline clreduce_state clreduce_team_level2(__local clreduce_state* scratch,
                                                                          clreduce_state acc, uint lid) {
#if CLREDUCE_TEAM == CLREDUCE_WG
    return clreduce_level2(scratch, acc, lid);
#else
    return clreduce_lanes_level2(scratch, acc, lid, CLREDUCE_TEAM);
#endif
}

// Segment s's final state (of `elements` elements): its result into the caller's buffer, or
// its state.
__attribute__((always_inline)) inline void clreduce_segment_emit(ulong s, clreduce_state acc,
                                                                 __global clreduce_state* out,
                                                                 __global uchar* result_out, ulong result_offset,
                                                                 volatile __global uint* result_status,
                                                                 ulong elements) {
#if CLREDUCE_DEVICE_RESULT
    clreduce_write_result(result_out + result_offset + s * CLREDUCE_RESULT_SIZE, acc, elements, result_status);
#else
    out[s] = acc;
#endif
}

// Segment s's final state, or, for a long one (its first `cap` elements), its state for
// clreduce_finish_long.
__attribute__((always_inline)) inline void clreduce_segment_finish(ulong s, clreduce_state acc, bool is_long,
                                                                   __global clreduce_state* out,
                                                                   __global uchar* result_out, ulong result_offset,
                                                                   volatile __global uint* result_status,
                                                                   ulong elements) {
    if (is_long)
        out[s] = acc;
    else
        clreduce_segment_emit(s, acc, out, result_out, result_offset, result_status, elements);
}

#if CLREDUCE_SEGMENT_LIST  // (CLREDUCE_CHUNK is 0 for other segments)
// Takes `n` entries of a table whose count is *counter and which has room for `room`: the first
// one's index, or `room` (taking none) where they do not all fit. The first count is read with an
// atomic too: a plain read beside other work-items' compare-and-swaps is a data race.
__attribute__((always_inline)) inline uint clreduce_take_room(volatile __global uint* counter, ulong n, uint room) {
    uint seen = atomic_or(counter, 0u);
    for (;;) {
        if (n > room - seen) return room;
        const uint before = atomic_cmpxchg(counter, seen, seen + (uint)n);
        if (before == seen) return seen;
        seen = before;
    }
}

// A long listed segment (`count` elements, more than `cap`): its rest after `cap` as chunks of
// CLREDUCE_CHUNK elements into chunk_table, and the segment into long_list; the counts are
// bad[bad_at + 1] (chunks) and bad[bad_at + 2] (long segments). Where either table has no room
// left, bad[bad_at + 3] is raised instead (and an entry taken in long_list lists no chunks).
__attribute__((always_inline)) inline void clreduce_register_long(ulong segment, ulong count, ulong cap,
                                                                  volatile __global uint* bad, ulong bad_at,
                                                                  __global ulong* long_list,
                                                                  __global ulong* chunk_table, uint long_room,
                                                                  uint chunk_room) {
    const uint k = clreduce_take_room(bad + bad_at + 2, 1, long_room);
    if (k == long_room) {
        atomic_or(bad + bad_at + 3, 1u);
        return;
    }
    ulong chunks = (count - cap + CLREDUCE_CHUNK - 1) / CLREDUCE_CHUNK;
    const uint base = clreduce_take_room(bad + bad_at + 1, chunks, chunk_room);
    if (base == chunk_room) {
        atomic_or(bad + bad_at + 3, 1u);
        chunks = 0;
    }
    long_list[3 * (ulong)k] = segment;
    long_list[3 * (ulong)k + 1] = base;
    long_list[3 * (ulong)k + 2] = chunks;
    for (ulong c = 0; c < chunks; ++c) {
        chunk_table[2 * (base + c)] = segment;
        chunk_table[2 * (base + c) + 1] = c;
    }
}
#endif

#if CLREDUCE_SEGMENT_COLUMNS
// Level 1 of CLREDUCE_VEC adjacent columns (a slot; `in` at the first one's row 0, `width` of
// them in the matrix): rows lane, lane + lanes, ... (`step` elements apart), each column into
// its own state; the index of an element is its row. A whole slot is one vector load per row.
__attribute__((always_inline)) inline void clreduce_columns_level1(clreduce_state* acc,
                                                                   __global const CLREDUCE_IN_T* in, ulong rows,
                                                                   ulong lane, ulong lanes, ulong step, uint width) {
    for (uint j = 0; j < CLREDUCE_VEC; ++j) acc[j] = clreduce_init();
#if CLREDUCE_VEC > 1
    if (width == CLREDUCE_VEC) {
        // A whole slot: one vector load per row, CLREDUCE_SEGMENT_UNROLL rows before any is taken.
        const bool aligned = ((ulong)in / sizeof(CLREDUCE_IN_T)) % CLREDUCE_VEC == 0 && step % CLREDUCE_VEC == 0;
#define CLREDUCE_ROW_LOAD(r)                                             \
    (aligned ? *(__global const CLREDUCE_IN_VEC*)(in + (r) * step)     \
             : CLREDUCE_CAT(vload, CLREDUCE_VEC)(0, in + (r) * step))
#define CLREDUCE_ROW_TAKE(v, r)                                                          \
    {                                                                                    \
        CLREDUCE_IN_T x[CLREDUCE_VEC];                                                   \
        CLREDUCE_CAT(vstore, CLREDUCE_VEC)(v, 0, x);                                     \
        for (uint j = 0; j < CLREDUCE_VEC; ++j) acc[j] = CLREDUCE_TAKE(acc[j], x[j], (r)); \
    }
        CLREDUCE_LOADS_AHEAD(CLREDUCE_IN_VEC, CLREDUCE_SEGMENT_UNROLL, lane, rows, lanes, CLREDUCE_ROW_LOAD, \
                             CLREDUCE_ROW_TAKE)
#undef CLREDUCE_ROW_LOAD
#undef CLREDUCE_ROW_TAKE
        return;
    }
#endif
    for (ulong r = lane; r < rows; r += lanes)
        for (uint j = 0; j < width; ++j) acc[j] = CLREDUCE_TAKE(acc[j], in[r * step + j], r);
}

// The columns of a matrix (segment c: elements c + r * step, rows r in [0, length)): a group
// holds CLREDUCE_WG / CLREDUCE_TEAM slots of CLREDUCE_VEC columns, consecutive work-items on
// consecutive slots so that each row is read coalesced; a slot's CLREDUCE_TEAM lanes (that many
// work-items apart) and `parts` groups split its rows, the lanes' states combined by a tree,
// the groups' by the combining launch. The arguments are clreduce_reduce_segments' (the
// listed ones unused).
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce_columns(CLREDUCE_SEGMENT_PARAMS)
{
    const uint lid = get_local_id(0);
    const ulong group = get_group_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];
    const uint slots = CLREDUCE_WG / CLREDUCE_TEAM;
    const uint lane = lid / slots;
    const uint part = group % parts;
    const ulong first = ((group / parts) * slots + lid % slots) * CLREDUCE_VEC;
    const uint width = first < segments ? (uint)min(segments - first, (ulong)CLREDUCE_VEC) : 0;
    clreduce_state acc[CLREDUCE_VEC];
    clreduce_columns_level1(acc, in + offset + (width != 0 ? first : 0), width != 0 ? length : 0,
                            (ulong)part * CLREDUCE_TEAM + lane, (ulong)parts * CLREDUCE_TEAM, step, width);
#if CLREDUCE_TEAM > 1
    for (uint j = 0; j < CLREDUCE_VEC; ++j) {
        scratch[lid] = acc[j];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s = CLREDUCE_TEAM / 2; s > 0; s >>= 1) {
            if (lane < s) scratch[lid] = clreduce_combine(scratch[lid], scratch[lid + s * slots]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc[j] = scratch[lid];
        barrier(CLK_LOCAL_MEM_FENCE);  // scratch is written again
    }
#endif
    if (lane != 0) return;
    for (uint j = 0; j < width; ++j) {
        const ulong column = first + j;
#if CLREDUCE_DEVICE_RESULT
        clreduce_write_result(result_out + result_offset + column * CLREDUCE_RESULT_SIZE, acc[j], length,
                              result_status);
#else
        out[column * parts + part] = acc[j];
#endif
    }
}
#endif

// Segment s's state (or, with parts > 1, partial part of it) into out[s * parts + part], or,
// with CLREDUCE_DEVICE_RESULT, its value into result_out + result_offset as the s-th
// CLREDUCE_RESULT_T (a long segment's first `cap` elements still go to out[s]). `offset` moves
// `in` to the first element the segments address; `extent` elements from there are the values.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce_segments(CLREDUCE_SEGMENT_PARAMS)
{
    const uint lid = get_local_id(0);
    const ulong group = get_group_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];

    const uint lane = lid % CLREDUCE_TEAM;
    const ulong segment = (group / parts) * (CLREDUCE_WG / CLREDUCE_TEAM) + lid / CLREDUCE_TEAM;
    const uint part = group % parts;
    ulong begin = 0, count = 0, elements = 0;
    bool is_long = false, medium = false;
    if (segment < segments) {
#if CLREDUCE_SEGMENT_LIST
        const ulong b = begins[begins_at + segment];
        const ulong e = ends[ends_at + segment];
        if (b <= e && e <= extent) {
            begin = b;
            count = e - b;
        } else if (lane == 0 && part == 0) {
            atomic_or(bad + bad_at, 1u);
        }
        elements = count;
#if CLREDUCE_SEGMENT_MEDIUM
        medium = count > CLREDUCE_SEGMENT_MEDIUM;  // clreduce_reduce_medium's
        if (medium) count = 0;
#endif
        is_long = cap != 0 && count > cap;
        if (is_long && lane == 0) clreduce_register_long(segment, count, cap, bad, bad_at, long_list, chunk_table, long_room,
                                   chunk_room);
        if (is_long) count = cap;
#else
        begin = segment * step;
        count = length;
#if CLREDUCE_STATES_IN
        elements = clreduce_segment_elements(segment, elements_begins, elements_begins_at, elements_ends,
                                             elements_ends_at, elements_length, elements_extent, elements_listed);
#else
        elements = length;
#endif
#endif
    }
    clreduce_state acc = clreduce_segment_level1(in + offset + begin, count, (ulong)part * CLREDUCE_TEAM + lane,
                                                 (ulong)parts * CLREDUCE_TEAM, 0);
    acc = clreduce_team_level2(scratch, acc, lid);
    if (lane == 0 && segment < segments && !medium) {
        clreduce_segment_finish(segment * parts + part, acc, is_long, out, result_out, result_offset, result_status,
                                elements);
    }
}

#if CLREDUCE_SEGMENT_LIST && CLREDUCE_SEGMENT_MEDIUM
// The listed segments longer than CLREDUCE_SEGMENT_MEDIUM elements, which
// clreduce_reduce_segments leaves to this second launch (same arguments): a team of a few
// lanes there would hold its warp while it walks one, here teams of CLREDUCE_MEDIUM_TEAM lanes
// take them. A group looks at CLREDUCE_WG consecutive segments and lists its long ones; its
// teams take them in turn (in rounds whose barriers every work-item takes, unless the team's
// tree is all warp shuffles). Rests past `cap`
// go to the chunks, as in clreduce_reduce_segments.
#define CLREDUCE_MEDIUM_TEAM (CLREDUCE_WG < 32 ? CLREDUCE_WG : 32)
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce_medium(CLREDUCE_SEGMENT_PARAMS)
{
    const uint lid = get_local_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];
    __local uint picked[CLREDUCE_WG];
    __local uint picks;
    if (lid == 0) picks = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong first = get_group_id(0) * (ulong)CLREDUCE_WG;
    if (first + lid < segments) {
        const ulong b = begins[begins_at + first + lid], e = ends[ends_at + first + lid];
        if (b <= e && e <= extent && e - b > CLREDUCE_SEGMENT_MEDIUM) picked[atomic_inc(&picks)] = lid;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint listed = picks;
    const uint teams = CLREDUCE_WG / CLREDUCE_MEDIUM_TEAM;
    const uint lane = lid % CLREDUCE_MEDIUM_TEAM;
#if CLREDUCE_NV_SHUFFLE && CLREDUCE_MEDIUM_TEAM <= CLREDUCE_WAVEFRONT
    // A team's tree is all shuffles (no barrier): each team walks its own entries.
    for (uint k = lid / CLREDUCE_MEDIUM_TEAM; k < listed; k += teams) {
#else
    for (uint round = 0; round < listed; round += teams) {
        const uint k = round + lid / CLREDUCE_MEDIUM_TEAM;
#endif
        ulong segment = 0, begin = 0, count = 0, elements = 0;
        bool is_long = false;
        if (k < listed) {
            segment = first + picked[k];
            begin = begins[begins_at + segment];
            count = ends[ends_at + segment] - begin;
            elements = count;
            is_long = cap != 0 && count > cap;
            if (is_long && lane == 0) clreduce_register_long(segment, count, cap, bad, bad_at, long_list, chunk_table, long_room,
                                   chunk_room);
            if (is_long) count = cap;
        }
        clreduce_state acc = clreduce_segment_level1(in + offset + begin, count, lane, CLREDUCE_MEDIUM_TEAM, 0);
        acc = clreduce_lanes_level2(scratch, acc, lid, CLREDUCE_MEDIUM_TEAM);
        if (lane == 0 && k < listed)
            clreduce_segment_finish(segment, acc, is_long, out, result_out, result_offset, result_status, elements);
    }
}
#endif

#if CLREDUCE_SEGMENT_LIST && !CLREDUCE_STATES_IN
// The chunks of the long segments, shared by all groups: chunk k (segment s, its c-th) is
// elements [cap + c * CLREDUCE_CHUNK, ...) of s, into partials[k].
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_reduce_chunks(__global const CLREDUCE_IN_T* in, ulong offset, __global const ulong* begins,
                            ulong begins_at, __global const ulong* ends, ulong ends_at, ulong cap,
                            __global const uint* counts, ulong counts_at, __global const ulong* chunk_table,
                            __global clreduce_state* partials)
{
    const uint lid = get_local_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];
    const ulong total = counts[counts_at];
    for (ulong k = get_group_id(0); k < total; k += get_num_groups(0)) {
        const ulong s = chunk_table[2 * k], c = chunk_table[2 * k + 1];
        const ulong first = cap + c * CLREDUCE_CHUNK;
        const ulong begin = begins[begins_at + s] + first;
        const ulong count = min((ulong)CLREDUCE_CHUNK, ends[ends_at + s] - begin);
        clreduce_state acc = clreduce_segment_level1(in + offset + begin, count, lid, CLREDUCE_WG, first);
        acc = clreduce_level2(scratch, acc, lid);
        if (lid == 0) partials[k] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);  // scratch is used again
    }
}

// Each long segment: its first `cap` elements' state (out[s]), then its chunks in order. Where
// the tables ran out of room (counts[counts_at + 2]), every long segment instead, read whole.
__kernel __attribute__((reqd_work_group_size(CLREDUCE_WG, 1, 1)))
void clreduce_finish_long(__global const uint* counts, ulong counts_at, __global const ulong* long_list,
                          __global const clreduce_state* partials, __global clreduce_state* out,
                          __global uchar* result_out, ulong result_offset, volatile __global uint* result_status,
                          __global const CLREDUCE_IN_T* in,
                          ulong offset, ulong extent, ulong segments, __global const ulong* begins,
                          ulong begins_at, __global const ulong* ends, ulong ends_at, ulong cap)
{
    const uint lid = get_local_id(0);
    __local clreduce_state scratch[CLREDUCE_WG];
    if (counts[counts_at + 2] != 0) {
        for (ulong s = get_group_id(0); s < segments; s += get_num_groups(0)) {
            const ulong b = begins[begins_at + s], e = ends[ends_at + s];
            if (b > e || e > extent || e - b <= cap) continue;  // the same for the whole group
            clreduce_state acc = clreduce_segment_level1(in + offset + b, e - b, lid, CLREDUCE_WG, 0);
            acc = clreduce_level2(scratch, acc, lid);
            if (lid == 0) clreduce_segment_emit(s, acc, out, result_out, result_offset, result_status, e - b);
            barrier(CLK_LOCAL_MEM_FENCE);  // scratch is used again
        }
        return;
    }
    const ulong longs = counts[counts_at + 1];
    for (ulong k = get_group_id(0); k < longs; k += get_num_groups(0)) {
        const ulong s = long_list[3 * k], base = long_list[3 * k + 1], chunks = long_list[3 * k + 2];
        clreduce_state acc = clreduce_init();
        for (ulong c = lid; c < chunks; c += CLREDUCE_WG) acc = clreduce_combine(acc, partials[base + c]);
        acc = clreduce_level2(scratch, acc, lid);
        if (lid == 0) {
            clreduce_segment_emit(s, clreduce_combine(out[s], acc), out, result_out, result_offset, result_status,
                                  ends[ends_at + s] - begins[begins_at + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif
