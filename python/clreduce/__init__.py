"""clreduce: portable OpenCL reductions with a numpy-shaped API.

    >>> import clreduce, numpy
    >>> clreduce.sum(numpy.arange(10**6, dtype=numpy.int32))
    np.int64(499999500000)

numpy's reductions (sum, prod, min, max, argmin, argmax, mean, var, std, ptp, average, all,
any, count_nonzero and the nan* forms) with numpy's semantics, and the library's own (minmax,
argminmax, sum_of_squares, norm, statistics, bitwise reductions, transform_reduce), over numpy
arrays of any strides or PyOpenCL arrays and buffers in place on their own queue; any ``axis``
(an integer, a tuple, None), and CSR segments (segment_sum, ...). Errors: clreduce.InvalidArgument (a ValueError),
clreduce.Unsupported (a TypeError), clreduce.Overflow (an OverflowError), clreduce.OpenCLError,
clreduce.BuildError (with .log). docs/python.md is the manual.
"""

from . import _cpu_runtime

_cpu_runtime.use_cpu_runtime_where_no_opencl()  # before the first OpenCL call: pip install clreduce[cpu]

from ._clreduce import (BuildError, Error, InvalidArgument, OpenCLError, Overflow, Plan, Unsupported,
                        cache_directory, devices, operations, set_cache_directory)
from ._inputs import DeviceArray
from ._partial import MultiReducer, Partial
from ._reducer import Reducer
from ._results import Statistics
from ._api import (all, all_by_key, any, any_by_key, argmax, argmax_by_key, argmin, argmin_by_key, argminmax,
                   argminmax_by_key, average, bit_and, bit_and_by_key, bit_or, bit_or_by_key, bit_xor, bit_xor_by_key,
                   buffer, count_nonzero, count_nonzero_by_key, default_reducer, max, max_by_key, mean, mean_by_key,
                   min, min_by_key, minmax, minmax_by_key, nanargmax, nanargmin, nanmax, nanmean, nanmin, nanprod,
                   nanstd, nansum, nanvar, norm, prod, product_by_key, ptp, reduce_by_key, reducer_for, segment_all,
                   segment_any, segment_argmax, segment_argmin, segment_argminmax, segment_bit_and, segment_bit_or,
                   segment_bit_xor, segment_count_nonzero, segment_max, segment_mean, segment_min, segment_minmax,
                   segment_product, segment_reduce, segment_statistics, segment_sum, segment_sum_of_squares, statistics,
                   statistics_by_key, std, sum, sum_by_key, sum_of_squares, sum_of_squares_by_key, transform_reduce,
                   var)

__version__ = "0.1.0"

__all__ = [
    "BuildError", "DeviceArray", "Error", "InvalidArgument", "MultiReducer", "OpenCLError", "Overflow", "Partial",
    "Plan", "Reducer", "Statistics", "Unsupported", "all", "all_by_key", "any", "any_by_key", "argmax", "argmax_by_key",
    "argmin", "argmin_by_key", "argminmax", "argminmax_by_key", "average", "bit_and", "bit_and_by_key", "bit_or",
    "bit_or_by_key", "bit_xor", "bit_xor_by_key", "buffer", "cache_directory", "count_nonzero", "count_nonzero_by_key",
    "default_reducer", "devices", "max", "max_by_key", "mean", "mean_by_key", "min", "min_by_key", "minmax",
    "minmax_by_key", "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum", "nanvar",
    "norm", "operations", "prod", "product_by_key", "ptp", "reduce_by_key", "reducer_for", "segment_all", "segment_any",
    "segment_argmax", "segment_argmin", "segment_argminmax", "segment_bit_and", "segment_bit_or", "segment_bit_xor",
    "segment_count_nonzero", "segment_max", "segment_mean", "segment_min", "segment_minmax", "segment_product",
    "segment_reduce", "segment_statistics", "segment_sum", "segment_sum_of_squares", "set_cache_directory",
    "statistics", "statistics_by_key", "std", "sum", "sum_by_key", "sum_of_squares", "sum_of_squares_by_key",
    "transform_reduce", "var",
]
