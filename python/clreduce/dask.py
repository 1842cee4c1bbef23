"""clreduce.dask: clreduce's reductions over a dask.array, chunk by chunk.

    >>> import clreduce.dask, dask.array as da
    >>> x = da.arange(10**6, dtype="int32", chunks=10**5)
    >>> clreduce.dask.sum(x).compute()
    np.int64(499999500000)

Each chunk (numpy, or PyOpenCL arrays made inside the graph) is reduced to a clreduce.Partial per
result element; Dask's tree (``split_every``) merges them in the data's order; the last step reads
the value. So integers are exact, argmin/argmax give the index in the whole array, and
``float_mode="correctly_rounded"`` sums give the same bits for any chunking and any number of
workers. Partials travel between workers as their bytes (a serialiser registered with
``distributed`` where it is installed; pickle otherwise). docs/python.md, "Dask", is the manual.
"""

import builtins
import copy
import functools

import dask.array as da
import numpy as np

from ._api import default_reducer, reducer_for
from ._clreduce import InvalidArgument
from ._inputs import element_dtype, is_device_input
from ._partial import Partial
from ._reducer import _options
from ._results import cast, result_dtype

# The operations of one value per result element, and the name of each function here.
_FUNCTIONS = {
    "sum": "sum", "prod": "product", "min": "min", "max": "max", "argmin": "argmin", "argmax": "argmax",
    "count_nonzero": "count_nonzero", "mean": "mean", "sum_of_squares": "sum_of_squares",
    "bit_and": "bit_and", "bit_or": "bit_or", "bit_xor": "bit_xor", "all": "all", "any": "any",
}
_NORMS = {1: "norm_l1", 2: "norm_l2", np.inf: "norm_inf"}
# Operations whose value depends on the order of their elements beyond float rounding: the index.
_INDEX_OPS = ("argmin", "argmax")


def _lines(block, axis):
    """`block` as (result elements, elements each): the reduced axes moved last and flattened.
    numpy blocks are copied only where that is not a view; PyOpenCL blocks must be C-contiguous
    with the reduced axes last (the result elements' elements lie together), else InvalidArgument."""
    kept = [i for i in range(block.ndim) if i not in axis]
    kept_count = int(np.prod([block.shape[i] for i in kept], dtype=np.int64))
    if kept_count == 0:
        return []
    if is_device_input(block):
        if kept != list(range(len(kept))):
            raise InvalidArgument(f"clreduce.dask reduces PyOpenCL chunks over their last axes only (axis {axis} "
                                  f"of a {block.ndim}-D chunk): make numpy chunks, or transpose first")
        flat = block.reshape(kept_count, -1) if block.size else None
        return [flat[i] for i in range(kept_count)] if flat is not None else [block] * kept_count
    if isinstance(block, np.ma.MaskedArray):
        # Its data alone would count the masked elements: refused, as the package's partials do.
        raise TypeError("clreduce.dask does not take numpy.ma masked chunks: x.map_blocks(numpy.ma.filled, ...) "
                        "with the operation's identity, or drop the masked elements first")
    moved = np.moveaxis(np.asarray(block), list(axis), list(range(len(kept), block.ndim)))
    flat = moved.reshape(kept_count, -1)
    return [np.ascontiguousarray(flat[i]) for i in range(kept_count)]


def _chunk(block, axis=None, keepdims=True, op=None, call=None, computing_meta=False):
    """One chunk's Partials: a Partial where every axis is reduced, else an object array of them
    (the reduced axes of length 1)."""
    if computing_meta:
        return np.empty((0,) * block.ndim, dtype=object)
    reducer = reducer_for(block) if is_device_input(block) else default_reducer()
    parts = [reducer.partial(op, line, **call) for line in _lines(block, axis)]
    if len(axis) == block.ndim:
        return parts[0]
    out = np.empty(len(parts), dtype=object)
    out[:] = parts
    return out.reshape(tuple(1 if i in axis else n for i, n in enumerate(block.shape)))


def _in_order(nested):
    """The items of Dask's nested lists (one level per reduced axis), in row-major order."""
    if isinstance(nested, list):
        return [item for sub in nested for item in _in_order(sub)]
    return [nested]


def _merged(parts):
    """The Partial of consecutive ranges `parts` (in the data's order); the inputs are left as
    they are (Dask may hand the same object to another task)."""
    if isinstance(parts[0], Partial):
        whole = copy.copy(parts[0])
        for p in parts[1:]:
            whole.merge(p)
        return whole
    whole = np.empty(parts[0].shape, dtype=object)
    for i in np.ndindex(whole.shape):
        whole[i] = _merged([p[i] for p in parts])
    return whole


def _combine(nested, axis=None, keepdims=True, computing_meta=False):
    if computing_meta:
        return nested
    return _merged(_in_order(nested))


def _aggregate(nested, axis=None, keepdims=False, op=None, element=None, options=None, ndim=None,
               computing_meta=False):
    if computing_meta:
        return nested
    whole = _merged(_in_order(nested))
    wrap = options["overflow"] == "wrap"
    accumulator = options["accumulator"]
    dtype = result_dtype(op, element, accumulator)
    if isinstance(whole, Partial):
        value = cast(op, whole._native.value(), element, accumulator, False, wrap=wrap)
        return np.asarray(value, dtype=dtype).reshape((1,) * ndim) if keepdims else dtype.type(value)
    values = np.empty(whole.shape, dtype=dtype)
    for i in np.ndindex(whole.shape):
        values[i] = cast(op, whole[i]._native.value(), element, accumulator, False, wrap=wrap)
    return values if keepdims else values.reshape([n for d, n in enumerate(values.shape) if d not in axis])


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    for a in axes:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"axis must be None, an integer or a tuple of integers; got {axis!r}")
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(int(a), ndim)
    return tuple(sorted({int(a) % ndim for a in axes}))


def reduce(op, x, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False, split_every=None):
    """``op`` (a name of clreduce.operations() with one value per result) over the dask array
    ``x``, lazily: a dask array of the values, as the clreduce call over the computed array
    gives them. ``split_every``: how many Partials one task merges (Dask's tree)."""
    if op not in _FUNCTIONS.values() and op not in _NORMS.values():
        raise ValueError(f"clreduce.dask reduces {', '.join(list(_FUNCTIONS.values()) + list(_NORMS.values()))}; "
                         f"got {op!r}")
    x = x if isinstance(x, da.Array) else da.asarray(x)
    axes = _axes(axis, x.ndim)
    if op in _INDEX_OPS:
        if axis is not None and len(axes) != 1:
            raise TypeError(f"{op}'s axis is None or one integer; got {axis!r}")
        if axis is None and builtins.any(len(c) > 1 for c in x.chunks[1:]):
            # A chunk's Partial counts its own elements in their order; merged in the blocks'
            # order they are the flat order only where each chunk spans whole rows.
            raise ValueError(f"{op} over all axes needs chunks that span every axis but the first "
                             f"(chunks {x.chunks}): x.rechunk({{{', '.join(f'{i}: -1' for i in range(1, x.ndim))}}}), "
                             "or reduce along one axis")
    options = _options(dtype, float_mode, overflow)
    element = element_dtype(x.dtype)
    out_dtype = result_dtype(op, element, options["accumulator"])
    meta = np.empty((0,) * (x.ndim if keepdims else x.ndim - len(axes)), dtype=out_dtype)
    return da.reduction(
        x, functools.partial(_chunk, op=op, call={"dtype": dtype, "float_mode": float_mode, "overflow": overflow}),
        functools.partial(_aggregate, op=op, element=element, options=options, ndim=x.ndim),
        combine=_combine, axis=axes, keepdims=keepdims, dtype=out_dtype, split_every=split_every,
        concatenate=False, meta=meta, name=f"clreduce-{op}")


def _named(name, op):
    def f(x, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False, split_every=None):
        return reduce(op, x, axis=axis, dtype=dtype, float_mode=float_mode, overflow=overflow, keepdims=keepdims,
                      split_every=split_every)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"clreduce.{name} over the dask array ``x``, lazily (see clreduce.dask.reduce): chunk "
                 "Partials merged by Dask's tree.")
    return f


for _name, _op in _FUNCTIONS.items():
    globals()[_name] = _named(_name, _op)


def norm(x, ord=2, axis=None, dtype=None, float_mode=None, overflow=None, keepdims=False, split_every=None):
    """clreduce.norm over the dask array ``x`` (ord 1, 2 or numpy.inf), lazily."""
    if ord not in _NORMS:
        raise ValueError(f"ord must be 1, 2 or numpy.inf; got {ord!r}")
    return reduce(_NORMS[ord], x, axis=axis, dtype=dtype, float_mode=float_mode, overflow=overflow,
                  keepdims=keepdims, split_every=split_every)


def _register_serializer():
    """Partials between distributed's workers as their bytes (one frame), where distributed is
    installed; an object array of them pickles, each through its bytes."""
    try:
        from distributed.protocol import dask_deserialize, dask_serialize
    except ImportError:
        return

    @dask_serialize.register(Partial)
    def _serialize(p):
        return {}, [p.to_bytes()]

    @dask_deserialize.register(Partial)
    def _deserialize(header, frames):
        return Partial.from_bytes(b"".join(bytes(f) for f in frames))


_register_serializer()

__all__ = ["reduce", "norm", *_FUNCTIONS]
