"""numpy arrays at any byte address: a view at a byte offset (``raw[1:].view(np.int64)``,
``np.frombuffer(..., offset=1)``) is legal numpy, and every operation must give what the same
values give from an aligned copy, at every misalignment 1 ... itemsize - 1, in the 1-D, row
(``axis=1``) and column (``axis=0``) forms."""

import numpy as np
import pytest

import clreduce

DTYPES = [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]
OPERATIONS = ["sum", "min", "max", "argmin", "argmax", "count_nonzero", "mean"]


def misaligned(values, m):
    """`values` copied to byte `m` past a 64-byte boundary of a fresh block."""
    raw = np.zeros(values.nbytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + m
    out = raw[start:start + values.nbytes].view(values.dtype).reshape(values.shape)
    out[...] = values
    assert out.ctypes.data % 64 == m
    return out


def values_of(rng, dtype, shape):
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-1000, 1000, shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_misalignment_gives_the_aligned_result(rng, dtype):
    for n in (1, 1000, 300001):
        values = values_of(rng, dtype, n)
        for m in range(1, np.dtype(dtype).itemsize):
            data = misaligned(values, m)
            for name in OPERATIONS:
                op = getattr(clreduce, name)
                assert np.array_equal(op(data), op(values)), (name, n, m)


@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_rows_and_columns_at_every_misalignment(rng, dtype):
    values = values_of(rng, dtype, (37, 53))
    for m in range(1, np.dtype(dtype).itemsize):
        data = misaligned(values, m)
        for axis in (0, 1):
            assert np.array_equal(clreduce.sum(data, axis=axis), clreduce.sum(values, axis=axis)), (axis, m)
            assert np.array_equal(clreduce.max(data, axis=axis), clreduce.max(values, axis=axis)), (axis, m)


def test_the_issues_cases():
    raw = np.zeros(8001, np.uint8)
    a = raw[1:].view(np.int64)
    a[:] = 1
    assert clreduce.sum(a) == 1000
    big = np.frombuffer(b"\0" + np.arange(6e5).tobytes(), np.float64, offset=1)
    assert clreduce.max(big) == 599999.0
    ints = misaligned(np.ones(2 * 10**6, np.int32), 1)
    assert clreduce.sum(ints) == 2 * 10**6
