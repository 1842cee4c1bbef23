"""Partial (merge, bytes, value), MultiReducer, plan(), the options' checks, and every error the
package raises, with the library's message and the Python exception it maps to."""

import copy
import math
import multiprocessing
import pickle
import threading
import time

import numpy as np
import pytest

import clreduce
from references import data


@pytest.mark.parametrize("op,dtype", [("sum", "float32"), ("argmax", "int32"), ("sum_of_squares", "uint16"),
                                      ("statistics", "float64")])
def test_partial_round_trip(op, dtype, rng, reducer):
    """Partials of consecutive pieces, sent as bytes and merged in order, give the whole's value
    (correctly rounded sums: the same bits whatever the split)."""
    a = data(rng, dtype, 40_000, bits=16)
    cuts = sorted(rng.integers(0, a.size, 3).tolist())
    pieces = np.split(a, cuts)
    mode = "correctly_rounded" if op == "sum" else None
    merged = clreduce.Partial()
    for piece in pieces:
        p = reducer.partial(op, piece, float_mode=mode)
        assert p.count == piece.size and p.operation == op and p.element == dtype
        merged.merge(clreduce.Partial.from_bytes(p.to_bytes()))
    whole = reducer.reduce(op, a, float_mode=mode)
    got = merged.value()
    if op == "statistics":
        assert got.count == whole.count and got.min == whole.min and got.max == whole.max
        # one pass and merged passes round differently: within n * u * mean|x| of each other
        assert abs(got.mean - whole.mean) <= a.size * 2.0**-52 * np.mean(np.abs(a.astype(np.float64)))
    else:
        assert got == whole and type(got) is type(whole)
    assert merged.count == a.size
    assert clreduce.Partial.from_bytes(merged.to_bytes()) == merged


def test_partial_errors(reducer):
    with pytest.raises(ValueError):
        clreduce.Partial.from_bytes(b"CLRP but not a partial")
    p = reducer.partial("sum", np.arange(10, dtype=np.int32))
    with pytest.raises(ValueError):
        p.merge(reducer.partial("min", np.arange(10, dtype=np.int32)))
    with pytest.raises(ValueError, match="nothing"):
        clreduce.Partial().value()


def test_multi_reducer_equals_one_device(rng):
    """A MultiReducer over every device (here one or several PoCL devices) gives one device's
    correctly rounded bits and exact integers."""
    m = clreduce.MultiReducer()
    a = data(rng, np.float32, 200_000)
    assert m.size >= 1
    assert m.reduce("sum", a, float_mode="correctly_rounded") == clreduce.sum(a, dtype=np.float64,
                                                                              float_mode="correctly_rounded")
    b = data(rng, np.int64, 100_000, bits=40)
    assert m.reduce("sum", b) == b.sum() and m.partial("argmin", b).value() == np.argmin(b)


def test_overflow_is_an_overflow_error(rng):
    big = np.full(1000, np.iinfo(np.int64).max, np.int64)
    with pytest.raises(OverflowError, match="int64"):
        clreduce.sum(big)
    with pytest.raises(clreduce.Overflow):
        clreduce.sum(big)
    wrapped = clreduce.sum(big, overflow="wrap")
    assert wrapped == np.sum(big)  # numpy wraps too
    with pytest.raises(OverflowError):
        clreduce.sum(np.full(10, 2**30, np.int32), dtype=np.int32, overflow="check")


def test_wrap_into_a_narrower_accumulator(rng):
    """overflow='wrap' with a dtype= the exact value does not fit gives numpy's bits: the value
    modulo 2^bits of the accumulator, in all and per row; 'check' refuses it."""
    a = np.full(10, 2**32 - 1, np.uint32)
    got = clreduce.sum(a, dtype=np.int32, overflow="wrap")
    assert got == np.sum(a, dtype=np.int32) == -10 and type(got) is np.int32
    with pytest.raises(ValueError, match="pass overflow='wrap'"):  # an int32 cannot hold every uint32 term
        clreduce.sum(a, dtype=np.int32)
    for dtype in ("uint32", "int8", "uint64"):
        b = data(rng, dtype, 5000)
        for accumulator in ("int32", "uint32", "uint64"):
            got = clreduce.sum(b, dtype=accumulator, overflow="wrap")
            assert got == np.sum(b, dtype=accumulator) and type(got) is np.dtype(accumulator).type, (dtype, accumulator)
            rows = clreduce.sum(b.reshape(50, 100), axis=1, dtype=accumulator, overflow="wrap")
            assert rows.dtype == accumulator and np.array_equal(rows, np.sum(b.reshape(50, 100), axis=1,
                                                                              dtype=accumulator))
    c = data(rng, "uint32", 7)
    assert clreduce.prod(c, dtype=np.int32, overflow="wrap") == np.prod(c, dtype=np.int32)


def test_accumulator_dtype(rng):
    """dtype= names the accumulator and the result's type, as numpy's dtype= does."""
    a = data(rng, np.float32, 10_000)
    s = clreduce.sum(a, dtype=np.float32)
    assert type(s) is np.float32
    assert math.isclose(s, math.fsum(a.astype(np.float64).tolist()), rel_tol=1e-4, abs_tol=1e-2)
    i = clreduce.sum(np.arange(100, dtype=np.int8), dtype=np.int32)
    assert type(i) is np.int32 and i == 4950
    with pytest.raises(ValueError, match="accumulator"):
        clreduce.sum(a, dtype=np.int16)


def test_option_errors():
    a = np.arange(10, dtype=np.float32)
    with pytest.raises(ValueError, match="float_mode"):
        clreduce.sum(a, float_mode="fast")
    with pytest.raises(ValueError, match="overflow"):
        clreduce.sum(a, overflow="saturate")
    with pytest.raises(ValueError, match="norm order"):
        clreduce.norm(a, ord="fro")  # a vector's: numpy refuses it too
    with pytest.raises(clreduce.Unsupported, match="ord=3"):  # numpy computes it; clreduce names numpy.linalg.norm
        clreduce.norm(a, ord=3)
    with pytest.raises(ValueError, match="combine"):
        clreduce.transform_reduce(a, "x", combine="mean")
    with pytest.raises(TypeError, match="complex128"):
        clreduce.sum(np.zeros(4, np.complex128))
    with pytest.raises(ValueError, match="unknown operation|operation"):
        clreduce.default_reducer().reduce("median", a)
    with pytest.raises(ValueError):
        clreduce.Reducer(device="no such device anywhere")


def test_expression_errors():
    """A text that is not an expression of the language: InvalidArgument naming the column; one
    the OpenCL compiler rejects (x % 2 of a float): BuildError with the build log."""
    a = np.arange(100, dtype=np.float32)
    with pytest.raises(ValueError, match="column"):
        clreduce.transform_reduce(a, "x +* 2")
    with pytest.raises(ValueError, match="unknown identifier 'undefined_q' at column 1"):
        clreduce.transform_reduce(a, "undefined_q(x)")
    with pytest.raises(clreduce.BuildError) as caught:
        clreduce.transform_reduce(a, "x % 2")
    e = caught.value
    assert isinstance(e, clreduce.OpenCLError) and e.code == -11 and "error" in e.log and "-D" in e.options


def test_errors_name_python_keywords():
    """Errors are in the Python caller's terms: the keywords (overflow='wrap', float_mode=...,
    combine=), not the C++ API (LaunchParams::overflow, IntegerOverflow::wrap, FloatMode::,
    Combine::) nor the expressions nansum and nanmean run."""
    floats = np.array([1.0, np.nan, 2.0])
    cases = [
        (clreduce.Overflow, lambda: clreduce.sum(np.full(1000, np.iinfo(np.int64).max, np.int64)), "overflow='wrap'"),
        (ValueError, lambda: clreduce.sum(np.arange(10, dtype=np.int64), dtype=np.int32), "overflow='wrap'"),
        (OverflowError, lambda: clreduce.prod(np.full(100, 3, np.int64), dtype=np.float64), "overflow="),
        (TypeError, lambda: clreduce.default_reducer().reduce("min", floats, float_mode="correctly_rounded"),
         "float_mode='correctly_rounded'"),
        (ValueError, lambda: clreduce.sum(floats, dtype=np.float32, float_mode="correctly_rounded"),
         "float_mode='correctly_rounded'"),
        (TypeError, lambda: clreduce.transform_reduce(floats, "x", "min", float_mode="correctly_rounded"),
         "combine='sum'"),
        (TypeError, lambda: clreduce.nanmean(floats, dtype=np.int64), "nanmean needs a floating dtype"),
        (TypeError, lambda: clreduce.nansum(floats, dtype=np.int64), "nansum needs a floating dtype"),
    ]
    for error, call, words in cases:
        with pytest.raises(error) as caught:
            call()
        message = str(caught.value)
        assert words in message, message
        for internal in ("LaunchParams", "IntegerOverflow", "FloatMode::", "Combine::", "isnan(x)"):
            assert internal not in message, message


def test_partial_pickle_and_copies(reducer, rng):
    """pickle, copy.deepcopy and copy.copy give an equal Partial that merges on its own: the
    original keeps its range and value."""
    a = data(rng, np.int32, 5000, bits=20)
    p = reducer.partial("sum", a[:3000])
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p), copy.copy(p)):
        assert type(q) is clreduce.Partial and q == p and q.value() == p.value()
        q.merge(reducer.partial("sum", a[3000:]))
        assert q.value() == a.sum(dtype=np.int64) and q.count == a.size
        assert p.value() == a[:3000].sum(dtype=np.int64) and p.count == 3000
    assert pickle.loads(pickle.dumps(clreduce.Partial())).empty


def correctly_rounded_partial(piece):
    """A process pool's task (module level: a spawned process imports it by name)."""
    return clreduce.default_reducer().partial("sum", piece, float_mode="correctly_rounded")


def test_partials_from_a_process_pool(rng, reducer):
    """Partials made in spawned processes come back through pickle and merge, in the data's
    order, to the one-call value (correctly rounded: the same bits)."""
    a = data(rng, np.float32, 20_000)
    pieces = np.split(a, sorted(rng.integers(1, a.size, 2).tolist()))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        partials = pool.map_async(correctly_rounded_partial, pieces).get(timeout=120)
    merged = clreduce.Partial()
    for p in partials:
        merged.merge(p)
    assert merged.count == a.size
    assert merged.value() == reducer.sum(a, dtype=np.float64, float_mode="correctly_rounded")


def test_plan_and_device(reducer):
    p = reducer.plan("sum", np.float32, 1 << 20)
    assert p.work_group_size >= 1 and p.element == "float32" and "float32" in p.describe()
    assert isinstance(reducer.device["name"], str)
    assert isinstance(clreduce.devices(), list) and clreduce.devices()
    assert "sum" in clreduce.operations() and len(clreduce.operations()) == 20


def test_gil_is_released(rng):
    """While a call runs on the device, another Python thread runs (the GIL is released): it
    sees the call in progress in many 10 ms intervals (holding the GIL, a call lets it run only
    in the 5 ms switch intervals before and after it: 2 or 3 intervals; on a machine busy with
    other work the thread gets a share of a core, so the bound asks for a tenth of them); and
    calls from several threads at once agree (the reducer is thread-safe)."""
    # Correctly rounded sums that take at least 0.15 s on this device, so that the watcher has
    # intervals to be seen in: the array doubled from 2^24 elements while the device can hold
    # twice as many in one buffer (a 2-core PoCL device sums 2^28 in 0.06 s and holds 2^29), then
    # as many calls of it as that takes.
    n = 1 << 24
    most = clreduce.Reducer().device["max_alloc_size"] // 4
    while True:
        a = np.full(n, 1.5, np.float32)
        clreduce.sum(a, float_mode="correctly_rounded")  # built and warm
        start = time.perf_counter()
        clreduce.sum(a, float_mode="correctly_rounded")
        one = time.perf_counter() - start
        if one >= 0.15 or 2 * n >= most:
            break
        n *= 2
    calls = max(1, math.ceil(0.15 / one))
    in_call = [False]
    running = [True]
    seen = set()

    def watch():
        while running[0]:
            if in_call[0]:
                seen.add(int(time.perf_counter() * 100))  # the 10 ms interval it ran in

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        start = time.perf_counter()
        in_call[0] = True
        values = [clreduce.sum(a, float_mode="correctly_rounded") for _ in range(calls)]
        in_call[0] = False
        duration = time.perf_counter() - start
    finally:
        running[0] = False
        watcher.join()
    assert values == [1.5 * a.size] * calls
    intervals = duration * 100
    assert intervals >= 10, f"the call took {duration:.3f} s, too short to tell"
    assert len(seen) >= max(6, calls + 3, 0.1 * intervals), \
        f"the other thread ran in {len(seen)} of {intervals:.0f} 10 ms intervals"

    b = data(rng, np.int32, 6 << 20 // 4)
    want = b.sum(dtype=np.int64)
    results = []
    threads = [threading.Thread(target=lambda: results.append(clreduce.sum(b))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


def test_cache_directory(tmp_path, rng):
    """set_cache_directory: reducers made afterwards save their programs there and load them
    from there; '' turns the disk caches off; None goes back to the environment's choice."""
    before = clreduce.cache_directory()
    folder = tmp_path / "cache"
    try:
        clreduce.set_cache_directory(str(folder))
        assert clreduce.cache_directory() == str(folder)
        # statistics of 16-bit data runs on the device (exact integer lanes, which the host
        # path does not run: usage.md), so the reducer builds a program.
        a = rng.integers(-1000, 1000, 100_000).astype(np.int16)
        assert clreduce.Reducer().reduce("statistics", a).max == a.max()
        assert any(folder.rglob("*")), "no program saved in the cache folder"
        again = clreduce.Reducer()
        assert again.reduce("statistics", a).max == a.max()
        assert again.counters["programs_loaded"] >= 1 and again.counters["programs_built"] == 0
        clreduce.set_cache_directory("")
        assert clreduce.cache_directory() is None
    finally:
        clreduce.set_cache_directory(None)
    assert clreduce.cache_directory() == before
