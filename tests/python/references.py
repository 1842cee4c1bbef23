"""Exact host references of the tests (Python integers and fractions for integer data,
math.fsum for float sums) and the data they run on."""

import math
from fractions import Fraction

import numpy as np

INT_TYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
FLOAT_TYPES = ("float16", "float32", "float64")
TYPES = INT_TYPES + FLOAT_TYPES


def data(rng, dtype, n, bits=None, nonzero_share=0.8):
    """n elements of dtype: integers over the type's range, or within +-2^bits (`bits`: so that
    sums and squares of n of them fit 64 bits), floats normal around 0; some zeros."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        a = (rng.standard_normal(n) * (8 if dt == np.float16 else 1000)).astype(dt)
    else:
        info = np.iinfo(dt)
        lo, hi = int(info.min), int(info.max)
        if bits is not None:
            lo, hi = max(lo, -2**bits), min(hi, 2**bits)
        wide = np.uint64 if dt == np.uint64 else np.int64
        a = rng.integers(lo, hi, size=n, endpoint=True, dtype=wide).astype(dt)
    a[rng.random(n) > nonzero_share] = 0
    return a


def exact_ints(a):
    return [int(v) for v in a.tolist()]


def reference(op, a):
    """The exact value of `op` over 1-D array `a` (numpy's where it is exact), as a Python
    number, tuple or dict; floats' sums as the correctly rounded double of the exact sum."""
    is_float = a.dtype.kind == "f"
    values = a.astype(np.float64).tolist() if is_float else exact_ints(a)
    finite = [v for v in values if not (is_float and math.isnan(v))]
    if op == "sum":
        return math.fsum(values) if is_float else sum(values)
    if op == "product":
        if is_float:
            return float(np.prod(a.astype(np.float64)))
        p = 1
        for v in values:
            p = (p * v) % 2**64
        if a.dtype.kind == "i" and p >= 2**63:
            p -= 2**64
        return p
    if op in ("min", "max"):
        if not finite:
            return math.nan
        return (min if op == "min" else max)(finite)
    if op == "minmax":
        return reference("min", a), reference("max", a)
    if op == "argminmax":
        return reference("argmin", a), reference("argmax", a)
    if op in ("argmin", "argmax"):
        if not finite:
            return 0
        target = reference("min" if op == "argmin" else "max", a)
        return next(i for i, v in enumerate(values) if v == target)
    if op == "count_nonzero":
        return sum(1 for v in values if v != 0 or (is_float and math.isnan(v)))
    if op == "mean":
        return math.fsum(values) / len(values) if is_float else float(Fraction(sum(values), len(values)))
    if op == "sum_of_squares":
        return math.fsum(v * v for v in values) if is_float else sum(v * v for v in values)
    if op == "norm_l1":
        return math.fsum(abs(v) for v in values) if is_float else float(sum(abs(v) for v in values))
    if op == "norm_l2":
        return math.sqrt(reference("sum_of_squares", a))
    if op == "norm_inf":
        return max((abs(v) for v in finite), default=0.0)
    if op in ("bit_and", "bit_or", "bit_xor"):
        ufunc = {"bit_and": np.bitwise_and, "bit_or": np.bitwise_or, "bit_xor": np.bitwise_xor}[op]
        return int(ufunc.reduce(a)) if a.size else int(ufunc.identity if op != "bit_and" else np.array(-1).astype(a.dtype))
    if op == "all":
        return all(v != 0 or (is_float and math.isnan(v)) for v in values)
    if op == "any":
        return any(v != 0 or (is_float and math.isnan(v)) for v in values)
    if op == "statistics":
        mean = reference("mean", a)
        return {"count": len(values), "min": reference("min", a), "max": reference("max", a),
                "sum": reference("sum", a), "mean": mean,
                "variance": math.fsum((v - mean) ** 2 for v in values) / len(values)}
    raise ValueError(op)


def close(got, want, a, op):
    """Whether float result `got` is within the deterministic sum's bound of `want`:
    (n + 1) * u(float32 for float32 accumulation, else float64) * sum|x| (docs/numerics.md),
    plus the final rounding to `got`'s type where it is narrower than float64."""
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    n = max(a.size, 1)
    magnitude = math.fsum(abs(v) for v in a.astype(np.float64).tolist())
    if op in ("sum_of_squares", "norm_l2", "statistics"):
        magnitude = math.fsum(v * v for v in a.astype(np.float64).tolist()) + magnitude
    if op == "mean":
        magnitude /= n
    tolerance = (n + 1) * 2.0**-52 * magnitude + 1e-300
    if op == "norm_l2":
        tolerance = math.sqrt(tolerance) + abs(want) * 1e-14
    if isinstance(got, np.floating) and np.finfo(type(got)).eps > 2.0**-52:
        # numpy's type (float32 for float32 data): the float64 value rounded once more, by up to
        # half an ulp of the type (of the bound's far end).
        tolerance += (abs(want) + tolerance) * np.finfo(type(got)).eps / 2
    return abs(float(got) - want) <= tolerance
