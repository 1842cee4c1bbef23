// The README's several-devices example: a host array reduced by every device of the default
// platform at once, and a partial result sent as bytes and merged elsewhere.
#include <clreduce/clreduce.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

int main() try {
    std::vector<float> values(1 << 22);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1.0f / static_cast<float>(i + 1);

    clreduce::MultiReducer devices;  // every GPU of the default platform (else its devices)
    devices.calibrate();             // shares by measured speed, kept for later calls
    clreduce::LaunchParams exact;
    exact.float_mode = clreduce::FloatMode::correctly_rounded;
    const double sum = devices.sum<float>(values, exact);  // the same bits as one device's
    const auto top = devices.argmax<float>(values);        // the index in the whole array

    // Partials of two halves, one sent as bytes (to another process, a file, ...), merged in order.
    const clreduce::Reducer& reducer = devices.reducer(0);
    const std::size_t half = values.size() / 2;
    clreduce::Partial first = reducer.partial(clreduce::Operation::sum, values.data(), half, exact);
    const std::vector<std::uint8_t> bytes =
        reducer.partial(clreduce::Operation::sum, values.data() + half, values.size() - half, exact).to_bytes();
    first.merge(clreduce::Partial::from_bytes(bytes.data(), bytes.size()));

    std::cout.precision(17);
    std::cout << devices.size() << " device(s): sum " << sum << ", argmax " << top.index << ", merged halves "
              << first.sum<float>() << (first.sum<float>() == sum ? " (the same bits)" : " (DIFFERENT)") << "\n";
    return 0;
} catch (const clreduce::Error& e) {
    std::cerr << "clreduce: " << e.what() << "\n";
    return 2;
}
