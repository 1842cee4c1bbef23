#pragma once
// A small line-plot writer for the perf tool's pictures: log or linear axes with tick labels,
// axis titles, a legend, highlighted points (the inflection point) and wrong results marked.
#include <string>
#include <utility>
#include <vector>

namespace clreduce::perf {

enum class AxisScale { linear, log2, log10 };

struct Tick {
    double value = 0;
    std::string label;
};

// An axis range widened to whole ticks, and the ticks on it.
struct AxisTicks {
    double lo = 0;
    double hi = 1;
    std::vector<Tick> ticks;
};

// Ticks covering [lo, hi]: linear axes get 1-2-5 steps, log2 axes powers of two (labelled
// 2^k once the axis reaches 2^14, plain numbers below), log10 axes run between the nearest
// 1-2-5 values around the data with ticks at decades (and at 2 and 5 when the range spans at
// most two decades). Log axes need lo > 0.
AxisTicks axis_ticks(AxisScale scale, double lo, double hi);

struct Series {
    std::string name;
    std::vector<std::pair<double, double>> points;  // (x, y), in data units
    std::string color;                              // any SVG colour
    bool dashed = false;
    enum class Marker { circle, square, triangle, diamond } marker = Marker::circle;
};

// A point drawn with a ring and a label, e.g. the inflection point of a curve.
struct Highlight {
    double x = 0;
    double y = 0;
    std::string label;
    std::string color;
};

struct Plot {
    std::string title;
    std::string subtitle;
    std::string x_title;  // with its unit, e.g. "times (vectors per work-item)"
    std::string y_title;
    AxisScale x_scale = AxisScale::linear;
    AxisScale y_scale = AxisScale::linear;
    bool y_from_zero = false;  // linear y axes: start at 0
    std::vector<Series> series;
    std::vector<Highlight> highlights;
    std::string highlight_legend;                  // legend text of the highlight ring
    std::string highlight_legend_color;            // its ring's colour (default: the first highlight's)
    std::vector<std::pair<double, double>> wrong;  // results that failed their check
};

// The n-th colour of a palette that stays distinguishable for about ten series.
std::string palette_color(std::size_t index);

std::string render_svg(const Plot& plot);
// Throws Error when the file cannot be written.
void write_svg(const Plot& plot, const std::string& path);

}  // namespace clreduce::perf
