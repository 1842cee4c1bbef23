#pragma once
// The one table of operations: everything the host knows about an operation and about the
// kernel plug-in that computes it. Adding an operation is one row in kOperations
// (operation_table.cpp), plus one plug-in under cl_kernels/ops/ when no existing one serves
// (then one row in kPlugins too). CONTRIBUTING.md walks through it.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <clreduce/device_info.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/operation.hpp>
#include <clreduce/results.hpp>

namespace clreduce {

// The operation plug-ins of the kernel skeleton (cl_kernels/ops/*.cl).
enum class KernelOp {
    add,
    add_compensated,
    multiply,
    min,
    max,
    minmax,
    argmin,
    argmax,
    argminmax,
    add_exact,
    add_int128,
    add_int192,
    moments,
    bit_and,
    bit_or,
    bit_xor,
    user_combine  // transform_reduce with a combine of the user's own (ops/user_combine.cl)
};

// The element map applied before the plug-in combines (CLREDUCE_MAP in prelude.cl).
enum class ElementMap { identity, square, abs, nonzero, transform };

// The accumulator an operation uses over an element type unless the caller chooses one.
enum class AccumulatorRule {
    sum,           // the sum's: int64 / uint64 for integers, double (float without fp64) for floats
    non_negative,  // |x| and x*x: uint64 for integers, the sum's for floats
    count,         // uint64
    compare,       // the element type itself (half compared as float)
    magnitude,     // uint64 for integers, the element type for floats (half as float)
    real,          // double (float without fp64) for every element type
};

// What the host does with the final state's value.
enum class Finalize { none, divide_by_count, square_root };

// How the plug-in's clreduce_state is laid out in the result's bits (its OpenCL struct; the
// [layout] device test compiles each plug-in and checks these offsets and sizes).
enum class StateLayout {
    value,         // one accumulator
    compensated,   // sum, then its compensation (value = sum + compensation)
    pair,          // min, then max
    indexed,       // ulong index at byte 0, the accumulator at byte 8; 16 bytes
    indexed_pair,  // argmin's indexed state at byte 0, argmax's at byte 16; 32 bytes
    exact,         // the correctly rounded sum's fixed-point limbs (ops/add_exact.cl)
    int128,        // a two's-complement integer of two 64-bit limbs, lowest first (ops/add_wide.cl)
    int192,        // the same with three limbs
    moments,       // ulong count at byte 0, then shift, s1, s2, min, max as accumulators (ops/moments.cl)
};

// Limbs of an int128 or int192 state (CLREDUCE_WIDE_LIMBS); 0 for the other layouts.
int wide_limbs(StateLayout layout);

// The atomic a plug-in's level 3 can finish with (CLREDUCE_ATOMIC_FINISH in its file).
enum class AtomicKind { none, add, min, max, bitwise };

struct PluginInfo {
    KernelOp op;
    std::string_view file;  // under cl_kernels/
    StateLayout layout;
    AtomicKind atomic;
    bool is_max;     // CLREDUCE_IS_MAX
    int bit_op = 0;  // CLREDUCE_BIT_OP of ops/bitwise.cl: 1 and, 2 or, 3 xor
};

struct OperationInfo {
    Operation op;
    std::string_view name;
    std::string_view summary;  // operation_summary(): what its value is, one line
    OperationFamily family;
    KernelOp plugin;  // with FloatMode::deterministic; additive rows follow the float mode
    ElementMap map;
    AccumulatorRule accumulator;
    bool follows_float_mode;  // add, add_compensated or add_exact by FloatMode
    bool correctly_rounded;   // offers FloatMode::correctly_rounded
    bool empty_has_identity;  // an empty range gives the identity (else InvalidArgument)
    Finalize finalize;
    // The result is a real number (a double) also for integer data: kept exact and correctly
    // rounded whatever IntegerOverflow says.
    bool real_result = false;
    // Offered for integer element types only (bitwise operations); floats are refused.
    bool integer_only = false;
    // The plug-in's identity state, finalized, is the empty range's result: an empty segment's
    // count need not be known (device offsets are not read back for these operations).
    bool identity_is_result = false;
};

const OperationInfo& operation_info(Operation op);
const PluginInfo& plugin_info(KernelOp op);
// Every plug-in's file under cl_kernels/ (one entry per row; files serving two rows repeat).
std::vector<std::string_view> plugin_files();

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

// The default accumulator of `op` over `element` on `device`.
ElementType default_accumulator(Operation op, ElementType element, const DeviceInfo& device);

// The accumulator transform_reduce's expression is evaluated in (transform_type_t in
// reducer.hpp): int64 for integers up to 32 bits, uint64 for uint64, the sum's for floats.
ElementType transform_accumulator(ElementType element, const DeviceInfo& device);

// Bytes of the plug-in's state for this accumulator.
std::size_t state_size(KernelOp op, ElementType accumulator);
// Whether level 3 can finish atomically: integer add (32-bit, or 64-bit with
// cl_khr_int64_base_atomics), float add in FloatMode::atomic (compare-and-swap), and
// integer min/max/and/or/xor (32-bit, or 64-bit with cl_khr_int64_extended_atomics).
bool has_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device);
// Whether level 3 can add the group results exactly into a fixed-point number
// (InterGroup::exact_atomic): float add in FloatMode::deterministic, with
// cl_khr_int64_base_atomics; the correctly rounded sum (add_exact), with those atomics,
// cl_khr_int64_extended_atomics and cl_khr_fp64 (its expansions are doubles).
bool has_exact_atomic_finish(KernelOp op, ElementType accumulator, FloatMode mode, const DeviceInfo& device);
// The identity of an atomic finish's state in its accumulator's bits (low type_size bytes):
// the result word starts from it.
std::uint64_t atomic_identity(KernelOp op, ElementType accumulator);

}  // namespace clreduce
