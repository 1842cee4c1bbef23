// The README's usage example; built with the project so it never goes stale.
#include <clreduce/clreduce.hpp>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <vector>

int main() try {
    clreduce::Reducer reducer;  // default device, or $CLREDUCE_DEVICE
    std::vector<std::int32_t> values(1 << 20);
    std::iota(values.begin(), values.end(), -1000);
    std::int64_t total = reducer.sum(values);  // host data: uploaded, summed into int64

    const std::size_t bytes = values.size() * sizeof(std::int32_t);
    cl::Buffer buffer(reducer.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, values.data());
    std::int64_t part = reducer.sum<std::int32_t>(buffer, 10, 1000);  // elements [10, 1010)

    std::cout << reducer.device_info().name << ": total " << total << ", part " << part << "\n";
    return total == std::accumulate(values.begin(), values.end(), std::int64_t{0}) ? 0 : 1;
} catch (const clreduce::Error& e) {
    std::cerr << "clreduce: " << e.what() << "\n";
    return 2;
}
