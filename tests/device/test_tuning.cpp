// The tuning database: round trip, damaged and foreign files, concurrent writers, tuned values
// used by later calls (observable through plan() and CallInfo), and a real tune on the device.
// The lookup rule and the known-device table, host-only: unit/test_tuning_table.cpp.
#include <algorithm>
#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "plan/planner.hpp"  // src/
#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_support.hpp"
#include "tuning/tuner_final_stage.hpp"  // src/: times_sweep
#include "tuning/tuning_table.hpp"       // src/: what a plan would take without the database
#include "tuning_support.hpp"

using namespace clreduce;
namespace fs = std::filesystem;

namespace {

// A fresh file path under the tests' private cache folder.
fs::path fresh_file(const std::string& name) {
    static std::atomic<int> counter{0};
    const fs::path folder = cache_directory().value_or(fs::temp_directory_path()) /
                            ("tuning-tests-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder / name;
}

void write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

using test::entry;
using test::fake_gpu;

bool same(const TunedEntry& a, const TunedEntry& b) {
    return a.type == b.type && a.family == b.family && a.n == b.n && a.params.times == b.params.times &&
           a.params.work_group_size == b.params.work_group_size && a.params.stride == b.params.stride &&
           a.params.vector_width == b.params.vector_width && a.params.inter_group == b.params.inter_group &&
           a.kernel_us == b.kernel_us && a.default_kernel_us == b.default_kernel_us;
}

bool holds(const std::vector<TunedEntry>& entries, const TunedEntry& wanted) {
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

std::size_t count(const std::string& text, const std::string& what) {
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
Reducer& tuning_reducer() {
    static Reducer instance(default_device());
    return instance;
}

// An int32 entry for the real device that differs from its defaults in every field it can.
TunedEntry unusual_entry(const DeviceInfo& d, std::uint64_t n) {
    const LaunchPlan defaults = make_plan(ElementType::int32, n, d);
    const std::uint32_t wg = defaults.work_group_size >= 64 ? defaults.work_group_size / 2 : defaults.work_group_size;
    const InterGroup level3 = d.has_int64_atomics && defaults.inter_group == InterGroup::second_pass
                                  ? InterGroup::atomic
                                  : InterGroup::second_pass;
    return entry(ElementType::int32, n, 3, wg, defaults.stride == Stride::global ? Stride::local : Stride::global,
                 defaults.vector_width == 2 ? 1 : 2, level3);
}

template <class T>
void check_sum_exact(const Reducer& r, std::uint64_t n, const LaunchParams& params, CallInfo& info) {
    const auto data = testing::random_values<T>(n, test::seed_for(n, 77));
    INFO("n " << n << ", data seed " << test::seed_for(n, 77));
    const auto got = r.sum(data, params, &info);
    CHECK(got == testing::exact_sum(data.data(), n));
}

// What a call gets when nothing is tuned: the shipped known-device entry where the table has
// one for this device (the H200), else the device defaults.
LaunchPlan untuned_plan(ElementType type, Operation op, std::uint64_t n, const DeviceInfo& d) {
    const auto known = TuningTable({}, known_device_entries(d)).lookup(type, operation_family(op), n);
    return known ? make_plan(type, n, d, {}, *known) : make_plan(type, n, d);
}

}  // namespace

TEST_CASE("tuning database: entries survive a store and a load, merged by key", "[tuning]") {
    const fs::path file = fresh_file("tuning.json");
    const TuningDatabase db(file);
    const DeviceInfo gpu = fake_gpu();
    CHECK(db.load(gpu).entries.empty());  // no file yet: nothing, and no warning
    CHECK(db.load(gpu).warnings.empty());

    std::vector<TunedEntry> first = {entry(ElementType::uint32, 1 << 12, 4, 64, Stride::global, 4, InterGroup::atomic),
                                     entry(ElementType::float64, 1 << 20, 32, 256, Stride::local, 2,
                                           InterGroup::second_pass)};
    db.store(gpu, first);
    TuningLoad loaded = db.load(gpu);
    CHECK(loaded.warnings.empty());
    REQUIRE(loaded.entries.size() == 2);
    for (const TunedEntry& e : first) CHECK(holds(loaded.entries, e));

    // Same key replaced, new key added, other keys kept; another device's entries separate.
    const TunedEntry replaced = entry(ElementType::uint32, 1 << 12, 16, 128, Stride::local, 8, InterGroup::second_pass);
    const TunedEntry added = entry(ElementType::int64, 1 << 14, 2, 32, Stride::global, 2, InterGroup::atomic);
    db.store(gpu, {replaced, added});
    DeviceInfo other = gpu;
    other.driver_version = "9.9";  // a new driver is another key
    db.store(other, {entry(ElementType::int32, 1 << 16, 1, 64, Stride::global, 4, InterGroup::atomic)});
    loaded = db.load(gpu);
    REQUIRE(loaded.entries.size() == 3);
    CHECK(holds(loaded.entries, replaced));
    CHECK(holds(loaded.entries, added));
    CHECK(holds(loaded.entries, first[1]));
    CHECK(db.load(other).entries.size() == 1);

    const std::string text = read_text(file);
    CHECK_THAT(text, Catch::Matchers::Contains("\"schema_version\": 1"));
    CHECK_THAT(text, Catch::Matchers::Contains("\"library_version\": \"" + std::string(library_version()) + "\""));
    CHECK_THAT(text, Catch::Matchers::Contains("\"driver_version\": \"9.9\""));

    db.forget(gpu);
    CHECK(db.load(gpu).entries.empty());
    CHECK(db.load(other).entries.size() == 1);
}

TEST_CASE("tuning database: the default file is <cache folder>/tuning.json unless CLREDUCE_TUNING_FILE says",
          "[tuning]") {
    const WithoutEnv no_file("CLREDUCE_TUNING_FILE");
    REQUIRE(cache_directory().has_value());
    CHECK(TuningDatabase::default_file() == *cache_directory() / "tuning.json");
    ::setenv("CLREDUCE_TUNING_FILE", "/somewhere/else.json", 1);
    CHECK(TuningDatabase::default_file() == fs::path("/somewhere/else.json"));
    ::setenv("CLREDUCE_TUNING_FILE", "off", 1);
    CHECK_FALSE(TuningDatabase::default_file().has_value());
    CHECK_FALSE(TuningDatabase().file().has_value());
    ::unsetenv("CLREDUCE_TUNING_FILE");
    set_cache_directory(fs::path());  // disk caches off: no file, and storing says so
    CHECK_FALSE(TuningDatabase::default_file().has_value());
    CHECK_THROWS_AS(TuningDatabase().store(fake_gpu(), {}), Error);
    set_cache_directory(std::nullopt);
    CHECK(TuningDatabase::default_file() == *cache_directory() / "tuning.json");
}

TEST_CASE("tuning database: corrupt, truncated, empty, foreign and wrong-schema files are ignored with a warning",
          "[tuning]") {
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const TunedEntry good = unusual_entry(d, 1 << 16);

    // A valid file for this device, to damage in each way below.
    const fs::path valid = fresh_file("valid.json");
    TuningDatabase(valid).store(d, {good});
    const std::string text = read_text(valid);
    REQUIRE(TuningDatabase(valid).load(d).entries.size() == 1);

    std::string foreign_version = text;
    const std::string version_field = "\"library_version\": \"" + std::string(library_version()) + "\"";
    REQUIRE(foreign_version.find(version_field) != std::string::npos);
    foreign_version.replace(foreign_version.find(version_field), version_field.size(),
                            "\"library_version\": \"0.0.1\"");
    std::string foreign_schema = text;
    foreign_schema.replace(foreign_schema.find("\"schema_version\": 1"), 19, "\"schema_version\": 99");
    std::string not_ours = text;
    not_ours.replace(not_ours.find("clreduce tuning database"), 24, "something else entirely!");

    const std::vector<std::pair<std::string, std::string>> cases = {
        {"truncated", text.substr(0, text.size() / 2)},
        {"empty", ""},
        {"whitespace", "  \n"},
        {"garbage",
         "\x7f"
         "ELF\x02\x01 not json at all"},
        {"array", "[1, 2, 3]"},
        {"foreign library version", foreign_version},
        {"foreign schema", foreign_schema},
        {"another format", not_ours},
        {"devices not a list",
         "{\"format\": \"clreduce tuning database\", \"schema_version\": 1, \"library_version\": \"" +
             std::string(library_version()) + "\", \"devices\": 7}"},
    };
    const std::int64_t n = 1 << 16;
    for (const auto& [what, content] : cases) {
        SECTION(what) {
            const fs::path file = fresh_file("damaged.json");
            write_text(file, content);
            CaptureStderr captured;
            const TuningLoad load = TuningDatabase(file).load(d);
            CHECK(load.entries.empty());
            REQUIRE(load.warnings.size() == 1);
            CHECK_THAT(load.warnings[0], Catch::Matchers::Contains(file.string()));
            TuningDatabase(file).load(d);  // warned once per file and problem
            CHECK(count(captured.text(), file.string()) == 1);

            r.use_tuning_database(TuningDatabase(file));
            CHECK(r.tuned_entries().empty());
            const LaunchPlan plan = r.plan(ElementType::int32, Operation::sum, n);
            const LaunchPlan untuned = untuned_plan(ElementType::int32, Operation::sum, n, d);
            CHECK(plan.sources.times == untuned.sources.times);
            CHECK(plan.describe() == untuned.describe());
            CallInfo info;
            check_sum_exact<std::int32_t>(r, n, {}, info);  // host data: planned as such
            CHECK(info.plan.describe() ==
                  r.plan(ElementType::int32, Operation::sum, n, {}, CallForm::host_data).describe());

            // Storing into a damaged file replaces it with a valid one.
            TuningDatabase(file).store(d, {good});
            CHECK(TuningDatabase(file).load(d).entries.size() == 1);
        }
    }
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}

TEST_CASE("tuning database: entries invalid for the device or malformed are ignored, the rest used", "[tuning]") {
    const DeviceInfo gpu = fake_gpu();
    const fs::path file = fresh_file("tuning.json");
    const TuningDatabase db(file);
    const TunedEntry ok = entry(ElementType::uint32, 1 << 20, 8, 256, Stride::global, 4, InterGroup::atomic);
    db.store(gpu,
             {ok, entry(ElementType::uint32, 1 << 12, 8, 96, Stride::global, 4, InterGroup::atomic),  // wg not 2^k
              entry(ElementType::uint32, 1 << 14, 8, 2048, Stride::global, 4, InterGroup::atomic),    // wg > max
              entry(ElementType::int32, 1 << 14, 0, 256, Stride::global, 4, InterGroup::atomic),      // times 0
              entry(ElementType::int32, 1 << 16, 4, 256, Stride::global, 3, InterGroup::atomic),      // vec 3
              entry(ElementType::float32, 1 << 16, 4, 256, Stride::global, 4, InterGroup::atomic)});  // float atomics
    // A hand-edited entry with an unknown type and one with a string where a number belongs.
    std::string text = read_text(file);
    const std::string anchor = "\"entries\": [";
    text.insert(text.find(anchor) + anchor.size(),
                "{\"type\": \"int128\", \"family\": \"additive\", \"n\": 4096, \"times\": 4},"
                "{\"type\": \"int32\", \"family\": \"additive\", \"n\": \"big\", \"times\": 4},");
    write_text(file, text);

    CaptureStderr captured;
    const TuningLoad load = db.load(gpu);
    REQUIRE(load.entries.size() == 1);
    CHECK(same(load.entries[0], ok));
    CHECK(load.warnings.size() == 7);
    CHECK(count(captured.text(), "is invalid for 'fake GPU'") == 5);
    CHECK(count(captured.text(), "malformed entry") == 2);

    // Same on a real device: an entry it cannot run never reaches a plan.
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const fs::path real_file = fresh_file("tuning.json");
    TuningDatabase(real_file).store(d, {entry(ElementType::int32, 1 << 16, 4,
                                              static_cast<std::uint32_t>(d.max_work_group_size) * 2, Stride::global, 4,
                                              InterGroup::second_pass)});
    r.use_tuning_database(TuningDatabase(real_file));
    CHECK(r.tuned_entries().empty());
    CHECK(r.plan(ElementType::int32, 1 << 16).sources.work_group_size ==
          untuned_plan(ElementType::int32, Operation::sum, 1 << 16, d).sources.work_group_size);
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}

TEST_CASE("tuning database: several processes and threads storing at once lose nothing", "[tuning]") {
    const DeviceInfo gpu = fake_gpu();
    const fs::path file = fresh_file("tuning.json");
    constexpr int kProcesses = 6, kThreads = 4, kRounds = 8;
    // Writer w stores n = (w + 1) * 2^20 + round, one store per round.
    const auto writer_entry = [](int writer, int round) {
        return entry(ElementType::uint32, (std::uint64_t(writer + 1) << 20) + round, 1 + round, 64, Stride::global, 4,
                     InterGroup::atomic);
    };
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            int status = 0;
            try {
                const TuningDatabase db(file);
                for (int round = 0; round < kRounds; ++round) db.store(gpu, {writer_entry(p, round)});
            } catch (...) {
                status = 1;
            }
            ::_exit(status);
        }
        children.push_back(pid);
    }
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            try {
                const TuningDatabase db(file);
                for (int round = 0; round < kRounds; ++round) db.store(gpu, {writer_entry(kProcesses + t, round)});
            } catch (...) {
                ++failures;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (pid_t pid : children) {
        int status = -1;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    CHECK(failures == 0);

    const TuningLoad load = TuningDatabase(file).load(gpu);
    CHECK(load.warnings.empty());
    CHECK(load.entries.size() == std::size_t(kProcesses + kThreads) * kRounds);
    for (int w = 0; w < kProcesses + kThreads; ++w)
        for (int round = 0; round < kRounds; ++round) CHECK(holds(load.entries, writer_entry(w, round)));
    // No temporary files left behind.
    for (const auto& f : fs::directory_iterator(file.parent_path()))
        CHECK_THAT(f.path().filename().string(), !Catch::Matchers::Contains(".tmp."));
}

TEST_CASE("tuned values are used by plan() and by later sum calls, explicit parameters win", "[tuning][sum]") {
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const std::uint64_t n = 1 << 16;
    const TunedEntry tuned = unusual_entry(d, n);
    const fs::path file = fresh_file("tuning.json");
    TuningDatabase(file).store(d, {tuned});

    r.use_tuning_database(TuningDatabase(file));
    REQUIRE(r.tuned_entries().size() == 1);
    const LaunchPlan plan = r.plan(ElementType::int32, Operation::sum, n);
    CHECK(plan.times == 3);
    CHECK(plan.work_group_size == *tuned.params.work_group_size);
    CHECK(plan.stride == *tuned.params.stride);
    CHECK(plan.vector_width == *tuned.params.vector_width);
    CHECK(plan.inter_group == *tuned.params.inter_group);
    CHECK(plan.sources.times == ParamSource::tuned);
    CHECK(plan.sources.inter_group == ParamSource::tuned);
    CHECK(plan.tuned_n == n);
    CHECK_THAT(plan.describe_sources(), Catch::Matchers::Contains("times=tuned(n=65536)"));
    CHECK(r.plan(ElementType::int32, n).describe() == plan.describe());  // plan(type, n) means sum

    // The nearest bucket serves other sizes of the same type and family: larger ones with its
    // times, smaller ones with as many groups as the bucket had (times scaled down to a power
    // of two, at least 1).
    for (std::uint64_t size : {std::uint64_t(1000), std::uint64_t(1 << 16) + 1, std::uint64_t(1 << 18)}) {
        CallInfo info;
        check_sum_exact<std::int32_t>(r, size, {}, info);
        const std::uint64_t vectors = n / *tuned.params.vector_width, wg = *tuned.params.work_group_size;
        const std::uint64_t bucket_groups = (vectors + wg * 3 - 1) / (wg * 3);
        std::uint64_t wanted = (size / *tuned.params.vector_width + wg * bucket_groups - 1) / (wg * bucket_groups);
        std::uint32_t expected = 1;
        while (expected * 2 <= wanted && expected * 2 <= 3) expected *= 2;
        CHECK(info.plan.times == (size >= n ? 3u : expected));
        CHECK(info.plan.sources.times == ParamSource::tuned);
        CHECK(info.plan.sources.work_group_size == ParamSource::tuned);
        CHECK(info.plan.describe() ==
              r.plan(ElementType::int32, Operation::sum, size, {}, CallForm::host_data).describe());
    }
    // Other types and other families have no entry: defaults.
    CHECK(r.plan(ElementType::uint32, Operation::sum, n).sources.times ==
          untuned_plan(ElementType::uint32, Operation::sum, n, r.device_info()).sources.times);
    CHECK(r.plan(ElementType::int32, Operation::max, n).sources.times == ParamSource::device_default);
    CHECK(r.plan(ElementType::int32, Operation::mean, n).sources.times == ParamSource::tuned);  // additive too

    // Explicit parameters win field by field.
    LaunchParams params;
    params.times = 5;
    params.stride = make_plan(ElementType::int32, n, d).stride;
    CallInfo info;
    check_sum_exact<std::int32_t>(r, n, params, info);
    CHECK(info.plan.times == 5);
    CHECK(info.plan.sources.times == ParamSource::override);
    CHECK(info.plan.stride == *params.stride);
    CHECK(info.plan.sources.stride == ParamSource::override);
    CHECK(info.plan.work_group_size == *tuned.params.work_group_size);
    CHECK(info.plan.sources.work_group_size == ParamSource::tuned);
    CHECK(info.plan.tuned_n == n);
    const LaunchParams all = [&] {
        LaunchParams p;
        const LaunchPlan defaults = make_plan(ElementType::int32, n, d);
        p.times = defaults.times;
        p.work_group_size = defaults.work_group_size;
        p.stride = defaults.stride;
        p.vector_width = defaults.vector_width;
        p.inter_group = defaults.inter_group;
        return p;
    }();
    const LaunchPlan overridden = r.plan(ElementType::int32, n, all);
    CHECK(overridden.describe() == make_plan(ElementType::int32, n, d).describe());
    CHECK(overridden.sources.vector_width == ParamSource::override);
    CHECK(overridden.tuned_n == 0);  // nothing of the entry was used

    // A reducer made later reads the default file: tuned there, tuned for it.
    const fs::path folder = fresh_file("unused").parent_path();
    TuningDatabase(folder / "tuning.json").store(d, {tuned});
    set_cache_directory(folder);
    const WithoutEnv no_file("CLREDUCE_TUNING_FILE");  // it would name another file
    Reducer later(default_device());
    set_cache_directory(std::nullopt);
    CHECK(later.tuning_database().file() == folder / "tuning.json");
    CHECK(later.plan(ElementType::int32, n).describe() == plan.describe());
    check_sum_exact<std::int32_t>(later, n, {}, info);
    CHECK(info.plan.sources.times == ParamSource::tuned);

    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
    CHECK(r.plan(ElementType::int32, n).sources.times ==
          untuned_plan(ElementType::int32, Operation::sum, n, r.device_info()).sources.times);
}

TEST_CASE("Reducer::tune measures, verifies, stores and uses the best parameters at once", "[tuning][tune]") {
    Reducer& r = tuning_reducer();
    const fs::path file = fresh_file("tuning.json");
    r.use_tuning_database(TuningDatabase(file));

    TuneOptions options;
    options.types = {ElementType::uint32};
    options.min_n = 1 << 12;
    options.max_n = 1 << 14;
    options.quick = true;
    options.repeats = 2;
    std::vector<TuneProgress> progress;
    options.progress = [&](const TuneProgress& p) { progress.push_back(p); };
    const TuneResult result = r.tune(options);
    CHECK(result.complete);
    CHECK(result.rejected == 0);
    REQUIRE(result.entries.size() == 2);
    CHECK(result.saved_to == file);
    CHECK(result.save_error.empty());
    REQUIRE_FALSE(progress.empty());
    CHECK(progress.size() == result.measurements);
    CHECK(progress.back().done + 1 == result.measurements);
    CHECK(progress.back().total >= progress.back().done);

    for (const TunedEntry& e : result.entries) {
        CHECK(e.type == ElementType::uint32);
        CHECK(e.family == OperationFamily::additive);
        CHECK((e.n == (1u << 12) || e.n == (1u << 14)));
        CHECK(e.kernel_us > 0);
        CHECK(e.kernel_us <= e.default_kernel_us);  // the default is a candidate
        REQUIRE(e.params.times.has_value());
        REQUIRE(e.params.inter_group.has_value());
        // The final stage's choice: one of the times it sweeps with the other parameters, or
        // beyond the sweep's cap the descent's winner (which still has several groups), or the
        // defaults, which are re-timed beside them (a CPU device's small-size shape lies beyond the cap).
        const auto swept = times_sweep(e.type, e.n, r.device_info(), e.params);
        const LaunchParams defaults = launch_shape(make_plan(e.type, e.n, r.device_info()));  // the tuner's start
        const bool chose_defaults = e.params.times == defaults.times &&
                                    e.params.work_group_size == defaults.work_group_size &&
                                    e.params.vector_width == defaults.vector_width &&
                                    e.params.stride == defaults.stride && e.params.inter_group == defaults.inter_group;
        CHECK((std::find(swept.begin(), swept.end(), *e.params.times) != swept.end() || chose_defaults ||
               (*e.params.times > kTimesSweepMax && make_plan(e.type, e.n, r.device_info(), e.params).groups > 1)));
        // Used at once, by plan() and by a sum.
        const LaunchPlan plan = r.plan(ElementType::uint32, e.n);
        CHECK(plan.times == *e.params.times);
        CHECK(plan.work_group_size == *e.params.work_group_size);
        CHECK(plan.vector_width == *e.params.vector_width);
        CHECK(plan.stride == *e.params.stride);
        CHECK(plan.inter_group == *e.params.inter_group);
        CHECK(plan.sources.times == ParamSource::tuned);
        CallInfo info;
        check_sum_exact<std::uint32_t>(r, e.n, {}, info);  // host data: planned as such
        CHECK(info.plan.describe() ==
              r.plan(ElementType::uint32, Operation::sum, e.n, {}, CallForm::host_data).describe());
        CHECK(launch_shape(info.plan).times == launch_shape(plan).times);
    }
    const TuningLoad stored = TuningDatabase(file).load(r.device_info());
    CHECK(stored.entries.size() == 2);
    for (const TunedEntry& e : result.entries) CHECK(holds(stored.entries, e));

    // Stopped before the first measurement: nothing measured, nothing stored, no error.
    std::atomic<bool> stop{true};
    options.stop = &stop;
    options.progress = nullptr;
    options.types = {ElementType::int64};
    const TuneResult stopped = r.tune(options);
    CHECK_FALSE(stopped.complete);
    CHECK(stopped.entries.empty());
    CHECK(TuningDatabase(file).load(r.device_info()).entries.size() == 2);

    // Stopped (as by Ctrl-C) after three measurements: the best of those is kept and stored.
    stop = false;
    options.progress = [&](const TuneProgress& p) {
        if (p.done == 2) stop = true;  // the third measurement is the last
    };
    const TuneResult partial = r.tune(options);
    CHECK_FALSE(partial.complete);
    CHECK(partial.measurements == 3);
    REQUIRE(partial.entries.size() == 1);
    CHECK(partial.entries[0].type == ElementType::int64);
    CHECK(partial.entries[0].n == (1u << 12));
    CHECK(TuningDatabase(file).load(r.device_info()).entries.size() == 3);
    CHECK(r.plan(ElementType::int64, 1 << 12).sources.times == ParamSource::tuned);

    // Out of time at once: nothing measured.
    options.stop = nullptr;
    options.progress = nullptr;
    options.time_budget_s = 1e-9;
    const TuneResult budget = r.tune(options);
    CHECK_FALSE(budget.complete);
    CHECK(budget.measurements == 0);

    CHECK_THROWS_AS(r.tune([] {
        TuneOptions o;
        o.families = {OperationFamily::extremum};
        return o;
    }()),
                    Unsupported);
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}

TEST_CASE("sums on several threads stay exact while another thread switches the tuning database", "[tuning][threads]") {
    Reducer& r = tuning_reducer();
    const DeviceInfo& d = r.device_info();
    const std::uint64_t n = 1 << 16;
    TunedEntry a = unusual_entry(d, n);
    TunedEntry b = a;
    b.params.times = 5;
    const fs::path file_a = fresh_file("a.json"), file_b = fresh_file("b.json");
    TuningDatabase(file_a).store(d, {a});
    TuningDatabase(file_b).store(d, {b});
    const auto data = testing::random_values<std::int32_t>(n, test::seed_for(n, 78));
    const std::int64_t expected = testing::exact_sum(data.data(), n);
    r.use_tuning_database(TuningDatabase(file_a));

    std::atomic<bool> done{false};
    std::atomic<int> wrong{0}, odd_plans{0}, calls{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            while (!done || calls < 40) {
                CallInfo info;
                if (r.sum(data, {}, &info) != expected) ++wrong;
                if (info.plan.times != 3 && info.plan.times != 5) ++odd_plans;
                ++calls;
            }
        });
    }
    for (int i = 0; i < 60; ++i) r.use_tuning_database(TuningDatabase(i % 2 ? file_a : file_b));
    done = true;
    for (auto& thread : threads) thread.join();
    INFO("data seed " << test::seed_for(n, 78));
    CHECK(wrong == 0);
    CHECK(odd_plans == 0);
    r.use_tuning_database(TuningDatabase(fresh_file("none.json")));
}
