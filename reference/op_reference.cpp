#include "reference/op_reference.hpp"

#include <cstdio>

namespace clreduce::testing {

float half_to_float(std::uint16_t h) {
    const bool negative = h & 0x8000;
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    float v;
    if (exponent == 0)
        v = std::ldexp(static_cast<float>(mantissa), -24);
    else if (exponent == 31)
        v = mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    else
        v = std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
    return negative ? -v : v;
}

std::uint16_t float_to_half(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const std::uint16_t sign = (x >> 16) & 0x8000;
    x &= 0x7fffffff;
    if (x >= 0x7f800000u) return sign | (x > 0x7f800000u ? 0x7e00 : 0x7c00);
    if (x >= 0x477ff000u) return sign | 0x7c00;  // >= 65520 rounds (to even) past 65504
    if (x < 0x38800000u) {                       // below 2^-14: a subnormal half, unit 2^-24
        // Scaling by a power of two is exact; nearbyint rounds to nearest even.
        const float m = std::nearbyint(std::ldexp(std::fabs(f), 24));
        return sign | static_cast<std::uint16_t>(m);  // 1024 is the smallest normal's encoding
    }
    const std::uint32_t mantissa = x & 0x7fffff;
    std::uint32_t h = ((((x >> 23) & 0xff) - 127 + 15) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // a carry into the exponent is right
    return sign | static_cast<std::uint16_t>(h);
}

long double unit_roundoff(ElementType accumulator) {
    if (!is_floating(accumulator)) return 0;
    switch (type_size(accumulator)) {
        case 8: return std::ldexp(1.0L, -53);
        case 4: return std::ldexp(1.0L, -24);
        default: return std::ldexp(1.0L, -11);
    }
}

bool Approx::accepts(long double got) const {
    if (std::isnan(value)) return std::isnan(got);
    if (std::isinf(value)) return got == value;
    if (overflow == Overflow::must) return std::isinf(got) && std::signbit(got) == std::signbit(value);
    if (overflow == Overflow::may && !std::isfinite(got)) return true;
    if (std::isnan(got)) return false;
    return std::fabs(got - value) <= tolerance;
}

std::string Approx::mismatch(long double got) const {
    if (accepts(got)) return {};
    char buffer[320];
    std::snprintf(buffer, sizeof buffer, "got %.17Lg, reference %.21Lg, |error| %.3Lg > tolerance %.3Lg (%s)%s", got,
                  value, std::fabs(got - value), tolerance, rule.c_str(),
                  overflow == Overflow::must ? " [expected an infinity: the exact result overflows]" : "");
    return buffer;
}

Approx sum_approx(const ExactSum& exact, const ExactSum& abs_sum, std::uint64_t n, long double u, Summation summation,
                  long double overflow_threshold) {
    Approx a;
    // The correctly rounded sum is a double: that value and no other.
    a.value = summation == Summation::exact ? exact.to_double() : exact.to_long_double();
    if (!exact.is_finite()) {
        a.rule = "non-finite input: IEEE";
        return a;
    }
    const long double s = std::fabs(a.value), total = abs_sum.to_long_double();
    const long double m = n > 0 ? static_cast<long double>(n - 1) : 0.0L;
    switch (summation) {
        case Summation::plain:
            a.tolerance = m * u * total;
            a.rule = "(n-1) u sum|x|";
            break;
        case Summation::compensated:
            a.tolerance = 2 * u * s + 2 * (n * u) * (n * u) * total;
            a.rule = "2u|S| + 2(nu)^2 sum|x|";
            break;
        case Summation::exact:
            a.tolerance = 0;
            a.rule = "correctly rounded";
            break;
    }
    if (summation != Summation::exact) a.tolerance += std::ldexp(s, -62);
    // A correctly rounded sum overflows exactly when the rounded exact value does; a plain
    // or compensated one may also overflow in a partial sum, or stay finite within tolerance.
    if (summation == Summation::exact) {
        if (std::isinf(exact.to_double())) a.overflow = Overflow::must;
    } else if (s > overflow_threshold || total > overflow_threshold) {
        a.overflow = Overflow::may;
    }
    return a;
}

}  // namespace clreduce::testing
