// Tuning by coordinate descent from the default plan, then an exhaustive last stage on
// `times`. Every (times, wg, vec, stride, level 3) is its own program build, so the descent
// tries few candidates per stage: times over powers of 4, then ±1 power of 2 around the best,
// then the other stride, the work-group size, the vector width and every level-3 strategy.
//
// The final stage (tuner_final_stage.hpp) measures every `times` of times_sweep() (powers of
// two 1 .. 1024, up to a single work-group) with the other parameters fixed at the descent's
// winner, then re-times all of them and the defaults in interleaved rounds (15 to 201, more
// for short kernels, unless
// quick) so that they share the noise, and keeps the lowest median. So the tuned `times` is
// the best of the whole sweep for those parameters, up to the noise left in the medians;
// `clreduce-perf tune --check` measures how close. Re-timing builds nothing (at most 12
// candidates x 15 calls, a fraction of a second even at 2^30 elements), and re-timing all
// rather than the fastest first times keeps a candidate whose first time was unlucky. The
// sweep builds only the `times` values the descent has not (a program build is the stage's cost);
// programs are cached by the reducer, so buckets of one type share them.
#include "tuning/tuner.hpp"

#include "plan/planner.hpp"
#include "tuning/tuner_final_stage.hpp"
#include "tuning/tuner_host_path.hpp"
#include "tuning/tuner_segments.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <tuple>
#include <type_traits>

#include <clreduce/error.hpp>
#include "tuning/tuning_data.hpp"

namespace clreduce {
namespace {

using Clock = std::chrono::steady_clock;

// The families tuning can measure, each through one operation of the family. A family the
// engine gains is one more row here (and its call in run_operation).
struct FamilyProbe {
    OperationFamily family;
    Operation operation;
};
constexpr FamilyProbe kProbes[] = {{OperationFamily::additive, Operation::sum}};

// The level-3 strategies the descent tries; a strategy the engine gains is one more value here.
constexpr InterGroup kLevel3Strategies[] = {InterGroup::atomic, InterGroup::second_pass, InterGroup::last_group,
                                            InterGroup::exact_atomic};

// Re-timing rounds of the final stage (unless quick, which uses its repeats).
int final_rounds(const std::vector<std::optional<double>>& us) {
    double kernel_us = 0;
    for (const auto& u : us) kernel_us += u.value_or(0);
    return retiming_rounds(kernel_us, us.size());
}

template <class T>
sum_type_t<T> run_operation(const Reducer& r, Operation op, const cl::Buffer& buffer, std::uint64_t n,
                            const LaunchParams& params, CallInfo& info) {
    switch (op) {
        case Operation::sum: return r.sum<T>(buffer, 0, n, params, &info);
        default: break;
    }
    throw Unsupported("tuning cannot measure '" + std::string(operation_name(op)) + "' yet");
}

using Reference = TuningReference;

std::string describe(const LaunchParams& p) {
    return "times=" + std::to_string(*p.times) + " wg=" + std::to_string(*p.work_group_size) + " " +
           std::string(to_string(*p.stride)) + " vec=" + std::to_string(*p.vector_width) + " " +
           std::string(to_string(*p.inter_group));
}

// What makes two candidates run the same kernels: with a single group the level-3 strategy
// never runs, so candidates differing only there are one.
using ParamsKey = std::tuple<std::uint32_t, std::uint32_t, int, std::uint32_t, int>;
ParamsKey key_of(const LaunchParams& p, const LaunchPlan& plan) {
    return {*p.times, *p.work_group_size, static_cast<int>(*p.stride), *p.vector_width,
            plan.groups == 1 ? -1 : static_cast<int>(*p.inter_group)};
}

class Search {
public:
    Search(const Reducer& reducer, const TuneOptions& options, TuneResult& result)
        : r_(reducer),
          o_(options),
          result_(result),
          repeats_(options.quick ? std::min(options.repeats, 3) : options.repeats) {
        if (repeats_ < 1) throw InvalidArgument("tune: repeats must be at least 1");
    }

    void set_total(std::uint64_t total) { total_ = total; }
    bool stopped() const { return stopped_; }

    // Candidates one bucket's search will try at most, for the progress estimate.
    std::uint64_t estimate(ElementType type, std::uint64_t n) const {
        const LaunchPlan plan = make_plan(type, n, r_.device_info());
        std::uint64_t count = 1 + 2 + 1 + std::size(kLevel3Strategies);  // default, ±1 times, stride, level 3
        for (std::uint64_t times = 1, groups = 2; groups > 1 && times <= (1u << 20); times *= 4, ++count)
            groups = n / plan.vector_width / (std::uint64_t(plan.work_group_size) * times);
        count += o_.quick ? 4 : 6 + 5;  // work-group sizes, vector widths
        // The final sweep: about half of its values are new after the descent.
        count += (times_sweep(plan.element, n, r_.device_info(), launch_shape(plan)).size() + 1) / 2;
        return count;
    }

    template <class T>
    void bucket(Operation op, OperationFamily family, const cl::Buffer& buffer, std::uint64_t n, const Reference& ref) {
        const ElementType type = element_traits<T>::type;
        const DeviceInfo& device = r_.device_info();
        measured_.clear();
        const LaunchPlan start_plan = make_plan(type, n, device);
        const LaunchParams start = launch_shape(start_plan);
        const auto default_us = measure<T>(op, buffer, n, ref, start, key_of(start, start_plan));
        if (!default_us) return;  // stopped, or the defaults themselves failed
        LaunchParams best = start;
        double best_us = *default_us;
        const auto consider = [&](LaunchParams candidate) {
            if (stopped_) return;
            ParamsKey key;
            try {
                key = key_of(candidate, make_plan(type, n, device, candidate));
            } catch (const Error&) {
                return;  // not a valid plan on this device for this n
            }
            if (measured_.count(key)) return;
            if (const auto us = measure<T>(op, buffer, n, ref, candidate, key); us && *us < best_us) {
                best_us = *us;
                best = candidate;
            }
        };
        const auto groups_of = [&](const LaunchParams& p) { return make_plan(type, n, device, p).groups; };
        const auto refine_times = [&] {
            const std::uint32_t around = *best.times;
            for (std::uint32_t t : {around / 2, around * 2}) {
                if (t < 1) continue;
                LaunchParams c = best;
                c.times = t;
                consider(c);
            }
        };

        // times over powers of 4, up to the first that leaves a single group.
        for (std::uint32_t t = 1; t <= (1u << 20) && !stopped_; t *= 4) {
            LaunchParams c = best;
            c.times = t;
            consider(c);
            LaunchParams probe = c;
            try {
                if (groups_of(probe) == 1) break;
            } catch (const Error&) {
            }
        }
        refine_times();
        {
            LaunchParams c = best;
            c.stride = *best.stride == Stride::global ? Stride::local : Stride::global;
            consider(c);
        }
        {
            const std::uint32_t current = *best.work_group_size;
            std::vector<std::uint32_t> sizes;
            if (o_.quick) {
                sizes = {current / 2, current * 2};
            } else {
                for (std::uint32_t wg = 32; wg <= 1024; wg *= 2) sizes.push_back(wg);
            }
            for (std::uint32_t wg : sizes) {
                if (wg < 1 || wg > device.max_work_group_size) continue;
                LaunchParams c = best;
                c.work_group_size = wg;
                consider(c);
            }
        }
        {
            const std::uint32_t current = *best.vector_width;
            std::vector<std::uint32_t> widths = o_.quick ? std::vector<std::uint32_t>{current / 2, current * 2}
                                                         : std::vector<std::uint32_t>{1, 2, 4, 8, 16};
            for (std::uint32_t v : widths) {
                if (v < 1 || v > 16) continue;
                LaunchParams c = best;
                c.vector_width = v;
                consider(c);
            }
        }
        for (InterGroup level3 : kLevel3Strategies) {
            LaunchParams c = best;
            c.inter_group = level3;
            consider(c);
        }

        TunedEntry entry;
        entry.type = type;
        entry.family = family;
        entry.n = n;
        entry.params = best;
        entry.kernel_us = best_us;
        entry.default_kernel_us = *default_us;
        final_stage<T>(op, buffer, n, ref, start, entry);
        result_.entries.push_back(entry);
    }

    // Every `times` of the sweep with the other parameters at the descent's winner (entry),
    // then all of them and the defaults re-timed together; the lowest median wins.
    template <class T>
    void final_stage(Operation op, const cl::Buffer& buffer, std::uint64_t n, const Reference& ref,
                     const LaunchParams& defaults, TunedEntry& entry) {
        const ElementType type = element_traits<T>::type;
        const DeviceInfo& device = r_.device_info();
        std::vector<LaunchParams> candidates;
        std::vector<ParamsKey> keys;
        std::vector<std::optional<double>> first_us;
        // The candidate's index; measured unless the descent has measured it already.
        const auto add = [&](const LaunchParams& c) {
            const ParamsKey key = key_of(c, make_plan(type, n, device, c));
            if (const auto at = std::find(keys.begin(), keys.end(), key); at != keys.end())
                return std::size_t(at - keys.begin());
            std::optional<double> us;
            if (const auto known = measured_.find(key); known != measured_.end()) {
                if (known->second >= 0) us = known->second;
            } else {
                us = measure<T>(op, buffer, n, ref, c, key);
            }
            candidates.push_back(c);
            keys.push_back(key);
            first_us.push_back(us);
            return candidates.size() - 1;
        };
        for (std::uint32_t t : times_sweep(type, n, device, entry.params)) {
            if (stopped_) break;
            LaunchParams c = entry.params;
            c.times = t;
            add(c);
        }
        // Both measured before, so no new measurement. The descent's winner where its times lies
        // beyond the sweep's cap, or where the sweep was cut short (it keeps its place then);
        // past a single work-group its times only adds idle iterations. The defaults are
        // re-timed beside the sweep for an honest speedup.
        if (stopped_ || make_plan(type, n, device, entry.params).groups > 1) add(entry.params);
        const std::size_t default_index = add(defaults);

        const int rounds = o_.quick ? repeats_ : std::max(final_rounds(first_us), repeats_);
        const auto time_once = [&](std::size_t i) { return time_once_us<T>(op, buffer, n, ref, candidates[i]); };
        const auto stop = [&] { return check_stop(); };
        const auto choice = choose_final(first_us, candidates.size(), {default_index}, rounds, time_once, stop);
        if (!choice) return;  // nothing usable: keep the descent's winner
        entry.params = candidates[choice->index];
        entry.kernel_us = choice->us;
        if (choice->retimed[default_index]) entry.default_kernel_us = *choice->retimed[default_index];
    }

    // The segment stage's view of this search: its stop test, progress and counts.
    SegmentStageHooks segment_hooks() {
        SegmentStageHooks hooks;
        hooks.stop = [this] { return check_stop(); };
        hooks.started = [this](const std::string& label) {
            report(label);
            ++result_.measurements;
        };
        hooks.finished = [this](bool accepted) {
            if (!accepted) ++result_.rejected;
            ++done_;
        };
        hooks.repeats = repeats_;
        hooks.quick = o_.quick;
        return hooks;
    }

    // The segment stage's entries for `type` (tuner_segments.hpp) over the first n values.
    template <class T>
    void segment_stage(const cl::Buffer& buffer, std::uint64_t n) {
        const SegmentStageHooks hooks = segment_hooks();
        for (bool equal : {true, false})
            for (std::uint64_t length : kTunedSegmentLengths) {
                if (stopped_ || length * 16 > n) break;
                if (auto entry = tune_segment_team<T>(r_, buffer, n, length, equal, o_.seed, hooks))
                    result_.entries.push_back(*entry);
            }
    }

    bool out_of_time() const {
        return o_.time_budget_s > 0 && std::chrono::duration<double>(Clock::now() - start_).count() > o_.time_budget_s;
    }

private:
    // Sets stopped_ when asked to stop or out of time.
    bool check_stop() {
        if ((o_.stop != nullptr && o_.stop->load()) || out_of_time()) stopped_ = true;
        return stopped_;
    }

    // One verified run's kernel time, or nullopt when it fails or is wrong.
    template <class T>
    std::optional<double> time_once_us(Operation op, const cl::Buffer& buffer, std::uint64_t n, const Reference& ref,
                                       const LaunchParams& params) {
        try {
            CallInfo info;
            const sum_type_t<T> got = run_operation<T>(r_, op, buffer, n, params, info);
            if (tuning_result_correct<T>(got, ref, n, info.plan.accumulator)) return kernel_us_of(info);
        } catch (const Error&) {
        }
        ++result_.rejected;
        return std::nullopt;
    }

    // Median kernel time of the candidate, or nullopt when stopped, failing or wrong.
    template <class T>
    std::optional<double> measure(Operation op, const cl::Buffer& buffer, std::uint64_t n, const Reference& ref,
                                  const LaunchParams& params, const ParamsKey& key) {
        if (check_stop()) return std::nullopt;
        const std::string label =
            std::string(type_name(element_traits<T>::type)) + " n=" + size_name(n) + " " + describe(params);
        report(label);
        ++result_.measurements;
        std::optional<double> out;
        try {
            std::vector<double> times;
            bool ok = true;
            for (int run = 0; run <= repeats_ && ok; ++run) {
                CallInfo info;
                const sum_type_t<T> got = run_operation<T>(r_, op, buffer, n, params, info);
                ok = tuning_result_correct<T>(got, ref, n, info.plan.accumulator);
                if (run > 0) times.push_back(kernel_us_of(info));
            }
            if (ok) out = median_of(times);
        } catch (const Error&) {
            // A candidate the device cannot run (out of resources, build failure) is skipped.
        }
        if (!out) ++result_.rejected;
        measured_[key] = out.value_or(-1);
        ++done_;
        return out;
    }

    void report(const std::string& label) {
        if (!o_.progress) return;
        TuneProgress p;
        p.done = done_;
        p.total = std::max(total_, done_ + 1);
        p.elapsed_s = std::chrono::duration<double>(Clock::now() - start_).count();
        p.remaining_s = done_ > 0 ? p.elapsed_s / double(done_) * double(p.total - done_) : 0;
        p.current = label;
        o_.progress(p);
    }

    const Reducer& r_;
    const TuneOptions& o_;
    TuneResult& result_;
    int repeats_;
    Clock::time_point start_ = Clock::now();
    std::uint64_t done_ = 0;
    std::uint64_t total_ = 0;
    bool stopped_ = false;
    std::map<ParamsKey, double> measured_;
};

std::vector<std::uint64_t> buckets(const TuneOptions& o, std::size_t element_size, const DeviceInfo& device) {
    if (o.min_n < 1 || o.min_n > o.max_n) throw InvalidArgument("tune: need 1 <= min_n <= max_n");
    const std::uint64_t byte_cap = std::min<std::uint64_t>(device.max_alloc_size, device.global_mem_size / 2);
    std::vector<std::uint64_t> out;
    for (std::uint64_t n = o.min_n; n <= o.max_n; n *= 4) {
        if (n > byte_cap / element_size) break;
        out.push_back(n);
        if (n > o.max_n / 4) break;
    }
    return out;
}

// The segment stage's size: the largest bucket, at most kSegmentStageMaxN.
std::uint64_t segment_stage_size(const std::vector<std::uint64_t>& sizes) {
    return std::min(sizes.back(), kSegmentStageMaxN);
}

template <class T>
void tune_type(const Reducer& r, const TuneOptions& o, const std::vector<FamilyProbe>& probes,
               const std::vector<std::uint64_t>& sizes, Search& search, TuneResult& result) {
    if (sizes.empty()) return;
    cl_int err = CL_SUCCESS;
    cl::Buffer buffer(r.context(), CL_MEM_READ_ONLY, static_cast<size_t>(sizes.back() * sizeof(T)), nullptr, &err);
    check(err, "clCreateBuffer");
    const std::vector<Reference> refs = upload_tuning_data<T>(r.queue(), buffer, sizes, o.seed);
    // The same values in host memory, for the placement stage (tuner_host_path.hpp).
    std::vector<T> host(static_cast<std::size_t>(std::min(sizes.back(), kHostPlacementMaxN)));
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = tuning_value<T>(o.seed, i);
    for (const FamilyProbe& probe : probes)
        for (std::size_t b = 0; b < sizes.size() && !search.stopped(); ++b) {
            const std::size_t before = result.entries.size();
            search.bucket<T>(probe.operation, probe.family, buffer, sizes[b], refs[b]);
            if (probe.operation == Operation::sum && result.entries.size() > before && sizes[b] <= host.size() &&
                !search.stopped())
                measure_host_placement<T>(r, host.data(), sizes[b], refs[b], o.quick ? o.repeats : 3 * o.repeats,
                                          result.entries.back());
        }
    if (o.segments && !search.stopped()) search.segment_stage<T>(buffer, segment_stage_size(sizes));
}

template <class F>
void with_type(ElementType type, F&& f) {
    if (type == ElementType::float16) throw Unsupported("tuning does not measure float16 data yet");
    visit_type(type, [&](auto tag) {
        if constexpr (!std::is_same_v<decltype(tag), half>) f(tag);
    });
}

bool has_profiling(const cl::CommandQueue& queue) {
    cl_command_queue_properties properties = 0;
    check(queue.getInfo(CL_QUEUE_PROPERTIES, &properties), "clGetCommandQueueInfo");
    return (properties & CL_QUEUE_PROFILING_ENABLE) != 0;
}

}  // namespace

TuneResult measure_tuning(const Reducer& reducer, const TuneOptions& options) {
    const DeviceInfo& device = reducer.device_info();
    std::vector<ElementType> types = options.types;
    if (types.empty()) {
        for (ElementType t : {ElementType::int32, ElementType::uint32, ElementType::int64, ElementType::uint64,
                              ElementType::float32, ElementType::float64})
            if (t != ElementType::float64 || device.has_fp64) types.push_back(t);
    }
    for (ElementType t : types) require_support(t, device);
    std::vector<FamilyProbe> probes;
    if (options.families.empty()) {
        probes.assign(std::begin(kProbes), std::end(kProbes));
    } else {
        for (OperationFamily f : options.families) {
            const auto it = std::find_if(std::begin(kProbes), std::end(kProbes),
                                         [&](const FamilyProbe& p) { return p.family == f; });
            if (it == std::end(kProbes))
                throw Unsupported("tuning cannot measure the '" + std::string(family_name(f)) + "' family yet");
            probes.push_back(*it);
        }
    }

    // Kernel times need a profiling queue: the reducer's own, or a second reducer on its context.
    std::optional<Reducer> profiler;
    if (!has_profiling(reducer.queue())) {
        cl_int err = CL_SUCCESS;
        cl::CommandQueue queue(reducer.context(), cl::Device(reducer.queue().getInfo<CL_QUEUE_DEVICE>()),
                               CL_QUEUE_PROFILING_ENABLE, &err);
        check(err, "clCreateCommandQueue");
        profiler.emplace(reducer.context(), queue);
    }
    const Reducer& r = profiler ? *profiler : reducer;

    TuneResult result;
    Search search(r, options, result);
    std::uint64_t total = 0;
    for (ElementType t : types) {
        const std::vector<std::uint64_t> sizes = buckets(options, type_size(t), device);
        for (std::uint64_t n : sizes) total += probes.size() * search.estimate(t, n);
        if (options.segments && !sizes.empty())  // up to 7 teams and 4 work-group sizes a length and kind
            for (std::uint64_t length : kTunedSegmentLengths)
                if (length * 16 <= segment_stage_size(sizes)) total += 2 * 11;
    }
    search.set_total(total);
    for (ElementType t : types) {
        if (search.stopped()) break;
        with_type(t, [&](auto tag) {
            using T = decltype(tag);
            tune_type<T>(r, options, probes, buckets(options, sizeof(T), device), search, result);
        });
    }
    result.complete = !search.stopped();
    return result;
}

void save_tuning(const TuningDatabase& database, const DeviceInfo& device, TuneResult& result) {
    try {
        database.store(device, result.entries);
        result.saved_to = database.file();
    } catch (const Error& e) {
        result.save_error = e.what();
    }
}

std::string size_name(std::uint64_t n) {
    if (n != 0 && (n & (n - 1)) == 0) {
        int k = 0;
        while ((1ull << k) != n) ++k;
        return "2^" + std::to_string(k);
    }
    return std::to_string(n);
}

}  // namespace clreduce
