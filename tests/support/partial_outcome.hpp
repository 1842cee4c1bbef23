#pragma once
// Comparing calls that return a Partial by what it stands for: every operation of the table,
// a partial's value field by field as bits, or what the call threw (the host-data tests compare
// streamed, pinned and resident calls this way).
#include <sstream>
#include <string>
#include <vector>

#include <clreduce/clreduce.hpp>

namespace clreduce::test {

// Every operation of the table, in its order (operation_name throws past the last).
inline std::vector<Operation> every_operation() {
    std::vector<Operation> ops;
    for (int k = 0;; ++k) {
        try {
            operation_name(static_cast<Operation>(k));
        } catch (const InvalidArgument&) {
            return ops;
        }
        ops.push_back(static_cast<Operation>(k));
    }
}

// A value's bits, as text.
template <class V>
std::string bits(const V& v) {
    std::ostringstream out;
    out << std::hex;
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t k = 0; k < sizeof(V); ++k) out << int(p[k]) << '.';
    return out.str();
}

// What a partial stands for, field by field, its bits exactly: the results of the operations
// named here (a state's bytes may hold padding that a kernel leaves as it finds it, so the
// bytes of two equal partials can differ), the bytes of others (every field of theirs counts).
template <class T>
std::string value_of(const Partial& p) {
    switch (p.operation()) {
        case Operation::sum: return bits(p.sum<T>());
        case Operation::product: return bits(p.product<T>());
        case Operation::min: return bits(p.min<T>());
        case Operation::max: return bits(p.max<T>());
        case Operation::minmax: return bits(p.minmax<T>().min) + bits(p.minmax<T>().max);
        case Operation::argmin: return bits(p.argmin<T>().value) + bits(p.argmin<T>().index);
        case Operation::argmax: return bits(p.argmax<T>().value) + bits(p.argmax<T>().index);
        case Operation::argminmax: {
            const ArgMinMax<T> a = p.argminmax<T>();
            return bits(a.min.value) + bits(a.min.index) + bits(a.max.value) + bits(a.max.index);
        }
        case Operation::count_nonzero: return bits(p.count_nonzero<T>());
        case Operation::mean: return bits(p.mean<T>());
        case Operation::sum_of_squares: return bits(p.sum_of_squares<T>());
        case Operation::norm_l1: return bits(p.norm_l1<T>());
        case Operation::norm_l2: return bits(p.norm_l2<T>());
        case Operation::norm_inf: return bits(p.norm_inf<T>());
        case Operation::statistics: {
            const Statistics<T> s = p.statistics<T>();
            return bits(s.count) + bits(s.min) + bits(s.max) + bits(s.sum) + bits(s.mean) + bits(s.variance);
        }
        default: break;
    }
    const std::vector<std::uint8_t> bytes = p.to_bytes();
    return std::string(bytes.begin(), bytes.end());
}

// The partial's value and element count, or what it threw.
template <class T, class F>
std::string outcome(F call) {
    try {
        const Partial p = call();
        return std::to_string(p.count()) + ": " + value_of<T>(p);
    } catch (const std::exception& e) {
        return std::string("threw: ") + e.what();
    }
}

}  // namespace clreduce::test
