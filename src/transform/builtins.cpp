#include "builtins.hpp"

#include <algorithm>

namespace clreduce::expr {
namespace {

constexpr std::string_view kIntegerTypes[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"};
constexpr std::string_view kFloatTypes[] = {"half", "float", "double"};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view name) {
    return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

// convert_<type>, then optionally _sat (integer destinations), then optionally a rounding mode.
bool is_conversion(std::string_view name) {
    constexpr std::string_view prefix = "convert_";
    if (name.substr(0, prefix.size()) != prefix) return false;
    name.remove_prefix(prefix.size());
    for (std::string_view mode : {"_rte", "_rtz", "_rtp", "_rtn"}) {
        if (name.size() > mode.size() && name.substr(name.size() - mode.size()) == mode) {
            name.remove_suffix(mode.size());
            break;
        }
    }
    constexpr std::string_view sat = "_sat";
    if (name.size() > sat.size() && name.substr(name.size() - sat.size()) == sat)
        return is_integer_type(name.substr(0, name.size() - sat.size()));
    return is_scalar_type(name);
}

std::vector<Builtin> table() {
    std::vector<Builtin> out;
    const auto add = [&out](int arity, std::initializer_list<std::string_view> names) {
        for (std::string_view name : names) out.push_back({name, arity});
    };
    // Math (OpenCL C 1.2, 6.12.2), without those that write through a pointer (fract, frexp,
    // lgamma_r, modf, remquo, sincos).
    add(1, {"acos",  "acosh",  "acospi", "asin", "asinh", "asinpi", "atan",  "atanh",  "atanpi", "cbrt",  "ceil",
            "cos",   "cosh",   "cospi",  "erf",  "erfc",  "exp",    "exp2",  "exp10",  "expm1",  "fabs",  "floor",
            "ilogb", "lgamma", "log",    "log2", "log10", "log1p",  "logb",  "nan",    "rint",   "round", "rsqrt",
            "sin",   "sinh",   "sinpi",  "sqrt", "tan",   "tanh",   "tanpi", "tgamma", "trunc"});
    add(2, {"atan2", "atan2pi", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "ldexp", "maxmag", "minmag",
            "nextafter", "pow", "pown", "powr", "remainder", "rootn"});
    add(3, {"fma", "mad"});
    // Native math (implementation-defined accuracy, usually faster).
    add(1, {"native_cos", "native_exp", "native_exp2", "native_exp10", "native_log", "native_log2", "native_log10",
            "native_recip", "native_rsqrt", "native_sin", "native_sqrt", "native_tan"});
    add(2, {"native_divide", "native_powr"});
    // Common (6.12.4).
    add(1, {"degrees", "radians", "sign"});
    add(2, {"max", "min", "step"});
    add(3, {"clamp", "mix", "smoothstep"});
    // Integer (6.12.3).
    add(1, {"abs", "clz", "popcount"});
    add(2, {"abs_diff", "add_sat", "hadd", "mul_hi", "mul24", "rhadd", "rotate", "sub_sat", "upsample"});
    add(3, {"mad_hi", "mad_sat", "mad24"});
    // Relational (6.12.6), scalar forms.
    add(1, {"isfinite", "isinf", "isnan", "isnormal", "signbit"});
    add(2, {"isequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isnotequal",
            "isordered", "isunordered"});
    add(3, {"bitselect", "select"});
    return out;
}

}  // namespace

const std::vector<Builtin>& builtin_functions() {
    static const std::vector<Builtin> functions = table();
    return functions;
}

std::optional<int> builtin_arity(std::string_view name) {
    for (const Builtin& b : builtin_functions())
        if (b.name == name) return b.arity;
    if (is_conversion(name)) return 1;
    return std::nullopt;
}

bool is_integer_type(std::string_view name) { return contains(kIntegerTypes, name); }

bool is_scalar_type(std::string_view name) { return is_integer_type(name) || contains(kFloatTypes, name); }

std::string_view unsigned_type(std::string_view base) {
    if (base == "char") return "uchar";
    if (base == "short") return "ushort";
    if (base == "int") return "uint";
    if (base == "long") return "ulong";
    return "";
}

}  // namespace clreduce::expr
