"""Times clreduce.dask.sum against dask.array.sum on one dask.distributed LocalCluster.

    python/bench/bench_dask.py [--exp 28] [--chunks 64] [--workers 4] [--repeat 5]

A float32 array of 2^exp random values in `chunks` chunks is made and kept on the workers
(persist), then each sum is computed `repeat` times; the table gives the median and the fastest
wall time of a compute() (graph, tasks, transfers of the chunk results, the last step) and the
values. The correctly rounded sum is checked against math.fsum of the gathered array where it
fits (--check).
"""

import argparse
import math
import statistics
import time

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import clreduce
import clreduce.dask as cd


def timed(client, lazy, repeat):
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = client.compute(lazy).result()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exp", type=int, default=28)
    parser.add_argument("--chunks", type=int, default=64)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="math.fsum of the gathered array as the reference")
    args = parser.parse_args()
    n = 1 << args.exp
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        device = client.run(lambda: "{platform} / {name} ({driver_version})".format(
            **clreduce.default_reducer().device))
        x = da.random.default_rng(1).random(n, chunks=n // args.chunks, dtype=np.float32).persist()
        client.wait_for_workers(args.workers)
        x.sum().compute()  # the chunks are in memory before the clock starts
        calls = [
            ("dask.array.sum", x.sum()),
            ("dask.array.sum(dtype=float64)", x.sum(dtype=np.float64)),
            ("clreduce.dask.sum", cd.sum(x)),
            ("clreduce.dask.sum correctly_rounded", cd.sum(x, float_mode="correctly_rounded")),
        ]
        for _, lazy in calls:  # warm: kernels built, reducers made on every worker
            client.compute(lazy).result()
        print(f"device: {', '.join(sorted(set(device.values())))}; {args.workers} worker processes of 1 thread; "
              f"float32 2^{args.exp} in {args.chunks} chunks; median and min of {args.repeat}")
        print(f"{'call':>38} {'median ms':>10} {'min ms':>9}  value")
        for name, lazy in calls:
            median, best, value = timed(client, lazy, args.repeat)
            print(f"{name:>38} {median * 1e3:10.1f} {best * 1e3:9.1f}  {float(value)!r}")
        if args.check:
            exact = math.fsum(x.compute().astype(np.float64))
            print(f"{'math.fsum of the gathered array':>38} {'':>10} {'':>9}  {exact!r}")


if __name__ == "__main__":
    main()
