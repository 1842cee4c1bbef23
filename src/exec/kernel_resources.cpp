#include "exec/kernel_resources.hpp"

#include <string>

#include <clreduce/error.hpp>

namespace clreduce {

void check_kernel_resources(const cl::Kernel& kernel, const cl::Device& device, std::uint32_t work_group_size) {
    std::size_t max_group = 0;
    cl_ulong local = 0, device_local = 0, private_bytes = 0;
    cl_device_type type = 0;
    check(kernel.getWorkGroupInfo(device, CL_KERNEL_WORK_GROUP_SIZE, &max_group), "clGetKernelWorkGroupInfo");
    check(kernel.getWorkGroupInfo(device, CL_KERNEL_LOCAL_MEM_SIZE, &local), "clGetKernelWorkGroupInfo");
    check(kernel.getWorkGroupInfo(device, CL_KERNEL_PRIVATE_MEM_SIZE, &private_bytes), "clGetKernelWorkGroupInfo");
    check(device.getInfo(CL_DEVICE_LOCAL_MEM_SIZE, &device_local), "clGetDeviceInfo");
    check(device.getInfo(CL_DEVICE_TYPE, &type), "clGetDeviceInfo");
    const std::string shape = "work_group_size " + std::to_string(work_group_size);
    const bool cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    if (cpu && work_group_size > max_group)
        throw InvalidArgument(shape + " is more than this kernel can run (CL_KERNEL_WORK_GROUP_SIZE " +
                              std::to_string(max_group) + ": its state takes registers or private memory); use " +
                              std::to_string(max_group) + " or less");
    if (local > device_local)
        throw InvalidArgument(shape + " needs " + std::to_string(local) +
                              " bytes of local memory (CL_KERNEL_LOCAL_MEM_SIZE), more than the device's " +
                              std::to_string(device_local));
    if (cpu && private_bytes * work_group_size > kCpuPrivateBytesPerGroup)
        throw InvalidArgument(
            shape + " needs " + std::to_string(private_bytes) + " x " + std::to_string(work_group_size) +
            " bytes of private memory (CL_KERNEL_PRIVATE_MEM_SIZE x work-items), more than the " +
            std::to_string(kCpuPrivateBytesPerGroup) + " a CPU device's work-group may use on one thread's stack");
}

}  // namespace clreduce
