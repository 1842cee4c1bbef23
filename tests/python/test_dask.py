"""clreduce.dask on a dask.distributed LocalCluster of worker processes (started and stopped
here): exact references (math.fsum for float sums, Python integers, numpy's argmin/argmax),
the same bits for every chunking, tree shape and worker count, the Partial serialiser, and a
worker killed mid-reduction."""

import math
import os
import pickle
import signal
import sys
import time

import cloudpickle
import dask
import dask.array as da
import numpy as np
import pytest
from distributed import Client, LocalCluster
from distributed.protocol import deserialize, serialize

import clreduce
import clreduce.dask as cd

# The workers cannot import this file (it is not on their path): its functions travel by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

WORKERS = 3
TIMEOUT_S = 120  # for any one result; a hung cluster fails the test instead of hanging CTest


@pytest.fixture(scope="module")
def client():
    """Three worker processes of one thread each, their own Python interpreters (the tests'
    environment, so the same clreduce and device), stopped at the end of the module."""
    with LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster, timeout=TIMEOUT_S) as c:
        c.wait_for_workers(WORKERS, timeout=TIMEOUT_S)
        yield c


def on_cluster(client, lazy):
    return client.compute(lazy).result(timeout=TIMEOUT_S)


def on_one_thread(lazy):
    with dask.config.set(scheduler="synchronous"):
        return lazy.compute()


CHUNKINGS = [None, 1000, 4999, 333]  # None: one chunk


def chunked(a, chunks):
    return da.from_array(a, chunks=a.shape if chunks is None else chunks)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_correctly_rounded_sum_same_bits_for_every_chunking_tree_and_worker_count(client, rng, dtype):
    # Values over many decades and both signs, so that the order of additions changes a naive
    # float sum's last bits; math.fsum of the values is the correctly rounded sum.
    n = 40000
    a = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n)).astype(dtype)
    exact = np.float64(math.fsum(a.astype(np.float64)))
    for chunks in CHUNKINGS:
        for split_every in (2, 3, 16):
            lazy = cd.sum(chunked(a, chunks), float_mode="correctly_rounded", split_every=split_every)
            got = on_cluster(client, lazy)
            assert type(got) is np.float64
            assert got.tobytes() == exact.tobytes(), (chunks, split_every, got, exact)
    one = on_one_thread(cd.sum(chunked(a, 777), float_mode="correctly_rounded"))
    assert one.tobytes() == exact.tobytes()


def test_integer_sums_exact_where_chunk_sums_leave_int64(client):
    # Chunks of four summing to ±2^64: no int64 holds them, the whole (2^62 · 1) does; the
    # Partials merge exactly (dask.array.sum's int64 chunk sums would wrap).
    big = np.int64(2**62)
    a = np.array([big] * 4 * 25 + [-big] * 4 * 25 + [big], dtype=np.int64)
    for chunks in (4, 8, 101, None):
        assert on_cluster(client, cd.sum(chunked(a, chunks), split_every=2)) == 2**62
    with pytest.raises(clreduce.Overflow):
        on_cluster(client, cd.sum(chunked(np.full(8, big), 4)))  # 2^65 leaves int64: refused


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint32, np.int64, np.uint64])
def test_integer_sums_exact_for_every_axis(client, rng, dtype):
    info = np.iinfo(dtype)
    bound = min(info.max // 4, 2**62 // 12000)  # 64-bit sums that fit the result type
    a = rng.integers(max(info.min, -bound), bound, size=(300, 40), dtype=dtype, endpoint=True)
    exact = a.astype(object)
    x = da.from_array(a, chunks=(37, 13))
    assert int(on_cluster(client, cd.sum(x))) == exact.sum()
    assert [int(v) for v in on_cluster(client, cd.sum(x, axis=0, split_every=2))] == list(exact.sum(axis=0))
    rows = on_cluster(client, cd.sum(x, axis=1, keepdims=True))
    assert rows.shape == (300, 1) and [int(v) for v in rows[:, 0]] == list(exact.sum(axis=1))
    assert rows.dtype == clreduce.sum(a, axis=1).dtype


def test_wrapped_sum_into_a_narrow_accumulator_has_numpys_bits(client, rng):
    a = rng.integers(-2**31, 2**31, size=20000, dtype=np.int64).astype(np.int32)
    got = on_cluster(client, cd.sum(chunked(a, 999), dtype=np.int32, overflow="wrap"))
    assert got.dtype == np.int32 and got == a.sum(dtype=np.int32)


def test_argmin_argmax_give_the_first_global_index(client, rng):
    # Ties across chunks: the extremes appear in several chunks; the first index wins.
    a = rng.integers(-50, 50, size=(240, 30), dtype=np.int32)
    a[[17, 150, 239], [3, 0, 29]] = -1000
    a[[5, 120], [29, 7]] = 1000
    for chunks in ((24, 30), (7, 30), (240, 30)):
        x = da.from_array(a, chunks=chunks)
        assert on_cluster(client, cd.argmin(x, split_every=2)) == np.argmin(a) == 17 * 30 + 3
        assert on_cluster(client, cd.argmax(x)) == np.argmax(a)
    x = da.from_array(a, chunks=(11, 7))
    np.testing.assert_array_equal(on_cluster(client, cd.argmin(x, axis=0)), np.argmin(a, axis=0))
    np.testing.assert_array_equal(on_cluster(client, cd.argmax(x, axis=1, split_every=2)), np.argmax(a, axis=1))
    f = rng.standard_normal(50000).astype(np.float32)
    assert on_cluster(client, cd.argmax(chunked(f, 1234))) == np.argmax(f)


def test_argmin_over_all_axes_of_chunks_that_split_rows_is_refused(client):
    x = da.zeros((10, 10), dtype=np.float32, chunks=(5, 5))
    with pytest.raises(ValueError, match=r"rechunk\(\{1: -1\}\)"):
        cd.argmin(x)
    with pytest.raises(TypeError, match="one integer"):
        cd.argmax(x, axis=(0, 1))


def test_other_operations_as_numpy(client, rng):
    a = rng.integers(-1000, 1000, size=(120, 50), dtype=np.int32)
    a[a % 7 == 0] = 0
    x = da.from_array(a, chunks=(17, 20))
    assert on_cluster(client, cd.min(x)) == a.min() and on_cluster(client, cd.max(x)) == a.max()
    np.testing.assert_array_equal(on_cluster(client, cd.min(x, axis=0)), a.min(axis=0))
    assert on_cluster(client, cd.count_nonzero(x)) == np.count_nonzero(a)
    np.testing.assert_array_equal(on_cluster(client, cd.count_nonzero(x, axis=1)), np.count_nonzero(a, axis=1))
    assert on_cluster(client, cd.bit_xor(x)) == np.bitwise_xor.reduce(a, axis=None)
    assert on_cluster(client, cd.all(x)) == a.all() and on_cluster(client, cd.any(x)) == a.any()
    assert int(on_cluster(client, cd.sum_of_squares(x))) == int((a.astype(object) ** 2).sum())
    # mean: the correctly rounded quotient of the exact sum, whatever the chunks.
    assert on_cluster(client, cd.mean(x)) == clreduce.mean(a) == np.float64(a.astype(object).sum()) / a.size
    assert on_cluster(client, cd.norm(x, ord=1)) == np.abs(a).sum()


def test_empty_arrays_and_bad_arguments():
    assert on_one_thread(cd.sum(da.zeros(0, dtype=np.float32, chunks=5))) == 0.0
    for shape, axis in (((0, 4), 1), ((0, 4), 0), ((3, 0), 1)):  # no result, or results of nothing
        got = on_one_thread(cd.sum(da.zeros(shape, dtype=np.int32, chunks=2), axis=axis))
        assert got.dtype == np.int64 and got.tolist() == np.zeros(shape, np.int64).sum(axis=axis).tolist()
    with pytest.raises(clreduce.InvalidArgument, match="empty"):
        on_one_thread(cd.min(da.zeros(0, dtype=np.float32, chunks=5)))
    with pytest.raises(TypeError, match="masked"):  # a masked chunk's data would count its masked elements
        on_one_thread(cd.sum(da.ma.masked_greater(da.arange(10, chunks=5), 5)))
    with pytest.raises(ValueError, match="statistics"):
        cd.reduce("statistics", da.zeros(4, chunks=2))
    with pytest.raises(ValueError, match="accumulator"):
        cd.sum(da.zeros(4, dtype=np.int32, chunks=2), dtype=np.int8)


def test_pyopencl_chunks_in_one_process(cl_queue, rng):
    # Device arrays live in the process that made them: the threaded scheduler here.
    import pyopencl.array as cla
    queue = cl_queue
    a = (rng.standard_normal((64, 300)) * 1e3).astype(np.float32)
    x = da.from_array(a, chunks=(9, 300)).map_blocks(lambda b: cla.to_device(queue, np.ascontiguousarray(b)),
                                                     meta=np.empty((0, 0), np.float32))
    with dask.config.set(scheduler="threads"):
        got = cd.sum(x, float_mode="correctly_rounded").compute()
        assert got.tobytes() == np.float64(math.fsum(a.ravel().astype(np.float64))).tobytes()
        assert cd.argmax(x).compute() == np.argmax(a)
        np.testing.assert_array_equal(cd.max(x, axis=1).compute(), a.max(axis=1))
        with pytest.raises(clreduce.InvalidArgument, match="last axes"):
            cd.max(x, axis=0).compute()


def test_partials_travel_as_their_bytes(reducer, rng):
    p = reducer.partial("argmax", rng.standard_normal(1000))
    header, frames = serialize(p, serializers=["dask"])
    assert header["serializer"] == "dask" and [bytes(f) for f in frames] == [p.to_bytes()]
    assert deserialize(header, frames) == p
    assert pickle.loads(pickle.dumps(p)) == p


def _slow(block):
    time.sleep(0.05)
    return block


def test_worker_killed_mid_reduction_still_gives_the_right_bits(client, rng):
    a = (rng.standard_normal(60000) * 1e6).astype(np.float32)
    exact = np.float64(math.fsum(a.astype(np.float64)))
    x = chunked(a, 500).map_blocks(_slow, dtype=np.float32)  # 120 chunks of 50 ms: 2 s on 3 workers
    future = client.compute(cd.sum(x, float_mode="correctly_rounded", split_every=4))
    pids = client.run(os.getpid)
    deadline = time.monotonic() + TIMEOUT_S
    while not any(client.processing().values()):  # wait until the workers are busy
        assert time.monotonic() < deadline, "the cluster never started the reduction"
        time.sleep(0.05)
    time.sleep(0.3)
    busy = next(w for w, keys in client.processing().items() if keys)
    assert not future.done(), "the reduction finished before a worker could be killed"
    os.kill(pids[busy], signal.SIGKILL)  # the nanny starts another; the lost tasks run again
    got = future.result(timeout=TIMEOUT_S)
    assert got.tobytes() == exact.tobytes()
    client.wait_for_workers(WORKERS, timeout=TIMEOUT_S)
