#include "api/fault_injection.hpp"

#include <atomic>

namespace clreduce {
namespace {

std::atomic<std::uint64_t> countdown{0};  // calls left until the fault; 0: none armed
std::atomic<cl_int> injected{CL_SUCCESS};

}  // namespace

void inject_opencl_fault(std::uint64_t nth, cl_int code) {
    injected.store(code, std::memory_order_relaxed);
    countdown.store(nth, std::memory_order_release);
}

bool opencl_fault_pending() { return countdown.load(std::memory_order_acquire) != 0; }

cl_int apply_opencl_fault(cl_int code) {
    std::uint64_t left = countdown.load(std::memory_order_relaxed);
    while (left != 0) {
        if (countdown.compare_exchange_weak(left, left - 1, std::memory_order_acq_rel))
            return left == 1 ? injected.load(std::memory_order_relaxed) : code;
    }
    return code;
}

}  // namespace clreduce
