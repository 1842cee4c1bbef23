"""The module-level functions: numpy-shaped calls on the default device (host arrays) or on a
PyOpenCL array's own queue (device arrays), all through Reducer.reduce."""

import atexit
import collections
import inspect
import threading

from . import _functions, _norm, _statistics
from ._clreduce import operation_summary, operations
from ._inputs import DeviceArray, device_view, is_device_input
from ._reducer import Reducer, _options

_lock = threading.Lock()
_default = None
# The reducers of the last queues PyOpenCL data came on, by the queue's handle; each entry keeps
# its queue alive, so a handle is never reused by another queue while it is here.
_by_queue = collections.OrderedDict()
_QUEUES_KEPT = 16


@atexit.register
def _release_reducers():
    """Drops the shared reducers when the interpreter exits, before it tears the modules down:
    their OpenCL objects are released while the native module is whole, and nanobind finds no
    instance alive at its exit (Dask's worker processes on Python 3.12 reported one)."""
    global _default
    with _lock:
        _default = None
        _by_queue.clear()


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
    (made once per queue; those of the last 16 queues are kept), else the default one."""
    if not is_device_input(a):
        return default_reducer()
    queue = device_view(a)[0]
    with _lock:
        entry = _by_queue.get(queue.int_ptr)
        if entry is None:
            entry = (queue, Reducer(queue=queue))
            _by_queue[queue.int_ptr] = entry
            if len(_by_queue) > _QUEUES_KEPT:
                _by_queue.popitem(last=False)
        else:
            _by_queue.move_to_end(queue.int_ptr)
        return entry[1]


def buffer(queue, buf, dtype, shape=None, offset=0):
    """A PyOpenCL ``Buffer`` read as ``shape`` C-contiguous elements of ``dtype`` from element
    ``offset`` (default: the whole buffer), for the calls here; reduced in place on ``queue``."""
    return DeviceArray(queue, buf, dtype, shape, offset)


# The named calls are written as Reducer methods (`self` the reducer) and attached to Reducer at
# the end; the module gets a function of the same name for each. numpy's names (sum, min, mean,
# var, ...) follow numpy's semantics (_functions.py, _statistics.py); the engine's own operations
# without a numpy counterpart below keep the engine's (NaN skipped by minmax and argminmax).
_COMMON = """
    ``a``: a numpy array (any strides), a PyOpenCL ``Array``, or clreduce.buffer(...).
    ``axis``: None (all), an integer or a tuple (negative: from the end). ``dtype``: the
    accumulator (int32, uint32, int64, uint64, float32, float64). ``float_mode``:
    "deterministic" (default), "atomic", "compensated", "correctly_rounded". ``overflow``:
    "check" (default: clreduce.Overflow, an OverflowError) or "wrap". ``keepdims``: as numpy."""

# The core's operations that numpy-named calls serve (prod, norm, ...); every other operation of
# the core's list, read at run time, gets a call of its own name, its docstring the core's
# summary (minmax, argminmax, sum_of_squares, statistics, bit_and, ...).
_SERVED_BY_NUMPY_NAMES = ("sum", "product", "min", "max", "argmin", "argmax", "count_nonzero", "mean", "norm_l1",
                          "norm_l2", "norm_inf", "all", "any")


def _operation_function(name, op, doc):
    def f(self, a, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False):
        return self.reduce(op, a, axis, dtype, float_mode, overflow, keepdims)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc + "\n" + _COMMON
    return f


_METHODS = {op: _operation_function(op, op, operation_summary(op)) for op in operations()
            if op not in _SERVED_BY_NUMPY_NAMES}
_METHODS.update({f.__name__: f for f in _functions.METHODS + _statistics.METHODS + _norm.METHODS})


def transform_reduce(self, a, expression, combine="sum", axis=None, dtype=None, float_mode=None, overflow=None,
                     keepdims=False, identity=None):
    """``expression`` (in ``x``, the transform language of docs/expression-language.md, e.g.
    "x > 0 ? x : 0") for every element, combined with ``combine`` ("sum", "product", "min",
    "max"), or, with ``identity``, with ``combine`` as an expression of one's own in ``a`` and
    ``b`` (e.g. "max(a, b)" with identity "-9223372036854775808"; commutative as written, its
    associativity the caller's promise; an empty group gives ``identity``, a literal of the
    accumulation type). ``x`` is the element in int64 (integers up to 32 bits and int64), uint64
    (uint64) or float64 (floats), or the accumulator ``dtype``; so are ``a``, ``b`` and the
    result."""
    if identity is not None and not isinstance(identity, str):
        identity = str(identity)  # a number as its literal: 0, -1, 1.5, 1e-300
    return self._call(None, (str(expression), str(combine), identity), a, axis,
                      _options(dtype, float_mode, overflow), keepdims)


def segment_reduce(self, op, values, offsets, dtype=None, float_mode=None, overflow=None):
    """``op`` over each CSR segment of the 1-D host array ``values``: segment s is
    values[offsets[s]:offsets[s + 1]] (``offsets`` ascending, the last <= len(values)), one result
    per segment in one launch, as numpy arrays of the operation's type. An empty segment gives
    the operation's empty result (sum 0, ...) or, where it has none (min, mean, ...),
    clreduce.InvalidArgument naming the segment."""
    return self._call(op, None, values, None, _options(dtype, float_mode, overflow), False, offsets=offsets)


def _segment_function(name, op):
    def f(self, values, offsets, dtype=None, float_mode=None, overflow=None):
        return self.segment_reduce(op, values, offsets, dtype, float_mode, overflow)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"{op} of each CSR segment of ``values`` (clreduce.segment_reduce('{op}', values, offsets)); "
                 "like numpy.add.reduceat, with offsets[s]..offsets[s + 1] as segment s.")
    return f


# Every operation of the core's list per segment, but the norms (norm has no segment call).
_SEGMENT_OPERATIONS = [op for op in operations() if not op.startswith("norm_")]
_METHODS.update({"segment_" + op: _segment_function("segment_" + op, op) for op in _SEGMENT_OPERATIONS})


def _by_key_function(name, op):
    def f(self, keys, values, dtype=None, float_mode=None, overflow=None):
        return self.reduce_by_key(op, keys, values, dtype, float_mode, overflow)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"{op} of each run of equal consecutive ``keys`` (clreduce.reduce_by_key('{op}', keys, values)): "
                 "(the runs' keys, their results).")
    return f


_METHODS.update({op + "_by_key": _by_key_function(op + "_by_key", op) for op in _SEGMENT_OPERATIONS})


for _f in (transform_reduce,):
    _f.__doc__ += _COMMON
    _METHODS[_f.__name__] = _f
_METHODS["segment_reduce"] = segment_reduce
_METHODS["reduce_by_key"] = Reducer.reduce_by_key


def _module_function(name, method):
    """The module-level form of Reducer method `method`: the same call on reducer_for(a)."""
    if name in ("segment_reduce", "reduce_by_key"):  # the operation comes first
        def f(op, values, *args, **kwargs):
            return getattr(reducer_for(values), name)(op, values, *args, **kwargs)
    else:
        def f(a, *args, **kwargs):
            return getattr(reducer_for(a), name)(a, *args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = method.__doc__
    signature = inspect.signature(method)
    f.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])
    return f


# Every named call is a Reducer method (reducer.sum(a), ...) and a module function on the
# default reducer or the PyOpenCL data's own (clreduce.sum(a), ...).
for _name, _method in _METHODS.items():
    setattr(Reducer, _name, _method)
    globals()[_name] = _module_function(_name, _method)
