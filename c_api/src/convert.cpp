// The C API's enumerations against the library's lists. Each C enumeration is mapped by one
// list below; static_asserts check that the list covers the library's enumeration exactly
// (every Operation / ElementType once, as many entries as it has values) and the C values
// exactly (each once, as many as the header's count), so that an operation or type added to
// the library without its C value, or a C value mapped twice, does not compile.
#include "convert.hpp"

#include <array>
#include <string>

#include <clreduce/error.hpp>

#include "guard.hpp"
#include "lists.hpp"

namespace clreduce::c_api {
namespace {

template <class C, class L>
struct Pair {
    C c;
    L library;
};

#define CLREDUCE_C_OPERATION_PAIR(C, NAME) Pair<clreduce_operation, Operation>{C, Operation::NAME},
constexpr std::array operation_pairs{CLREDUCE_C_OPERATIONS(CLREDUCE_C_OPERATION_PAIR)};
#undef CLREDUCE_C_OPERATION_PAIR
#define CLREDUCE_C_TYPE_PAIR(C, NAME) Pair<clreduce_type, ElementType>{C, ElementType::NAME},
constexpr std::array type_pairs{CLREDUCE_C_TYPES(CLREDUCE_C_TYPE_PAIR)};
#undef CLREDUCE_C_TYPE_PAIR

// Whether the pairs map C values first ... first + size - 1 one to one onto the library's
// values 0 ... size - 1.
template <class Pairs>
constexpr bool one_to_one(const Pairs& pairs, int first) {
    const int n = static_cast<int>(pairs.size());
    for (int v = 0; v < n; ++v) {
        int c_hits = 0, library_hits = 0;
        for (const auto& p : pairs) {
            c_hits += static_cast<int>(p.c) == first + v;
            library_hits += static_cast<int>(p.library) == v;
        }
        if (c_hits != 1 || library_hits != 1) return false;
    }
    return true;
}

static_assert(operation_pairs.size() == static_cast<std::size_t>(operation_count),
              "an operation of CLREDUCE_OPERATIONS has no clreduce_operation (include/clreduce/clreduce.h)");
static_assert(operation_pairs.size() == CLREDUCE_OPERATION_COUNT, "CLREDUCE_OPERATION_COUNT is not the list's size");
static_assert(one_to_one(operation_pairs, 0), "clreduce_operation and Operation are not one to one");

// ElementType::float16 is the last value (types are appended: element_type.hpp).
constexpr int element_type_count = static_cast<int>(ElementType::float16) + 1;
static_assert(type_pairs.size() == static_cast<std::size_t>(element_type_count),
              "an ElementType has no clreduce_type (include/clreduce/clreduce.h)");
static_assert(type_pairs.size() == CLREDUCE_TYPE_COUNT, "CLREDUCE_TYPE_COUNT is not the list's size");
static_assert(one_to_one(type_pairs, 1), "clreduce_type (1 ...) and ElementType are not one to one");

#define CLREDUCE_C_NAME(C, NAME) \
    case C: return #NAME;

}  // namespace

Operation to_operation(clreduce_operation op) {
    for (const auto& p : operation_pairs)
        if (p.c == op) return p.library;
    throw InvalidArgument("operation " + std::to_string(static_cast<int>(op)) + " is not a clreduce_operation (0 ... " +
                          std::to_string(CLREDUCE_OPERATION_COUNT - 1) + ")");
}

ElementType to_type(clreduce_type type) {
    for (const auto& p : type_pairs)
        if (p.c == type) return p.library;
    throw InvalidArgument("element type " + std::to_string(static_cast<int>(type)) + " is not a clreduce_type (1 ... " +
                          std::to_string(CLREDUCE_TYPE_COUNT) + ")");
}

clreduce_type from_type(ElementType type) {
    for (const auto& p : type_pairs)
        if (p.library == type) return p.c;
    return CLREDUCE_TYPE_DEFAULT;  // not reached: every ElementType has a pair (checked above)
}

LaunchParams to_params(const clreduce_options* options) {
    LaunchParams params;
    if (options == nullptr) return params;
    switch (options->float_mode) {
        case CLREDUCE_FLOAT_DEFAULT: break;
        case CLREDUCE_FLOAT_DETERMINISTIC: params.float_mode = FloatMode::deterministic; break;
        case CLREDUCE_FLOAT_ATOMIC: params.float_mode = FloatMode::atomic; break;
        case CLREDUCE_FLOAT_COMPENSATED: params.float_mode = FloatMode::compensated; break;
        case CLREDUCE_FLOAT_CORRECTLY_ROUNDED: params.float_mode = FloatMode::correctly_rounded; break;
        default:
            throw InvalidArgument("options.float_mode " + std::to_string(static_cast<int>(options->float_mode)) +
                                  " is not a clreduce_float_mode (0 ... 4)");
    }
    if (options->accumulator != CLREDUCE_TYPE_DEFAULT) params.accumulator = to_type(options->accumulator);
    switch (options->overflow) {
        case CLREDUCE_OVERFLOW_DEFAULT: break;
        case CLREDUCE_OVERFLOW_CHECK: params.overflow = IntegerOverflow::check; break;
        case CLREDUCE_OVERFLOW_WRAP: params.overflow = IntegerOverflow::wrap; break;
        default:
            throw InvalidArgument("options.overflow " + std::to_string(static_cast<int>(options->overflow)) +
                                  " is not a clreduce_overflow_rule (0 ... 2)");
    }
    for (std::uint32_t r : options->reserved)
        if (r != 0) throw InvalidArgument("options.reserved must be 0 (zero-initialise clreduce_options)");
    return params;
}

const Reducer& reducer_of(const clreduce_reducer* handle) {
    require(handle, "reducer");
    return handle->reducer;
}

}  // namespace clreduce::c_api

extern "C" {

const char* clreduce_operation_name(clreduce_operation op) {
    switch (op) { CLREDUCE_C_OPERATIONS(CLREDUCE_C_NAME) }
    return nullptr;
}

const char* clreduce_type_name(clreduce_type type) {
    switch (type) {
        CLREDUCE_C_TYPES(CLREDUCE_C_NAME)
        case CLREDUCE_TYPE_DEFAULT: break;
    }
    return nullptr;
}

}  // extern "C"
