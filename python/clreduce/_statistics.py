"""var, std, nanvar, nanstd and average as numpy's (Reducer methods, ``self`` the reducer): the
variance from the engine's one-pass statistics state (shifted sums: its bound holds whatever the
mean, docs/numerics.md), the groups with masked, where=-excluded or NaN elements left out as CSR
segments of the elements kept."""

import numpy as np

from ._clreduce import InvalidArgument
from ._inputs import is_device_input
from ._masked import is_masked
from ._numpy import as_input, as_type, finish, mean_type, no_element, warn, with_where
from ._layout import normalize_axes

# 64-bit integers: the statistics state takes them as float64 (a copy), as numpy's var does.
_AS_FLOAT64 = ("int64", "uint64")


def _moments(self, a, axes, skip_nan):
    """(count, mean, population variance) per group as float64 arrays (or scalars) over the
    elements kept: unmasked, and not NaN where ``skip_nan``."""
    element = np.dtype(a.dtype)
    keep = None
    if is_masked(a):
        keep = ~np.ma.getmaskarray(a)
        a = np.ma.getdata(a)
    if skip_nan and element.kind == "f":
        if is_device_input(a):
            raise InvalidArgument("nanvar and nanstd take host arrays (the non-NaN elements are gathered on the host)")
        keep = ~np.isnan(a) if keep is None else keep & ~np.isnan(a)
    if element.name in _AS_FLOAT64 or element == np.bool_:
        if is_device_input(a):
            raise InvalidArgument(f"var and std of device {element} arrays: the statistics state takes them as "
                                  "float64; convert on the device first")
        a = a.astype(np.float64)
    ndim = len(a.shape)
    kept_axes = [d for d in range(ndim) if d not in axes]
    out_shape = tuple(a.shape[d] for d in kept_axes)
    if keep is None:
        if a.size == 0:
            n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
            return np.full(out_shape, n, np.float64)[()], *(np.full(out_shape, np.nan)[()],) * 2
        s = self.reduce("statistics", a, axes)
        return np.asarray(s.count, np.float64)[()], s.mean, s.variance
    # Rows of the kept elements (C order, reduced axes last): CSR segments of the engine.
    order = kept_axes + list(axes)
    groups = int(np.prod(out_shape, dtype=np.int64))
    length = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    values = np.transpose(a, order).reshape(groups, length)
    kept = np.transpose(np.broadcast_to(keep, a.shape), order).reshape(groups, length)
    counts = np.count_nonzero(kept, axis=1)
    mean = np.full(groups, np.nan)
    variance = np.full(groups, np.nan)
    filled = counts > 0
    if np.any(filled):
        offsets = np.concatenate(([0], np.cumsum(counts[filled])))
        s = self.segment_reduce("statistics", np.ascontiguousarray(values[kept]), offsets)
        mean[filled], variance[filled] = s.mean, s.variance
    return tuple(np.reshape(v, out_shape)[()] for v in (counts.astype(np.float64), mean, variance))


def _variance(self, name, a, axis, dtype, out, ddof, keepdims, where, skip_nan, root):
    a = with_where(as_input(a), where)
    shape = tuple(a.shape)
    axes = normalize_axes(axis, len(shape))
    want = np.dtype(dtype) if dtype is not None else mean_type(np.dtype(a.dtype))
    if want.kind != "f":
        raise TypeError(f"{name} gives floats: dtype must be a float type; got {want}")
    count, _, variance = _moments(self, a, axes, skip_nan)
    dof = np.maximum(count - ddof, 0)
    empty = no_element(a, axes) and not (skip_nan and np.dtype(a.dtype).kind == "f")  # as numpy warns
    if np.any(count == 0) or empty:
        warn("Mean of empty slice" if not skip_nan else "All-NaN slice encountered")
    if np.any(dof == 0) or empty:
        warn("Degrees of freedom <= 0 for slice")
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.asarray(variance) * count / dof
    if root:
        value = np.sqrt(value)
    return finish(as_type(value, want, None), shape, axes, keepdims, out)


def _ddof(ddof, correction):
    """numpy's ``correction=`` (numpy 2's name of ddof): either, not both."""
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")  # numpy's words
    return correction


def var(self, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, correction=None):
    """Variance, as numpy.var: the sum of squared deviations over (count - ddof) (``correction``:
    numpy 2's name of ddof); float64, the element type for floats (computed in float64, rounded
    once); NaN with a RuntimeWarning where count - ddof <= 0 and no deviation (inf where some)."""
    return _variance(self, "var", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, False, False)


def std(self, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, correction=None):
    """Standard deviation, as numpy.std: sqrt(var(a, ddof=ddof))."""
    return _variance(self, "std", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, False, True)


def nanvar(self, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, correction=None):
    """Variance of the elements that are not NaN, as numpy.nanvar (host arrays)."""
    return _variance(self, "nanvar", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, True, False)


def nanstd(self, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, correction=None):
    """Standard deviation of the elements that are not NaN, as numpy.nanstd (host arrays)."""
    return _variance(self, "nanstd", a, axis, dtype, out, _ddof(ddof, correction), keepdims, where, True, True)


def average(self, a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted mean, as numpy.average: sum(a * weights) / sum(weights) along ``axis`` (weights
    of a's shape, or 1-D along one axis); without weights the mean. The products a * weights are
    formed by numpy (a copy), their sums by clreduce. ``returned``: also the weights' sums.
    ZeroDivisionError where the weights sum to zero."""
    a = as_input(a)
    if is_masked(a) or is_device_input(a):
        raise TypeError("average takes plain host arrays: numpy.ma.average for masked ones")
    shape = tuple(a.shape)
    axes = normalize_axes(axis, len(shape))
    if weights is None:
        avg = self.mean(a, axis, keepdims=keepdims)
        scale = np.asarray(avg).dtype.type(int(np.prod([shape[d] for d in axes], dtype=np.int64)))
        return (avg, np.broadcast_to(scale, np.shape(avg)).copy()[()] if np.ndim(avg) else scale) if returned \
            else avg
    w = np.asarray(weights)
    if a.dtype.kind in "biu":
        result_type = np.result_type(a.dtype, w.dtype, "f8")
    else:
        result_type = np.result_type(a.dtype, w.dtype)
    if w.shape != shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1 or len(axes) != 1 or w.shape[0] != shape[axes[0]]:
            raise ValueError("Length of weights not compatible with specified axis.")
        w = w.reshape([-1 if d == axes[0] else 1 for d in range(len(shape))])
        w = np.broadcast_to(w, shape)
    scale = self.sum(np.ascontiguousarray(w, result_type), axes, keepdims=keepdims)
    if np.any(scale == 0.0):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    total = self.sum(np.multiply(a, w, dtype=result_type), axes, keepdims=keepdims)
    avg = np.true_divide(total, scale)
    avg = avg.astype(result_type)[()] if isinstance(avg, np.ndarray) else result_type.type(avg)
    return (avg, scale) if returned else avg


METHODS = [var, std, nanvar, nanstd, average]
