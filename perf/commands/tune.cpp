// clreduce-perf tune: measures the best launch parameters of a device and stores them in
// the tuning database that every Reducer reads at construction (--check: tune_check.cpp).
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"
#include "measure/timing.hpp"
#include "report/output_files.hpp"

namespace clreduce::perf {
namespace {

std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) { interrupted.store(true); }

std::string clock_text(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    std::ostringstream out;
    out << s / 60 << ":" << std::setw(2) << std::setfill('0') << s % 60;
    return out.str();
}

// A bar redrawn in place on a terminal; on a log (CI), one line per tenth of the work.
class ProgressBar {
public:
    ProgressBar() : tty_(::isatty(STDERR_FILENO) != 0) {}
    void operator()(const TuneProgress& p) {
        const double fraction = p.total ? double(p.done) / double(p.total) : 0;
        std::ostringstream line;
        const int width = 24, filled = static_cast<int>(fraction * width);
        line << "[" << std::string(filled, '#') << std::string(width - filled, '-') << "] " << std::setw(3)
             << static_cast<int>(fraction * 100) << "% " << p.done << "/" << p.total << "  elapsed "
             << clock_text(p.elapsed_s) << "  left ~" << clock_text(p.remaining_s) << "  " << p.current;
        std::string text = line.str();
        if (tty_) {
            text.resize(std::max<std::size_t>(text.size(), last_width_), ' ');
            last_width_ = line.str().size();
            std::cerr << "\r" << text << std::flush;
        } else if (static_cast<int>(fraction * 10) > last_tenth_) {
            last_tenth_ = static_cast<int>(fraction * 10);
            std::cerr << text << "\n";
        }
    }
    void finish() {
        if (tty_ && last_width_ > 0) std::cerr << "\n";
    }

private:
    bool tty_;
    std::size_t last_width_ = 0;
    int last_tenth_ = -1;
};

template <class T>
std::string field(const std::optional<T>& value) {
    if (!value) return "-";
    std::ostringstream out;
    if constexpr (std::is_enum_v<T>)
        out << to_string(*value);
    else
        out << *value;
    return out.str();
}

// Segment entries: team and work-group size per kind and average length (tuner_segments.hpp).
void print_segment_entries(const std::vector<TunedEntry>& entries, bool timed) {
    std::cout << "segment shapes (equal lengths: batches and rows; varying: listed segments, lengths uniform in "
                 "0 .. 2 x average; default: the rule's shape):\n"
              << std::left << std::setw(9) << "type" << std::setw(9) << "lengths" << std::right << std::setw(9)
              << "average" << std::setw(6) << "team" << std::setw(6) << "wg";
    if (timed) std::cout << std::setw(12) << "kernel_us" << std::setw(12) << "default_us" << std::setw(9) << "speedup";
    std::cout << std::setw(11) << "host data";
    if (timed) std::cout << std::setw(14) << "on_host_us" << std::setw(14) << "on_device_us";
    std::cout << "\n";
    for (const TunedEntry& e : entries) {
        std::cout << std::left << std::setw(9) << type_name(e.type) << std::setw(9)
                  << (e.equal_lengths ? "equal" : "varying") << std::right << std::setw(9) << e.segment_length
                  << std::setw(6) << field(e.params.segment_team) << std::setw(6) << field(e.params.work_group_size);
        if (timed)
            std::cout << std::fixed << std::setprecision(1) << std::setw(12) << e.kernel_us << std::setw(12)
                      << e.default_kernel_us << std::setw(8) << std::setprecision(2)
                      << (e.kernel_us > 0 ? e.default_kernel_us / e.kernel_us : 0) << "x";
        std::cout << "\n";
    }
}

void print_entries(const std::vector<TunedEntry>& all, bool timed) {
    std::vector<TunedEntry> entries, segment_entries;
    for (const TunedEntry& e : all) (e.segment_length != 0 ? segment_entries : entries).push_back(e);
    std::cout << std::left << std::setw(9) << "type" << std::setw(10) << "family" << std::right << std::setw(7) << "n"
              << std::setw(7) << "times" << std::setw(6) << "wg" << std::setw(8) << "stride" << std::setw(5) << "vec"
              << std::setw(13) << "level3";
    if (timed) std::cout << std::setw(12) << "kernel_us" << std::setw(12) << "default_us" << std::setw(9) << "speedup";
    std::cout << std::setw(11) << "host data";
    if (timed) std::cout << std::setw(14) << "on_host_us" << std::setw(14) << "on_device_us";
    std::cout << "\n";
    for (const TunedEntry& e : entries) {
        std::cout << std::left << std::setw(9) << type_name(e.type) << std::setw(10) << family_name(e.family)
                  << std::right << std::setw(7) << size_label(e.n) << std::setw(7) << field(e.params.times)
                  << std::setw(6) << field(e.params.work_group_size) << std::setw(8) << field(e.params.stride)
                  << std::setw(5) << field(e.params.vector_width) << std::setw(13) << field(e.params.inter_group);
        if (timed) {
            std::cout << std::fixed << std::setprecision(1) << std::setw(12) << e.kernel_us << std::setw(12)
                      << e.default_kernel_us << std::setw(8) << std::setprecision(2)
                      << (e.kernel_us > 0 ? e.default_kernel_us / e.kernel_us : 0) << "x";
        }
        // Where host data of this size is reduced (tuner_host_path.hpp), and both wall times.
        std::cout << std::setw(11)
                  << (!e.params.host_path_bytes        ? "default"
                      : *e.params.host_path_bytes == 0 ? "device"
                                                       : "host");
        if (timed && e.host_data_us > 0)
            std::cout << std::fixed << std::setprecision(1) << std::setw(14) << e.host_data_us << std::setw(14)
                      << e.device_data_us;
        std::cout << "\n";
    }
    if (!segment_entries.empty()) {
        std::cout << "\n";
        print_segment_entries(segment_entries, timed);
    }
}

}  // namespace

int run_tune(const TuneCommandOptions& o) {
    Reducer reducer = profiling_reducer(o.device);
    if (!o.file.empty()) reducer.use_tuning_database(TuningDatabase(o.file));
    const TuningDatabase db = reducer.tuning_database();
    const DeviceInfo& d = reducer.device_info();
    const std::string file = db.file() ? db.file()->string() : std::string("(none: disk caches are off)");

    std::cout << "clreduce-perf tune: " << d.platform_name << " / " << d.name << " (" << d.compute_units
              << " compute units, driver " << d.driver_version << ")\n"
              << "tuning file: " << file << "\n";

    if (o.reset) {
        db.forget(d);
        std::cout << "removed this device's entries\n";
        return 0;
    }
    if (o.show) {
        const auto entries = reducer.tuned_entries();
        std::cout << "\n" << entries.size() << " tuned entries for this device:\n";
        print_entries(entries, true);
        const auto known = known_device_entries(d);
        if (!known.empty()) {
            std::cout << "\nknown-device entries (used where nothing is tuned; '-': the default):\n";
            print_entries(known, false);
        }
        return 0;
    }

    if (o.check) return run_tune_check(reducer, o);

    TuneOptions options;
    for (const std::string& t : o.types) options.types.push_back(parse_type(t));
    options.min_n = o.min_n;
    options.max_n = o.max_n;
    options.quick = o.quick;
    options.repeats = o.repeats > 0 ? o.repeats : 5;
    options.time_budget_s = o.time_budget_s;
    options.seed = o.seed;
    options.save = !o.dry_run;
    options.segments = !o.no_segments;
    options.stop = &interrupted;
    ProgressBar bar;
    options.progress = [&](const TuneProgress& p) { bar(p); };

    std::cout << "sizes " << size_label(o.min_n) << " .. " << size_label(o.max_n) << " in powers of 4, "
              << (o.quick ? "quick search, " : "") << "family additive (measured with sum)"
              << (o.no_segments ? "" : ", then segment shapes (average lengths 4 .. 4096, equal and varying)")
              << (o.dry_run ? ", dry run: nothing is saved" : "") << "\n\n";
    interrupted.store(false);
    auto previous = std::signal(SIGINT, on_sigint);
    TuneResult result;
    try {
        result = reducer.tune(options);
    } catch (...) {
        std::signal(SIGINT, previous);
        bar.finish();
        throw;
    }
    std::signal(SIGINT, previous);
    bar.finish();

    print_entries(result.entries, true);
    std::cout << "\n"
              << result.measurements << " candidates measured (" << reducer.counters().programs_built
              << " programs built), " << result.rejected
              << " rejected (wrong result or failed to run); every accepted result matched the CPU sum\n";
    if (result.saved_to)
        std::cout << "saved " << result.entries.size() << " entries to " << result.saved_to->string() << "\n";
    else if (!result.save_error.empty())
        std::cerr << "clreduce-perf tune: could not save: " << result.save_error << "\n";
    if (!result.complete) {
        std::cerr << "clreduce-perf tune: " << (interrupted.load() ? "interrupted" : "time budget spent")
                  << "; kept the " << result.entries.size() << " entries measured so far\n";
        if (interrupted.load()) return 130;
    }
    return result.save_error.empty() ? 0 : 1;
}

}  // namespace clreduce::perf
