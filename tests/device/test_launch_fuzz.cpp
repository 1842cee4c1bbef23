// LaunchParams fuzzed: every field random, valid or not, over operations, types and sizes. A
// child process runs the cases (a crash or a hang must not take the test run with it, and is
// itself the failure looked for): each returns a correct result or throws one of clreduce's
// documented exceptions; none ends on a signal or runs past its alarm. The case count is
// CI-sized; CLREDUCE_LAUNCH_FUZZ_CASES runs more.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>

#include "reference/child_process.hpp"
#include "reference/exact_integer_reference.hpp"
#include "reference/op_reference.hpp"
#include "reference/random_values.hpp"
#include "test_support.hpp"

namespace clreduce::test {
namespace {

constexpr unsigned kChildAlarmSeconds = 600;

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

// A field: absent, or a value from a list of valid and invalid ones.
template <class T>
std::optional<T> pick(std::mt19937_64& rng, std::initializer_list<T> values) {
    if (rng() % 3 == 0) return std::nullopt;
    return *(values.begin() + rng() % values.size());
}

LaunchParams random_params(std::mt19937_64& rng) {
    LaunchParams p;
    p.times = pick<std::uint32_t>(rng, {0, 1, 2, 3, 16, 256, 1u << 20, (1u << 20) + 1, 4294967295u});
    p.work_group_size = pick<std::uint32_t>(rng, {0, 1, 2, 3, 32, 64, 256, 1024, 4096, 8192, 65536});
    p.stride = pick<Stride>(rng, {Stride::global, Stride::local});
    p.vector_width = pick<std::uint32_t>(rng, {0, 1, 2, 3, 4, 8, 16, 32});
    p.inter_group = pick<InterGroup>(rng, {InterGroup::atomic, InterGroup::second_pass, InterGroup::last_group,
                                           InterGroup::exact_atomic});
    p.float_mode = pick<FloatMode>(rng, {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated,
                                         FloatMode::correctly_rounded});
    p.accumulator =
        pick<ElementType>(rng, {ElementType::int8, ElementType::int32, ElementType::uint32, ElementType::int64,
                                ElementType::uint64, ElementType::float32, ElementType::float64, ElementType::float16});
    p.overflow = pick<IntegerOverflow>(rng, {IntegerOverflow::check, IntegerOverflow::wrap});
    return p;
}

std::string describe(const LaunchParams& p) {
    std::string s;
    const auto field = [&s](const char* name, const auto& v, auto text) {
        if (v) s += std::string(" ") + name + "=" + text(*v);
    };
    const auto number = [](auto v) { return std::to_string(v); };
    field("times", p.times, number);
    field("wg", p.work_group_size, number);
    field("stride", p.stride, [](Stride v) { return std::string(to_string(v)); });
    field("vec", p.vector_width, number);
    field("level3", p.inter_group, [](InterGroup v) { return std::string(to_string(v)); });
    field("mode", p.float_mode, [](FloatMode v) { return std::string(to_string(v)); });
    field("acc", p.accumulator, [](ElementType v) { return std::string(type_name(v)); });
    field("overflow", p.overflow, [](IntegerOverflow v) { return std::string(to_string(v)); });
    return s.empty() ? " (defaults)" : s;
}

// One case of an operation over data: "" when the result is right, else what is wrong.
template <class T>
std::string run_case(Reducer& r, Operation op, const std::vector<T>& data, const LaunchParams& p) {
    using testing::BigInteger;
    using testing::Terms;
    const std::uint64_t n = data.size();
    CallInfo info;
    const auto u = [&info] { return testing::unit_roundoff(info.plan.accumulator); };
    // A float accumulator goes to inf where its partial sums can pass its largest value (IEEE,
    // numerics.md): accepted there, checked against the bound everywhere else.
    const auto approx = [&info](const testing::Approx& a, long double got, long double partials = 0) {
        const long double largest = info.plan.accumulator == ElementType::float32 ? std::numeric_limits<float>::max()
                                                                                  : std::numeric_limits<double>::max();
        if (std::isinf(got) && is_floating(info.plan.accumulator) && std::max(partials, std::fabs(a.value)) > largest)
            return std::string();
        return a.mismatch(got);
    };
    // An accumulator narrower than float data (double values, a named float32 accumulator)
    // rounds every element as it converts it: u A more than the summation's own bound (the
    // integer branch's (n + 1) u A, for the same reason). Without it one double summed into a
    // float32 accumulator (n = 1: a bound of 0) was reported wrong.
    // `per` divides it as the result divides the sum (the mean: n).
    const auto converted = [&info, &data, n, &u](testing::Approx a, long double per = 1) {
        if constexpr (std::is_floating_point_v<T>) {
            if (is_floating(info.plan.accumulator) && type_size(info.plan.accumulator) < sizeof(T)) {
                a.tolerance += u() * testing::exact_abs_sum_of_values(data.data(), n).to_long_double() / per;
                a.rule += " + u sum|x| (each element rounded to the accumulator)";
            }
        }
        return a;
    };
    switch (op) {
        case Operation::sum: {
            const auto got = r.sum(data, p, &info);
            if constexpr (std::is_integral_v<T>) {
                const BigInteger exact = testing::exact_integer_sum(data.data(), n, Terms::values);
                if (is_floating(info.plan.accumulator)) {
                    // A float accumulator rounds every element too (n u A), and under wrap its value
                    // reduced modulo 2^64 is returned where the exact one does not fit.
                    const bool fits =
                        std::is_signed_v<sum_type_t<T>> ? exact.to_int64().has_value() : exact.to_uint64().has_value();
                    if (!fits) return "";
                    const BigInteger magnitudes = testing::exact_integer_sum(data.data(), n, Terms::magnitudes);
                    const long double a = std::stold(magnitudes.decimal()), s = std::stold(exact.decimal());
                    const long double bound = (n + 1) * u() * a;
                    return std::fabs(static_cast<long double>(got) - s) <= bound
                               ? ""
                               : "sum " + std::to_string(got) + ", exact " + exact.decimal();
                }
                const auto fits = std::is_signed_v<sum_type_t<T>> ? exact.to_int64() : std::optional<std::int64_t>();
                if (info.plan.overflow == IntegerOverflow::wrap) return "";  // modulo the accumulator
                if constexpr (std::is_signed_v<sum_type_t<T>>)
                    return fits && *fits == got ? "" : "sum " + std::to_string(got) + ", exact " + exact.decimal();
                else
                    return exact.to_uint64() == got ? "" : "sum " + std::to_string(got) + ", exact " + exact.decimal();
            } else {
                return approx(converted(testing::reference_sum(data.data(), n, u())), got);
            }
        }
        case Operation::mean: {
            const double got = r.mean(data, p, &info);
            if constexpr (std::is_integral_v<T>) {
                if (!is_floating(info.plan.accumulator))
                    return testing::is_correctly_rounded(got, testing::exact_integer_sum(data.data(), n, Terms::values),
                                                         n)
                               ? ""
                               : "mean not correctly rounded";
            }
            return approx(converted(testing::reference_mean(data.data(), n, u()), static_cast<long double>(n)), got);
        }
        case Operation::norm_l2: {
            const double got = r.norm_l2(data, p, &info);
            if constexpr (std::is_integral_v<T>) {
                if (!is_floating(info.plan.accumulator))
                    return testing::is_correctly_rounded_sqrt(got, testing::exact_integer_sum(data.data(), n,
                                                                                              Terms::squares))
                               ? ""
                               : "norm_l2 not correctly rounded";
            }
            const testing::Approx ref = testing::reference_norm_l2(data.data(), n, u());
            return approx(ref, got, ref.value * ref.value);
        }
        case Operation::min: {
            const auto got = r.min(data, p);
            return got == *std::min_element(data.begin(), data.end()) ? "" : "wrong min";
        }
        case Operation::argmax: {
            const auto got = r.argmax(data, p);
            const auto best = std::max_element(data.begin(), data.end());
            return got.index == std::uint64_t(best - data.begin()) && got.value == *best ? "" : "wrong argmax";
        }
        case Operation::count_nonzero: {
            const auto got = r.count_nonzero(data, p);
            return got == testing::reference_count_nonzero(data.data(), n) ? "" : "wrong count";
        }
        default: break;
    }
    return "internal: no reference for " + std::string(operation_name(op));
}

TEST_CASE("[child] fuzzed LaunchParams cases", "[.launch-fuzz-child]") {
    ::alarm(kChildAlarmSeconds);  // a hang ends this process on SIGALRM, which the parent sees
    Reducer& r = reducer();
    const std::uint64_t seed = env_or("CLREDUCE_LAUNCH_FUZZ_SEED", 1);
    const std::uint64_t cases = env_or("CLREDUCE_LAUNCH_FUZZ_CASES", 300);
    std::mt19937_64 rng(seed);
    std::uint64_t results = 0, refusals = 0, wrong = 0;
    const Operation ops[] = {Operation::sum, Operation::mean,   Operation::norm_l2,
                             Operation::min, Operation::argmax, Operation::count_nonzero};
    for (std::uint64_t k = 0; k < cases; ++k) {
        const Operation op = ops[rng() % std::size(ops)];
        const std::uint64_t sizes[] = {1, 2, 7, 64, 1000, 4099, 65537};
        const std::uint64_t n = sizes[rng() % std::size(sizes)];
        const LaunchParams p = random_params(rng);
        const std::uint64_t data_seed = rng();
        const int type = static_cast<int>(rng() % 5);
        std::cout << "case " << k << ": " << operation_name(op) << " n=" << n << " type#" << type << describe(p)
                  << std::endl;  // flushed: the last line names the case a crash ended in
        try {
            std::string fault;
            switch (type) {
                case 0: fault = run_case(r, op, testing::random_values<std::int8_t>(n, data_seed, false), p); break;
                case 1: fault = run_case(r, op, testing::random_values<std::int32_t>(n, data_seed, false), p); break;
                case 2: fault = run_case(r, op, testing::random_values<std::uint64_t>(n, data_seed, false), p); break;
                case 3: fault = run_case(r, op, testing::random_values<float>(n, data_seed), p); break;
                default:
                    if (!r.device_info().has_fp64) continue;
                    fault = run_case(r, op, testing::random_values<double>(n, data_seed), p);
                    break;
            }
            ++results;
            if (!fault.empty()) {
                ++wrong;
                std::cout << "  WRONG: " << fault << std::endl;
            }
        } catch (const InvalidArgument&) {
            ++refusals;
        } catch (const Unsupported&) {
            ++refusals;
        } catch (const Overflow&) {
            ++refusals;
        }  // anything else (OpenCLError included) escapes: the child fails and prints it
    }
    std::cout << "launch-fuzz-child: " << cases << " cases, " << results << " results, " << refusals
              << " documented refusals, " << wrong << " wrong" << std::endl;
    CHECK(wrong == 0);
}

TEST_CASE("fuzzed LaunchParams: every case a correct result or a documented exception, in a child process",
          "[errors][launch-fuzz]") {
    const std::uint64_t seed = seed_for(0x1a, 0xf0);
    const std::string cases = std::to_string(env_or("CLREDUCE_LAUNCH_FUZZ_CASES", 300));
    INFO("seed " << seed << " (CLREDUCE_LAUNCH_FUZZ_SEED=" << seed << " CLREDUCE_LAUNCH_FUZZ_CASES=" << cases
                 << " with the test [.launch-fuzz-child] repeats the child)");
    const auto child = testing::run_self({"[.launch-fuzz-child]"}, {{"CLREDUCE_LAUNCH_FUZZ_SEED", std::to_string(seed)},
                                                                    {"CLREDUCE_LAUNCH_FUZZ_CASES", cases}});
    const std::size_t last = child.output.rfind("case ");
    INFO("last case started: " << child.output.substr(last == std::string::npos ? 0 : last, 300));
    INFO("exit code " << child.exit_code << " (-1: a signal or the alarm)");
    CHECK(child.exit_code == 0);
    CHECK(child.output.find("launch-fuzz-child: " + cases + " cases") != std::string::npos);
    CHECK(child.output.find("WRONG") == std::string::npos);
}

}  // namespace
}  // namespace clreduce::test
