#pragma once
// What the tuning tests share (test_tuning_database.cpp, test_tuning.cpp): fresh files under the
// tests' cache folder, entry comparisons, stderr capture, an environment variable unset for a
// while, the tuning tests' own reducer and the plans a call gets without tuning.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "plan/planner.hpp"  // src/
#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_support.hpp"
#include "tuning/tuner_final_stage.hpp"  // src/: times_sweep
#include "tuning/tuning_table.hpp"       // src/: what a plan would take without the database
#include "tuning_support.hpp"

namespace clreduce::test {

namespace fs = std::filesystem;

// A fresh file path under the tests' private cache folder.
inline fs::path fresh_file(const std::string& name) {
    static std::atomic<int> counter{0};
    const fs::path folder = cache_directory().value_or(fs::temp_directory_path()) /
                            ("tuning-tests-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder / name;
}

inline void write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
}

inline std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline bool same(const TunedEntry& a, const TunedEntry& b) {
    return a.type == b.type && a.family == b.family && a.n == b.n && a.params.times == b.params.times &&
           a.params.work_group_size == b.params.work_group_size && a.params.stride == b.params.stride &&
           a.params.vector_width == b.params.vector_width && a.params.inter_group == b.params.inter_group &&
           a.segment_length == b.segment_length && a.params.segment_team == b.params.segment_team &&
           a.kernel_us == b.kernel_us && a.default_kernel_us == b.default_kernel_us &&
           a.params.host_path_bytes == b.params.host_path_bytes && a.host_data_us == b.host_data_us &&
           a.device_data_us == b.device_data_us;
}

inline bool holds(const std::vector<TunedEntry>& entries, const TunedEntry& wanted) {
    for (const TunedEntry& e : entries)
        if (same(e, wanted)) return true;
    return false;
}

// Captures what is written to std::cerr while it lives.
class CaptureStderr {
public:
    CaptureStderr() : previous_(std::cerr.rdbuf(buffer_.rdbuf())) {}
    ~CaptureStderr() { std::cerr.rdbuf(previous_); }
    std::string text() const { return buffer_.str(); }

private:
    std::ostringstream buffer_;
    std::streambuf* previous_;
};

inline std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Unsets an environment variable while it lives.
class WithoutEnv {
public:
    explicit WithoutEnv(const char* name) : name_(name) {
        if (const char* value = std::getenv(name)) saved_ = value;
        ::unsetenv(name);
    }
    ~WithoutEnv() {
        if (saved_) ::setenv(name_, saved_->c_str(), 1);
    }

private:
    const char* name_;
    std::optional<std::string> saved_;
};

// The tuning tests' own reducer, so that switching databases never touches the shared one.
inline Reducer& tuning_reducer() {
    static Reducer instance(default_device());
    return instance;
}

// An int32 entry for the real device that differs from its defaults in every field it can.
inline TunedEntry unusual_entry(const DeviceInfo& d, std::uint64_t n) {
    const LaunchPlan defaults = make_plan(ElementType::int32, n, d);
    const std::uint32_t wg = defaults.work_group_size >= 64 ? defaults.work_group_size / 2 : defaults.work_group_size;
    const InterGroup level3 = d.has_int64_atomics && defaults.inter_group == InterGroup::second_pass
                                  ? InterGroup::atomic
                                  : InterGroup::second_pass;
    return entry(ElementType::int32, n, 3, wg, defaults.stride == Stride::global ? Stride::local : Stride::global,
                 defaults.vector_width == 2 ? 1 : 2, level3);
}

template <class T>
inline void check_sum_exact(const Reducer& r, std::uint64_t n, const LaunchParams& params, CallInfo& info) {
    const auto data = testing::random_values<T>(n, test::seed_for(n, 77));
    INFO("n " << n << ", data seed " << test::seed_for(n, 77));
    const auto got = r.sum(data, params, &info);
    CHECK(got == testing::exact_sum(data.data(), n));
}

// What a call gets when nothing is tuned: the shipped known-device entry where the table has
// one for this device (the H200), else the device defaults.
inline LaunchPlan untuned_plan(ElementType type, Operation op, std::uint64_t n, const DeviceInfo& d) {
    const auto known = TuningTable({}, known_device_entries(d)).lookup(type, operation_family(op), n);
    return known ? make_plan(type, n, d, {}, *known) : make_plan(type, n, d);
}

}  // namespace clreduce::test
