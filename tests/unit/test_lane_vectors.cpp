// lane_vectors (src/exec/host_doubles.hpp): the transpose of work-items' lanes that the host
// path's statistics combine, for both vector types and every vector width, against the plain
// definition. A test here runs each of them whatever the host's vectors are; the host path's
// tests (device/test_host_path.cpp) run only the host's own.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "exec/host_doubles.hpp"  // src/

namespace clreduce::test {
namespace {

// Lane k of work-item i is 1000 * i + k: every value says where it came from.
template <class V, std::uint32_t VW>
void check_transpose() {
    constexpr std::uint32_t items = kLanesOf<V>;
    std::vector<double> lanes(std::size_t(items) * VW);
    for (std::uint32_t i = 0; i < items; ++i)
        for (std::uint32_t k = 0; k < VW; ++k) lanes[std::size_t(i) * VW + k] = 1000.0 * i + k;
    V out[VW];
    lane_vectors<VW>(lanes.data(), out);
    for (std::uint32_t k = 0; k < VW; ++k)
        for (std::uint32_t i = 0; i < items; ++i) {
            INFO("lanes of " << items << " work-items, vector width " << VW << ", lane " << k << " of item " << i);
            CHECK(out[k][i] == 1000.0 * i + k);
        }
}

template <class V>
void check_every_width() {
    check_transpose<V, 1>();
    check_transpose<V, 2>();
    check_transpose<V, 4>();
    check_transpose<V, 8>();
    check_transpose<V, 16>();
}

TEST_CASE("lane_vectors: lane k of eight or four work-items, every vector width", "[unit][host-path]") {
    check_every_width<Doubles>();
    check_every_width<Doubles4>();
}

}  // namespace
}  // namespace clreduce::test
