// The README's segments example (many reductions in one call); built and run by the tests.
#include <clreduce/clreduce.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

int main() try {
    clreduce::Reducer reducer;
    // A 3 x 4 matrix, row-major, and a CSR list of three segments over the same values.
    const std::vector<float> host{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cl::Buffer values(reducer.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(float),
                      const_cast<float*>(host.data()));
    const auto row_sums = reducer.sum<float>(values, 0, clreduce::Segments::rows(3, 4));
    const auto column_sums = reducer.sum<float>(values, 0, clreduce::Segments::columns(3, 4));
    const auto batch_max = reducer.max<float>(values, 0, clreduce::Segments::batch(2, 6));
    const auto segment_argmin =
        reducer.argmin<float>(values, 0, clreduce::Segments::offsets(std::vector<std::uint64_t>{0, 2, 7, 12}));
    std::cout << "row sums " << row_sums[0] << " " << row_sums[1] << " " << row_sums[2] << ", column sums "
              << column_sums[0] << " " << column_sums[1] << " " << column_sums[2] << " " << column_sums[3]
              << ", batch maxima " << batch_max[0] << " " << batch_max[1]
              << ", argmin in segment 2: " << segment_argmin[2].index << "\n";
    // The mapping clreduce chooses, and why (here: a work-item per segment of a few elements).
    std::cout << reducer
                     .plan(clreduce::ElementType::float32, clreduce::Operation::sum,
                           clreduce::Segments::batch(1 << 20, 4))
                     .describe()
              << "\n";
    // Runs of equal consecutive keys (reduce_by_key): each run's key and the sum of its values.
    const std::vector<std::int32_t> keys{7, 7, 7, 3, 3, 7, 7, 7, 7, 1, 1, 1};
    cl::Buffer key_buffer(reducer.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          keys.size() * sizeof(std::int32_t), const_cast<std::int32_t*>(keys.data()));
    const auto by_key = reducer.sum_by_key<float, std::int32_t>(key_buffer, 0, values, 0, keys.size());
    const auto from_host = reducer.sum_by_key(keys, host);  // the same from host data
    std::cout << "by key";
    for (std::uint64_t r = 0; r < by_key.runs(); ++r) std::cout << " " << by_key.keys[r] << ":" << by_key.results[r];
    std::cout << (from_host.results == by_key.results ? "\n" : " (host data differs)\n");
    return 0;
} catch (const clreduce::Error& e) {
    std::cerr << "clreduce: " << e.what() << "\n";
    return 2;
}
