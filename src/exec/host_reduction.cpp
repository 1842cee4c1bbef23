#include "exec/host_reduction.hpp"

#include <cstring>

#include <clreduce/error.hpp>

#include "device/vendor.hpp"
#include "exec/host_order_free.hpp"
#include "exec/host_plan_moments.hpp"
#include "exec/host_plan_order.hpp"

namespace clreduce {

bool host_path_reproduces(const LaunchPlan& plan, const OpKernel& kernel) {
    // Integer sums kept exact in 128 bits are order-free too; the 192-bit squares of 64-bit data
    // stay on the device.
    if (plan.exact_integer_bits != 0 && plan.exact_integer_bits != 128) return false;
    return order_free_on_host(plan, kernel) || plan_order_on_host(plan, kernel) || moments_on_host(plan, kernel);
}

std::uint64_t default_host_path_bytes(const DeviceInfo& device) { return host_path_crossover_bytes(device); }

bool reduce_on_host(const LaunchPlan& plan, const OpKernel& kernel, const void* data, std::uint64_t count,
                    unsigned char* result_bits) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    if (order_free_on_host(plan, kernel)) return reduce_order_free(plan, kernel, bytes, count, result_bits);
    if (plan_order_on_host(plan, kernel)) {
        const double sum = reduce_in_plan_order(plan, kernel, bytes, count);
        std::memcpy(result_bits, &sum, sizeof sum);
        return true;
    }
    if (moments_on_host(plan, kernel)) return reduce_moments_on_host(plan, bytes, count, result_bits);
    throw Error("internal: the host path cannot run " + plan.describe());
}

}  // namespace clreduce
