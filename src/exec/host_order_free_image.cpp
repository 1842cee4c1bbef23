// A pitched multi-channel host image of the order-free operations (host_order_free.hpp). Any
// split of a channel gives the kernels' state, so each host thread takes a band of rows, and the
// bands' states are merged in pixel order (an indexed state's index moves up by the pixels
// before it). Within a band:
//   sums, counts and products in a 64-bit accumulator add (multiply) each row, channels
//     interleaved as they lie, into 48 lanes (lane l takes elements l, l + 48, ...: a channel's
//     elements keep to the lanes l = c mod channels, as 48 is a multiple of 1 to 4), the masked
//     pixels' elements as the identity; the lanes of each channel are added (multiplied) after;
//   the other operations read a row a chunk of pixels at a time: each channel's elements of the
//     chunk (of the pixels the mask selects) are copied into a run of their own (one channel
//     without a mask: the row is the run), the run is reduced as a part of reduce_order_free,
//     and its state merged into the band's in pixel order (with a mask, an indexed state's
//     index, which counts the pixels taken, is first made the pixel's own).
#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

#include <clreduce/element_type.hpp>

#include "exec/host_integer_map.hpp"
#include "exec/host_order_free.hpp"
#include "exec/host_pool.hpp"
#include "exec/unaligned.hpp"
#include "ops/state_value.hpp"

namespace clreduce {
namespace {

// Pixels of a chunk: its runs (at most 4 channels of 8-byte elements: 128 KiB) stay in the
// second level of cache.
constexpr std::uint64_t kChunkPixels = 4096;

bool indexed(const OpKernel& kernel) {
    return kernel.op == KernelOp::argmin || kernel.op == KernelOp::argmax || kernel.op == KernelOp::argminmax;
}

// Pixels [x0, x0 + n) of `row` that `mask` selects (all without one), channel c's elements into
// runs + c * kChunkPixels elements, and each one's place in the chunk into where[] (with a mask);
// returns how many pixels were taken.
template <std::size_t Size, std::uint32_t Channels>
std::uint64_t gather(const unsigned char* row, const unsigned char* mask, std::uint64_t x0, std::uint64_t n,
                     unsigned char* runs, std::uint32_t* where) {
    std::uint64_t taken = 0;
    if (mask == nullptr) {
        for (std::uint64_t x = x0; x < x0 + n; ++x, ++taken)
            for (std::uint32_t c = 0; c < Channels; ++c)
                std::memcpy(runs + (c * kChunkPixels + taken) * Size, row + (x * Channels + c) * Size, Size);
        return taken;
    }
    // Without a branch on the mask (a random mask would mispredict every other pixel): each pixel
    // is written at the next place, which only a selected one keeps.
    for (std::uint64_t x = x0; x < x0 + n; ++x) {
        for (std::uint32_t c = 0; c < Channels; ++c)
            std::memcpy(runs + (c * kChunkPixels + taken) * Size, row + (x * Channels + c) * Size, Size);
        where[taken] = static_cast<std::uint32_t>(x - x0);
        taken += mask[x] != 0 ? 1 : 0;
    }
    return taken;
}
using Gather = std::uint64_t (*)(const unsigned char*, const unsigned char*, std::uint64_t, std::uint64_t,
                                 unsigned char*, std::uint32_t*);
template <std::size_t Size>
Gather gather_for(std::uint32_t channels) {
    return channels == 1   ? gather<Size, 1>
           : channels == 2 ? gather<Size, 2>
           : channels == 3 ? gather<Size, 3>
                           : gather<Size, 4>;
}

// The lanes of the folds: a multiple of 1, 2, 3 and 4 channels.
constexpr std::uint32_t kLanes = 48;

// Sums of 8- and 16-bit elements and counts add up to 2^16 terms a lane in 32-bit lanes first (as
// host_order_free.cpp's folds: twice the elements a vector, and 2^16 terms of 16 bits cannot
// leave 32 bits), which then join the 64-bit lanes.
constexpr std::uint64_t kNarrowTerms = std::uint64_t(1) << 16;
template <class T, ElementMap M, bool Product>
constexpr bool kNarrowLanes = !Product && (M == ElementMap::nonzero || (M == ElementMap::identity && sizeof(T) <= 2));

// Elements [0, n) of a row added (multiplied) into the lanes; Masked: only those whose byte of
// `keep` is not 0 (the others as the identity). The lanes are kept in registers meanwhile.
template <class T, ElementMap M, bool Product, bool Masked>
CLREDUCE_HOST_CLONES void fold_row(const unsigned char* row, std::uint64_t n, const unsigned char* keep,
                                   std::uint64_t* __restrict lanes) {
    if constexpr (kNarrowLanes<T, M, Product>) {
        constexpr bool kSigned = M == ElementMap::identity && std::is_signed_v<T>;
        for (std::uint64_t b = 0; b < n; b += kLanes * kNarrowTerms) {
            const std::uint64_t end = std::min(n, b + kLanes * kNarrowTerms);
            std::uint32_t acc[kLanes] = {};
            auto take = [&](std::uint64_t at, std::uint32_t l) {
                std::uint32_t v = M == ElementMap::nonzero ? std::uint32_t(load_at<T>(row, at) != T(0))
                                                           : std::uint32_t(std::int32_t(load_at<T>(row, at)));
                if constexpr (Masked) v &= std::uint32_t(0) - std::uint32_t(keep[at] != 0);
                acc[l] += v;
            };
            std::uint64_t i = b;
            for (; i + kLanes <= end; i += kLanes)
                for (std::uint32_t l = 0; l < kLanes; ++l) take(i + l, l);
            for (std::uint32_t l = 0; i + l < end; ++l) take(i + l, l);
            for (std::uint32_t l = 0; l < kLanes; ++l)
                lanes[l] += kSigned ? std::uint64_t(std::int64_t(std::int32_t(acc[l]))) : std::uint64_t(acc[l]);
        }
        return;
    }
    std::uint64_t acc[kLanes];
    std::copy_n(lanes, kLanes, acc);
    auto take = [&](std::uint64_t at, std::uint32_t l) {
        std::uint64_t v = integer_mapped<T, M>(load_at<T>(row, at));
        if constexpr (Masked) {
            const std::uint64_t all = std::uint64_t(0) - std::uint64_t(keep[at] != 0);
            v = Product ? (v & all) | (~all & 1) : v & all;
        }
        acc[l] = Product ? acc[l] * v : acc[l] + v;
    };
    std::uint64_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (std::uint32_t l = 0; l < kLanes; ++l) take(i + l, l);
    for (std::uint32_t l = 0; i + l < n; ++l) take(i + l, l);  // (the rest: whole pixels, in lanes [0, n - i))
    std::copy_n(acc, kLanes, lanes);
}
using FoldRow = void (*)(const unsigned char*, std::uint64_t, const unsigned char*, std::uint64_t*);

// A row's mask bytes, one per element of its pixels: keep[x * Channels + c] = mask[x]. With GCC,
// 16 pixels at a time: each 16 bytes of the result a shuffle of the 16 mask bytes (one byte
// shuffle instruction where the host has one).
template <std::uint32_t Channels>
CLREDUCE_HOST_CLONES void expand_mask(const unsigned char* mask, std::uint64_t pixels, unsigned char* keep) {
    std::uint64_t x = 0;
#if defined(__GNUC__) && !defined(__clang__)
    typedef unsigned char Bytes16 __attribute__((vector_size(16)));
    Bytes16 index[Channels];
    for (std::uint32_t k = 0; k < Channels; ++k)
        for (std::uint32_t j = 0; j < 16; ++j) index[k][j] = static_cast<unsigned char>((k * 16 + j) / Channels);
    for (; x + 16 <= pixels; x += 16) {
        Bytes16 in;
        std::memcpy(&in, mask + x, sizeof in);
        for (std::uint32_t k = 0; k < Channels; ++k) {
            const Bytes16 out = __builtin_shuffle(in, index[k]);
            std::memcpy(keep + x * Channels + k * 16, &out, sizeof out);
        }
    }
#endif
    for (; x < pixels; ++x)
        for (std::uint32_t c = 0; c < Channels; ++c) keep[x * Channels + c] = mask[x];
}
using ExpandMask = void (*)(const unsigned char*, std::uint64_t, unsigned char*);
ExpandMask channels_expand(std::uint32_t channels) {
    return channels == 1   ? expand_mask<1>
           : channels == 2 ? expand_mask<2>
           : channels == 3 ? expand_mask<3>
                           : expand_mask<4>;
}

// The folds (without, with a mask) of a plan whose state is one 64-bit sum, count or product,
// or none.
std::array<FoldRow, 2> fold_for(const LaunchPlan& plan, const OpKernel& kernel) {
    return with_fold<std::array<FoldRow, 2>>(plan.element, kernel,
                                             [](auto tag, auto map, auto product) -> std::array<FoldRow, 2> {
                                                 using T = decltype(tag);
                                                 constexpr ElementMap M = decltype(map)::value;
                                                 constexpr bool Product = decltype(product)::value;
                                                 return {fold_row<T, M, Product, false>, fold_row<T, M, Product, true>};
                                             });
}

// The indexed states of `state` (argmin, argmax: one; argminmax: two) with `f` applied to each
// index they hold (an empty state holds none).
template <class F>
void each_index(const OpKernel& kernel, unsigned char* state, F f) {
    const int states = kernel.op == KernelOp::argminmax ? 2 : 1;
    for (int k = 0; k < states; ++k) {
        unsigned char* at = state + k * kIndexedStateSize + kIndexedIndexOffset;
        std::uint64_t index = 0;
        std::memcpy(&index, at, sizeof index);
        if (index == ~std::uint64_t(0)) continue;
        index = f(index);
        std::memcpy(at, &index, sizeof index);
    }
}

}  // namespace

void reduce_image_order_free(const LaunchPlan& plan, const OpKernel& kernel, const HostImage& image,
                             unsigned char* states, std::size_t state_bytes) {
    const std::size_t size = type_size(plan.element);
    const Gather gather_of = size == 1   ? gather_for<1>(image.channels)
                             : size == 2 ? gather_for<2>(image.channels)
                             : size == 4 ? gather_for<4>(image.channels)
                                         : gather_for<8>(image.channels);
    const std::array<FoldRow, 2> fold = fold_for(plan, kernel);
    const ExpandMask expand = channels_expand(image.channels);
    const bool product = kernel.op == KernelOp::multiply;
    const std::uint32_t channels = image.channels;
    const bool in_place = channels == 1 && image.mask == nullptr;  // each row is its own run
    // A masked run's indexed states count the pixels the mask took: their indices are made the
    // pixels' own (where[]) before they merge.
    const bool placed = image.mask != nullptr && indexed(kernel);
    const std::uint64_t parts =
        std::max<std::uint64_t>(1, host_parts(image.rows, image.rows * image.cols * channels * size));
    const std::uint64_t per_band = std::max<std::uint64_t>(1, (image.rows + parts - 1) / parts);
    // (Every band has rows: an empty indexed state cannot be merged.)
    const std::uint64_t bands = std::max<std::uint64_t>(1, (image.rows + per_band - 1) / per_band);
    // Each band's channel states, and whether it took a pixel, kept per calling thread (grown once).
    thread_local std::vector<unsigned char> kept, kept_took;
    if (kept.size() < bands * channels * state_bytes) kept.resize(bands * channels * state_bytes);
    if (kept_took.size() < bands) kept_took.resize(bands);
    unsigned char* band_states = kept.data();
    unsigned char* took = kept_took.data();
    auto band = [&](std::size_t b) {
        thread_local std::vector<unsigned char> kept_runs, kept_state;
        thread_local std::vector<std::uint32_t> kept_where;
        if (!in_place && kept_runs.size() < channels * kChunkPixels * size)
            kept_runs.resize(channels * kChunkPixels * size);
        if (kept_state.size() < state_bytes) kept_state.resize(state_bytes);
        if (image.mask != nullptr && kept_where.size() < kChunkPixels) kept_where.resize(kChunkPixels);
        unsigned char* runs = kept_runs.data();
        unsigned char* run_state = kept_state.data();
        std::uint32_t* where = kept_where.data();
        unsigned char* own = band_states + b * channels * state_bytes;
        const std::uint64_t r0 = std::min(image.rows, b * per_band), r1 = std::min(image.rows, r0 + per_band);
        if (fold[0] != nullptr) {
            std::array<std::uint64_t, kLanes> lanes;
            lanes.fill(product ? 1 : 0);
            thread_local std::vector<unsigned char> kept_keep;
            if (image.mask != nullptr && kept_keep.size() < image.cols * channels)
                kept_keep.resize(image.cols * channels);
            for (std::uint64_t r = r0; r < r1; ++r) {
                const unsigned char* row = image.data + r * image.step;
                if (image.mask == nullptr) {
                    fold[0](row, image.cols * channels, nullptr, lanes.data());
                } else if (channels == 1) {  // (the mask's row is one byte an element already)
                    fold[1](row, image.cols, image.mask + r * image.mask_step, lanes.data());
                } else {
                    expand(image.mask + r * image.mask_step, image.cols, kept_keep.data());
                    fold[1](row, image.cols * channels, kept_keep.data(), lanes.data());
                }
            }
            for (std::uint32_t c = 0; c < channels; ++c) {
                std::uint64_t acc = lanes[c];
                for (std::uint32_t l = c + channels; l < kLanes; l += channels)
                    acc = product ? acc * lanes[l] : acc + lanes[l];
                std::memcpy(own + c * state_bytes, &acc, sizeof acc);
            }
            took[b] = 1;
            return;
        }
        // Each channel starts from the state of no element; the first run a band takes is written
        // over it (an indexed state cannot merge into an empty one; without a mask, the first
        // run of a band is its first pixels).
        for (std::uint32_t c = 0; c < channels; ++c)
            reduce_run_order_free(plan, kernel, nullptr, 0, own + c * state_bytes);
        bool started = false;
        for (std::uint64_t r = r0; r < r1; ++r) {
            const unsigned char* row = image.data + r * image.step;
            const unsigned char* mask = image.mask != nullptr ? image.mask + r * image.mask_step : nullptr;
            for (std::uint64_t x0 = 0; x0 < image.cols; x0 += kChunkPixels) {
                const std::uint64_t n = std::min(kChunkPixels, image.cols - x0);
                const std::uint64_t before = (r - r0) * image.cols + x0;
                const std::uint64_t taken = in_place ? n : gather_of(row, mask, x0, n, runs, where);
                if (taken == 0) continue;
                for (std::uint32_t c = 0; c < channels; ++c) {
                    const unsigned char* run = in_place ? row + x0 * size : runs + c * kChunkPixels * size;
                    unsigned char* state = own + c * state_bytes;
                    unsigned char* target = started ? run_state : state;
                    reduce_run_order_free(plan, kernel, run, taken, target);
                    if (placed) each_index(kernel, target, [&](std::uint64_t i) { return before + where[i]; });
                    if (started) merge_order_free_state(plan, kernel, state, run_state, placed ? 0 : before);
                }
                started = true;
            }
        }
        took[b] = started ? 1 : 0;
    };
    parallel_for(static_cast<std::size_t>(bands), band);
    // The bands that took a pixel, merged in order (the first one's indices moved to its place);
    // where none did, band 0's state of no pixel.
    for (std::uint32_t c = 0; c < channels; ++c) {
        unsigned char* state = states + c * state_bytes;
        std::memcpy(state, band_states + c * state_bytes, state_bytes);
        bool any = took[0] != 0;
        for (std::uint64_t b = 1; b < bands; ++b) {
            if (took[b] == 0) continue;
            const unsigned char* later = band_states + (b * channels + c) * state_bytes;
            const std::uint64_t start = b * per_band * image.cols;
            if (any) {
                merge_order_free_state(plan, kernel, state, later, start);
            } else {
                std::memcpy(state, later, state_bytes);
                if (indexed(kernel)) each_index(kernel, state, [&](std::uint64_t i) { return start + i; });
                any = true;
            }
        }
    }
}

}  // namespace clreduce
