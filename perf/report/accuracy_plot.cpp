#include "report/accuracy_plot.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include <clreduce/error.hpp>

#include "report/svg_plot.hpp"

namespace clreduce::perf {

void write_accuracy_svg(const nlohmann::json& report, const std::string& dataset, const std::string& path) {
    // One series per (type, method) in the order met; a method's first row of a data set is its
    // default accumulator (the report lists the float32 accumulator's rows after).
    std::vector<std::pair<std::string, std::string>> order;  // (type, method)
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<double, double>>> points;
    for (const auto& set : report.at("datasets")) {
        if (set.at("dataset") != dataset) continue;
        const std::string type = set.at("type");
        const double n = set.at("n");
        std::vector<std::string> seen;
        auto add = [&](const std::string& method, double us) {
            if (us <= 0 || std::find(seen.begin(), seen.end(), method) != seen.end()) return;
            seen.push_back(method);
            const auto key = std::make_pair(type, method);
            if (points.find(key) == points.end()) order.push_back(key);
            points[key].emplace_back(n, us);
        };
        for (const auto& row : set.at("results"))
            if (row.contains("median_kernel_us")) add(row.at("method"), row.at("median_kernel_us"));
        add("read-only kernel", set.value("read_only_kernel_us", 0.0));
    }
    if (order.empty()) throw Error("accuracy: no timed results of data set '" + dataset + "' to plot");

    Plot plot;
    plot.title = "Float sum modes on " + report.value("device", std::string("?")) + ": device time";
    plot.subtitle = "data set " + dataset + ", medians of " + std::to_string(report.value("repeats", 0)) +
                    " runs; solid: float32 data, dashed: float64 data";
    plot.x_title = "n (elements)";
    plot.y_title = "kernel time (us)";
    plot.x_scale = AxisScale::log2;
    plot.y_scale = AxisScale::log10;
    // A colour per method, shared by both types.
    std::vector<std::string> methods;
    for (const auto& [type, method] : order)
        if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
    for (const auto& key : order) {
        const auto& [type, method] = key;
        Series s;
        s.name = type + " " + (method.rfind("clreduce ", 0) == 0 ? method.substr(9) : method);
        s.points = points[key];
        std::sort(s.points.begin(), s.points.end());
        const auto index = std::size_t(std::find(methods.begin(), methods.end(), method) - methods.begin());
        s.color = method == "read-only kernel" ? "#888888" : palette_color(index);
        s.dashed = type == "float64";
        s.marker = type == "float64" ? Series::Marker::square : Series::Marker::circle;
        plot.series.push_back(std::move(s));
    }
    write_svg(plot, path);
}

}  // namespace clreduce::perf
