"""reduce_by_key and the <op>_by_key calls: runs of equal consecutive keys against numpy per run
and against segment_reduce over the runs (bit for bit), numpy and PyOpenCL inputs, and the
errors."""

import numpy as np
import pytest

import clreduce
from references import data


def random_runs(rng, n, key_dtype):
    """Keys in runs of random lengths (1 to 40, a few of 400), consecutive runs differing (in
    the top bit for every other one): (keys, the runs' CSR offsets)."""
    bits = np.dtype(key_dtype).itemsize * 8
    lengths = np.where(rng.random(n) < 0.1, rng.integers(100, 401, n), rng.integers(1, 41, n))
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    offsets = np.append(offsets[offsets < n], n)
    runs = offsets.size - 1
    steps = np.where(np.arange(runs) % 2 == 1, np.uint64(1 << (bits - 1)),
                     rng.integers(1, 100, runs).astype(np.uint64))
    run_keys = (np.cumsum(steps, dtype=np.uint64) & np.uint64((1 << bits) - 1)).astype(f"u{bits // 8}")
    run_keys = run_keys.view(key_dtype)
    return np.repeat(run_keys, np.diff(offsets)), offsets


def assert_same(got, want):
    """The same values, bit for bit (NaN as NaN), through tuples and Statistics."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    else:
        assert np.asarray(got).dtype == np.asarray(want).dtype
        assert np.array_equal(got, want, equal_nan=np.asarray(want).dtype.kind == "f")


@pytest.mark.parametrize("key_dtype", [np.int8, np.uint16, np.int32, np.int64])
def test_sum_by_key_matches_numpy(key_dtype, rng):
    keys, offsets = random_runs(rng, 20_000, key_dtype)
    values = data(rng, np.int32, keys.size, bits=30)
    got_keys, sums = clreduce.sum_by_key(keys, values)
    assert got_keys.dtype == keys.dtype and np.array_equal(got_keys, keys[offsets[:-1]])
    assert sums.dtype == np.int64
    assert np.array_equal(sums, np.add.reduceat(values.astype(np.int64), offsets[:-1]))


@pytest.mark.parametrize("op", [op for op in clreduce.operations() if not op.startswith("norm_")])
def test_every_operation_by_key_is_segment_reduce_over_the_runs(op, rng):
    keys, offsets = random_runs(rng, 5_000, np.int16)
    values = data(rng, np.int32 if op.startswith("bit_") else np.float32, keys.size)
    got_keys, got = clreduce.reduce_by_key(op, keys, values)
    assert np.array_equal(got_keys, keys[offsets[:-1]])
    assert_same(got, clreduce.segment_reduce(op, values, offsets))
    named_keys, named = getattr(clreduce, op + "_by_key")(keys, values)
    assert np.array_equal(named_keys, got_keys)
    assert_same(named, got)


def test_strided_inputs_and_options(rng):
    """Views that are not contiguous are copied; dtype= and overflow= reach the call."""
    keys, offsets = random_runs(rng, 4_000, np.uint8)
    values = data(rng, np.int8, 2 * keys.size)[::2]
    wide_keys = np.repeat(keys, 2)[::2]
    got_keys, sums = clreduce.sum_by_key(wide_keys, values, dtype=np.int32, overflow="wrap")
    assert np.array_equal(got_keys, keys[offsets[:-1]])
    assert sums.dtype == np.int32
    assert np.array_equal(sums, np.add.reduceat(values.astype(np.int32), offsets[:-1]))


def test_no_keys_no_runs():
    got_keys, sums = clreduce.sum_by_key(np.zeros(0, np.int32), np.zeros(0, np.float64))
    assert got_keys.size == 0 and got_keys.dtype == np.int32 and sums.size == 0


def test_errors():
    keys = np.arange(10, dtype=np.int32)
    with pytest.raises(clreduce.InvalidArgument, match="keys are integers"):
        clreduce.sum_by_key(keys.astype(np.float32), keys)
    with pytest.raises(clreduce.InvalidArgument, match="10 keys and 9 values"):
        clreduce.sum_by_key(keys, keys[:9])
    with pytest.raises(clreduce.InvalidArgument, match="1-D"):
        clreduce.sum_by_key(keys.reshape(2, 5), keys.reshape(2, 5))
    with pytest.raises(clreduce.InvalidArgument, match="unknown operation|operation"):
        clreduce.reduce_by_key("median", keys, keys)


def test_pyopencl_arrays_in_place(cl_queue, rng):
    cla = pytest.importorskip("pyopencl.array")
    keys, offsets = random_runs(rng, 30_000, np.int32)
    values = data(rng, np.uint16, keys.size + 7)
    d_keys = cla.to_device(cl_queue, np.concatenate([np.zeros(3, keys.dtype), keys]))[3:]
    d_values = cla.to_device(cl_queue, values)[7:]
    got_keys, maxima = clreduce.max_by_key(d_keys, d_values)
    assert np.array_equal(got_keys, keys[offsets[:-1]])
    assert np.array_equal(maxima, np.maximum.reduceat(values[7:], offsets[:-1]))
    with pytest.raises(clreduce.InvalidArgument, match="both"):
        clreduce.sum_by_key(d_keys, values[7:])
