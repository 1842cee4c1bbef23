// clreduce-cub-sum: cub::DeviceReduce::Sum on the same data clreduce-perf compare sums (the same
// generator and seed), for the CUB column of compare. Prints JSON on stdout:
//   {"device": ..., "type": ..., "results": [{"n", "wall_us", "device_us", "sum", "sums", "data_fnv1a"}]}
// ("sum": the last call's result; "sums": every call's, the wall-time loop's then the device-time loop's).
// Exits 3 with a message on stderr when there is no CUDA device.
#include <iostream>
#include <map>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cub_sum.hpp"
#include "reference/random_values.hpp"
#include "report/fingerprint.hpp"

namespace {

using namespace clreduce;

template <class T>
nlohmann::json run(std::uint64_t n, int repeats, std::uint64_t seed) {
    const auto data = testing::random_values<T>(n, seed);
    const auto t = perf::cub_sum::measure<T, sum_type_t<T>>(data.data(), n, repeats);
    nlohmann::json j = {{"n", n},
                        {"wall_us", t.wall_us},
                        {"device_us", t.device_us},
                        {"data_fnv1a", perf::data_fingerprint(data.data(), n * sizeof(T))}};
    nlohmann::json sums = nlohmann::json::array();
    for (long double v : t.values) sums.push_back(static_cast<sum_type_t<T>>(v));
    j["sum"] = sums.back();
    j["sums"] = sums;
    return j;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"clreduce-cub-sum: cub::DeviceReduce::Sum timings as JSON, for clreduce-perf compare"};
    std::string type = "int32";
    std::vector<std::uint64_t> sizes;
    int repeats = 20;
    std::uint64_t seed = 20261121;
    app.add_option("-t,--type", type, "int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64")
        ->capture_default_str();
    app.add_option("-n,--n", sizes, "Number of elements; repeat for several")->required();
    app.add_option("-r,--repeats", repeats, "Timed calls after one warm-up")->capture_default_str();
    app.add_option("--seed", seed, "Seed of the data generator (reference/random_values)")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        nlohmann::json doc = {{"device", perf::cub_sum::device_name()},
                              {"type", type},
                              {"repeats", repeats},
                              {"seed", seed},
                              {"results", nlohmann::json::array()}};
        const std::map<std::string, ElementType> types = {
            {"int8", ElementType::int8},     {"uint8", ElementType::uint8},     {"int16", ElementType::int16},
            {"uint16", ElementType::uint16}, {"int32", ElementType::int32},     {"uint32", ElementType::uint32},
            {"int64", ElementType::int64},   {"uint64", ElementType::uint64},   {"float32", ElementType::float32},
            {"float", ElementType::float32}, {"float64", ElementType::float64}, {"double", ElementType::float64}};
        if (!types.count(type)) throw std::runtime_error("unknown type " + type);
        const ElementType element = types.at(type);
        for (std::uint64_t n : sizes) {
            nlohmann::json r;
            switch (element) {
                case ElementType::int8: r = run<std::int8_t>(n, repeats, seed); break;
                case ElementType::uint8: r = run<std::uint8_t>(n, repeats, seed); break;
                case ElementType::int16: r = run<std::int16_t>(n, repeats, seed); break;
                case ElementType::uint16: r = run<std::uint16_t>(n, repeats, seed); break;
                case ElementType::int32: r = run<std::int32_t>(n, repeats, seed); break;
                case ElementType::uint32: r = run<std::uint32_t>(n, repeats, seed); break;
                case ElementType::int64: r = run<std::int64_t>(n, repeats, seed); break;
                case ElementType::uint64: r = run<std::uint64_t>(n, repeats, seed); break;
                case ElementType::float32: r = run<float>(n, repeats, seed); break;
                case ElementType::float64: r = run<double>(n, repeats, seed); break;
                default: throw std::runtime_error("no CUB sum for " + type);
            }
            doc["results"].push_back(r);
        }
        std::cout << doc.dump(2) << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "clreduce-cub-sum: " << e.what() << "\n";
        return 3;
    }
}
