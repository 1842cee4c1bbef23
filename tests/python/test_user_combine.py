"""transform_reduce with a combine of one's own (combine as an expression in a and b, with its
identity): the built-in combines written as expressions give the built-ins' values, segments and
empty groups give the identity, and the refusals name their column (docs/expression-language.md,
"A combine of one's own")."""

import numpy as np
import pytest

import clreduce


@pytest.mark.parametrize("n", [1, 15, 16, 17, 5000])
def test_builtin_combines_as_expressions(rng, n):
    a = rng.integers(-(2**20), 2**20, n, dtype=np.int32)
    assert clreduce.transform_reduce(a, "x", "a + b", identity=0) == clreduce.transform_reduce(a, "x", "sum")
    assert clreduce.transform_reduce(a, "x", "max(a, b)", identity="-9223372036854775808") == a.max()
    assert clreduce.transform_reduce(a, "x", "min(b, a)", identity=2**63 - 1) == a.min()
    assert clreduce.transform_reduce(a, "x & 1 ? -1 : 1", "a * b", identity=1) == \
        clreduce.transform_reduce(a, "x & 1 ? -1 : 1", "product")
    assert clreduce.transform_reduce(a, "x", "a | b", identity="0") == np.bitwise_or.reduce(a.astype(np.int64))


def test_rows_and_empty_groups(rng):
    m = rng.integers(0, 1000, (7, 33), dtype=np.int32)
    np.testing.assert_array_equal(clreduce.transform_reduce(m, "x", "max(a, b)", axis=1, identity=-1), m.max(axis=1))
    np.testing.assert_array_equal(clreduce.transform_reduce(m, "x", "a + b", axis=0, identity=0), m.sum(axis=0))
    assert clreduce.transform_reduce(np.zeros(0, np.int32), "x", "a + b", identity=-5) == -5


def test_logsumexp(rng):
    x = rng.uniform(-10, 10, 3000)
    got = clreduce.transform_reduce(x, "x", "max(a, b) + log(1 + exp(-fabs(a - b)))",
                                    identity="-0x1.fffffffffffffp1023")
    top = x.max()
    expected = top + np.log(np.exp(x - top).sum())
    assert abs(got - expected) <= 3000 * 8 * 2.0**-53 * (abs(expected) + 1)


def test_refusals_name_the_rule_and_column():
    a = np.arange(10, dtype=np.int32)
    with pytest.raises(clreduce.InvalidArgument, match="not symmetric in a and b"):
        clreduce.transform_reduce(a, "x", "a - b", identity=0)
    with pytest.raises(clreduce.InvalidArgument, match="unknown identifier 'c' at column 5"):
        clreduce.transform_reduce(a, "x", "a + c", identity=0)
    with pytest.raises(clreduce.InvalidArgument, match="a combine's state is one value"):
        clreduce.transform_reduce(a, "x", "max(a, b), a + b", identity=0)
    with pytest.raises(clreduce.InvalidArgument, match="'1.5' at column 1 is a floating-point literal"):
        clreduce.transform_reduce(a, "x", "a + b", identity=1.5)
    with pytest.raises(clreduce.InvalidArgument, match="empty"):
        clreduce.transform_reduce(a, "x", "", identity=0)
    with pytest.raises(clreduce.InvalidArgument, match="with its identity"):
        clreduce.transform_reduce(a, "x", "a + b")
