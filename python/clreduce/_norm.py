"""norm as numpy.linalg.norm (a Reducer method, ``self`` the reducer): vector norms along one
axis or of the flattened array, matrix norms over two axes, from the engine's norm_l1, norm_l2,
norm_inf and transforms; the result in numpy's type (float64, the element type for floats)."""

import numpy as np

from ._clreduce import Unsupported
from ._layout import normalize_axes
from ._numpy import as_input, as_type, finish, propagate_nan

_VECTOR = {1: "norm_l1", 2: "norm_l2", None: "norm_l2", np.inf: "norm_inf"}


def _vector(self, a, axes, ord, options):
    """The vector norm of ord over ``axes`` (float64), NaN where a NaN is."""
    if ord in _VECTOR:
        value = self.reduce(_VECTOR[ord], a, axes, **options)
        return propagate_nan(self, value, a, axes, np.nan) if ord == np.inf else value
    if ord == -np.inf:  # the smallest |x|
        value = self.transform_reduce(a, "x < 0 ? -x : x", "min", axes, **options)
        return propagate_nan(self, np.asarray(value, np.float64)[()], a, axes, np.nan)
    if ord == 0:  # how many are nonzero
        return np.asarray(self.reduce("count_nonzero", a, axes), np.float64)[()]
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order {ord!r} for vectors")  # numpy's words
    raise Unsupported(f"norm: ord={ord!r} of a vector (1, 2, None, 0, inf, -inf here; numpy.linalg.norm "
                      "computes the others)")


def _matrix(self, a, row, col, ord, options):
    """The matrix norm of ord over axes (row, col): the largest (smallest) column or row sum of
    |x|, or the Frobenius norm."""
    if ord in (None, "fro"):
        return self.reduce("norm_l2", a, (row, col), **options)
    if ord in (1, -1, np.inf, -np.inf):
        summed, across = (row, col) if ord in (1, -1) else (col, row)
        sums = np.asarray(self.reduce("norm_l1", a, summed, **options))
        pick = np.max if ord in (1, np.inf) else np.min
        return pick(sums, axis=across - (summed < across))[()]
    raise Unsupported(f"norm: ord={ord!r} of a matrix needs its singular values (numpy.linalg.norm computes them); "
                      "1, -1, inf, -inf, 'fro' and None here")


def norm(self, a, ord=None, axis=None, keepdims=False, *, dtype=None, float_mode=None, overflow=None):
    """Vector or matrix norm, as numpy.linalg.norm: ``axis`` None (the flattened array for
    ord=None, else a vector's or a matrix's norm by ``a``'s dimensions), an integer (vector
    norms: ord 1, 2/None, inf, -inf, 0) or two axes (matrix norms: ord 1, -1, inf, -inf,
    'fro'/None; 2, -2 and 'nuc' need singular values: Unsupported). float64, the element type
    for floats (computed in float64, rounded once); NaN where a NaN is."""
    a = as_input(a)
    shape = tuple(a.shape)
    ndim = len(shape)
    element = np.dtype(a.dtype)
    want = element if element.kind == "f" else np.dtype(np.float64)
    options = {"dtype": dtype, "float_mode": float_mode, "overflow": overflow}
    if axis is None and ord is not None and ndim not in (1, 2):
        raise ValueError("Improper number of dimensions to norm.")
    if axis is None:
        axes = tuple(range(ndim))
    else:
        axes = normalize_axes(axis, ndim)
        if isinstance(axis, tuple):  # the order of two axes matters (rows, columns)
            axes = tuple(d % ndim for d in axis)
    if len(axes) == 2 and not (axis is None and ord is None):
        value = _matrix(self, a, axes[0], axes[1], ord, options)
    elif len(axes) <= 1 or (axis is None and ord is None):
        value = _vector(self, a, axes, ord, options)
    else:
        raise ValueError("Improper number of dimensions to norm.")
    return finish(as_type(value, want, None), shape, tuple(sorted(axes)), keepdims, None)


METHODS = [norm]
