#include "reference.hpp"

#include <cmath>
#include <limits>
#include <random>

namespace clreduce::testing {

template <class T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed, bool narrow) {
    std::mt19937_64 rng(seed);
    std::vector<T> out(n);
    if constexpr (std::is_integral_v<T>) {
        const T lo = narrow ? (std::is_signed_v<T> ? T(-(1 << 20) + 1) : T(0)) : std::numeric_limits<T>::min();
        const T hi = narrow ? T((1 << 20) - 1) : std::numeric_limits<T>::max();
        std::uniform_int_distribution<T> dist(lo, hi);
        for (auto& v : out) v = dist(rng);
    } else {
        std::uniform_real_distribution<T> dist(T(-1000), T(1000));
        for (std::uint64_t i = 0; i < n; ++i) out[i] = dist(rng) * (i % 97 == 0 ? T(1000) : T(1));
    }
    return out;
}

long double FloatReference::bound(std::uint64_t n, ElementType accumulator) const {
    const long double u = accumulator == ElementType::float64 ? std::ldexp(1.0L, -53) : std::ldexp(1.0L, -24);
    const long double reference_error = n * std::numeric_limits<long double>::epsilon() * abs_sum;
    return (n > 0 ? n - 1 : 0) * u * abs_sum + reference_error;
}

template std::vector<std::int32_t> random_values(std::uint64_t, std::uint64_t, bool);
template std::vector<std::uint32_t> random_values(std::uint64_t, std::uint64_t, bool);
template std::vector<std::int64_t> random_values(std::uint64_t, std::uint64_t, bool);
template std::vector<std::uint64_t> random_values(std::uint64_t, std::uint64_t, bool);
template std::vector<float> random_values(std::uint64_t, std::uint64_t, bool);
template std::vector<double> random_values(std::uint64_t, std::uint64_t, bool);

}  // namespace clreduce::testing

namespace clreduce::testing {

template <class T>
Expected<T> Expected<T>::compute(const T* data, std::uint64_t n) {
    Expected e;
    e.n = n;
    if constexpr (std::is_integral_v<T>) {
        e.exact = exact_sum(data, n);
    } else {
        e.floats = float_reference(data, n);
    }
    e.opencv = opencv_sum(data, n);
    return e;
}

template <class T>
std::string Expected<T>::mismatch(sum_type_t<T> got, ElementType accumulator) const {
    if constexpr (std::is_integral_v<T>) {
        if (got != exact) return "got " + std::to_string(got) + ", exact sum is " + std::to_string(exact);
        if (opencv.has_value && opencv.value != static_cast<double>(exact))
            return "cv::sum gives " + std::to_string(opencv.value) + ", exact sum is " + std::to_string(exact);
        (void)accumulator;
    } else {
        const long double bound = floats.bound(n, accumulator);
        const long double error = std::fabs(static_cast<long double>(got) - floats.sum);
        if (!(error <= bound))
            return "got " + std::to_string(got) + ", reference " + std::to_string(static_cast<double>(floats.sum)) +
                   ", error " + std::to_string(static_cast<double>(error)) + " > bound " +
                   std::to_string(static_cast<double>(bound));
        // cv::sum of float32 data keeps float partial sums (seen with OpenCV 4.6), so its
        // own error is bounded as a float accumulation's.
        const long double opencv_bound =
            std::is_same_v<T, float> ? floats.bound(n, ElementType::float32) : floats.bound(n, ElementType::float64);
        if (opencv.has_value && !(std::fabs(static_cast<long double>(opencv.value) - got) <= bound + opencv_bound))
            return "got " + std::to_string(got) + ", cv::sum gives " + std::to_string(opencv.value);
    }
    return {};
}

template struct Expected<std::int32_t>;
template struct Expected<std::uint32_t>;
template struct Expected<std::int64_t>;
template struct Expected<std::uint64_t>;
template struct Expected<float>;
template struct Expected<double>;

}  // namespace clreduce::testing
