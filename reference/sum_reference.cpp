#include "reference/sum_reference.hpp"

#include <cmath>
#include <limits>

namespace clreduce::testing {

long double FloatReference::bound(std::uint64_t n, ElementType accumulator) const {
    const long double u = accumulator == ElementType::float64 ? std::ldexp(1.0L, -53) : std::ldexp(1.0L, -24);
    const long double reference_error = n * std::numeric_limits<long double>::epsilon() * abs_sum;
    return (n > 0 ? n - 1 : 0) * u * abs_sum + reference_error;
}

}  // namespace clreduce::testing
