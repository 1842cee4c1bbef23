#pragma once
// Two final states of a plug-in merged on the host, as the plug-in's clreduce_combine would
// merge them on the device (cl_kernels/ops/*.cl): the merge of Partials (partial.hpp) from
// several devices or processes.
#include <cstdint>

#include <clreduce/element_type.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Merges `later` into `into`, both states of plug-in `op` with `accumulator` over `element` data
// (its layout from the operation table; the element type says how a moments state keeps its
// extremes, state_value.hpp); `into_count` elements come before `later`'s, so an indexed
// state's index moves up by it and ties keep `into`'s. Integer sums in 64-bit accumulators add
// modulo 2^bits here (the caller widens them to int192 where they must stay exact). Not for
// the wide integer layouts (int128, int192), which the caller adds.
void merge_state(KernelOp op, ElementType element, ElementType accumulator, unsigned char* into,
                 const unsigned char* later, std::uint64_t into_count);

// Two's-complement integers of `limbs` 64-bit limbs (1 to 3), sign- or zero-extended (`is_signed`
// for one limb) to three limbs, added modulo 2^192 into `into` (three limbs).
void add_int192(unsigned char* into, const unsigned char* value, int limbs, bool is_signed);

}  // namespace clreduce
