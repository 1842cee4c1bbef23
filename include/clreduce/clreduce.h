/* clreduce's C API: the C++ library's reductions for C programs and for other languages that
 * call C (ctypes, cffi, Julia, Rust, ...). C99; link clreduce::c (libclreduce_c), found by
 * find_package(clreduce). docs/c-api.md is the guide.
 *
 * A reducer handle (clreduce_reducer) holds one device's queue and caches; every reduction
 * takes it, an operation (clreduce_operation) and an element type (clreduce_type), and writes
 * a tagged value (clreduce_value). Every function returns a clreduce_status; on failure
 * clreduce_last_error() gives the library's message. No function throws or aborts: a NULL
 * pointer or a value outside an enumeration gives CLREDUCE_INVALID_ARGUMENT.
 *
 * Stability: the numeric values of every enumeration below are fixed and will not change;
 * new enumerators get new values. A zero-initialised clreduce_options means "the defaults".
 */
#ifndef CLREDUCE_CLREDUCE_H
#define CLREDUCE_CLREDUCE_H

#include <stddef.h>
#include <stdint.h>

/* clreduce targets OpenCL 1.2; a program that includes the OpenCL headers first with other
 * settings keeps them. */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#if defined(_WIN32) && defined(CLREDUCE_C_BUILDING)
#define CLREDUCE_C_API __declspec(dllexport)
#elif defined(__GNUC__)
#define CLREDUCE_C_API __attribute__((visibility("default")))
#else
#define CLREDUCE_C_API
#endif

/* In C++ (the library's own code included) the enumerations have int as their fixed
 * underlying type, so that any int a C caller passes is a value of the enumeration, which the
 * library then checks; C gives them an int-sized type as well. */
#ifdef __cplusplus
#define CLREDUCE_ENUM(name) enum name : int
#else
#define CLREDUCE_ENUM(name) enum name
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes: one per error class of the library (docs/usage.md, "Errors"). ---- */
typedef CLREDUCE_ENUM(clreduce_status){
    CLREDUCE_SUCCESS = 0,
    CLREDUCE_INVALID_ARGUMENT = 1, /* a bad argument: NULL pointer, value outside an enumeration,
                                      range past a buffer's end, empty range of min, ... */
    CLREDUCE_UNSUPPORTED = 2,      /* the device or operation cannot do it (double without
                                      cl_khr_fp64, bit_and of floats, ...) */
    CLREDUCE_OVERFLOW = 3,         /* an integer result does not fit its type (overflow rule
                                      CLREDUCE_OVERFLOW_CHECK, the default) */
    CLREDUCE_OPENCL_ERROR = 4,     /* an OpenCL call failed: clreduce_last_cl_error() is its code */
    CLREDUCE_BUILD_ERROR = 5,      /* a kernel did not compile: the message has the build log */
    CLREDUCE_OUT_OF_MEMORY = 6,    /* host memory ran out */
    CLREDUCE_ERROR = 7,            /* another error the library reports (no OpenCL device at all,
                                      a kernel source it cannot read) */
    CLREDUCE_INTERNAL = 8          /* anything else: a defect of clreduce, please report it */
} clreduce_status;

/* ---- Operations: the library's operation list (include/clreduce/operation.hpp). ---- */
typedef CLREDUCE_ENUM(clreduce_operation){
    CLREDUCE_SUM = 0,            /* integers exact (int64/uint64) or CLREDUCE_OVERFLOW; empty: 0 */
    CLREDUCE_PRODUCT = 1,        /* in the accumulator (integers modulo 2^bits); empty: 1 */
    CLREDUCE_MIN = 2,            /* NaN ignored; empty: CLREDUCE_INVALID_ARGUMENT */
    CLREDUCE_MAX = 3,            /* likewise */
    CLREDUCE_MINMAX = 4,         /* both extremes of one pass */
    CLREDUCE_ARGMIN = 5,         /* the extreme and the lowest index holding it */
    CLREDUCE_ARGMAX = 6,         /* likewise */
    CLREDUCE_COUNT_NONZERO = 7,  /* uint64; NaN counts, -0.0 does not */
    CLREDUCE_MEAN = 8,           /* double; empty: CLREDUCE_INVALID_ARGUMENT */
    CLREDUCE_SUM_OF_SQUARES = 9, /* integers: uint64, exact or CLREDUCE_OVERFLOW; floats: double */
    CLREDUCE_NORM_L1 = 10,       /* double: sum of |x| */
    CLREDUCE_NORM_L2 = 11,       /* double: sqrt(sum of x*x) */
    CLREDUCE_NORM_INF = 12,      /* double: largest |x| */
    CLREDUCE_STATISTICS = 13,    /* count, min, max, sum, mean, variance; not of 64-bit integers */
    CLREDUCE_BIT_AND = 14,       /* integers only (floats: CLREDUCE_UNSUPPORTED); empty: all bits */
    CLREDUCE_BIT_OR = 15,        /* empty: 0 */
    CLREDUCE_BIT_XOR = 16,       /* empty: 0 */
    CLREDUCE_ALL = 17,           /* every element nonzero; empty: true */
    CLREDUCE_ANY = 18,           /* some element nonzero; empty: false */
    CLREDUCE_ARGMINMAX = 19      /* argmin and argmax of one pass */
} clreduce_operation;
#define CLREDUCE_OPERATION_COUNT 20

/* ---- Element types. CLREDUCE_TYPE_DEFAULT (0) is not a type: in clreduce_options it means
 * "the default accumulator". Host data of CLREDUCE_FLOAT16 is IEEE binary16 bits (uint16_t);
 * it needs a device with cl_khr_fp16. ---- */
typedef CLREDUCE_ENUM(clreduce_type){CLREDUCE_TYPE_DEFAULT = 0, CLREDUCE_INT8 = 1,
                                     CLREDUCE_UINT8 = 2,        CLREDUCE_INT16 = 3,
                                     CLREDUCE_UINT16 = 4,       CLREDUCE_INT32 = 5,
                                     CLREDUCE_UINT32 = 6,       CLREDUCE_INT64 = 7,
                                     CLREDUCE_UINT64 = 8,       CLREDUCE_FLOAT16 = 9,
                                     CLREDUCE_FLOAT32 = 10,     CLREDUCE_FLOAT64 = 11} clreduce_type;
#define CLREDUCE_TYPE_COUNT 11 /* the types 1 ... 11 */

/* ---- Options (LaunchParams of the C++ API). Zero-initialise, then set what you need:
 *   clreduce_options opts = {0}; opts.float_mode = CLREDUCE_FLOAT_CORRECTLY_ROUNDED;
 * A NULL options pointer means the defaults too. ---- */
typedef CLREDUCE_ENUM(clreduce_float_mode){CLREDUCE_FLOAT_DEFAULT = 0, /* deterministic */
                                           CLREDUCE_FLOAT_DETERMINISTIC = 1, CLREDUCE_FLOAT_ATOMIC = 2,
                                           CLREDUCE_FLOAT_COMPENSATED = 3,
                                           CLREDUCE_FLOAT_CORRECTLY_ROUNDED = 4} clreduce_float_mode;

typedef CLREDUCE_ENUM(clreduce_overflow_rule){
    CLREDUCE_OVERFLOW_DEFAULT = 0, /* check */
    CLREDUCE_OVERFLOW_CHECK = 1,   /* an integer result that does not fit: CLREDUCE_OVERFLOW */
    CLREDUCE_OVERFLOW_WRAP = 2     /* modulo 2^bits of the accumulator */
} clreduce_overflow_rule;

typedef struct clreduce_options {
    clreduce_float_mode float_mode;  /* floating-point sums, means and norms (docs/numerics.md) */
    clreduce_type accumulator;       /* sums and products: CLREDUCE_INT32 ... CLREDUCE_FLOAT64 */
    clreduce_overflow_rule overflow; /* integer results that do not fit */
    uint32_t reserved[5];            /* must be 0: room for later options, whose 0 is the default */
} clreduce_options;

/* ---- Results. ---- */
/* One value of an element or result type; the member is the clreduce_type's: i8 for
 * CLREDUCE_INT8, ..., f16 (binary16 bits) for CLREDUCE_FLOAT16, f32, f64. */
typedef union clreduce_scalar {
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    uint16_t f16;
    float f32;
    double f64;
} clreduce_scalar;

typedef CLREDUCE_ENUM(clreduce_value_kind){
    CLREDUCE_VALUE_SCALAR = 0,     /* `scalar`, of `type` */
    CLREDUCE_VALUE_BOOL = 1,       /* `boolean` (all, any) */
    CLREDUCE_VALUE_MINMAX = 2,     /* `min`, `max`, of `type` (the element type) */
    CLREDUCE_VALUE_ARG = 3,        /* `scalar` (the extreme, of `type`) and `index` */
    CLREDUCE_VALUE_STATISTICS = 4, /* `count`, `min`, `max` (of `type`), `sum`, `mean`, `variance` */
    CLREDUCE_VALUE_ARGMINMAX = 5   /* `min` at `min_index`, `max` at `max_index` (of `type`) */
} clreduce_value_kind;

/* An operation's value, tagged by `kind`; the fields a kind does not use are 0. `type` is the
 * type of `scalar`, `min` and `max`: for sums the result type (CLREDUCE_INT64 for signed
 * integers, CLREDUCE_UINT64 for unsigned ones, CLREDUCE_FLOAT64 for floats), CLREDUCE_UINT64
 * for count_nonzero, CLREDUCE_FLOAT64 for mean and the norms, the element type for min, max,
 * minmax, argmin, argmax, argminmax, statistics' extremes and the bitwise operations. */
typedef struct clreduce_value {
    clreduce_value_kind kind;
    clreduce_type type;
    clreduce_scalar scalar;
    uint64_t index; /* argmin, argmax: from the range's (segment's) start */
    clreduce_scalar min;
    clreduce_scalar max;
    uint64_t count; /* statistics */
    double sum;
    double mean;
    double variance;    /* the population's (divided by count) */
    int boolean;        /* all, any: 0 or 1 */
    uint64_t min_index; /* argminmax: from the range's (segment's) start */
    uint64_t max_index;
} clreduce_value;

/* ---- The library ---- */
CLREDUCE_C_API const char* clreduce_version(void); /* "0.1.0" */
/* The message of this thread's latest clreduce call: "" when it succeeded. Valid until this
 * thread's next clreduce call. */
CLREDUCE_C_API const char* clreduce_last_error(void);
/* The OpenCL error code of this thread's latest call when it returned CLREDUCE_OPENCL_ERROR or
 * CLREDUCE_BUILD_ERROR; CL_SUCCESS (0) otherwise. */
CLREDUCE_C_API cl_int clreduce_last_cl_error(void);
/* Names: "CLREDUCE_INVALID_ARGUMENT", "argmin", "float32"; NULL for a value outside the enumeration. */
CLREDUCE_C_API const char* clreduce_status_name(clreduce_status status);
CLREDUCE_C_API const char* clreduce_operation_name(clreduce_operation op);
CLREDUCE_C_API const char* clreduce_type_name(clreduce_type type);

/* ---- The reducer handle. Safe to use from several threads at once (each call's last error is
 * its thread's); release it once no call is using it. Reuse one: its compiled kernels and
 * buffers are cached, so a repeated call compiles and allocates nothing on the device. ---- */
typedef struct clreduce_reducer clreduce_reducer;

/* A reducer on the device `device_spec` names ("P:D", "N", or part of "platform / device", as
 * clreduce::select_device; NULL: the default device, $CLREDUCE_DEVICE or the first GPU). */
CLREDUCE_C_API clreduce_status clreduce_reducer_create(const char* device_spec, clreduce_reducer** reducer);
/* A reducer on the caller's context and queue (the queue must belong to the context); both are
 * retained until clreduce_reducer_release. */
CLREDUCE_C_API clreduce_status clreduce_reducer_create_from_queue(cl_context context, cl_command_queue queue,
                                                                  clreduce_reducer** reducer);
/* Releases the reducer (NULL: nothing). */
CLREDUCE_C_API void clreduce_reducer_release(clreduce_reducer* reducer);
/* The reducer's context, queue and device, not retained (valid while the reducer lives):
 * buffers for the cl_mem forms are made on this context. */
CLREDUCE_C_API clreduce_status clreduce_reducer_context(const clreduce_reducer* reducer, cl_context* context);
CLREDUCE_C_API clreduce_status clreduce_reducer_queue(const clreduce_reducer* reducer, cl_command_queue* queue);
CLREDUCE_C_API clreduce_status clreduce_reducer_device(const clreduce_reducer* reducer, cl_device_id* device);

/* ---- The core call: `op` over `count` elements of `type` at `data` (host memory; NULL only
 * with count 0, aligned for its type), into `*value`. `options` may be NULL. Blocks until the value is on the host.
 * An empty range gives the operation's identity, or CLREDUCE_INVALID_ARGUMENT where it has
 * none (min, max, minmax, argmin, argmax, argminmax, mean, statistics). ---- */
CLREDUCE_C_API clreduce_status clreduce_reduce(const clreduce_reducer* reducer, clreduce_operation op,
                                               clreduce_type type, const void* data, uint64_t count,
                                               const clreduce_options* options, clreduce_value* value);
/* The same over elements [offset, offset + count) of a buffer of the reducer's context
 * (offset and count in elements), enqueued on the reducer's queue: on an in-order queue it
 * reads the buffer after the commands enqueued before it (an upload, a kernel). */
CLREDUCE_C_API clreduce_status clreduce_reduce_buffer(const clreduce_reducer* reducer, clreduce_operation op,
                                                      clreduce_type type, cl_mem buffer, uint64_t offset,
                                                      uint64_t count, const clreduce_options* options,
                                                      clreduce_value* value);

/* ---- transform_reduce with a combine of one's own (docs/expression-language.md): `expression`,
 * one expression in x of the transform language, for every element, combined by `combine`, one
 * expression in a and b of the same language (commutative as written; its associativity is the
 * caller's promise), from `identity`, one literal of the accumulation type: the value of an
 * empty range. The built-in combines are "a + b" with "0", "a * b" with "1", "min(a, b)" and
 * "max(a, b)" with the type's extremes (integers), "fmin(a, b)" and "fmax(a, b)" (floats).
 * NUL-terminated strings. x, a, b and the value are CLREDUCE_INT64 for integer elements but
 * uint64, CLREDUCE_UINT64 for uint64, CLREDUCE_FLOAT64 for floats (float32 on a device without
 * fp64), or options->accumulator; the value is a CLREDUCE_VALUE_SCALAR of that type. A refused
 * expression or identity gives CLREDUCE_INVALID_ARGUMENT with its column in the message; level 3
 * is never atomic, and float modes other than deterministic are refused. ---- */
CLREDUCE_C_API clreduce_status clreduce_transform_reduce(const clreduce_reducer* reducer, clreduce_type type,
                                                         const void* data, uint64_t count, const char* expression,
                                                         const char* combine, const char* identity,
                                                         const clreduce_options* options, clreduce_value* value);
/* The same over elements [offset, offset + count) of a buffer of the reducer's context. */
CLREDUCE_C_API clreduce_status clreduce_transform_reduce_buffer(const clreduce_reducer* reducer, clreduce_type type,
                                                                cl_mem buffer, uint64_t offset, uint64_t count,
                                                                const char* expression, const char* combine,
                                                                const char* identity, const clreduce_options* options,
                                                                clreduce_value* value);

/* ---- The core call by name, from host data: clreduce_sum(r, type, data, count, options,
 * value) is clreduce_reduce(r, CLREDUCE_SUM, type, data, count, options, value). ---- */
#define CLREDUCE_NAMED_DECLARATION(name)                                                                              \
    CLREDUCE_C_API clreduce_status clreduce_##name(const clreduce_reducer* reducer, clreduce_type type,               \
                                                   const void* data, uint64_t count, const clreduce_options* options, \
                                                   clreduce_value* value)
CLREDUCE_NAMED_DECLARATION(sum);
CLREDUCE_NAMED_DECLARATION(product);
CLREDUCE_NAMED_DECLARATION(min);
CLREDUCE_NAMED_DECLARATION(max);
CLREDUCE_NAMED_DECLARATION(minmax);
CLREDUCE_NAMED_DECLARATION(argmin);
CLREDUCE_NAMED_DECLARATION(argmax);
CLREDUCE_NAMED_DECLARATION(argminmax);
CLREDUCE_NAMED_DECLARATION(count_nonzero);
CLREDUCE_NAMED_DECLARATION(mean);
CLREDUCE_NAMED_DECLARATION(sum_of_squares);
CLREDUCE_NAMED_DECLARATION(norm_l1);
CLREDUCE_NAMED_DECLARATION(norm_l2);
CLREDUCE_NAMED_DECLARATION(norm_inf);
CLREDUCE_NAMED_DECLARATION(statistics);
CLREDUCE_NAMED_DECLARATION(bit_and);
CLREDUCE_NAMED_DECLARATION(bit_or);
CLREDUCE_NAMED_DECLARATION(bit_xor);
CLREDUCE_NAMED_DECLARATION(all);
CLREDUCE_NAMED_DECLARATION(any);
#undef CLREDUCE_NAMED_DECLARATION

/* ---- Many reductions in one call (Segments of the C++ API): one value per segment, in
 * segment order, written to results[0 ... segments - 1]; `capacity` is how many `results`
 * holds (fewer than the segments: CLREDUCE_INVALID_ARGUMENT). argmin/argmax give the index in
 * the segment; an empty segment of an operation without identity is CLREDUCE_INVALID_ARGUMENT
 * naming it. ---- */
typedef CLREDUCE_ENUM(clreduce_segments_kind){
    CLREDUCE_SEGMENTS_BATCH = 0,         /* `count` arrays of `length` elements back to back */
    CLREDUCE_SEGMENTS_ROWS = 1,          /* each row of a `rows` x `cols` row-major matrix */
    CLREDUCE_SEGMENTS_COLUMNS = 2,       /* each column of it */
    CLREDUCE_SEGMENTS_OFFSETS = 3,       /* CSR: segment s is [offsets[s], offsets[s + 1]), s < count */
    CLREDUCE_SEGMENTS_DEVICE_OFFSETS = 4 /* the same with `count` + 1 uint64 offsets in a buffer */
} clreduce_segments_kind;

typedef struct clreduce_segments {
    clreduce_segments_kind kind;
    uint64_t count;          /* batch, offsets, device offsets: how many segments */
    uint64_t length;         /* batch: elements per segment */
    uint64_t rows, cols;     /* rows, columns: the matrix */
    uint64_t step_bytes;     /* rows, columns: bytes from a row's start to the next's (0: packed) */
    const uint64_t* offsets; /* offsets: count + 1 ascending offsets in host memory */
    cl_mem device_offsets;   /* device offsets: a buffer of the reducer's context */
    uint64_t first;          /* device offsets: the element of device_offsets of segment 0 */
    uint64_t extent;         /* device offsets: how many values the segments may address */
} clreduce_segments;

/* Segments of host values (copied to the device first). */
CLREDUCE_C_API clreduce_status clreduce_reduce_segments(const clreduce_reducer* reducer, clreduce_operation op,
                                                        clreduce_type type, const void* values,
                                                        const clreduce_segments* segments,
                                                        const clreduce_options* options, clreduce_value* results,
                                                        uint64_t capacity);
/* Segments counted from element `offset` of a values buffer. */
CLREDUCE_C_API clreduce_status clreduce_reduce_segments_buffer(const clreduce_reducer* reducer, clreduce_operation op,
                                                               clreduce_type type, cl_mem values, uint64_t offset,
                                                               const clreduce_segments* segments,
                                                               const clreduce_options* options, clreduce_value* results,
                                                               uint64_t capacity);

/* ---- Reduce by key (reduce_by_key of the C++ API): `count` keys, integers of `key_size` bytes
 * (1, 2, 4 or 8; compared as bits), and as many values; each run of equal consecutive keys
 * reduces its values to one result, as a segment of the segmented forms. The runs' keys go to
 * run_keys (key_size bytes each), their results to results, both in the keys' order;
 * `capacity` is how many runs both hold. *runs is the number of runs; where it is more than
 * `capacity`, nothing is written and the call returns CLREDUCE_INVALID_ARGUMENT (call again
 * with room for *runs). No keys: no runs. ---- */
CLREDUCE_C_API clreduce_status clreduce_reduce_by_key(const clreduce_reducer* reducer, clreduce_operation op,
                                                      clreduce_type type, const void* keys, size_t key_size,
                                                      const void* values, uint64_t count,
                                                      const clreduce_options* options, void* run_keys,
                                                      clreduce_value* results, uint64_t capacity, uint64_t* runs);
/* Keys from element `key_offset` of a keys buffer, values from element `value_offset` of a
 * values buffer (both of the reducer's context). */
CLREDUCE_C_API clreduce_status clreduce_reduce_by_key_buffer(const clreduce_reducer* reducer, clreduce_operation op,
                                                             clreduce_type type, cl_mem keys, uint64_t key_offset,
                                                             size_t key_size, cl_mem values, uint64_t value_offset,
                                                             uint64_t count, const clreduce_options* options,
                                                             void* run_keys, clreduce_value* results, uint64_t capacity,
                                                             uint64_t* runs);

/* ---- Partial results (Partial of the C++ API): a range's state as self-describing bytes, to
 * merge with the partials of the ranges around it (other devices, processes, files) into the
 * value of the whole. The byte string is the C++ library's (Partial::to_bytes), so C and C++
 * programs exchange them.
 * Sizes: `*size` is set to the bytes the partial takes. With `bytes` NULL only the size is
 * written (the reduction still runs); a `capacity` below it is CLREDUCE_INVALID_ARGUMENT. ---- */
CLREDUCE_C_API clreduce_status clreduce_partial(const clreduce_reducer* reducer, clreduce_operation op,
                                                clreduce_type type, const void* data, uint64_t count,
                                                const clreduce_options* options, void* bytes, size_t capacity,
                                                size_t* size);
CLREDUCE_C_API clreduce_status clreduce_partial_buffer(const clreduce_reducer* reducer, clreduce_operation op,
                                                       clreduce_type type, cl_mem buffer, uint64_t offset,
                                                       uint64_t count, const clreduce_options* options, void* bytes,
                                                       size_t capacity, size_t* size);
/* The partial of `first`'s range followed by `later`'s (both of one operation, type, float
 * mode and accumulator), into `bytes` (which may be `first`'s own memory). Merge in the data's
 * order: argmin/argmax ties and float sums' last bits depend on it. */
CLREDUCE_C_API clreduce_status clreduce_partial_merge(const void* first, size_t first_size, const void* later,
                                                      size_t later_size, void* bytes, size_t capacity, size_t* size);
/* The value of a partial, as the reduction of its whole range gives it (its errors too). */
CLREDUCE_C_API clreduce_status clreduce_partial_value(const void* bytes, size_t size, clreduce_value* value);

#ifdef __cplusplus
}
#endif

#endif /* CLREDUCE_CLREDUCE_H */
