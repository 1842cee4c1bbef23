#include "reference/segment_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace clreduce::testing {
namespace {

std::uint64_t number(const std::string& text, const std::string& shape) {
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw std::invalid_argument("segment shape '" + shape + "': '" + text + "' is not a number");
    return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + 1)
        parts.push_back(s.substr(start, at - start));
    parts.push_back(s.substr(start));
    return parts;
}

// Lengths from `draw` until `total` elements (the last one cut to fit).
template <class Draw>
std::vector<std::uint64_t> offsets_until(std::uint64_t total, Draw draw) {
    std::vector<std::uint64_t> offsets{0};
    while (offsets.back() < total) offsets.push_back(std::min(total, offsets.back() + draw()));
    return offsets;
}

}  // namespace

SegmentShape segment_shape(const std::string& name, std::uint64_t seed) {
    SegmentShape shape;
    shape.name = name;
    const auto parts = split(name, ':');
    std::mt19937_64 rng(seed ^ 0x5e9d7c3b1a2f4e6dull);
    if (parts.size() == 2 && (parts[0] == "rows" || parts[0] == "columns")) {
        const auto x = split(parts[1], 'x');
        if (x.size() != 2) throw std::invalid_argument("segment shape '" + name + "': expected " + parts[0] + ":RxC");
        shape.matrix_rows = number(x[0], name);
        shape.matrix_cols = number(x[1], name);
        shape.rows = parts[0] == "rows";
        shape.columns = !shape.rows;
        const std::uint64_t segments = shape.rows ? shape.matrix_rows : shape.matrix_cols;
        const std::uint64_t length = shape.rows ? shape.matrix_cols : shape.matrix_rows;
        shape.regular = true;
        shape.offsets.resize(segments + 1);
        for (std::uint64_t s = 0; s <= segments; ++s) shape.offsets[s] = s * length;
    } else if (parts.size() == 1) {
        const auto x = split(name, 'x');
        if (x.size() != 2)
            throw std::invalid_argument("unknown segment shape '" + name +
                                        "' (expected SxL, uniform:N:M, powerlaw:N, rows:RxC or columns:RxC)");
        const std::uint64_t segments = number(x[0], name), length = number(x[1], name);
        shape.regular = true;
        shape.offsets.resize(segments + 1);
        for (std::uint64_t s = 0; s <= segments; ++s) shape.offsets[s] = s * length;
    } else if (parts[0] == "uniform" && parts.size() == 3) {
        const std::uint64_t total = number(parts[1], name), most = number(parts[2], name);
        std::uniform_int_distribution<std::uint64_t> length(0, most);
        shape.offsets = offsets_until(total, [&] { return length(rng); });
    } else if (parts[0] == "powerlaw" && parts.size() == 2) {
        const std::uint64_t total = number(parts[1], name);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        shape.offsets = offsets_until(total, [&] {
            const double v = 16.0 / std::pow(1.0 - u(rng), 0.8);  // 1 - u: in (0, 1]
            return static_cast<std::uint64_t>(std::min(v, double(1 << 24)));
        });
    } else {
        throw std::invalid_argument("unknown segment shape '" + name +
                                    "' (expected SxL, uniform:N:M, powerlaw:N, rows:RxC or columns:RxC)");
    }
    return shape;
}

}  // namespace clreduce::testing
