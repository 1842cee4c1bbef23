#pragma once
// Seeded floating-point data sets that are hard to sum accurately, for the accuracy tests
// and `clreduce-perf accuracy`, plus NaN/infinity variants for the semantics tests.
#include <cstdint>
#include <string_view>
#include <vector>

namespace clreduce::testing {

enum class Dataset {
    benign,            // uniform in [-1, 1): a well-conditioned sum, for checks against long double
    ones,              // every element 1.0: a float32 running sum sticks at 2^24
    small_integers,    // uniform integers in [0, 15]: exact in every type, sum far above 2^24
    mixed_magnitudes,  // positive, 10^U(-8, 8): small terms vanish against large partial sums
    cancellation,      // pairs x, -x with |x| = 10^U(0, 8), plus 1/16 of the elements in [0, 1), shuffled
    ill_conditioned,   // Ogita-Rump-Oishi GenSum style: sum|x| / |sum x| above 1e10
    wide_range,        // random signs, exponents uniform over 300 binades, 2^-150..2^150 (float: 2^-100..2^100)
    full_range,        // random signs, exponents over the whole range, subnormals included
};

std::string_view dataset_name(Dataset d);         // "cancellation", ...
std::string_view dataset_description(Dataset d);  // one line, as above
Dataset parse_dataset(std::string_view name);     // throws std::invalid_argument
std::vector<Dataset> all_datasets();

// n values of the data set, T = float or double, the same for the same (d, n, seed).
// Every value is finite. The exact sum is not stored: compute it with ExactSum.
template <class T>
std::vector<T> make_dataset(Dataset d, std::uint64_t n, std::uint64_t seed);

// sum |x| / |sum x| computed exactly (+inf when the sum is 0 and some x is not).
template <class T>
double condition_number(const T* data, std::uint64_t n);

// NaN and infinity variants: replaces elements at seeded random positions.
enum class Special {
    nan,       // one quiet NaN
    pos_inf,   // one +inf
    neg_inf,   // one -inf
    both_inf,  // one +inf and one -inf (their sum is NaN)
    all_nan,   // every element NaN
};
std::string_view special_name(Special s);
std::vector<Special> all_specials();
// Returns the positions changed (ascending). n == 0 changes nothing; both_inf needs n >= 2.
template <class T>
std::vector<std::uint64_t> insert_special(std::vector<T>& data, Special s, std::uint64_t seed);

}  // namespace clreduce::testing
