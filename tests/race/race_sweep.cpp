// Every kernel shape clreduce launches, on tiny inputs, for a kernel checker: run under
// Oclgrind (scripts/race-check.sh), which simulates each work-item and reports data races,
// out-of-bounds accesses, barrier divergence and uses of uninitialised values.
//
// It covers each state shape (int32 sum into int64; float sums deterministic, atomic,
// compensated and correctly rounded; minmax; min; argmin; product; count_nonzero) with the
// level-3 finishes that shape has (second_pass for all; atomic for integer sums, counts and
// minima and for FloatMode::atomic; exact_atomic for deterministic float sums), both strides,
// sizes 1000, 257, 3 and 1 (several groups and one; a head, whole vectors and a tail) at
// offsets 0, 1 and 3 (misaligned for the 4-wide vector loads), and asynchronous sums and
// minima. Each result is checked against an exact host reference (the data are small
// multiples of 1/4, so every float sum is exact). A finish the device lacks is listed "n/a".
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

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <limits>
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
    std::vector<std::int32_t> ints;  // in [-40, 40], a tenth of them 0
    std::vector<float> floats;       // multiples of 1/4 in [-40, 40], zeros of both signs
};

Data make_data(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(-40, 40), quarter(-160, 160), tenth(0, 9);
    Data d;
    for (std::uint64_t i = 0; i < kMaxElements; ++i) {
        d.ints.push_back(tenth(rng) == 0 ? 0 : value(rng));
        const int q = tenth(rng) == 0 ? 0 : quarter(rng);
        d.floats.push_back(q == 0 ? (tenth(rng) < 5 ? -0.0f : 0.0f) : static_cast<float>(q) / 4.0f);
    }
    return d;
}

// One kernel shape: runs the call on elements [offset, offset + n) of the device copy and
// returns "" when the result equals the host reference, else what differs.
struct Case {
    std::string name;
    FloatMode float_mode;
    std::vector<InterGroup> finishes;  // the level 3s this shape has (last_group: every one)
    std::function<std::string(const Reducer&, std::uint64_t offset, std::uint64_t n, const LaunchParams&, CallInfo*)>
        run;
};

template <class V>
std::string compare(const char* what, V got, V want) {
    if (got == want) return "";  // -0.0 == +0.0: either zero is right
    return std::string(what) + " " + std::to_string(got) + ", expected " + std::to_string(want);
}

std::vector<Case> make_cases(const Data& d, const cl::Buffer& ints, const cl::Buffer& floats) {
    std::vector<Case> cases;
    cases.push_back({"sum int32", FloatMode::deterministic, {InterGroup::second_pass, InterGroup::atomic},
                     [&d, &ints](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p, CallInfo* i) {
                         std::int64_t want = 0;
                         for (std::uint64_t k = o; k < o + n; ++k) want += d.ints[k];
                         return compare("sum", r.sum<std::int32_t>(ints, o, n, p, i), want);
                     }});
    for (FloatMode mode :
         {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded}) {
        const std::vector<InterGroup> finishes =
            mode == FloatMode::deterministic ? std::vector<InterGroup>{InterGroup::second_pass, InterGroup::exact_atomic}
            : mode == FloatMode::atomic      ? std::vector<InterGroup>{InterGroup::atomic}
                                             : std::vector<InterGroup>{InterGroup::second_pass};
        cases.push_back({"sum float32 " + std::string(to_string(mode)), mode, finishes,
                         [&d, &floats](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p,
                                       CallInfo* i) {
                             double want = 0;
                             for (std::uint64_t k = o; k < o + n; ++k) want += d.floats[k];
                             return compare("sum", static_cast<double>(r.sum<float>(floats, o, n, p, i)), want);
                         }});
    }
    cases.push_back({"minmax float32", FloatMode::deterministic, {InterGroup::second_pass},
                     [&d, &floats](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p, CallInfo* i) {
                         float lo = d.floats[o], hi = d.floats[o];
                         for (std::uint64_t k = o; k < o + n; ++k) {
                             lo = std::min(lo, d.floats[k]);
                             hi = std::max(hi, d.floats[k]);
                         }
                         const MinMax<float> got = r.minmax<float>(floats, o, n, p, i);
                         return compare("min", got.min, lo) + compare("max", got.max, hi);
                     }});
    cases.push_back({"min int32", FloatMode::deterministic, {InterGroup::second_pass, InterGroup::atomic},
                     [&d, &ints](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p, CallInfo* i) {
                         std::int32_t want = d.ints[o];
                         for (std::uint64_t k = o; k < o + n; ++k) want = std::min(want, d.ints[k]);
                         return compare("min", r.min<std::int32_t>(ints, o, n, p, i), want);
                     }});
    cases.push_back({"argmin int32", FloatMode::deterministic, {InterGroup::second_pass},
                     [&d, &ints](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p, CallInfo* i) {
                         std::uint64_t at = 0;
                         for (std::uint64_t k = 1; k < n; ++k)
                             if (d.ints[o + k] < d.ints[o + at]) at = k;
                         const ArgResult<std::int32_t> got = r.argmin<std::int32_t>(ints, o, n, p, i);
                         return compare("value", got.value, d.ints[o + at]) + compare("index", got.index, at);
                     }});
    cases.push_back({"product int32", FloatMode::deterministic, {InterGroup::second_pass},
                     [&d, &ints](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p, CallInfo* i) {
                         // Modulo 2^64, as the int64 accumulator wraps.
                         std::uint64_t plain = 1;
                         for (std::uint64_t k = o; k < o + n; ++k)
                             plain *= static_cast<std::uint64_t>(static_cast<std::int64_t>(d.ints[k]));
                         return compare("product", static_cast<std::uint64_t>(r.product<std::int32_t>(ints, o, n, p, i)),
                                        plain);
                     }});
    cases.push_back({"count_nonzero float32", FloatMode::deterministic, {InterGroup::second_pass, InterGroup::atomic},
                     [&d, &floats](const Reducer& r, std::uint64_t o, std::uint64_t n, const LaunchParams& p,
                                   CallInfo* i) {
                         std::uint64_t want = 0;
                         for (std::uint64_t k = o; k < o + n; ++k) want += d.floats[k] != 0.0f ? 1 : 0;
                         return compare("count", r.count_nonzero<float>(floats, o, n, p, i), want);
                     }});
    return cases;
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

void run_case(const Reducer& r, const Case& c, InterGroup finish, Stride stride, Tally& tally) {
    const std::string label =
        c.name + " finish=" + std::string(to_string(finish)) + " stride=" + std::string(to_string(stride));
    const LaunchParams p = shape(finish, stride, c.float_mode);
    try {
        std::uint64_t bad = 0;
        for (std::uint64_t n : kSizes) {
            for (std::uint64_t offset : kOffsets) {
                CallInfo info;
                const std::string wrong = c.run(r, offset, n, p, &info);
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
void run_async(const Reducer& r, const Data& d, const cl::Buffer& ints, const cl::Buffer& floats, InterGroup finish,
               Stride stride, Tally& tally) {
    const std::string label = "async sum int32 and min float32 finish=" + std::string(to_string(finish)) +
                              " stride=" + std::string(to_string(stride));
    const LaunchParams p = shape(finish, stride, FloatMode::deterministic);
    cl::Buffer result(r.context(), CL_MEM_READ_WRITE, 64);
    std::uint64_t bad = 0;
    for (std::uint64_t n : kSizes) {
        for (std::uint64_t offset : kOffsets) {
            check(r.queue().enqueueFillBuffer(result, cl_uchar(0xAB), 0, 64), "clEnqueueFillBuffer");
            r.sum_async<std::int32_t>(ints, offset, n, result, 8, p);
            r.min_async<float>(floats, offset, n, result, 20, p);
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
    cl::Buffer ints(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d.ints.size() * sizeof(std::int32_t),
                    const_cast<std::int32_t*>(d.ints.data()));
    cl::Buffer floats(r.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d.floats.size() * sizeof(float),
                      const_cast<float*>(d.floats.data()));

    // A fresh reducer (on the same context and queue) for each shape, all kept to the end: no
    // scratch buffer is released and made again while the sweep runs.
    std::deque<Reducer> kept;
    Tally tally;
    for (const Case& c : make_cases(d, ints, floats)) {
        std::vector<InterGroup> finishes = c.finishes;
        if (with_last_group) finishes.push_back(InterGroup::last_group);
        for (InterGroup finish : finishes) {
            for (Stride stride : {Stride::global, Stride::local}) {
                const std::string label = c.name + " finish=" + std::string(to_string(finish)) +
                                          " stride=" + std::string(to_string(stride));
                if (!chosen(label)) continue;
                run_case(kept.emplace_back(r.context(), r.queue()), c, finish, stride, tally);
            }
        }
    }
    std::vector<InterGroup> async_finishes = {InterGroup::second_pass};
    if (with_last_group) async_finishes.push_back(InterGroup::last_group);
    for (InterGroup finish : async_finishes) {
        for (Stride stride : {Stride::global, Stride::local}) {
            const std::string label = "async finish=" + std::string(to_string(finish)) +
                                      " stride=" + std::string(to_string(stride));
            if (!chosen(label)) continue;
            run_async(kept.emplace_back(r.context(), r.queue()), d, ints, floats, finish, stride, tally);
        }
    }
    std::cout << "race-sweep: " << tally.calls << " calls, " << tally.failures << " wrong, " << tally.unavailable
              << " finishes not available here\n";
    return tally.failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
    std::cerr << "race-sweep: " << e.what() << "\n";
    return 2;
}
