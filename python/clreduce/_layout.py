"""Where the elements of each group of a reduction lie: numpy's ``axis`` (None, an int or a
tuple; negative counts from the end) over an array of any strides, as one of the engine's forms
over a view of the array (flat; image: a whole matrix of strided rows; rows: groups of
consecutive elements a row step apart; columns: groups across rows), or over a C-ordered copy
with the reduced axes moved last where no form reads the view (docs/python.md, "Inputs")."""

import math
import operator
from typing import NamedTuple

import numpy as np
from numpy.lib.stride_tricks import as_strided

_AxisError = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError


def normalize_axes(axis, ndim):
    """numpy's ``axis`` as a sorted tuple of distinct axes in 0..ndim-1 (None: every axis). An
    axis is an integer (axis=1.5 or "1" is a TypeError, a list too, as in numpy); out of range:
    numpy's AxisError; repeated: ValueError."""
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    axes = []
    for item in items:
        i = operator.index(item)
        if not -ndim <= i < ndim:
            raise _AxisError(i, ndim)
        i = i + ndim if i < 0 else i
        if i in axes:
            raise ValueError(f"duplicate value in 'axis': {axis!r}")
        axes.append(i)
    return tuple(sorted(axes))


class Layout(NamedTuple):
    """How the engine reads one call. ``array``: what it reads (a view of the caller's array or
    a C-ordered copy); ``form``: flat, image, rows or columns ("empty": no element, nothing is
    read); ``engine_shape``: the shape of the engine's results (its kept axes in the order it
    walks them), ``order``: the transpose from that to numpy's order of those axes, ``flips``:
    result axes to reverse (kept axes of negative stride read forwards); ``out_shape``: numpy's
    result shape (without keepdims); ``copied``: whether ``array`` is a copy."""
    array: object
    form: str
    engine_shape: tuple
    order: tuple
    flips: tuple
    out_shape: tuple
    copied: bool

    def arrange(self, values):
        """The engine's values (a scalar, or one value per group) in numpy's result shape."""
        if self.form == "flat" and not self.out_shape and not isinstance(values, np.ndarray):
            return values  # one scalar already
        v = np.asarray(values)
        if self.form in ("rows", "columns"):
            v = v.reshape(self.engine_shape).transpose(self.order)
            for axis in self.flips:
                v = np.flip(v, axis)
        v = v.reshape(self.out_shape)
        return v[()] if v.ndim == 0 else np.ascontiguousarray(v)


def _collapse(dims, shape, strides):
    """The stride of ``dims`` (axes in the order walked, outer first) read as one axis, or None
    where they are not evenly spaced."""
    for outer, inner in zip(dims, dims[1:]):
        if strides[outer] != strides[inner] * shape[inner]:
            return None
    return strides[dims[-1]]


def _size(dims, shape):
    return math.prod(shape[d] for d in dims)


def plan(a, axes, ordered, image_ok=True, may_copy=True):
    """The Layout of a reduction over ``axes`` (normalize_axes') of numpy array ``a``.
    ``ordered``: the operation's value depends on the order of a group's elements (argmin's
    first index), so reduced axes are walked in C order, never reversed. ``image_ok``: the
    operation runs in the image form. ``may_copy``: False for device data (None is returned
    where a copy would be needed)."""
    shape, ndim, item = a.shape, a.ndim, a.itemsize
    kept = [d for d in range(ndim) if d not in axes]
    out_shape = tuple(shape[d] for d in kept)
    if a.size == 0:  # the value over no element (flat), or per group, as the caller gives it
        return Layout(a.reshape(0), "flat" if not kept else "empty", (), (), (), out_shape, False)
    if a.flags.c_contiguous:  # the common cases, without stride arithmetic
        if not kept:
            return Layout(a, "flat", (), (), (), out_shape, False)
        count = len(kept)
        if tuple(kept) == tuple(range(count)):  # reduced axes last: rows
            groups = math.prod(out_shape)
            return Layout(a.reshape(groups, -1), "rows", (groups,), (0,), (), out_shape, False)
        if tuple(axes) == tuple(range(len(axes))):  # reduced axes first: columns
            groups = math.prod(out_shape)
            return Layout(a.reshape(-1, groups), "columns", (groups,), (0,), (), out_shape, False)
    big = [d for d in range(ndim) if shape[d] > 1]  # axes of one element change nothing
    view, flipped = a, []
    for d in big:
        if a.strides[d] < 0:
            if d in axes and ordered:
                return _copy(a, axes, kept, out_shape) if may_copy else None
            view = np.flip(view, d)
            if d not in axes:
                flipped.append(d)
    strides = view.strides
    if any(strides[d] == 0 or strides[d] % item for d in big):  # broadcast or unaligned steps
        return _copy(a, axes, kept, out_shape) if may_copy else None
    walk = sorted(big, key=lambda d: -strides[d])  # outermost first; stable among equals
    red = [d for d in walk if d in axes]
    kp = [d for d in walk if d not in axes]
    if ordered and red != sorted(red):
        return _copy(a, axes, kept, out_shape) if may_copy else None
    steps = [s // item for s in strides]
    layout = None
    if not kp:
        layout = _whole(view, red, shape, steps, item, image_ok, out_shape)
    elif walk[len(kp):] == red:  # reduced axes innermost: rows
        layout = _grouped(view, "rows", kp, red, shape, steps, item, out_shape, kept, flipped)
    elif walk[:len(red)] == red:  # reduced axes outermost: columns
        layout = _grouped(view, "columns", red, kp, shape, steps, item, out_shape, kept, flipped)
    if layout is None and may_copy:
        return _copy(a, axes, kept, out_shape)
    return layout


def _whole(view, red, shape, steps, item, image_ok, out_shape):
    """Every axis reduced: flat where the elements are evenly spaced one apart, else the image
    form (rows of contiguous elements, a row step apart), else None (a copy)."""
    if not red:  # one element
        return Layout(view.reshape(1), "flat", (), (), (), out_shape, False)
    if _collapse(red, shape, steps) == 1:
        return Layout(as_strided(view, (_size(red, shape),), (item,)), "flat", (), (), (), out_shape, False)
    if not image_ok:
        return None
    # The longest rows first. Not rows of one element (a[::2]): the engine reads those several
    # times slower than a contiguous copy of them costs.
    for split in range(1, len(red)):
        outer, inner = red[:split], red[split:]
        if _collapse(inner, shape, steps) != 1:
            continue
        step = _collapse(outer, shape, steps)
        cols = _size(inner, shape)
        if step is not None and step >= cols:
            matrix = as_strided(view, (_size(outer, shape), cols), (step * item, item))
            return Layout(matrix, "image", (), (), (), out_shape, False)
    return None


def _grouped(view, form, outer, inner, shape, steps, item, out_shape, kept, flipped):
    """Groups as rows (``outer`` kept, ``inner`` reduced) or columns (``outer`` reduced,
    ``inner`` kept) of a matrix of contiguous rows a row step apart."""
    inner_step = _collapse(inner, shape, steps) if inner else 1
    outer_step = _collapse(outer, shape, steps)
    cols = _size(inner, shape) if inner else 1
    if inner_step != 1 or outer_step is None or outer_step < cols:
        return None
    matrix = as_strided(view, (_size(outer, shape), cols), (outer_step * item, item))
    kp = outer if form == "rows" else inner  # the kept axes, in the order the engine walks them
    numpy_order = sorted(kp)
    order = tuple(kp.index(d) for d in numpy_order)
    flips = tuple(numpy_order.index(d) for d in flipped)
    return Layout(matrix, form, tuple(shape[d] for d in kp), order, flips, out_shape, False)


def _copy(a, axes, kept, out_shape):
    """A C-ordered copy with the reduced axes last (in their order): one row per result."""
    moved = np.ascontiguousarray(np.transpose(a, kept + list(axes)))
    groups = _size(kept, a.shape)
    if not kept:
        return Layout(moved.reshape(-1), "flat", (), (), (), out_shape, True)
    return Layout(moved.reshape(groups, -1), "rows", (groups,), (0,), (), out_shape, True)


def device_plan(shape, dtype, axes, ordered):
    """The Layout of a reduction over C-contiguous device data of ``shape``: flat, rows or
    columns, else None (the reduced axes are neither the innermost nor the outermost ones)."""
    dtype = np.dtype(dtype)
    if int(np.prod(shape, dtype=np.int64)) == 0:
        return plan(np.zeros(shape, dtype), axes, ordered)
    strides, step = [], dtype.itemsize
    for n in reversed(shape):
        strides.insert(0, step)
        step *= n
    # A stand-in with the data's shape and strides over one element: only its layout is read.
    stand_in = as_strided(np.zeros(1, dtype), tuple(shape), tuple(strides))
    return plan(stand_in, axes, ordered, image_ok=False, may_copy=False)
