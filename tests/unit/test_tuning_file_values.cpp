// Values of a tuning file's entries that are not what they claim: a count written as a float,
// a negative number or one too large for its field makes the entry malformed (ignored with a
// warning), never a wrapped-around or undefined conversion. Host only.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include <clreduce/tuning.hpp>

#include "device/described_device.hpp"

namespace clreduce::test {
namespace {

namespace fs = std::filesystem;

DeviceInfo device() { return described_gpu("Unit Platform", "Unit Device", 8); }

// A tuning file holding `entries` (JSON objects, comma-separated) for device().
fs::path tuning_file(const std::string& entries) {
    const fs::path file = fs::temp_directory_path() / ("clreduce-unit-tuning-" + std::to_string(::getpid()) + ".json");
    std::ofstream(file, std::ios::trunc)
        << R"({"format": "clreduce tuning database", "schema_version": 1, "library_version": ")" << library_version()
        << R"(", "devices": [{"platform": "Unit Platform", "device": "Unit Device",)"
        << R"( "driver_version": "1.0", "compute_units": 8, "entries": [)" << entries << "]}]}";
    return file;
}

}  // namespace

TEST_CASE("tuning file: counts that are floats, negative or too large make their entry malformed", "[tuning-file]") {
    const std::string head = R"({"type": "int32", "family": "additive", )";
    const std::string good = head + R"("n": 4096, "times": 4, "work_group_size": 256, "vector_width": 4})";
    const char* bad[] = {
        R"("n": 4096, "times": 4.5})",
        R"("n": 4096, "times": -1})",
        R"("n": 4096, "times": 4294967297})",
        R"("n": 4096, "work_group_size": 1e300})",
        R"("n": 1e300})",
        R"("n": -4096})",
        R"("n": "4096"})",
        R"("n": 4096, "vector_width": 4.0})",
    };
    for (const char* value : bad) {
        INFO(value);
        const fs::path file = tuning_file(good + ", " + head + value);
        const TuningLoad loaded = TuningDatabase(file).load(device());
        REQUIRE(loaded.entries.size() == 1);
        CHECK(loaded.entries[0].params.times == 4u);
        REQUIRE(loaded.warnings.size() == 1);
        CHECK_THAT(loaded.warnings[0], Catch::Matchers::Contains("malformed entry"));
        fs::remove(file);
    }
}

TEST_CASE("tuning file: segment-team entries load beside single-range ones, broken ones are ignored", "[tuning-file]") {
    const std::string head = R"({"type": "int32", "family": "additive", "n": 65536, )";
    const std::string range = head + R"("times": 4, "work_group_size": 256, "vector_width": 4})";
    const std::string segment = head + R"("segment_length": 64, "segment_team": 8})";
    {
        const fs::path file = tuning_file(range + ", " + segment);
        const TuningLoad loaded = TuningDatabase(file).load(device());
        CHECK(loaded.warnings.empty());
        REQUIRE(loaded.entries.size() == 2);
        CHECK(loaded.entries[0].segment_length == 0);
        CHECK(loaded.entries[1].segment_length == 64);
        CHECK(loaded.entries[1].params.segment_team == 8u);
        CHECK_FALSE(loaded.entries[1].params.times.has_value());
        fs::remove(file);
    }
    const std::pair<const char*, const char*> bad[] = {
        {R"("segment_team": 8})", "malformed entry"},                         // a team without its length
        {R"("segment_length": 64})", "malformed entry"},                      // a length without its team
        {R"("segment_length": 0, "segment_team": 8})", "malformed entry"},    // no such average
        {R"("segment_length": 64, "segment_team": -8})", "malformed entry"},  // not a count
        {R"("segment_length": 64, "segment_team": 8, "equal_lengths": "yes"})", "malformed entry"},
        {R"("times": 4, "equal_lengths": true})", "malformed entry"},          // not a segment entry
        {R"("segment_length": 64, "segment_team": 3})", "is invalid for"},     // not a power of two
        {R"("segment_length": 64, "segment_team": 4096})", "is invalid for"},  // more than a work-group
    };
    for (const auto& [value, warning] : bad) {
        INFO(value);
        const fs::path file = tuning_file(range + ", " + head + value);
        const TuningLoad loaded = TuningDatabase(file).load(device());
        REQUIRE(loaded.entries.size() == 1);
        CHECK(loaded.entries[0].segment_length == 0);
        REQUIRE(loaded.warnings.size() == 1);
        CHECK_THAT(loaded.warnings[0], Catch::Matchers::Contains(warning));
        fs::remove(file);
    }
}

TEST_CASE("tuning file: an entry's host_data placement loads, and other values make it malformed", "[tuning-file]") {
    const std::string head = R"({"type": "int32", "family": "additive", "n": 65536, "times": 4, )";
    {
        const fs::path file =
            tuning_file(head + R"("host_data": "device", "host_data_us": 80.5, "device_data_us": 60})" + ", " +
                        R"({"type": "int32", "family": "additive", "n": 16, "host_data": "host"})");
        const TuningLoad loaded = TuningDatabase(file).load(device());
        CHECK(loaded.warnings.empty());
        REQUIRE(loaded.entries.size() == 2);
        CHECK(loaded.entries[0].params.host_path_bytes == std::uint64_t(0));
        CHECK(loaded.entries[0].host_data_us == 80.5);
        CHECK(loaded.entries[0].device_data_us == 60.0);
        CHECK(loaded.entries[1].params.host_path_bytes == std::numeric_limits<std::uint64_t>::max());
        fs::remove(file);
    }
    for (const char* value : {R"("host_data": "gpu"})", R"("host_data": 1})", R"("host_data": true})",
                              R"("segment_length": 64, "segment_team": 8, "host_data": "host"})"}) {
        INFO(value);
        const fs::path file = tuning_file(head + R"("vector_width": 4}, )" + head + value);
        const TuningLoad loaded = TuningDatabase(file).load(device());
        REQUIRE(loaded.entries.size() == 1);
        CHECK_FALSE(loaded.entries[0].params.host_path_bytes.has_value());
        REQUIRE(loaded.warnings.size() == 1);
        CHECK_THAT(loaded.warnings[0], Catch::Matchers::Contains("malformed entry"));
        fs::remove(file);
    }
}

}  // namespace clreduce::test
