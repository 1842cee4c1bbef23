#pragma once
// How the library's results become Python objects: one value as a Python scalar, tuple or dict
// (the Python layer casts it to the documented numpy type), one value per segment as numpy
// arrays. Used by the core call (dispatch.cpp) and by Partial values (partial.cpp).
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "binding.hpp"

namespace clreduce_python {

template <class V>
nb::object scalar_to_python(const V& value) {
    if constexpr (std::is_same_v<V, clreduce::half>)
        return nb::float_(static_cast<double>(static_cast<float>(value)));
    else if constexpr (std::is_same_v<V, bool>)
        return nb::bool_(value);
    else if constexpr (std::is_floating_point_v<V>)
        return nb::float_(static_cast<double>(value));
    else
        return nb::int_(value);
}

// One value: a scalar, (min, max), (value, index), ((min, index), (max, index)) or the
// statistics as a dict.
template <class R>
nb::object to_python(const R& value) {
    return scalar_to_python(value);
}
template <class T>
nb::object to_python(const clreduce::MinMax<T>& value) {
    return nb::make_tuple(scalar_to_python(value.min), scalar_to_python(value.max));
}
template <class T>
nb::object to_python(const clreduce::ArgResult<T>& value) {
    return nb::make_tuple(scalar_to_python(value.value), nb::int_(value.index));
}
template <class T>
nb::object to_python(const clreduce::ArgMinMax<T>& value) {
    return nb::make_tuple(to_python(value.min), to_python(value.max));
}
template <class T>
nb::object to_python(const clreduce::Statistics<T>& value) {
    nb::dict d;
    d["count"] = nb::int_(value.count);
    d["min"] = scalar_to_python(value.min);
    d["max"] = scalar_to_python(value.max);
    d["sum"] = nb::float_(value.sum);
    d["mean"] = nb::float_(value.mean);
    d["variance"] = nb::float_(value.variance);
    return d;
}

// The storage type a numpy array holds for values of V: float16 as its bits, bool as uint8.
template <class V>
using stored_t = std::conditional_t<std::is_same_v<V, clreduce::half>, std::uint16_t,
                                    std::conditional_t<std::is_same_v<V, bool>, std::uint8_t, V>>;

template <class V>
stored_t<V> stored(const V& value) {
    if constexpr (std::is_same_v<V, clreduce::half>)
        return value.bits;
    else
        return static_cast<stored_t<V>>(value);
}

// A 1-D numpy array that owns `values`.
template <class S>
nb::object owned_array(std::vector<S>&& values) {
    auto* heap = new std::vector<S>(std::move(values));
    nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<S>*>(p); });
    size_t shape[1] = {heap->size()};
    return nb::cast(nb::ndarray<nb::numpy, S, nb::ndim<1>>(heap->data(), 1, shape, owner));
}

// Field `get` of every value, as a numpy array.
template <class R, class Get>
nb::object field_array(const std::vector<R>& values, Get get) {
    using V = std::decay_t<decltype(get(values.front()))>;
    std::vector<stored_t<V>> out;
    out.reserve(values.size());
    for (const R& v : values) out.push_back(stored(get(v)));
    return owned_array(std::move(out));
}

template <class R>
nb::object to_numpy(std::vector<R>&& values) {
    if constexpr (std::is_same_v<stored_t<R>, R>)
        return owned_array(std::move(values));
    else
        return field_array(values, [](const R& v) { return v; });
}
template <class T>
nb::object to_numpy(std::vector<clreduce::MinMax<T>>&& values) {
    using M = clreduce::MinMax<T>;
    return nb::make_tuple(field_array(values, [](const M& v) { return v.min; }),
                          field_array(values, [](const M& v) { return v.max; }));
}
template <class T>
nb::object to_numpy(std::vector<clreduce::ArgResult<T>>&& values) {
    using A = clreduce::ArgResult<T>;
    return nb::make_tuple(field_array(values, [](const A& v) { return v.value; }),
                          field_array(values, [](const A& v) { return v.index; }));
}
template <class T>
nb::object to_numpy(std::vector<clreduce::ArgMinMax<T>>&& values) {
    using A = clreduce::ArgMinMax<T>;
    return nb::make_tuple(nb::make_tuple(field_array(values, [](const A& v) { return v.min.value; }),
                                         field_array(values, [](const A& v) { return v.min.index; })),
                          nb::make_tuple(field_array(values, [](const A& v) { return v.max.value; }),
                                         field_array(values, [](const A& v) { return v.max.index; })));
}
template <class T>
nb::object to_numpy(std::vector<clreduce::Statistics<T>>&& values) {
    using S = clreduce::Statistics<T>;
    nb::dict d;
    d["count"] = field_array(values, [](const S& v) { return v.count; });
    d["min"] = field_array(values, [](const S& v) { return v.min; });
    d["max"] = field_array(values, [](const S& v) { return v.max; });
    d["sum"] = field_array(values, [](const S& v) { return v.sum; });
    d["mean"] = field_array(values, [](const S& v) { return v.mean; });
    d["variance"] = field_array(values, [](const S& v) { return v.variance; });
    return d;
}

}  // namespace clreduce_python
