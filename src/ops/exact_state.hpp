#pragma once
// The host side of the correctly rounded sum (cl_kernels/ops/add_exact.cl): the size of its
// fixed-point state and the one rounding that turns the state into the result.
#include <cstddef>
#include <cstdint>

#include <clreduce/element_type.hpp>

namespace clreduce {

// Limbs of the state for a float32 or float64 accumulator (the range it covers).
int exact_state_limbs(ElementType accumulator);
// Bytes of the OpenCL struct: the limbs and a 64-bit word of flags (1 NaN, 2 +inf, 4 -inf,
// 8 a term was -0.0, 16 a term was not -0.0).
std::size_t exact_state_size(ElementType accumulator);
// The state's exact value rounded to the nearest double (ties to even); NaN and infinities
// as IEEE addition gives them; beyond the largest double, ±inf.
double round_exact_state(const unsigned char* state, ElementType accumulator);
// The state of FloatMode::correctly_rounded's expansion path between levels 1 and 3: this many
// doubles (the kernel's CLREDUCE_FPE, passed to it by the host), which size its work-groups;
// its work-group also keeps a fixed-point sink in local memory, exact_sink_size bytes at most:
// a number of exact_state_size bytes and, for the GPUs' passes (add_exact.cl), three words.
constexpr int kExactExpansionTerms = 6;
std::size_t exact_expansion_size(ElementType accumulator);
std::size_t exact_sink_size(ElementType accumulator);
// The bins of add_exact.cl (CLREDUCE_EXACT_BINS): 64-bit words a work-item keeps in local
// memory (float data: 16 doubles of 16 binades each; double data: the same memory holds 32-bit
// words of 16-bit digits shared by 32 work-items), exact for at most exact_bin_terms values a
// work-item (times * vector_width).
constexpr int kExactBinWords = 16;
std::uint64_t exact_bin_terms(ElementType accumulator);
// `copies` consecutive states as one (limbs added, flags or-ed) into `merged`.
void merge_exact_states(const unsigned char* states, std::uint32_t copies, ElementType accumulator,
                        unsigned char* merged);
// The sum of `copies` consecutive states, rounded likewise (the limbs are added as integers;
// carry-saved limbs of at most 2^31 values in all cannot overflow).
double round_exact_states(const unsigned char* states, std::uint32_t copies, ElementType accumulator);

}  // namespace clreduce
