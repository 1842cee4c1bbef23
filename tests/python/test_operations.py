"""Every function of the package x every element type against exact references (numpy's where
exact), with the documented result types; host data (small: the host path of a CPU device,
large: the kernels) and a device sweep through PyOpenCL buffers (kernels for every operation)."""

import math

import numpy as np
import pytest

import clreduce
from references import FLOAT_TYPES, INT_TYPES, TYPES, close, data, reference

# function name -> (the operation whose reference it has, call)
FUNCTIONS = {
    "sum": ("sum", lambda a, **k: clreduce.sum(a, **k)),
    "prod": ("product", lambda a, **k: clreduce.prod(a, **k)),
    "min": ("min", lambda a, **k: clreduce.min(a, **k)),
    "max": ("max", lambda a, **k: clreduce.max(a, **k)),
    "nanmin": ("min", lambda a, **k: clreduce.nanmin(a, **k)),
    "nanmax": ("max", lambda a, **k: clreduce.nanmax(a, **k)),
    "minmax": ("minmax", lambda a, **k: clreduce.minmax(a, **k)),
    "argmin": ("argmin", lambda a, **k: clreduce.argmin(a, **k)),
    "argmax": ("argmax", lambda a, **k: clreduce.argmax(a, **k)),
    "argminmax": ("argminmax", lambda a, **k: clreduce.argminmax(a, **k)),
    "count_nonzero": ("count_nonzero", lambda a, **k: clreduce.count_nonzero(a, **k)),
    "mean": ("mean", lambda a, **k: clreduce.mean(a, **k)),
    "sum_of_squares": ("sum_of_squares", lambda a, **k: clreduce.sum_of_squares(a, **k)),
    "norm1": ("norm_l1", lambda a, **k: clreduce.norm(a, ord=1, **k)),
    "norm2": ("norm_l2", lambda a, **k: clreduce.norm(a, **k)),
    "norminf": ("norm_inf", lambda a, **k: clreduce.norm(a, ord=np.inf, **k)),
    "statistics": ("statistics", lambda a, **k: clreduce.statistics(a, **k)),
    "bit_and": ("bit_and", lambda a, **k: clreduce.bit_and(a, **k)),
    "bit_or": ("bit_or", lambda a, **k: clreduce.bit_or(a, **k)),
    "bit_xor": ("bit_xor", lambda a, **k: clreduce.bit_xor(a, **k)),
    "all": ("all", lambda a, **k: clreduce.all(a, **k)),
    "any": ("any", lambda a, **k: clreduce.any(a, **k)),
    "transform_squares": ("sum_of_squares", lambda a, **k: clreduce.transform_reduce(a, "x * x", "sum", **k)),
    "nansum": ("sum", lambda a, **k: clreduce.nansum(a, **k)),
    "nanmean": ("mean", lambda a, **k: clreduce.nanmean(a, **k)),
}


def expected_type(name, op, dtype):
    """The documented numpy type of the function's value (docs/python.md, "Results")."""
    dt = np.dtype(dtype)
    f = dt.kind == "f"
    if name in ("sum", "prod", "nansum"):  # numpy's: the element type for floats
        return dt.type if f else (np.int64 if dt.kind == "i" else np.uint64)
    if name in ("mean", "nanmean", "norm1", "norm2", "norminf"):
        return dt.type if f else np.float64
    if name == "sum_of_squares":
        return np.float64 if f else np.uint64
    if name == "transform_squares":
        return np.float64 if f else (np.uint64 if dt == np.uint64 else np.int64)
    if op in ("min", "max", "minmax", "bit_and", "bit_or", "bit_xor"):
        return dt.type
    if op in ("argmin", "argmax", "argminmax", "count_nonzero"):
        return np.int64
    if op in ("all", "any"):
        return np.bool_
    return np.float64


def refused(op, dtype, has_fp16):
    """The Unsupported error a call must raise, or None."""
    if dtype == "float16" and not has_fp16:
        return "cl_khr_fp16"
    if op.startswith("bit_") and dtype in FLOAT_TYPES:
        return "integer elements"
    if op == "statistics" and dtype in ("int64", "uint64"):
        return "statistics of"
    return None


# Operations whose integer results grow with the squares or the sum of the elements: their data
# stays within +-2^bits so that n of them fit 64 bits (Overflow has its own tests).
SQUARE_BITS = 20
SUM_BITS = 40


def operand(rng, op, dtype, n):
    if op == "product":  # small factors, so that float products stay finite
        levels = [1, 1, 1, 2, 3] if np.dtype(dtype).kind == "u" else [1, 1, -1, 2, 1]
        return rng.choice(levels, size=n).astype(dtype)
    if op in ("sum_of_squares", "norm_l2", "statistics"):
        return data(rng, dtype, n, bits=SQUARE_BITS)
    return data(rng, dtype, n, bits=SUM_BITS)


def check_value(name, op, got, want, a):
    if op == "statistics":
        assert int(got.count) == want["count"]
        assert float(got.min) == want["min"] and float(got.max) == want["max"]
        for field in ("sum", "mean", "variance"):
            assert close(getattr(got, field), want[field], a, "statistics"), (field, getattr(got, field), want[field])
        return
    if op == "minmax":
        assert (float(got[0]), float(got[1])) == want
        return
    if op == "argminmax":
        assert (int(got[0]), int(got[1])) == want
        return
    if isinstance(want, float) and a.dtype.kind == "f" and op in ("sum", "mean", "sum_of_squares", "norm_l1",
                                                                   "norm_l2"):
        assert close(got, want, a, op), (got, want)
    elif op == "product" and a.dtype.kind == "f":  # the float64 product in numpy's type (float32 may overflow)
        with np.errstate(over="ignore"):
            assert math.isclose(float(got), float(type(got)(want)), rel_tol=1e-12)
    elif isinstance(want, float):
        assert float(got) == want or (math.isnan(want) and math.isnan(float(got)))
    else:
        assert int(got) == want


def run_case(name, dtype, a, has_fp16, device=None):
    """Checks one call over host data `a` (or `device`, a PyOpenCL array holding it)."""
    op, call = FUNCTIONS[name]
    reason = refused(op, dtype, has_fp16)
    if reason:
        with pytest.raises(clreduce.Unsupported, match=reason):
            call(a if device is None else device)
        return
    got = call(a if device is None else device)
    check_value(name, op, got, reference(op, a), a)
    t = expected_type(name, op, dtype)
    if op in ("minmax", "argminmax"):
        assert type(got[0]) is t and type(got[1]) is t
    elif op == "statistics":
        assert type(got.min) is np.dtype(dtype).type and type(got.mean) is np.float64
        assert type(got.count) is np.int64
    else:
        assert type(got) is t, (type(got), t)


# Every function x every type (about 150 kernels on first use; about a minute cold on a 2-core
# PoCL machine), plus the refusals that have their own rules.
REFUSALS = [("bit_and", "float32"), ("statistics", "int64"), ("sum", "float16")]


def small_cases():
    every = [(name, dtype) for name in FUNCTIONS for dtype in TYPES]
    return every + [case for case in REFUSALS if case not in every]


@pytest.mark.parametrize("name,dtype", small_cases())
def test_function_and_type_small(name, dtype, rng, has_fp16):
    """Functions x types (see small_cases), 1000 elements of host data."""
    run_case(name, dtype, operand(rng, FUNCTIONS[name][0], dtype, 1000), has_fp16)


def sweep():
    """Device kernels through the PyOpenCL path, one case per kind of result (scalar sum,
    extreme, index, structure, bool, float mean, transform); the kernels of every operation and
    type are the C++ device tests' (each build is seconds on PoCL), and the binding's dispatch
    and conversions are the same code the small sweep runs for every function x type."""
    return [("sum", "int32"), ("max", "uint16"), ("argmax", "float64"), ("minmax", "int8"),
            ("statistics", "float32"), ("all", "uint8"), ("mean", "int64"), ("transform_squares", "float64")]


@pytest.mark.parametrize("name,dtype", sweep())
def test_function_and_type_on_device(name, dtype, rng, has_fp16, cl_queue):
    """The sweep over PyOpenCL arrays (the kernels run, on the array's own queue, no copy)."""
    import pyopencl.array as cla
    n = 65536 + int(rng.integers(0, 4096))
    a = operand(rng, FUNCTIONS[name][0], dtype, n)
    run_case(name, dtype, a, has_fp16, device=cla.to_device(cl_queue, a))


EMPTY = {"sum": 0, "prod": 1, "count_nonzero": 0, "sum_of_squares": 0, "norm1": 0.0, "norm2": 0.0, "norminf": 0.0,
         "bit_or": 0, "bit_xor": 0, "all": True, "any": False, "transform_squares": 0, "nansum": 0}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_empty(name):
    """Empty input: the operation's identity, or InvalidArgument (a ValueError) where it has
    none (min, max, argmin, ...); mean as numpy's."""
    a = np.zeros(0, np.int32)
    op, call = FUNCTIONS[name]
    if name == "bit_and":
        assert call(a) == np.int32(-1)
    elif name in ("mean", "nanmean"):  # numpy's: NaN and a RuntimeWarning
        with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
            assert math.isnan(call(a))
    elif name in EMPTY:
        assert call(a) == EMPTY[name]
    else:
        with pytest.raises(ValueError):
            call(a)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nan(dtype, rng):
    """NaN as numpy: min/max/argmin/argmax propagate it (the first NaN's index), nanmin,
    nanmax, nanargmin, nanargmax, nansum and nanmean skip it, sum propagates it, count_nonzero
    counts it; argminmax (clreduce's own) skips it."""
    a = data(rng, dtype, 4099)
    where = rng.choice(a.size, 50, replace=False)
    a[where] = np.nan
    assert clreduce.nanmin(a) == np.nanmin(a) and clreduce.nanmax(a) == np.nanmax(a)
    assert math.isnan(clreduce.min(a)) and math.isnan(clreduce.max(a))
    assert clreduce.argmin(a) == np.argmin(a) == clreduce.argmax(a) == np.argmax(a) == where.min()
    assert clreduce.nanargmin(a) == np.nanargmin(a) and clreduce.nanargmax(a) == np.nanargmax(a)
    assert clreduce.argminmax(a) == (np.nanargmin(a), np.nanargmax(a))
    assert math.isnan(clreduce.sum(a))
    assert clreduce.count_nonzero(a) == np.count_nonzero(a)
    b = a[~np.isnan(a)]
    assert close(clreduce.nansum(a), math.fsum(b.astype(np.float64).tolist()), b, "sum")
    assert close(clreduce.nanmean(a), math.fsum(b.astype(np.float64).tolist()) / b.size, b, "mean")
    all_nan = np.full(10, np.nan, dtype)
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):
        assert math.isnan(clreduce.nanmin(all_nan))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert math.isnan(clreduce.nanmean(all_nan))
    assert clreduce.nansum(all_nan) == 0.0


def test_bool_arrays(rng):
    """Boolean arrays are read as uint8: all/any/count_nonzero as numpy's, min/max as bool."""
    a = rng.random(3001) > 0.3
    assert clreduce.all(a) == np.all(a) and clreduce.any(a) == np.any(a)
    assert clreduce.count_nonzero(a) == np.count_nonzero(a)
    assert clreduce.all(np.ones(5, bool)) and not clreduce.any(np.zeros(5, bool))
    assert clreduce.min(a) == np.min(a) and type(clreduce.max(a)) is np.bool_


@pytest.mark.parametrize("dtype", ["int32", "uint32", "float64"])
def test_statistics_extremes_stay_exact(dtype, rng):
    """statistics' min and max are the exact extremes in the element type, also with a float32
    accumulator (dtype=np.float32), which cannot hold every int32, uint32 or float64 value."""
    a = data(rng, dtype, 1000)
    if dtype == "float64":
        a[rng.choice(a.size, 2, replace=False)] = [1e5 + 2.0**-30, -(1e5 + 2.0**-20)]  # not float32 values
    else:
        info = np.iinfo(dtype)
        # Not float32 values; rounded to float32, still values of the type: the core refuses a
        # float32 statistics state whose extremes round out of it (2^31 - 1 to 2^31).
        a[rng.choice(a.size, 2, replace=False)] = [info.max - 200, info.min + 53]
    for axis, want_min, want_max in ((None, a.min(), a.max()), (1, a.reshape(10, 100).min(axis=1),
                                                                 a.reshape(10, 100).max(axis=1))):
        got = clreduce.statistics(a if axis is None else a.reshape(10, 100), axis=axis, dtype=np.float32)
        assert np.array_equal(got.min, want_min) and np.array_equal(got.max, want_max), axis
        assert np.asarray(got.min).dtype == np.dtype(dtype) and np.asarray(got.max).dtype == np.dtype(dtype)
    issue = clreduce.statistics(np.array([-2145286346, 5], np.int32), dtype=np.float32)
    assert issue.min == -2145286346 and type(issue.min) is np.int32 and issue.max == 5


def test_nan_calls_take_lists_and_scalars():
    """nansum and nanmean take Python lists and scalars, as sum and mean do (and numpy's)."""
    assert clreduce.nansum([1.0, float("nan"), 2.5]) == np.nansum([1.0, float("nan"), 2.5]) == 3.5
    assert clreduce.nanmean([1.0, float("nan"), 2.5]) == np.nanmean([1.0, float("nan"), 2.5])
    assert clreduce.nansum(2.5) == 2.5 and clreduce.nanmean(2.5) == 2.5
    assert clreduce.nansum([[1, 2], [3, 4]], axis=0).tolist() == [4, 6]
    assert clreduce.nanmean([1, 2]) == clreduce.mean([1, 2]) == 1.5
