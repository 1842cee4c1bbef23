// Every kernel shape clreduce launches, on tiny inputs, for a kernel checker: run under
// Oclgrind (scripts/race-check.sh), which simulates each work-item and reports data races,
// out-of-bounds accesses, barrier divergence and uses of uninitialised values.
//
// It covers each state shape (int32 sum into int64; float sums deterministic, atomic,
// compensated and correctly rounded; minmax; min; argmin; argminmax; product; count_nonzero; the 48-byte
// state of statistics; a dense 3-channel image's sums, with and without a mask) with the
// level-3 finishes that shape has (second_pass for all; atomic for integer sums, counts and
// minima and for FloatMode::atomic; exact_atomic for deterministic and correctly rounded float
// sums), both strides, sizes 1000, 257, 3 and 1 (several groups and one; a head, whole vectors
// and a tail) at offsets 0, 1 and 3 (misaligned for the 4-wide vector loads), asynchronous sums
// and minima, listed segments whose long ones are split into shared chunks, and reduce_by_key's
// one launch over one tile. Each result is checked against an exact host reference (the data
// are small multiples of 1/4, so every float sum is exact). A finish the device lacks is
// listed "n/a". The correctly rounded sum also runs the NVIDIA GPUs' passes (forced): on double data of moderate range
// (the group's range, then the three anchored folds) and on float and double data over the whole exponent range (the
// group's range, then shared bins or 16-bit digits with local atomics between barriers); those results are checked
// against the exact sum rounded (reference/exact_float_sum).
//
// Excluded: InterGroup::last_group (--with-last-group runs it). Its partials are ordered for
// the last group by a fence and an atomic counter, which OpenCL 1.2 does not order across
// work-groups, so a checker of the OpenCL 1.2 memory model reports a race between a group's
// `partials[group] = acc` and the last group's reads (and between `*done = 0` and the
// counter's atomic_inc). clreduce uses that finish only where the order holds: on NVIDIA
// (PTX membar.gl, a device-wide fence) and on CPU devices (their stores are ordered, and
// mem_fence keeps the compiler from moving them). See docs/testing.md, "Hardening".
//
// The device: $CLREDUCE_DEVICE if set, else the first whose name contains "oclgrind" (under
// `oclgrind` it is the only one). No static Reducer: one that outlives main would release its
// programs after the OpenCL runtime is gone.
//
// Usage: clreduce-race-sweep [--with-last-group] [--only TEXT] [--skip TEXT]...
// (--only: the shapes whose name contains TEXT, e.g. "argmin" or "stride=local"; --skip: all
// but those.)
#include <clreduce/clreduce.hpp>

#include "kernels/kernel_spec.hpp"  // src/: force_exact_lane_passes
#include "reference/exact_float_sum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace clreduce;

// Largest first: a reducer's scratch buffers are made at their largest size by its first
// call and never grow (Oclgrind's --uninitialized loses track of a buffer released and made
// again larger, and would report its reads).
constexpr std::uint64_t kSizes[] = {1000, 257, 3, 1};
constexpr std::uint64_t kOffsets[] = {0, 1, 3};
constexpr std::uint64_t kMaxElements = 1000 + 3;

struct Data {
    std::vector<std::int32_t> ints;    // in [-40, 40], a tenth of them 0
    std::vector<float> floats;         // multiples of 1/4 in [-40, 40], zeros of both signs
    std::vector<float> wide_floats;    // random signs, exponents over the float range
    std::vector<double> wide_doubles;  // random signs, exponents over the double range
    std::vector<double> doubles;       // the floats' values
    std::vector<std::uint8_t> mask;    // an image mask: 0 for every third byte
};

Data make_data(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(-40, 40), quarter(-160, 160), tenth(0, 9);
    Data d;
    for (std::uint64_t i = 0; i < kMaxElements; ++i) {
        d.ints.push_back(tenth(rng) == 0 ? 0 : value(rng));
        const int q = tenth(rng) == 0 ? 0 : quarter(rng);
        d.floats.push_back(q == 0 ? (tenth(rng) < 5 ? -0.0f : 0.0f) : static_cast<float>(q) / 4.0f);
        const double sign = tenth(rng) < 5 ? -1.0 : 1.0, m = 1.0 + quarter(rng) / 400.0;
        d.wide_floats.push_back(
            static_cast<float>(sign * std::ldexp(m, std::uniform_int_distribution<int>(-149, 126)(rng))));
        d.wide_doubles.push_back(sign * std::ldexp(m, std::uniform_int_distribution<int>(-1074, 1000)(rng)));
        d.doubles.push_back(d.floats.back());
        d.mask.push_back(i % 3 == 0 ? 0 : static_cast<std::uint8_t>(1 + tenth(rng)));
    }
    return d;
}

// The data on the device.
struct Buffers {
    cl::Buffer ints, floats, wide_floats, wide_doubles, doubles, mask;
};

template <class T>
cl::Buffer device_copy(const Reducer& r, const std::vector<T>& v) {
    return cl::Buffer(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(T),
                      const_cast<T*>(v.data()));
}

// One call of a sweep: elements [o, o + n) of the device copies of `d`.
struct Call {
    const Reducer& r;
    const Data& d;
    const Buffers& b;
    std::uint64_t o, n;
    const LaunchParams& p;
    CallInfo* info;
};

template <class V>
std::string compare(const char* what, V got, V want) {
    if (got == want) return "";  // -0.0 == +0.0: either zero is right
    return std::string(what) + " " + std::to_string(got) + ", expected " + std::to_string(want);
}

// Each shape's call: "" when its result equals the exact host reference, else what differs.
std::string sum_int32(const Call& c) {
    std::int64_t want = 0;
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) want += c.d.ints[k];
    return compare("sum", c.r.sum<std::int32_t>(c.b.ints, c.o, c.n, c.p, c.info), want);
}

std::string sum_float32(const Call& c) {  // in the float mode of c.p
    double want = 0;
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) want += c.d.floats[k];
    return compare("sum", static_cast<double>(c.r.sum<float>(c.b.floats, c.o, c.n, c.p, c.info)), want);
}

// The correctly rounded sum of any float data: the exact sum rounded.
template <class T>
std::string sum_rounded(const Call& c, const std::vector<T>& data, const cl::Buffer& buffer) {
    const double want = clreduce::testing::exact_sum_of(data.data() + c.o, c.n).to_double();
    return compare("sum", c.r.sum<T>(buffer, c.o, c.n, c.p, c.info), want);
}
std::string sum_wide_float32(const Call& c) { return sum_rounded(c, c.d.wide_floats, c.b.wide_floats); }
std::string sum_wide_float64(const Call& c) { return sum_rounded(c, c.d.wide_doubles, c.b.wide_doubles); }
std::string sum_float64(const Call& c) { return sum_rounded(c, c.d.doubles, c.b.doubles); }

std::string minmax_float32(const Call& c) {
    float lo = c.d.floats[c.o], hi = c.d.floats[c.o];
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) {
        lo = std::min(lo, c.d.floats[k]);
        hi = std::max(hi, c.d.floats[k]);
    }
    const MinMax<float> got = c.r.minmax<float>(c.b.floats, c.o, c.n, c.p, c.info);
    return compare("min", got.min, lo) + compare("max", got.max, hi);
}

std::string min_int32(const Call& c) {
    std::int32_t want = c.d.ints[c.o];
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) want = std::min(want, c.d.ints[k]);
    return compare("min", c.r.min<std::int32_t>(c.b.ints, c.o, c.n, c.p, c.info), want);
}

std::string argmin_int32(const Call& c) {
    std::uint64_t at = 0;
    for (std::uint64_t k = 1; k < c.n; ++k)
        if (c.d.ints[c.o + k] < c.d.ints[c.o + at]) at = k;
    const ArgResult<std::int32_t> got = c.r.argmin<std::int32_t>(c.b.ints, c.o, c.n, c.p, c.info);
    return compare("value", got.value, c.d.ints[c.o + at]) + compare("index", got.index, at);
}

std::string argminmax_float32(const Call& c) {
    std::uint64_t lo = 0, hi = 0;
    for (std::uint64_t k = 1; k < c.n; ++k) {
        if (c.d.floats[c.o + k] < c.d.floats[c.o + lo]) lo = k;
        if (c.d.floats[c.o + k] > c.d.floats[c.o + hi]) hi = k;
    }
    const ArgMinMax<float> got = c.r.argminmax<float>(c.b.floats, c.o, c.n, c.p, c.info);
    return compare("min index", got.min.index, lo) + compare("max index", got.max.index, hi) +
           compare("min", got.min.value, c.d.floats[c.o + lo]) + compare("max", got.max.value, c.d.floats[c.o + hi]);
}

std::string product_int32(const Call& c) {
    std::uint64_t want = 1;  // modulo 2^64, as the int64 accumulator wraps
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k)
        want *= static_cast<std::uint64_t>(static_cast<std::int64_t>(c.d.ints[k]));
    return compare("product", static_cast<std::uint64_t>(c.r.product<std::int32_t>(c.b.ints, c.o, c.n, c.p, c.info)),
                   want);
}

std::string count_nonzero_float32(const Call& c) {
    std::uint64_t want = 0;
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) want += c.d.floats[k] != 0.0f ? 1 : 0;
    return compare("count", c.r.count_nonzero<float>(c.b.floats, c.o, c.n, c.p, c.info), want);
}

// The data are multiples of 1/4 of small magnitude: count, extremes, sum and mean are exact,
// and the variance is within a few units of its last place.
std::string statistics_float32(const Call& c) {
    double sum = 0, lo = c.d.floats[c.o], hi = c.d.floats[c.o];
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) {
        sum += c.d.floats[k];
        lo = std::min<double>(lo, c.d.floats[k]);
        hi = std::max<double>(hi, c.d.floats[k]);
    }
    const double mean = sum / static_cast<double>(c.n);
    double m2 = 0;
    for (std::uint64_t k = c.o; k < c.o + c.n; ++k) m2 += (c.d.floats[k] - mean) * (c.d.floats[k] - mean);
    const Statistics<float> got = c.r.statistics<float>(c.b.floats, c.o, c.n, c.p, c.info);
    const double variance = m2 / static_cast<double>(c.n);
    const bool close = std::fabs(got.variance - variance) <= 1e-12 * (1 + variance);
    return compare("count", got.count, c.n) + compare("min", double(got.min), lo) +
           compare("max", double(got.max), hi) + compare("sum", got.sum, sum) +
           (close ? std::string() : compare("variance", got.variance, variance));
}

// Each channel's sum of an image of the ints from c.o on: rows of 7 pixels of 3 channels, back
// to back (the dense path: several pixels per load; all channels in one read where level 3 is
// atomic), `masked`: by the mask bytes from byte c.o on (misaligned where c.o is).
std::string image_sum_int32(const Call& c, bool masked) {
    const std::uint64_t cols = 7, rows = c.n / 3 / cols;
    ImageMask mask;
    mask.buffer = c.b.mask;
    mask.offset = c.o;
    Image image{rows, cols, 3, 0, c.o * sizeof(std::int32_t)};
    if (masked) image.mask = &mask;
    const Channels<std::int64_t> got = c.r.sum<std::int32_t>(c.b.ints, image, c.p, c.info);
    std::string wrong;
    for (std::uint64_t ch = 0; ch < 3; ++ch) {
        std::int64_t want = 0;
        for (std::uint64_t p = 0; p < rows * cols; ++p)
            if (!masked || c.d.mask[c.o + p] != 0) want += c.d.ints[c.o + p * 3 + ch];
        const std::string w = compare("sum", got[ch], want);
        if (!w.empty()) wrong += "channel " + std::to_string(ch) + " " + w + "; ";
    }
    return wrong;
}
std::string image_sum_int32_plain(const Call& c) { return image_sum_int32(c, false); }
std::string image_sum_int32_masked(const Call& c) { return image_sum_int32(c, true); }

// One kernel shape: a state, a float mode and the level 3s it has (last_group: every one).
struct Case {
    const char* name;
    FloatMode float_mode;
    std::vector<InterGroup> finishes;
    std::string (*run)(const Call&);
    bool anchored = false;  // the NVIDIA GPUs' level 1 passes, forced (force_exact_lane_passes)
};

const std::vector<Case>& cases() {
    using IG = InterGroup;
    static const std::vector<Case> all = {
        {"sum int32", FloatMode::deterministic, {IG::second_pass, IG::atomic}, sum_int32},
        {"sum float32 deterministic", FloatMode::deterministic, {IG::second_pass, IG::exact_atomic}, sum_float32},
        {"sum float32 atomic", FloatMode::atomic, {IG::atomic}, sum_float32},
        {"sum float32 compensated", FloatMode::compensated, {IG::second_pass}, sum_float32},
        // exact_atomic: the expansion route, with its local sink (zeroed, flushed after a barrier).
        {"sum float32 correctly_rounded",
         FloatMode::correctly_rounded,
         {IG::second_pass, IG::exact_atomic},
         sum_float32},
        {"minmax float32", FloatMode::deterministic, {IG::second_pass}, minmax_float32},
        {"min int32", FloatMode::deterministic, {IG::second_pass, IG::atomic}, min_int32},
        {"argmin int32", FloatMode::deterministic, {IG::second_pass}, argmin_int32},
        {"argminmax float32", FloatMode::deterministic, {IG::second_pass}, argminmax_float32},
        {"product int32", FloatMode::deterministic, {IG::second_pass}, product_int32},
        {"count_nonzero float32", FloatMode::deterministic, {IG::second_pass, IG::atomic}, count_nonzero_float32},
        {"statistics float32", FloatMode::deterministic, {IG::second_pass}, statistics_float32},
        // Dense images: channel by channel (second_pass) and every channel in one read (atomic).
        {"image sum int32", FloatMode::deterministic, {IG::second_pass, IG::atomic}, image_sum_int32_plain},
        {"image masked sum int32", FloatMode::deterministic, {IG::second_pass, IG::atomic}, image_sum_int32_masked},
        // The anchored route's group range, barriers, its first pass (the doubles' folds, whose
        // lanes end in the work-item's expansion and the sink), and bins (floats) or digits
        // (doubles).
        {"sum float64 correctly_rounded anchored", FloatMode::correctly_rounded, {IG::exact_atomic}, sum_float64, true},
        {"sum float32 correctly_rounded anchored wide",
         FloatMode::correctly_rounded,
         {IG::exact_atomic},
         sum_wide_float32,
         true},
        {"sum float64 correctly_rounded anchored wide",
         FloatMode::correctly_rounded,
         {IG::exact_atomic},
         sum_wide_float64,
         true},
    };
    return all;
}

struct Tally {
    std::uint64_t calls = 0, failures = 0, unavailable = 0;
};

LaunchParams shape(InterGroup finish, Stride stride, FloatMode mode) {
    LaunchParams p;
    p.inter_group = finish;
    p.stride = stride;
    p.float_mode = mode;
    p.work_group_size = 16;  // small groups and few loads each: several groups from 257 elements
    p.times = 2;
    p.vector_width = 4;  // offsets 1 and 3 leave a head before the first aligned vector
    return p;
}

void run_case(const Reducer& r, const Data& d, const Buffers& b, const Case& c, InterGroup finish, Stride stride,
              Tally& tally) {
    const std::string label =
        std::string(c.name) + " finish=" + std::string(to_string(finish)) + " stride=" + std::string(to_string(stride));
    const LaunchParams p = shape(finish, stride, c.float_mode);
    // Set for the plans made from here on, this case's; undone at the end.
    force_exact_lane_passes(c.anchored ? std::optional(ExactLanePasses::anchored) : std::nullopt);
    struct Undo {
        ~Undo() { force_exact_lane_passes(std::nullopt); }
    } undo;
    try {
        std::uint64_t bad = 0;
        for (std::uint64_t n : kSizes) {
            for (std::uint64_t offset : kOffsets) {
                CallInfo info;
                const std::string wrong = c.run({r, d, b, offset, n, p, &info});
                ++tally.calls;
                if (info.plan.inter_group != finish) {
                    std::cout << "FAIL " << label << " n=" << n << " offset=" << offset << ": planned "
                              << to_string(info.plan.inter_group) << "\n";
                    ++bad;
                } else if (!wrong.empty()) {
                    std::cout << "FAIL " << label << " n=" << n << " offset=" << offset << ": " << wrong << "\n";
                    ++bad;
                }
            }
        }
        tally.failures += bad;
        std::cout << (bad == 0 ? "ok   " : "FAIL ") << label << "\n";
    } catch (const Unsupported& e) {
        ++tally.unavailable;
        std::cout << "n/a  " << label << " (" << e.what() << ")\n";
    }
}

// sum_async and min_async into a result buffer at an offset, next to marker bytes.
void run_async(const Reducer& r, const Data& d, const Buffers& b, InterGroup finish, Stride stride, Tally& tally) {
    const std::string label = "async sum int32 and min float32 finish=" + std::string(to_string(finish)) +
                              " stride=" + std::string(to_string(stride));
    const LaunchParams p = shape(finish, stride, FloatMode::deterministic);
    cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 64);
    std::uint64_t bad = 0;
    for (std::uint64_t n : kSizes) {
        for (std::uint64_t offset : kOffsets) {
            check(r.queue().enqueueFillBuffer(result, cl_uchar(0xAB), 0, 64), "clEnqueueFillBuffer");
            r.sum_async<std::int32_t>(b.ints, offset, n, {result, 1}, p);  // bytes 8..15
            r.min_async<float>(b.floats, offset, n, {result, 5}, p);       // bytes 20..23
            unsigned char bytes[64];
            check(r.queue().enqueueReadBuffer(result, CL_TRUE, 0, 64, bytes), "clEnqueueReadBuffer");
            std::int64_t sum = 0, want_sum = 0;
            float min = 0, want_min = d.floats[offset];
            std::memcpy(&sum, bytes + 8, 8);
            std::memcpy(&min, bytes + 20, 4);
            for (std::uint64_t k = offset; k < offset + n; ++k) {
                want_sum += d.ints[k];
                want_min = std::min(want_min, d.floats[k]);
            }
            std::string wrong = compare("sum", sum, want_sum) + compare("min", min, want_min);
            for (int k : {0, 7, 16, 19, 24, 63})
                if (bytes[k] != 0xAB) wrong += " byte " + std::to_string(k) + " outside the results written";
            tally.calls += 2;
            if (!wrong.empty()) {
                std::cout << "FAIL " << label << " n=" << n << " offset=" << offset << ": " << wrong << "\n";
                ++bad;
            }
        }
    }
    tally.failures += bad;
    std::cout << (bad == 0 ? "ok   " : "FAIL ") << label << "\n";
}

// One call's line: ok, or FAIL with what was wrong (counted).
void report(const std::string& label, const std::string& wrong, Tally& tally) {
    tally.calls += 1;
    if (!wrong.empty()) ++tally.failures;
    std::cout << (wrong.empty() ? "ok   " + label : "FAIL " + label + ":" + wrong) << "\n";
}

// Listed segments, a work-item each, whose long ones are split into chunks that every group
// shares (segments.cl: the tables' counts taken by compare-and-swap, the chunks' launch and the
// long segments' finish). Its own run of race-check.sh: the counts are set by
// clEnqueueFillBuffer, which Oclgrind's --uninitialized does not count as a write.
void run_long_segments(const Reducer& r, const Data& d, const Buffers& b, Tally& tally) {
    const std::string label = "long segments sum int32";
    LaunchParams p;
    p.segment_team = 1;
    p.work_group_size = 16;
    const std::vector<std::uint64_t> offsets{0, 3, 600, 601, 1000, 1003};
    CallInfo info;
    const std::vector<std::int64_t> sums = r.sum<std::int32_t>(b.ints, 0, Segments::offsets(offsets), p, &info);
    std::string wrong;
    if (info.plan.segment_split == 0 || info.plan.segment_split >= 399)
        wrong += " the plan splits no segment (segment_split " + std::to_string(info.plan.segment_split) + ")";
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
        std::int64_t want = 0;
        for (std::uint64_t k = offsets[s]; k < offsets[s + 1]; ++k) want += d.ints[k];
        const std::string what = "segment " + std::to_string(s);
        wrong += compare(what.c_str(), sums[s], want);
    }
    report(label, wrong, tally);
}

// reduce_by_key's one launch (by_key.cl) over the ints in runs of 1 to 40: one tile, its local
// scans checked (the look-back between tiles is excluded, as the last-group finish is above).
void run_by_key(const Reducer& r, const Data& d, const Buffers& b, Tally& tally) {
    const std::string label = "by-key one launch sum int32";
    const std::uint64_t n = d.ints.size();
    std::vector<std::int32_t> keys(n);
    std::vector<std::uint64_t> offsets{0};
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i > 0 && (i * 7919) % 40 < 3) offsets.push_back(i);  // a head: a new key
        keys[i] = static_cast<std::int32_t>(offsets.size() % 5);
    }
    offsets.push_back(n);
    LaunchParams p;
    p.by_key_one_launch_keys = n;
    CallInfo info;
    const auto got = r.sum_by_key<std::int32_t, std::int32_t>(device_copy(r, keys), 0, b.ints, 0, n, p, &info);
    std::string wrong;
    if (!info.plan.by_key_one_launch) wrong += " the plan is not the one launch (" + info.plan.describe() + ")";
    if (got.runs() + 1 != offsets.size())
        wrong += " " + std::to_string(got.runs()) + " runs, not " + std::to_string(offsets.size() - 1);
    for (std::size_t s = 0; s < got.results.size() && s + 1 < offsets.size(); ++s) {
        std::int64_t want = 0;
        for (std::uint64_t k = offsets[s]; k < offsets[s + 1]; ++k) want += d.ints[k];
        const std::string what = "run " + std::to_string(s);
        wrong += compare(what.c_str(), got.results[s], want);
    }
    report(label, wrong, tally);
}

}  // namespace

int main(int argc, char** argv) try {
    bool with_last_group = false;
    std::string only;
    std::vector<std::string> skip;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--with-last-group") {
            with_last_group = true;
        } else if (arg == "--only" && a + 1 < argc) {
            only = argv[++a];
        } else if (arg == "--skip" && a + 1 < argc) {
            skip.push_back(argv[++a]);
        } else {
            std::cerr << "usage: clreduce-race-sweep [--with-last-group] [--only TEXT] [--skip TEXT]...\n";
            return 2;
        }
    }
    // Every program compiled here, none read from or written to the disk cache.
    set_cache_directory(std::filesystem::path());
    const auto chosen = [&](const std::string& label) {
        if (label.find(only) == std::string::npos) return false;
        for (const std::string& s : skip)
            if (label.find(s) != std::string::npos) return false;
        return true;
    };
    const char* spec = std::getenv("CLREDUCE_DEVICE");
    const Reducer r(select_device(spec != nullptr && *spec != '\0' ? spec : "oclgrind"));
    const std::uint64_t seed = 20260301;
    std::cout << "race-sweep: device " << r.device_info().platform_name << " / " << r.device_info().name
              << ", data seed " << seed << "\n";

    const Data d = make_data(seed);
    const Buffers b{device_copy(r, d.ints),         device_copy(r, d.floats),  device_copy(r, d.wide_floats),
                    device_copy(r, d.wide_doubles), device_copy(r, d.doubles), device_copy(r, d.mask)};

    // A fresh reducer (on the same context and queue) for each shape, all kept to the end: no
    // scratch buffer is released and made again while the sweep runs.
    std::deque<Reducer> kept;
    Tally tally;
    for (const Case& c : cases()) {
        std::vector<InterGroup> finishes = c.finishes;
        if (with_last_group) finishes.push_back(InterGroup::last_group);
        for (InterGroup finish : finishes) {
            for (Stride stride : {Stride::global, Stride::local}) {
                const std::string label = std::string(c.name) + " finish=" + std::string(to_string(finish)) +
                                          " stride=" + std::string(to_string(stride));
                if (!chosen(label)) continue;
                run_case(kept.emplace_back(r.context(), r.queue()), d, b, c, finish, stride, tally);
            }
        }
    }
    std::vector<InterGroup> async_finishes = {InterGroup::second_pass};
    if (with_last_group) async_finishes.push_back(InterGroup::last_group);
    for (InterGroup finish : async_finishes) {
        for (Stride stride : {Stride::global, Stride::local}) {
            const std::string label =
                "async finish=" + std::string(to_string(finish)) + " stride=" + std::string(to_string(stride));
            if (!chosen(label)) continue;
            run_async(kept.emplace_back(r.context(), r.queue()), d, b, finish, stride, tally);
        }
    }
    if (chosen("by-key one launch sum int32")) run_by_key(kept.emplace_back(r.context(), r.queue()), d, b, tally);
    if (chosen("long segments sum int32")) run_long_segments(kept.emplace_back(r.context(), r.queue()), d, b, tally);
    std::cout << "race-sweep: " << tally.calls << " calls, " << tally.failures << " wrong, " << tally.unavailable
              << " finishes not available here\n";
    return tally.failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
    std::cerr << "race-sweep: " << e.what() << "\n";
    return 2;
}
