// Column reductions (Segments::columns): every operation per column against the exact CPU
// references, each mapping forced by LaunchParams (lanes per column, groups sharing the rows),
// wide, narrow, empty and misaligned matrices (a pairwise covering array of type x mapping x
// matrix x operation, tests/support/covering_array.hpp); correctly rounded sums the same bits as the
// same values laid out as rows.
#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "covering_array.hpp"
#include "segment_checks.hpp"
#include "test_ops_support.hpp"

namespace clreduce::test {
namespace {

// The column mappings a test forces, in work-groups of 32: slots of 1, 2 or 4 adjacent columns
// per work-item, 1, 4 and 32 lanes per slot, 3 groups sharing the rows, several rows loaded at
// once (segment_loads; 0: the rule's); and the default.
std::vector<std::pair<std::string, LaunchParams>> column_mappings() {
    constexpr std::uint32_t kGroup = 32;
    std::vector<std::pair<std::string, LaunchParams>> out;
    out.emplace_back("default", LaunchParams{});
    struct Mapping {
        std::uint32_t columns, team, parts, loads;
    };
    for (const Mapping m : {Mapping{1, 1, 1, 0}, Mapping{4, 1, 1, 0}, Mapping{1, 4, 1, 0}, Mapping{2, kGroup, 1, 0},
                            Mapping{4, 4, 3, 0}, Mapping{4, 1, 1, 4}, Mapping{2, 4, 3, 8}}) {
        LaunchParams p;
        p.work_group_size = kGroup;
        p.vector_width = m.columns;
        p.segment_team = m.team;
        p.groups_per_segment = m.parts;
        if (m.loads != 0) p.segment_loads = m.loads;
        out.emplace_back(std::to_string(m.columns) + " columns per work-item, " + std::to_string(m.team) +
                             " lanes per slot, " + std::to_string(m.parts) + " groups per slot" +
                             (m.loads != 0 ? ", " + std::to_string(m.loads) + " rows loaded at once" : ""),
                         p);
    }
    return out;
}

// The matrix's columns laid out one after another (column c at offset + c * rows), `offset`
// padding elements first, so that the references read each column as a contiguous segment.
template <class T>
std::vector<T> columns_contiguous(const std::vector<T>& host, std::uint64_t offset, std::uint64_t rows,
                                  std::uint64_t cols, std::uint64_t step) {
    std::vector<T> out(offset + rows * cols);
    for (std::uint64_t c = 0; c < cols; ++c)
        for (std::uint64_t r = 0; r < rows; ++r) out[offset + c * rows + r] = host[offset + c + r * step];
    return out;
}

// The matrices: from the middle of the buffer, misaligned rows (a step of 47 elements) and
// columns not a multiple of the slot, narrow, wide, one row, one column; aligned rows and slots
// (offset 8, a step of 44).
struct Matrix {
    std::uint64_t offset, rows, cols, step;
};
const Matrix kMatrices[] = {{5, 37, 45, 47}, {5, 3000, 3, 3}, {5, 2, 1000, 1001},
                            {5, 1, 17, 17},  {5, 513, 1, 2},  {8, 70, 40, 44}};

constexpr std::size_t kSweepTypes = std::tuple_size_v<SegmentSweepTypes>;

// Rows of element type x mapping x matrix x operation covering every pair; the same for every
// type's case (from the run's seed), each case running its own type's rows.
const std::vector<std::size_t>& sweep_levels() {
    static const std::vector<std::size_t> levels{kSweepTypes, column_mappings().size(), std::size(kMatrices),
                                                 segment_operations().size()};
    return levels;
}
const CoveringRows& sweep_rows() {
    static const CoveringRows rows = pairwise_rows(sweep_levels(), seed_for(0xc01));
    return rows;
}

template <class T>
void check_columns(Reducer& r) {
    const std::uint64_t seed = seed_for(sizeof(T), 59);
    INFO("data seed " << seed << ", covering array seed " << seed_for(0xc01) << " (run seed " << test::seed() << ")");
    const std::vector<T> host = op_values<T>(40000 + 16, seed);
    const cl::Buffer values = device_copy(r, host);
    const auto all = column_mappings();
    std::size_t checked = 0;
    for (const auto& row : sweep_rows()) {
        if (row[0] != index_in<T, SegmentSweepTypes>()) continue;
        ++checked;
        const auto& [name, mapping] = all[row[1]];
        const Matrix& m = kMatrices[row[2]];
        const Operation op = segment_operations()[row[3]];
        INFO("mapping " << name);
        LaunchParams params = mapping;
        const Segments segments = Segments::columns(m.rows, m.cols, m.step * sizeof(T));
        // A state too large for several columns a work-item (64-bit sums of squares, say) is
        // refused naming the limit, and the row runs with one column a work-item (statistics'
        // refusal is checked by its own check).
        if (op != Operation::statistics) {
            try {
                r.plan(element_traits<T>::type, op, segments, params);
            } catch (const InvalidArgument& e) {
                CHECK_THAT(e.what(), Catch::Contains("adjacent columns per work-item"));
                params.vector_width = 1;
            }
        }
        INFO(m.rows << " rows of " << m.cols << ", a step of " << m.step << " elements from element " << m.offset);
        const std::vector<T> contiguous = columns_contiguous(host, m.offset, m.rows, m.cols, m.step);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> bounds;
        for (std::uint64_t c = 0; c < m.cols; ++c) bounds.emplace_back(c * m.rows, (c + 1) * m.rows);
        check_segment_operation(r, values, contiguous, m.offset, segments, bounds, params, op);
    }
    CHECK(checked >= segment_operations().size());  // every operation meets every type
}

}  // namespace

TEST_CASE("column reductions: the sweep's rows cover every pair of type, mapping, matrix and operation",
          "[segments][columns]") {
    INFO("covering array seed " << seed_for(0xc01));
    CHECK(missing_pair(sweep_levels(), sweep_rows()).empty());
}

TEMPLATE_TEST_CASE("column reductions: every operation per column, each mapping, misaligned and narrow matrices",
                   "[segments][columns]", std::int32_t, float, std::uint8_t, std::int64_t, double) {
    Reducer& r = reducer();
    if (std::is_same_v<TestType, double> && !r.device_info().has_fp64) return;
    check_columns<TestType>(r);
}

TEST_CASE("column reductions: correctly rounded sums are the same bits under every mapping and as rows",
          "[segments][columns]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(61);
    INFO("data seed " << seed);
    const std::uint64_t rows = 301, cols = 67, step = 70;
    const std::vector<float> host = wide_values<float>(3 + rows * step, seed, 60);
    const cl::Buffer values = device_copy(r, host);
    const std::vector<float> contiguous = columns_contiguous(host, 3, rows, cols, step);
    const cl::Buffer as_rows = device_copy(r, contiguous);
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    const auto expected = r.sum<float>(as_rows, 3, Segments::batch(cols, rows), exact);
    for (auto [name, params] : column_mappings()) {
        INFO("mapping " << name);
        params.float_mode = FloatMode::correctly_rounded;
        params.vector_width.reset();  // a column per work-item: its state is large
        const auto sums = r.sum<float>(values, 3, Segments::columns(rows, cols, step * sizeof(float)), params);
        REQUIRE(sums.size() == cols);
        for (std::uint64_t c = 0; c < cols; ++c) {
            INFO("column " << c);
            CHECK(same_bits(sums[c], expected[c]));
        }
    }
}

TEST_CASE("column reductions: asynchronous sums, empty matrices, bad steps, plan(), nothing allocated again",
          "[segments][columns]") {
    Reducer& r = reducer();
    const std::uint64_t seed = seed_for(67);
    INFO("data seed " << seed);
    const std::vector<std::int32_t> host = op_values<std::int32_t>(10000, seed);
    const cl::Buffer values = device_copy(r, host);
    // Into a device buffer, from result element 1 on.
    const cl::Buffer out(r.context(), CL_MEM_READ_WRITE, 40 * sizeof(std::int64_t));
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    r.sum_async<std::int32_t>(values, 2, Segments::columns(200, 39, 40 * sizeof(std::int32_t)), {out, 1}, wrap).wait();
    std::vector<std::int64_t> got(40);
    check(r.queue().enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(std::int64_t), got.data()),
          "clEnqueueReadBuffer");
    for (std::uint64_t c = 0; c < 39; ++c) {
        std::int64_t expected = 0;
        for (std::uint64_t row = 0; row < 200; ++row) expected += host[2 + c + row * 40];
        CHECK(got[1 + c] == expected);
    }
    // No rows: empty columns (the identity, or an error where the result is undefined); no columns.
    CHECK(r.sum<std::int32_t>(values, 0, Segments::columns(0, 4)) == std::vector<std::int64_t>(4, 0));
    CHECK_THROWS_WITH(r.max<std::int32_t>(values, 0, Segments::columns(0, 4)), Catch::Contains("which is empty"));
    CHECK(r.sum<std::int32_t>(values, 0, Segments::columns(10, 0)).empty());
    // A step smaller than a row, not a multiple of the element, or past the buffer's end.
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::columns(10, 8, 7 * sizeof(std::int32_t))),
                      Catch::Contains("smaller than a row"));
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::columns(10, 8, 33)), Catch::Contains("not a multiple"));
    CHECK_THROWS_AS(r.sum<std::int32_t>(values, 0, Segments::columns(101, 100)), InvalidArgument);
    LaunchParams wide;
    wide.vector_width = 8;
    CHECK_THROWS_WITH(r.sum<std::int32_t>(values, 0, Segments::columns(10, 8), wide),
                      Catch::Contains("at most 4 adjacent columns"));
    wide.vector_width = 2;
    wide.float_mode = FloatMode::correctly_rounded;
    CHECK_THROWS_WITH(r.sum<float>(values, 0, Segments::columns(10, 8), wide),
                      Catch::Contains("at most 1 adjacent columns"));
    // plan(): a column per work-item for wide matrices, lanes splitting the rows of narrow ones.
    const LaunchPlan wide_plan = r.plan(ElementType::float32, Operation::sum, Segments::columns(64, 1 << 20));
    CHECK(wide_plan.segment_columns);
    CHECK(wide_plan.segment_team == 1);
    CHECK(wide_plan.describe().find("columns=1048576") != std::string::npos);
    const LaunchPlan narrow = r.plan(ElementType::float32, Operation::sum, Segments::columns(1 << 22, 2));
    CHECK(narrow.vector_width <= 4);
    CHECK(narrow.segment_team == narrow.work_group_size / (narrow.vector_width == 1 ? 2 : 1));
    // A repeated call builds, creates and allocates nothing: columns, listed segments with a
    // long one split into chunks, groups sharing a segment.
    const std::vector<std::uint64_t> offsets{0, 3, 9000, 9001};
    LaunchParams shared;
    shared.work_group_size = 32;
    shared.segment_team = 32;
    shared.groups_per_segment = 2;
    LaunchParams lone;  // a work-item per segment: the 8,997-element one is split
    lone.segment_team = 1;
    const auto calls = [&] {
        r.sum<std::int32_t>(values, 0, Segments::columns(50, 30));
        r.sum<std::int32_t>(values, 0, Segments::offsets(offsets), lone);
        r.sum<std::int32_t>(values, 0, Segments::batch(3, 3000), shared);
    };
    calls();
    const Counters before = r.counters();
    calls();
    const Counters after = r.counters();
    CHECK(after.programs_built == before.programs_built);
    CHECK(after.programs_loaded == before.programs_loaded);
    CHECK(after.kernels_created == before.kernels_created);
    CHECK(after.buffers_allocated == before.buffers_allocated);
    CallInfo info;
    r.sum<std::int32_t>(values, 0, Segments::columns(50, 30), {}, &info);
    CHECK(info.plan.describe() == r.plan(ElementType::int32, Operation::sum, Segments::columns(50, 30)).describe());
}

}  // namespace clreduce::test
