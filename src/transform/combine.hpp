#pragma once
// A user's combine for transform_reduce: an expression in a and b of the transform language
// and its identity (docs/expression-language.md, "A combine of one's own").
#include <cstdint>
#include <string>
#include <string_view>

namespace clreduce {

// The identity of a user's combine in the accumulation type: its value on the host (the
// result of an empty range) and the same value as the kernel's OpenCL C constant.
struct CombineIdentity {
    bool floating = false;
    std::uint64_t bits = 0;   // integer types: the value's two's complement bits
    double real = 0;          // floating types: the value (rounded to float for float)
    std::string kernel_text;  // "((long)-1L)", "((double)0x1.8p+1)"
};

// The OpenCL C text of a combine, parsed in a and b, both of OpenCL type `x_type` (the
// accumulation type: "long", "ulong", "double", ...), typed as a map expression is, checked to
// be symmetric in a and b by the written rule of transform/symmetry.hpp, and printed back from
// its tree. Throws InvalidArgument naming the expression, the column and the token
// ("combine expression 'a + c': unknown identifier 'c' at column 5 ...").
std::string combine_source(std::string_view expression, std::string_view x_type);

// The identity: one literal of the language, optionally signed, of the accumulation type
// `x_type` (an integer literal for an integer type, within its range; any literal but half's
// for a floating type, within its range). Throws InvalidArgument naming the identity, the
// column and the fault.
CombineIdentity combine_identity(std::string_view identity, std::string_view x_type);

// What the kernel compiles of a combine_source() text (as transform_kernel_text does for the
// map): integer literals cast to CLREDUCE_X, integer divisions guarded
// (transform_kernel_helpers()).
std::string combine_kernel_text(std::string_view source, std::string_view x_type);

}  // namespace clreduce
