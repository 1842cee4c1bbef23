#pragma once
// What `clreduce-perf compare` measured: one row per n x competitor.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>

namespace clreduce::perf {

// correct:   integers exact; floats within the bound of a double accumulation,
//            (n - 1) * 2^-53 * sum|x| (plus the reference's own error)
// imprecise: a float32 accumulation outside that bound whose relative error is at most 2^-16
//            (it keeps 16 of float's 24 bits): lower precision by design, not a bug. (Its
//            worst-case bound, (n - 1) * 2^-24 * sum|x|, exceeds the sum itself at large n and
//            would excuse anything.)
// wrong:     anything else (also a call that differs from another, or other data)
enum class Verdict { correct, imprecise, wrong };
std::string_view to_string(Verdict v);

struct CompetitorInfo {
    std::string name;
    std::string unavailable;  // empty: it ran
    std::string detail;
};

struct CompareRow {
    std::uint64_t n = 0;
    std::string competitor;
    std::string error;  // the competitor failed at this n (it is skipped, with this message)
    double wall_us = 0;
    std::optional<double> device_us;
    long double value = 0;
    Verdict verdict = Verdict::correct;
    std::string problem;  // why it is not correct
    double relative_error = 0;
    std::string note;   // e.g. the plan clreduce used
    bool copy = false;  // a copy of the data (the link's rows), no result

    bool ran() const { return error.empty(); }
};

// The read-only kernel (perf/measure/read_only_kernel.hpp) on the competitors' buffer at one n: the
// device's read bandwidth over the same bytes, which a reduction can approach but not pass.
struct ReadOnlyRow {
    std::uint64_t n = 0;
    std::uint64_t bytes = 0;  // read: n * sizeof(T) rounded down to whole 16-byte vectors
    double device_us = 0;     // median
    std::string error;        // it failed at this n

    bool ran() const { return error.empty(); }
    std::optional<double> gbps() const;  // bytes / device time; empty when nothing was read
};

struct CompareResult {
    DeviceInfo device;
    ElementType type = ElementType::int32;
    int repeats = 0;
    std::uint64_t seed = 0;
    std::string data;  // what the random data is, e.g. "uniform integers in [-128, 127]"
    std::vector<std::uint64_t> sizes;
    std::vector<std::string> dropped;  // sizes left out, with why
    std::vector<CompetitorInfo> competitors;
    std::vector<CompareRow> rows;
    std::string read_only_detail;  // the read-only kernel's launch shape
    std::vector<ReadOnlyRow> read_only;

    const CompareRow* find(std::uint64_t n, const std::string& competitor) const;
    const ReadOnlyRow* find_read_only(std::uint64_t n) const;
    // n * sizeof(T) / the row's device time, in GB/s; empty without a device time.
    std::optional<double> device_gbps(const CompareRow& row) const;
    // n * sizeof(T) / the row's wall time, in GB/s.
    std::optional<double> wall_gbps(const CompareRow& row) const;
    // device_gbps / the read-only kernel's GB/s at the same n (clreduce's target: >= 0.97 at
    // n = 2^30); empty when either is missing.
    std::optional<double> read_only_fraction(const CompareRow& row) const;
    // competitor time / clreduce time at the same n; empty when either is missing.
    std::optional<double> speedup_wall(const CompareRow& row) const;
    std::optional<double> speedup_device(const CompareRow& row) const;
    // Host data: the pinned write's time / clreduce-host's at n (clreduce-host's share of the
    // link's ceiling; 1 would be a sum at the speed of the copy alone); empty when either is missing.
    std::optional<double> host_link_fraction(std::uint64_t n) const;
    // Host data: the slower of the pinned write and the host copy / clreduce-host's time (its
    // share of what overlapping the two could reach); empty when any is missing.
    std::optional<double> host_bound_fraction(std::uint64_t n) const;
    // Every row of the plain `clreduce` competitor ran and is correct, no other clreduce row
    // (clreduce-host, clreduce-cr, ...) is wrong, and some clreduce row ran; true where compare
    // --only left every clreduce competitor out.
    bool clreduce_correct() const;
};

void print_compare_table(const CompareResult& result, std::ostream& out);
void write_compare_csv(const CompareResult& result, const std::string& path);
void write_compare_json(const CompareResult& result, const std::string& path);
void write_compare_svg(const CompareResult& result, const std::string& path);

}  // namespace clreduce::perf
