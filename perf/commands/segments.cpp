// clreduce-perf segments: many sums in one call (Segments) over the shapes of
// reference/segment_shapes.hpp, against CUB's DeviceSegmentedReduce::Sum (clreduce-cub-segmented,
// beside clreduce-perf where CUDA was found) and a loop of clreduce's single-range calls, beside
// the read-only kernel over the same bytes. Device times are medians of profiled calls; every
// segment's result is checked against the host's exact (integers) or long double (floats) sum.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "competitors/opencv_reduce.hpp"
#include "measure/comparator_process.hpp"
#include "measure/embedded_perf_kernels.hpp"
#include "measure/read_only_kernel.hpp"
#include "measure/timing.hpp"
#include "reference/random_values.hpp"
#include "reference/segment_shapes.hpp"
#include "report/svg_plot.hpp"

namespace clreduce::perf {
namespace {

struct Row {
    std::string shape;
    std::uint64_t segments = 0, elements = 0;
    double read_only_us = 0, clreduce_us = 0, loop_us = 0, cub_us = 0;  // 0: not run
    double clreduce_wall_us = 0;  // matrices: the synchronous call's wall time, for cv::reduce's
    OpenCVReduceTiming opencv;    // matrices: cv::reduce of the rows or columns
    std::uint64_t clreduce_wrong = 0, cub_wrong = 0, opencv_wrong = 0;
    std::string plan, cub_note;
    double bytes = 0;  // input (values, and the offsets where the call takes them) + output
};

// Segment s's sum from the host: exact for integers (long double holds int32 sums of 2^28
// exactly), and for floats the bound of a sum of its length.
template <class T>
std::uint64_t wrong_results(const std::vector<T>& data, const std::vector<std::uint64_t>& offsets,
                            const std::vector<sum_type_t<T>>& got) {
    std::uint64_t wrong = 0;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
        long double exact = 0, magnitude = 0;
        for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
            exact += static_cast<long double>(data[i]);
            magnitude += std::fabs(static_cast<long double>(data[i]));
        }
        const long double error = std::fabs(static_cast<long double>(got[s]) - exact);
        const std::uint64_t n = offsets[s + 1] - offsets[s];
        const long double bound = std::is_integral_v<T> ? 0.0L : n * std::ldexp(1.0L, -52) * magnitude;
        if (error > bound) ++wrong;
    }
    return wrong;
}

// The same check for the columns of a rows x cols row-major matrix.
template <class T>
std::uint64_t wrong_column_results(const std::vector<T>& data, std::uint64_t rows, std::uint64_t cols,
                                   const std::vector<sum_type_t<T>>& got) {
    std::vector<long double> exact(cols), magnitude(cols);
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t c = 0; c < cols; ++c) {
            exact[c] += static_cast<long double>(data[r * cols + c]);
            magnitude[c] += std::fabs(static_cast<long double>(data[r * cols + c]));
        }
    std::uint64_t wrong = 0;
    for (std::uint64_t c = 0; c < cols; ++c) {
        const long double bound = std::is_integral_v<T> ? 0.0L : rows * std::ldexp(1.0L, -52) * magnitude[c];
        if (std::fabs(static_cast<long double>(got[c]) - exact[c]) > bound) ++wrong;
    }
    return wrong;
}

nlohmann::json run_cub(const SegmentsOptions& o) {
    namespace fs = std::filesystem;
    std::string exe = o.cub.empty() ? (fs::path(o.self).parent_path() / "clreduce-cub-segmented").string() : o.cub;
    if (!fs::exists(exe)) return {{"error", "clreduce-cub-segmented not found (" + exe + ")"}};
    std::string command = shell_quoted(exe) + " -t " + std::string(type_name(o.type)) + " -r " +
                          std::to_string(o.repeats) + " --seed " + std::to_string(o.seed);
    std::size_t given = 0;
    for (const auto& s : o.shapes)
        if (s.rfind("columns:", 0) != 0) {  // DeviceSegmentedReduce reads contiguous segments
            command += " -s '" + s + "'";
            ++given;
        }
    if (given == 0) return {{"error", "no shape CUB's DeviceSegmentedReduce has"}};
    return run_comparator(command, "clreduce-cub-segmented");
}

template <class T>
Row measure_shape(const std::string& name, const SegmentsOptions& o, const TimingReducers& reducers,
                  ReadOnlyKernel& read_only, const LaunchParams& params) {
    const testing::SegmentShape shape = testing::segment_shape(name, o.seed);
    const std::vector<T> data = testing::random_values<T>(shape.elements(), o.seed);
    Row row;
    row.shape = name;
    row.segments = shape.segments();
    row.elements = shape.elements();
    const Reducer& r = reducers.profiling;
    cl::Buffer values(r.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(1, data.size()) * sizeof(T));
    cl::Buffer offsets(r.context(), CL_MEM_READ_ONLY, shape.offsets.size() * sizeof(std::uint64_t));
    check(r.queue().enqueueWriteBuffer(values, CL_TRUE, 0, data.size() * sizeof(T), data.data()),
          "clEnqueueWriteBuffer");
    check(r.queue().enqueueWriteBuffer(offsets, CL_TRUE, 0, shape.offsets.size() * 8, shape.offsets.data()),
          "clEnqueueWriteBuffer");
    const bool listed = !shape.columns && !shape.rows && !shape.regular;
    const Segments segments = shape.columns ? Segments::columns(shape.matrix_rows, shape.matrix_cols)
                              : listed      ? Segments::offsets(offsets, shape.segments(), shape.elements())
                              : shape.rows  ? Segments::rows(shape.matrix_rows, shape.matrix_cols)
                                            : Segments::batch(shape.segments(), shape.length());
    // The bytes a call must move: the values, the results and, for listed segments, the offsets
    // (64-bit, segments + 1), as CUB's own benchmarks of DeviceSegmentedReduce count them.
    row.bytes = double(shape.elements()) * sizeof(T) + double(shape.segments()) * sizeof(sum_type_t<T>) +
                (listed ? double(shape.offsets.size()) * sizeof(std::uint64_t) : 0.0);
    row.read_only_us = median(read_only.time(r.queue(), values, data.size() * sizeof(T), o.repeats));
    std::vector<double> times, walls;
    // The results go into one vector kept across calls, as cv::reduce's into the caller's.
    std::vector<sum_type_t<T>> got;
    for (int run = 0; run <= o.repeats; ++run) {
        CallInfo info;
        const auto start = std::chrono::steady_clock::now();
        r.sum<T>(values, 0, segments, got, params, &info);
        const double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        row.plan = info.plan.describe() + "; " + info.plan.describe_sources();
        if (run > 0) {
            times.push_back(device_microseconds(info.kernel_events));
            walls.push_back(wall);
        }
    }
    row.clreduce_us = median(times);
    row.clreduce_wall_us = median(walls);
    const auto wrong = [&](const std::vector<sum_type_t<T>>& sums) {
        return shape.columns ? wrong_column_results(data, shape.matrix_rows, shape.matrix_cols, sums)
                             : wrong_results(data, shape.offsets, sums);
    };
    row.clreduce_wrong = wrong(got);
    // cv::reduce of the same matrix, its sums checked the same way.
    if (shape.rows || shape.columns) {
        row.opencv =
            time_opencv_reduce(r, data.data(), o.type, shape.matrix_rows, shape.matrix_cols, shape.columns, o.repeats);
        for (const OpenCVReduceRun* run : {&row.opencv.mat, &row.opencv.umat}) {
            if (run->wall_us == 0) continue;
            std::vector<sum_type_t<T>> sums(run->sums.size());
            for (std::size_t i = 0; i < sums.size(); ++i)
                sums[i] = std::is_integral_v<T> ? static_cast<sum_type_t<T>>(std::llround(run->sums[i]))
                                                : static_cast<sum_type_t<T>>(run->sums[i]);
            row.opencv_wrong += sums.size() == got.size() ? wrong(sums) : got.size();
        }
    }
    // A loop of single-range calls, where it takes no longer than a few seconds.
    if (shape.segments() <= 4096 && !params.segment_team && params.experimental_segments.medium == 0 &&
        !shape.columns) {
        std::vector<double> loop;
        for (int run = 0; run < std::min(o.repeats, 3); ++run) {
            double total = 0;
            for (std::uint64_t s = 0; s < shape.segments(); ++s) {
                CallInfo info;
                r.sum<T>(values, shape.offsets[s], shape.offsets[s + 1] - shape.offsets[s], {}, &info);
                total += device_microseconds(info.kernel_events);
            }
            loop.push_back(total);
        }
        row.loop_us = median(loop);
    }
    return row;
}

double gbps(double bytes, double us) { return us > 0 ? bytes / us / 1e3 : 0; }

}  // namespace

int run_segments(const SegmentsOptions& o) {
    TimingReducers reducers = timing_reducers(o.device);
    const DeviceInfo& device = reducers.profiling.device_info();
    const cl::Device cl_device = reducers.profiling.queue().getInfo<CL_QUEUE_DEVICE>();
    ReadOnlyKernel read_only(build_perf_program(reducers.profiling.context(), cl_device, "read_only.cl"), device);
    std::vector<Row> rows;
    std::vector<LaunchParams> mappings;
    for (std::uint32_t team : o.teams) {
        LaunchParams p;
        p.segment_team = team;
        mappings.push_back(p);
    }
    for (std::uint64_t medium : o.mediums) {
        LaunchParams p;
        p.experimental_segments.medium = medium;
        mappings.push_back(p);
    }
    if (mappings.empty()) mappings.emplace_back();

    for (LaunchParams& p : mappings) {
        if (o.work_group_size != 0) p.work_group_size = o.work_group_size;
        if (o.groups_per_segment != 0) p.groups_per_segment = o.groups_per_segment;
        if (o.loads != 0) p.segment_loads = o.loads;
    }
    for (const auto& name : o.shapes)
        for (const LaunchParams& params : mappings) {
            std::cerr << "  " << name << (params.segment_team ? " team " + std::to_string(*params.segment_team) : "")
                      << (params.experimental_segments.medium != 0
                              ? " medium " + std::to_string(params.experimental_segments.medium)
                              : "")
                      << "\n";
            try {
                rows.push_back(testing::with_element_type(o.type, [&](auto tag) -> Row {
                    using T = decltype(tag);
                    if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, float>)
                        return measure_shape<T>(name, o, reducers, read_only, params);
                    else
                        throw InvalidArgument("segments times int32 or float32 data");
                }));
            } catch (const InvalidArgument& e) {  // a mapping this shape cannot have
                if (mappings.size() == 1) throw;
                std::cerr << "    skipped: " << e.what() << "\n";
            }
        }
    const nlohmann::json cub = run_cub(o);
    if (cub.contains("results"))
        for (const auto& c : cub.at("results"))
            for (Row& row : rows)
                if (row.shape == c.at("shape").get<std::string>()) {
                    row.cub_us = c.at("device_us").get<double>();
                    row.cub_wrong = c.at("wrong").get<std::uint64_t>();
                }
    const std::string cub_device = cub.contains("device") ? cub.at("device").get<std::string>() : "";
    fmt::print("clreduce-perf segments: {} sums, device '{}'; CUB: {}\n", type_name(o.type), device.name,
               cub.contains("error") ? cub.at("error").get<std::string>() : cub_device);
    fmt::print("{:<22} {:>9} {:>11} {:>10} {:>10} {:>8} {:>10} {:>8} {:>11} {:>6}\n", "shape", "segments", "read-only",
               "clreduce", "GB/s", "/r-o", "CUB", "CUB/cl", "loop", "wrong");
    bool correct = true;
    for (const Row& row : rows) {
        correct = correct && row.clreduce_wrong == 0;
        fmt::print("{:<22} {:>9} {:>9.1f}us {:>8.1f}us {:>10.0f} {:>8.2f} {:>8} {:>8} {:>11} {:>6}\n", row.shape,
                   row.segments, row.read_only_us, row.clreduce_us, gbps(row.bytes, row.clreduce_us),
                   row.read_only_us / row.clreduce_us * (row.bytes / (row.elements * type_size(o.type))),
                   row.cub_us > 0 ? fmt::format("{:.1f}us", row.cub_us) : "-",
                   row.cub_us > 0 ? fmt::format("{:.2f}", row.cub_us / row.clreduce_us) : "-",
                   row.loop_us > 0 ? fmt::format("{:.0f}us", row.loop_us) : "-", row.clreduce_wrong + row.cub_wrong);
        fmt::print("    plan: {}\n", row.plan);
        if (row.opencv.mat.wall_us > 0 || row.opencv.umat.wall_us > 0 || !row.opencv.mat.note.empty()) {
            const auto cv_time = [&](const OpenCVReduceRun& run) {
                return run.wall_us > 0 ? fmt::format("{:.1f}us ({:.2f}x clreduce's time)", run.wall_us,
                                                     run.wall_us / row.clreduce_wall_us)
                                       : "- (" + run.note + ")";
            };
            fmt::print(
                "    wall, synchronous (results into a host vector kept across calls): clreduce {:.1f}us; cv::reduce "
                "UMat {}; Mat {}; wrong {}\n",
                row.clreduce_wall_us, cv_time(row.opencv.umat), cv_time(row.opencv.mat), row.opencv_wrong);
        }
        correct = correct && row.opencv_wrong == 0;
    }
    fmt::print(
        "/r-o: clreduce's GB/s (input: values, and offsets for listed segments; + output) over the read-only "
        "kernel's; CUB/cl: CUB's time over "
        "clreduce's (> 1: clreduce faster); loop: single-range calls, one per segment (device time); "
        "wrong: results off their bound (clreduce + CUB); matrices: wall times of synchronous calls beside "
        "cv::reduce (results on the host)\n");
    if (!o.json.empty()) {
        nlohmann::json doc = {{"device", device.name},
                              {"type", type_name(o.type)},
                              {"repeats", o.repeats},
                              {"seed", o.seed},
                              {"cub", cub},
                              {"rows", nlohmann::json::array()}};
        for (const Row& row : rows)
            doc["rows"].push_back({{"shape", row.shape},
                                   {"segments", row.segments},
                                   {"elements", row.elements},
                                   {"read_only_us", row.read_only_us},
                                   {"clreduce_us", row.clreduce_us},
                                   {"cub_us", row.cub_us},
                                   {"loop_us", row.loop_us},
                                   {"clreduce_wrong", row.clreduce_wrong},
                                   {"clreduce_wall_us", row.clreduce_wall_us},
                                   {"opencv_reduce_mat_us", row.opencv.mat.wall_us},
                                   {"opencv_reduce_umat_us", row.opencv.umat.wall_us},
                                   {"opencv_reduce_mat", row.opencv.mat.note},
                                   {"opencv_reduce_umat", row.opencv.umat.note},
                                   {"opencv_wrong", row.opencv_wrong},
                                   {"plan", row.plan}});
        std::ofstream(o.json) << doc.dump(2) << "\n";
    }
    if (!o.svg.empty()) {
        Plot plot;
        plot.title = fmt::format("Segmented {} sums on {}", type_name(o.type), device.name);
        plot.subtitle = "device time, median; regular shapes (S x L, matrix rows and columns)";
        plot.x_title = "segment length (elements)";
        plot.y_title = "GB/s (input + output)";
        plot.x_scale = AxisScale::log2;
        plot.y_scale = AxisScale::linear;
        plot.y_from_zero = true;
        Series ours{"clreduce", {}, palette_color(0)}, theirs{"CUB DeviceSegmentedReduce", {}, palette_color(1)},
            bound{"read-only kernel", {}, palette_color(2), true}, columns{"clreduce, columns", {}, palette_color(3)};
        for (const Row& row : rows) {
            // Regular shapes (SxL, rows:RxC): one point per segment length.
            if (row.segments == 0 || row.shape.find('x') == std::string::npos) continue;
            const double length = double(row.elements) / double(row.segments);
            if (row.shape.rfind("columns:", 0) == 0) {
                columns.points.emplace_back(length, gbps(row.bytes, row.clreduce_us));
                continue;
            }
            ours.points.emplace_back(length, gbps(row.bytes, row.clreduce_us));
            bound.points.emplace_back(length, gbps(row.elements * type_size(o.type), row.read_only_us));
            if (row.cub_us > 0) theirs.points.emplace_back(length, gbps(row.bytes, row.cub_us));
        }
        for (Series* series : {&ours, &columns, &theirs, &bound})
            std::sort(series->points.begin(), series->points.end());
        plot.series = {ours, columns, theirs, bound};
        write_svg(plot, o.svg);
    }
    return correct ? 0 : 1;
}

}  // namespace clreduce::perf
