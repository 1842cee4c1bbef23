// MultiReducer: host data split across the devices and data resident on them give the
// single-device call's values (integers, extremes and indices equal, correctly rounded sums the
// same bits, floats within their bounds), under equal, uneven and calibrated weights, from
// several host threads at once; a failing device is named and leaves the reducer usable.
// ctest runs these with the default device and again with three PoCL devices
// (POCL_DEVICES="pthread pthread pthread": multi_device_three_pocl_devices).
#include <catch2/catch.hpp>

#include <limits>
#include <thread>
#include <vector>

#include "statistics_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

using namespace clreduce::testing;

// Host data is split from the first element on (small data would go to one device).
MultiReducer& multi() {
    static MultiReducer instance = [] {
        MultiReducer m;
        m.set_single_device_below(0);
        return m;
    }();
    return instance;
}

template <class T>
void check_host_split(const MultiReducer& m, const std::vector<T>& host, const LaunchParams& params) {
    const Reducer& one = m.reducer(0);
    const std::uint64_t n = host.size();
    INFO(m.size() << " devices, n " << n << ", type " << type_name(element_traits<T>::type));
    if constexpr (std::is_integral_v<T>) {
        CHECK(m.sum<T>(host, params) == one.sum(host, params));
        if (n > 0) CHECK(m.mean<T>(host, params) == one.mean(host, params));
    } else if (params.float_mode == FloatMode::correctly_rounded) {
        CHECK(same_bits(m.sum<T>(host, params), one.sum(host, params)));
        CHECK(m.sum<T>(host, params) == exact_sum_of_values(host.data(), n).to_double());
        return;  // the extremes do not take the mode
    } else {
        check_approx(reference_sum(host.data(), n, unit_roundoff(ElementType::float64)), m.sum<T>(host, params), "sum");
    }
    if (n == 0) {
        CHECK_THROWS_AS(m.min<T>(host, params), InvalidArgument);
        CHECK_THROWS_AS(m.mean<T>(host, params), InvalidArgument);
        return;
    }
    CHECK(m.min<T>(host, params) == one.min(host, params));
    CHECK(m.max<T>(host, params) == one.max(host, params));
    const auto amin = m.argmin<T>(host, params), amax = m.argmax<T>(host, params);
    CHECK(amin.index == one.argmin(host, params).index);
    CHECK(amax.index == one.argmax(host, params).index);
    CHECK(amax.value == one.argmax(host, params).value);
    if (!statistics_refused<T>(n, params))
        check_statistics(m.statistics<T>(host, params), host.data(), n, unit_roundoff(ElementType::float64));
}

TEST_CASE("several devices: host data split by weight gives the single device's values", "[multi]") {
    MultiReducer& m = multi();
    WARN("MultiReducer over " << m.size() << " device(s)");
    const std::uint64_t seed = seed_for(4, 91);
    INFO("data seed " << seed);
    const std::vector<std::int32_t> ints = op_values<std::int32_t>(200003, seed);
    const std::vector<float> floats = op_values<float>(200003, seed + 1);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    const std::vector<double> even(m.size(), 1.0);
    std::vector<double> uneven;
    for (std::size_t k = 0; k < m.size(); ++k) uneven.push_back(double(k + 1) * double(k + 1));
    for (const auto& weights : {even, uneven}) {
        m.set_weights(weights);
        for (const std::uint64_t n : {0, 1, 63, 64, 1000, 200003}) {
            const std::vector<std::int32_t> i(ints.begin(), ints.begin() + n);
            const std::vector<float> f(floats.begin(), floats.begin() + n);
            check_host_split(m, i, {});
            check_host_split(m, f, {});
            check_host_split(m, f, exact);
            // The split: ascending, complete, starts at multiples of 64.
            const auto cuts = m.split(n);
            REQUIRE(cuts.size() == m.size() + 1);
            CHECK(cuts.front() == 0);
            CHECK(cuts.back() == n);
            for (std::size_t k = 1; k < m.size(); ++k) {
                CHECK(cuts[k] >= cuts[k - 1]);
                CHECK(cuts[k] % 64 == 0);
            }
        }
    }
    // Uneven weights give uneven pieces.
    if (m.size() > 1) {
        const auto cuts = m.split(1 << 20);
        CHECK(cuts[m.size()] - cuts[m.size() - 1] > cuts[1] - cuts[0]);
    }
    m.calibrate(ElementType::int32, 1 << 18);
    for (double w : m.weights()) CHECK(w > 0);
    check_host_split(m, ints, {});
    m.set_weights(even);
    CHECK_THROWS_AS(m.set_weights(std::vector<double>(m.size() + 1, 1.0)), InvalidArgument);
    CHECK_THROWS_AS(m.set_weights(std::vector<double>(m.size(), -1.0)), InvalidArgument);
}

TEST_CASE("several devices: host data streamed in chunks through pinned memory gives the same values", "[multi]") {
    MultiReducer m;  // its own: the staging settings are the reducer's
    m.set_single_device_below(0);
    const std::uint64_t seed = seed_for(4, 93);
    INFO("data seed " << seed << ", " << m.size() << " device(s)");
    const std::vector<float> floats = op_values<float>(300007, seed);
    const std::vector<std::int32_t> ints = op_values<std::int32_t>(300007, seed + 1);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    for (const std::uint64_t chunk_bytes : {std::uint64_t(4096), std::uint64_t(1) << 20}) {
        INFO("chunks of " << chunk_bytes << " bytes");
        m.set_staging(MultiReducer::Staging::always, chunk_bytes);
        for (const std::uint64_t n : {0, 1, 1024, 1025, 300007}) {
            const std::vector<float> f(floats.begin(), floats.begin() + n);
            const std::vector<std::int32_t> i(ints.begin(), ints.begin() + n);
            check_host_split(m, f, exact);
            check_host_split(m, i, {});
            check_host_split(m, f, {});
        }
    }
    CHECK_THROWS_AS(m.set_staging(MultiReducer::Staging::never, 0), InvalidArgument);
    m.set_staging(MultiReducer::Staging::never);
    check_host_split(m, floats, exact);
}

TEST_CASE("several devices: data resident on each, in pieces, gives the whole's values", "[multi]") {
    const MultiReducer& m = multi();
    const std::uint64_t seed = seed_for(4, 92);
    INFO("data seed " << seed << ", " << m.size() << " device(s)");
    const std::vector<float> host = op_values<float>(100003, seed);
    // Piece k on device k % size; one empty piece; the last piece from an offset in its buffer.
    const std::vector<std::uint64_t> cuts{0, 1000, 1000, 40001, 77777, 100003};
    std::vector<MultiReducer::Piece> pieces;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        const std::size_t device = k % m.size();
        const std::uint64_t pad = k + 1 == cuts.size() - 1 ? 5 : 0;
        std::vector<float> piece(pad, 0.0f);
        piece.insert(piece.end(), host.begin() + cuts[k], host.begin() + cuts[k + 1]);
        piece.push_back(0.0f);  // room for an empty piece's buffer
        pieces.push_back({device, device_copy(m.reducer(device), piece), pad, cuts[k + 1] - cuts[k]});
    }
    const Reducer& one = m.reducer(0);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    CHECK(same_bits(m.sum<float>(pieces, exact), one.sum(host, exact)));
    CHECK(m.argmax<float>(pieces).index == one.argmax(host).index);
    CHECK(m.argmin<float>(pieces).index == one.argmin(host).index);
    CHECK(m.min<float>(pieces) == one.min(host));
    check_approx(reference_sum(host.data(), host.size(), unit_roundoff(ElementType::float64)), m.sum<float>(pieces),
                 "sum");
    check_statistics(m.statistics<float>(pieces), host.data(), host.size(), unit_roundoff(ElementType::float64));

    // Several host threads at once, each its own call over all the devices.
    std::vector<std::thread> threads;
    std::vector<int> right(4, 0);
    const double want = one.sum(host, exact);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int k = 0; k < 5; ++k) right[t] += same_bits(m.sum<float>(pieces, exact), want) ? 1 : 0;
        });
    for (auto& t : threads) t.join();
    for (int r : right) CHECK(r == 5);
}

TEST_CASE("several devices: a failing device is named, and the reducer works on", "[multi][errors]") {
    const MultiReducer& m = multi();
    const std::vector<float> host(1000, 1.0f);
    const std::size_t last = m.size() - 1;
    std::vector<MultiReducer::Piece> pieces;
    for (std::size_t d = 0; d < m.size(); ++d) pieces.push_back({d, device_copy(m.reducer(d), host), 0, host.size()});
    // Past its buffer's end on the last device.
    pieces[last].count = host.size() + 1;
    CHECK_THROWS_WITH(m.sum<float>(pieces),
                      Catch::Contains("device " + std::to_string(last) + " (") && Catch::Contains("past"));
    pieces[last].count = host.size();
    CHECK(m.sum<float>(pieces) == 1000.0 * double(m.size()));
    pieces[0].device = m.size();
    CHECK_THROWS_WITH(m.sum<float>(pieces), Catch::Contains("names device"));
    CHECK_THROWS_AS(MultiReducer(std::vector<cl::Device>{}), InvalidArgument);
    CHECK_THROWS_AS(MultiReducer(std::vector<cl::Device>{cl::Device()}), InvalidArgument);
    CHECK_THROWS_WITH(MultiReducer("0,,0"), Catch::Contains("empty device spec"));
    CHECK_THROWS_AS(MultiReducer("no device is called this"), InvalidArgument);
    CHECK_THROWS_AS(m.reducer(m.size()), InvalidArgument);
    const MultiReducer twice("0,0");  // one device twice: two contexts on it
    CHECK(twice.size() == 2);
    CHECK(twice.sum<float>(host) == 1000.0);
}

TEST_CASE("several devices: weights whose total overflows a double split by their ratios", "[multi]") {
    // One device twice (two contexts on it), so that the split has a cut to make.
    MultiReducer m(std::vector<cl::Device>(3, test::reducer().queue().getInfo<CL_QUEUE_DEVICE>()));
    const double huge = std::numeric_limits<double>::max();
    m.set_weights({huge, huge, huge});
    const std::uint64_t n = 19200;
    CHECK(m.split(n) == std::vector<std::uint64_t>{0, 6400, 12800, n});
    m.set_weights({huge, huge / 2, huge / 2});
    CHECK(m.split(n) == std::vector<std::uint64_t>{0, 9600, 14400, n});
    m.set_weights({std::numeric_limits<double>::denorm_min(), huge, huge});
    CHECK(m.split(n) == std::vector<std::uint64_t>{0, 0, 9600, n});
    const std::vector<std::int32_t> host(n, 3);
    CHECK(m.sum<std::int32_t>(host) == 3 * std::int64_t(n));
}

TEST_CASE("a moved-from MultiReducer throws InvalidArgument on every call, and works again once assigned",
          "[multi][errors][moved]") {
    const cl::Device device = test::reducer().queue().getInfo<CL_QUEUE_DEVICE>();
    MultiReducer from(std::vector<cl::Device>{device});
    MultiReducer to(std::move(from));
    const std::vector<std::int32_t> v{1, 2, 3};
    const std::vector<MultiReducer::Piece> pieces{{0, device_copy(to.reducer(0), v), 0, v.size()}};
    const auto moved = Catch::Contains("moved from");
    // NOLINTBEGIN(bugprone-use-after-move): calling a moved-from MultiReducer is the point.
    CHECK_THROWS_WITH(from.size(), moved);
    CHECK_THROWS_AS(from.reducer(0), InvalidArgument);
    CHECK_THROWS_AS(from.weights(), InvalidArgument);
    CHECK_THROWS_AS(from.set_weights({1.0}), InvalidArgument);
    CHECK_THROWS_AS(from.set_staging(MultiReducer::Staging::always), InvalidArgument);
    CHECK_THROWS_AS(from.calibrate(ElementType::int32, 1024), InvalidArgument);
    CHECK_THROWS_AS(from.split(100), InvalidArgument);
    CHECK_THROWS_WITH(from.sum<std::int32_t>(v), moved);
    CHECK_THROWS_AS(from.sum<std::int32_t>(pieces), InvalidArgument);
    CHECK_THROWS_AS(from.sum<std::int32_t>(std::vector<MultiReducer::Piece>{}), InvalidArgument);
    CHECK_THROWS_AS(from.partial<std::int32_t>(Operation::min, v.data(), 0), InvalidArgument);
    CHECK_THROWS_AS(from.argmax<std::int32_t>(v), InvalidArgument);
    from = std::move(to);
    CHECK(from.sum<std::int32_t>(v) == 6);
    CHECK(from.sum<std::int32_t>(pieces) == 6);
    CHECK_THROWS_AS(to.size(), InvalidArgument);
    // NOLINTEND(bugprone-use-after-move)
}

}  // namespace
}  // namespace clreduce::test
