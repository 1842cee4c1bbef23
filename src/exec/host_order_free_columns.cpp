// A matrix's columns of the order-free operations on the host (host_order_free.hpp). Any split
// of a column gives the kernels' state, so:
//   sums, counts and products in a 64-bit accumulator add (multiply) each row into one
//     accumulator per column, a block of columns side by side, the rows split among the
//     host's threads where the columns are few; the pieces are added (multiplied) after;
//   the other operations copy a few thousand rows of a block of columns at a time into one
//     contiguous run per column, reduce each run as reduce_order_free does and merge the runs'
//     states in row order (an indexed state's index moves up by the rows before it).
#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>

#include "exec/host_integer_map.hpp"
#include "exec/host_order_free.hpp"
#include "exec/host_pool.hpp"
#include "exec/unaligned.hpp"
#include "ops/state_merge.hpp"

namespace clreduce {
namespace {

// Accumulators of a block of columns (16 KiB: the first level of cache).
constexpr std::uint64_t kFoldColumns = 2048;
// The fewest rows a thread's piece of a fold takes.
constexpr std::uint64_t kMinFoldRows = 256;
// Columns of a block copied into runs, and rows per run: a block's runs (at most 2 MiB of 8-byte
// elements) stay in the second level of cache, and each row is read 64 elements wide.
constexpr std::uint64_t kRunColumns = 64;
constexpr std::uint64_t kRunRows = 4096;

// Rows [r0, r1) of columns [c0, c0 + n) added (multiplied) into acc[0, n), from the identity.
template <class T, ElementMap M, bool Product>
CLREDUCE_HOST_CLONES void fold_rows(const unsigned char* data, std::uint64_t step, std::uint64_t c0, std::uint64_t n,
                                    std::uint64_t r0, std::uint64_t r1, std::uint64_t* __restrict acc) {
    std::fill_n(acc, n, Product ? 1 : 0);
    for (std::uint64_t r = r0; r < r1; ++r) {
        const unsigned char* row = data + (r * step + c0) * sizeof(T);
        for (std::uint64_t c = 0; c < n; ++c) {
            const std::uint64_t v = integer_mapped<T, M>(load_at<T>(row, c));
            if constexpr (Product)
                acc[c] *= v;
            else
                acc[c] += v;
        }
    }
}

using FoldRows = void (*)(const unsigned char*, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t,
                          std::uint64_t, std::uint64_t*);

// The fold of a plan whose state is one 64-bit sum or product, or nullptr.
FoldRows fold_for(const LaunchPlan& plan, const OpKernel& kernel) {
    return with_fold<FoldRows>(plan.element, kernel, [](auto tag, auto map, auto product) -> FoldRows {
        return fold_rows<decltype(tag), decltype(map)::value, decltype(product)::value>;
    });
}

void fold_columns(FoldRows fold, bool product, const unsigned char* data, const HostColumns& m, unsigned char* states) {
    const std::uint64_t blocks = (m.columns + kFoldColumns - 1) / kFoldColumns;
    // Row pieces where the blocks are fewer than the host's threads.
    const std::uint64_t wanted = std::uint64_t(host_pool_threads()) * 2;
    const std::uint64_t pieces =
        std::clamp<std::uint64_t>(std::min(wanted / blocks, std::max<std::uint64_t>(m.rows / kMinFoldRows, 1)), 1,
                                  kMaxHostParts);
    const std::uint64_t per_piece = (m.rows + pieces - 1) / pieces;
    thread_local std::vector<std::uint64_t> kept;
    if (kept.size() < pieces * m.columns) kept.resize(pieces * m.columns);
    std::uint64_t* sums = kept.data();  // piece p's accumulators of column c: sums[p * columns + c]
    auto job = [&](std::size_t k) {
        const std::uint64_t p = k / blocks, c0 = (k % blocks) * kFoldColumns;
        const std::uint64_t r0 = std::min(m.rows, p * per_piece), r1 = std::min(m.rows, r0 + per_piece);
        fold(data, m.step, c0, std::min(kFoldColumns, m.columns - c0), r0, r1, sums + p * m.columns + c0);
    };
    parallel_for(static_cast<std::size_t>(pieces * blocks), job);
    for (std::uint64_t c = 0; c < m.columns; ++c) {
        std::uint64_t acc = sums[c];
        for (std::uint64_t p = 1; p < pieces; ++p)
            acc = product ? acc * sums[p * m.columns + c] : acc + sums[p * m.columns + c];
        std::memcpy(states + c * sizeof acc, &acc, sizeof acc);
    }
}

// Rows [r0, r0 + rows) of columns [c0, c0 + n) into runs: column c's at runs + c * kRunRows
// elements.
template <std::size_t Size>
void copy_runs(const unsigned char* data, std::uint64_t step, std::uint64_t c0, std::uint64_t n, std::uint64_t r0,
               std::uint64_t rows, unsigned char* runs) {
    for (std::uint64_t r = 0; r < rows; ++r) {
        const unsigned char* row = data + ((r0 + r) * step + c0) * Size;
        for (std::uint64_t c = 0; c < n; ++c) std::memcpy(runs + (c * kRunRows + r) * Size, row + c * Size, Size);
    }
}

void merge_columns(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data, const HostColumns& m,
                   unsigned char* states, std::size_t state_bytes) {
    const std::size_t size = type_size(plan.element);
    const auto copy = size == 1 ? copy_runs<1> : size == 2 ? copy_runs<2> : size == 4 ? copy_runs<4> : copy_runs<8>;
    const std::uint64_t blocks = (m.columns + kRunColumns - 1) / kRunColumns;
    auto block = [&](std::size_t k) {
        thread_local std::vector<unsigned char> kept_runs, kept_state;
        if (kept_runs.size() < kRunColumns * kRunRows * size) kept_runs.resize(kRunColumns * kRunRows * size);
        if (kept_state.size() < state_bytes) kept_state.resize(state_bytes);
        unsigned char* runs = kept_runs.data();
        const std::uint64_t c0 = k * kRunColumns, n = std::min(kRunColumns, m.columns - c0);
        std::uint64_t r0 = 0;
        do {  // (once for a matrix of no rows: the empty runs' states)
            const std::uint64_t rows = std::min(kRunRows, m.rows - r0);
            copy(data, m.step, c0, n, r0, rows, runs);
            for (std::uint64_t c = 0; c < n; ++c) {
                unsigned char* state = states + (c0 + c) * state_bytes;
                unsigned char* target = r0 == 0 ? state : kept_state.data();
                // (never false: the float extremes whose zeros need the device are not taken)
                reduce_order_free(plan, kernel, runs + c * kRunRows * size, rows, target);
                if (r0 != 0) merge_order_free_state(plan, kernel, state, target, r0);
            }
            r0 += rows;
        } while (r0 < m.rows);
    };
    parallel_for(static_cast<std::size_t>(blocks), block);
}

}  // namespace

void merge_order_free_state(const LaunchPlan& plan, const OpKernel& kernel, unsigned char* into,
                            const unsigned char* later, std::uint64_t before) {
    if (plugin_info(kernel.op).layout == StateLayout::int128) {  // (merge_state leaves wide sums to its caller)
        unsigned __int128 a = 0, b = 0;
        std::memcpy(&a, into, sizeof a);
        std::memcpy(&b, later, sizeof b);
        a += b;
        std::memcpy(into, &a, sizeof a);
        return;
    }
    merge_state(kernel.op, plan.element, plan.accumulator, into, later, before);
}

void reduce_columns_order_free(const LaunchPlan& plan, const OpKernel& kernel, const unsigned char* data,
                               const HostColumns& columns, unsigned char* states, std::size_t state_bytes) {
    if (!segments_order_free_on_host(plan, kernel))
        throw Error("internal: no order-free host pass for the columns of " + plan.describe());
    if (const FoldRows fold = fold_for(plan, kernel))
        return fold_columns(fold, kernel.op == KernelOp::multiply, data, columns, states);
    merge_columns(plan, kernel, data, columns, states, state_bytes);
}

}  // namespace clreduce
