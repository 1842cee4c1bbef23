#!/usr/bin/env python3
"""Sums over the ranks of an MPI job with clreduce partials and mpi4py: each rank reduces its
slice of the data into a Partial, the partials travel as bytes to rank 0, which merges them in
rank order. The integer sum is exact, and the correctly rounded float sum has the same bits as
one process's sum of the whole array, whatever the number of ranks.

    mpiexec -n 2 python3 python/examples/mpi_sum.py
"""

import numpy as np
from mpi4py import MPI

import clreduce


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    n = 10**6
    # Every rank makes the same data (one seed) and takes its slice; a real job reads its own.
    ints = np.arange(n, dtype=np.int32)
    floats = np.random.default_rng(20261127).standard_normal(n).astype(np.float32)
    lo, hi = rank * n // size, (rank + 1) * n // size

    reducer = clreduce.default_reducer()
    mine = [reducer.partial("sum", ints[lo:hi]).to_bytes(),
            reducer.partial("sum", floats[lo:hi], float_mode="correctly_rounded").to_bytes()]
    gathered = comm.gather(mine, root=0)
    if rank != 0:
        return
    total = [clreduce.Partial(), clreduce.Partial()]
    for parts in gathered:  # in rank order: the data's order
        for k in range(2):
            total[k].merge(clreduce.Partial.from_bytes(parts[k]))
    int_sum, float_sum = total[0].value(), total[1].value()
    one_process = clreduce.sum(floats, dtype=np.float64, float_mode="correctly_rounded")
    same = np.float64(float_sum).tobytes() == np.float64(one_process).tobytes()
    print(f"{size} ranks: sum {int_sum} ({'exact' if int_sum == n * (n - 1) // 2 else 'WRONG'}), "
          f"correctly rounded float sum {float(float_sum)!r}, the same bits as one process's: {'yes' if same else 'no'}")


if __name__ == "__main__":
    main()
