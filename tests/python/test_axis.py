"""axis=, keepdims= and strided 2-D input: rows (axis=1), columns (axis=0) and whole strided
matrices (axis=None) through the segments and image engines, batches of N-D arrays (axis=-1),
against numpy."""

import numpy as np
import pytest

import clreduce
from references import data

SHAPES = [(1, 1), (3, 1), (5, 33), (33, 4099)]


def matrix(rng, dtype, shape, strided):
    """A (rows, cols) matrix; strided: a view into a wider, taller array (row step > row, every
    second row), starting at an offset."""
    rows, cols = shape
    if not strided:
        return data(rng, dtype, rows * cols, bits=20).reshape(rows, cols)
    base = data(rng, dtype, (2 * rows + 1) * (cols + 5), bits=20).reshape(2 * rows + 1, cols + 5)
    return base[1::2, 3:3 + cols]


@pytest.mark.parametrize("strided", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_sum_axes(shape, strided, rng):
    """Integer sums per row, per column and in all: exact, as numpy's (int64)."""
    a = matrix(rng, np.int32, shape, strided)
    assert strided == (not a.flags.c_contiguous) or shape[0] == 1
    for axis in (None, 0, 1, -1, -2):
        got = clreduce.sum(a, axis=axis)
        want = np.sum(a, axis=axis, dtype=np.int64)
        assert np.array_equal(got, want), axis
        assert np.asarray(got).dtype == np.int64
        kept = clreduce.sum(a, axis=axis, keepdims=True)
        assert kept.shape == np.sum(a, axis=axis, keepdims=True).shape
        assert np.array_equal(kept, np.sum(a, axis=axis, keepdims=True, dtype=np.int64))


# (function, numpy's, type): rows and columns of the other operations.
CASES = [
    ("min", np.min, "float32"), ("argmax", np.argmax, "uint8"), ("mean", np.mean, "int32"), ("any", np.any, "int8"),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_other_operations_per_row_or_column(case, rng):
    """Each operation along one axis (rows and columns alternate through the list: each is a
    kernel build)."""
    name, numpy_function, dtype = CASES[case]
    a = matrix(rng, dtype, (37, 129), strided=True)
    for axis in (case % 2,):
        got = getattr(clreduce, name)(a, axis=axis)
        want = numpy_function(a, axis=axis)
        if name == "mean":
            np.testing.assert_allclose(got, want, rtol=1e-14)
        else:
            assert np.array_equal(got, want), (name, axis)
        assert got.dtype == np.asarray(want).dtype or name in ("count_nonzero",), (got.dtype, want.dtype)


def test_float_rows_close_to_numpy(rng):
    """float32 row sums of a strided matrix: accumulated in float64 within the deterministic
    bound (dtype=float64 gives that value), numpy's float32 that value rounded once."""
    a = matrix(rng, np.float32, (50, 1000), strided=True)
    got = clreduce.sum(a, axis=1, dtype=np.float64)
    want = np.sum(a.astype(np.float64), axis=1)
    bound = 1001 * 2.0**-52 * np.sum(np.abs(a.astype(np.float64)), axis=1)
    assert got.dtype == np.float64 and np.all(np.abs(got - want) <= bound)
    assert np.array_equal(clreduce.sum(a, axis=1), got.astype(np.float32))
    exact = clreduce.sum(a, axis=1, dtype=np.float64, float_mode="correctly_rounded")
    import math
    assert all(exact[r] == math.fsum(a[r].astype(np.float64).tolist()) for r in range(a.shape[0]))


def test_structured_results_per_row(rng):
    """minmax and statistics per row: tuples/namedtuples of arrays."""
    a = matrix(rng, np.int16, (20, 300), strided=True)
    lo, hi = clreduce.minmax(a, axis=1)
    assert np.array_equal(lo, a.min(axis=1)) and np.array_equal(hi, a.max(axis=1)) and lo.dtype == np.int16
    s = clreduce.statistics(a, axis=0)
    assert np.array_equal(s.count, np.full(300, 20)) and np.array_equal(s.min, a.min(axis=0))
    # docs/numerics.md's bounds (u the double's unit roundoff, R = max - min), with one more
    # (n + 2)uR^2 for numpy's two-pass variance: a mean near 0 of values near 10^4 is off by
    # about u * 10^4, far more than a relative 10^-12 of it.
    n, u = a.shape[0], np.finfo(np.float64).eps / 2
    spread = a.max(axis=0).astype(np.float64) - a.min(axis=0)
    mean, var = a.mean(axis=0), a.var(axis=0)
    assert np.all(np.abs(s.mean - mean) <= 4 * (n + 2) * u * spread + 3 * u * np.abs(mean))
    assert np.all(np.abs(s.variance - var) <= 9 * (n + 2) * u * spread**2 + 3 * u * var)
    np.testing.assert_allclose(s.std, np.sqrt(s.variance), rtol=4 * u)
    kept = clreduce.minmax(a, axis=1, keepdims=True)
    assert kept[0].shape == (20, 1)


@pytest.mark.parametrize("shape", [(4, 5, 6), (2, 3, 4, 1000), (7, 0)])
def test_batches_of_last_axis(shape, rng):
    """axis=-1 of N-D arrays: one result per leading index, in the leading shape."""
    a = data(rng, np.int64, int(np.prod(shape)), bits=30).reshape(shape)
    got = clreduce.sum(a, axis=-1)
    assert got.shape == shape[:-1] and np.array_equal(got, a.sum(axis=-1))
    assert np.array_equal(clreduce.sum(a, axis=-1, keepdims=True), a.sum(axis=-1, keepdims=True))
    if a.size:
        assert clreduce.sum(a) == a.sum()  # axis=None over all of a contiguous N-D array
        lo, hi = clreduce.minmax(a, axis=-1) if shape[-1] else (None, None)
        if shape[-1]:
            assert np.array_equal(lo, a.min(axis=-1)) and lo.shape == shape[:-1]


def test_axis_errors(rng):
    """Axes numpy refuses: out of range (numpy's AxisError, a ValueError), repeated (ValueError),
    a list (TypeError)."""
    a = data(rng, np.float32, 4 * 6 * 8).reshape(4, 6, 8)
    for axis, error in ((3, ValueError), (-4, ValueError), ((0, 0), ValueError), ((1, -2), ValueError),
                        ([0, 1], TypeError)):
        with pytest.raises(error):
            np.sum(a, axis=axis)
        with pytest.raises(error):
            clreduce.sum(a, axis=axis)
    with pytest.raises(ValueError, match="out of bounds"):
        clreduce.sum(a[0], axis=2)


def aligned_empty(dtype, shape):
    """An empty array of `shape` whose data pointer is 4096-byte aligned: the OpenCL runtime
    then wraps zero bytes, where an unaligned pointer would hide it in its alignment margin."""
    base = np.zeros(3 * 4096, np.uint8)
    start = -base.ctypes.data % 4096
    a = base[start:start + 64].view(dtype)[:0].reshape(shape)
    assert a.ctypes.data % 4096 == 0
    return a


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_empty_matrices_along_an_axis(dtype):
    """Matrices with no rows or no columns along axis 0, 1, -1: as numpy (sum 0 per column, an
    empty array where there is no column); min of an empty column: a ValueError, as numpy."""
    for a in (np.arange(0, dtype=dtype).reshape(0, 5), np.zeros((0, 5), dtype), aligned_empty(dtype, (0, 5)),
              np.zeros((5, 0), dtype), aligned_empty(dtype, (5, 0)), np.zeros((2, 3, 0), dtype)):
        for axis in (0, 1, -1) if a.ndim == 2 else (-1,):
            got = clreduce.sum(a, axis=axis)
            want = np.sum(a, axis=axis, dtype=np.int64 if dtype == "int32" else np.float64)
            assert got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want), (a.shape, axis)
            kept = clreduce.sum(a, axis=axis, keepdims=True)
            assert kept.shape == np.sum(a, axis=axis, keepdims=True).shape
            assert np.array_equal(clreduce.count_nonzero(a, axis=axis), np.count_nonzero(a, axis=axis))
        with pytest.raises(ValueError):
            np.min(a, axis=0) if a.shape[0] == 0 else np.min(a, axis=-1)
        with pytest.raises(ValueError):
            clreduce.min(a, axis=0) if a.shape[0] == 0 else clreduce.min(a, axis=-1)
    values = aligned_empty(dtype, (0,))
    assert np.array_equal(clreduce.segment_sum(values, [0, 0, 0]), [0, 0])
    with pytest.raises(ValueError, match="segment 0"):
        clreduce.segment_min(values, [0, 0])


def test_axis_must_be_an_integer():
    """axis= takes integers (numpy's too), not floats or strings: a TypeError, as numpy's."""
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    for axis in (1.5, 1.0, "1"):
        with pytest.raises(TypeError):
            np.sum(a, axis=axis)
        with pytest.raises(TypeError, match="integer"):
            clreduce.sum(a, axis=axis)
    assert np.array_equal(clreduce.sum(a, axis=np.int64(1)), a.sum(axis=1))
