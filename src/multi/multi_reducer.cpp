// MultiReducer: one Reducer per device and one host thread per device but the first; every call
// runs the first device's pieces on the calling thread and the others' on their threads
// (device_workers.hpp), and merges the partials in the data's order.
#include <clreduce/multi_reducer.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <numeric>
#include <string>

#include <clreduce/device_selection.hpp>

#include "api/instantiation_lists.hpp"
#include "device/vendor.hpp"
#include "multi/device_workers.hpp"

namespace clreduce {

struct MultiReducer::State {
    std::vector<std::unique_ptr<Reducer>> reducers;
    std::vector<std::string> names;
    mutable std::mutex weights_mutex;  // weights and staging settings
    std::vector<double> weights;
    // Host data of fewer bytes is reduced by one device (single_device()), on the calling thread.
    std::uint64_t single_device_below = kSingleDeviceBelow;
    // Per device, the lock its platform's devices share where they take turns
    // (devices_take_turns in device/vendor.hpp); null where devices work at once.
    std::vector<std::shared_ptr<std::mutex>> turns;
    DeviceWorkers workers;

    explicit State(const std::vector<cl::Device>& devices) : workers(devices.size()) {
        for (const cl::Device& d : devices) {
            if (d() == nullptr) throw InvalidArgument("MultiReducer: a null device");
            reducers.push_back(std::make_unique<Reducer>(d));
            names.push_back(d.getInfo<CL_DEVICE_NAME>());
        }
        weights.assign(devices.size(), 1.0);
        std::vector<std::pair<std::string, std::shared_ptr<std::mutex>>> platforms;
        for (const auto& r : reducers) {
            const DeviceInfo& info = r->device_info();
            std::shared_ptr<std::mutex> turn;
            if (devices_take_turns(info)) {
                auto same = std::find_if(platforms.begin(), platforms.end(),
                                         [&](const auto& p) { return p.first == info.platform_name; });
                if (same == platforms.end())
                    same = platforms.insert(platforms.end(), {info.platform_name, std::make_shared<std::mutex>()});
                turn = same->second;
            }
            turns.push_back(turn);
        }
    }

    // The device that takes host data too small to split: the largest weight, the first of equals.
    std::size_t single_device() const {
        const std::lock_guard<std::mutex> lock(weights_mutex);
        return static_cast<std::size_t>(std::max_element(weights.begin(), weights.end()) - weights.begin());
    }

    // Runs tasks[k] for device k (device_workers.hpp); a failure is thrown again naming its device (the
    // lowest-numbered one that failed), after every device's task has ended.
    void run(const std::vector<std::function<void()>>& tasks) {
        std::vector<std::function<void()>> taking_turns(tasks.size());
        for (std::size_t k = 0; k < tasks.size(); ++k) {
            if (!tasks[k]) continue;
            taking_turns[k] = [&, k] {
                std::unique_lock<std::mutex> turn;
                if (turns[k]) turn = std::unique_lock<std::mutex>(*turns[k]);
                tasks[k]();
            };
        }
        std::vector<std::exception_ptr> errors;
        workers.run(taking_turns, errors);
        for (std::size_t k = 0; k < errors.size(); ++k) {
            if (!errors[k]) continue;
            const std::string where = "device " + std::to_string(k) + " ('" + names[k] + "'): ";
            try {
                std::rethrow_exception(errors[k]);
            } catch (const BuildError&) {
                throw;  // its log says what failed to build
            } catch (const OpenCLError& e) {
                throw OpenCLError(e.code(), where + e.call());
            } catch (const InvalidArgument& e) {
                throw InvalidArgument(where + e.what());
            } catch (const Unsupported& e) {
                throw Unsupported(where + e.what());
            } catch (const Overflow& e) {
                throw Overflow(where + e.what());
            } catch (const std::exception& e) {
                throw Error(where + e.what());
            }
        }
    }
};

namespace {

std::vector<cl::Device> default_devices() {
    const cl::Device first = default_device();
    const cl::Platform platform(first.getInfo<CL_DEVICE_PLATFORM>());
    std::vector<cl::Device> devices;
    if (platform.getDevices(CL_DEVICE_TYPE_GPU, &devices) != CL_SUCCESS || devices.empty()) {
        devices.clear();
        check(platform.getDevices(CL_DEVICE_TYPE_ALL, &devices), "clGetDeviceIDs");
    }
    return devices;
}

std::vector<cl::Device> devices_of(std::string_view specs) {
    std::vector<cl::Device> devices;
    std::size_t start = 0;
    while (start <= specs.size()) {
        const std::size_t comma = std::min(specs.find(',', start), specs.size());
        const std::string_view spec = specs.substr(start, comma - start);
        if (spec.empty()) throw InvalidArgument("MultiReducer: an empty device spec in '" + std::string(specs) + "'");
        devices.push_back(select_device(spec));
        start = comma + 1;
    }
    return devices;
}

}  // namespace

MultiReducer::MultiReducer() : MultiReducer(default_devices()) {}

MultiReducer::MultiReducer(const std::vector<cl::Device>& devices) {
    if (devices.empty()) throw InvalidArgument("MultiReducer: no devices");
    state_ = std::make_unique<State>(devices);
}

MultiReducer::MultiReducer(std::string_view specs) : MultiReducer(devices_of(specs)) {}

MultiReducer::~MultiReducer() = default;
MultiReducer::MultiReducer(MultiReducer&&) noexcept = default;
MultiReducer& MultiReducer::operator=(MultiReducer&&) noexcept = default;

MultiReducer::State& MultiReducer::state() const {
    if (!state_)
        throw InvalidArgument(
            "this MultiReducer was moved from; it has no devices (assign a MultiReducer to it first)");
    return *state_;
}

// Every other public call starts with size(), weights(), set_staging() or
// single_device_below(), so a moved-from
// MultiReducer throws before its state is touched.
std::size_t MultiReducer::size() const { return state().reducers.size(); }

const Reducer& MultiReducer::reducer(std::size_t device) const {
    if (device >= size())
        throw InvalidArgument("device " + std::to_string(device) + " of a MultiReducer of " + std::to_string(size()));
    return *state_->reducers[device];
}

std::vector<double> MultiReducer::weights() const {
    const std::lock_guard<std::mutex> lock(state().weights_mutex);
    return state_->weights;
}

void MultiReducer::set_weights(const std::vector<double>& weights) {
    if (weights.size() != size())
        throw InvalidArgument("set_weights: " + std::to_string(weights.size()) + " weights for " +
                              std::to_string(size()) + " devices");
    for (double w : weights)
        if (!(w > 0) || !std::isfinite(w))
            throw InvalidArgument("set_weights: every weight must be positive and finite, got " + std::to_string(w));
    const std::lock_guard<std::mutex> lock(state_->weights_mutex);
    state_->weights = weights;
}

void MultiReducer::set_staging(Staging mode, std::uint64_t chunk_bytes) {
    if (chunk_bytes == 0) throw InvalidArgument("set_staging: chunk_bytes must be positive");
    HostStaging staging;
    staging.mode = mode == Staging::always  ? HostStaging::Mode::always
                   : mode == Staging::never ? HostStaging::Mode::never
                                            : HostStaging::Mode::automatic;
    staging.chunk_bytes = chunk_bytes;
    const std::lock_guard<std::mutex> lock(state().weights_mutex);
    for (const auto& r : state_->reducers) r->set_host_staging(staging);
}

void MultiReducer::set_single_device_below(std::uint64_t bytes) {
    const std::lock_guard<std::mutex> lock(state().weights_mutex);
    state().single_device_below = bytes;
}

std::uint64_t MultiReducer::single_device_below() const {
    const std::lock_guard<std::mutex> lock(state().weights_mutex);
    return state().single_device_below;
}

void MultiReducer::calibrate(ElementType type, std::uint64_t n) {
    if (n == 0) throw InvalidArgument("calibrate: n must be positive");
    std::vector<double> seconds(size(), 0);
    std::vector<std::function<void()>> tasks;
    for (std::size_t k = 0; k < size(); ++k)
        tasks.push_back([this, k, type, n, &seconds] {
            const Reducer& r = *state_->reducers[k];
            const std::size_t bytes = static_cast<std::size_t>(n * type_size(type));
            cl::Buffer buffer(r.context(), CL_MEM_READ_WRITE, bytes);
            cl::CommandQueue queue = r.queue();
            check(queue.enqueueFillBuffer(buffer, cl_uchar(1), 0, bytes), "clEnqueueFillBuffer");
            check(queue.finish(), "clFinish");
            std::vector<double> runs;
            for (int run = 0; run < 4; ++run) {  // the first builds the program
                const auto start = std::chrono::steady_clock::now();
                visit_type(type, [&](auto tag) {
                    using T = decltype(tag);
                    if constexpr (std::is_same_v<T, half>)
                        throw InvalidArgument("calibrate: half data");
                    else
                        r.sum<T>(buffer, 0, n);
                });
                runs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            }
            std::sort(runs.begin() + 1, runs.end());
            seconds[k] = runs[2];
        });
    state_->run(tasks);
    std::vector<double> weights;
    for (double s : seconds) weights.push_back(1.0 / std::max(s, 1e-9));
    set_weights(weights);
}

std::vector<std::uint64_t> MultiReducer::split(std::uint64_t count) const {
    // Each weight over the largest: in (0, 1], so the total stays finite however large the
    // weights (three of DBL_MAX would overflow it and give inf / inf shares).
    std::vector<double> w = weights();
    const double largest = *std::max_element(w.begin(), w.end());
    for (double& x : w) x /= largest;
    const double total = std::accumulate(w.begin(), w.end(), 0.0);
    std::vector<std::uint64_t> cuts{0};
    double share = 0;
    for (std::size_t k = 0; k + 1 < w.size(); ++k) {
        share += w[k];
        std::uint64_t cut = static_cast<std::uint64_t>(static_cast<long double>(count) * share / total);
        cut = std::max(cuts.back(), cut / 64 * 64);  // 64-element aligned starts
        cuts.push_back(std::min(cut, count));
    }
    cuts.push_back(count);
    return cuts;
}

template <class T>
Partial MultiReducer::partial(Operation op, const std::vector<Piece>& pieces, const LaunchParams& params) const {
    for (std::size_t k = 0; k < pieces.size(); ++k)
        if (pieces[k].device >= size())
            throw InvalidArgument("piece " + std::to_string(k) + " names device " + std::to_string(pieces[k].device) +
                                  " of a MultiReducer of " + std::to_string(size()));
    std::vector<Partial> parts(pieces.size());
    std::vector<std::function<void()>> tasks(size());
    for (std::size_t d = 0; d < size(); ++d) {
        if (std::none_of(pieces.begin(), pieces.end(), [d](const Piece& p) { return p.device == d; })) continue;
        tasks[d] = [&, d] {
            for (std::size_t k = 0; k < pieces.size(); ++k)
                if (pieces[k].device == d)
                    parts[k] = state_->reducers[d]->partial<T>(op, pieces[k].buffer, pieces[k].offset, pieces[k].count,
                                                               params);
        };
    }
    state_->run(tasks);
    Partial whole;
    for (const Partial& p : parts) whole.merge(p);
    if (whole.empty()) whole = reducer(0).partial<T>(op, static_cast<const T*>(nullptr), 0, params);
    return whole;
}

template <class T>
Partial MultiReducer::partial(Operation op, const T* data, std::uint64_t count, const LaunchParams& params) const {
    if (data == nullptr && count > 0) throw InvalidArgument("host pointer is null");
    if (count < single_device_below() / sizeof(T) || size() == 1) {
        const std::size_t d = state_->single_device();
        std::vector<std::function<void()>> tasks(d + 1);
        Partial whole;
        tasks[d] = [&] { whole = state_->reducers[d]->partial<T>(op, data, count, params); };
        state_->run(tasks);  // on this thread, its errors named like the split's
        return whole;
    }
    const std::vector<std::uint64_t> cuts = split(count);
    std::vector<Partial> parts(size());
    std::vector<std::function<void()>> tasks(size());
    for (std::size_t d = 0; d < size(); ++d)
        tasks[d] = [&, d] {
            parts[d] = state_->reducers[d]->partial<T>(op, data + cuts[d], cuts[d + 1] - cuts[d], params);
        };
    state_->run(tasks);
    Partial whole;
    for (const Partial& p : parts) whole.merge(p);
    return whole;
}

#define CLREDUCE_INSTANTIATE(T)                                                                                 \
    template Partial MultiReducer::partial<T>(Operation, const std::vector<Piece>&, const LaunchParams&) const; \
    template Partial MultiReducer::partial<T>(Operation, const T*, std::uint64_t, const LaunchParams&) const;
CLREDUCE_FOR_EACH_ELEMENT_TYPE(CLREDUCE_INSTANTIATE)
#undef CLREDUCE_INSTANTIATE

}  // namespace clreduce
