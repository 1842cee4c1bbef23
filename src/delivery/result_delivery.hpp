#pragma once
// The result delivery strategies behind one small interface: a ResultDelivery (public)
// resolves, for a device, to a DeliveryWay, which read_result() (result_read.hpp) follows.
#include <clreduce/device_info.hpp>
#include <clreduce/result_delivery.hpp>

namespace clreduce {

struct DeliveryWay {
    bool polled = false;  // spin on pinned memory (opt-in) rather than block in the driver
    bool paced = false;   // issue the read after the learned wait (read_pacing.hpp)
};

DeliveryWay delivery_way(ResultDelivery delivery, const DeviceInfo& device);

}  // namespace clreduce
