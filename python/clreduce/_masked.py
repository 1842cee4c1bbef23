"""numpy.ma masked arrays: the operations with an identity reduce a copy whose masked elements
hold it (so they change nothing), mean divides the unmasked sum by the unmasked count; the
other operations refuse masked arrays (_inputs.host_array) rather than read the masked data."""

import numpy as np

from ._clreduce import InvalidArgument

# The operations a masked array's filled copy gives the right value for, by what fills it.
_FILL_ZERO = ("sum", "count_nonzero", "sum_of_squares", "norm_l1", "norm_l2", "norm_inf", "any", "bit_or", "bit_xor")
_FILL_ONE = ("product", "all")
_FILL_ALL_ONES = ("bit_and",)
_FILL_LARGEST = ("min",)
_FILL_SMALLEST = ("max",)
# Operations without an identity: a group whose every element is masked has no value.
_NO_IDENTITY = ("min", "max", "mean")

HONOURED = _FILL_ZERO + _FILL_ONE + _FILL_ALL_ONES + _FILL_LARGEST + _FILL_SMALLEST + ("mean",)


def is_masked(a):
    return isinstance(a, np.ma.MaskedArray)


def _extreme(dtype, largest):
    """The largest (or smallest) value of `dtype`: no element is above (below) it."""
    if dtype == np.bool_:
        return largest
    if dtype.kind == "f":
        return np.inf if largest else -np.inf
    info = np.iinfo(dtype)
    return info.max if largest else info.min


def _identity(op, dtype):
    if op in _FILL_ZERO:
        return 0
    if op in _FILL_ONE:
        return 1
    if op in _FILL_ALL_ONES:
        return ~np.zeros((), dtype)
    return _extreme(dtype, op in _FILL_LARGEST)


def filled(a, value):
    """A copy of masked array `a` with `value` in its masked elements (the data itself where
    nothing is masked)."""
    return np.ma.filled(a, np.asarray(value).astype(a.dtype) if a.dtype != np.bool_ else bool(value))


def _require_unmasked(op, a, axis):
    """InvalidArgument where a group of `op` (no identity) has no unmasked element, as for empty
    input."""
    if np.any(np.ma.count(a, axis=axis) == 0):
        raise InvalidArgument(f"{op} of a masked array is undefined where every element is masked")


def reduce_masked(reducer, op, a, axis, dtype, float_mode, overflow, keepdims):
    """Reducer.reduce(op, a, ...) over the unmasked elements of masked array `a`."""
    if op not in HONOURED:
        raise TypeError(f"clreduce's {op} does not take numpy.ma masked arrays: pass a.filled(value) or "
                        "a.compressed()")
    if op in _NO_IDENTITY:
        _require_unmasked(op, a, axis)
    if op != "mean":
        return reducer.reduce(op, filled(a, _identity(op, a.dtype)), axis, dtype, float_mode, overflow, keepdims)
    total = reducer.reduce("sum", filled(a, 0), axis, dtype, float_mode, overflow, keepdims)
    count = np.ma.count(a, axis=axis, keepdims=keepdims)
    return divide(total, count)


def divide(total, count):
    """total / count in float64: integer totals through Python's correctly rounded int / int
    (the mean of the exact sum, as mean() gives it), floats as numpy divides them; NaN where
    count is 0."""
    shape = np.shape(total)
    if np.asarray(total).dtype.kind == "f":
        with np.errstate(invalid="ignore", divide="ignore"):
            quotient = np.asarray(total, np.float64) / count
    else:  # a group of no element: NaN
        pairs = zip(np.ravel(total).tolist(), np.ravel(np.broadcast_to(count, shape)).tolist())
        quotient = np.array([t / c if c else np.nan for t, c in pairs], np.float64).reshape(shape)
    return np.float64(quotient) if quotient.ndim == 0 else quotient
