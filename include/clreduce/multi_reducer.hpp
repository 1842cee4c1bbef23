#pragma once
// Several devices in one process: one Reducer per device, each with its own context and queue,
// working at once (the calling thread drives the first device, a host thread started with the
// MultiReducer each other one), their partials
// (partial.hpp) merged in the data's order. Integers and extremes exact, argmin/argmax the
// index in the whole, correctly rounded sums the same bits as one device's whatever the split;
// deterministic float sums the same bits for the same split and devices.
#include <cstddef>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include <clreduce/partial.hpp>
#include <clreduce/reducer.hpp>

namespace clreduce {

class MultiReducer {
public:
    // Every GPU of the default device's platform; where it has none, every device of it.
    MultiReducer();
    // These devices, in this order (also of several platforms). InvalidArgument for an empty
    // list or a null device.
    explicit MultiReducer(const std::vector<cl::Device>& devices);
    // Devices by spec (device_selection.hpp), separated by commas: "0:0,0:1", "nvidia".
    explicit MultiReducer(std::string_view specs);
    ~MultiReducer();
    // A MultiReducer that was moved from has no devices: every call on it but destruction and
    // assignment throws InvalidArgument.
    MultiReducer(MultiReducer&&) noexcept;
    MultiReducer& operator=(MultiReducer&&) noexcept;

    std::size_t size() const;
    const Reducer& reducer(std::size_t device) const;

    // (a) Data already on the devices: the whole is the pieces in this order, piece k being
    // `count` elements from element `offset` of `buffer`, a buffer of device `device`'s context
    // (Reducer::context()). Pieces of one device run one after another, devices at once.
    struct Piece {
        std::size_t device = 0;
        cl::Buffer buffer;
        std::uint64_t offset = 0;
        std::uint64_t count = 0;
    };
    template <class T>
    Partial partial(Operation op, const std::vector<Piece>& pieces, const LaunchParams& params = {}) const;

    // (b) Host data, split into one piece per device in proportion to weights(), each reduced
    // by its device at once, as its Reducer's pointer form reduces it: streamed through pinned
    // memory to a device that does not share the host's memory (set_staging), read in place by a
    // CPU device. Data of fewer than single_device_below() bytes is not split: the device of the
    // largest weight takes it all, on the calling thread, with that device's bits.
    template <class T>
    Partial partial(Operation op, const T* data, std::uint64_t count, const LaunchParams& params = {}) const;
    template <class Range, class T = range_value_t<Range>>
    Partial partial(Operation op, const Range& range, const LaunchParams& params = {}) const {
        return partial<T>(op, std::data(range), static_cast<std::uint64_t>(std::size(range)), params);
    }

    // The share of host data each device takes: equal at first; set them (one positive weight
    // per device; InvalidArgument otherwise), or calibrate(), which times a resident sum of `n`
    // elements of `type` on each device and weighs each by its speed. Kept for later calls.
    std::vector<double> weights() const;
    void set_weights(const std::vector<double>& weights);
    void calibrate(ElementType type = ElementType::float32, std::uint64_t n = std::uint64_t(1) << 24);
    // The split of `count` elements by weights(): device k takes [split[k], split[k + 1]).
    // Pieces start at multiples of 64 elements where they can. partial(op, data, count) uses it
    // for data of single_device_below() bytes or more on more than one device; smaller data is
    // not split (the device of the largest weight takes it all, whatever split() says).
    std::vector<std::uint64_t> split(std::uint64_t count) const;

    // How host data reaches the devices, set on every device's Reducer (HostStaging,
    // host_staging.hpp): automatic (streamed through pinned memory on every device but CPU
    // devices, from HostStaging::min_bytes on), always streamed, or never (each piece written
    // from the caller's memory). chunk_bytes: the size of each of a call's pinned staging
    // buffers (InvalidArgument for 0), HostStaging's default by default; the other settings are
    // HostStaging's defaults.
    enum class Staging { automatic, always, never };
    void set_staging(Staging mode, std::uint64_t chunk_bytes = HostStaging{}.chunk_bytes);

    // Host data below this many bytes goes to one device (kSingleDeviceBelow by default; 0:
    // always split). Below it, a second device's fixed cost per call (its launch, its read, its
    // hand-over) is more than the half of the transfer it saves; `clreduce-perf multi` measures
    // the crossover on a machine.
    static constexpr std::uint64_t kSingleDeviceBelow = std::uint64_t(4) << 20;
    void set_single_device_below(std::uint64_t bytes);
    std::uint64_t single_device_below() const;

    // The single-device calls' results over the whole: reduce<Op>(data) for a host range (the
    // element type deduced), reduce<Op, T>(pieces) for resident pieces; every operation. The
    // named forms, sum(data), min<T>(pieces), ..., are the same calls.
    template <Operation Op, class T = void, class Data>
    auto reduce(const Data& data, const LaunchParams& params = {}) const {
        using E = std::conditional_t<std::is_void_v<T>, range_value_t<Data>, T>;
        return whole<E>(Op, data, params).template value<Op, E>();
    }
#define CLREDUCE_MULTI_NAMED(T_, NAME, R)                                \
    template <class T = void, class Data>                                \
    auto NAME(const Data& data, const LaunchParams& params = {}) const { \
        return reduce<Operation::NAME, T>(data, params);                 \
    }
    CLREDUCE_OPERATIONS(CLREDUCE_MULTI_NAMED, T)
#undef CLREDUCE_MULTI_NAMED

private:
    template <class T, class Data>
    Partial whole(Operation op, const Data& data, const LaunchParams& params) const {
        if constexpr (std::is_same_v<Data, std::vector<Piece>>)
            return partial<T>(op, data, params);
        else
            return partial<T>(op, std::data(data), static_cast<std::uint64_t>(std::size(data)), params);
    }

    struct State;  // the reducers, the weights, the device threads (multi/multi_reducer.cpp)
    std::unique_ptr<State> state_;
    // The state, or InvalidArgument for a MultiReducer that was moved from.
    State& state() const;
};

}  // namespace clreduce
