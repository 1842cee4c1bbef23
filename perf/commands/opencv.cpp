// clreduce-perf opencv: each clreduce::opencv function against OpenCV's own, on a cv::UMat
// (OpenCV's OpenCL device, which the adapter shares) and on a cv::Mat (OpenCV's CPU code
// against clreduce's default device), for CV_8UC3, CV_32FC1 and CV_16UC1 images of the given
// sizes, with and without a mask where the function takes one. Medians of synchronous calls
// (a UMat result of cv::reduce is waited for with cv::ocl::finish), their ratio, and whether
// each side's result agrees with OpenCV's on the Mat (its CPU code, exact for integers):
// integers equal, floats within 1e-6 relative. The exit status is 1 where clreduce's does not.
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>

#include <clreduce/clreduce.hpp>

#include "commands/commands.hpp"

#ifdef CLREDUCE_HAVE_OPENCV_ADAPTER
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/core/ocl.hpp>

#include <clreduce/opencv.hpp>

#include "measure/timing.hpp"
#endif

namespace clreduce::perf {

CLI::App* add_opencv_command(CLI::App& app, OpenCVOptions& o) {
    auto* cmd = app.add_subcommand("opencv",
                                   "Time each clreduce::opencv function against OpenCV's own on a cv::UMat and a "
                                   "cv::Mat (CV_8UC3, CV_32FC1, CV_16UC1; with and without mask)");
    cmd->add_option("-s,--size", o.sizes, "Image size WIDTHxHEIGHT; repeat for several")->capture_default_str();
    cmd->add_option("-r,--repeats", o.repeats, "Timed calls per row (after one warm-up)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--json", o.json, "Also write the rows as JSON to this file");
    return cmd;
}

#ifdef CLREDUCE_HAVE_OPENCV_ADAPTER
namespace {

namespace cro = clreduce::opencv;

// One function's call on `src` (and `mask`, empty for none), both sides returning numbers to
// compare.
struct Function {
    const char* name;
    bool one_channel;  // minMaxLoc, countNonZero
    bool masked;       // takes a mask
    std::function<std::vector<double>(cv::InputArray, cv::InputArray)> ours, theirs;
};

std::vector<double> scalar(const cv::Scalar& s) { return {s[0], s[1], s[2], s[3]}; }
std::vector<double> mat_values(const cv::Mat& m) {
    cv::Mat d;
    m.convertTo(d, CV_64F);
    return std::vector<double>(d.begin<double>(), d.end<double>());
}

std::vector<Function> functions() {
    const auto std_dev = [](auto f) {
        return [f](cv::InputArray src, cv::InputArray mask) {
            cv::Scalar m, s;
            f(src, m, s, mask);
            return std::vector<double>{m[0], m[1], m[2], s[0], s[1], s[2]};
        };
    };
    const auto min_max = [](auto f) {
        return [f](cv::InputArray src, cv::InputArray mask) {
            double mn = 0, mx = 0;
            cv::Point a, b;
            f(src, &mn, &mx, &a, &b, mask);
            return std::vector<double>{mn, mx, double(a.x), double(a.y), double(b.x), double(b.y)};
        };
    };
    return {
        {"sum", false, false, [](cv::InputArray s, cv::InputArray) { return scalar(cro::sum(s)); },
         [](cv::InputArray s, cv::InputArray) { return scalar(cv::sum(s)); }},
        {"mean", false, true, [](cv::InputArray s, cv::InputArray m) { return scalar(cro::mean(s, m)); },
         [](cv::InputArray s, cv::InputArray m) { return scalar(cv::mean(s, m)); }},
        {"meanStdDev", false, true,
         std_dev([](cv::InputArray s, cv::OutputArray m, cv::OutputArray d, cv::InputArray k) {
             cro::meanStdDev(s, m, d, k);
         }),
         std_dev([](cv::InputArray s, cv::OutputArray m, cv::OutputArray d, cv::InputArray k) {
             cv::meanStdDev(s, m, d, k);
         })},
        {"minMaxLoc", true, true,
         min_max([](cv::InputArray s, double* a, double* b, cv::Point* c, cv::Point* d, cv::InputArray k) {
             cro::minMaxLoc(s, a, b, c, d, k);
         }),
         min_max([](cv::InputArray s, double* a, double* b, cv::Point* c, cv::Point* d, cv::InputArray k) {
             cv::minMaxLoc(s, a, b, c, d, k);
         })},
        {"countNonZero", true, false,
         [](cv::InputArray s, cv::InputArray) { return std::vector<double>{double(cro::countNonZero(s))}; },
         [](cv::InputArray s, cv::InputArray) { return std::vector<double>{double(cv::countNonZero(s))}; }},
        {"norm L2", false, true,
         [](cv::InputArray s, cv::InputArray m) { return std::vector<double>{cro::norm(s, cv::NORM_L2, m)}; },
         [](cv::InputArray s, cv::InputArray m) { return std::vector<double>{cv::norm(s, cv::NORM_L2, m)}; }},
        {"reduce rows SUM", false, false,
         [](cv::InputArray s, cv::InputArray) {
        cv::Mat d;
        cro::reduce(s, d, 0, cv::REDUCE_SUM, CV_64F);
        return mat_values(d);
         },
         [](cv::InputArray s, cv::InputArray) {
        if (s.isUMat()) {
            cv::UMat d;
            cv::reduce(s, d, 0, cv::REDUCE_SUM, CV_64F);
            cv::ocl::finish();
            return mat_values(d.getMat(cv::ACCESS_READ).clone());
        }
        cv::Mat d;
        cv::reduce(s, d, 0, cv::REDUCE_SUM, CV_64F);
        return mat_values(d);
        }},
        };
}

double median_us(int repeats, const std::function<void()>& call) {
    std::vector<double> t;
    call();  // warm-up: kernels built, buffers made
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        call();
        t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    return median(t);
}

bool agree(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::fabs(a[i] - b[i]) > 1e-6 * (1 + std::fabs(b[i]))) return false;
    return true;
}

}  // namespace

int run_opencv(const OpenCVOptions& o) {
    const bool opencl = cv::ocl::useOpenCL();
    std::cout << "OpenCV " CV_VERSION "; UMat rows on "
              << (opencl ? "'" + cv::ocl::Device::getDefault().name() + "'"
                         : std::string("nothing: OpenCV's OpenCL is off (OPENCV_OPENCL_DEVICE)"))
              << "; Mat rows: OpenCV's CPU code against clreduce's default device '"
              << cro::reducer_for(cv::Mat()).device_info().name << "'\n";
    std::cout << fmt::format("{:>10} {:>8} {:>5} {:>16} {:>5} {:>12} {:>12} {:>7} {:>9} {:>9}\n", "size", "type",
                             "mask", "function", "input", "clreduce us", "OpenCV us", "ratio", "clreduce", "OpenCV");
    nlohmann::json rows = nlohmann::json::array();
    const std::pair<int, const char*> types[] = {{CV_8UC3, "8UC3"}, {CV_32FC1, "32FC1"}, {CV_16UC1, "16UC1"}};
    bool all_agree = true;
    for (const std::string& size : o.sizes) {
        int width = 0, height = 0;
        if (std::sscanf(size.c_str(), "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0)
            throw InvalidArgument("opencv: size '" + size + "' is not WIDTHxHEIGHT");
        for (const auto& [type, type_name] : types) {
            cv::Mat mat(height, width, type), mask(height, width, CV_8U);
            cv::RNG rng(20261127);
            if (CV_MAT_DEPTH(type) == CV_32F)
                rng.fill(mat, cv::RNG::UNIFORM, -1000.0, 1000.0);
            else
                rng.fill(mat, cv::RNG::UNIFORM, 0, CV_MAT_DEPTH(type) == CV_8U ? 256 : 65536);
            rng.fill(mask, cv::RNG::UNIFORM, 0, 2);
            cv::UMat umat, umask;
            if (opencl) {
                mat.copyTo(umat);
                mask.copyTo(umask);
            }
            for (const Function& f : functions()) {
                if (f.one_channel && CV_MAT_CN(type) != 1) continue;
                for (const bool masked : {false, true}) {
                    if (masked && !f.masked) continue;
                    const std::vector<double> reference =
                        f.theirs(mat, masked ? cv::_InputArray(mask) : cv::_InputArray(cv::noArray()));
                    for (const bool on_umat : {true, false}) {
                        if (on_umat && !opencl) continue;
                        const cv::_InputArray src = on_umat ? cv::_InputArray(umat) : cv::_InputArray(mat);
                        const cv::_InputArray m = !masked   ? cv::_InputArray(cv::noArray())
                                                  : on_umat ? cv::_InputArray(umask)
                                                            : cv::_InputArray(mask);
                        std::vector<double> ours, theirs;
                        const double ours_us = median_us(o.repeats, [&] { ours = f.ours(src, m); });
                        const double theirs_us = median_us(o.repeats, [&] { theirs = f.theirs(src, m); });
                        const bool same = agree(ours, reference), theirs_same = agree(theirs, reference);
                        all_agree = all_agree && same;
                        const char* input = on_umat ? "UMat" : "Mat";
                        std::cout << fmt::format(
                            "{:>10} {:>8} {:>5} {:>16} {:>5} {:>12.1f} {:>12.1f} {:>7.2f} {:>9} {:>9}\n", size,
                            type_name, masked ? "yes" : "no", f.name, input, ours_us, theirs_us, theirs_us / ours_us,
                            same ? "correct" : "WRONG", theirs_same ? "correct" : "differs");
                        rows.push_back({{"size", size},
                                        {"type", type_name},
                                        {"mask", masked},
                                        {"function", f.name},
                                        {"input", input},
                                        {"clreduce_us", ours_us},
                                        {"opencv_us", theirs_us},
                                        {"ratio", theirs_us / ours_us},
                                        {"clreduce_correct", same},
                                        {"opencv_agrees_with_its_mat", theirs_same}});
                    }
                }
            }
        }
    }
    std::cout << "ratio: OpenCV's median time / clreduce's (above 1: clreduce is faster); clreduce/OpenCV: the "
                 "result against OpenCV's on the Mat (its CPU code; OpenCV's UMat sums of 16-bit data wrap modulo "
                 "2^32, docs/opencv.md)\n";
    if (!o.json.empty()) {
        std::ofstream out(o.json);
        out << nlohmann::json{{"opencv", CV_VERSION}, {"repeats", o.repeats}, {"rows", rows}}.dump(2) << "\n";
        if (!out) throw Error("opencv: cannot write " + o.json);
    }
    return all_agree ? 0 : 1;
}

#else

int run_opencv(const OpenCVOptions&) {
    std::cerr << "clreduce-perf opencv: clreduce::opencv was not built (no OpenCV core when configured)\n";
    return 1;
}

#endif

}  // namespace clreduce::perf
