// The sweep's result as a table, CSV, JSON and an SVG plot (the paper's Figures 7, 9, 10).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <nlohmann/json.hpp>

#include "report/csv.hpp"
#include "report/svg_plot.hpp"
#include "report/sweep_result.hpp"

namespace clreduce::perf {

const SweepPoint* SweepResult::inflection(std::uint64_t n, Stride stride) const {
    const SweepPoint* best = nullptr;
    for (const SweepPoint& p : points)
        if (p.n == n && p.stride == stride && p.ran() && (!best || p.kernel_us < best->kernel_us)) best = &p;
    return best;
}

bool SweepResult::all_correct() const {
    for (const SweepPoint& p : points)
        if (!p.correct()) return false;
    return true;
}

void print_sweep_table(const SweepResult& r, std::ostream& out) {
    const DeviceInfo& d = r.device;
    fmt::print(out, "clreduce-perf sweep: {}, {} timed runs per point after a warm-up, seed {}\n", type_name(r.type),
               r.repeats, r.seed);
    fmt::print(out, "data: {}\n", r.data);
    fmt::print(out, "device: {} / {} ({} compute units, driver {})\n", d.platform_name, d.name, d.compute_units,
               d.driver_version);
    for (std::size_t i = 0; i < r.sizes.size(); ++i) {
        const std::uint64_t n = r.sizes[i];
        fmt::print(out, "\nn = {} ({}, {:.1f} MiB); reference: {}\n", n, size_label(n),
                   double(n) * type_size(r.type) / (1 << 20), r.references.at(i));
        fmt::print(out, "{:<7}{:>6}{:>10}{:>5}{:>5}{:>13}{:>13}{:>12}{:>10}{:>9}\n", "stride", "times", "groups", "wg",
                   "vec", "level3", "kernel_us", "call_us", "GB/s", "correct");
        for (const SweepPoint& p : r.points) {
            if (p.n != n) continue;
            if (!p.ran()) {
                fmt::print(out, "{:<7}{:>6}  skipped: {}\n", to_string(p.stride), p.times, p.skipped);
                continue;
            }
            fmt::print(out, "{:<7}{:>6}{:>10}{:>5}{:>5}{:>13}{:>13.1f}{:>12.1f}{:>10.1f}{:>9}\n", to_string(p.stride),
                       p.times, p.plan.groups, p.plan.work_group_size, p.plan.vector_width,
                       to_string(p.plan.inter_group), p.kernel_us, p.call_us, p.gbps, p.correct() ? "yes" : "NO");
            if (!p.correct()) fmt::print(out, "        WRONG RESULT: {}\n", p.problem);
        }
        fmt::print(out, "inflection point (fastest median kernel time per stride):\n");
        for (Stride stride : {Stride::global, Stride::local}) {
            const SweepPoint* best = r.inflection(n, stride);
            if (!best) continue;
            const SweepPoint* best_call = nullptr;
            for (const SweepPoint& p : r.points)
                if (p.n == n && p.stride == stride && p.ran() && (!best_call || p.call_us < best_call->call_us))
                    best_call = &p;
            fmt::print(out, "  {:<7}times = {}  ({:.1f} us, {:.1f} GB/s); fastest call: times = {} ({:.1f} us)\n",
                       to_string(stride), best->times, best->kernel_us, best->gbps, best_call->times,
                       best_call->call_us);
        }
    }
    fmt::print(out, "\n{}\n", r.all_correct() ? "all results correct" : "SOME RESULTS WERE WRONG");
}

void write_sweep_csv(const SweepResult& r, const std::string& path) {
    auto out = open_output(path);
    out << "n,type,stride,times,groups,work_group_size,vector_width,inter_group,kernel_us,call_us,gbps,correct,problem,"
           "skipped\n";
    for (const SweepPoint& p : r.points) {
        out << csv_row(
            {std::to_string(p.n), std::string(type_name(r.type)), std::string(to_string(p.stride)),
             std::to_string(p.times), p.ran() ? std::to_string(p.plan.groups) : "",
             p.ran() ? std::to_string(p.plan.work_group_size) : "", p.ran() ? std::to_string(p.plan.vector_width) : "",
             p.ran() ? std::string(to_string(p.plan.inter_group)) : "",
             p.ran() ? fmt::format("{:.3f}", p.kernel_us) : "", p.ran() ? fmt::format("{:.3f}", p.call_us) : "",
             p.ran() ? fmt::format("{:.3f}", p.gbps) : "", p.correct() ? "yes" : "no", p.problem, p.skipped});
    }
}

void write_sweep_json(const SweepResult& r, const std::string& path) {
    nlohmann::json points = nlohmann::json::array();
    for (const SweepPoint& p : r.points) {
        nlohmann::json j = {{"n", p.n}, {"stride", to_string(p.stride)}, {"times", p.times}, {"correct", p.correct()}};
        if (!p.correct()) j["problem"] = p.problem;
        if (!p.ran()) {
            j["skipped"] = p.skipped;
        } else {
            j["plan"] = {{"groups", p.plan.groups},
                         {"work_group_size", p.plan.work_group_size},
                         {"vector_width", p.plan.vector_width},
                         {"inter_group", to_string(p.plan.inter_group)},
                         {"accumulator", type_name(p.plan.accumulator)}};
            j["kernel_us"] = p.kernel_us;
            j["call_us"] = p.call_us;
            j["gbps"] = p.gbps;
        }
        points.push_back(j);
    }
    nlohmann::json inflections = nlohmann::json::array();
    for (std::uint64_t n : r.sizes)
        for (Stride stride : {Stride::global, Stride::local})
            if (const SweepPoint* best = r.inflection(n, stride))
                inflections.push_back({{"n", n},
                                       {"stride", to_string(stride)},
                                       {"times", best->times},
                                       {"kernel_us", best->kernel_us},
                                       {"gbps", best->gbps}});
    const nlohmann::json doc = {{"command", "sweep"},
                                {"device", device_json(r.device)},
                                {"type", type_name(r.type)},
                                {"repeats", r.repeats},
                                {"seed", r.seed},
                                {"data", r.data},
                                {"sizes", r.sizes},
                                {"points", points},
                                {"inflection", inflections},
                                {"all_correct", r.all_correct()}};
    open_output(path) << doc.dump(2) << "\n";
}

void write_sweep_svg(const SweepResult& r, PlotY y, const std::string& path) {
    Plot plot;
    std::string sizes;
    for (std::uint64_t n : r.sizes) sizes += (sizes.empty() ? "" : ", ") + size_label(n);
    plot.title = fmt::format("clreduce times sweep on {}", r.device.name);
    plot.subtitle =
        fmt::format("{}, n = {}; {}; median of {} runs", type_name(r.type), sizes, r.device.platform_name, r.repeats);
    plot.x_title = "times (vectors each work-item accumulates; log\u2082 scale)";
    plot.x_scale = AxisScale::log2;
    if (y == PlotY::gbps) {
        plot.y_title = "bandwidth (GB/s, from median kernel time)";
        plot.y_scale = AxisScale::linear;
        plot.y_from_zero = true;
    } else {
        plot.y_title = "median kernel time (\u00b5s, log scale)";
        plot.y_scale = AxisScale::log10;
    }
    plot.highlight_legend = "inflection point (fastest times)";
    plot.highlight_legend_color = "#333333";
    auto value = [&](const SweepPoint& p) { return y == PlotY::gbps ? p.gbps : p.kernel_us; };
    for (std::size_t i = 0; i < r.sizes.size(); ++i) {
        const std::uint64_t n = r.sizes[i];
        for (Stride stride : {Stride::global, Stride::local}) {
            Series s;
            s.name = fmt::format("n = {}, {} stride", size_label(n), to_string(stride));
            s.color = palette_color(2 * i + (stride == Stride::local ? 1 : 0));
            s.dashed = stride == Stride::local;
            s.marker = stride == Stride::local ? Series::Marker::square : Series::Marker::circle;
            for (const SweepPoint& p : r.points) {
                if (p.n != n || p.stride != stride || !p.ran()) continue;
                s.points.emplace_back(p.times, value(p));
                if (!p.correct()) plot.wrong.emplace_back(p.times, value(p));
            }
            if (s.points.empty()) continue;
            if (const SweepPoint* best = r.inflection(n, stride))
                plot.highlights.push_back(
                    {double(best->times), value(*best), fmt::format("times {}", best->times), s.color});
            plot.series.push_back(std::move(s));
        }
    }
    write_svg(plot, path);
}

}  // namespace clreduce::perf
