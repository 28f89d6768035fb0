"""Comparison, masking and scan kernels (``runtime/kernels/select.py``) against NumPy references
written here, in every namespace (NumPy and ``array_api_strict``)."""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.runtime.kernels.testing import namespaces, run

pytestmark = pytest.mark.parametrize("xp", [xp for _, xp in namespaces()],
                                     ids=[n for n, _ in namespaces()])
rng = np.random.default_rng(20261203)


@pytest.mark.parametrize("name, ref", [("greater_than", np.greater), ("less_equal", np.less_equal),
                                       ("equal", np.equal), ("not_equal", np.not_equal)])
def test_comparisons_broadcast_to_bool(xp, name, ref):
    x = rng.integers(-2, 3, (2, 4, 1)).astype(np.float32)
    y = np.float32(0.0)
    (out,) = run(xp, f"pd_op.{name}", [x, np.asarray(y)], {})
    np.testing.assert_array_equal(out, ref(x, y))
    assert out.dtype == np.bool_


def test_masked_select_takes_the_true_positions_in_row_major_order(xp):
    x = rng.standard_normal((2, 3, 1)).astype(np.float32)
    mask = x > 0
    (out,) = run(xp, "pd_op.masked_select", [x, mask], {})
    np.testing.assert_array_equal(out, x[mask])
    # a mask broadcast against x
    (out,) = run(xp, "pd_op.masked_select", [x, np.array([True, False, True])[None, :, None]], {})
    np.testing.assert_array_equal(out, x[:, [0, 2], 0].ravel())


def test_masked_select_grad_scatters_back_and_zeros_the_rest(xp):
    x = rng.standard_normal((2, 3, 1)).astype(np.float32)
    mask = x > 0
    g = rng.standard_normal(int(mask.sum())).astype(np.float32)
    (out,) = run(xp, "pd_op.masked_select_grad", [x, mask, g], {})
    expected = np.zeros_like(x)
    expected[mask] = g
    np.testing.assert_array_equal(out, expected)
    assert out.shape == x.shape and out.dtype == np.float32


@pytest.mark.parametrize("diagonal", [-1, 0, 1])
def test_triu_and_tril_keep_a_triangle_of_the_last_two_axes(xp, diagonal):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    (up,) = run(xp, "pd_op.triu", [x], {"diagonal": diagonal})
    (low,) = run(xp, "pd_op.tril", [x], {"diagonal": diagonal})
    np.testing.assert_array_equal(up, np.triu(x, diagonal))
    np.testing.assert_array_equal(low, np.tril(x, diagonal))


@pytest.mark.parametrize("flags", [{}, {"exclusive": True}, {"reverse": True}, {"flatten": True}])
def test_cumsum(xp, flags):
    x = rng.integers(0, 5, (2, 4)).astype(np.int64)
    (out,) = run(xp, "pd_op.cumsum", [x, np.asarray([-1], np.int32)], flags)
    src = x.ravel() if flags.get("flatten") else x
    axis = 0 if flags.get("flatten") else -1
    if flags.get("reverse"):
        expected = np.flip(np.cumsum(np.flip(src, axis), axis), axis)
    else:
        expected = np.cumsum(src, axis)
    if flags.get("exclusive"):
        expected = expected - src
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == np.int64
