"""numpy's reductions over the engine: the named calls numpy users reach for (sum, prod, min,
max, argmin, argmax, mean, all, any, count_nonzero and the nan* forms) with numpy's result types,
NaN propagation, empty reductions, ``out=``, ``where=`` and ``initial=``; Reducer.reduce keeps
the engine's own semantics (docs/python.md, "What differs from numpy and why")."""

import warnings

import numpy as np

from ._clreduce import InvalidArgument, Overflow
from ._inputs import is_device_input
from ._masked import is_masked
from ._results import keep_dims

_ACCUMULATORS = ("int32", "uint32", "int64", "uint64", "float32", "float64")


def as_input(a):
    """``a`` as the calls read it: device data and numpy arrays (masked too) as they are,
    anything else (a list, a scalar) through numpy.asarray, as numpy takes it."""
    return a if is_device_input(a) or isinstance(a, np.ndarray) else np.asarray(a)


_INT64, _UINT64, _FLOAT64 = np.dtype(np.int64), np.dtype(np.uint64), np.dtype(np.float64)
# The largest finite float of each width (by itemsize), as float64 values.
_FLOAT_MAX = {n: float(np.finfo(t).max) for n, t in ((2, np.float16), (4, np.float32), (8, np.float64))}


def sum_type(element):
    """numpy's type of a sum or product of ``element``: int64 for bool and signed integers,
    uint64 for unsigned ones, the element type for floats."""
    kind = element.kind
    if kind in "bi":
        return _INT64
    return _UINT64 if kind == "u" else element


def mean_type(element):
    """numpy's type of a mean, variance or standard deviation: float64 but for float data."""
    return element if element.kind == "f" else _FLOAT64


def accumulator_for(want, element):
    """The engine's accumulator for numpy's ``dtype=`` ``want``: itself where the engine has
    it, else a wider one whose value is then cast (float16: float64; 8- and 16-bit integers:
    int64 or uint64); None: the engine's default."""
    if want is None:
        return None
    if want == np.bool_:
        raise TypeError("clreduce does not accumulate in bool (dtype=bool): use any() or all()")
    if want.name in _ACCUMULATORS:
        return want.name
    if want.kind == "f":
        return None if element.kind == "f" else "float64"
    if want.kind in "iu":
        return "int64" if want.kind == "i" else "uint64"
    raise TypeError(f"dtype= must be a numeric type; got {want}")


def as_type(value, want, overflow):
    """``value`` (a scalar or array) as numpy type ``want``: floats rounded once, integers
    checked to fit (clreduce.Overflow) unless ``overflow='wrap'``, then wrapped as numpy does."""
    if type(value) is want.type:  # a numpy scalar of numpy's type already (the common case)
        return value
    if want.kind == "f" and isinstance(value, np.floating) and abs(value) <= _FLOAT_MAX[want.itemsize]:
        return want.type(value)  # a float rounded once, in range: no overflow to silence
    v = np.asarray(value)
    if v.dtype == want:  # an array of numpy's type already
        return v[()] if v.ndim == 0 else v
    if want.kind in "iu" and v.dtype.kind in "iuO" and overflow != "wrap" and v.size:
        info = np.iinfo(want)
        wide = v.astype(object)
        if np.any(wide < int(info.min)) or np.any(wide > int(info.max)):
            raise Overflow(f"a result does not fit {want} (pass overflow='wrap' for numpy's wrapped bits)")
    if v.dtype == object:  # Python integers: modulo 2^bits, as numpy wraps
        bits = 8 * want.itemsize
        v = np.array([int(x) % (1 << bits) for x in v.ravel().tolist()], np.uint64).reshape(v.shape)
    with np.errstate(over="ignore"):  # a float64 value beyond float32's range: inf, silently (no FP warnings)
        out = v.astype(want)
    return out[()] if out.ndim == 0 else out


def deliver(result, out):
    """``result``, or, with ``out=``, written into ``out`` (numpy's 'same_kind' casting; its
    shape must be the result's) and ``out`` returned."""
    if out is None:
        return result
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array; got {type(out).__name__}")
    if out.shape != np.shape(result):
        raise ValueError(f"out has shape {out.shape}; the result has shape {np.shape(result)}")
    np.copyto(out, result, casting="same_kind")
    return out


def with_where(a, where):
    """``a`` with numpy's ``where=``: a masked array (a copy of the mask) whose masked elements
    are those where ``where`` is False; ``a`` itself for where=True."""
    if where is True or where is None:
        return a
    if is_device_input(a):
        raise InvalidArgument("where= takes host arrays: device arrays are reduced in place, unmasked")
    keep = np.broadcast_to(np.asarray(where, dtype=bool), a.shape)
    mask = ~keep if not is_masked(a) else (np.ma.getmaskarray(a) | ~keep)
    return np.ma.array(np.ma.getdata(a), mask=mask)


def group_counts(a, axes):
    """How many elements (unmasked ones of a masked array) each group of ``axes`` has."""
    if is_masked(a):
        return np.sum(~np.ma.getmaskarray(a), axis=axes, dtype=np.int64)[()]
    n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    return np.full(tuple(a.shape[d] for d in range(len(a.shape)) if d not in axes), n, np.int64)[()]


def no_element(a, axes):
    """Whether the reduced axes hold no element (numpy warns then, even with no group)."""
    return any(a.shape[d] == 0 for d in axes)


def finish(result, shape, axes, keepdims, out):
    if keepdims:
        result = keep_dims(result, shape, axes)
    return deliver(result, out)


def warn(message):
    warnings.warn(message, RuntimeWarning, stacklevel=4)


def has_nan(reducer, a, axes):
    """Per group, whether an element (unmasked) is NaN: numpy on host data, the engine's
    transform (isnan(x) ? 1 : 0, combined with max) on device data."""
    if is_device_input(a):
        return reducer.transform_reduce(a, "isnan(x) ? 1 : 0", "max", axes) > 0
    nan = np.isnan(np.ma.getdata(a))
    if is_masked(a):
        nan &= ~np.ma.getmaskarray(a)
    return np.any(nan, axis=axes)


def host_copy(a):
    """Device data on the host (a copy): for the rare groups numpy's answer needs element by
    element (the first NaN's index)."""
    if hasattr(a, "get"):
        return a.get()
    import pyopencl as cl
    host = np.empty(a.shape, a.dtype)
    cl.enqueue_copy(a.queue, host, a.buffer, src_offset=a.offset * a.dtype.itemsize)
    return host


def first_nan(a, axis):
    """The index of the first NaN along ``axis`` (None: in C order) of host or device data."""
    h = host_copy(a) if is_device_input(a) else np.ma.getdata(a)
    return np.argmax(np.isnan(h), axis=axis)


def propagate_nan(reducer, value, a, axes, nan_value):
    """``value`` with ``nan_value`` (NaN, or the first NaN's index) in the groups that hold a
    NaN, as numpy's min, max, argmin, argmax and ptp give."""
    if np.dtype(a.dtype).kind != "f":
        return value
    nan = has_nan(reducer, a, axes)
    if not np.any(nan):
        return value
    v = np.where(nan, nan_value() if callable(nan_value) else nan_value, value).astype(np.asarray(value).dtype)
    return v[()] if v.ndim == 0 else v


def single_axis(axis, name):
    """argmin's and argmax's ``axis``: None or one integer, as numpy takes it."""
    if isinstance(axis, tuple):
        raise TypeError(f"{name} takes axis=None or one integer axis, as numpy's; got {axis!r}")
    return axis
