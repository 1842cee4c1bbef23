#pragma once
// What `clreduce-perf tune --check` measured: how close each tuned `times` is to the best of an
// exhaustive sweep of `times` (the other parameters as tuned), measured in interleaved rounds.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/launch_params.hpp>

namespace clreduce::perf {

// A tuned times passes when its median is within 2% of the sweep's best.
constexpr double kTunedWithin = 1.02;

struct CheckCandidate {
    std::uint32_t times = 0;
    std::vector<double> samples_us;  // kernel times, one per round
    std::string problem;             // why it has no time (a wrong result, a failure); empty: none
    std::optional<double> median_us() const;
};

// One size bucket of one type.
struct CheckRow {
    ElementType type = ElementType::int32;
    std::uint64_t n = 0;
    LaunchPlan plan;                         // what a call at n uses (tuned, known-device or default values)
    std::vector<CheckCandidate> candidates;  // times_sweep() of the plan's other parameters
    std::size_t tuned = 0;                   // the candidate with plan.times
    int rounds = 0;                          // interleaved rounds measured (at least -r)

    std::optional<std::size_t> best() const;  // lowest median; nullopt when none has a time
    std::optional<double> ratio() const;      // tuned median / best median
    // "PASS" (ratio <= kTunedWithin), "FAIL", or "ERROR" (the tuned candidate has no time).
    std::string verdict() const;
    bool wrong() const;  // some candidate gave a wrong result
};

struct CheckReport {
    DeviceInfo device;
    int rounds = 0;
    std::vector<CheckRow> rows;
    std::vector<std::string> notes;  // types with nothing to check, and why
    std::size_t passed() const;
};

void print_check_header();
void print_check_row(const CheckRow& row);
std::string check_summary(const CheckReport& report);  // "k of m buckets within 2% ..."
void write_check_csv(const CheckReport& report, const std::string& path);
void write_check_json(const CheckReport& report, const std::string& path);

}  // namespace clreduce::perf
