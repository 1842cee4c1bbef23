// CUB's DeviceReduce::Sum through clreduce-cub-sum (perf/cub/, built where CMake finds CUDA):
// one run of it times every n on the first CUDA device, with the same data generator and seed.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "competitors/competitor.hpp"
#include "measure/comparator_process.hpp"

namespace clreduce::perf {
namespace {

class CubSum : public Competitor {
public:
    explicit CubSum(const CompareSetup& setup) {
        namespace fs = std::filesystem;
        std::string exe = setup.cub_path;
        if (exe.empty()) exe = (fs::path(setup.self).parent_path() / "clreduce-cub-sum").string();
        if (!fs::exists(exe)) {
            why_ = "clreduce-cub-sum not found (" + exe + "); it is built only where CMake finds CUDA";
            return;
        }
        const fs::path errors = fs::temp_directory_path() / ("clreduce-cub-sum-" + std::to_string(::getpid()) + ".err");
        std::string command = shell_quoted(exe) + " --type " + std::string(type_name(setup.type)) + " --repeats " +
                              std::to_string(setup.repeats) + " --seed " + std::to_string(setup.seed);
        for (std::uint64_t n : setup.sizes) command += " --n " + std::to_string(n);
        command += " 2>" + shell_quoted(errors.string());
        const ProcessOutput run = run_process(command);
        const std::string& output = run.output;
        const int status = run.status;
        std::ifstream error_file(errors);
        std::string error_text((std::istreambuf_iterator<char>(error_file)), std::istreambuf_iterator<char>());
        std::filesystem::remove(errors);
        while (!error_text.empty() && (error_text.back() == '\n' || error_text.back() == '\r')) error_text.pop_back();
        if (status != 0) {
            why_ = "clreduce-cub-sum did not run (" +
                   (error_text.empty() ? "exit status " + std::to_string(status) : error_text) + ")";
            return;
        }
        try {
            const auto doc = nlohmann::json::parse(output);
            device_ = doc.at("device").get<std::string>();
            for (const auto& r : doc.at("results")) results_[r.at("n").get<std::uint64_t>()] = r;
        } catch (const nlohmann::json::exception& e) {
            why_ = std::string("clreduce-cub-sum printed no valid JSON: ") + e.what();
        }
    }
    std::string name() const override { return "CUB"; }
    std::string unavailable() const override { return why_; }
    std::string detail() const override {
        return "cub::DeviceReduce::Sum on CUDA device '" + device_ +
               "' (its own process; wall: Sum + cudaMemcpy of the result; device: cudaEvents, a separate loop)";
    }
    Measurement measure(const Workload& w) override {
        const auto it = results_.find(w.n);
        if (it == results_.end()) throw Error("clreduce-cub-sum has no result for this n");
        const nlohmann::json& r = it->second;
        Measurement m;
        m.wall_us = r.at("wall_us").get<double>();
        m.device_us = r.at("device_us").get<double>();
        for (const auto& sum : r.at("sums"))
            m.values.push_back(sum.is_number_unsigned()  ? static_cast<long double>(sum.get<std::uint64_t>())
                               : sum.is_number_integer() ? static_cast<long double>(sum.get<std::int64_t>())
                                                         : static_cast<long double>(sum.get<double>()));
        m.accumulator = ElementType::float64;  // it sums into clreduce's result type (int64, uint64, double)
        m.data_fingerprint = r.at("data_fnv1a").get<std::string>();
        return m;
    }

private:
    std::string why_;
    std::string device_;
    std::map<std::uint64_t, nlohmann::json> results_;
};

}  // namespace

std::unique_ptr<Competitor> make_cub_competitor(const CompareSetup& setup) { return std::make_unique<CubSum>(setup); }

}  // namespace clreduce::perf
