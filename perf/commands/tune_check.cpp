// clreduce-perf tune --check: for each size bucket of this device's tuned entries (else its
// known-device entries), every `times` of times_sweep() with the other parameters as a call at
// that n uses them, timed in interleaved rounds so that the tuned value and the others share
// the noise of the machine.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <set>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/timing.hpp"
#include "reference/sum_reference.hpp"
#include "reference/with_element_type.hpp"
#include "report/tune_check_result.hpp"
#include "tuning/tuner_final_stage.hpp"  // src/: times_sweep
#include "tuning/tuning_data.hpp"        // src/: the tuner's data

namespace clreduce::perf {
namespace {

using Prefix = TuningReference;

// Empty when `got` is the sum of the prefix, else what is wrong.
template <class T>
std::string problem_with(sum_type_t<T> got, const Prefix& ref, std::uint64_t n, ElementType accumulator) {
    if constexpr (std::is_integral_v<T>) {
        if (static_cast<std::uint64_t>(got) == ref.wrapped) return {};
        return "wrong result " + std::to_string(got) + ", expected " +
               std::to_string(static_cast<sum_type_t<T>>(ref.wrapped));
    } else {
        const testing::FloatReference floats{ref.sum, ref.abs_sum};
        const long double error = std::fabs(static_cast<long double>(got) - floats.sum);
        if (error <= floats.bound(n, accumulator)) return {};
        return "wrong result " + std::to_string(got) + ", expected " + std::to_string(double(floats.sum));
    }
}

template <class T>
CheckRow check_bucket(const Reducer& r, const cl::Buffer& buffer, std::uint64_t n, const Prefix& ref, int rounds) {
    CheckRow row;
    row.type = element_traits<T>::type;
    row.n = n;
    row.plan = r.plan(row.type, Operation::sum, n);
    const LaunchParams fixed = launch_shape(row.plan);
    // The sweep, and the tuned times among it wherever it lies.
    std::vector<std::uint32_t> times = times_sweep(row.type, n, r.device_info(), fixed);
    if (std::find(times.begin(), times.end(), row.plan.times) == times.end())
        times.insert(std::upper_bound(times.begin(), times.end(), row.plan.times), row.plan.times);
    for (std::uint32_t t : times) {
        if (t == row.plan.times) row.tuned = row.candidates.size();
        row.candidates.push_back(CheckCandidate{t, {}, {}});
    }
    const auto run = [&](CheckCandidate& c) -> std::optional<double> {
        LaunchParams p = fixed;
        p.times = c.times;
        try {
            CallInfo info;
            const sum_type_t<T> got = r.sum<T>(buffer, 0, n, p, &info);
            c.problem = problem_with<T>(got, ref, n, info.plan.accumulator);
            if (c.problem.empty()) return device_microseconds(info.kernel_events);
        } catch (const Error& e) {
            c.problem = e.what();
        }
        c.samples_us.clear();
        return std::nullopt;
    };
    // A warm-up call each builds the programs and creates the kernels outside the rounds; its
    // times choose how many rounds (as the tuner does: more for short kernels, -r at least).
    double warm_us = 0;
    for (CheckCandidate& c : row.candidates) warm_us += run(c).value_or(0);
    rounds = std::max(rounds, retiming_rounds(warm_us, row.candidates.size()));
    row.rounds = rounds;
    // Each round starts one candidate further on, so that none is always timed first.
    const std::size_t count = row.candidates.size();
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t step = 0; step < count; ++step) {
            CheckCandidate& c = row.candidates[(std::size_t(round) + step) % count];
            if (!c.problem.empty()) continue;
            if (const auto us = run(c)) c.samples_us.push_back(*us);
        }
    }
    return row;
}

constexpr ElementType kTypes[] = {ElementType::int8,    ElementType::uint8,  ElementType::int16, ElementType::uint16,
                                  ElementType::int32,   ElementType::uint32, ElementType::int64, ElementType::uint64,
                                  ElementType::float32, ElementType::float64};

// The size buckets of `type`'s additive single-range entries within [min_n, max_n] (segment
// teams are not checked here).
std::vector<std::uint64_t> buckets_of(const std::vector<TunedEntry>& entries, ElementType type, std::uint64_t min_n,
                                      std::uint64_t max_n) {
    std::set<std::uint64_t> sizes;
    for (const TunedEntry& e : entries)
        if (e.type == type && e.family == OperationFamily::additive && e.segment_length == 0 && e.n >= min_n &&
            e.n <= max_n)
            sizes.insert(e.n);
    return {sizes.begin(), sizes.end()};
}

bool has_entry(const std::vector<TunedEntry>& entries, ElementType type) {
    return std::any_of(entries.begin(), entries.end(), [&](const TunedEntry& e) {
        return e.type == type && e.family == OperationFamily::additive && e.segment_length == 0;
    });
}

}  // namespace

int run_tune_check(const Reducer& reducer, const TuneCommandOptions& o) {
    const DeviceInfo& d = reducer.device_info();
    const std::vector<TunedEntry> tuned = reducer.tuned_entries();
    const std::vector<TunedEntry> known = known_device_entries(d);
    std::vector<ElementType> types;
    for (const std::string& t : o.types) types.push_back(parse_type(t));
    if (types.empty())
        for (ElementType t : kTypes)
            if (has_entry(tuned, t) || has_entry(known, t)) types.push_back(t);

    CheckReport report;
    report.device = d;
    report.rounds = o.repeats > 0 ? o.repeats : 15;
    std::cout << "checking each tuned times against every times of the sweep (1 .. " << kTimesSweepMax
              << " by powers of 2, other parameters as tuned), " << report.rounds
              << " interleaved rounds, median device time\n\n";
    print_check_header();
    const std::uint64_t byte_cap = std::min<std::uint64_t>(d.max_alloc_size, d.global_mem_size / 2);
    for (ElementType type : types) {
        const std::string name(type_name(type));
        try {
            require_support(type, d);
        } catch (const Unsupported& e) {
            report.notes.push_back(name + ": " + e.what());
            continue;
        }
        // Calls use the tuned entries of a type where it has any, else the known-device ones.
        const bool from_tuning = has_entry(tuned, type);
        std::vector<std::uint64_t> sizes = buckets_of(from_tuning ? tuned : known, type, o.min_n, o.max_n);
        const std::size_t listed = sizes.size();
        sizes.erase(std::remove_if(sizes.begin(), sizes.end(),
                                   [&](std::uint64_t n) { return n > byte_cap / type_size(type); }),
                    sizes.end());
        if (sizes.size() < listed)
            report.notes.push_back(name + ": " + std::to_string(listed - sizes.size()) +
                                   " bucket(s) too large for the device memory skipped");
        if (sizes.empty()) {
            if (listed == 0)
                report.notes.push_back(name + ": no tuned or known-device entry in [" + size_label(o.min_n) + ", " +
                                       size_label(o.max_n) + "]; run `clreduce-perf tune -t " + name + "` first");
            continue;
        }
        testing::with_element_type(type, [&](auto tag) {
            using T = decltype(tag);
            cl_int err = CL_SUCCESS;
            cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY, static_cast<size_t>(sizes.back() * sizeof(T)),
                              nullptr, &err);
            check(err, "clCreateBuffer");
            const std::vector<Prefix> refs = upload_tuning_data<T>(reducer.queue(), buffer, sizes, o.seed);
            for (std::size_t b = 0; b < sizes.size(); ++b) {
                report.rows.push_back(check_bucket<T>(reducer, buffer, sizes[b], refs[b], report.rounds));
                print_check_row(report.rows.back());
            }
        });
    }
    std::cout << "\n";
    for (const std::string& note : report.notes) std::cout << "note: " << note << "\n";
    std::cout << check_summary(report) << "\n";
    if (!o.out.csv.empty()) write_check_csv(report, o.out.csv);
    if (!o.out.json.empty()) write_check_json(report, o.out.json);
    const bool wrong = std::any_of(report.rows.begin(), report.rows.end(), [](const CheckRow& r) { return r.wrong(); });
    if (wrong) std::cerr << "clreduce-perf tune --check: some candidates gave wrong results (above)\n";
    return wrong ? 1 : 0;
}

}  // namespace clreduce::perf
