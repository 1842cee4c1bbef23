#include "report/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <fmt/format.h>
#include <clreduce/error.hpp>

namespace clreduce::perf {
namespace {

std::string superscript(int k) {
    static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string out = k < 0 ? "⁻" : "";
    for (char c : std::to_string(std::abs(k))) out += digits[c - '0'];
    return out;
}

std::string plain_number(double v) { return fmt::format("{:g}", v); }

AxisTicks linear_ticks(double lo, double hi) {
    if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
    const double raw = (hi - lo) / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / magnitude;
    const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
    AxisTicks t;
    t.lo = std::floor(lo / step + 1e-9) * step;
    t.hi = std::ceil(hi / step - 1e-9) * step;
    for (double v = t.lo; v <= t.hi + step / 2; v += step) {
        const double clean = std::fabs(v) < step / 1e6 ? 0.0 : v;
        t.ticks.push_back({clean, plain_number(clean)});
    }
    return t;
}

AxisTicks log2_ticks(double lo, double hi) {
    int a = static_cast<int>(std::floor(std::log2(lo) + 1e-9));
    int b = static_cast<int>(std::ceil(std::log2(hi) - 1e-9));
    if (b <= a) b = a + 1;
    const bool exponents = b >= 14;
    const int every = std::max(1, (b - a + 19) / 20);  // at most about 20 labels
    AxisTicks t;
    t.lo = std::ldexp(1.0, a);
    t.hi = std::ldexp(1.0, b);
    for (int k = a; k <= b; ++k) {
        if ((k - a) % every != 0) continue;
        const double v = std::ldexp(1.0, k);
        t.ticks.push_back({v, exponents ? "2" + superscript(k) : plain_number(v)});
    }
    return t;
}

// Log10 axes end on the nearest 1-2-5 values around the data (not whole decades, which would
// leave most of a short range empty).
AxisTicks log10_ticks(double lo, double hi) {
    auto below = [](double v) {
        const double decade = std::pow(10.0, std::floor(std::log10(v) + 1e-9));
        for (double m : {5.0, 2.0, 1.0})
            if (m * decade <= v * (1 + 1e-9)) return m * decade;
        return decade;
    };
    auto above = [](double v) {
        const double decade = std::pow(10.0, std::floor(std::log10(v) - 1e-9));
        for (double m : {1.0, 2.0, 5.0, 10.0})
            if (m * decade >= v * (1 - 1e-9)) return m * decade;
        return 10 * decade;
    };
    AxisTicks t;
    t.lo = below(lo);
    t.hi = above(hi);
    if (!(t.hi > t.lo)) t.hi = above(t.lo * 1.5);
    const bool minor = std::log10(t.hi / t.lo) <= 2.01;
    auto label = [](double v, int k) { return (k >= -2 && k <= 3) ? plain_number(v) : "10" + superscript(k); };
    const int a = static_cast<int>(std::floor(std::log10(t.lo) + 1e-9));
    const int b = static_cast<int>(std::floor(std::log10(t.hi) + 1e-9));
    for (int k = a; k <= b; ++k) {
        const double decade = std::pow(10.0, k);
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * decade;
            if (v < t.lo * (1 - 1e-9) || v > t.hi * (1 + 1e-9) || (m != 1.0 && !minor)) continue;
            t.ticks.push_back({v, m == 1.0 ? label(v, k) : (k >= -2 && k <= 2 ? plain_number(v) : "")});
        }
    }
    return t;
}

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// Maps data values to pixels along one axis.
struct Scale {
    AxisScale kind;
    double lo, hi;  // data range (ticks' range)
    double p0, p1;  // pixels of lo and hi
    double operator()(double v) const {
        auto f = [&](double x) { return kind == AxisScale::linear ? x : std::log(x); };
        return p0 + (f(v) - f(lo)) / (f(hi) - f(lo)) * (p1 - p0);
    }
};

std::string marker_svg(Series::Marker marker, double x, double y, const std::string& color) {
    switch (marker) {
        case Series::Marker::square:
            return fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="7" height="7" fill="{}"/>)", x - 3.5, y - 3.5,
                               color);
        case Series::Marker::triangle:
            return fmt::format(R"(<path d="M{:.1f},{:.1f} l4.5,8 h-9 z" fill="{}"/>)", x, y - 5, color);
        case Series::Marker::diamond:
            return fmt::format(R"(<path d="M{:.1f},{:.1f} l4.5,4.5 l-4.5,4.5 l-4.5,-4.5 z" fill="{}"/>)", x, y - 4.5,
                               color);
        case Series::Marker::circle:
        default: return fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"/>)", x, y, color);
    }
}

std::string cross_svg(double x, double y) {
    return fmt::format(
        R"(<path d="M{0:.1f},{1:.1f} l12,12 M{2:.1f},{1:.1f} l-12,12" stroke="#d00000" stroke-width="3"/>)", x - 6,
        y - 6, x + 6);
}

}  // namespace

AxisTicks axis_ticks(AxisScale scale, double lo, double hi) {
    if (lo > hi) std::swap(lo, hi);
    if (scale == AxisScale::linear) return linear_ticks(lo, hi);
    if (!(lo > 0)) throw InvalidArgument("a log axis needs positive values");
    return scale == AxisScale::log2 ? log2_ticks(lo, hi) : log10_ticks(lo, hi);
}

std::string palette_color(std::size_t index) {
    static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                   "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    return colors[index % 10];
}

std::string render_svg(const Plot& plot) {
    constexpr double width = 980, height = 600;
    constexpr double left = 95, right = 700, top = 78, bottom = 520;

    double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
    auto take = [&](double x, double y) {
        if (plot.x_scale != AxisScale::linear && !(x > 0)) return;
        if (plot.y_scale != AxisScale::linear && !(y > 0)) return;
        if (!std::isfinite(x) || !std::isfinite(y)) return;
        x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    };
    for (const auto& s : plot.series)
        for (auto [x, y] : s.points) take(x, y);
    for (auto [x, y] : plot.wrong) take(x, y);
    if (!std::isfinite(x_lo)) x_lo = 1, x_hi = 2, y_lo = 1, y_hi = 2;  // nothing to draw
    if (plot.y_scale == AxisScale::linear) {
        if (plot.y_from_zero) y_lo = std::min(0.0, y_lo);
        y_hi += (y_hi - y_lo) * 0.06;  // room for the highlight labels
    }
    const AxisTicks xt = axis_ticks(plot.x_scale, x_lo, x_hi);
    const AxisTicks yt = axis_ticks(plot.y_scale, y_lo, y_hi);
    const Scale sx{plot.x_scale, xt.lo, xt.hi, left, right};
    const Scale sy{plot.y_scale, yt.lo, yt.hi, bottom, top};

    std::string svg = fmt::format(
        R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="{2}" y="30" text-anchor="middle" font-size="17" font-weight="bold">{3}</text>
<text x="{2}" y="52" text-anchor="middle" font-size="13" fill="#444">{4}</text>
)",
        width, height, (left + right) / 2, escape(plot.title), escape(plot.subtitle));

    // Grid, ticks and tick labels.
    svg += "<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n";
    for (const Tick& t : xt.ticks)
        svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}"/>)", sx(t.value), top, bottom) + "\n";
    for (const Tick& t : yt.ticks)
        svg += fmt::format(R"(<line x1="{1}" y1="{0:.1f}" x2="{2}" y2="{0:.1f}"/>)", sy(t.value), left, right) + "\n";
    svg += "</g>\n<g class=\"ticks\" font-size=\"12\" fill=\"#222\">\n";
    for (const Tick& t : xt.ticks)
        if (!t.label.empty())
            svg += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)", sx(t.value), bottom + 18,
                               escape(t.label)) +
                   "\n";
    for (const Tick& t : yt.ticks)
        if (!t.label.empty())
            svg += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="end">{}</text>)", left - 8, sy(t.value) + 4,
                               escape(t.label)) +
                   "\n";
    svg += "</g>\n";
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333"/>)", left, top,
                       right - left, bottom - top) +
           "\n";
    svg += fmt::format(R"(<text class="x-title" x="{}" y="{}" text-anchor="middle" font-size="14">{}</text>)",
                       (left + right) / 2, bottom + 46, escape(plot.x_title)) +
           "\n";
    svg +=
        fmt::format(
            R"svg(<text class="y-title" x="{0}" y="{1}" text-anchor="middle" font-size="14" transform="rotate(-90 {0} {1})">{2}</text>)svg",
            left - 62, (top + bottom) / 2, escape(plot.y_title)) +
        "\n";

    // Curves.
    svg += "<g class=\"series\">\n";
    for (const Series& s : plot.series) {
        std::string points;
        for (auto [x, y] : s.points) points += fmt::format("{:.1f},{:.1f} ", sx(x), sy(y));
        svg += fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="2"{} points="{}"/>)", s.color,
                           s.dashed ? R"( stroke-dasharray="7,4")" : "", points) +
               "\n";
        for (auto [x, y] : s.points) svg += marker_svg(s.marker, sx(x), sy(y), s.color) + "\n";
    }
    svg += "</g>\n";
    std::vector<std::pair<double, double>> placed;  // label positions so far, to keep labels apart
    for (const Highlight& h : plot.highlights) {
        svg +=
            fmt::format(
                R"(<circle class="highlight" cx="{:.1f}" cy="{:.1f}" r="9" fill="none" stroke="{}" stroke-width="2.5"/>)",
                sx(h.x), sy(h.y), h.color) +
            "\n";
        if (h.label.empty()) continue;
        double ly = sy(h.y) - 13;
        for (bool moved = true; moved;) {
            moved = false;
            for (auto [px, py] : placed)
                if (std::fabs(px - sx(h.x)) < 60 && std::fabs(py - ly) < 12) ly = py - 13, moved = true;
        }
        placed.emplace_back(sx(h.x), ly);
        svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" font-size="11" fill="{}">{}</text>)",
                           sx(h.x), ly, h.color, escape(h.label)) +
               "\n";
    }
    for (auto [x, y] : plot.wrong) svg += cross_svg(sx(x), sy(y)) + "\n";

    // Legend, right of the plot.
    double ly = top + 8;
    svg += "<g class=\"legend\" font-size=\"12\">\n";
    for (const Series& s : plot.series) {
        svg += fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="{}" stroke-width="2"{}/>)",
                           right + 18, ly, right + 52, ly, s.color, s.dashed ? R"( stroke-dasharray="7,4")" : "") +
               "\n";
        svg += marker_svg(s.marker, right + 35, ly, s.color) + "\n";
        svg += fmt::format(R"(<text x="{}" y="{:.1f}">{}</text>)", right + 60, ly + 4, escape(s.name)) + "\n";
        ly += 20;
    }
    if (!plot.highlights.empty() && !plot.highlight_legend.empty()) {
        svg += fmt::format(R"(<circle cx="{}" cy="{:.1f}" r="7" fill="none" stroke="{}" stroke-width="2"/>)",
                           right + 35, ly,
                           plot.highlights.size() == 1 || plot.highlight_legend_color.empty()
                               ? plot.highlights.front().color
                               : plot.highlight_legend_color) +
               "\n";
        svg += fmt::format(R"(<text x="{}" y="{:.1f}">{}</text>)", right + 60, ly + 4, escape(plot.highlight_legend)) +
               "\n";
        ly += 20;
    }
    if (!plot.wrong.empty()) {
        svg += cross_svg(right + 35, ly) + "\n";
        svg += fmt::format(R"(<text x="{}" y="{:.1f}" fill="#d00000" font-weight="bold">wrong result</text>)",
                           right + 60, ly + 4) +
               "\n";
    }
    svg += "</g>\n</svg>\n";
    return svg;
}

void write_svg(const Plot& plot, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    out << render_svg(plot);
    if (!out) throw Error("cannot write " + path);
}

}  // namespace clreduce::perf
