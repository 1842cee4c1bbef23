// Compiled programs are kept on disk: a second process (or reducer) loads them instead of
// compiling, a file that is not right for its key is ignored and replaced, and with the cache
// off every process compiles.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "kernels/program_binary_cache.hpp"
#include "reference/child_process.hpp"
#include "reference/random_values.hpp"
#include "reference/sum_reference.hpp"
#include "test_support.hpp"

using namespace clreduce;
namespace fs = std::filesystem;

namespace {

// A few sums that need several programs (atomic and two-pass finishes, integer and float
// accumulators), each checked exactly. Returns what was wrong, empty when nothing; without
// Catch's macros, which are not thread-safe.
std::string wrong_sums(const Reducer& r) {
    const std::uint64_t seed = test::seed_for(31);
    const auto ints = testing::random_values<std::int32_t>(100003, seed);
    const auto floats = testing::random_values<float>(70001, seed + 1);
    const auto float_ref = testing::float_reference(floats.data(), floats.size());
    std::ostringstream wrong;
    // The kernels' programs: not a CPU device's host path, which builds none.
    LaunchParams launched;
    launched.host_path_bytes = 0;
    for (InterGroup strategy : test::strategies<std::int32_t>(r.device_info())) {
        LaunchParams params = launched;
        params.times = 4;
        params.inter_group = strategy;
        const auto got = r.sum(ints, params), expected = testing::exact_sum(ints.data(), ints.size());
        if (got != expected) wrong << "int32 sum " << got << ", expected " << expected << "; ";
    }
    const double got = r.sum(floats, launched);
    if (std::fabs(static_cast<long double>(got) - float_ref.sum) > float_ref.bound(floats.size(), ElementType::float64))
        wrong << "float sum " << got << " outside the bound of " << static_cast<double>(float_ref.sum) << "; ";
    if (!wrong.str().empty()) wrong << "data seed " << seed;
    return wrong.str();
}

std::vector<fs::path> program_files(const fs::path& cache) {
    std::vector<fs::path> files;
    if (fs::exists(cache / "programs"))
        for (const auto& entry : fs::directory_iterator(cache / "programs")) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

struct ChildCounts {
    int exit_code = -1;
    std::uint64_t built = 0, loaded = 0;
    std::string output;
};

// The hidden test case below, in a fresh process with CLREDUCE_CACHE_DIR=cache_dir.
ChildCounts run_child(const std::string& cache_dir) {
    const auto result =
        testing::run_self({"[.program-cache-child]"}, {{"CLREDUCE_CACHE_DIR", cache_dir},
                                                       {"CLREDUCE_TEST_SEED", std::to_string(test::seed())},
                                                       {"CLREDUCE_BUILD_LOG", std::nullopt}});
    ChildCounts counts;
    counts.exit_code = result.exit_code;
    counts.output = result.output;
    std::smatch m;
    const std::regex line("program-cache-child: built (\\d+) loaded (\\d+)");
    if (std::regex_search(result.output, m, line)) {
        counts.built = std::stoull(m[1]);
        counts.loaded = std::stoull(m[2]);
    } else {
        counts.exit_code = -1;
    }
    return counts;
}

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

void write_all(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("program cache child: sums on a fresh reducer and prints its counters", "[.program-cache-child]") {
    Reducer r(default_device());
    CHECK(wrong_sums(r) == "");
    const Counters c = r.counters();
    std::cout << "program-cache-child: built " << c.programs_built << " loaded " << c.programs_loaded << "\n";
}

TEST_CASE("a second process loads every program from disk and compiles none", "[program-cache]") {
    const test::FreshCacheFolder cache;
    const ChildCounts first = run_child(cache.path().string());
    INFO("first process:\n" << first.output);
    REQUIRE(first.exit_code == 0);
    CHECK(first.built >= 2);
    CHECK(first.loaded == 0);
    CHECK(program_files(cache.path()).size() == first.built);

    const ChildCounts second = run_child(cache.path().string());
    INFO("second process:\n" << second.output);
    REQUIRE(second.exit_code == 0);
    CHECK(second.built == 0);
    CHECK(second.loaded == first.built);
}

TEST_CASE("a cache folder that refuses writes never fails a reduction, and says so once", "[program-cache]") {
    // A regular file where the folder should be: nothing can be created under it (also for
    // root, whom a read-only folder would not stop).
    const test::FreshCacheFolder scratch;
    fs::create_directories(scratch.path());
    const fs::path not_a_folder = scratch.path() / "a-file";
    write_all(not_a_folder, "not a folder");
    const ChildCounts child = run_child(not_a_folder.string());
    INFO("child:\n" << child.output);
    REQUIRE(child.exit_code == 0);  // its sums are right (wrong_sums checks them)
    CHECK(child.built >= 2);
    CHECK(child.loaded == 0);
    const std::string warning = "clreduce: warning: the program cache cannot be written";
    const std::size_t first = child.output.find(warning);
    CHECK(first != std::string::npos);
    CHECK(child.output.find(warning, first + 1) == std::string::npos);  // once, for several programs
    CHECK(child.output.find(not_a_folder.string()) != std::string::npos);
}

TEST_CASE("with the disk cache off every process compiles", "[program-cache]") {
    const ChildCounts first = run_child("off");
    INFO("first process:\n" << first.output);
    REQUIRE(first.exit_code == 0);
    CHECK(first.built >= 2);
    CHECK(first.loaded == 0);
    const ChildCounts second = run_child("off");
    INFO("second process:\n" << second.output);
    REQUIRE(second.exit_code == 0);
    CHECK(second.built == first.built);
    CHECK(second.loaded == 0);

    // The same in one process: set_cache_directory("") turns it off for reducers made afterwards.
    set_cache_directory(fs::path());
    Reducer a(default_device()), b(default_device());
    CHECK(wrong_sums(a) == "");
    CHECK(wrong_sums(b) == "");
    set_cache_directory(std::nullopt);
    CHECK(a.counters().programs_loaded == 0);
    CHECK(b.counters().programs_loaded == 0);
    CHECK(b.counters().programs_built == a.counters().programs_built);
}

TEST_CASE("a damaged or truncated or foreign program file is ignored and replaced", "[program-cache]") {
    const test::FreshCacheFolder cache;
    std::uint64_t programs = 0;
    {
        Reducer first(default_device());
        CHECK(wrong_sums(first) == "");
        programs = first.counters().programs_built;
    }
    const auto files = program_files(cache.path());
    REQUIRE(files.size() == programs);
    REQUIRE(files.size() >= 2);
    const fs::path victim = files[0];
    const std::string good = read_all(victim);
    const auto decoded = decode_program_file(good);
    REQUIRE(decoded.has_value());

    const std::vector<std::pair<std::string, std::string>> damages = {
        {"empty", ""},
        {"truncated", good.substr(0, good.size() / 2)},
        {"header only", good.substr(0, 40)},
        {"one byte of the binary flipped", good.substr(0, good.size() - 1) + char(good.back() ^ 0x5a)},
        {"another program's file (foreign key)", read_all(files[1])},
        {"right key, binary the driver cannot load", encode_program_file({decoded->key, "not a program binary"})},
        {"text", "hello\n"},
    };
    for (const auto& [what, bytes] : damages) {
        INFO("the file of one program: " << what);
        write_all(victim, bytes);
        Reducer r(default_device());
        CHECK(wrong_sums(r) == "");
        CHECK(r.counters().programs_built == 1);
        CHECK(r.counters().programs_loaded == programs - 1);
        // Replaced by the fresh build: the next reducer loads everything.
        const auto rewritten = decode_program_file(read_all(victim));
        REQUIRE(rewritten.has_value());
        CHECK(rewritten->key == decoded->key);
        Reducer again(default_device());
        CHECK(wrong_sums(again) == "");
        CHECK(again.counters().programs_built == 0);
        CHECK(again.counters().programs_loaded == programs);
    }
}

TEST_CASE("reducers filling one cache folder at once", "[program-cache][threads]") {
    const test::FreshCacheFolder cache;
    // Chosen here: the first platform query of a process is not safe to make from several
    // threads at once (the ICD loader), and this test may be the process's first.
    const cl::Device device = default_device();
    std::vector<Counters> counts(3);
    std::vector<std::string> errors(3);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < counts.size(); ++i)
        threads.emplace_back([&, i] {
            try {
                Reducer r(device);
                errors[i] = wrong_sums(r);
                counts[i] = r.counters();
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& e : errors) CHECK(e == "");
    const std::uint64_t programs = counts[0].programs_built + counts[0].programs_loaded;
    for (const auto& c : counts) CHECK(c.programs_built + c.programs_loaded == programs);
    CHECK(program_files(cache.path()).size() == programs);
    Reducer after(default_device());
    CHECK(wrong_sums(after) == "");
    CHECK(after.counters().programs_built == 0);
    CHECK(after.counters().programs_loaded == programs);
}
