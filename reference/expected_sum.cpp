#include "reference/expected_sum.hpp"

#include <cmath>
#include <type_traits>

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

template struct Expected<std::int8_t>;
template struct Expected<std::uint8_t>;
template struct Expected<std::int16_t>;
template struct Expected<std::uint16_t>;
template struct Expected<std::int32_t>;
template struct Expected<std::uint32_t>;
template struct Expected<std::int64_t>;
template struct Expected<std::uint64_t>;
template struct Expected<float>;
template struct Expected<double>;

}  // namespace clreduce::testing
