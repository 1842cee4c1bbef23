// The "Operations and forms" table of docs/usage.md against the library: its rows are the
// operation list (operation.hpp) in order, every cell says yes or refused, and every yes is a
// call that runs and gives the value the range form gives for the same elements (one image row,
// one segment, one run of equal keys, a partial, a MultiReducer). The values themselves are checked against
// references by each operation's own tests.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <clreduce/multi_reducer.hpp>

#include "source_dir.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

const std::vector<std::string> kForms{"range",  "host data", "image",   "segments",    "host segments",
                                      "by key", "async",     "Partial", "MultiReducer"};

struct FormsRow {
    std::string operation;
    std::vector<std::string> cells;
};

std::vector<FormsRow> forms_table() {
    std::ifstream file(source_dir() + "/docs/usage.md");
    REQUIRE(file);
    std::vector<FormsRow> rows;
    std::string line;
    bool inside = false;
    while (std::getline(file, line)) {
        if (line == "### Operations and forms") inside = true;
        if (!inside) continue;
        if (line.rfind("| `", 0) != 0) {
            if (!rows.empty()) break;  // the table's end
            continue;
        }
        std::vector<std::string> cells;
        std::stringstream in(line.substr(1));
        std::string cell;
        while (std::getline(in, cell, '|')) {
            const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
            if (first != std::string::npos) cells.push_back(cell.substr(first, last - first + 1));
        }
        REQUIRE(cells.size() == kForms.size() + 1);
        rows.push_back({cells[0].substr(1, cells[0].size() - 2), {cells.begin() + 1, cells.end()}});
    }
    return rows;
}

template <class R>
void check_same(const R& got, const R& want) {
    if constexpr (std::is_same_v<R, MinMax<std::int32_t>>) {
        CHECK(got.min == want.min);
        CHECK(got.max == want.max);
    } else if constexpr (std::is_same_v<R, ArgResult<std::int32_t>>) {
        CHECK(got.value == want.value);
        CHECK(got.index == want.index);
    } else if constexpr (std::is_same_v<R, ArgMinMax<std::int32_t>>) {
        check_same(got.min, want.min);
        check_same(got.max, want.max);
    } else if constexpr (std::is_same_v<R, Statistics<std::int32_t>>) {
        CHECK(got.count == want.count);
        CHECK(got.min == want.min);
        CHECK(got.max == want.max);
        CHECK(got.sum == want.sum);
        CHECK(got.mean == Approx(want.mean).epsilon(1e-15));
    } else {
        CHECK(got == want);
    }
}

}  // namespace

TEST_CASE("every operation takes the forms of input docs/usage.md says, with the range form's value", "[forms]") {
    Reducer& r = reducer();
    static MultiReducer multi;
    const std::vector<std::int32_t> host{3, -1, 4, 1, -5, 9, 2, 6, 5, 3, 5, 0, 8};
    const std::uint64_t n = host.size();
    const cl::Buffer buffer = device_copy(r, host);
    const cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 64);
    const Image one_row{1, n, 1, 0, 0};
    const Segments one = Segments::batch(1, n);
    const std::vector<std::int32_t> one_key(n, 7);  // one run
    const cl::Buffer key_buffer = device_copy(r, one_key);

    const auto rows = forms_table();
    REQUIRE(rows.size() == static_cast<std::size_t>(operation_count));
    for (int k = 0; k < operation_count; ++k) {
        const Operation op = static_cast<Operation>(k);
        const FormsRow& row = rows[k];
        INFO("operation " << operation_name(op));
        REQUIRE(row.operation == operation_name(op));
        for (std::size_t f = 0; f < kForms.size(); ++f) {
            const std::string& form = kForms[f];
            INFO("form " << form);
            REQUIRE((row.cells[f] == "yes" || row.cells[f] == "refused"));
            if (row.cells[f] != "yes") continue;
            visit_operation(op, [&](auto constant) {
                constexpr Operation Op = decltype(constant)::value;
                using T = std::int32_t;
                const auto want = r.reduce<Op, T>(buffer, 0, n);
                if (form == "range") {
                    check_same(r.reduce<Op, T>(buffer, 0, n), want);
                } else if (form == "host data") {
                    check_same(r.reduce<Op>(host), want);
                } else if (form == "image") {
                    check_same(r.reduce<Op, T>(buffer, one_row)[0], want);
                } else if (form == "segments") {
                    check_same(static_cast<result_t<Op, T>>(r.reduce<Op, T>(buffer, 0, one)[0]), want);
                } else if (form == "host segments") {
                    check_same(static_cast<result_t<Op, T>>(r.reduce<Op>(host.data(), one)[0]), want);
                } else if (form == "by key") {
                    const auto got = r.reduce_by_key<Op, T, std::int32_t>(key_buffer, 0, buffer, 0, n);
                    REQUIRE(got.keys == std::vector<std::int32_t>{7});
                    check_same(static_cast<result_t<Op, T>>(got.results[0]), want);
                    const auto from_host = r.reduce_by_key<Op>(one_key, host);
                    REQUIRE(from_host.keys == std::vector<std::int32_t>{7});
                    check_same(static_cast<result_t<Op, T>>(from_host.results[0]), want);
                } else if (form == "Partial") {
                    check_same(r.partial<T>(op, buffer, 0, n).template value<Op, T>(), want);
                } else if (form == "MultiReducer") {
                    check_same(multi.reduce<Op>(host), want);
                } else if (form == "async") {  // a range and segments, both finished on the device
                    // (wrap: a checked sum of squares is the host's to finish; these data do not overflow.)
                    LaunchParams wrap;
                    wrap.overflow = IntegerOverflow::wrap;
                    result_t<Op, T> got{};
                    r.reduce_async<Op, T>(buffer, 0, n, {result}, wrap).wait();
                    check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got), "clEnqueueReadBuffer");
                    check_same(got, want);
                    r.reduce_async<Op, T>(buffer, 0, one, {result}, wrap).wait();
                    check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof got, &got), "clEnqueueReadBuffer");
                    check_same(got, want);
                }
            });
        }
    }
}

}  // namespace clreduce::test
