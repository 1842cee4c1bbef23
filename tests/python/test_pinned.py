"""Reducer.pinned_empty: an array in pinned host memory of the reducer's context, reduced like
any array (a GPU takes it in one write; the C++ tests [pinned] check that path), alive as long
as any view of it."""

import gc

import numpy as np
import pytest

import clreduce


def test_pinned_array_reduces_like_any_array(rng):
    r = clreduce.Reducer()
    a = r.pinned_empty((300, 7), np.int32)
    assert a.shape == (300, 7) and a.dtype == np.int32 and a.flags.c_contiguous
    a[:] = rng.integers(-1000, 1000, size=a.shape, dtype=np.int32)
    assert r.sum(a) == int(a.sum(dtype=np.int64))
    assert np.array_equal(r.max(a, axis=1), a.max(axis=1))
    f = r.pinned_empty(5000, "float64")
    f[:] = rng.standard_normal(5000)
    assert r.sum(f, float_mode="correctly_rounded") == pytest.approx(np.sum(f), rel=1e-12)


def test_pinned_memory_lives_with_its_views(rng):
    r = clreduce.Reducer()
    a = r.pinned_empty(4096, np.float32)
    a[:] = rng.standard_normal(4096).astype(np.float32)
    tail = a[1000:]
    want = float(np.sum(tail, dtype=np.float64))
    del a, r
    gc.collect()
    assert float(np.sum(tail, dtype=np.float64)) == want  # the memory is still there
    assert clreduce.Reducer().sum(tail) == pytest.approx(want, rel=1e-5)


def test_empty_pinned_array_is_refused():
    with pytest.raises(clreduce.InvalidArgument, match="bytes must be positive"):
        clreduce.Reducer().pinned_empty((0, 3))
