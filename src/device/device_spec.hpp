#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

// One device as a spec sees it: its platform's index, its index within the platform, and
// "platform name / device name".
struct DeviceLabel {
    std::size_t platform_index = 0;
    std::size_t device_index = 0;
    std::string label;
};

// The position in `devices` of the device `spec` names, as select_device() documents ("P:D",
// "N", or a case-insensitive part of the label); nothing when none matches. Pure: no OpenCL.
std::optional<std::size_t> match_device_spec(std::string_view spec, const std::vector<DeviceLabel>& devices);

}  // namespace clreduce
