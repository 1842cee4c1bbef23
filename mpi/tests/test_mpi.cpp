// clreduce::mpi under mpiexec with 1 to 4 ranks (ctest mpi_ranks_N): each rank reduces its slice
// of one data set (rank 1's slice empty where there are several ranks) and the merged values
// must equal one process's call over the whole: integers, extremes and global indices equal,
// correctly rounded sums the same bits (so the same for every rank count), other floats within
// their bounds. A failing rank, and partials that do not merge, make every rank throw the same
// error. Only CHECKs here: every rank must make the same collective calls, so none may leave a
// test case early.
#include <catch2/catch.hpp>

#include "catch_session.hpp"

#include <clreduce/clreduce.hpp>
#include <clreduce/mpi.hpp>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "reference/op_reference.hpp"
#include "reference/statistics_reference.hpp"

namespace {

using namespace clreduce;

int rank_of() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int ranks() {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

Reducer& reducer() {
    static Reducer instance;
    return instance;
}

constexpr std::uint64_t kN = 100003;
constexpr std::uint64_t kSeed = 20261125;

template <class T>
std::vector<T> whole_data() {
    std::mt19937_64 rng(kSeed + sizeof(T));
    std::vector<T> v(kN);
    for (auto& x : v) {
        if constexpr (std::is_integral_v<T>)
            x = static_cast<T>(std::uniform_int_distribution<std::int64_t>(-1000000, 1000000)(rng));
        else
            x = static_cast<T>(std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), int(rng() % 40) - 20));
    }
    return v;
}

// This rank's slice [begin, end): shares of 1 each, but none for rank 1 where there are several.
std::pair<std::uint64_t, std::uint64_t> slice() {
    const int n = ranks(), r = rank_of();
    const auto share = [n](int k) { return std::uint64_t(n > 1 && k == 1 ? 0 : 1); };
    std::uint64_t total = 0, before = 0;
    for (int k = 0; k < n; ++k) total += share(k);
    for (int k = 0; k < r; ++k) before += share(k);
    return {kN * before / total, kN * (before + share(r)) / total};
}

template <class T>
Partial all(Operation op, const std::vector<T>& whole, const LaunchParams& params = {}) {
    const auto [begin, end] = slice();
    return mpi::allreduce(MPI_COMM_WORLD,
                          [&] { return reducer().partial<T>(op, whole.data() + begin, end - begin, params); });
}

TEST_CASE("mpi: every rank gets the whole's values") {
    INFO("rank " << rank_of() << " of " << ranks() << ", data seed " << kSeed);
    const Reducer& one = reducer();
    const auto ints = whole_data<std::int32_t>();
    const auto floats = whole_data<float>();
    CHECK(all(Operation::sum, ints).sum<std::int32_t>() == one.sum(ints));
    CHECK(all(Operation::mean, ints).mean<std::int32_t>() == one.mean(ints));
    CHECK(all(Operation::min, ints).min<std::int32_t>() == one.min(ints));
    CHECK(all(Operation::count_nonzero, floats).count_nonzero<float>() == one.count_nonzero(floats));
    const auto amax = all(Operation::argmax, floats).argmax<float>();
    CHECK(amax.index == one.argmax(floats).index);
    CHECK(amax.value == one.argmax(floats).value);
    CHECK(all(Operation::argmin, ints).argmin<std::int32_t>().index == one.argmin(ints).index);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    const double exact_sum = all(Operation::sum, floats, exact).sum<float>();
    CHECK(exact_sum == one.sum(floats, exact));
    CHECK(exact_sum == testing::exact_sum_of_values(floats.data(), kN).to_double());
    const long double u = testing::unit_roundoff(ElementType::float64);
    const testing::Approx sum = testing::reference_sum(floats.data(), kN, u);
    const double plain = all(Operation::sum, floats).sum<float>();
    INFO("deterministic sum " << plain << ": " << sum.mismatch(plain));
    CHECK(sum.accepts(plain));
    const Statistics<float> s = all(Operation::statistics, floats).statistics<float>();
    const testing::StatisticsReference ref = testing::reference_statistics(floats.data(), kN, u);
    CHECK(s.count == kN);
    CHECK(ref.mean.accepts(s.mean));
    CHECK(ref.variance.accepts(s.variance));
    CHECK(s.min == ref.min);
}

TEST_CASE("mpi: every operation of int32 data equals one process's") {
    INFO("rank " << rank_of() << " of " << ranks());
    const Reducer& one = reducer();
    const auto v = whole_data<std::int32_t>();
    using T = std::int32_t;
    CHECK(all(Operation::product, v).product<T>() == one.product(v));  // modulo 2^64, exactly
    CHECK(all(Operation::max, v).max<T>() == one.max(v));
    const auto both = all(Operation::minmax, v).minmax<T>();
    CHECK(both.min == one.minmax(v).min);
    CHECK(both.max == one.minmax(v).max);
    CHECK(all(Operation::sum_of_squares, v).sum_of_squares<T>() == one.sum_of_squares(v));
    CHECK(all(Operation::norm_l1, v).norm_l1<T>() == one.norm_l1(v));
    CHECK(all(Operation::norm_l2, v).norm_l2<T>() == one.norm_l2(v));  // the exact sum's root, rounded once
    CHECK(all(Operation::norm_inf, v).norm_inf<T>() == one.norm_inf(v));
    const Statistics<T> s = all(Operation::statistics, v).statistics<T>();
    CHECK(s.min == one.min(v));
    CHECK(s.max == one.max(v));
    CHECK(s.count == kN);
    CHECK(std::fabs(s.mean - one.mean(v)) <= 1e-9 * (1 + std::fabs(one.mean(v))));
}

TEST_CASE("mpi: reduce gives the root the value and the others nothing") {
    const auto ints = whole_data<std::int32_t>();
    const auto [begin, end] = slice();
    for (const int root : {0, ranks() - 1}) {
        const Partial p = mpi::reduce(MPI_COMM_WORLD, root, [&] {
            return reducer().partial<std::int32_t>(Operation::sum, ints.data() + begin, end - begin);
        });
        if (rank_of() == root)
            CHECK(p.sum<std::int32_t>() == reducer().sum(ints));
        else
            CHECK(p.empty());
    }
    CHECK_THROWS_AS(mpi::reduce(MPI_COMM_WORLD, ranks(), [] { return Partial(); }), InvalidArgument);
}

TEST_CASE("mpi: a failing rank makes every rank throw its error") {
    const int last = ranks() - 1;
    const std::vector<float> data(100, 1.0f);
    // The last rank passes a null pointer: InvalidArgument on every rank, naming it.
    CHECK_THROWS_WITH(mpi::allreduce(MPI_COMM_WORLD,
                                     [&] {
                                         const float* p = rank_of() == last ? nullptr : data.data();
                                         return reducer().partial<float>(Operation::sum, p, data.size());
                                     }),
                      Catch::Contains("rank " + std::to_string(last) + ": ") && Catch::Contains("null"));
    // Statistics of int64 data on rank 0: Unsupported everywhere.
    CHECK_THROWS_AS(mpi::allreduce(MPI_COMM_WORLD,
                                   [&] {
                                       if (rank_of() == 0)
                                           return reducer().partial(Operation::statistics,
                                                                    std::vector<std::int64_t>{1, 2});
                                       return reducer().partial(Operation::sum, data);
                                   }),
                    Unsupported);
    // Partials of different operations do not merge: every rank throws (with one rank, the
    // partial merges with nothing and is right).
    const auto mixed = [&] {
        return mpi::allreduce(MPI_COMM_WORLD, [&] {
            return reducer().partial(rank_of() == 0 ? Operation::sum : Operation::max, data);
        });
    };
    if (ranks() > 1)
        CHECK_THROWS_WITH(mixed(), Catch::Contains("do not merge"));
    else
        CHECK(mixed().sum<float>() == 100.0);
    // After all that, the communicator works on.
    CHECK(mpi::allreduce(MPI_COMM_WORLD, [&] { return reducer().partial(Operation::sum, data); }).sum<float>() ==
          100.0 * ranks());
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    const int result = clreduce::test::run_catch_session(argc, argv);
    int worst = result;
    MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
