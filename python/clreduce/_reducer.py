"""clreduce.Reducer: numpy-shaped calls on one OpenCL device, over the native core call."""

import numpy as np

from . import _clreduce
from ._clreduce import InvalidArgument
from ._inputs import (accumulator_name, device_view, element_dtype, flat_element, host_array, is_device_input,
                      offsets_array)
from ._layout import device_plan, normalize_axes, plan
from ._masked import is_masked, reduce_masked
from ._results import cast, keep_dims

_FLOAT_MODES = ("deterministic", "atomic", "compensated", "correctly_rounded")
# Operations whose value depends on the order of a group's elements (the first index of the
# extreme): their reduced axes are read in C order.
_ORDERED = ("argmin", "argmax", "argminmax")
# Element types a float32 cannot hold every value of: a float32 statistics state rounds their
# extremes.
_WIDER_THAN_FLOAT32 = ("int32", "uint32", "float64")


def _options(dtype, float_mode, overflow):
    if float_mode is not None and float_mode not in _FLOAT_MODES:
        raise ValueError(f"float_mode must be one of {', '.join(_FLOAT_MODES)}; got {float_mode!r}")
    if overflow is not None and overflow not in ("check", "wrap"):
        raise ValueError(f"overflow must be 'check' or 'wrap'; got {overflow!r}")
    return {"accumulator": accumulator_name(dtype), "float_mode": float_mode, "overflow": overflow}


def _transform(native, transform, *args, **kwargs):
    """A native transform call: ``transform`` is (expression, combine), or (expression, combine,
    identity) for a combine expression of one's own."""
    expression, combine, *identity = transform
    return native(expression, combine, *args, identity=identity[0] if identity else None, **kwargs)


class Reducer:
    """Reductions on one OpenCL device.

    ``Reducer()`` takes the default device ($CLREDUCE_DEVICE, else the first GPU, else the first
    device); ``Reducer(device="pthread")`` a device by spec ("P:D", "N", or part of its name);
    ``Reducer(queue=q)`` the context and queue of a PyOpenCL ``CommandQueue`` (PyOpenCL arrays
    and buffers on that context are then reduced in place, in the queue's order). Reuse one: its
    compiled kernels and scratch buffers are kept. Safe to call from several threads; the GIL is
    released while the device works.
    """

    def __init__(self, device=None, queue=None):
        if queue is not None:
            if device is not None:
                raise ValueError("give device= or queue=, not both")
            self._native = _clreduce.Reducer.from_handles(queue.context.int_ptr, queue.int_ptr)
            self._queue = queue  # kept alive with the reducer
        elif device is None:
            self._native = _clreduce.Reducer()
            self._queue = None
        else:
            self._native = _clreduce.Reducer(str(device))
            self._queue = None

    @property
    def device(self):
        """The device's description (name, platform, fp64/fp16 support, ...) as a dict."""
        return self._native.device

    @property
    def counters(self):
        """Programs built or loaded from disk, kernels created and buffers allocated so far."""
        return self._native.counters

    def __repr__(self):
        d = self._native.device
        return f"<clreduce.Reducer on {d['platform']} / {d['name']}>"

    # The one generic call every named method below goes through.
    def pinned_empty(self, shape, dtype=np.float32):
        """An uninitialised array in pinned host memory of this reducer's OpenCL context: a GPU
        takes host data in it in one write at the link's speed, with no copy into the pinned
        buffers other host arrays stream through. Fill it once, reduce it many times. The memory
        lives as long as the array or any view of it; a CPU device reads it in place, as any
        array. ``InvalidArgument`` for an empty shape."""
        dtype = np.dtype(dtype)
        shape = (int(shape),) if np.ndim(shape) == 0 else tuple(int(n) for n in shape)
        count = int(np.prod(shape, dtype=np.int64))
        return self._native.pinned_bytes(count * dtype.itemsize).view(dtype).reshape(shape)

    def reduce(self, op, a, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False):
        """Operation ``op`` (a name: "sum", "min", ..., see clreduce.operations()) over ``a``,
        with the engine's semantics (its result types: float64 sums, NaN skipped by the
        extremes; the numpy-named calls have numpy's).

        ``a``: a numpy array (any strides), a PyOpenCL ``Array`` or a
        :class:`clreduce.DeviceArray` on this reducer's context. ``axis``: None (all), an
        integer or a tuple (negative: from the end). ``dtype``: the accumulator; ``float_mode``:
        "deterministic", "atomic", "compensated" or "correctly_rounded"; ``overflow``: "check"
        (raise clreduce.Overflow) or "wrap". Returns numpy scalars, arrays along axes. A
        numpy.ma masked array is filled (a copy) so that masked elements count for nothing, for
        the operations that allow it (sum, product, min, max, mean, ...); others raise TypeError.
        """
        if is_masked(a):
            return reduce_masked(self, op, a, axis, dtype, float_mode, overflow, keepdims)
        return self._call(op, None, a, axis, _options(dtype, float_mode, overflow), keepdims)

    def _call(self, op, transform, a, axis, options, keepdims, offsets=None):
        if offsets is not None:
            return self._segments(op, transform, a, options, offsets)
        element = flat_element(a) if transform is None else None
        axes = tuple(range(a.ndim)) if element is not None else None
        if element is not None and (axis is None or axis == axes):
            # The common call: a whole C-contiguous array, read flat as it lies.
            shape = a.shape
            result = cast(op, self._native.reduce(op, a, "flat", **options), element, options["accumulator"], False,
                          wrap=options["overflow"] == "wrap")
            return self._finish(op, result, a, axis, keepdims, shape, axes, element, options)
        device = is_device_input(a)
        if device:
            queue, buffer, dt, offset, shape = device_view(a)
            element = element_dtype(dt)
            axes = normalize_axes(axis, len(shape))
            layout = device_plan(shape, dt, axes, op in _ORDERED)
            if layout is None:
                raise InvalidArgument(
                    f"axis={axis!r} of a device array of shape {tuple(shape)}: clreduce reads device arrays in "
                    "place, and the reduced axes must be the innermost or the outermost ones; move them there "
                    "first (e.g. a PyOpenCL transpose into a new array)")
        else:
            h = host_array(a)
            element = element_dtype(h.dtype)
            shape = h.shape
            axes = normalize_axes(axis, h.ndim)
            layout = plan(h, axes, op in _ORDERED, image_ok=transform is None)
            if getattr(a, "dtype", None) == np.bool_:
                element = "bool"  # read as uint8; values in the element type (extremes, bits) are bool
        if layout.form == "empty":
            empty_type = dt if device else (a.dtype if getattr(a, "dtype", None) == np.bool_ else h.dtype)
            reduced = int(np.prod([shape[d] for d in axes], dtype=np.int64))
            result = self._empty_groups(op, transform, np.dtype(empty_type), options, layout.out_shape, reduced)
        else:
            engine = layout.array
            if device:
                native = (buffer.int_ptr, element, offset, list(engine.shape), layout.form)
                raw = (self._native.reduce_buffer(op, *native, **options) if transform is None else
                       _transform(self._native.transform_reduce_buffer, transform, *native, **options))
            else:
                raw = (self._native.reduce(op, engine, layout.form, **options) if transform is None else
                       _transform(self._native.transform_reduce, transform, engine, layout.form, **options))
            result = cast("transform" if transform else op, raw, element, options["accumulator"],
                          layout.form in ("rows", "columns"), wrap=options["overflow"] == "wrap")
            result = _each(result, layout.arrange)
        return self._finish(op, result, a, axis, keepdims, shape, axes, element, options)

    def _finish(self, op, result, a, axis, keepdims, shape, axes, element, options):
        """A call's result with keepdims= applied and the statistics' extremes made exact."""
        if keepdims:
            result = keep_dims(result, shape, axes)
        if op == "statistics" and self._rounds_extremes(element, options["accumulator"]):
            # A float32 statistics state rounds the extremes of these types: they come from a
            # minmax pass instead, exact in the element type (docs/python.md).
            lo, hi = self._call("minmax", None, a, axis, _options(None, None, None), keepdims)
            result = result._replace(min=lo, max=hi)
        return result

    def _segments(self, op, transform, a, options, offsets):
        """The CSR segments call: one value per segment of 1-D values (host or device)."""
        offsets = offsets_array(offsets)
        groups = max(0, len(offsets) - 1)
        if is_device_input(a):
            queue, buffer, dt, offset, shape = device_view(a)
            element = element_dtype(dt)
            native = (buffer.int_ptr, element, offset, list(shape) if shape else [1], "offsets")
            raw = (self._native.reduce_buffer(op, *native, offsets=offsets, **options) if transform is None else
                   _transform(self._native.transform_reduce_buffer, transform, *native, offsets=offsets, **options))
        else:
            h = host_array(a)
            element = element_dtype(h.dtype)
            if h.size == 0 and groups:
                return self._empty_groups(op, transform, h.dtype, options, (groups,))  # every segment is empty
            raw = (self._native.reduce(op, h, "offsets", offsets=offsets, **options) if transform is None else
                   _transform(self._native.transform_reduce, transform, h, "offsets", offsets=offsets, **options))
        return cast("transform" if transform else op, raw, element, options["accumulator"], True,
                    wrap=options["overflow"] == "wrap")

    def reduce_by_key(self, op, keys, values, dtype=None, float_mode=None, overflow=None):
        """``op`` over each run of equal consecutive ``keys`` (like Thrust's and CUB's
        reduce_by_key): returns (the runs' keys, their results), in the keys' order. ``keys``: 1-D
        integers (8 to 64 bits); ``values``: as many elements. Both numpy arrays (copied where
        they are not contiguous) or both device arrays of this reducer's context (read in
        place). The results are those of segment_reduce over the runs, bit for bit."""
        options = _options(dtype, float_mode, overflow)
        if is_device_input(keys) != is_device_input(values):
            raise InvalidArgument("reduce_by_key: keys and values must both be host arrays or both device arrays")
        if is_device_input(keys):
            _, key_buffer, key_dtype, key_offset, key_shape = device_view(keys)
            _, value_buffer, value_dtype, value_offset, value_shape = device_view(values)
            count = _by_key_count(key_dtype, key_shape, value_shape)
            element = element_dtype(value_dtype)
            run_keys, raw = self._native.reduce_by_key_buffer(op, key_buffer.int_ptr, element_dtype(key_dtype),
                                                               key_offset, value_buffer.int_ptr, element,
                                                               value_offset, count, **options)
        else:
            k = np.asarray(keys)
            v = host_array(values)
            key_dtype = k.dtype
            _by_key_count(key_dtype, k.shape, v.shape)
            element = element_dtype(v.dtype)
            run_keys, raw = self._native.reduce_by_key(op, np.ascontiguousarray(k), np.ascontiguousarray(v),
                                                       **options)
        return (run_keys.view(key_dtype), cast(op, raw, element, options["accumulator"], True,
                                               wrap=options["overflow"] == "wrap"))

    def _rounds_extremes(self, element, accumulator):
        """Whether statistics of `element` data keeps its extremes in a float32 that cannot hold
        them: dtype=float32, or the default accumulator of a device without float64."""
        if element not in _WIDER_THAN_FLOAT32:
            return False
        return accumulator == "float32" or (accumulator is None and not self._native.device["has_fp64"])

    def _empty_groups(self, op, transform, dtype, options, shape, reduced=0):
        """The values over data of no element, in numpy's result ``shape``: each group's value
        over its ``reduced`` elements when there are none, or InvalidArgument where there is no
        such value (also where there is no group, as numpy); no group of elements: an empty
        array of the call's type. (Nothing is read: the core would wrap the zero bytes of host
        data in an OpenCL buffer, which OpenCL refuses.)"""
        groups = int(np.prod(shape, dtype=np.int64))
        if groups == 0 and reduced > 0:  # the type of the value over one element
            value = self._call(op, transform, np.zeros(1, dtype), None, options, False)
        else:
            try:
                value = self._call(op, transform, np.zeros(0, dtype), None, options, False)
            except InvalidArgument:
                raise InvalidArgument(f"{transform[1] if transform else op} of an empty group (segment 0) "
                                      "is undefined") from None
        return _each(value, lambda v: np.full(shape, v)[()] if shape else v)

    def plan(self, op, dtype, count, accumulator=None, float_mode=None, overflow=None):
        """The plan (work-group size, vector width, groups, ...) a call of ``op`` over ``count``
        elements of ``dtype`` would launch, as a clreduce.Plan (``.describe()``)."""
        return self._native.plan(op, element_dtype(dtype), int(count),
                                 **_options(accumulator, float_mode, overflow))

    def tune(self, quick=True, types=(), max_n=1 << 30, time_budget_s=0.0, save=True, segments=True):
        """Measures the launch space on this device and uses the best parameters at once; with
        ``save`` they go into the tuning database for later reducers. ``types``: dtype names
        (empty: all). Ctrl-C stops it early (what was measured is kept) and raises
        KeyboardInterrupt. Returns a dict (entries, complete, measurements, saved_to, ...)."""
        return self._native.tune(quick, [element_dtype(t) for t in types], int(max_n), float(time_budget_s),
                                 bool(save), bool(segments))

    def partial(self, op, a, dtype=None, float_mode=None, overflow=None):
        """The :class:`clreduce.Partial` of ``op`` over ``a`` (1-D, C-contiguous host or device
        data): merge partials of consecutive ranges, send them as bytes, read the whole's value."""
        from ._partial import Partial
        options = _options(dtype, float_mode, overflow)
        if is_device_input(a):
            _, buffer, dt, offset, shape = device_view(a)
            count = int(np.prod(shape, dtype=np.int64))
            return Partial(self._native.partial_buffer(op, buffer.int_ptr, element_dtype(dt), offset, count,
                                                       **options))
        h = host_array(a)
        return Partial(self._native.partial(op, h, **options))


def _each(result, f):
    """``f`` applied to each field of a structured result (minmax's tuple, Statistics)."""
    if isinstance(result, tuple):
        values = (f(v) for v in result)
        return type(result)(*values) if hasattr(result, "_fields") else tuple(values)
    return f(result)


def _by_key_count(key_dtype, key_shape, value_shape):
    """The keys' count, checked: 1-D integer keys and as many 1-D values."""
    if np.dtype(key_dtype).kind not in "iu":
        raise InvalidArgument(f"reduce_by_key: keys are integers of 8 to 64 bits; got {np.dtype(key_dtype)}")
    if len(key_shape) != 1 or len(value_shape) != 1:
        raise InvalidArgument(f"reduce_by_key takes 1-D keys and values; got shapes {tuple(key_shape)} and "
                              f"{tuple(value_shape)}")
    if key_shape[0] != value_shape[0]:
        raise InvalidArgument(f"reduce_by_key: {key_shape[0]} keys and {value_shape[0]} values")
    return int(key_shape[0])
