// The perf tool's plot writer: axis ranges and tick labels, and what an SVG holds.
#include <catch2/catch.hpp>

#include <clreduce/error.hpp>

#include "report/svg_plot.hpp"

using namespace clreduce::perf;

namespace {

std::vector<double> values(const AxisTicks& t) {
    std::vector<double> v;
    for (const Tick& tick : t.ticks) v.push_back(tick.value);
    return v;
}

std::vector<std::string> labels(const AxisTicks& t) {
    std::vector<std::string> v;
    for (const Tick& tick : t.ticks) v.push_back(tick.label);
    return v;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("linear axes get whole 1-2-5 steps covering the data", "[plot]") {
    const AxisTicks a = axis_ticks(AxisScale::linear, 0, 23.4);
    CHECK(a.lo == 0);
    CHECK(a.hi == 25);
    CHECK(values(a) == std::vector<double>{0, 5, 10, 15, 20, 25});
    const AxisTicks b = axis_ticks(AxisScale::linear, 1200, 3173);
    CHECK(b.lo == 1000);
    CHECK(b.hi == 3500);
    CHECK(labels(b).front() == "1000");
    CHECK(labels(b).back() == "3500");
    const AxisTicks c = axis_ticks(AxisScale::linear, -0.3, 0.3);
    CHECK(c.lo == Approx(-0.3));
    CHECK(c.hi == Approx(0.3));
    CHECK(labels(c)[3] == "0");                                  // no -1.1e-17 from the running sum
    const AxisTicks flat = axis_ticks(AxisScale::linear, 7, 7);  // one value still gets a range
    CHECK(flat.lo <= 7);
    CHECK(flat.hi > 7);
}

TEST_CASE("log2 axes tick powers of two, as 2^k once they reach 2^14", "[plot]") {
    const AxisTicks times = axis_ticks(AxisScale::log2, 1, 1024);
    CHECK(times.lo == 1);
    CHECK(times.hi == 1024);
    CHECK(labels(times) == std::vector<std::string>{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"});
    const AxisTicks between = axis_ticks(AxisScale::log2, 3, 100);
    CHECK(between.lo == 2);
    CHECK(between.hi == 128);
    const AxisTicks sizes = axis_ticks(AxisScale::log2, 1024, 268435456);
    CHECK(sizes.lo == 1024);
    CHECK(sizes.hi == 268435456);
    CHECK(sizes.ticks.front().label == "2¹⁰");
    CHECK(sizes.ticks.back().label == "2²⁸");
    CHECK(sizes.ticks.size() == 19);
    // Long ranges label every k-th power so that the labels do not collide.
    const AxisTicks wide = axis_ticks(AxisScale::log2, 1, std::ldexp(1.0, 40));
    CHECK(wide.ticks.size() <= 21);
    CHECK(wide.ticks.front().value == 1);
    CHECK_THROWS_AS(axis_ticks(AxisScale::log2, 0, 8), clreduce::InvalidArgument);
}

TEST_CASE("log10 axes end on 1-2-5 values around the data and tick decades", "[plot]") {
    const AxisTicks wide = axis_ticks(AxisScale::log10, 0.19, 15832);
    CHECK(wide.lo == Approx(0.1));
    CHECK(wide.hi == Approx(2e4));
    CHECK(labels(wide) == std::vector<std::string>{"0.1", "1", "10", "100", "1000", "10⁴"});
    // At most two decades: 2 and 5 between, so a short range still has several ticks.
    const AxisTicks narrow = axis_ticks(AxisScale::log10, 21, 207);
    CHECK(narrow.lo == 20);
    CHECK(narrow.hi == 500);
    CHECK(values(narrow) == std::vector<double>{20, 50, 100, 200, 500});
    const AxisTicks exact = axis_ticks(AxisScale::log10, 100, 1000);
    CHECK(exact.lo == 100);
    CHECK(exact.hi == 1000);
    const AxisTicks one = axis_ticks(AxisScale::log10, 42, 42);
    CHECK(one.lo < 42);
    CHECK(one.hi > 42);
    CHECK_THROWS_AS(axis_ticks(AxisScale::log10, -1, 8), clreduce::InvalidArgument);
}

TEST_CASE("an SVG plot holds its title, axes, curves, legend and marks", "[plot]") {
    Plot plot;
    plot.title = "sweep on <device> & co";
    plot.x_title = "times";
    plot.y_title = "GB/s";
    plot.x_scale = AxisScale::log2;
    plot.series.push_back({"global", {{1, 2}, {2, 4}, {4, 3}}, "#1f77b4", false, Series::Marker::circle});
    plot.series.push_back({"local", {{1, 1}, {2, 5}, {4, 2}}, "#d62728", true, Series::Marker::square});
    plot.highlights.push_back({2, 5, "times 2", "#d62728"});
    plot.highlight_legend = "inflection point";
    plot.wrong.emplace_back(4, 2);
    const std::string svg = render_svg(plot);
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count(svg, "<svg ") == 1);
    CHECK(count(svg, "</svg>") == 1);
    CHECK(count(svg, "sweep on &lt;device&gt; &amp; co") == 1);
    CHECK(count(svg, "<polyline") == 2);
    CHECK(count(svg, "stroke-dasharray") == 2);  // the local curve and its legend line
    CHECK(count(svg, "class=\"highlight\"") == 1);
    CHECK(count(svg, ">times 2<") == 1);
    CHECK(count(svg, ">wrong result<") == 1);
    CHECK(count(svg, ">global<") == 1);
    CHECK(count(svg, ">local<") == 1);
    CHECK(count(svg, ">inflection point<") == 1);
}
