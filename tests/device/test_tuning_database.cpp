// The tuning database's file: round trip, the default path, damaged and foreign files, entries
// invalid for the device, and several processes and threads storing at once. The lookup rule and
// the known-device table, host-only: unit/test_tuning_table.cpp; tuned values in use:
// test_tuning.cpp.
#include "tuning_test_support.hpp"

using namespace clreduce;
using namespace clreduce::test;
namespace fs = std::filesystem;

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
    const test::FreshCacheFolder folder;
    REQUIRE(cache_directory() == folder.path());
    CHECK(TuningDatabase::default_file() == folder.path() / "tuning.json");
    ::setenv("CLREDUCE_TUNING_FILE", "/somewhere/else.json", 1);
    CHECK(TuningDatabase::default_file() == fs::path("/somewhere/else.json"));
    ::setenv("CLREDUCE_TUNING_FILE", "off", 1);
    CHECK_FALSE(TuningDatabase::default_file().has_value());
    CHECK_FALSE(TuningDatabase().file().has_value());
    ::unsetenv("CLREDUCE_TUNING_FILE");
    set_cache_directory(fs::path());  // disk caches off: no file, and storing says so
    CHECK_FALSE(TuningDatabase::default_file().has_value());
    CHECK_THROWS_AS(TuningDatabase().store(fake_gpu(), {}), Error);
    set_cache_directory(folder.path());
    CHECK(TuningDatabase::default_file() == folder.path() / "tuning.json");
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
