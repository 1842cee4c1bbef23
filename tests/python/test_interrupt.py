"""Ctrl-C (SIGINT) during device work: the call in flight finishes or stops cleanly, Python raises
KeyboardInterrupt, and the reducer gives exact results afterwards."""

import os
import signal
import threading

import numpy as np

import clreduce


def interrupt_after(seconds):
    """Sends this process SIGINT after `seconds`, from another thread (it runs while a call has
    released the GIL), as a terminal's Ctrl-C does."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_during_reductions_leaves_the_reducer_whole(rng, reducer):
    a = rng.integers(-2**20, 2**20, size=2**24, dtype=np.int32)
    expected = int(a.sum(dtype=np.int64))
    assert reducer.reduce("sum", a) == expected  # compiled before the loop, so the loop is all device work
    calls = 0
    timer = interrupt_after(0.2)
    try:
        for _ in range(100_000):
            reducer.reduce("sum", a)
            calls += 1
        raise AssertionError("SIGINT was sent, but no KeyboardInterrupt came")
    except KeyboardInterrupt:
        pass
    finally:
        timer.join()
    assert calls < 100_000
    # The reducer, its queue and its buffers still work: the same data, other data, another form.
    assert reducer.reduce("sum", a) == expected
    b = a[: 2**20].reshape(1024, 1024)
    np.testing.assert_array_equal(clreduce.sum(b, axis=1), b.sum(axis=1, dtype=np.int64))
    assert reducer.reduce("max", a) == a.max()

