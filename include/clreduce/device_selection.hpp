#pragma once
#include <string_view>
#include <vector>

#include <clreduce/opencl.hpp>

namespace clreduce {

// Every device of every platform, platforms in ICD order. Empty when there is no OpenCL.
std::vector<cl::Device> all_devices();

// A device by spec:
//   "P:D"   platform index P, device index D within it (e.g. "0:1")
//   "N"     N-th device of all_devices()
//   other   first device whose "platform name / device name" contains it, case-insensitive
//           (e.g. "nvidia", "pthread")
// Throws InvalidArgument listing the devices for an empty spec and when nothing matches.
cl::Device select_device(std::string_view spec);

// $CLREDUCE_DEVICE if set (same spec), else the first GPU, else the first device.
// Throws Error when there is no OpenCL device at all.
cl::Device default_device();

}  // namespace clreduce
