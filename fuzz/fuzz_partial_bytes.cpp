// libFuzzer target: check_partial_bytes() (fuzz_checks.hpp) on every input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    clreduce::fuzz::check_partial_bytes(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
