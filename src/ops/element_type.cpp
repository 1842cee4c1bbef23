#include <clreduce/element_type.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

struct TypeRow {
    ElementType type;
    std::string_view name;
    std::size_t size;
    bool floating;
    bool is_signed;
    std::string_view opencl;
};

constexpr std::array<TypeRow, 11> kTypes{{
    {ElementType::int8, "int8", 1, false, true, "char"},
    {ElementType::uint8, "uint8", 1, false, false, "uchar"},
    {ElementType::int16, "int16", 2, false, true, "short"},
    {ElementType::uint16, "uint16", 2, false, false, "ushort"},
    {ElementType::int32, "int32", 4, false, true, "int"},
    {ElementType::uint32, "uint32", 4, false, false, "uint"},
    {ElementType::int64, "int64", 8, false, true, "long"},
    {ElementType::uint64, "uint64", 8, false, false, "ulong"},
    {ElementType::float16, "float16", 2, true, true, "half"},
    {ElementType::float32, "float32", 4, true, true, "float"},
    {ElementType::float64, "float64", 8, true, true, "double"},
}};

const TypeRow& row(ElementType type) {
    for (const auto& r : kTypes)
        if (r.type == type) return r;
    throw InvalidArgument("unknown ElementType " + std::to_string(static_cast<int>(type)));
}

}  // namespace

std::string_view type_name(ElementType type) { return row(type).name; }
std::size_t type_size(ElementType type) { return row(type).size; }
bool is_floating(ElementType type) { return row(type).floating; }
bool is_signed(ElementType type) { return row(type).is_signed; }
std::string_view opencl_type_name(ElementType type) { return row(type).opencl; }

ElementType parse_type(std::string_view name) {
    for (const auto& r : kTypes)
        if (name == r.name) return r.type;
    if (name == "float") return ElementType::float32;
    if (name == "double") return ElementType::float64;
    if (name == "half") return ElementType::float16;
    throw InvalidArgument("unknown element type '" + std::string(name) +
                          "' (expected int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, "
                          "float32 or float64)");
}

half::half(float value) {
    std::uint32_t f;
    std::memcpy(&f, &value, sizeof f);
    const std::uint32_t sign = (f >> 16) & 0x8000u;
    const std::uint32_t abs = f & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or NaN (NaN keeps a quiet payload bit)
        bits = static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u | ((abs >> 13) & 0x3ffu) : 0));
        return;
    }
    if (abs >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
        bits = static_cast<std::uint16_t>(sign | 0x7c00u);
        return;
    }
    if (abs < 0x38800000u) {  // below 2^-14: a subnormal half (or zero); scaling by 2^24 is exact
        float magnitude;
        std::memcpy(&magnitude, &abs, sizeof magnitude);
        bits = static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(magnitude * 16777216.0f)));
        return;
    }
    // Normal: rebias the exponent, round the 23-bit mantissa to 10 bits (nearest even).
    std::uint32_t h = ((abs >> 13) - (112u << 10));
    const std::uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    bits = static_cast<std::uint16_t>(sign | h);
}

half::operator float() const {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    std::uint32_t mantissa = bits & 0x3ffu;
    std::uint32_t f;
    if (exponent == 0x1fu) {
        f = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        f = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        f = sign;
    } else {  // subnormal: normalise
        std::uint32_t e = 113;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --e;
        }
        f = sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float value;
    std::memcpy(&value, &f, sizeof value);
    return value;
}

}  // namespace clreduce
