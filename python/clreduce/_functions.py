"""The numpy-named calls (written as Reducer methods, ``self`` the reducer): numpy's signatures,
result types and semantics over the engine's operations (_numpy.py has the rules they share).
clreduce's options come after numpy's, as keywords: ``float_mode=``, ``overflow=``."""

import numpy as np

from ._clreduce import Unsupported
from ._inputs import is_device_input
from ._layout import normalize_axes
from ._masked import divide, filled, is_masked
from ._numpy import (accumulator_for, as_input, as_type, finish, first_nan, group_counts, mean_type,
                     no_element, propagate_nan, single_axis, sum_type, warn, with_where)

OPTIONS = """
    clreduce's options (keywords): ``float_mode`` "deterministic" (default), "atomic",
    "compensated", "correctly_rounded"; ``overflow`` "check" (default: clreduce.Overflow where an
    integer result does not fit its type) or "wrap" (numpy's bits)."""


def _prepare(a, axis, where=True):
    a = as_input(a)
    shape = tuple(a.shape)
    return with_where(a, where), shape, normalize_axes(axis, len(shape))


def _total(self, name, op, a, axis, dtype, out, keepdims, initial, where, float_mode, overflow, transform=None):
    """sum, prod, nansum, nanprod: numpy's type (dtype= or sum_type), the engine's value cast
    once; ``initial`` added (multiplied)."""
    a, shape, axes = _prepare(a, axis, where)
    element = a.dtype
    want = np.dtype(dtype) if dtype is not None else sum_type(element)
    accumulator = accumulator_for(want, element) if dtype is not None else None
    if transform is not None and element.kind == "f":
        if dtype is not None and want.kind != "f":  # an integer one would drop NaN before the call sees it
            raise Unsupported(f"{name} needs a floating dtype (float32 or float64) for {element} data; got {want}")
        if is_masked(a):
            a = filled(a, np.nan)  # skipped as NaN are
        combine = "sum" if op == "sum" else "product"
        value = self.transform_reduce(a, transform, combine, axes, accumulator, float_mode, overflow)
        value = np.asarray(value)
    else:
        value = self.reduce(op, a, axes, accumulator, float_mode, overflow)
    value = as_type(value, want, overflow)
    if initial is not None:
        value = as_type(np.add(value, initial) if op == "sum" else np.multiply(value, initial), want, overflow)
    return finish(value, shape, axes, keepdims, out)


def refuse_masked(name, a):
    """TypeError for a numpy.ma array where the call has no masked form (docs/python.md's table)."""
    if is_masked(a):
        raise TypeError(f"clreduce's {name} does not take numpy.ma masked arrays: pass a.filled(value) or "
                        "a.compressed()")


def sum(self, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, *, float_mode=None,
        overflow=None):
    """Sum, as numpy.sum: int64 for bool and signed integers (exact), uint64 for unsigned ones,
    the element type for floats (accumulated in float64 and rounded once)."""
    return _total(self, "sum", "sum", a, axis, dtype, out, keepdims, initial, where, float_mode, overflow)


def prod(self, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, *, float_mode=None,
         overflow=None):
    """Product, as numpy.prod, in the sum's type (integers modulo 2^64, as numpy's)."""
    return _total(self, "prod", "product", a, axis, dtype, out, keepdims, initial, where, float_mode, overflow)


def nansum(self, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, *, float_mode=None,
           overflow=None):
    """Sum treating NaN as 0, as numpy.nansum: floats through transform_reduce(a,
    "isnan(x) ? 0 : x"); integers as sum()."""
    return _total(self, "nansum", "sum", a, axis, dtype, out, keepdims, initial, where, float_mode, overflow,
                  transform="isnan(x) ? 0 : x")


def nanprod(self, a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True, *, float_mode=None,
            overflow=None):
    """Product treating NaN as 1, as numpy.nanprod: floats through transform_reduce(a,
    "isnan(x) ? 1 : x", "product"); integers as prod()."""
    return _total(self, "nanprod", "product", a, axis, dtype, out, keepdims, initial, where, float_mode, overflow,
                  transform="isnan(x) ? 1 : x")


def _extreme(self, op, a, axis, out, keepdims, initial, where, skip_nan):
    """min, max, nanmin, nanmax: the element type; NaN propagates (skip_nan: skipped; a group
    of NaN only gives NaN with a RuntimeWarning); ``initial`` takes part, and is the value of
    groups of no element."""
    where_given = where is not True and where is not None
    a, shape, axes = _prepare(a, axis, where)
    name = ("nan" if skip_nan else "") + op
    if where_given and initial is None:
        raise ValueError(f"{name} with where= needs initial=: the reduction has no identity (as numpy's)")
    element = np.dtype(a.dtype)
    if initial is not None:
        if is_masked(a):  # masked elements hold a value no element is beyond
            big = np.inf if element.kind == "f" else (True if element == np.bool_ else np.iinfo(element).max)
            small = -np.inf if element.kind == "f" else (False if element == np.bool_ else np.iinfo(element).min)
            a = filled(a, big if op == "min" else small)
        if a.size == 0:
            value = as_type(np.full(group_counts(a, axes).shape, initial), element, None)
            return finish(value, shape, axes, keepdims, out)
    value = self.reduce(op, a, axes)
    if skip_nan:
        if element.kind == "f" and np.any(np.isnan(value)):
            warn("All-NaN slice encountered")
    else:
        value = propagate_nan(self, value, a, axes, np.nan)
    if initial is not None:
        both = (np.minimum if op == "min" else np.maximum)(value, np.asarray(initial).astype(element))
        if skip_nan:  # nanmin(a, initial=...): initial where every element is NaN
            both = np.where(np.isnan(value), np.asarray(initial).astype(element), both) if element.kind == "f" \
                else both
        value = as_type(both, element, None)
    return finish(value, shape, axes, keepdims, out)


def min(self, a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element, as numpy.min: the element type; NaN where a NaN is (nanmin skips it)."""
    return _extreme(self, "min", a, axis, out, keepdims, initial, where, False)


def max(self, a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element, as numpy.max: the element type; NaN where a NaN is (nanmax skips it)."""
    return _extreme(self, "max", a, axis, out, keepdims, initial, where, False)


def nanmin(self, a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element ignoring NaN, as numpy.nanmin (a group of NaN only: NaN, RuntimeWarning)."""
    return _extreme(self, "min", a, axis, out, keepdims, initial, where, True)


def nanmax(self, a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element ignoring NaN, as numpy.nanmax (a group of NaN only: NaN, RuntimeWarning)."""
    return _extreme(self, "max", a, axis, out, keepdims, initial, where, True)


def _arg(self, op, a, axis, out, keepdims, skip_nan):
    """argmin, argmax, nanargmin, nanargmax: int64 indices along one axis (None: into the
    flattened array); NaN's own index where one is (skip_nan: skipped; a group of NaN only is a
    ValueError, as numpy's)."""
    name = ("nan" if skip_nan else "") + op
    a = as_input(a)
    refuse_masked(name, a)
    axis = single_axis(axis, name)
    shape = tuple(a.shape)
    axes = normalize_axes(axis, len(shape))
    value = self.reduce(op, a, axis)
    if np.dtype(a.dtype).kind == "f":
        if skip_nan:
            if is_device_input(a):
                all_nan = self.transform_reduce(a, "isnan(x) ? 0 : 1", "max", axis) == 0
            else:
                all_nan = np.all(np.isnan(a), axis=axis)
            if np.any(all_nan):
                raise ValueError(f"{name}: All-NaN slice encountered")
        else:
            value = propagate_nan(self, value, a, axes, lambda: first_nan(a, axis))
    return finish(np.int64(value) if np.ndim(value) == 0 else value, shape, axes, keepdims, out)


def argmin(self, a, axis=None, out=None, *, keepdims=False):
    """Index (int64) of the first smallest element, as numpy.argmin; a NaN's where one is."""
    return _arg(self, "argmin", a, axis, out, keepdims, False)


def argmax(self, a, axis=None, out=None, *, keepdims=False):
    """Index (int64) of the first largest element, as numpy.argmax; a NaN's where one is."""
    return _arg(self, "argmax", a, axis, out, keepdims, False)


def nanargmin(self, a, axis=None, out=None, *, keepdims=False):
    """Index of the first smallest element ignoring NaN, as numpy.nanargmin."""
    return _arg(self, "argmin", a, axis, out, keepdims, True)


def nanargmax(self, a, axis=None, out=None, *, keepdims=False):
    """Index of the first largest element ignoring NaN, as numpy.nanargmax."""
    return _arg(self, "argmax", a, axis, out, keepdims, True)


def ptp(self, a, axis=None, out=None, keepdims=False, *, overflow=None):
    """max - min, as numpy.ptp, in the element type (one minmax pass); NaN where a NaN is. An
    integer range that does not fit the element type raises clreduce.Overflow (overflow='wrap':
    numpy's wrapped bits)."""
    refuse_masked("ptp", a)
    a, shape, axes = _prepare(a, axis)
    element = np.dtype(a.dtype)
    lo, hi = self.reduce("minmax", a, axes)  # no element: ValueError first, as numpy
    if element == np.bool_:
        raise TypeError("ptp of bool arrays: numpy refuses the boolean subtract too")
    if element.kind == "f":
        value = propagate_nan(self, np.subtract(hi, lo), a, axes, np.nan)
    else:
        wide = [np.asarray(v).astype(object) for v in (hi, lo)]  # Python integers
        value = as_type(wide[0] - wide[1], element, overflow)
    return finish(value, shape, axes, keepdims, out)


def count_nonzero(self, a, axis=None, *, keepdims=False):
    """Elements != 0, int64, as numpy.count_nonzero (NaN counts, -0.0 does not)."""
    a, shape, axes = _prepare(a, axis)
    return finish(self.reduce("count_nonzero", a, axes), shape, axes, keepdims, None)


def _logical(self, op, a, axis, out, keepdims, where):
    a, shape, axes = _prepare(a, axis, where)
    return finish(self.reduce(op, a, axes), shape, axes, keepdims, out)


def all(self, a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element is nonzero (numpy.bool_), as numpy.all."""
    return _logical(self, "all", a, axis, out, keepdims, where)


def any(self, a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether some element is nonzero (numpy.bool_), as numpy.any."""
    return _logical(self, "any", a, axis, out, keepdims, where)


def _mean(self, a, axes, float_mode, skip_nan):
    """The mean per group in float64 (before numpy's type), NaN with a RuntimeWarning for
    groups of no element."""
    counts = group_counts(a, axes)
    if skip_nan and np.dtype(a.dtype).kind == "f":
        counts = counts - count_nan(self, a, axes)
    nan_skipped = skip_nan and np.dtype(a.dtype).kind == "f"
    if np.any(np.asarray(counts) == 0) or (no_element(a, axes) and not nan_skipped):  # as numpy warns
        warn("Mean of empty slice")
    if np.all(np.asarray(counts) == 0):
        return np.full(np.shape(counts), np.nan)[()]
    if skip_nan and np.dtype(a.dtype).kind == "f":
        total = self.transform_reduce(filled(a, np.nan) if is_masked(a) else a, "isnan(x) ? 0 : x", "sum", axes,
                                      None, float_mode)
    elif is_masked(a) or np.any(np.asarray(counts) == 0):
        total = self.reduce("sum", filled(a, 0) if is_masked(a) else a, axes, None, float_mode)
    else:
        return self.reduce("mean", a, axes, None, float_mode)
    return divide(total, counts)


def mean(self, a, axis=None, dtype=None, out=None, keepdims=False, *, where=True, float_mode=None):
    """Mean, as numpy.mean: float64 (integers: the correctly rounded mean of the exact sum),
    the element type for floats (computed in float64, rounded once); NaN with a RuntimeWarning
    for no element."""
    a, shape, axes = _prepare(a, axis, where)
    want = np.dtype(dtype) if dtype is not None else mean_type(np.dtype(a.dtype))
    value = as_type(_mean(self, a, axes, float_mode, False), want, None)
    return finish(value, shape, axes, keepdims, out)


def nanmean(self, a, axis=None, dtype=None, out=None, keepdims=False, *, where=True, float_mode=None):
    """Mean of the elements that are not NaN, as numpy.nanmean (no such element: NaN with a
    RuntimeWarning): nansum() over the count of non-NaN elements."""
    a, shape, axes = _prepare(a, axis, where)
    element = np.dtype(a.dtype)
    if dtype is not None and element.kind == "f" and np.dtype(dtype).kind != "f":
        raise Unsupported(f"nanmean needs a floating dtype for {element} data; got {np.dtype(dtype)}")
    want = np.dtype(dtype) if dtype is not None else mean_type(element)
    value = as_type(_mean(self, a, axes, float_mode, True), want, None)
    return finish(value, shape, axes, keepdims, out)


def count_nan(self, a, axes):
    """NaN elements (unmasked ones) per group, int64."""
    if is_device_input(a):
        return np.asarray(self.transform_reduce(a, "isnan(x) ? 1 : 0", "sum", axes), np.int64)
    nan = np.isnan(np.ma.getdata(a))
    if is_masked(a):
        nan &= ~np.ma.getmaskarray(a)
    return np.count_nonzero(nan, axis=axes)


METHODS = [sum, prod, nansum, nanprod, min, max, nanmin, nanmax, argmin, argmax, nanargmin, nanargmax, ptp,
           count_nonzero, all, any, mean, nanmean]
HELPERS = [count_nan]
for _f in (sum, prod, nansum, nanprod, mean, nanmean):
    _f.__doc__ += OPTIONS
for _f in METHODS:
    _f.__doc__ += "\n    ``axis``: None, an integer or a tuple (negative: from the end), over any strides."
