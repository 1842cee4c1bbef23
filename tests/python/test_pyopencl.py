"""PyOpenCL arrays and buffers reduced in place on the user's own context and queue (no copy):
offsets into a buffer, 2-D arrays per row, Reducer(queue=...), foreign contexts refused."""

import numpy as np
import pytest

import clreduce
from references import data

cl = pytest.importorskip("pyopencl")
cla = pytest.importorskip("pyopencl.array")


def test_array_is_reduced_on_its_queue(cl_queue, rng):
    a = data(rng, np.int32, 300_001)
    d = cla.to_device(cl_queue, a)
    assert clreduce.sum(d) == a.sum(dtype=np.int64)
    r = clreduce.reducer_for(d)
    assert r._native.queue_handle == cl_queue.int_ptr  # the user's queue, not a new one
    assert r._native.context_handle == cl_queue.context.int_ptr
    assert clreduce.reducer_for(d) is r  # one reducer per queue
    built = r.counters["buffers_allocated"]
    clreduce.sum(d)
    assert r.counters["buffers_allocated"] == built  # nothing allocated on a repeated call


def test_views_with_offsets(cl_queue, rng):
    """A slice of a PyOpenCL array (an offset into its buffer) and clreduce.buffer views."""
    a = data(rng, np.float64, 10_000)
    d = cla.to_device(cl_queue, a)
    assert clreduce.max(d[123:9000]) == a[123:9000].max()
    assert clreduce.argmax(d[123:9000]) == np.argmax(a[123:9000])
    view = clreduce.buffer(cl_queue, d.base_data, np.float64, shape=4000, offset=77)
    assert clreduce.max(view) == a[77:4077].max()
    whole = clreduce.buffer(cl_queue, d.base_data, np.float64)
    assert whole.shape == (10_000,) and clreduce.min(whole) == a.min()


def test_2d_arrays_per_row_and_column(cl_queue, rng):
    a = data(rng, np.int16, 64 * 70).reshape(64, 70)
    d = cla.to_device(cl_queue, a)
    assert np.array_equal(clreduce.sum(d, axis=1), a.sum(axis=1, dtype=np.int64))
    assert np.array_equal(clreduce.sum(d, axis=0), a.sum(axis=0, dtype=np.int64))
    assert clreduce.sum(d) == a.sum(dtype=np.int64)


def test_queue_order_is_kept(cl_queue, rng):
    """A write enqueued before the call on the same queue is seen by it (no host wait)."""
    a = data(rng, np.int32, 100_000)
    d = cla.zeros(cl_queue, a.size, np.int32)
    d.set(a, async_=True)
    assert clreduce.sum(d) == a.sum(dtype=np.int64)


def test_reducer_from_queue_and_foreign_context(cl_queue, rng):
    a = data(rng, np.int32, 5000)
    r = clreduce.Reducer(queue=cl_queue)
    assert r.sum(cla.to_device(cl_queue, a)) == a.sum(dtype=np.int64)
    other_context = cl.Context([cl_queue.device])  # kept: the queue alone may not keep it alive
    other = cl.CommandQueue(other_context)
    foreign = cla.to_device(other, a)
    with pytest.raises(ValueError, match="another OpenCL context"):
        r.sum(foreign)
    with pytest.raises(ValueError, match="another OpenCL context"):
        clreduce.default_reducer().sum(foreign)
    with pytest.raises(ValueError, match="device= or queue="):
        clreduce.Reducer(device="0", queue=cl_queue)


def test_device_input_errors(cl_queue):
    d = cla.to_device(cl_queue, np.arange(100, dtype=np.float32).reshape(10, 10))
    with pytest.raises(ValueError, match="C-contiguous"):
        clreduce.sum(d[:, ::2])
    with pytest.raises(ValueError, match="past|end|exceeds|beyond|size"):
        clreduce.sum(clreduce.buffer(cl_queue, d.base_data, np.float32, shape=1000))
    with pytest.raises(ValueError, match="1-D"):
        clreduce.segment_sum(d, [0, 100])
    assert list(clreduce.segment_sum(d.reshape(100), [0, 40, 100])) == [780.0, 4170.0]
