#pragma once
// The host path's operations whose result does not depend on the order of the elements:
// integer sums, products and counts (exact, or modulo 2^64 as the kernels' 64-bit
// accumulators wrap; sums kept exact in 128 bits as ops/add_wide.cl keeps them), extremes and bit operations of
// integers, extremes of floats (min, max, minmax, norm_inf: fmin/fmax ignore NaN), and argmin/argmax/argminmax of any
// type (the lowest index among the best values, NaN losing to every number: a rule, not an order). Any split of the
// range gives the kernels' state, so the host's threads each take a part and the parts' states are combined.
#include <cstddef>
#include <cstdint>

#include <clreduce/launch_params.hpp>

#include "ops/operation_table.hpp"

namespace clreduce {

// Whether `plan` is one of these (with the default accumulator of its operation).
bool order_free_on_host(const LaunchPlan& plan, const OpKernel& kernel);

// The state the kernels would leave for `plan` over `count` elements at `data` (any address),
// into `state` (state_size bytes of the plug-in's struct). False, with nothing written, for
// the one case the device decides: a float min or max of zero where the data holds +0 and -0.
bool reduce_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data, std::uint64_t count,
                       unsigned char* state);

// Contiguous segments of host data: segment s is elements [begin(s), end(s)).
struct HostSegments {
    std::uint64_t count = 0;
    std::uint64_t step = 0;                  // regular segments (batches, rows): begin(s) = s * step
    std::uint64_t length = 0;                // and end(s) = begin(s) + length
    const std::uint64_t* offsets = nullptr;  // else CSR offsets: [offsets[s], offsets[s + 1])
    std::uint64_t begin(std::uint64_t s) const { return offsets != nullptr ? offsets[s] : s * step; }
    std::uint64_t end(std::uint64_t s) const { return offsets != nullptr ? offsets[s + 1] : s * step + length; }
};

// A matrix's columns: column c is elements c + r * step (elements) for rows r < rows.
struct HostColumns {
    std::uint64_t columns = 0;
    std::uint64_t rows = 0;
    std::uint64_t step = 0;
};

// Each segment's state, as reduce_order_free gives it for the segment alone (not for float
// extremes, whose zeros may need the device: segments_order_free_on_host), into
// states + s * state_bytes; the host's threads take whole segments.
bool segments_order_free_on_host(const LaunchPlan& plan, const OpKernel& kernel);
void reduce_segments_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                                const HostSegments& segments, unsigned char* states, std::size_t state_bytes);

// Each column's state (as segments_order_free_on_host's operations leave it) into
// states + c * state_bytes: a host thread takes a block of columns, copies a few thousand rows
// of them at a time into one run per column, reduces each run as reduce_order_free does and
// merges the runs' states in row order (host_order_free_columns.cpp).
void reduce_columns_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                               const HostColumns& columns, unsigned char* states, std::size_t state_bytes);

// The state of `count` elements at `data` (any address) as reduce_order_free leaves it, on the
// calling thread alone (for the caller's own split: segments, runs of columns, image chunks).
// Not for the float extremes whose zeros may need the device (segments_order_free_on_host).
void reduce_run_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                           std::uint64_t count, unsigned char* state);

// Merges the state of a later run into `into`, whose run holds `before` elements (an indexed
// state's index moves up by them; ties keep `into`'s). `into` must have taken an element where
// the operation is indexed (an empty indexed state has no value to compare).
void merge_order_free_state(const LaunchPlan& plan, const OpKernel& kernel, unsigned char* into,
                            const unsigned char* later, std::uint64_t before);

// A pitched multi-channel image of host data: channel c of pixel x of row r is element
// x * channels + c of the row at data + r * step (bytes); where `mask` is given, only the pixels
// whose mask byte (mask + r * mask_step + x) is not 0.
struct HostImage {
    const unsigned char* data = nullptr;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint32_t channels = 1;
    std::uint64_t step = 0;
    const unsigned char* mask = nullptr;
    std::uint64_t mask_step = 0;
};

// Each channel's state (segments_order_free_on_host's operations), as the image kernels leave it for the pixels (the
// mask selects) in row-major order (an indexed state's index: the pixel's own in the image), into states + c *
// state_bytes (host_order_free_image.cpp).
void reduce_image_order_free(const LaunchPlan& plan, const OpKernel& kernel, const HostImage& image,
                             unsigned char* states, std::size_t state_bytes);

}  // namespace clreduce
