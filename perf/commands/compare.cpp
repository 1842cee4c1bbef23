// clreduce against other reductions over a range of n, on the same data and device: each
// competitor's median synchronous-call time (from a loop of calls that do nothing else) and
// device time (from a separate loop that records it), each result checked against the exact
// CPU sum (integers) or a long double reference (floats); beside them the read-only kernel's
// device time over the same bytes, the bandwidth bound.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "competitors/competitor.hpp"
#include "measure/delivery.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/read_only_kernel.hpp"
#include "measure/result_check.hpp"
#include "measure/timing.hpp"
#include "reference/random_values.hpp"
#include "reference/with_element_type.hpp"
#include "report/compare_result.hpp"
#include "report/output_files.hpp"

namespace clreduce::perf {
namespace {

CompetitorFactory host_operation(Operation op) {
    return [op](const CompareSetup& setup) { return make_host_operation_competitor(setup, op); };
}

// The competitors, in the order of the table's rows.
const std::vector<std::pair<std::string, CompetitorFactory>>& competitor_factories() {
    static const std::vector<std::pair<std::string, CompetitorFactory>> factories = {
        {"clreduce", make_clreduce_competitor},
        {"clreduce+1", make_clreduce_offset_competitor},
        {"clreduce-host", make_clreduce_host_data_competitor},
        {"clreduce-host-device", make_clreduce_link_competitor},
        {"clreduce-host min", host_operation(Operation::min)},
        {"clreduce-host argmax", host_operation(Operation::argmax)},
        {"clreduce-host count_nonzero", host_operation(Operation::count_nonzero)},
        {"clreduce-host statistics", host_operation(Operation::statistics)},
        {"clreduce-host norm_l2", host_operation(Operation::norm_l2)},
        {"clreduce-pinned", make_clreduce_pinned_host_competitor},
        {"clreduce-wrap", make_clreduce_wrap_competitor},
        {"clreduce-comp", make_clreduce_compensated_competitor},
        {"clreduce-cr", make_clreduce_correctly_rounded_competitor},
        {"naive", make_naive_competitor},
        {"cv::Mat", make_opencv_mat_competitor},
        {"cv::UMat", make_opencv_umat_competitor},
        {"clreduce (OpenCV adapter)", make_opencv_adapter_competitor},
        {"host read", make_host_read_competitor},
        {"host statistics", make_host_statistics_competitor},
        {"pinned write", make_pinned_write_competitor},
        {"pageable write", make_pageable_write_competitor},
        {"host copy", make_host_copy_competitor},
        {"CLBlast", make_clblast_competitor},
        {"CUB", make_cub_competitor}};
    return factories;
}

// 2^10, 2^12, ..., 2^30 unless given; sizes whose data does not fit the device are left out.
std::vector<std::uint64_t> fitting_sizes(std::vector<std::uint64_t> sizes, const DeviceInfo& d, ElementType type,
                                         std::vector<std::string>& dropped) {
    if (sizes.empty())
        for (int k = 10; k <= 30; k += 2) sizes.push_back(std::uint64_t(1) << k);
    // The data lives on the device twice at most (the shared buffer, OpenCV's UMat copy).
    const std::uint64_t limit = std::min<std::uint64_t>(d.max_alloc_size, d.global_mem_size / 3);
    std::vector<std::uint64_t> fit;
    for (std::uint64_t n : sizes) {
        if (n == 0) throw InvalidArgument("compare needs n >= 1");
        if (n <= limit / type_size(type))
            fit.push_back(n);
        else
            dropped.push_back(
                fmt::format("{}: {} MiB is more than the device allows for it ({} MiB: the smaller of "
                            "its largest allocation and a third of its memory)",
                            size_label(n), (n * type_size(type)) >> 20, limit >> 20));
    }
    return fit;
}

void progress(std::uint64_t n, const std::string& what, const std::string& result) {
    std::cerr << fmt::format("  n = {:>10} {:<9} {}\n", n, what, result);
}

ReadOnlyRow time_read_only(ReadOnlyKernel& kernel, const Reducer& profiling, const cl::Buffer& buffer, std::uint64_t n,
                           std::uint64_t bytes, int repeats) {
    ReadOnlyRow row;
    row.n = n;
    row.bytes = ReadOnlyKernel::bytes_read(bytes);
    try {
        row.device_us = median(kernel.time(profiling.queue(), buffer, bytes, repeats));
    } catch (const std::exception& e) {
        row.error = e.what();
    }
    return row;
}

// Longer than the host threads' spins: OpenMP's (libgomp's default spin count), clreduce's host
// pool (CLREDUCE_HOST_SPIN_US), OpenCV's pool.
constexpr std::chrono::milliseconds kBetweenCompetitors{50};

template <class T>
void compare_one_size(std::uint64_t n, const CompareOptions& o, const TimingReducers& reducers,
                      ReadOnlyKernel& read_only, std::vector<std::unique_ptr<Competitor>>& competitors,
                      CompareResult& result) {
    const auto data = testing::random_values<T>(n, o.seed);
    const Reference ref = make_reference(data);
    cl_int err = CL_SUCCESS;
    cl::Buffer buffer(reducers.plain.context(), CL_MEM_READ_ONLY, n * sizeof(T), nullptr, &err);
    check(err, "clCreateBuffer");
    check(reducers.plain.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, n * sizeof(T), data.data()),
          "clEnqueueWriteBuffer");
    result.read_only.push_back(time_read_only(read_only, reducers.profiling, buffer, n, n * sizeof(T), o.repeats));
    const ReadOnlyRow& bound = result.read_only.back();
    progress(n, "read-only", bound.ran() ? fmt::format("{:.1f} us device", bound.device_us) : "failed: " + bound.error);
    const Workload w{o.type, n, data.data(), &buffer};
    for (auto& c : competitors) {
        if (!c->unavailable().empty()) continue;
        // Threads the last competitor left looking for work (OpenMP's team at the end of its
        // loop, OpenCV's and clreduce's host pools, a CPU runtime's workers) sleep before the next
        // one starts: a thread that spins on a core another competitor's thread wakes on holds
        // it up for milliseconds (docs/usage.md, "Where host data is reduced"), and which one
        // suffers would depend on the table's order.
        std::this_thread::sleep_for(kBetweenCompetitors);
        CompareRow row;
        row.n = n;
        row.competitor = c->name();
        try {
            const Measurement m = c->measure(w);
            row.wall_us = m.wall_us;
            row.device_us = m.device_us;
            row.note = m.note;
            row.copy = m.copy;
            if (m.self_check) {
                row.verdict = m.self_check->empty() ? Verdict::correct : Verdict::wrong;
                row.problem = *m.self_check;
                if (!m.values.empty()) row.value = m.values.back();
            } else if (!m.copy) {
                check_result(ref, m, row);
            }
        } catch (const std::exception& e) {
            row.error = e.what();
        }
        progress(n, row.competitor, row.ran() ? fmt::format("{:.1f} us", row.wall_us) : "failed: " + row.error);
        result.rows.push_back(row);
    }
}

}  // namespace

int run_compare(const CompareOptions& o) {
    TimingReducers reducers = timing_reducers(o.device);
    set_delivery(reducers.plain, o.delivery);
    set_delivery(reducers.profiling, o.delivery);
    fmt::print("clreduce's synchronous calls deliver their result: {}\n", o.delivery);

    CompareResult result;
    result.device = reducers.plain.device_info();
    result.type = o.type;
    result.repeats = o.repeats;
    result.seed = o.seed;
    result.data = testing::random_values_description(o.type);
    result.sizes = fitting_sizes(o.sizes, result.device, o.type, result.dropped);
    if (result.sizes.empty())
        throw InvalidArgument(fmt::format("no n fits the device: {}", fmt::join(result.dropped, "; ")));
    const cl::Device device = reducers.profiling.queue().getInfo<CL_QUEUE_DEVICE>();
    ReadOnlyKernel read_only(build_perf_program(reducers.profiling.context(), device, "read_only.cl"), result.device);
    result.read_only_detail = read_only.geometry();

    CompareSetup setup;
    setup.reducer = &reducers.plain;
    setup.profiling = &reducers.profiling;
    setup.type = o.type;
    setup.sizes = result.sizes;
    setup.repeats = o.repeats;
    setup.seed = o.seed;
    setup.cub_path = o.cub;
    setup.self = o.self;
    const auto chosen = [&o](const std::string& name) {
        return o.only.empty() || std::find(o.only.begin(), o.only.end(), name) != o.only.end();
    };
    for (const std::string& name : o.only)
        if (std::none_of(competitor_factories().begin(), competitor_factories().end(),
                         [&](const auto& factory) { return factory.first == name; })) {
            std::string names;
            for (const auto& factory : competitor_factories())
                names += (names.empty() ? "\"" : ", \"") + factory.first + "\"";
            throw std::invalid_argument("compare --only \"" + name + "\": no such competitor; the competitors are " +
                                        names);
        }
    std::vector<std::unique_ptr<Competitor>> competitors;
    for (const auto& [name, make] : competitor_factories()) {
        if (!chosen(name)) continue;
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
            compare_one_size<decltype(tag)>(n, o, reducers, read_only, competitors, result);
        });

    print_compare_table(result, std::cout);
    if (!o.out.csv.empty()) write_compare_csv(result, o.out.csv);
    if (!o.out.json.empty()) write_compare_json(result, o.out.json);
    if (!o.out.svg.empty()) write_compare_svg(result, o.out.svg);
    return result.clreduce_correct() ? 0 : 1;
}

}  // namespace clreduce::perf
