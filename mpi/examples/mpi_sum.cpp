// clreduce over MPI ranks: each rank reduces its slice of 0, 1, ..., 10^6 - 1 on its own
// device, and every rank gets the whole's values. Run with `mpiexec -n 3 clreduce-mpi-example`.
#include <clreduce/clreduce.hpp>
#include <clreduce/mpi.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int status = 0;
    try {
        clreduce::Reducer reducer;
        const std::uint64_t n = 1000000, begin = n * rank / ranks, end = n * (rank + 1) / ranks;
        std::vector<std::int64_t> mine;
        std::vector<float> floats;
        for (std::uint64_t i = begin; i < end; ++i) {
            mine.push_back(static_cast<std::int64_t>(i));
            floats.push_back(1.0f / static_cast<float>(i + 1));
        }
        // Each rank's partial, merged in rank order on every rank.
        const clreduce::Partial sum = clreduce::mpi::allreduce(
            MPI_COMM_WORLD, [&] { return reducer.partial(clreduce::Operation::sum, mine); });
        clreduce::LaunchParams exact;
        exact.float_mode = clreduce::FloatMode::correctly_rounded;
        const clreduce::Partial harmonic = clreduce::mpi::allreduce(
            MPI_COMM_WORLD, [&] { return reducer.partial(clreduce::Operation::sum, floats, exact); });
        if (rank == 0) {
            // The same float sum in one process, for comparison.
            std::vector<float> all;
            for (std::uint64_t i = 0; i < n; ++i) all.push_back(1.0f / static_cast<float>(i + 1));
            const double one = reducer.sum(all, exact);
            const double merged = harmonic.sum<float>();
            std::cout.precision(17);
            std::cout << ranks << " ranks: sum " << sum.sum<std::int64_t>()
                      << (sum.sum<std::int64_t>() == 499999500000 ? " (exact)" : " (WRONG)")
                      << ", correctly rounded float sum " << merged
                      << ", the same bits as one process's: " << (merged == one ? "yes" : "no") << "\n";
        }
    } catch (const clreduce::Error& e) {
        std::cerr << "rank " << rank << ": " << e.what() << "\n";
        status = 2;
    }
    MPI_Finalize();
    return status;
}
