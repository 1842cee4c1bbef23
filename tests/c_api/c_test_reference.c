/* The operations' exact references over small integer data, in C. */
#include "c_test_reference.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static clreduce_type sum_type(clreduce_type type) {
    return c_type_is_float(type) ? CLREDUCE_FLOAT64 : c_type_is_signed(type) ? CLREDUCE_INT64 : CLREDUCE_UINT64;
}

expected_value c_reference(clreduce_operation op, clreduce_type type, const void* data, size_t first, size_t n) {
    expected_value e;
    double sum = 0, squares = 0, l1 = 0, linf = 0, product = 1, lo = 0, hi = 0;
    int64_t and_bits = -1, or_bits = 0, xor_bits = 0;
    uint64_t nonzero = 0, lo_index = 0, hi_index = 0;
    size_t i;
    memset(&e, 0, sizeof e);
    for (i = 0; i < n; ++i) {
        const double x = c_load(type, data, first + i);
        const int64_t bits = (int64_t)x; /* the tests' elements are small integers */
        if (i == 0 || x < lo) lo = x, lo_index = i;
        if (i == 0 || x > hi) hi = x, hi_index = i;
        sum += x;
        squares += x * x;
        l1 += fabs(x);
        linf = fabs(x) > linf ? fabs(x) : linf;
        product *= x;
        nonzero += x != 0;
        and_bits &= bits;
        or_bits |= bits;
        xor_bits ^= bits;
    }
    e.kind = CLREDUCE_VALUE_SCALAR;
    e.type = CLREDUCE_FLOAT64;
    switch (op) {
        case CLREDUCE_SUM: e.type = sum_type(type), e.scalar = sum; break;
        case CLREDUCE_PRODUCT: e.type = sum_type(type), e.scalar = product; break;
        case CLREDUCE_MIN: e.type = type, e.scalar = lo; break;
        case CLREDUCE_MAX: e.type = type, e.scalar = hi; break;
        case CLREDUCE_MINMAX: e.kind = CLREDUCE_VALUE_MINMAX, e.type = type, e.min = lo, e.max = hi; break;
        case CLREDUCE_ARGMIN: e.kind = CLREDUCE_VALUE_ARG, e.type = type, e.scalar = lo, e.index = lo_index; break;
        case CLREDUCE_ARGMAX: e.kind = CLREDUCE_VALUE_ARG, e.type = type, e.scalar = hi, e.index = hi_index; break;
        case CLREDUCE_COUNT_NONZERO: e.type = CLREDUCE_UINT64, e.scalar = (double)nonzero; break;
        case CLREDUCE_MEAN: e.scalar = sum / (double)n; break;
        case CLREDUCE_SUM_OF_SQUARES:
            e.type = c_type_is_float(type) ? CLREDUCE_FLOAT64 : CLREDUCE_UINT64, e.scalar = squares;
            break;
        case CLREDUCE_NORM_L1: e.scalar = l1; break;
        case CLREDUCE_NORM_L2: e.scalar = sqrt(squares); break;
        case CLREDUCE_NORM_INF: e.scalar = linf; break;
        case CLREDUCE_STATISTICS:
            e.kind = CLREDUCE_VALUE_STATISTICS, e.type = type, e.count = n, e.min = lo, e.max = hi, e.sum = sum;
            e.mean = sum / (double)n;
            e.variance = squares / (double)n - e.mean * e.mean;
            break;
        case CLREDUCE_BIT_AND: e.type = type, e.scalar = (double)and_bits; break;
        case CLREDUCE_BIT_OR: e.type = type, e.scalar = (double)or_bits; break;
        case CLREDUCE_BIT_XOR: e.type = type, e.scalar = (double)xor_bits; break;
        case CLREDUCE_ALL:
            e.kind = CLREDUCE_VALUE_BOOL, e.type = CLREDUCE_TYPE_DEFAULT, e.boolean = nonzero == n;
            break;
        case CLREDUCE_ANY: e.kind = CLREDUCE_VALUE_BOOL, e.type = CLREDUCE_TYPE_DEFAULT, e.boolean = nonzero > 0; break;
        case CLREDUCE_ARGMINMAX:
            e.kind = CLREDUCE_VALUE_ARGMINMAX, e.type = type, e.min = lo, e.max = hi, e.min_index = lo_index;
            e.max_index = hi_index;
            break;
    }
    return e;
}

static int near(double got, double want) { return fabs(got - want) <= 1e-12 * fabs(want) + 1e-12; }

static int all_zero(const void* p, size_t size) {
    const unsigned char* bytes = (const unsigned char*)p;
    size_t i;
    for (i = 0; i < size; ++i)
        if (bytes[i] != 0) return 0;
    return 1;
}

int c_check_value(const clreduce_value* got, const expected_value* want, const char* what) {
    int ok = got->kind == want->kind && got->type == want->type;
    if (ok) switch (want->kind) {
            case CLREDUCE_VALUE_SCALAR:
                ok = c_scalar(got->type, got->scalar) == want->scalar && got->index == 0 &&
                     all_zero(&got->min, sizeof got->min) && got->count == 0 && got->boolean == 0;
                break;
            case CLREDUCE_VALUE_BOOL: ok = got->boolean == want->boolean && got->index == 0 && got->count == 0; break;
            case CLREDUCE_VALUE_MINMAX:
                ok = c_scalar(got->type, got->min) == want->min && c_scalar(got->type, got->max) == want->max &&
                     got->count == 0 && got->index == 0;
                break;
            case CLREDUCE_VALUE_ARG:
                ok = c_scalar(got->type, got->scalar) == want->scalar && got->index == want->index && got->count == 0;
                break;
            case CLREDUCE_VALUE_ARGMINMAX:
                ok = c_scalar(got->type, got->min) == want->min && c_scalar(got->type, got->max) == want->max &&
                     got->min_index == want->min_index && got->max_index == want->max_index && got->index == 0 &&
                     got->count == 0;
                break;
            case CLREDUCE_VALUE_STATISTICS:
                ok = got->count == want->count && c_scalar(got->type, got->min) == want->min &&
                     c_scalar(got->type, got->max) == want->max && got->sum == want->sum &&
                     near(got->mean, want->mean) && near(got->variance, want->variance) && got->index == 0;
                break;
        }
    if (!ok) {
        fprintf(stderr,
                "%s: got kind %d type %s scalar %.17g index %llu min %.17g max %.17g count %llu sum %.17g mean %.17g "
                "variance %.17g boolean %d\n  want kind %d type %s scalar %.17g index %llu min %.17g max %.17g count "
                "%llu sum %.17g mean %.17g variance %.17g boolean %d\n",
                what, (int)got->kind, clreduce_type_name(got->type) ? clreduce_type_name(got->type) : "-",
                got->type != CLREDUCE_TYPE_DEFAULT ? c_scalar(got->type, got->scalar) : 0.0,
                (unsigned long long)got->index,
                got->type != CLREDUCE_TYPE_DEFAULT ? c_scalar(got->type, got->min) : 0.0,
                got->type != CLREDUCE_TYPE_DEFAULT ? c_scalar(got->type, got->max) : 0.0,
                (unsigned long long)got->count, got->sum, got->mean, got->variance, got->boolean, (int)want->kind,
                clreduce_type_name(want->type) ? clreduce_type_name(want->type) : "-", want->scalar,
                (unsigned long long)want->index, want->min, want->max, (unsigned long long)want->count, want->sum,
                want->mean, want->variance, want->boolean);
    }
    return CHECK(ok);
}
