#include "delivery/result_delivery.hpp"

#include <array>
#include <string>
#include <utility>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"

namespace clreduce {
namespace {

constexpr std::array<std::pair<ResultDelivery, std::string_view>, 5> kNames{{
    {ResultDelivery::automatic, "automatic"},
    {ResultDelivery::blocking, "blocking"},
    {ResultDelivery::paced, "paced"},
    {ResultDelivery::polled, "polled"},
    {ResultDelivery::polled_paced, "polled_paced"},
}};

}  // namespace

std::string_view to_string(ResultDelivery delivery) {
    for (const auto& [value, name] : kNames)
        if (value == delivery) return name;
    return "?";
}

ResultDelivery parse_result_delivery(std::string_view name) {
    for (const auto& [value, spelling] : kNames)
        if (spelling == name) return value;
    throw InvalidArgument("unknown result delivery '" + std::string(name) +
                          "' (expected automatic, blocking, paced, polled or polled_paced)");
}

DeliveryWay delivery_way(ResultDelivery delivery, const DeviceInfo& device) {
    switch (delivery) {
        case ResultDelivery::automatic: return {false, paces_reads_by_default(device)};
        case ResultDelivery::blocking: return {false, false};
        case ResultDelivery::paced: return {false, true};
        case ResultDelivery::polled: return {true, false};
        case ResultDelivery::polled_paced: return {true, true};
    }
    throw InvalidArgument("unknown ResultDelivery");
}

}  // namespace clreduce
