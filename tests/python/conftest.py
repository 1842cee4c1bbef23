"""pytest set-up for the Python package's tests: one seed per run, printed (CLREDUCE_TEST_SEED
repeats a run), and the shared default reducer."""

import os
import random
import zlib

import numpy as np
import pytest

import clreduce

SEED = int(os.environ.get("CLREDUCE_TEST_SEED", random.SystemRandom().randrange(2**32)))


def pytest_report_header(config):
    return f"clreduce tests: seed {SEED} (CLREDUCE_TEST_SEED={SEED} repeats this run); device: " + \
        clreduce.default_reducer().device["name"]


@pytest.fixture
def rng(request):
    """A generator seeded from the run's seed and the test's name; the seed is printed (shown
    with a failure)."""
    seed = (SEED + zlib.crc32(request.node.nodeid.encode())) % 2**32
    print(f"seed {seed} (run seed {SEED})")
    return np.random.default_rng(seed)


@pytest.fixture(scope="session")
def reducer():
    return clreduce.default_reducer()


@pytest.fixture(scope="session")
def has_fp16(reducer):
    return reducer.device["has_fp16"]


@pytest.fixture(scope="session")
def cl_queue(reducer):
    """A PyOpenCL queue on the default reducer's device (PyOpenCL from PyPI)."""
    cl = pytest.importorskip("pyopencl") if os.environ.get("CLREDUCE_TEST_NO_PYOPENCL") else __import__("pyopencl")
    name = reducer.device["name"]
    for platform in cl.get_platforms():
        for device in platform.get_devices():
            if device.name == name:
                # The context is kept for the session: the queue alone does not keep it alive on
                # every implementation (Intel's OpenCL runtime for CPUs releases it).
                context = cl.Context([device])
                yield cl.CommandQueue(context)
                return
    raise LookupError(f"PyOpenCL sees no device named {name!r}")
