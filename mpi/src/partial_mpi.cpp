// clreduce::mpi: partials in fixed-size records, merged by a non-commutative MPI_Op in rank
// order; errors agreed on before any rank enters the reduction.
#include <clreduce/mpi.hpp>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include <clreduce/error.hpp>

namespace clreduce::mpi {
namespace {

// A record: u32 status (0: a partial, 1: an error message), u32 length, then that many bytes.
constexpr std::size_t kRecordHeader = 8;
constexpr std::uint32_t kPartial = 0, kFailed = 1;

void mpi_check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

std::uint32_t word(const std::uint8_t* p) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= std::uint32_t(p[k]) << (8 * k);
    return v;
}
void put_word(std::uint8_t* p, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) p[k] = static_cast<std::uint8_t>(v >> (8 * k));
}

void failed_record(const std::string& why, std::uint8_t* record, std::size_t bytes) {
    const std::size_t length = std::min(why.size(), bytes - kRecordHeader);
    std::memset(record, 0, bytes);
    put_word(record, kFailed);
    put_word(record + 4, static_cast<std::uint32_t>(length));
    std::memcpy(record + kRecordHeader, why.data(), length);
}

// MPI's user function: inout = in (the lower ranks) merged with inout, record by record.
void merge_records(void* in, void* inout, int* count, MPI_Datatype* type) {
    int size = 0;
    MPI_Type_size(*type, &size);
    const std::size_t bytes = static_cast<std::size_t>(size);
    for (int k = 0; k < *count; ++k) {
        auto* a = static_cast<std::uint8_t*>(in) + k * bytes;
        auto* b = static_cast<std::uint8_t*>(inout) + k * bytes;
        if (word(b) == kFailed) continue;  // the first failure stays
        if (word(a) == kFailed) {
            std::memcpy(b, a, bytes);
            continue;
        }
        try {
            Partial merged = from_record(a, bytes);
            merged.merge(from_record(b, bytes));
            to_record(merged, b, bytes);
        } catch (const std::exception& e) {
            failed_record(std::string("the ranks' partials do not merge: ") + e.what(), b, bytes);
        }
    }
}

enum class Kind : int { none = 0, invalid_argument, unsupported, overflow, other };

[[noreturn]] void throw_as(Kind kind, const std::string& message) {
    switch (kind) {
        case Kind::invalid_argument: throw InvalidArgument(message);
        case Kind::unsupported: throw Unsupported(message);
        case Kind::overflow: throw Overflow(message);
        default: throw Error(message);
    }
}

// Runs `local` here; then every rank learns whether some rank failed, and if so they all throw
// the lowest failing rank's error. Otherwise returns this rank's partial.
Partial agreed_local(MPI_Comm comm, const std::function<Partial()>& local) {
    int rank = 0;
    mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    Partial mine;
    Kind kind = Kind::none;
    std::string message;
    try {
        mine = local();
    } catch (const InvalidArgument& e) {
        kind = Kind::invalid_argument, message = e.what();
    } catch (const Unsupported& e) {
        kind = Kind::unsupported, message = e.what();
    } catch (const Overflow& e) {
        kind = Kind::overflow, message = e.what();
    } catch (const std::exception& e) {
        kind = Kind::other, message = e.what();
    }
    int failed = kind == Kind::none ? INT_MAX : rank, first = INT_MAX;
    mpi_check(MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
    if (first == INT_MAX) return mine;
    int header[2] = {static_cast<int>(kind), static_cast<int>(message.size())};
    mpi_check(MPI_Bcast(header, 2, MPI_INT, first, comm), "MPI_Bcast");
    message.resize(static_cast<std::size_t>(header[1]));
    mpi_check(MPI_Bcast(message.data(), header[1], MPI_CHAR, first, comm), "MPI_Bcast");
    throw_as(static_cast<Kind>(header[0]), "rank " + std::to_string(first) + ": " + message);
}

// The record size every rank uses: the largest encoded partial, and room for a message.
std::size_t agreed_record_bytes(MPI_Comm comm, const Partial& mine) {
    unsigned long long bytes = record_bytes(mine.empty() ? 0 : mine.to_bytes().size()), most = 0;
    mpi_check(MPI_Allreduce(&bytes, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm), "MPI_Allreduce");
    return static_cast<std::size_t>(std::max<unsigned long long>(most, 512));
}

Partial collective(MPI_Comm comm, int root, const std::function<Partial()>& local) {
    const Partial mine = agreed_local(comm, local);
    const std::size_t bytes = agreed_record_bytes(comm, mine);
    std::vector<std::uint8_t> send(bytes), received(bytes);
    to_record(mine, send.data(), bytes);
    MPI_Datatype type = record_datatype(bytes);
    MPI_Op op = merge_op();
    int code = root < 0 ? MPI_Allreduce(send.data(), received.data(), 1, type, op, comm)
                        : MPI_Reduce(send.data(), received.data(), 1, type, op, root, comm);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
    mpi_check(code, root < 0 ? "MPI_Allreduce" : "MPI_Reduce");
    int rank = 0;
    mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    if (root >= 0 && rank != root) return Partial();
    return from_record(received.data(), bytes);
}

}  // namespace

std::size_t record_bytes(std::size_t encoded_bytes) { return kRecordHeader + encoded_bytes; }

MPI_Datatype record_datatype(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX)) throw InvalidArgument("a record of " + std::to_string(bytes) + " bytes");
    MPI_Datatype type = MPI_DATATYPE_NULL;
    mpi_check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type), "MPI_Type_contiguous");
    mpi_check(MPI_Type_commit(&type), "MPI_Type_commit");
    return type;
}

MPI_Op merge_op() {
    MPI_Op op = MPI_OP_NULL;
    mpi_check(MPI_Op_create(&merge_records, /*commute=*/0, &op), "MPI_Op_create");
    return op;
}

void to_record(const Partial& partial, std::uint8_t* record, std::size_t bytes) {
    const std::vector<std::uint8_t> encoded = partial.empty() ? std::vector<std::uint8_t>{} : partial.to_bytes();
    if (kRecordHeader + encoded.size() > bytes)
        throw InvalidArgument("a partial of " + std::to_string(encoded.size()) + " bytes does not fit a record of " +
                              std::to_string(bytes));
    std::memset(record, 0, bytes);
    put_word(record, kPartial);
    put_word(record + 4, static_cast<std::uint32_t>(encoded.size()));
    std::copy(encoded.begin(), encoded.end(), record + kRecordHeader);
}

Partial from_record(const std::uint8_t* record, std::size_t bytes) {
    if (bytes < kRecordHeader) throw InvalidArgument("a record of " + std::to_string(bytes) + " bytes");
    const std::uint32_t length = word(record + 4);
    if (length > bytes - kRecordHeader) throw InvalidArgument("a record's length is past its end");
    if (word(record) == kFailed)
        throw InvalidArgument(std::string(reinterpret_cast<const char*>(record + kRecordHeader), length));
    if (word(record) != kPartial) throw InvalidArgument("not a partial's record");
    if (length == 0) return Partial();
    return Partial::from_bytes(record + kRecordHeader, length);
}

Partial allreduce(MPI_Comm comm, const std::function<Partial()>& local) { return collective(comm, -1, local); }

Partial reduce(MPI_Comm comm, int root, const std::function<Partial()>& local) {
    int size = 0;
    mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    if (root < 0 || root >= size)
        throw InvalidArgument("root " + std::to_string(root) + " of a communicator of " + std::to_string(size));
    return collective(comm, root, local);
}

}  // namespace clreduce::mpi
