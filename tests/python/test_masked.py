"""numpy.ma masked arrays: the calls whose operation has an identity (sum, prod, min, max,
count_nonzero, all, any, the bitwise ones, sum_of_squares, norm) and mean, nansum, nanmean leave
the masked elements out (the array is filled, a copy), as numpy.ma's; the others refuse with a
TypeError."""

import math

import numpy as np
import pytest

import clreduce
from references import close, data, reference


def masked(rng, dtype, n, share=0.3):
    a = data(rng, dtype, n, bits=20)
    return np.ma.masked_array(a, mask=rng.random(n) < share)


def test_the_issue_example():
    assert clreduce.sum(np.ma.masked_array([1, 2, 1000], mask=[0, 0, 1])) == 3
    assert clreduce.prod(np.ma.masked_array([2, 3, 1000, 5], mask=[0, 0, 1, 0])) == 30
    assert clreduce.sum(np.ma.masked_array([1, 2, 1000])) == 1003  # no mask: every element


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float64"])
def test_masked_elements_are_left_out(dtype, rng):
    """Every honoured call over the unmasked elements' exact reference."""
    m = masked(rng, dtype, 3000)
    kept = m.compressed()
    assert clreduce.sum(m) == reference("sum", kept) or close(clreduce.sum(m), reference("sum", kept), kept, "sum")
    for name, op in (("min", "min"), ("max", "max"), ("nanmin", "min"), ("nanmax", "max"),
                     ("count_nonzero", "count_nonzero"), ("all", "all"), ("any", "any")):
        assert getattr(clreduce, name)(m) == reference(op, kept), name
    assert clreduce.norm(m, ord=np.inf) == reference("norm_inf", kept)
    assert close(clreduce.norm(m, ord=1), reference("norm_l1", kept), kept, "norm_l1")
    if dtype != "float64":
        assert clreduce.sum_of_squares(m) == reference("sum_of_squares", kept)
        for name in ("bit_and", "bit_or", "bit_xor"):
            assert getattr(clreduce, name)(m) == reference(name, kept), name
        assert clreduce.mean(m) == reference("mean", kept)  # the correctly rounded mean of the exact sum
    else:
        assert close(clreduce.mean(m), reference("mean", kept), kept, "mean")
    assert type(clreduce.mean(m)) is np.float64 and type(clreduce.min(m)) is np.dtype(dtype).type


@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_masked_matrices_along_an_axis(dtype, rng):
    """Per row and per column: numpy.ma's values (keepdims too)."""
    m = masked(rng, dtype, 40 * 70).reshape(40, 70)
    for axis in (0, 1, -1, None):
        assert np.array_equal(clreduce.min(m, axis=axis), np.ma.getdata(m.min(axis=axis))), axis
        assert np.array_equal(clreduce.count_nonzero(m, axis=axis), np.count_nonzero(m.filled(0), axis=axis))
        want = np.ma.getdata(m.sum(axis=axis, dtype=np.float64 if dtype == "float32" else np.int64))
        wide = np.float64 if dtype == "float32" else None  # accumulated (and given) in float64
        np.testing.assert_allclose(clreduce.sum(m, axis=axis, dtype=wide), want, rtol=1e-12)
        np.testing.assert_allclose(clreduce.mean(m, axis=axis, dtype=wide),
                                   np.ma.getdata(m.mean(axis=axis, dtype=np.float64)), rtol=1e-12)
        assert np.shape(clreduce.sum(m, axis=axis, keepdims=True)) == np.shape(m.sum(axis=axis, keepdims=True))
        assert np.shape(clreduce.mean(m, axis=axis, keepdims=True)) == np.shape(m.mean(axis=axis, keepdims=True))


def test_masked_nan_calls(rng):
    """nansum and nanmean skip NaN and the masked elements."""
    m = masked(rng, "float64", 2000)
    m.data[rng.choice(m.size, 100, replace=False)] = np.nan
    kept = m.compressed()
    kept = kept[~np.isnan(kept)]
    assert close(clreduce.nansum(m), math.fsum(kept.tolist()), kept, "sum")
    assert close(clreduce.nanmean(m), math.fsum(kept.tolist()) / kept.size, kept, "mean")
    ints = masked(rng, "int32", 500)
    assert clreduce.nanmean(ints) == reference("mean", ints.compressed())


def test_masked_refusals(rng):
    """No element left where the operation has no identity: a ValueError, as for empty input
    (mean: NaN and a RuntimeWarning, as numpy's mean of no element);
    the calls that do not honour masks: a TypeError naming them."""
    every = np.ma.masked_array([1.0, 2.0], mask=[1, 1])
    for call in (clreduce.min, clreduce.max):
        with pytest.raises(ValueError, match="masked"):
            call(every)
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert np.isnan(clreduce.mean(every))  # numpy's mean of no element (numpy.ma's: masked)
    assert clreduce.sum(every) == 0
    rows = np.ma.masked_array(np.ones((2, 3)), mask=[[1, 1, 1], [0, 1, 0]])
    with pytest.raises(ValueError, match="masked"):
        clreduce.min(rows, axis=1)
    assert np.array_equal(clreduce.sum(rows, axis=1), [0.0, 2.0])
    m = masked(rng, "int32", 100)
    for call in (lambda: clreduce.argmin(m), lambda: clreduce.minmax(m), lambda: clreduce.statistics(m),
                 lambda: clreduce.transform_reduce(m, "x"), lambda: clreduce.segment_sum(m, [0, 100]),
                 lambda: clreduce.default_reducer().partial("sum", m)):
        with pytest.raises(TypeError, match="masked"):
            call()
