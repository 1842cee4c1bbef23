#pragma once
// The result delivery strategies behind one small interface: a reducer's DeliverySetting (its
// public ResultDelivery, or an experimental delivery in its place) resolves, for a device, to a
// DeliveryWay, which read_result() (result_read.hpp) follows.
#include <atomic>
#include <cstdint>
#include <optional>

#include <clreduce/device_info.hpp>
#include <clreduce/experimental.hpp>
#include <clreduce/result_delivery.hpp>

namespace clreduce {

// Eight bytes, so that a reducer keeps it in a lock-free std::atomic.
struct DeliverySetting {
    ResultDelivery delivery = ResultDelivery::automatic;
    std::int8_t experiment_code = -1;  // an experimental::Delivery in place of `delivery`; -1: none

    DeliverySetting() = default;
    DeliverySetting(ResultDelivery d, std::optional<experimental::Delivery> e)
        : delivery(d), experiment_code(e ? static_cast<std::int8_t>(*e) : std::int8_t(-1)) {}
    std::optional<experimental::Delivery> experiment() const {
        if (experiment_code < 0) return std::nullopt;
        return static_cast<experimental::Delivery>(experiment_code);
    }
};
static_assert(std::atomic<DeliverySetting>::is_always_lock_free);

struct DeliveryWay {
    bool polled = false;  // spin on pinned memory (experimental) rather than block in the driver
    bool paced = false;   // issue the read after the learned wait (read_pacing.hpp)
};

DeliveryWay delivery_way(const DeliverySetting& setting, const DeviceInfo& device);

}  // namespace clreduce
