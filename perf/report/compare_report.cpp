// The comparison as a table, CSV, JSON and a log-log SVG plot of time against n.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <nlohmann/json.hpp>

#include "report/compare_result.hpp"
#include "report/csv.hpp"
#include "report/output_files.hpp"
#include "report/svg_plot.hpp"

namespace clreduce::perf {

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::correct: return "correct";
        case Verdict::imprecise: return "imprecise";
        case Verdict::wrong: return "WRONG";
    }
    return "?";
}

const CompareRow* CompareResult::find(std::uint64_t n, const std::string& competitor) const {
    for (const CompareRow& r : rows)
        if (r.n == n && r.competitor == competitor && r.ran()) return &r;
    return nullptr;
}

std::optional<double> CompareResult::speedup_wall(const CompareRow& row) const {
    const CompareRow* base = find(row.n, "clreduce");
    if (!base || !row.ran() || !(base->wall_us > 0)) return std::nullopt;
    return row.wall_us / base->wall_us;
}

std::optional<double> CompareResult::speedup_device(const CompareRow& row) const {
    const CompareRow* base = find(row.n, "clreduce");
    if (!base || !row.ran() || !base->device_us || !row.device_us || !(*base->device_us > 0)) return std::nullopt;
    return *row.device_us / *base->device_us;
}

std::optional<double> ReadOnlyRow::gbps() const {
    if (!ran() || bytes == 0 || !(device_us > 0)) return std::nullopt;
    return double(bytes) / (device_us * 1e3);
}

const ReadOnlyRow* CompareResult::find_read_only(std::uint64_t n) const {
    for (const ReadOnlyRow& r : read_only)
        if (r.n == n && r.ran()) return &r;
    return nullptr;
}

std::optional<double> CompareResult::device_gbps(const CompareRow& row) const {
    if (!row.ran() || !row.device_us || !(*row.device_us > 0)) return std::nullopt;
    return double(row.n) * double(type_size(type)) / (*row.device_us * 1e3);
}

std::optional<double> CompareResult::wall_gbps(const CompareRow& row) const {
    if (!row.ran() || !(row.wall_us > 0)) return std::nullopt;
    return double(row.n) * double(type_size(type)) / (row.wall_us * 1e3);
}

std::optional<double> CompareResult::read_only_fraction(const CompareRow& row) const {
    const ReadOnlyRow* bound = find_read_only(row.n);
    const auto gbps = device_gbps(row);
    const auto bound_gbps = bound ? bound->gbps() : std::nullopt;
    if (!gbps || !bound_gbps) return std::nullopt;
    return *gbps / *bound_gbps;
}

bool CompareResult::clreduce_correct() const {
    if (std::none_of(competitors.begin(), competitors.end(),
                     [](const CompetitorInfo& c) { return c.name.rfind("clreduce", 0) == 0; }))
        return true;  // compare --only without any of clreduce's rows: nothing of clreduce to check
    bool any = false;
    for (const CompareRow& r : rows) {
        if (r.competitor.rfind("clreduce", 0) != 0) continue;
        any = true;
        if (r.competitor == "clreduce" && (!r.ran() || r.verdict != Verdict::correct)) return false;
        if (r.ran() && r.verdict == Verdict::wrong) return false;
    }
    return any;
}

namespace {

std::string optional_number(const std::optional<double>& v, const char* format) {
    return v ? fmt::format(fmt::runtime(format), *v) : std::string("-");
}

// Integers in full (64-bit sums are exact in a long double), others to double precision.
std::string value_text(long double v) {
    if (std::floor(v) == v && std::fabs(v) < 0x1p64L) return fmt::format("{:.0f}", v);
    return fmt::format("{:.17g}", static_cast<double>(v));
}

}  // namespace

std::optional<double> CompareResult::host_link_fraction(std::uint64_t n) const {
    const CompareRow* host = find(n, "clreduce-host");
    const CompareRow* pinned = find(n, "pinned write");
    if (!host || !pinned || !(host->wall_us > 0)) return std::nullopt;
    return pinned->wall_us / host->wall_us;
}

std::optional<double> CompareResult::host_bound_fraction(std::uint64_t n) const {
    const CompareRow* host = find(n, "clreduce-host");
    const CompareRow* pinned = find(n, "pinned write");
    const CompareRow* copy = find(n, "host copy");
    if (!host || !pinned || !copy || !(host->wall_us > 0) || !(pinned->wall_us > 0) || !(copy->wall_us > 0))
        return std::nullopt;
    return std::max(pinned->wall_us, copy->wall_us) / host->wall_us;
}

namespace {

// Host data: clreduce-host's GB/s (n * sizeof(T) / wall time) beside the link's (pinned and
// pageable writes), the host's copy into pinned chunks and the host's own read, per n;
// clreduce-host against the pinned write and against the slower of that and the host copy.
void print_host_data_summary(const CompareResult& r, std::ostream& out) {
    // The columns of the competitors that ran (compare --only may leave some out), each wide
    // enough for its name.
    std::vector<std::pair<std::string, std::size_t>> columns;
    for (const char* name : {"clreduce-host", "clreduce-host-device", "clreduce-pinned", "pinned write",
                             "pageable write", "host copy", "host read"})
        if (std::any_of(r.competitors.begin(), r.competitors.end(),
                        [&](const CompetitorInfo& c) { return c.name == name; }))
            columns.emplace_back(name, std::max<std::size_t>(16, std::char_traits<char>::length(name) + 2));
    bool any = false;
    for (std::uint64_t n : r.sizes)
        any = any || r.host_link_fraction(n).has_value() || (r.find(n, "clreduce-host") && r.find(n, "host read"));
    if (!any) return;
    fmt::print(out, "\nhost data, GB/s of the synchronous call (n * {} bytes / wall time):\n{:>11}", type_size(r.type),
               "n");
    for (const auto& [name, width] : columns) fmt::print(out, "{:>{}}", name, width);
    fmt::print(out, "{:>22}{:>16}{:>25}\n", "clreduce-host/pinned", "/slower", "host read/clreduce-host");
    for (std::uint64_t n : r.sizes) {
        fmt::print(out, "{:>11}", size_label(n));
        for (const auto& [name, width] : columns) {
            const CompareRow* row = r.find(n, name);
            fmt::print(out, "{:>{}}", row ? optional_number(r.wall_gbps(*row), "{:.2f}") : "-", width);
        }
        const CompareRow* host = r.find(n, "clreduce-host");
        const CompareRow* read = r.find(n, "host read");
        const std::optional<double> of_read =
            host && read && host->wall_us > 0 ? std::optional<double>(read->wall_us / host->wall_us) : std::nullopt;
        fmt::print(out, "{:>22}{:>16}{:>25}\n", optional_number(r.host_link_fraction(n), "{:.3f}"),
                   optional_number(r.host_bound_fraction(n), "{:.3f}"), optional_number(of_read, "{:.3f}"));
    }
}

// The other operations on host data ("clreduce-host <op>" rows): the same run's host read's
// wall time over each one's, per n (1: the operation at the speed of one pass over the bytes).
void print_host_operations_summary(const CompareResult& r, std::ostream& out) {
    std::vector<std::string> names;
    for (const CompetitorInfo& c : r.competitors)
        if ((c.name.rfind("clreduce-host ", 0) == 0 || c.name == "host statistics") && c.unavailable.empty())
            names.push_back(c.name);
    if (names.empty()) return;
    fmt::print(out, "\nhost data, other operations: host read's wall time / theirs\n{:>11}", "n");
    // clreduce's rows by their operation; host statistics by its name.
    for (const std::string& name : names)
        fmt::print(out, "{:>16}", name.rfind("clreduce-host ", 0) == 0 ? name.substr(14) : name);
    fmt::print(out, "\n");
    for (std::uint64_t n : r.sizes) {
        const CompareRow* read = r.find(n, "host read");
        fmt::print(out, "{:>11}", size_label(n));
        for (const std::string& name : names) {
            const CompareRow* row = r.find(n, name);
            const bool both = read && row && row->ran() && read->ran() && row->wall_us > 0;
            fmt::print(out, "{:>16}", both ? fmt::format("{:.3f}", read->wall_us / row->wall_us) : "-");
        }
        fmt::print(out, "\n");
    }
}

}  // namespace

void print_compare_table(const CompareResult& r, std::ostream& out) {
    const DeviceInfo& d = r.device;
    fmt::print(out, "clreduce-perf compare: {}, median of {} calls after a warm-up, seed {}\n", type_name(r.type),
               r.repeats, r.seed);
    fmt::print(out, "data: {}\n", r.data);
    fmt::print(out, "device: {} / {} ({} compute units, driver {})\n", d.platform_name, d.name, d.compute_units,
               d.driver_version);
    for (const std::string& why : r.dropped) fmt::print(out, "n = {} left out\n", why);
    fmt::print(out, "competitors:\n");
    for (const CompetitorInfo& c : r.competitors) {
        if (c.unavailable.empty())
            fmt::print(out, "  {:<9} {}\n", c.name, c.detail);
        else
            fmt::print(out, "  {:<9} skipped: {}\n", c.name, c.unavailable);
    }
    fmt::print(out, "  {:<9} perf/measure/read_only.cl's floor_read over the same buffer, {} (device time only)\n",
               "read-only", r.read_only_detail);
    fmt::print(
        out,
        "\nwall = synchronous call (launch + result on the host), timed in a loop of calls that do nothing else;\n"
        "device = kernel time from profiling events (CUB: cudaEvents), timed in a separate loop;\n"
        "GB/s = n * {} bytes / device time; of_read = that / the read-only kernel's GB/s at the same n;\n"
        "x = competitor time / clreduce time (above 1: clreduce is faster)\n\n",
        type_size(r.type));
    fmt::print(out, "{:>11} {:<9}{:>12}{:>12}{:>10}{:>9}{:>9}{:>9}  {:<10}{:>10}  {}\n", "n", "reduction", "wall_us",
               "device_us", "dev_GB/s", "of_read", "x wall", "x dev", "check", "rel.err", "result");
    std::uint64_t last_n = 0;
    for (const CompareRow& row : r.rows) {
        std::string n_text;
        if (row.n != last_n) {
            n_text = size_label(row.n);
            for (const ReadOnlyRow& b : r.read_only) {
                if (b.n != row.n) continue;
                if (b.ran())
                    fmt::print(out, "{:>11} {:<9}{:>12}{:>12.1f}{:>10}{:>9}{:>9}{:>9}  {:<10}{:>10}  reads {} bytes\n",
                               n_text, "read-only", "-", b.device_us, optional_number(b.gbps(), "{:.1f}"), "-", "-",
                               "-", "-", "-", b.bytes);
                else
                    fmt::print(out, "{:>11} {:<9}  failed: {}\n", n_text, "read-only", b.error);
                n_text.clear();
            }
        }
        last_n = row.n;
        if (!row.ran()) {
            fmt::print(out, "{:>11} {:<9}  failed: {}\n", n_text, row.competitor, row.error);
            continue;
        }
        if (row.copy) {
            fmt::print(out, "{:>11} {:<9}{:>12.1f}{:>12}{:>10}{:>9}{:>9}{:>9}  {:<10}{:>10}  {}\n", n_text,
                       row.competitor, row.wall_us, "-", "-", "-", optional_number(r.speedup_wall(row), "{:.3g}"), "-",
                       "copy", "-", optional_number(r.wall_gbps(row), "{:.1f} GB/s"));
            continue;
        }
        fmt::print(out, "{:>11} {:<9}{:>12.1f}{:>12}{:>10}{:>9}{:>9}{:>9}  {:<10}{:>10.1e}  {}\n", n_text,
                   row.competitor, row.wall_us, optional_number(row.device_us, "{:.1f}"),
                   optional_number(r.device_gbps(row), "{:.1f}"), optional_number(r.read_only_fraction(row), "{:.3f}"),
                   optional_number(r.speedup_wall(row), "{:.3g}"), optional_number(r.speedup_device(row), "{:.3g}"),
                   to_string(row.verdict), row.relative_error, value_text(row.value));
        if (row.verdict != Verdict::correct)
            fmt::print(out, "{:>21}{}: {}\n", "", row.verdict == Verdict::wrong ? "WRONG RESULT" : "low precision",
                       row.problem);
        if (!row.note.empty()) fmt::print(out, "{:>21}{}\n", "", row.note);
    }
    std::string fractions;
    for (const CompareRow& row : r.rows)
        if (row.competitor == "clreduce")
            if (const auto f = r.read_only_fraction(row))
                fractions += fmt::format("{}{} {:.3f}", fractions.empty() ? "" : ", ", size_label(row.n), *f);
    if (!fractions.empty()) fmt::print(out, "\nclreduce's device GB/s / the read-only kernel's: {}\n", fractions);
    print_host_data_summary(r, out);
    print_host_operations_summary(r, out);
    bool any_wrong = false;
    for (const CompareRow& row : r.rows) any_wrong = any_wrong || (row.ran() && row.verdict == Verdict::wrong);
    fmt::print(out, "\n{}{}\n",
               r.clreduce_correct() ? "clreduce: all results correct" : "clreduce: SOME RESULTS WERE WRONG",
               any_wrong ? "; SOME OTHER REDUCTIONS GAVE WRONG RESULTS (marked above)" : "");
}

void write_compare_csv(const CompareResult& r, const std::string& path) {
    auto out = open_output(path);
    const std::string type(type_name(r.type));
    out << "n,type,reduction,wall_us,device_us,device_gbps,read_only_fraction,speedup_wall,speedup_device,check,"
           "relative_error,result,problem,note,error\n";
    for (std::uint64_t n : r.sizes) {
        for (const ReadOnlyRow& b : r.read_only)
            if (b.n == n)
                out << csv_row({std::to_string(n), type, "read-only", "",
                                b.ran() ? fmt::format("{:.3f}", b.device_us) : "", optional_number(b.gbps(), "{:.3f}"),
                                "", "", "", b.ran() ? "n/a" : "failed", "", "", "",
                                fmt::format("floor_read, {}, {} bytes", r.read_only_detail, b.bytes), b.error});
        for (const CompareRow& row : r.rows)
            if (row.n == n)
                out << csv_row(
                    {std::to_string(n), type, row.competitor, row.ran() ? fmt::format("{:.3f}", row.wall_us) : "",
                     optional_number(row.device_us, "{:.3f}"), optional_number(r.device_gbps(row), "{:.3f}"),
                     optional_number(r.read_only_fraction(row), "{:.4f}"),
                     optional_number(r.speedup_wall(row), "{:.4f}"), optional_number(r.speedup_device(row), "{:.4f}"),
                     !row.ran() ? "failed"
                     : row.copy ? "copy"
                                : std::string(to_string(row.verdict)),
                     row.ran() ? fmt::format("{:.3e}", row.relative_error) : "", row.ran() ? value_text(row.value) : "",
                     row.problem, row.note, row.error});
    }
}

void write_compare_json(const CompareResult& r, const std::string& path) {
    nlohmann::json competitors = nlohmann::json::array();
    for (const CompetitorInfo& c : r.competitors) {
        nlohmann::json j = {{"name", c.name}, {"available", c.unavailable.empty()}};
        if (c.unavailable.empty())
            j["detail"] = c.detail;
        else
            j["skipped"] = c.unavailable;
        competitors.push_back(j);
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const CompareRow& row : r.rows) {
        nlohmann::json j = {{"n", row.n}, {"reduction", row.competitor}};
        if (!row.ran()) {
            j["error"] = row.error;
            rows.push_back(j);
            continue;
        }
        j["wall_us"] = row.wall_us;
        j["device_us"] = row.device_us ? nlohmann::json(*row.device_us) : nlohmann::json(nullptr);
        const auto sw = r.speedup_wall(row), sd = r.speedup_device(row);
        const auto gbps = r.device_gbps(row), fraction = r.read_only_fraction(row);
        j["device_gbps"] = gbps ? nlohmann::json(*gbps) : nlohmann::json(nullptr);
        j["read_only_fraction"] = fraction ? nlohmann::json(*fraction) : nlohmann::json(nullptr);
        j["speedup_wall"] = sw ? nlohmann::json(*sw) : nlohmann::json(nullptr);
        j["speedup_device"] = sd ? nlohmann::json(*sd) : nlohmann::json(nullptr);
        if (row.copy) {
            j["check"] = "copy";
            j["wall_gbps"] = *r.wall_gbps(row);
            if (!row.note.empty()) j["note"] = row.note;
            rows.push_back(j);
            continue;
        }
        if (row.competitor == "clreduce-host" || row.competitor == "clreduce-pinned" || row.competitor == "host read") {
            const auto gbps = r.wall_gbps(row);
            j["wall_gbps"] = gbps ? nlohmann::json(*gbps) : nlohmann::json(nullptr);
        }
        if (row.competitor == "clreduce-host") {
            const auto link = r.host_link_fraction(row.n);
            j["of_pinned_write"] = link ? nlohmann::json(*link) : nlohmann::json(nullptr);
            const auto bound = r.host_bound_fraction(row.n);
            j["of_slower_of_pinned_write_and_host_copy"] = bound ? nlohmann::json(*bound) : nlohmann::json(nullptr);
        }
        j["check"] = to_string(row.verdict) == "WRONG" ? "wrong" : std::string(to_string(row.verdict));
        j["correct"] = row.verdict == Verdict::correct;
        j["relative_error"] = row.relative_error;
        if (is_floating(r.type))
            j["result"] = static_cast<double>(row.value);
        else if (row.value < 0)
            j["result"] = static_cast<std::int64_t>(row.value);  // exact: long double holds 64-bit integers
        else
            j["result"] = static_cast<std::uint64_t>(row.value);
        if (!row.problem.empty()) j["problem"] = row.problem;
        if (!row.note.empty()) j["note"] = row.note;
        rows.push_back(j);
    }
    nlohmann::json read_only = nlohmann::json::array();
    for (const ReadOnlyRow& b : r.read_only) {
        nlohmann::json j = {{"n", b.n}, {"bytes", b.bytes}};
        if (b.ran()) {
            j["device_us"] = b.device_us;
            const auto gbps = b.gbps();
            j["device_gbps"] = gbps ? nlohmann::json(*gbps) : nlohmann::json(nullptr);
        } else {
            j["error"] = b.error;
        }
        read_only.push_back(j);
    }
    const nlohmann::json doc = {
        {"command", "compare"},
        {"device", device_json(r.device)},
        {"type", type_name(r.type)},
        {"repeats", r.repeats},
        {"seed", r.seed},
        {"data", r.data},
        {"sizes", r.sizes},
        {"dropped", r.dropped},
        {"competitors", competitors},
        {"results", rows},
        {"read_only",
         {{"kernel", "floor_read (perf/measure/read_only.cl)"}, {"launch", r.read_only_detail}, {"rows", read_only}}},
        {"clreduce_correct", r.clreduce_correct()}};
    open_output(path) << doc.dump(2) << "\n";
}

void write_compare_svg(const CompareResult& r, const std::string& path) {
    Plot plot;
    plot.title = fmt::format("clreduce and other sums on {}", r.device.name);
    plot.subtitle = fmt::format("{}; {}; median of {} calls; solid: synchronous call, dashed: device time",
                                type_name(r.type), r.device.platform_name, r.repeats);
    plot.x_title = "n (elements, log\u2082 scale)";
    plot.y_title = "time (\u00b5s, log scale)";
    plot.x_scale = AxisScale::log2;
    plot.y_scale = AxisScale::log10;
    plot.highlight_legend = "imprecise (float accumulation)";
    const Series::Marker markers[] = {Series::Marker::circle, Series::Marker::square, Series::Marker::triangle,
                                      Series::Marker::diamond};
    std::size_t index = 0;
    for (const CompetitorInfo& c : r.competitors) {
        if (!c.unavailable.empty()) continue;
        Series wall, device;
        wall.name = c.name + " (call)";
        device.name = c.name + " (device)";
        wall.color = device.color = palette_color(index);
        wall.marker = device.marker = markers[index % 4];
        device.dashed = true;
        ++index;
        for (const CompareRow& row : r.rows) {
            if (row.competitor != c.name || !row.ran()) continue;
            wall.points.emplace_back(double(row.n), row.wall_us);
            if (row.device_us) device.points.emplace_back(double(row.n), *row.device_us);
            if (row.verdict == Verdict::wrong) plot.wrong.emplace_back(double(row.n), row.wall_us);
            if (row.verdict == Verdict::imprecise)
                plot.highlights.push_back({double(row.n), row.wall_us, "", "#ff7f0e"});
        }
        if (!wall.points.empty()) plot.series.push_back(std::move(wall));
        if (!device.points.empty()) plot.series.push_back(std::move(device));
    }
    Series bound;
    bound.name = "read-only kernel (device)";
    bound.color = "#7f7f7f";
    bound.dashed = true;
    bound.marker = Series::Marker::diamond;
    for (const ReadOnlyRow& b : r.read_only)
        if (b.ran() && b.device_us > 0) bound.points.emplace_back(double(b.n), b.device_us);
    if (!bound.points.empty()) plot.series.push_back(std::move(bound));
    write_svg(plot, path);
}

}  // namespace clreduce::perf
