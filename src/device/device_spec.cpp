#include "device/device_spec.hpp"

#include <algorithm>
#include <cctype>

#include "device/string_util.hpp"

namespace clreduce {
namespace {

bool is_index(std::string_view s) {
    return !s.empty() && s.size() < 10 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

std::optional<std::size_t> match_device_spec(std::string_view spec, const std::vector<DeviceLabel>& devices) {
    const auto colon = spec.find(':');
    if (colon != std::string_view::npos && is_index(spec.substr(0, colon)) && is_index(spec.substr(colon + 1))) {
        const auto p = std::stoul(std::string(spec.substr(0, colon)));
        const auto d = std::stoul(std::string(spec.substr(colon + 1)));
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (devices[i].platform_index == p && devices[i].device_index == d) return i;
    } else if (is_index(spec)) {
        const auto n = std::stoul(std::string(spec));
        if (n < devices.size()) return n;
    } else if (!spec.empty()) {
        const std::string needle = lower(spec);
        for (std::size_t i = 0; i < devices.size(); ++i)
            if (lower(devices[i].label).find(needle) != std::string::npos) return i;
    }
    return std::nullopt;
}

}  // namespace clreduce
