#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/results.hpp>

namespace clreduce {

// The operation plug-ins of the kernel skeleton (cl_kernels/ops/*.cl).
enum class KernelOp : int { add, add_compensated, multiply, min, max, minmax, argmin, argmax, add_exact };

// The element map applied before the plug-in combines (CLREDUCE_MAP in prelude.cl).
enum class ElementMap : int { identity = 0, square = 1, abs = 2, nonzero = 3, transform = 4 };

struct OpKernel {
    KernelOp op = KernelOp::add;
    ElementMap map = ElementMap::identity;
};

// The plug-in and map of an operation under a float mode with this accumulator.
OpKernel op_kernel(Operation op, FloatMode mode, ElementType accumulator);
// transform_reduce's plug-in for a combine (the map is the transform).
OpKernel transform_kernel(Combine combine, FloatMode mode, ElementType accumulator);
// The Operation a Combine is planned (and tuned) as.
Operation combine_operation(Combine combine);

std::string_view op_file(KernelOp op);  // "ops/add.cl", ...
// Bytes of the plug-in's state for this accumulator (matches the OpenCL struct layout).
std::size_t state_size(KernelOp op, ElementType accumulator);
// Whether level 3 can finish atomically: integer add (32-bit, or 64-bit with
// cl_khr_int64_base_atomics), float add in FloatMode::atomic (compare-and-swap), and
// integer min/max (32-bit, or 64-bit with cl_khr_int64_extended_atomics).
bool has_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device);
// Whether level 3 can add the group results exactly into a fixed-point number
// (InterGroup::exact_atomic): float add in FloatMode::deterministic, with
// cl_khr_int64_base_atomics.
bool has_exact_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device);
// The identity of an atomic finish's state in its accumulator's bits (low type_size bytes):
// the result word starts from it.
std::uint64_t atomic_identity(KernelOp op, ElementType accumulator);

}  // namespace clreduce
