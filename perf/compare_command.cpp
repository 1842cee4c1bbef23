// clreduce against other reductions over a range of n, on the same data and device: each
// competitor's median synchronous-call and device times, each result checked against the
// exact CPU sum (integers) or a long double reference (floats).
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include <clreduce/clreduce.hpp>

#include "commands.hpp"
#include "compare_result.hpp"
#include "competitors/competitor.hpp"
#include "reference.hpp"
#include "result_check.hpp"
#include "timing.hpp"

namespace clreduce::perf {
namespace {

// The competitors, in the order of the table's rows.
const std::vector<std::pair<std::string, CompetitorFactory>>& competitor_factories() {
    static const std::vector<std::pair<std::string, CompetitorFactory>> factories = {
        {"clreduce", make_clreduce_competitor},    {"naive", make_naive_competitor},
        {"cv::Mat", make_opencv_mat_competitor},   {"cv::UMat", make_opencv_umat_competitor},
        {"CLBlast", make_clblast_competitor},      {"CUB", make_cub_competitor}};
    return factories;
}

std::vector<std::uint64_t> default_sizes(const DeviceInfo& d, ElementType type, std::vector<std::string>& dropped) {
    std::vector<std::uint64_t> sizes;
    // The data lives on the device twice at most (the shared buffer, OpenCV's UMat copy).
    const std::uint64_t limit = std::min<std::uint64_t>(d.max_alloc_size, d.global_mem_size / 3);
    for (int k = 10; k <= 28; k += 2) {
        const std::uint64_t n = std::uint64_t(1) << k;
        if (n * type_size(type) <= limit)
            sizes.push_back(n);
        else
            dropped.push_back(fmt::format("2^{}: {} MiB is more than the device allows ({} MiB)", k,
                                          (n * type_size(type)) >> 20, limit >> 20));
    }
    return sizes;
}

template <class T>
void compare_one_size(std::uint64_t n, const CompareOptions& o, const Reducer& reducer,
                      std::vector<std::unique_ptr<Competitor>>& competitors, CompareResult& result) {
    const auto data = testing::random_values<T>(n, o.seed);
    const Reference ref = make_reference(data);
    cl_int err = CL_SUCCESS;
    cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY, n * sizeof(T), nullptr, &err);
    check(err, "clCreateBuffer");
    check(reducer.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, n * sizeof(T), data.data()), "clEnqueueWriteBuffer");
    const Workload w{o.type, n, data.data(), &buffer};
    for (auto& c : competitors) {
        if (!c->unavailable().empty()) continue;
        CompareRow row;
        row.n = n;
        row.competitor = c->name();
        try {
            const Measurement m = c->measure(w);
            row.wall_us = m.wall_us;
            row.device_us = m.device_us;
            row.note = m.note;
            check_result(ref, m, row);
        } catch (const std::exception& e) {
            row.error = e.what();
        }
        std::cerr << fmt::format("  n = {:>10} {:<9} {}\n", n, row.competitor,
                                 row.ran() ? fmt::format("{:.1f} us", row.wall_us) : "failed: " + row.error);
        result.rows.push_back(row);
    }
}

}  // namespace

int run_compare(const CompareOptions& o) {
    const Reducer reducer = profiling_reducer(o.device);

    CompareResult result;
    result.device = reducer.device_info();
    result.type = o.type;
    result.repeats = o.repeats;
    result.seed = o.seed;
    result.sizes = o.sizes.empty() ? default_sizes(result.device, o.type, result.dropped) : o.sizes;
    for (std::uint64_t n : result.sizes)
        if (n == 0) throw InvalidArgument("compare needs n >= 1");

    CompareSetup setup;
    setup.reducer = &reducer;
    setup.type = o.type;
    setup.sizes = result.sizes;
    setup.repeats = o.repeats;
    setup.seed = o.seed;
    setup.cub_path = o.cub;
    setup.self = o.self;
    std::vector<std::unique_ptr<Competitor>> competitors;
    for (const auto& [name, make] : competitor_factories()) {
        try {
            competitors.push_back(make(setup));
        } catch (const std::exception& e) {  // a competitor that cannot even start is skipped
            competitors.push_back(make_unavailable(name, std::string("could not be set up: ") + e.what()));
        }
        const Competitor& c = *competitors.back();
        result.competitors.push_back({c.name(), c.unavailable(), c.unavailable().empty() ? c.detail() : ""});
    }
    std::cerr << "clreduce-perf compare: measuring\n";
    for (std::uint64_t n : result.sizes)
        testing::with_element_type(o.type, [&](auto tag) {
            compare_one_size<decltype(tag)>(n, o, reducer, competitors, result);
        });

    print_compare_table(result, std::cout);
    if (!o.out.csv.empty()) write_compare_csv(result, o.out.csv);
    if (!o.out.json.empty()) write_compare_json(result, o.out.json);
    if (!o.out.svg.empty()) write_compare_svg(result, o.out.svg);
    return result.clreduce_correct() ? 0 : 1;
}

}  // namespace clreduce::perf
