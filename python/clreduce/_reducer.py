"""clreduce.Reducer: numpy-shaped calls on one OpenCL device, over the native core call."""

import numpy as np

from . import _clreduce
from ._clreduce import InvalidArgument
from ._inputs import (accumulator_name, device_view, element_dtype, form_for, host_array, host_layout,
                      is_device_input, offsets_array)
from ._masked import is_masked, reduce_masked
from ._results import cast, keep_dims

_NORMS = {1: "norm_l1", 2: "norm_l2", None: "norm_l2", np.inf: "norm_inf", float("inf"): "norm_inf"}
_FLOAT_MODES = ("deterministic", "atomic", "compensated", "correctly_rounded")
_SEGMENTED = ("rows", "columns", "batch", "offsets")
# Element types a float32 cannot hold every value of: a float32 statistics state rounds their
# extremes.
_WIDER_THAN_FLOAT32 = ("int32", "uint32", "float64")


def _options(dtype, float_mode, overflow):
    if float_mode is not None and float_mode not in _FLOAT_MODES:
        raise ValueError(f"float_mode must be one of {', '.join(_FLOAT_MODES)}; got {float_mode!r}")
    if overflow is not None and overflow not in ("check", "wrap"):
        raise ValueError(f"overflow must be 'check' or 'wrap'; got {overflow!r}")
    return {"accumulator": accumulator_name(dtype), "float_mode": float_mode, "overflow": overflow}


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
        """Operation ``op`` (a name: "sum", "min", ..., see clreduce.operations()) over ``a``.

        ``a``: a numpy array (C-contiguous, or 2-D with strided rows), a PyOpenCL ``Array`` or
        a :class:`clreduce.DeviceArray` on this reducer's context. ``axis``: None (all), 0 or 1
        for 2-D arrays, -1 for N-D arrays. ``dtype``: the accumulator; ``float_mode``:
        "deterministic", "atomic", "compensated" or "correctly_rounded"; ``overflow``: "check"
        (raise clreduce.Overflow) or "wrap". Returns numpy scalars, arrays per row/batch. A
        numpy.ma masked array is filled (a copy) so that masked elements count for nothing, for
        the operations that allow it (sum, product, min, max, mean, ...); others raise TypeError.
        """
        if is_masked(a):
            return reduce_masked(self, op, a, axis, dtype, float_mode, overflow, keepdims)
        return self._call(op, None, a, axis, _options(dtype, float_mode, overflow), keepdims)

    def _call(self, op, transform, a, axis, options, keepdims, offsets=None):
        if is_device_input(a):
            queue, buffer, dt, offset, shape = device_view(a)
            element = element_dtype(dt)
            if offsets is not None:  # the values stay on the device; the offsets are host data
                form, removed = "offsets", 0
                offsets = offsets_array(offsets)
            else:
                form, removed = form_for(shape, axis, True, True)
                if form == "image":
                    form = "flat"
            native_shape = list(shape) if shape else [1]
            if transform is None:
                raw = self._native.reduce_buffer(op, buffer.int_ptr, element, offset, native_shape, form,
                                                 offsets=offsets, **options)
            else:
                raw = self._native.transform_reduce_buffer(transform[0], transform[1], buffer.int_ptr, element,
                                                           offset, native_shape, form, offsets=offsets, **options)
            ndim = len(shape)
        else:
            h = host_array(a)
            element = element_dtype(h.dtype)
            if offsets is not None:
                form, removed = "offsets", 0
                offsets = offsets_array(offsets)
            else:
                form, removed = host_layout(h, axis)
            groups = _group_count(form, h.shape, offsets)
            if h.size == 0 and groups and form in _SEGMENTED:
                raw = None  # every group is empty: see _empty_groups
            elif transform is None:
                raw = self._native.reduce(op, h, form, offsets=offsets, **options)
            else:
                raw = self._native.transform_reduce(transform[0], transform[1], h, form, offsets=offsets, **options)
            ndim = h.ndim
            if a is not h and getattr(a, "dtype", None) == np.bool_ and op in ("min", "max", "minmax"):
                element = "bool"
        segmented = form in _SEGMENTED
        if raw is None:
            result = self._empty_groups(op, transform, h.dtype, options, groups)
        else:
            result = cast("transform" if transform else op, raw, element, options["accumulator"], segmented,
                          wrap=options["overflow"] == "wrap")
        if form == "batch":
            result = _reshape(result, shape[:-1] if is_device_input(a) else h.shape[:-1])
        if keepdims and form != "offsets":
            result = keep_dims(result, ndim, removed)
        if op == "statistics" and self._rounds_extremes(element, options["accumulator"]):
            # A float32 statistics state rounds the extremes of these types: they come from a
            # minmax pass instead, exact in the element type (docs/python.md).
            lo, hi = self._call("minmax", None, a, axis, _options(None, None, None), keepdims, offsets)
            result = result._replace(min=lo, max=hi)
        return result

    def _rounds_extremes(self, element, accumulator):
        """Whether statistics of `element` data keeps its extremes in a float32 that cannot hold
        them: dtype=float32, or the default accumulator of a device without float64."""
        if element not in _WIDER_THAN_FLOAT32:
            return False
        return accumulator == "float32" or (accumulator is None and not self._native.device["has_fp64"])

    def _empty_groups(self, op, transform, dtype, options, groups):
        """The values of `groups` groups of no element (host data of no element, grouped): the
        call's value over no element for each, or InvalidArgument where it has none. (The core
        would wrap the zero bytes of host data in an OpenCL buffer, which OpenCL refuses.)"""
        try:
            value = self._call(op, transform, np.zeros(0, dtype), None, options, False)
        except InvalidArgument:
            raise InvalidArgument(f"{transform[1] if transform else op} of segment 0, which is empty, "
                                  "is undefined") from None
        return np.full(groups, value)

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


def _group_count(form, shape, offsets):
    """How many results a segmented call of `form` over host data of `shape` gives."""
    if form == "rows":
        return shape[0]
    if form == "columns":
        return shape[1]
    if form == "batch":
        return int(np.prod(shape[:-1], dtype=np.int64))
    if form == "offsets":
        return max(0, len(offsets) - 1)
    return 1  # flat, image: one


def _reshape(result, shape):
    if isinstance(result, tuple):
        return type(result)(*(np.reshape(v, shape) for v in result)) if hasattr(result, "_fields") else tuple(
            np.reshape(v, shape) for v in result)
    return np.reshape(result, shape)
