#include "delivery/result_delivery.hpp"

#include <array>
#include <string>
#include <utility>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"

namespace clreduce {
namespace {

constexpr std::array<std::pair<ResultDelivery, std::string_view>, 3> kNames{{
    {ResultDelivery::automatic, "automatic"},
    {ResultDelivery::blocking, "blocking"},
    {ResultDelivery::paced, "paced"},
}};

constexpr std::array<std::pair<experimental::Delivery, std::string_view>, 2> kExperimentNames{{
    {experimental::Delivery::polled, "polled"},
    {experimental::Delivery::polled_paced, "polled_paced"},
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
                          "' (expected automatic, blocking or paced)");
}

std::string_view experimental::to_string(Delivery delivery) {
    for (const auto& [value, name] : kExperimentNames)
        if (value == delivery) return name;
    return "?";
}

experimental::Delivery experimental::parse_delivery(std::string_view name) {
    for (const auto& [value, spelling] : kExperimentNames)
        if (spelling == name) return value;
    throw InvalidArgument("unknown experimental result delivery '" + std::string(name) +
                          "' (expected polled or polled_paced)");
}

DeliveryWay delivery_way(const DeliverySetting& setting, const DeviceInfo& device) {
    if (const auto experiment = setting.experiment()) {
        switch (*experiment) {
            case experimental::Delivery::polled: return {true, false};
            case experimental::Delivery::polled_paced: return {true, true};
        }
        throw InvalidArgument("unknown experimental::Delivery");
    }
    switch (setting.delivery) {
        case ResultDelivery::automatic: return {false, paces_reads_by_default(device)};
        case ResultDelivery::blocking: return {false, false};
        case ResultDelivery::paced: return {false, true};
    }
    throw InvalidArgument("unknown ResultDelivery");
}

}  // namespace clreduce
