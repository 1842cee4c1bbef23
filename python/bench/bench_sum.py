#!/usr/bin/env python3
"""clreduce.sum against numpy.sum and pyopencl.array.sum on the same device and the same array.

Single sums of 2^16 ... 2^max elements of each of --types (default int32 and float32):
  numpy        numpy.sum(a) of the host array
  clreduce     clreduce.sum(a) of the same host array (copied or streamed to the device)
  clreduce_dev clreduce.sum(d) of a PyOpenCL array d holding it (resident, reduced in place)
  pyopencl     pyopencl.array.sum(d).get()
and the column and row sums of a ROWSxCOLS float32 matrix: numpy.sum(a, axis=0 and 1),
clreduce.sum(a, axis=...), clreduce.sum(d, axis=...), and for the rows a loop of
pyopencl.array.sum(d[r]) (PyOpenCL has no axis=). Every time is the median of --repeats runs
after one warm-up run, in milliseconds; the ratios are other / clreduce (above 1: clreduce is
faster). --json FILE writes the rows as JSON.
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

import clreduce


def median_ms(f, repeats):
    f()  # warm-up: kernels built, buffers made
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def pick_device(spec):
    """The PyOpenCL device clreduce's spec selects (default: clreduce's default device)."""
    name = (clreduce.Reducer(device=spec) if spec else clreduce.default_reducer()).device["name"]
    for platform in cl.get_platforms():
        for device in platform.get_devices():
            if device.name == name:
                return device
    sys.exit(f"PyOpenCL sees no device named {name!r}")


def single_sums(queue, reducer, types, exponents, repeats, rng):
    rows = []
    for dtype in types:
        for e in exponents:
            n = 1 << e
            a = data(rng, dtype, n)
            d = cla.to_device(queue, a)
            assert reducer.sum(a) == reducer.sum(d)
            if a.dtype.kind in "iu":  # exact (pyopencl's sums wrap in narrow types)
                assert reducer.sum(a) == a.sum(dtype=np.int64 if a.dtype.kind == "i" else np.uint64)
            row = {"kind": "sum", "dtype": dtype, "n": n,
                   "numpy_ms": median_ms(lambda: np.sum(a), repeats),
                   "clreduce_ms": median_ms(lambda: reducer.sum(a), repeats),
                   "clreduce_dev_ms": median_ms(lambda: reducer.sum(d), repeats),
                   "pyopencl_ms": median_ms(lambda: cla.sum(d).get(), repeats)}
            rows.append(row)
            print_row(row)
            del d
    return rows


def data(rng, dtype, n):
    """n elements of dtype: integers in [-100, 100] ([0, 200] unsigned), floats normal."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(n).astype(dt)
    return rng.integers(0 if dt.kind == "u" else -100, 200 if dt.kind == "u" else 100, n).astype(dt)


def axis_sums(queue, reducer, shape, repeats, rng):
    """Column sums (axis=0) and row sums (axis=1) of a float32 matrix; PyOpenCL: a loop of
    sums over the rows (it has no axis=), for axis=1 only."""
    a = rng.standard_normal(shape, dtype=np.float32)
    d = cla.to_device(queue, a)
    rows = []
    for axis in (0, 1):
        np.testing.assert_allclose(reducer.sum(a, axis=axis), a.astype(np.float64).sum(axis=axis), rtol=1e-5,
                                   atol=1e-3)

        def pyopencl_loop():
            sums = [cla.sum(d[r]) for r in range(shape[0])]
            return np.array([s.get() for s in sums])

        row = {"kind": "axis", "axis": axis, "dtype": "float32", "n": shape[0] * shape[1], "shape": list(shape),
               "numpy_ms": median_ms(lambda: np.sum(a, axis=axis), repeats),
               "clreduce_ms": median_ms(lambda: reducer.sum(a, axis=axis), repeats),
               "clreduce_dev_ms": median_ms(lambda: reducer.sum(d, axis=axis), repeats),
               "pyopencl_ms": median_ms(pyopencl_loop, max(1, repeats // 3)) if axis == 1 else float("nan")}
        print_row(row)
        rows.append(row)
    return rows


HEADER = (f"{'what':>22} {'numpy ms':>10} {'clreduce ms':>12} {'resident ms':>12} {'pyopencl ms':>12}"
          f" {'numpy/cl':>9} {'pyopencl/res':>13}")


def print_row(row):
    what = (f"sum {row['dtype']} 2^{row['n'].bit_length() - 1}" if row["kind"] == "sum"
            else f"axis={row['axis']} {row['shape'][0]}x{row['shape'][1]}")
    print(f"{what:>22} {row['numpy_ms']:10.3f} {row['clreduce_ms']:12.3f} {row['clreduce_dev_ms']:12.3f}"
          f" {row['pyopencl_ms']:12.3f} {row['numpy_ms'] / row['clreduce_ms']:9.2f}"
          f" {row['pyopencl_ms'] / row['clreduce_dev_ms']:13.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", help="clreduce device spec (default: clreduce's default device)")
    parser.add_argument("--min-exp", type=int, default=16)
    parser.add_argument("--max-exp", type=int, default=None,
                        help="largest size 2^N (default: 28 on GPUs, 26 on other devices)")
    parser.add_argument("--types", default="int32,float32", help="element types, e.g. int8,uint16,int64,float64")
    parser.add_argument("--rows", type=int, default=4096)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()

    device = pick_device(args.device)
    queue = cl.CommandQueue(cl.Context([device]))
    reducer = clreduce.Reducer(queue=queue)
    info = reducer.device
    max_exp = args.max_exp if args.max_exp is not None else (28 if info["is_gpu"] else 26)
    print(f"device: {info['platform']} / {info['name']} ({info['driver_version']}); numpy {np.__version__}, "
          f"pyopencl {cl.VERSION_TEXT}; median of {args.repeats} runs")
    print(HEADER)
    rng = np.random.default_rng(20261127)
    rows = single_sums(queue, reducer, args.types.split(","), range(args.min_exp, max_exp + 1, 2), args.repeats, rng)
    rows += axis_sums(queue, reducer, (args.rows, args.cols), args.repeats, rng)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": info, "numpy": np.__version__, "pyopencl": cl.VERSION_TEXT, "rows": rows}, f,
                      indent=1)


if __name__ == "__main__":
    main()
