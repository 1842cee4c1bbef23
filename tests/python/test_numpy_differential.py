"""clreduce against numpy, call for call: every numpy-named function x every element type x shapes
(empty, 0-d, 1-D to 4-D) x axes (None, integers, negative, tuples) x keepdims x memory layouts
(C, Fortran, transposed, negative strides, strided, misaligned) x values with NaN, inf and -0.0.

A covering selection, not the full product (about 470,000 calls; this is about 4,000 in 242
tests): every function meets every element type; each function's (shape, axis) combinations are
dealt to the types in turn (combination i to the types whose index is i modulo 5), with layout,
keepdims and values varying along them, so every (shape, axis) meets every function, and each
type meets every layout, keepdims and value kind. Integers must equal numpy's bit for bit,
floats lie within docs/numerics.md's bounds plus the final rounding to numpy's type
(float_bound); the result type must be numpy's; where numpy raises, clreduce raises the same
kind of error; where numpy warns (RuntimeWarning), clreduce warns. The only exceptions are the
rows of docs/python.md's table "What differs from numpy and why", each with its own test in
test_numpy_options.py (float16 without cl_khr_fp16, Overflow instead of wrapping, ...); here the
sign of a zero extreme is not compared (numpy's own loops differ)."""

import warnings

import numpy as np
import pytest

import clreduce

INTS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
TYPES = INTS + ("float32", "float64", "bool")

# name: (numpy's function, takes a tuple of axes, how the values are drawn)
FUNCTIONS = {
    "sum": (np.sum, True, "any"), "prod": (np.prod, True, "small"), "nansum": (np.nansum, True, "any"),
    "nanprod": (np.nanprod, True, "small"), "min": (np.min, True, "any"), "max": (np.max, True, "any"),
    "nanmin": (np.nanmin, True, "any"), "nanmax": (np.nanmax, True, "any"), "argmin": (np.argmin, False, "any"),
    "argmax": (np.argmax, False, "any"), "nanargmin": (np.nanargmin, False, "any"),
    "nanargmax": (np.nanargmax, False, "any"), "ptp": (np.ptp, True, "any"), "mean": (np.mean, True, "any"),
    "nanmean": (np.nanmean, True, "any"), "var": (np.var, True, "any"), "std": (np.std, True, "any"),
    "nanvar": (np.nanvar, True, "any"), "nanstd": (np.nanstd, True, "any"),
    "count_nonzero": (np.count_nonzero, True, "any"), "all": (np.all, True, "any"), "any": (np.any, True, "any"),
}
SUMS = ("sum", "nansum", "mean", "nanmean")
MOMENTS = ("var", "std", "nanvar", "nanstd")

SHAPES = [(), (0,), (1,), (7,), (3, 0), (0, 4), (4, 5), (1, 6), (2, 3, 4), (3, 1, 5), (2, 0, 3), (0, 3, 0),
          (2, 3, 2, 5)]
LAYOUTS = ("C", "F", "transposed", "negative", "strided", "misaligned")
VALUES = ("plain", "special")  # special: NaN, inf, -inf and -0.0 among float values


def axes_of(ndim, tuples):
    """The axes a call over ndim dimensions may take: None, each axis (negative too), tuples."""
    out = [None] + list(range(ndim)) + ([-1] if ndim else [])
    if tuples:
        out += [()] + ([(0, ndim - 1), (-1, 0)] if ndim >= 2 else []) + ([(0, 2)] if ndim >= 3 else [])
    return out


def combinations(tuples):
    """(shape, axis, layout, keepdims, values) combinations: every shape with every axis it
    takes, the layouts, keepdims and values cycling along."""
    out = []
    for shape in SHAPES:
        for axis in axes_of(len(shape), tuples):
            out.append((shape, axis))
    # Each of layout, keepdims and values varies along any arithmetic progression of step
    # STRIDE (5: prime to the periods 6, 10 and 6 below).
    return [(shape, axis, LAYOUTS[i % 6], (i // 5) % 2 == 1, VALUES[(i // 3) % 2]) for i, (shape, axis) in
            enumerate(out)]


def cases():
    """(function, dtype, combination index): each function x type takes every combination
    whose index is congruent to the type's index modulo STRIDE, so each combination meets every
    function once per STRIDE types."""
    out = []
    for name, (_, tuples, _) in FUNCTIONS.items():
        n = len(combinations(tuples))
        for t, dtype in enumerate(TYPES):
            out.append((name, dtype, [i for i in range(n) if i % STRIDE == t % STRIDE]))
    return out


STRIDE = 5


def values(rng, dtype, shape, kind, special):
    """C-ordered values of `shape`: integers within a range whose sums fit (the type's whole
    range for 8- and 16-bit types), small ones for products; floats normal, with NaN, inf and
    -0.0 where `special`."""
    n = int(np.prod(shape, dtype=np.int64))
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return (rng.random(n) < 0.6).reshape(shape)
    if dt.kind == "f":
        a = rng.uniform(0.5, 1.5, n) * rng.choice([-1, 1], n) if kind == "small" else rng.standard_normal(n) * 100
        a = a.astype(dt)
        if special and n:
            picks = rng.choice(n, size=min(n, max(1, n // 6)), replace=False)
            a[picks] = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0], size=picks.size)
        return a.reshape(shape)
    info = np.iinfo(dt)
    lo, hi = (-2, 3) if kind == "small" else (max(int(info.min), -2**40), min(int(info.max), 2**40))
    if dt.kind == "u":
        lo = 0
    wide = np.uint64 if dt == np.uint64 else np.int64
    a = rng.integers(lo, hi, size=n, endpoint=True, dtype=wide).astype(dt)
    a[rng.random(n) < 0.15] = 0
    return a.reshape(shape)


def laid_out(c, layout):
    """An array equal to `c` in the memory `layout`."""
    if c.ndim == 0 or layout == "C":
        return c
    if layout == "F":
        return np.asfortranarray(c)
    if layout == "transposed":
        return np.ascontiguousarray(c.T).T
    if layout == "negative":
        axes = tuple(range(0, c.ndim, 2)) if c.ndim > 1 else (0,)
        return np.flip(np.ascontiguousarray(np.flip(c, axes)), axes)
    if layout == "strided":
        base = np.zeros(c.shape[:-1] + (2 * c.shape[-1] + 1,), c.dtype)
        view = base[..., 1::2]
        view[...] = c
        return view
    buffer = np.zeros(c.nbytes + c.itemsize + 1, np.uint8)  # misaligned by one byte
    view = buffer[1:1 + c.nbytes].view(c.dtype).reshape(c.shape)
    view[...] = c
    return view


def run(call):
    """(value, error type, RuntimeWarning raised) of call()."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = call(), None
        except (ValueError, TypeError, ZeroDivisionError) as e:
            value, error = None, type(e)
    return value, error, builtins_any(issubclass(w.category, RuntimeWarning) and "slice" in str(w.message)
                                      for w in caught)


# numpy's warnings about what a reduction means ("Mean of empty slice", "All-NaN slice
# encountered", "Degrees of freedom <= 0 for slice"); its floating-point exception warnings
# ("invalid value encountered in reduce") have no counterpart (docs/python.md's table).
builtins_any = any


def float_bound(name, a, axis, want, result_type):
    """The tolerance of a float result: the float64 accumulation's bound for sums and means,
    docs/numerics.md's for the variance (plus numpy's own two-pass error), and the final rounding
    to the result type."""
    x = np.asarray(a, np.float64)
    u = 2.0**-53
    finite = np.where(np.isfinite(x), x, 0.0)
    shape = np.shape(want)
    w = np.abs(np.asarray(want, np.float64))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = x.size if axis is None else int(np.prod([x.shape[d] for d in np.atleast_1d(axis)], dtype=np.int64))
        if name in MOMENTS:
            spread = (np.max(finite, axis=axis, keepdims=True, initial=0.0) -
                      np.min(finite, axis=axis, keepdims=True, initial=0.0)).reshape(shape)
            var = w ** 2 if name.endswith("std") else w
            tol = 10 * (n + 2) * u * np.square(spread) + 4 * u * var
            if name.endswith("std"):
                tol = np.sqrt(tol)
        elif name in ("prod", "nanprod"):
            tol = 4 * (n + 1) * u * w
        else:
            tol = 2 * (n + 1) * u * np.sum(np.abs(finite), axis=axis, keepdims=True).reshape(shape)
            if name in ("mean", "nanmean"):
                tol = tol / max(n, 1)
    eps = np.finfo(result_type).eps / 2
    return tol + eps * w + 1e-300


def check_equal(name, dtype, a, axis, got, want):
    got_a, want_a = np.asarray(got), np.asarray(want)
    assert got_a.shape == want_a.shape, (got_a.shape, want_a.shape)
    assert got_a.dtype == want_a.dtype, (got_a.dtype, want_a.dtype)
    if got_a.dtype.kind != "f":
        assert np.array_equal(got_a, want_a)
        return
    same_nonfinite = np.isnan(got_a) == np.isnan(want_a)
    assert np.all(same_nonfinite), "NaN where numpy has none, or none where numpy has one"
    infinite = np.isinf(want_a)
    assert np.array_equal(got_a[infinite], want_a[infinite]), "a different infinity"
    if name in FUNCTIONS and name not in SUMS + MOMENTS + ("prod", "nanprod"):
        assert np.array_equal(got_a, want_a, equal_nan=True)  # extremes and ranges: exact (a zero's sign: either)
        return
    finite = np.isfinite(want_a)
    tol = float_bound(name, a, axis, want, got_a.dtype)
    diff = np.abs(got_a.astype(np.float64) - want_a.astype(np.float64))
    assert np.all(diff[finite] <= tol[finite]), (got_a, want_a, tol)


@pytest.mark.parametrize("name,dtype,picks", cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_against_numpy(name, dtype, picks, rng):
    numpy_function, tuples, kind = FUNCTIONS[name]
    function = getattr(clreduce, name)
    combos = combinations(tuples)
    checked = 0
    for i in picks:
        shape, axis, layout, keepdims, special = combos[i]
        c = values(rng, dtype, shape, kind, special == "special")
        a = laid_out(c, layout)
        assert np.array_equal(a, c, equal_nan=a.dtype.kind == "f") and a.shape == shape
        kwargs = {"axis": axis, "keepdims": keepdims}
        where = f"{name}({dtype} {shape} {layout}, axis={axis}, keepdims={keepdims}, {special})"
        want, want_error, want_warned = run(lambda: numpy_function(a, **kwargs))
        if name == "ptp" and a.dtype.kind in "iu" and a.size and want_error is None:
            exact = np.max(a.astype(object), **kwargs) - np.min(a.astype(object), **kwargs)
            info = np.iinfo(a.dtype)
            if np.any(exact > int(info.max)):  # numpy wraps; clreduce raises unless overflow='wrap'
                with pytest.raises(clreduce.Overflow):
                    function(a, **kwargs)
                got = function(a, overflow="wrap", **kwargs)
                assert np.array_equal(got, want) and np.asarray(got).dtype == np.asarray(want).dtype, where
                checked += 1
                continue
        got, got_error, got_warned = run(lambda: function(a, **kwargs))
        if want_error is not None:
            assert got_error is not None and issubclass(got_error, want_error), (where, want_error, got_error)
            continue
        assert got_error is None, (where, got_error)
        assert got_warned == want_warned, (where, "RuntimeWarning", want_warned, got_warned)
        if name in SUMS + MOMENTS + ("prod", "nanprod") and a.dtype == np.float32:
            # numpy accumulates float32 data in float32 (pairwise): its value is further from
            # the exact one than clreduce's float64 accumulation rounded once; numpy's over the
            # same values in float64 is the reference, in numpy's type.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exact = numpy_function(a.astype(np.float64), **kwargs)
            want = np.asarray(exact).astype(np.float32)[()]
        check_equal(name, dtype, a, axis, got, want)
        checked += 1
    # Most combinations give values (the others: numpy's errors; ptp of bool: all of them).
    assert checked >= len(picks) // 3 or (name, dtype) == ("ptp", "bool")
