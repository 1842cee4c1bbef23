#pragma once
// Opt-in experiments (docs/usage.md, "Experiments"): settings that pay only in narrow cases or
// that rely on behaviour OpenCL leaves undefined. Nothing chooses them by default, and they may
// change or go in any release without notice.
#include <cstdint>
#include <optional>
#include <string_view>

namespace clreduce {

class Reducer;

namespace experimental {

// Segmented calls (LaunchParams::experimental_segments).
struct SegmentOptions {
    // Medium teams: listed segments (offsets, begin/end arrays) in teams of fewer than 32 lanes
    // that are longer than `medium` elements go to a second launch whose teams have 32 lanes
    // (the work-group's where it is smaller), so that one long segment does not keep a small
    // team's warp reading while its other teams are done. It pays only for lengths that span
    // orders of magnitude (power-law) read by small teams, and costs where lengths are alike
    // (docs/performance.md, "Many reductions per call"). Any value gives the same results in
    // every mode but the deterministic float sums' last bits (each segment is still reduced in
    // one fixed order). 0: none (the default).
    std::uint64_t medium = 0;
};

// Result deliveries that read pinned host memory before OpenCL defines its contents:
//   polled        the read is enqueued without blocking into pinned memory, and the caller's
//                 thread spins on that memory until the result's words have all changed (then
//                 a bounded wait more before it falls back to clFinish). OpenCL does not define
//                 that memory's contents before the read's event completes; NVIDIA's driver
//                 writes the words once, a few microseconds before a blocking read returns. It
//                 keeps a host core busy until the result arrives.
//   polled_paced  polled, with ResultDelivery::paced's wait before the read is enqueued.
// Each gives the same bits as the ResultDelivery ways.
enum class Delivery { polled, polled_paced };
std::string_view to_string(Delivery delivery);
Delivery parse_delivery(std::string_view name);  // "polled" or "polled_paced"; throws InvalidArgument

// Makes `reducer`'s synchronous calls deliver their results as `delivery` says, until the next
// Reducer::set_result_delivery. Safe to change while other threads call; each call reads it once.
void set_result_delivery(Reducer& reducer, Delivery delivery);
// The experimental delivery `reducer` uses; none where its ResultDelivery applies.
std::optional<Delivery> result_delivery(const Reducer& reducer);

}  // namespace experimental
}  // namespace clreduce
