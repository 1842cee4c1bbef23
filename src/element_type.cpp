#include <clreduce/element_type.hpp>

#include <string>

#include <clreduce/error.hpp>

namespace clreduce {

std::string_view type_name(ElementType type) {
    switch (type) {
        case ElementType::int32: return "int32";
        case ElementType::uint32: return "uint32";
        case ElementType::int64: return "int64";
        case ElementType::uint64: return "uint64";
        case ElementType::float32: return "float32";
        case ElementType::float64: return "float64";
    }
    throw InvalidArgument("unknown ElementType " + std::to_string(static_cast<int>(type)));
}

std::size_t type_size(ElementType type) {
    switch (type) {
        case ElementType::int32:
        case ElementType::uint32:
        case ElementType::float32: return 4;
        case ElementType::int64:
        case ElementType::uint64:
        case ElementType::float64: return 8;
    }
    throw InvalidArgument("unknown ElementType " + std::to_string(static_cast<int>(type)));
}

bool is_floating(ElementType type) {
    return type == ElementType::float32 || type == ElementType::float64;
}

ElementType parse_type(std::string_view name) {
    for (auto type : {ElementType::int32, ElementType::uint32, ElementType::int64, ElementType::uint64,
                      ElementType::float32, ElementType::float64}) {
        if (name == type_name(type)) return type;
    }
    if (name == "float") return ElementType::float32;
    if (name == "double") return ElementType::float64;
    throw InvalidArgument("unknown element type '" + std::string(name) +
                          "' (expected int32, uint32, int64, uint64, float32 or float64)");
}

}  // namespace clreduce
