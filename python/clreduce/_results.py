"""The native results as the documented numpy types (docs/python.md, "Results")."""

import functools
from typing import NamedTuple

import numpy as np

from . import _clreduce
from ._clreduce import Overflow

# Operations whose value takes the accumulator's type where dtype= names one.
_INTEGER_SUM_OPS = ("sum", "product", "sum_of_squares")


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


@functools.lru_cache(maxsize=None)
def value_kind(op, element):
    """The kind of value the core's operation ``op`` gives over ``element`` data (a dtype name;
    bool read as uint8), read from the core's operation list at run time: a numpy type name, or
    minmax, arg, argminmax, statistics."""
    return _clreduce.operation_result(op, "uint8" if element == "bool" else element)


def result_dtype(op, element, accumulator):
    """The numpy type of `op`'s value over elements of `element` (a dtype name), with the
    accumulator `accumulator` (a name or None): the core's result type (counts and indices as
    int64, as numpy's; bool data's element-typed values as bool), or the accumulator's for sums."""
    e = np.dtype(element)
    if op == "transform":
        if accumulator is not None:
            return np.dtype(accumulator)
        if e.kind == "f":
            return np.dtype(np.float64)
        return np.dtype(np.uint64 if e == np.uint64 else np.int64)
    if accumulator is not None and op in _INTEGER_SUM_OPS:
        return np.dtype(accumulator)
    kind = value_kind(op, element)
    if op == "count_nonzero" or kind in ("arg", "argminmax"):  # a count or an index: numpy's intp
        return np.dtype(np.int64)
    if kind == "minmax":  # the element's own type, twice
        return e
    if element == "bool" and kind == "uint8":  # bool data read as uint8: its extremes and bits are bool
        return np.dtype(np.bool_)
    return np.dtype(kind)


def _does_not_fit(dtype):
    return Overflow(f"a result does not fit the accumulator {dtype} (pass overflow='wrap' to wrap it)")


def _check_fits(values, dtype):
    """Raises clreduce.Overflow where an integer value does not fit `dtype` (a narrower
    accumulator named with dtype=; the library's value is exact)."""
    if dtype.kind in "iu":
        lo, hi = _bounds(dtype)
        v = np.asarray(values)
        if v.size and (np.any(v < lo) or np.any(v > hi)):
            raise _does_not_fit(dtype)


def _wrapped(value, dtype):
    """Python integer `value` modulo 2^bits of integer `dtype`, as a value of it (numpy's bits)."""
    bits = 8 * dtype.itemsize
    value %= 1 << bits
    return value - (1 << bits) if dtype.kind == "i" and value >= 1 << (bits - 1) else value


@functools.lru_cache(maxsize=None)
def _bounds(dtype):
    """The smallest and largest value of integer ``dtype`` as Python integers."""
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def _scalar(value, dtype, wrap=False):
    if dtype.kind in "iu":
        if wrap:
            value = _wrapped(int(value), dtype)
        else:
            lo, hi = _bounds(dtype)
            if not lo <= int(value) <= hi:
                raise _does_not_fit(dtype)
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


@functools.lru_cache(maxsize=None)
def _value_type(op, element, accumulator):
    """The kind of `op`'s value ("scalar" for transforms) and, where it is one value of one
    type, that numpy type (else None: minmax, arg, argminmax, statistics)."""
    kind = "scalar" if op == "transform" else value_kind(op, element)
    if kind in ("minmax", "arg", "argminmax", "statistics"):
        return kind, None
    return kind, result_dtype(op, element, accumulator)


def cast(op, raw, element, accumulator, segmented, wrap=False):
    """The native value `raw` of `op` as numpy scalars (segmented: arrays). `wrap`
    (overflow='wrap'): integers that do not fit the accumulator are taken modulo 2^bits of it,
    as numpy wraps them; else they raise Overflow. (The library's value is right modulo 2^bits
    but may be given in its wider result type.)"""
    def convert(value, dtype):
        return _array(value, dtype, wrap) if segmented else _scalar(value, dtype, wrap)

    kind, dtype = _value_type(op, element, accumulator)
    if dtype is not None:  # one value of one type (the common case)
        return convert(raw, dtype)
    if kind == "minmax":
        e = np.dtype(element)
        return convert(raw[0], e), convert(raw[1], e)
    if kind == "arg":
        return convert(raw[1], np.dtype(np.int64))
    if kind == "argminmax":
        return convert(raw[0][1], np.dtype(np.int64)), convert(raw[1][1], np.dtype(np.int64))
    e = np.dtype(element)  # statistics, the last kind _value_type gives no single type
    f = np.dtype(np.float64)
    return Statistics(convert(raw["count"], np.dtype(np.int64)), convert(raw["min"], e), convert(raw["max"], e),
                      convert(raw["sum"], f), convert(raw["mean"], f), convert(raw["variance"], f))


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
