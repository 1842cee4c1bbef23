#pragma once
// clreduce::mpi (the optional component clreduce::clreduce_mpi): reductions over the processes
// of an MPI communicator. Each rank reduces its own data on its device(s) into a Partial
// (partial.hpp); the partials are merged in rank order by MPI_Allreduce (or MPI_Reduce) with a
// non-commutative MPI_Op, so every rank gets the value of the whole, rank 0's data first:
// integers exact, argmin/argmax the global index, correctly rounded float sums the same bits
// for any number of ranks and any split of the data.
#include <cstddef>
#include <functional>

#include <mpi.h>

#include <clreduce/partial.hpp>

namespace clreduce::mpi {

// Every rank's `local()` merged in rank order, on every rank. The communicator is used as given
// (collective: every rank of it calls). If `local` throws on some ranks, or the ranks' partials
// do not merge (another operation, type or float mode), every rank throws the same error:
// InvalidArgument, Unsupported or Overflow as the lowest such rank's, else Error, its message
// naming that rank; no rank is left waiting in a collective. An MPI call that fails throws
// Error naming it.
Partial allreduce(MPI_Comm comm, const std::function<Partial()>& local);
// The same merged on `root` only; the other ranks get an empty Partial.
Partial reduce(MPI_Comm comm, int root, const std::function<Partial()>& local);

// For collectives of one's own: a record holding one encoded partial (a status word, its length,
// then Partial::to_bytes(), padded), and the MPI_Op that merges two records of it in rank order
// (an error is recorded in the result, not thrown through MPI). Free them with MPI_Type_free and
// MPI_Op_free.
std::size_t record_bytes(std::size_t encoded_bytes);
MPI_Datatype record_datatype(std::size_t record_bytes);
MPI_Op merge_op();
void to_record(const Partial& partial, std::uint8_t* record, std::size_t record_bytes);
// The partial in a record, or the error a merge recorded there (thrown as InvalidArgument).
Partial from_record(const std::uint8_t* record, std::size_t record_bytes);

}  // namespace clreduce::mpi
