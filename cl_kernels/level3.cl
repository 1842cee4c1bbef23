// clreduce: level 3 of reduce.cl, where a work-group's state (in work-item 0 after level 2)
// becomes part of the one result as CLREDUCE_FINISH says. Included by reduce.cl (the host
// expands the line) after clreduce_level2 and clreduce_store_result.

#if CLREDUCE_FINISH == CLREDUCE_FINISH_LAST_GROUP
// The partials of the other groups must be visible device-wide before the counter says they
// are there: a device-scope fence on each side (NVIDIA: membar.gl; CPU devices order their
// stores, and mem_fence keeps the compiler from moving them).
#if CLREDUCE_NVIDIA
#define clreduce_device_fence() asm volatile("membar.gl;" ::: "memory")
#else
#define clreduce_device_fence() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#endif

#if CLREDUCE_FINISH == CLREDUCE_FINISH_EXACT_ATOMIC
// The fixed-point number of set `slot` that this group adds into.
inline volatile __global long* clreduce_exact_number(__global clreduce_state* out, uint slot, ulong group) {
    const ulong copy = slot * CLREDUCE_EXACT_COPIES + group % CLREDUCE_EXACT_COPIES;
    return (volatile __global long*)out + copy * CLREDUCE_EXACT_WORDS;
}
#endif

// Level 3: the group's state (in work-item 0 after level 2) becomes part of the one result,
// as CLREDUCE_FINISH says. Every work-item calls it (the last-group finish runs level 2 again).
__attribute__((always_inline)) inline void clreduce_level3(__local clreduce_state* scratch, __local uint* is_last,
                                                           clreduce_state acc, uint lid, ulong group,
                                                           __global clreduce_state* out,
                                                           __global clreduce_state* partials, uint slot,
                                                           __global uchar* result_out, ulong result_offset,
                                                           volatile __global uint* result_status, ulong result_count,
                                                           volatile __global uint* done CLREDUCE_SINK_PARAM) {
#if CLREDUCE_FINISH == CLREDUCE_FINISH_LAST_GROUP
#ifdef CLREDUCE_GROUP_SINK
#error "a group sink finishes with the exact atomic finish"
#endif
    // `done` counts the groups done (0 between calls); each group's state goes to `partials`.
    // The group that counts last combines them in index order, as a second pass would, and
    // resets the count.
    if (lid == 0) {
        partials[group] = acc;
        clreduce_device_fence();
        *is_last = atomic_inc(done) == (uint)(get_num_groups(0) - 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (*is_last) {
        clreduce_device_fence();
        // volatile: read where the other groups wrote, past any cache of this compute unit.
        const volatile __global clreduce_state* seen = partials;
        clreduce_state s = clreduce_init();
        for (ulong j = lid; j < get_num_groups(0); j += CLREDUCE_WG) s = clreduce_combine(s, seen[j]);
        s = clreduce_level2(scratch, s, lid CLREDUCE_SINK_ARG);
        if (lid == 0) {
            clreduce_store_result(out, slot, s, result_out, result_offset, result_status, result_count);
            *done = 0;
        }
    }
#else
    if (lid == 0) {
#if CLREDUCE_FINISH == CLREDUCE_FINISH_SECOND_PASS
        out[group] = acc;
#elif CLREDUCE_FINISH == CLREDUCE_FINISH_ATOMIC
#ifndef CLREDUCE_ATOMIC_FINISH
#error "this operation has no atomic finish"
#endif
        clreduce_atomic((volatile __global clreduce_state*)(out + slot), acc);
        if (group == 0)
            out[slot ^ 1u] = clreduce_init();
#elif CLREDUCE_FINISH == CLREDUCE_FINISH_EXACT_ATOMIC
#ifndef CLREDUCE_EXACT_FINISH
#error "this operation has no exact atomic finish"
#endif
        // Two sets of CLREDUCE_EXACT_COPIES numbers in place of the result words; group g adds
        // into copy g % CLREDUCE_EXACT_COPIES, so that many groups do not queue on the same
        // few words (the host adds the copies).
        clreduce_exact_atomic(clreduce_exact_number(out, slot, group), acc);
#else
        clreduce_store_result(out, slot, acc, result_out, result_offset, result_status, result_count);
#endif
    }
#if CLREDUCE_FINISH == CLREDUCE_FINISH_EXACT_ATOMIC
#ifdef CLREDUCE_GROUP_SINK
    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item is done with the sink
    clreduce_sink_flush(sink, clreduce_exact_number(out, slot, group), lid);
#endif
    // The other set, zero for the next call.
    if (group == 0) {
        __global long* next = (__global long*)out + (slot ^ 1u) * CLREDUCE_EXACT_COPIES * CLREDUCE_EXACT_WORDS;
        for (uint k = lid; k < CLREDUCE_EXACT_COPIES * CLREDUCE_EXACT_WORDS; k += CLREDUCE_WG) next[k] = 0;
    }
#endif
#endif
}
