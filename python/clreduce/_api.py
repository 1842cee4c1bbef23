"""The module-level functions: numpy-shaped calls on the default device (host arrays) or on a
PyOpenCL array's own queue (device arrays), all through Reducer.reduce."""

import threading
import weakref

import numpy as np

from ._inputs import DeviceArray, device_view, is_device_input
from ._reducer import Reducer, _NORMS, _options

_lock = threading.Lock()
_default = None
_by_queue = weakref.WeakKeyDictionary()


def default_reducer():
    """The Reducer of the default device ($CLREDUCE_DEVICE, else the first GPU, else the first
    device), made on first use and shared by the module-level functions."""
    global _default
    with _lock:
        if _default is None:
            _default = Reducer()
        return _default


def reducer_for(a):
    """The Reducer a module-level call over ``a`` uses: for PyOpenCL data the one on its queue
    (made once per queue, kept while the queue lives), else the default one."""
    if not is_device_input(a):
        return default_reducer()
    queue = device_view(a)[0]
    with _lock:
        r = _by_queue.get(queue)
        if r is None:
            r = Reducer(queue=queue)
            _by_queue[queue] = r
        return r


def buffer(queue, buf, dtype, shape=None, offset=0):
    """A PyOpenCL ``Buffer`` read as ``shape`` C-contiguous elements of ``dtype`` from element
    ``offset`` (default: the whole buffer), for the calls here; reduced in place on ``queue``."""
    return DeviceArray(queue, buf, dtype, shape, offset)


_COMMON = """
    ``a``: a numpy array (C-contiguous, or 2-D with strided rows), a PyOpenCL ``Array``, or
    clreduce.buffer(...). ``axis``: None (all), 0 or 1 of a 2-D array, -1 of an N-D array.
    ``dtype``: the accumulator (int32, uint32, int64, uint64, float32, float64). ``float_mode``:
    "deterministic" (default), "atomic", "compensated", "correctly_rounded". ``overflow``:
    "check" (default: clreduce.Overflow, an OverflowError) or "wrap". ``keepdims``: as numpy."""

# name: (operation, what it returns)
_OPERATIONS = {
    "sum": ("sum", "Sum: int64 (signed integers, exact), uint64 (unsigned), float64 (floats)."),
    "prod": ("product", "Product, in the sum's type (integers modulo 2^64)."),
    "min": ("min", "Smallest element, in the element type; NaN ignored (all-NaN: NaN)."),
    "max": ("max", "Largest element, in the element type; NaN ignored."),
    "minmax": ("minmax", "(min, max) of one pass, in the element type; NaN ignored."),
    "argmin": ("argmin", "Index (int64) of the first smallest element; NaN ignored."),
    "argmax": ("argmax", "Index (int64) of the first largest element; NaN ignored."),
    "count_nonzero": ("count_nonzero", "Elements != 0, int64 (NaN counts, -0.0 does not)."),
    "mean": ("mean", "Mean, float64 (integers: the correctly rounded mean of the exact sum)."),
    "sum_of_squares": ("sum_of_squares", "Sum of x*x: uint64 for integers (exact), float64 for floats."),
    "statistics": ("statistics", "clreduce.Statistics(count, min, max, sum, mean, variance) of one pass."),
    "bit_and": ("bit_and", "Bitwise and of integer elements, in the element type."),
    "bit_or": ("bit_or", "Bitwise or of integer elements, in the element type."),
    "bit_xor": ("bit_xor", "Bitwise xor of integer elements, in the element type."),
    "all": ("all", "Whether every element is nonzero (numpy.bool_)."),
    "any": ("any", "Whether some element is nonzero (numpy.bool_)."),
    "nanmin": ("min", "Smallest element ignoring NaN (min already ignores NaN)."),
    "nanmax": ("max", "Largest element ignoring NaN (max already ignores NaN)."),
}


def _operation_function(name, op, doc):
    def f(a, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False):
        return reducer_for(a).reduce(op, a, axis, dtype, float_mode, overflow, keepdims)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc + "\n" + _COMMON
    return f


for _name, (_op, _doc) in _OPERATIONS.items():
    globals()[_name] = _operation_function(_name, _op, _doc)


def norm(a, ord=2, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False):
    """Vector norm, float64: ``ord`` 1 (sum of |x|), 2 or None (sqrt of the sum of squares),
    numpy.inf (largest |x|, NaN ignored)."""
    if ord not in _NORMS:
        raise ValueError(f"ord must be 1, 2, None or numpy.inf; got {ord!r}")
    return reducer_for(a).reduce(_NORMS[ord], a, axis, dtype, float_mode, overflow, keepdims)


def transform_reduce(a, expression, combine="sum", axis=None, dtype=None, float_mode=None, overflow=None,
                     keepdims=False):
    """``expression`` (in ``x``, the transform language of docs/expression-language.md, e.g.
    "x > 0 ? x : 0") for every element, combined with ``combine`` ("sum", "product", "min",
    "max"). ``x`` is the element in int64 (integers up to 32 bits and int64), uint64 (uint64) or
    float64 (floats), or the accumulator ``dtype``; so is the result."""
    r = reducer_for(a)
    return r._call(None, (str(expression), str(combine)), a, axis, _options(dtype, float_mode, overflow), keepdims)


def _is_float(a):
    return np.dtype(a.dtype).kind == "f"


def nansum(a, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False):
    """Sum treating NaN as 0 (float64 for floats): floats through
    transform_reduce(a, "isnan(x) ? 0 : x"); integers as sum()."""
    if not _is_float(a):
        return globals()["sum"](a, axis, dtype, float_mode, overflow, keepdims)
    return transform_reduce(a, "isnan(x) ? 0 : x", "sum", axis, dtype, float_mode, overflow, keepdims)


def nanmean(a, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False):
    """Mean of the elements that are not NaN, float64 (NaN where all are NaN): nansum() divided
    by the count of non-NaN elements (a second pass, transform_reduce(a, "isnan(x) ? 0 : 1"));
    integers as mean()."""
    if not _is_float(a):
        return globals()["mean"](a, axis, dtype, float_mode, overflow, keepdims)
    total = nansum(a, axis, dtype, float_mode, overflow, keepdims)
    count = transform_reduce(a, "isnan(x) ? 0 : 1", "sum", axis, None, None, None, keepdims)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.float64(total) / count if np.ndim(total) == 0 else np.asarray(total, np.float64) / count


def segment_reduce(op, values, offsets, dtype=None, float_mode=None, overflow=None):
    """``op`` over each CSR segment of the 1-D host array ``values``: segment s is
    values[offsets[s]:offsets[s + 1]] (``offsets`` ascending, the last <= len(values)), one result
    per segment in one launch, as numpy arrays of the operation's type. An empty segment gives
    the operation's empty result (sum 0, ...) or, where it has none (min, mean, ...),
    clreduce.InvalidArgument naming the segment."""
    r = reducer_for(values)
    return r._call(op, None, values, None, _options(dtype, float_mode, overflow), False, offsets=offsets)


def _segment_function(name, op):
    def f(values, offsets, dtype=None, float_mode=None, overflow=None):
        return segment_reduce(op, values, offsets, dtype, float_mode, overflow)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"{op} of each CSR segment of ``values`` (clreduce.segment_reduce('{op}', values, offsets)); "
                 "like numpy.add.reduceat, with offsets[s]..offsets[s + 1] as segment s.")
    return f


_SEGMENT_OPERATIONS = ("sum", "product", "min", "max", "minmax", "argmin", "argmax", "count_nonzero", "mean",
                       "sum_of_squares", "statistics", "bit_and", "bit_or", "bit_xor", "all", "any")
for _op in _SEGMENT_OPERATIONS:
    globals()["segment_" + _op] = _segment_function("segment_" + _op, _op)


for _f in (norm, transform_reduce, nansum, nanmean):
    _f.__doc__ += _COMMON
