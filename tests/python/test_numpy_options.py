"""numpy's options against numpy (out=, where=, initial=, dtype=, ddof=, average's weights,
masked arrays with axes), the layouts read in place (no copy) and the rows of docs/python.md's
table "What differs from numpy and why", each checked as documented."""

import math
import warnings

import numpy as np
import pytest

import clreduce
from clreduce._layout import normalize_axes, plan


def test_out_where_initial(rng):
    """out= (written and returned; numpy's same_kind casting, its shape checked), where= and
    initial= as numpy's, integers exactly."""
    a = rng.integers(-1000, 1000, (6, 7, 8)).astype(np.int32)
    where = rng.random(a.shape) < 0.7
    for axis in (None, 0, 2, (0, 2), (1, -1)):
        for call, numpy_call in ((clreduce.sum, np.sum), (clreduce.prod, np.prod), (clreduce.max, np.max),
                                 (clreduce.min, np.min), (clreduce.any, np.any), (clreduce.all, np.all)):
            kwargs = {"axis": axis, "where": where}
            if call in (clreduce.max, clreduce.min):
                kwargs["initial"] = 5
            b = (a % 3 - 1) if call is clreduce.prod else a
            want = numpy_call(b, **kwargs)
            got = call(b, **kwargs)
            assert np.asarray(got).dtype == np.asarray(want).dtype and np.array_equal(got, want), (call, axis)
        want = np.sum(a, axis=axis, initial=17)
        assert np.array_equal(clreduce.sum(a, axis=axis, initial=17), want)
        out = np.zeros(np.shape(want), np.float64)
        assert clreduce.sum(a, axis=axis, out=out) is out and np.array_equal(out, np.sum(a, axis=axis))
    with pytest.raises(ValueError, match="shape"):
        clreduce.sum(a, axis=0, out=np.zeros(3))
    with pytest.raises(TypeError):  # float64 into int32: not same_kind (numpy refuses too)
        clreduce.mean(a, axis=0, out=np.zeros((7, 8), np.int32))
    with pytest.raises(ValueError, match="initial"):  # numpy: min with where= needs initial=
        clreduce.min(a, where=where)
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = clreduce.mean(a, axis=0, where=np.zeros(a.shape[1:], bool))
    assert np.all(np.isnan(got))
    assert clreduce.max(np.zeros((0, 3), np.int8), axis=0, initial=-3).tolist() == [-3, -3, -3]


def test_empty_reductions_without_groups():
    """Reductions over no element raise where numpy's do, also where there is no group (numpy:
    max over axis 2 of a 0 x 2 x 0 array is a ValueError, over axis 0 of a 0 x 3 array an empty
    array); where= over a 0-d array."""
    for shape, axis in (((0, 2, 0), 2), ((0, 0, 1), 1), ((0, 3), 1), ((3, 0), 0)):
        a = np.zeros(shape, np.int32)
        for call, numpy_call in ((clreduce.max, np.max), (clreduce.argmin, np.argmin), (clreduce.ptp, np.ptp)):
            try:
                want = numpy_call(a, axis=axis)
            except ValueError:
                with pytest.raises(ValueError):
                    call(a, axis=axis)
            else:
                got = call(a, axis=axis)
                assert got.shape == want.shape and got.dtype == want.dtype, (shape, axis, call)
        assert np.array_equal(clreduce.sum(a, axis=axis), np.sum(a, axis=axis))
    scalar = np.array(7, np.int32)
    assert clreduce.mean(scalar, where=np.array(True)) == np.mean(scalar, where=np.array(True)) == 7.0


def test_dtype_argument(rng):
    """dtype= as numpy's: the result type, accumulated in it or in a wider type and cast;
    narrow integer results that do not fit raise Overflow (overflow='wrap': numpy's bits)."""
    a = rng.integers(0, 30, 1000).astype(np.uint8)  # sums fit int16 and float16
    for dtype in (np.int32, np.uint32, np.int64, np.float32, np.float64, np.int16, np.uint16, np.float16):
        want = np.sum(a, dtype=dtype)
        got = clreduce.sum(a, dtype=dtype)
        assert type(got) is type(want) and got == want, dtype
    with pytest.raises(clreduce.Overflow):
        clreduce.sum(a, dtype=np.int8)
    assert clreduce.sum(a, dtype=np.int8, overflow="wrap") == np.sum(a, dtype=np.int8)
    assert clreduce.sum(a, dtype=np.int8, overflow="wrap").dtype == np.int8
    f = rng.standard_normal((30, 40)).astype(np.float32)
    assert clreduce.mean(f, axis=0, dtype=np.float64).dtype == np.float64
    np.testing.assert_allclose(clreduce.mean(f, axis=0, dtype=np.float64), f.astype(np.float64).mean(axis=0),
                               rtol=1e-13)
    with pytest.raises(TypeError, match="bool"):
        clreduce.sum(a, dtype=bool)


def test_var_std_ddof_where_and_masks(rng):
    """var and std with ddof, where= and numpy.ma masks: docs/numerics.md's variance bound,
    computed from the exact mean of the elements kept."""
    a = (1e4 + rng.standard_normal((9, 50))).astype(np.float64)  # a large mean, as the bound allows
    keep = rng.random(a.shape) < 0.8
    for ddof in (0, 1, 3):
        for axis in (None, 0, 1):
            want = np.var(a, axis=axis, ddof=ddof, where=keep)
            got = clreduce.var(a, axis=axis, ddof=ddof, where=keep)
            np.testing.assert_allclose(got, want, rtol=1e-9)
            masked = np.ma.array(a, mask=~keep)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "Degrees of freedom <= 0" where count <= ddof
                got = np.asarray(clreduce.std(masked, axis=axis, ddof=ddof))
            want = np.ma.std(masked, axis=axis, ddof=ddof)  # masked where count <= ddof: inf here, as np.std's
            defined = np.asarray(np.ma.count(masked, axis=axis) > ddof)
            np.testing.assert_allclose(got[defined], np.asarray(np.ma.getdata(want))[defined], rtol=1e-9)
            assert np.all(np.isinf(got[~defined]) | np.isnan(got[~defined]))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        assert math.isnan(clreduce.var(np.array([3.0]), ddof=1))


def test_average(rng):
    """average with and without weights (of a's shape, or 1-D along an axis), returned=, and
    numpy's errors."""
    a = rng.integers(-50, 50, (5, 6)).astype(np.int16)
    w = rng.random((5, 6))
    for axis in (None, 0, 1):
        np.testing.assert_allclose(clreduce.average(a, axis=axis, weights=w), np.average(a, axis=axis, weights=w),
                                   rtol=1e-13)
        np.testing.assert_allclose(clreduce.average(a, axis=axis), np.average(a, axis=axis), rtol=1e-15)
    got, scale = clreduce.average(a, axis=1, weights=w[0], returned=True)
    want, want_scale = np.average(a, axis=1, weights=w[0], returned=True)
    np.testing.assert_allclose(got, want, rtol=1e-13)
    np.testing.assert_allclose(scale, want_scale, rtol=1e-15)
    with pytest.raises(ZeroDivisionError):
        clreduce.average(a, axis=0, weights=np.zeros(5))
    with pytest.raises(TypeError):
        clreduce.average(a, weights=w[0])


def test_masked_arrays_with_axes(rng):
    """numpy.ma masks with tuple axes on N-D arrays: numpy.ma's values."""
    m = np.ma.array(rng.integers(-100, 100, (4, 5, 6)).astype(np.int32), mask=rng.random((4, 5, 6)) < 0.3)
    m[0, 0, :] = np.ma.masked  # a group of no element along the last axis
    for axis in (None, (0, 2), -1):
        assert np.array_equal(clreduce.sum(m, axis=axis), np.ma.getdata(np.ma.sum(m, axis=axis)))
        counts = np.ma.count(m, axis=axis)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy's "Mean of empty slice" where a group is all masked
            got = np.asarray(clreduce.mean(m, axis=axis))
        want = np.ma.getdata(np.ma.mean(m, axis=axis))
        # numpy.ma: masked where no element is left; clreduce: NaN (the table's row)
        assert np.array_equal(np.isnan(got), np.asarray(counts) == 0)
        np.testing.assert_allclose(got[counts > 0], np.asarray(want)[counts > 0], rtol=1e-15)


def test_norm_as_numpy_linalg(rng):
    """norm as numpy.linalg.norm: vector norms along an axis or of the flattened array, matrix
    norms over two axes (1, -1, inf, -inf, 'fro'), numpy's types and NaN; singular-value norms
    refused, naming numpy.linalg.norm."""
    m = rng.standard_normal((5, 7))
    t = (rng.standard_normal((3, 4, 5)) * 10).astype(np.float32)
    v = rng.integers(-9, 9, 11)
    calls = [(m, {}), (m, {"ord": 1}), (m, {"ord": -1}), (m, {"ord": np.inf}), (m, {"ord": -np.inf}),
             (m, {"ord": "fro"}), (m, {"axis": 0}), (m, {"axis": 1, "ord": 1}), (m, {"axis": (1, 0), "ord": 1}),
             (t, {}), (t, {"axis": (0, 2), "ord": np.inf}), (t, {"axis": (2, 0), "ord": -1, "keepdims": True}),
             (t, {"axis": -1, "ord": -np.inf}), (t, {"axis": 1, "ord": 0, "keepdims": True}), (v, {"ord": 1}),
             (v, {}), (v, {"ord": np.inf}), (np.array([1.0, np.nan, -3.0]), {"ord": np.inf})]
    for a, kwargs in calls:
        got, want = clreduce.norm(a, **kwargs), np.linalg.norm(a, **kwargs)
        assert np.shape(got) == np.shape(want) and np.asarray(got).dtype == np.asarray(want).dtype, kwargs
        # float64 results within 1e-13; float32 ones: numpy's float32 arithmetic is the looser
        np.testing.assert_allclose(got, want, rtol=1e-5 if a.dtype == np.float32 else 1e-13)
    for ord in (2, -2, "nuc"):
        with pytest.raises(clreduce.Unsupported, match="numpy.linalg.norm"):
            clreduce.norm(m, ord=ord)
    with pytest.raises(ValueError, match="Improper number of dimensions"):
        clreduce.norm(t, ord=1)


@pytest.mark.parametrize("view", ["C", "F", "T", "flip", "rows", "cols3d"])
def test_views_read_in_place(view, rng):
    """The layouts the engine reads without a copy: the plan's array shares the caller's memory
    and its value is numpy's."""
    base = rng.integers(-9, 9, (6, 8, 10)).astype(np.int64)
    a, axes = {"C": (base, (1, 2)), "F": (np.asfortranarray(base), (0,)), "T": (base.T, (2,)),
               "flip": (base[::-1, :, ::-1], (2,)), "rows": (base[:, :, 2:9], (2,)),
               "cols3d": (base, (0,))}[view]
    layout = plan(a, normalize_axes(axes, a.ndim), ordered=False)
    assert not layout.copied and np.shares_memory(layout.array, a)
    assert np.array_equal(clreduce.sum(a, axis=axes), np.sum(a, axis=axes))
    interleaved = plan(base, (0, 2), ordered=False)  # the reduced axes around a kept one: a copy
    assert interleaved.copied
    assert plan(base.ravel()[::2], (0,), ordered=False).copied  # rows of one element: a copy (faster)


DEVICE_CALLS = ("sum", "max", "argmin", "mean", "var", "nansum", "nanmax", "ptp", "nanargmax", "count_nonzero")


@pytest.mark.parametrize("name", DEVICE_CALLS)
def test_device_arrays_as_numpy(name, cl_queue, rng):
    """numpy's semantics on PyOpenCL arrays (float32 with NaN in some rows): NaN propagated,
    skipped by the nan forms, numpy's types; the engine reads the device buffer in place."""
    import pyopencl.array as cla
    a = (rng.standard_normal((6, 50)) * 100).astype(np.float32)
    a[1, 7] = a[4, 0] = np.nan
    d = cla.to_device(cl_queue, a)
    for axis in (-1, None):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(np, name)(a, axis=axis)
            exact = getattr(np, name)(a.astype(np.float64), axis=axis)
        got = getattr(clreduce, name)(d, axis=axis)
        assert np.asarray(got).dtype == np.asarray(want).dtype and np.shape(got) == np.shape(want), axis
        if name in ("sum", "mean", "var", "nansum"):  # the float64 value rounded to float32
            np.testing.assert_allclose(got, np.asarray(exact).astype(np.float32), rtol=2**-22, atol=1e-3)
            assert np.array_equal(np.isnan(got), np.isnan(want))
        else:
            assert np.array_equal(got, want, equal_nan=True), axis


def test_device_arrays_with_axes(cl_queue, rng):
    """PyOpenCL arrays: innermost or outermost reduced axes in place; others refused, naming
    the fix."""
    import pyopencl.array as cla
    a = rng.integers(-9, 9, (4, 5, 6)).astype(np.int32)
    d = cla.to_device(cl_queue, a)
    for axis in (None, 0, (0, 1), 2, (1, 2), -1):
        assert np.array_equal(clreduce.sum(d, axis=axis), np.sum(a, axis=axis))
    f = a.astype(np.float32)
    f[1, 2, 3] = np.nan
    df = cla.to_device(cl_queue, f)
    assert np.array_equal(clreduce.argmax(df, axis=2), np.argmax(f, axis=2))
    assert np.array_equal(clreduce.max(df, axis=0), np.max(f, axis=0), equal_nan=True)
    with pytest.raises(clreduce.InvalidArgument, match="innermost or the outermost"):
        clreduce.sum(d, axis=1)


# The table's rows (docs/python.md, "What differs from numpy and why"), each as documented.

NUMPY_NAMED = ("sum", "prod", "nansum", "nanprod", "min", "max", "nanmin", "nanmax", "argmin", "argmax", "nanargmin",
               "nanargmax", "ptp", "mean", "nanmean", "var", "std", "nanvar", "nanstd", "count_nonzero", "all", "any",
               "average")


@pytest.mark.parametrize("name", NUMPY_NAMED)
def test_signatures_as_numpy(name):
    """numpy's parameters in numpy's order (positional ones positional, keyword-only ones
    keyword-only), clreduce's options after them as keywords; var's mean= is not taken (the
    table)."""
    import inspect
    ours = inspect.signature(getattr(clreduce, name)).parameters
    theirs = inspect.signature(getattr(np, name)).parameters
    positional = [p for p in theirs.values() if p.kind == p.POSITIONAL_OR_KEYWORD]
    assert [p.name for p in ours.values()][:len(positional)] == [p.name for p in positional]
    for p in theirs.values():
        if p.kind == p.KEYWORD_ONLY and p.name != "mean":
            assert ours[p.name].kind == p.KEYWORD_ONLY, p.name
    extra = [p for p in list(ours.values())[len(positional):] if p.name not in theirs]
    assert all(p.kind == p.KEYWORD_ONLY and p.name in ("float_mode", "overflow") for p in extra), extra
    if name in ("var", "std", "nanvar", "nanstd"):
        a = np.arange(10.0)
        assert getattr(clreduce, name)(a, correction=1) == getattr(clreduce, name)(a, ddof=1)
        assert getattr(clreduce, name)(a, correction=1) == pytest.approx(getattr(np, name)(a, correction=1),
                                                                         rel=1e-15)
        with pytest.raises(ValueError):
            getattr(clreduce, name)(a, ddof=1, correction=1)


def test_difference_integer_overflow():
    """Sums that do not fit their type raise Overflow; overflow='wrap' gives numpy's bits."""
    a = np.full(4, np.iinfo(np.int64).max, np.int64)
    with pytest.raises(clreduce.Overflow):
        clreduce.sum(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert clreduce.sum(a, overflow="wrap") == np.sum(a)


def test_difference_float16(has_fp16):
    """float16 data need the device's cl_khr_fp16: without it, Unsupported naming it."""
    a = np.arange(10, dtype=np.float16)
    if has_fp16:
        assert clreduce.sum(a) == np.sum(a) and clreduce.sum(a).dtype == np.float16
    else:
        with pytest.raises(clreduce.Unsupported, match="cl_khr_fp16"):
            clreduce.sum(a)


def test_difference_masked_groups_of_no_element():
    """A group whose every element is masked (numpy.ma: masked): mean NaN with numpy's
    RuntimeWarning, min and max InvalidArgument, sum, prod, all and any their value over no
    element."""
    m = np.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[1, 1], [0, 1]])
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = clreduce.mean(m, axis=1)
    assert math.isnan(got[0]) and got[1] == 3.0 and np.ma.is_masked(np.ma.mean(m, axis=1)[0])
    with pytest.raises(clreduce.InvalidArgument, match="masked"):
        clreduce.min(m, axis=1)
    assert clreduce.sum(m, axis=1).tolist() == [0.0, 3.0] and clreduce.all(m, axis=1).tolist() == [True, True]
    assert clreduce.prod(m, axis=1).tolist() == [1.0, 3.0] and clreduce.any(m, axis=1).tolist() == [False, True]


def test_difference_masked_refusals():
    """Masked arrays in the calls without a masked form: a TypeError naming the call and the
    way out."""
    m = np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    for call in (clreduce.argmin, clreduce.argmax, clreduce.nanargmin, clreduce.nanargmax, clreduce.ptp):
        with pytest.raises(TypeError, match=f"{call.__name__} does not take numpy.ma.*a.compressed"):
            call(m)
    with pytest.raises(TypeError, match="numpy.ma.average"):
        clreduce.average(m)


def test_difference_zero_sign_and_given_mean():
    """A zero extreme of +0.0 and -0.0 is a zero of either sign (numpy's own loops differ);
    var's mean= is not taken."""
    for values in ([0.0, -0.0], [-0.0, 0.0], [1.0, -0.0, 0.0, 2.0]):
        a = np.array(values)
        assert clreduce.min(a) == 0.0 and clreduce.argmin(a) == np.argmin(a)
    with pytest.raises(TypeError, match="mean"):
        clreduce.var(np.arange(4.0), mean=np.float64(1.5))


def test_difference_other_dtypes():
    """complex, object, datetime and non-native byte order arrays: a TypeError naming the types
    clreduce reduces; the native copy of a big-endian array gives numpy's value."""
    swapped = np.arange(10, dtype=np.dtype(np.int32).newbyteorder())
    for a in (np.arange(3) + 1j, np.array([1, "a"], dtype=object), np.array(["2020-01-01"], dtype="datetime64[D]"),
              swapped):
        for call in (clreduce.sum, clreduce.min, clreduce.mean, clreduce.var):
            with pytest.raises(TypeError, match="clreduce reduces int8"):
                call(a)
    assert clreduce.sum(swapped.astype(swapped.dtype.newbyteorder("="))) == np.sum(swapped) == 45


def test_difference_float32_accumulation(rng):
    """float32 sums accumulate in float64 and round once: closer to the exact sum than numpy's
    float32 accumulation (never further than the float64 bound plus half an ulp)."""
    a = (rng.standard_normal(1 << 16) * 1e3).astype(np.float32)
    exact = math.fsum(a.astype(np.float64).tolist())
    got = clreduce.sum(a)
    assert got.dtype == np.float32
    assert abs(float(got) - exact) <= abs(exact) * 2.0**-24 + (1 << 17) * 2.0**-53 * float(np.abs(a).sum())


def test_difference_no_floating_point_warnings():
    """numpy's floating-point warnings ("invalid value encountered in reduce") have no
    counterpart: the values are numpy's (NaN for inf - inf), silently."""
    a = np.array([np.inf, -np.inf, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(clreduce.sum(a))
