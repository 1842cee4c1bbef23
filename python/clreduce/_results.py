"""The native results as the documented numpy types (docs/python.md, "Results")."""

from typing import NamedTuple

import numpy as np

from ._clreduce import Overflow

_INTEGER_SUM_OPS = ("sum", "product", "sum_of_squares", "transform")


class Statistics(NamedTuple):
    """One pass's count, extremes (element type), sum, mean and population variance (float64);
    arrays of them per row or segment."""
    count: object
    min: object
    max: object
    sum: object
    mean: object
    variance: object

    @property
    def std(self):
        """The population standard deviation, sqrt(variance)."""
        return np.sqrt(self.variance)


def result_dtype(op, element, accumulator):
    """The numpy type of `op`'s value over elements of `element` (a dtype name), with the
    accumulator `accumulator` (a name or None)."""
    e = np.dtype(element)
    if op in _INTEGER_SUM_OPS:
        if accumulator is not None:
            return np.dtype(accumulator)
        if e.kind == "f":
            return np.dtype(np.float64)
        if op == "sum_of_squares":
            return np.dtype(np.uint64)
        if op == "transform":
            return np.dtype(np.uint64 if e == np.uint64 else np.int64)
        return np.dtype(np.int64 if e.kind == "i" else np.uint64)
    if op in ("min", "max", "minmax", "bit_and", "bit_or", "bit_xor"):
        return e
    if op in ("argmin", "argmax", "argminmax", "count_nonzero"):
        return np.dtype(np.int64)
    if op in ("all", "any"):
        return np.dtype(np.bool_)
    return np.dtype(np.float64)  # mean, norms


def _check_fits(values, dtype):
    """Raises clreduce.Overflow where an integer value does not fit `dtype` (a narrower
    accumulator named with dtype=; the library's value is exact)."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        v = np.asarray(values)
        if v.size and (np.any(v < info.min) or np.any(v > info.max)):
            raise Overflow(f"a result does not fit the accumulator {dtype} (pass overflow='wrap' to wrap it)")


def _wrapped(value, dtype):
    """Python integer `value` modulo 2^bits of integer `dtype`, as a value of it (numpy's bits)."""
    bits = 8 * dtype.itemsize
    value %= 1 << bits
    return value - (1 << bits) if dtype.kind == "i" and value >= 1 << (bits - 1) else value


def _scalar(value, dtype, wrap=False):
    if dtype.kind in "iu":
        if wrap:
            value = _wrapped(int(value), dtype)
        else:
            _check_fits(np.array(value, dtype=object), dtype)
    return dtype.type(value)


def _array(values, dtype, wrap=False):
    if dtype == np.float16:
        return values.view(np.float16)
    if dtype == np.bool_:
        return values.astype(np.bool_)
    if values.dtype != dtype:
        if not wrap:
            _check_fits(values, dtype)
        return values.astype(dtype)  # integer to integer: modulo 2^bits, as numpy casts
    return values


def cast(op, raw, element, accumulator, segmented, wrap=False):
    """The native value `raw` of `op` as numpy scalars (segmented: arrays). `wrap`
    (overflow='wrap'): integers that do not fit the accumulator are taken modulo 2^bits of it,
    as numpy wraps them; else they raise Overflow. (The library's value is right modulo 2^bits
    but may be given in its wider result type.)"""
    def convert(value, dtype):
        return _array(value, dtype, wrap) if segmented else _scalar(value, dtype, wrap)

    if op == "minmax":
        e = np.dtype(element)
        return convert(raw[0], e), convert(raw[1], e)
    if op in ("argmin", "argmax"):
        return convert(raw[1], np.dtype(np.int64))
    if op == "argminmax":
        return convert(raw[0][1], np.dtype(np.int64)), convert(raw[1][1], np.dtype(np.int64))
    if op == "statistics":
        e = np.dtype(element)
        f = np.dtype(np.float64)
        return Statistics(convert(raw["count"], np.dtype(np.int64)), convert(raw["min"], e), convert(raw["max"], e),
                          convert(raw["sum"], f), convert(raw["mean"], f), convert(raw["variance"], f))
    return convert(raw, result_dtype(op, element, accumulator))


def keep_dims(result, shape, axes):
    """``result`` with the reduced ``axes`` of an array of ``shape`` kept as length 1
    (keepdims=True)."""
    kept = tuple(1 if d in axes else n for d, n in enumerate(shape))

    def one(v):
        return np.asarray(v).reshape(kept)
    if isinstance(result, Statistics):
        return Statistics(*(one(v) for v in result))
    if isinstance(result, tuple):
        return tuple(one(v) for v in result)
    return one(result)
