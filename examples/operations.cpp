// The README's operations example; built with the project so it never goes stale.
#include <clreduce/clreduce.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

int main() try {
    clreduce::Reducer reducer;
    std::vector<float> v{3.5f, -2.0f, 7.25f, -2.0f, 0.0f, 7.25f};
    const auto [lo, hi] = reducer.minmax(v);
    const auto first_min = reducer.argmin(v);  // ties: the lowest index
    std::cout << "sum " << reducer.sum(v) << ", mean " << reducer.mean(v) << ", min " << lo << ", max " << hi
              << ", argmin " << first_min.index << ", argmax " << reducer.argmax(v).index << ", nonzero "
              << reducer.count_nonzero(v) << "\n";
    // Count, extremes, sum, mean and variance of one pass.
    const clreduce::Statistics<float> s = reducer.statistics(v);  // s.mean, s.variance, s.stddev(), s.min, s.max
    std::cout << "statistics: count " << s.count << ", mean " << s.mean << ", stddev " << s.stddev() << ", min "
              << s.min << ", max " << s.max << "\n";
    std::cout << "norm_l1 " << reducer.norm_l1(v) << ", norm_l2 " << reducer.norm_l2(v) << ", norm_inf "
              << reducer.norm_inf(v) << ", relu sum "
              << reducer.transform_reduce(v, "x > 0 ? x : 0", clreduce::Combine::sum) << "\n";

    // 1e8 + (2^20 - 1) ones in a float32 accumulator: plain loses the ones, Neumaier keeps them.
    clreduce::LaunchParams plain, compensated;
    plain.accumulator = compensated.accumulator = clreduce::ElementType::float32;
    compensated.float_mode = clreduce::FloatMode::compensated;
    std::vector<float> ones(1 << 20, 1.0f);
    ones[0] = 1e8f;
    std::cout << "float32 accumulator: plain " << static_cast<std::int64_t>(reducer.sum(ones, plain))
              << ", compensated " << static_cast<std::int64_t>(reducer.sum(ones, compensated))
              << " (exact 101048575)\n";

    // Transform expressions (docs/expression-language.md): parsed, then printed into the kernel.
    const double relu = reducer.transform_reduce(v, "x > 0 ? x : 0", clreduce::Combine::sum);
    const double spread = reducer.transform_reduce(v, "(x - 3.5f) * (x - 3.5f)", clreduce::Combine::sum);
    const double top = reducer.transform_reduce(v, "clamp(x, 0.0f, 255.0f)", clreduce::Combine::max);
    std::cout << "relu " << relu << ", squared distance from 3.5 " << spread << ", clamped max " << top << "\n";

    // A 2 x 3 image of 3 interleaved uint8 channels, rows 12 bytes apart (3 bytes of padding).
    std::vector<std::uint8_t> image{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0};
    const auto sums = reducer.sum(image.data(), clreduce::Image{2, 3, 3, 12, 0});
    std::cout << "per-channel sums " << sums[0] << " " << sums[1] << " " << sums[2] << "\n";
    return 0;
} catch (const clreduce::Error& e) {
    std::cerr << "clreduce: " << e.what() << "\n";
    return 2;
}
