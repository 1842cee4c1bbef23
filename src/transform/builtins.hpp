#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace clreduce::expr {

// A pure OpenCL C built-in a transform expression may call, and how many arguments it takes.
// None takes or returns a pointer, reads or writes memory, synchronises, or depends on the
// work-item. docs/expression-language.md lists the same table (a unit test compares them).
struct Builtin {
    std::string_view name;
    int arity;
};

// The named functions (math, native_, common, integer, relational), without convert_*.
const std::vector<Builtin>& builtin_functions();

// The arity of a function the expression may call: one of builtin_functions(), or a scalar
// conversion convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] (one argument; _sat to integer types
// only). nullopt for any other name.
std::optional<int> builtin_arity(std::string_view name);

// The scalar numeric types of casts and conversions: char, uchar, short, ushort, int, uint,
// long, ulong, half, float, double.
bool is_scalar_type(std::string_view name);
bool is_integer_type(std::string_view name);

// "unsigned char" and the like as their one-word OpenCL names ("uchar"); "" for others.
std::string_view unsigned_type(std::string_view base);

}  // namespace clreduce::expr
