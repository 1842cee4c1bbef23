/* The C API tests' shared checks, seed and element data. */
#include "c_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int c_test_failures = 0;

int c_test_check(int ok, const char* text, const char* file, int line) {
    if (!ok) {
        ++c_test_failures;
        fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, text);
    }
    return ok;
}

int c_test_check_status(clreduce_status status, clreduce_status expected, const char* message_part, const char* text,
                        const char* file, int line) {
    const char* message = clreduce_last_error();
    int ok = status == expected;
    if (expected == CLREDUCE_SUCCESS) ok = ok && message[0] == '\0';
    if (message_part != NULL) ok = ok && strstr(message, message_part) != NULL;
    if (!ok) {
        ++c_test_failures;
        fprintf(stderr, "%s:%d: FAILED: %s gave %s, expected %s; last error \"%s\"%s%s%s\n", file, line, text,
                clreduce_status_name(status) ? clreduce_status_name(status) : "(not a status)",
                clreduce_status_name(expected), message, message_part ? ", expected to contain \"" : "",
                message_part ? message_part : "", message_part ? "\"" : "");
    }
    return ok;
}

static uint64_t seed_value = 0;
static uint64_t random_state = 0;

uint64_t c_test_seed(void) {
    if (seed_value == 0) {
        const char* text = getenv("CLREDUCE_TEST_SEED");
        seed_value = text != NULL ? strtoull(text, NULL, 10) : (uint64_t)time(NULL) * 2654435761u;
        if (seed_value == 0) seed_value = 1;
        random_state = seed_value;
        printf("clreduce C API tests: seed %llu (CLREDUCE_TEST_SEED=%llu repeats this run)\n",
               (unsigned long long)seed_value, (unsigned long long)seed_value);
    }
    return seed_value;
}

uint64_t c_test_random(void) {
    if (random_state == 0) c_test_seed();
    random_state ^= random_state >> 12;
    random_state ^= random_state << 25;
    random_state ^= random_state >> 27;
    return random_state * 2685821657736338717ull;
}

int64_t c_test_uniform(int64_t lo, int64_t hi) { return lo + (int64_t)(c_test_random() % (uint64_t)(hi - lo + 1)); }

size_t c_type_size(clreduce_type type) {
    switch (type) {
        case CLREDUCE_INT8:
        case CLREDUCE_UINT8: return 1;
        case CLREDUCE_INT16:
        case CLREDUCE_UINT16:
        case CLREDUCE_FLOAT16: return 2;
        case CLREDUCE_INT32:
        case CLREDUCE_UINT32:
        case CLREDUCE_FLOAT32: return 4;
        default: return 8;
    }
}

int c_type_is_float(clreduce_type type) {
    return type == CLREDUCE_FLOAT16 || type == CLREDUCE_FLOAT32 || type == CLREDUCE_FLOAT64;
}

int c_type_is_signed(clreduce_type type) {
    return c_type_is_float(type) || type == CLREDUCE_INT8 || type == CLREDUCE_INT16 || type == CLREDUCE_INT32 ||
           type == CLREDUCE_INT64;
}

/* binary16 bits of a small integer (|v| < 2048: exact). */
static uint16_t half_bits(int64_t v) {
    uint16_t sign = v < 0 ? 0x8000u : 0u;
    uint64_t m = (uint64_t)(v < 0 ? -v : v);
    int e = 0;
    if (m == 0) return sign;
    while ((m >> (e + 1)) != 0) ++e;
    return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | (uint16_t)(((m << 10) >> e) & 0x3ffu));
}

static double half_value(uint16_t bits) {
    const int e = (bits >> 10) & 0x1f;
    const double m = (double)(bits & 0x3ff);
    const double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024.0 + m, e - 25);
    return (bits & 0x8000u) ? -v : v;
}

void c_store(clreduce_type type, void* data, size_t i, int64_t v) {
    switch (type) {
        case CLREDUCE_INT8: ((int8_t*)data)[i] = (int8_t)v; break;
        case CLREDUCE_UINT8: ((uint8_t*)data)[i] = (uint8_t)v; break;
        case CLREDUCE_INT16: ((int16_t*)data)[i] = (int16_t)v; break;
        case CLREDUCE_UINT16: ((uint16_t*)data)[i] = (uint16_t)v; break;
        case CLREDUCE_INT32: ((int32_t*)data)[i] = (int32_t)v; break;
        case CLREDUCE_UINT32: ((uint32_t*)data)[i] = (uint32_t)v; break;
        case CLREDUCE_INT64: ((int64_t*)data)[i] = v; break;
        case CLREDUCE_UINT64: ((uint64_t*)data)[i] = (uint64_t)v; break;
        case CLREDUCE_FLOAT16: ((uint16_t*)data)[i] = half_bits(v); break;
        case CLREDUCE_FLOAT32: ((float*)data)[i] = (float)v; break;
        case CLREDUCE_FLOAT64: ((double*)data)[i] = (double)v; break;
        default: CHECK(!"a type c_store knows"); break;
    }
}

double c_load(clreduce_type type, const void* data, size_t i) {
    switch (type) {
        case CLREDUCE_INT8: return ((const int8_t*)data)[i];
        case CLREDUCE_UINT8: return ((const uint8_t*)data)[i];
        case CLREDUCE_INT16: return ((const int16_t*)data)[i];
        case CLREDUCE_UINT16: return ((const uint16_t*)data)[i];
        case CLREDUCE_INT32: return ((const int32_t*)data)[i];
        case CLREDUCE_UINT32: return ((const uint32_t*)data)[i];
        case CLREDUCE_INT64: return (double)((const int64_t*)data)[i];
        case CLREDUCE_UINT64: return (double)((const uint64_t*)data)[i];
        case CLREDUCE_FLOAT16: return half_value(((const uint16_t*)data)[i]);
        case CLREDUCE_FLOAT32: return ((const float*)data)[i];
        case CLREDUCE_FLOAT64: return ((const double*)data)[i];
        default: CHECK(!"a type c_load knows"); return NAN;
    }
}

double c_scalar(clreduce_type type, clreduce_scalar s) {
    switch (type) {
        case CLREDUCE_INT8: return s.i8;
        case CLREDUCE_UINT8: return s.u8;
        case CLREDUCE_INT16: return s.i16;
        case CLREDUCE_UINT16: return s.u16;
        case CLREDUCE_INT32: return s.i32;
        case CLREDUCE_UINT32: return s.u32;
        case CLREDUCE_INT64: return (double)s.i64;
        case CLREDUCE_UINT64: return (double)s.u64;
        case CLREDUCE_FLOAT16: return half_value(s.f16);
        case CLREDUCE_FLOAT32: return s.f32;
        case CLREDUCE_FLOAT64: return s.f64;
        default: CHECK(!"a type c_scalar knows"); return NAN;
    }
}

int c_device_has(const clreduce_reducer* reducer, const char* extension) {
    cl_device_id device = NULL;
    size_t size = 0;
    char* extensions = NULL;
    int has = 0;
    if (!CHECK_STATUS(clreduce_reducer_device(reducer, &device), CLREDUCE_SUCCESS, "")) return 0;
    if (!CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) == CL_SUCCESS)) return 0;
    extensions = (char*)calloc(size + 1, 1);
    if (CHECK(extensions != NULL) &&
        CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions, NULL) == CL_SUCCESS))
        has = strstr(extensions, extension) != NULL;
    free(extensions);
    return has;
}
