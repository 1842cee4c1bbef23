"""Segmented calls with CSR offsets (segment_sum and friends, segment_reduce) against numpy per
segment: empty segments, one segment, many short ones, and the errors."""

import numpy as np
import pytest

import clreduce
from references import data


def random_offsets(rng, n, segments, empty_share=0.2):
    cuts = np.sort(rng.integers(0, n + 1, size=segments - 1))
    offsets = np.concatenate([[0], cuts, [n]]).astype(np.int64)
    return offsets


def per_segment(function, values, offsets):
    return [function(values[offsets[s]:offsets[s + 1]]) for s in range(len(offsets) - 1)]


@pytest.mark.parametrize("segments", [1, 1000])
def test_segment_sum_matches_numpy(segments, rng):
    values = data(rng, np.int32, 50_000, bits=30)
    offsets = random_offsets(rng, values.size, segments)
    got = clreduce.segment_sum(values, offsets)
    want = per_segment(lambda v: v.sum(dtype=np.int64), values, offsets)
    assert got.dtype == np.int64 and np.array_equal(got, want)
    # numpy.add.reduceat on the non-empty segments' starts gives the same
    starts = offsets[:-1][np.diff(offsets) > 0]
    if starts.size:
        assert np.array_equal(got[np.diff(offsets) > 0], np.add.reduceat(values.astype(np.int64), starts))


def test_segment_friends(rng):
    """min, argmin, argminmax and minmax per segment (no empty segment: they have no empty value), against
    numpy."""
    values = data(rng, np.float32, 30_000)
    offsets = np.unique(np.concatenate([[0, values.size], rng.integers(1, values.size, 200)]))
    assert np.array_equal(clreduce.segment_min(values, offsets), per_segment(np.min, values, offsets))
    assert np.array_equal(clreduce.segment_argmin(values, offsets), per_segment(np.argmin, values, offsets))
    first_lo, first_hi = clreduce.segment_argminmax(values, offsets)
    assert np.array_equal(first_lo, per_segment(np.argmin, values, offsets))
    assert np.array_equal(first_hi, per_segment(np.argmax, values, offsets))
    lo, hi = clreduce.segment_minmax(values, offsets)
    assert lo.dtype == np.float32 and np.array_equal(hi, per_segment(np.max, values, offsets))


def test_empty_segments(rng):
    """An empty segment gives the empty value (sum 0, any False) or, where there is none, a
    ValueError naming the segment."""
    values = data(rng, np.uint8, 100)
    offsets = [0, 10, 10, 100]
    assert np.array_equal(clreduce.segment_sum(values, offsets),
                          [values[:10].sum(), 0, values[10:].sum()])
    assert clreduce.segment_any(values, offsets).dtype == np.bool_
    with pytest.raises(ValueError, match="segment 1"):
        clreduce.segment_min(values, offsets)


def test_segment_transform_and_nansum(rng):
    """transform_reduce per segment (host data copied to the device for it)."""
    values = data(rng, np.float64, 5000)
    values[::7] = np.nan
    offsets = [0, 1000, 1000, 4999, 5000]
    got = clreduce.segment_reduce("sum", values, offsets)
    assert np.isnan(got[0]) and got[1] == 0
    r = clreduce.default_reducer()
    t = r._call(None, ("isnan(x) ? 0 : x", "sum"), values, None,
                {"accumulator": None, "float_mode": "correctly_rounded", "overflow": None}, False, offsets=offsets)
    import math
    want = [math.fsum(v for v in values[offsets[s]:offsets[s + 1]].tolist() if not math.isnan(v)) for s in range(4)]
    assert list(t) == want


def test_offset_errors():
    values = np.arange(10, dtype=np.int32)
    with pytest.raises(ValueError, match="must ascend"):
        clreduce.segment_sum(values, [0, 5, 3, 10])
    with pytest.raises(ValueError):
        clreduce.segment_sum(values, [0, 11])
    with pytest.raises(ValueError, match=">= 0"):
        clreduce.segment_sum(values, [-1, 10])
    with pytest.raises(ValueError, match="integers"):
        clreduce.segment_sum(values, [0.0, 10.0])
    with pytest.raises(ValueError):
        clreduce.segment_sum(values, [])
    with pytest.raises(ValueError, match="1-D"):
        clreduce.segment_sum(values.reshape(2, 5), [0, 10])


def test_segments_of_device_arrays(rng, cl_queue):
    """CSR offsets (host data) over a PyOpenCL array's values, reduced in place on the array's
    queue, from a view's offset too; the transform form; a 2-D device array is refused."""
    import pyopencl.array as cla
    values = data(rng, np.int32, 40_000, bits=30)
    offsets = random_offsets(rng, values.size - 13, 300)
    d = cla.to_device(cl_queue, values)
    r = clreduce.Reducer(queue=cl_queue)
    got = r.segment_reduce("sum", d[13:], offsets)
    assert got.dtype == np.int64
    assert np.array_equal(got, per_segment(lambda v: v.sum(dtype=np.int64), values[13:], offsets))
    nonempty = np.unique(np.concatenate([[0, values.size], rng.integers(1, values.size, 100)]))
    assert np.array_equal(r.segment_reduce("argmax", d, nonempty), per_segment(np.argmax, values, nonempty))
    doubled = r._call(None, ("2 * x - 1", "sum"), d, None, {"accumulator": "int64", "float_mode": None, "overflow": None},
                      False, offsets=nonempty)
    assert list(doubled) == per_segment(lambda v: int((2 * v.astype(np.int64) - 1).sum()), values, nonempty)
    with pytest.raises(ValueError, match="1-D"):
        r.segment_reduce("sum", cla.to_device(cl_queue, values.reshape(200, 200)), [0, 40_000])
    with pytest.raises(ValueError, match="past the values' end"):
        r.segment_reduce("sum", d, [0, 40_001])
