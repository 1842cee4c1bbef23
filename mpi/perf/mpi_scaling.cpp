// clreduce-mpi-scaling: strong and weak scaling of clreduce::mpi::allreduce over the ranks of one
// mpiexec run. The ranks are split into communicators of the first 1, 2, ... P ranks; for each,
// every rank in it reduces its data (resident in a buffer on its device) to a partial, then the
// partials are merged by allreduce. Strong: N elements in all, split over the ranks; weak: N
// per rank. Rank 0 prints a table of the medians (local reduction, allreduce step, the whole
// call), checks every result against one process's, and writes JSON and an SVG plot.
//   mpiexec -n 4 clreduce-mpi-scaling [--n N] [--repeats R] [--json FILE] [--svg FILE]
#include <clreduce/clreduce.hpp>
#include <clreduce/mpi.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/svg_plot.hpp"

namespace {

using namespace clreduce;
using Clock = std::chrono::steady_clock;

double micros(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::micro>(b - a).count();
}
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

struct Row {
    std::string mode;
    int ranks = 0;
    std::uint64_t total = 0;
    double local_us = 0, merge_us = 0, call_us = 0;  // medians of the slowest rank's times
    bool right = false;
};

// One configuration on `comm` (this rank is in it): `per_rank[r]` elements on rank r.
Row measure(MPI_Comm comm, const Reducer& reducer, const std::string& mode, std::uint64_t mine, int repeats,
            std::uint64_t total) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    // 1.0f everywhere: the exact sum is the element count, whatever the split.
    std::vector<float> data(std::max<std::uint64_t>(mine, 1), 1.0f);
    cl::Buffer buffer(reducer.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(float),
                      data.data());
    LaunchParams exact;
    exact.float_mode = FloatMode::correctly_rounded;
    std::vector<double> local, merge, call;
    bool right = true;
    for (int run = 0; run <= repeats; ++run) {
        MPI_Barrier(comm);
        const auto start = Clock::now();
        Clock::time_point reduced;
        const Partial p = mpi::allreduce(comm, [&] {
            Partial q = reducer.partial<float>(Operation::sum, buffer, 0, mine, exact);
            reduced = Clock::now();
            return q;
        });
        const auto end = Clock::now();
        right = right && p.sum<float>() == static_cast<double>(total);
        // The slowest rank's times: what the call costs the communicator.
        double mine_times[3] = {micros(start, reduced), micros(reduced, end), micros(start, end)}, slowest[3];
        MPI_Allreduce(mine_times, slowest, 3, MPI_DOUBLE, MPI_MAX, comm);
        if (run > 0) {
            local.push_back(slowest[0]);
            merge.push_back(slowest[1]);
            call.push_back(slowest[2]);
        }
    }
    int all_right = right ? 1 : 0, every = 0;
    MPI_Allreduce(&all_right, &every, 1, MPI_INT, MPI_MIN, comm);
    return Row{mode, size, total, median(local), median(merge), median(call), every == 1};
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    std::uint64_t n = std::uint64_t(1) << 24;
    int repeats = 9;
    std::string json, svg;
    for (int k = 1; k + 1 < argc; k += 2) {
        const std::string flag = argv[k], value = argv[k + 1];
        if (flag == "--n") n = std::stoull(value);
        if (flag == "--repeats") repeats = std::stoi(value);
        if (flag == "--json") json = value;
        if (flag == "--svg") svg = value;
    }
    int status = 0;
    try {
        const Reducer reducer;
        std::vector<Row> rows;
        for (int size = 1; size <= ranks; ++size) {
            MPI_Comm comm;
            MPI_Comm_split(MPI_COMM_WORLD, rank < size ? 0 : MPI_UNDEFINED, rank, &comm);
            if (comm != MPI_COMM_NULL) {
                const std::uint64_t strong = n * (rank + 1) / size - n * rank / size;
                rows.push_back(measure(comm, reducer, "strong", strong, repeats, n));
                rows.push_back(measure(comm, reducer, "weak", n, repeats, n * size));
                MPI_Comm_free(&comm);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (rank == 0) {
            fmt::print("clreduce-mpi-scaling: correctly rounded float32 sums, {} elements {}, device '{}', medians of "
                       "{} (the slowest rank's)\n",
                       n, "in all (strong) or per rank (weak)", reducer.device_info().name, repeats);
            fmt::print("{:<7} {:>5} {:>12} {:>12} {:>12} {:>12} {:>9} {:>6}\n", "mode", "ranks", "elements",
                       "local us", "allreduce us", "call us", "speed-up", "right");
            for (const Row& r : rows) {
                const Row& base = *std::find_if(rows.begin(), rows.end(),
                                                [&](const Row& b) { return b.mode == r.mode && b.ranks == 1; });
                // Strong: time(1) / time(k); weak: elements per second against one rank's.
                const double speedup = r.mode == "strong" ? base.call_us / r.call_us
                                                          : (r.total / r.call_us) / (base.total / base.call_us);
                fmt::print("{:<7} {:>5} {:>12} {:>12.1f} {:>12.1f} {:>12.1f} {:>9.2f} {:>6}\n", r.mode, r.ranks,
                           r.total, r.local_us, r.merge_us, r.call_us, speedup, r.right ? "yes" : "NO");
                status |= r.right ? 0 : 1;
            }
            if (!json.empty()) {
                nlohmann::json doc = {{"device", reducer.device_info().name}, {"n", n}, {"repeats", repeats}};
                for (const Row& r : rows)
                    doc["rows"].push_back({{"mode", r.mode},
                                           {"ranks", r.ranks},
                                           {"elements", r.total},
                                           {"local_us", r.local_us},
                                           {"allreduce_us", r.merge_us},
                                           {"call_us", r.call_us},
                                           {"right", r.right}});
                std::ofstream(json) << doc.dump(2) << "\n";
            }
            if (!svg.empty()) {
                clreduce::perf::Plot plot;
                plot.title = "clreduce::mpi::allreduce on " + reducer.device_info().name;
                plot.subtitle = fmt::format("correctly rounded float32 sums; strong: {} elements in all", n);
                plot.x_title = "ranks";
                plot.y_title = "time of the call (us, slowest rank)";
                plot.y_from_zero = true;
                std::size_t color = 0;
                for (const std::string mode : {"strong", "weak"})
                    for (const std::string part : {"call", "allreduce"}) {
                        clreduce::perf::Series s{mode + ", " + (part == "call" ? "whole call" : "allreduce step"),
                                                 {},
                                                 clreduce::perf::palette_color(color++),
                                                 part != "call"};
                        for (const Row& r : rows)
                            if (r.mode == mode) s.points.emplace_back(r.ranks, part == "call" ? r.call_us : r.merge_us);
                        plot.series.push_back(s);
                    }
                clreduce::perf::write_svg(plot, svg);
            }
        }
    } catch (const clreduce::Error& e) {
        std::cerr << "rank " << rank << ": " << e.what() << "\n";
        status = 2;
    }
    int worst = status;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
