#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace clreduce {

// The most characters a transform expression may have.
constexpr std::size_t kMaxTransformLength = 4096;

// The OpenCL C text of a transform expression, for the kernel's clreduce_transform(x): the
// expression parsed as the transform language (docs/expression-language.md: x, numbers,
// operators, ?:, casts to scalar types and a list of pure built-in functions) and printed
// back from its tree, fully parenthesised, so that the kernel holds exactly what was parsed.
// Throws InvalidArgument naming the expression, the column and the token
// ("transform expression 'x = 0': unexpected '=' at column 3").
std::string transform_source(std::string_view expression);
// The same, where x is of OpenCL type `x_type` ("long", "uint", "double": the type the
// expression computes in), also refusing a float-only built-in over integers
// ("function 'exp' at column 1 takes floating-point arguments ..."; typing.hpp).
std::string transform_source(std::string_view expression, std::string_view x_type);

// The expression as messages quote it: bytes outside printable ASCII and backslashes as \xNN,
// at most 200 of them, in single quotes.
std::string quoted_expression(std::string_view expression);

// What the kernel compiles of a transform_source() text, where x is of OpenCL type `x_type`:
// the same tree with its integer literals cast to x's type and its integer divisions and
// remainders by anything but a constant they are defined for made calls of
// transform_kernel_helpers()' functions (printer.hpp's print_typed).
std::string transform_kernel_text(std::string_view source, std::string_view x_type);
// The OpenCL C definitions of the helpers a transform_kernel_text() calls: clreduce_div_<type>
// and clreduce_rem_<type> (int, uint, long, ulong), which give 0 for a zero divisor, and for
// MIN / -1 MIN and MIN % -1 0; "" where it calls none.
std::string transform_kernel_helpers(std::string_view kernel_text);

}  // namespace clreduce
