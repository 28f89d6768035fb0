"""Gradient kernels against central finite differences of the forward kernels, in every namespace.

For a forward op ``f`` and a random ``out_grad`` ``w``, the grad kernel's result for operand ``x``
must equal d/dx sum(f(...) * w), estimated by central differences in float64.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rulepass.runtime.kernels import KernelError
from rulepass.runtime.kernels.testing import finite_difference, namespaces, run, weighted_loss

pytestmark = pytest.mark.parametrize("xp", [xp for _, xp in namespaces()], ids=[n for n, _ in namespaces()])

FAST = settings(max_examples=15, deadline=None)
rng = np.random.default_rng(7)


def expect_grad(xp, op, inputs, attrs, position, actual, result=0, weight=None, tol=1e-6):
    """Assert ``actual`` is d/d(inputs[position]) of sum(op(inputs)[result] * weight)."""
    outputs = run(xp, op, inputs, attrs)
    weight = outputs[result] * 0 + 1 if weight is None else weight
    loss = weighted_loss(xp, op, inputs, attrs, position, result, weight)
    numeric = finite_difference(loss, inputs[position])
    assert actual.shape == np.shape(inputs[position])
    np.testing.assert_allclose(actual, numeric, rtol=tol, atol=tol)


def away_from_zero(shape):
    values = rng.uniform(0.2, 2.0, shape)
    return values * rng.choice([-1.0, 1.0], shape)


# ---- elementwise ------------------------------------------------------------------------------

@FAST
@given(data=st.data(), op=st.sampled_from(["add", "subtract", "multiply", "divide"]))
def test_binary_grads_reduce_broadcast_axes(xp, data, op):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3))
    x = data.draw(hnp.arrays(np.float64, shapes.input_shapes[0], elements=st.floats(-2, 2)))
    y = data.draw(hnp.arrays(np.float64, shapes.input_shapes[1], elements=st.floats(0.5, 2)))
    (out,) = run(xp, f"pd_op.{op}", [x, y])
    weight = rng.standard_normal(out.shape)
    grad_inputs = [x, y, out, weight] if op == "divide" else [x, y, weight]
    x_grad, y_grad = run(xp, f"pd_op.{op}_grad", grad_inputs, {"axis": -1})
    expect_grad(xp, f"pd_op.{op}", [x, y], {}, 0, x_grad, weight=weight)
    expect_grad(xp, f"pd_op.{op}", [x, y], {}, 1, y_grad, weight=weight)


def test_add_grad_with_legacy_axis_aligns_y_at_axis(xp):
    x, y, weight = rng.standard_normal((2, 3, 4)), rng.standard_normal(3), rng.standard_normal((2, 3, 4))
    x_grad, y_grad = run(xp, "pd_op.add_grad_", [x, y, weight], {"axis": 1})
    np.testing.assert_allclose(x_grad, weight)
    np.testing.assert_allclose(y_grad, weight.sum(axis=(0, 2)))
    _, m_grad = run(xp, "pd_op.multiply_grad", [x, y, weight], {"axis": 1})
    np.testing.assert_allclose(m_grad, (weight * x).sum(axis=(0, 2)))


def test_scale_square_and_cast_grads(xp):
    x, weight = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    (grad,) = run(xp, "pd_op.square_grad", [x, weight])
    expect_grad(xp, "pd_op.square", [x], {}, 0, grad, weight=weight)
    (grad,) = run(xp, "pd_op.scale_grad", [weight, np.array([-1.5])])
    expect_grad(xp, "pd_op.scale", [x, np.array([-1.5])], {"bias": 3.0}, 0, grad, weight=weight)
    (grad,) = run(xp, "pd_op.cast_grad", [x, weight.astype(np.float32)])
    assert grad.dtype == np.float64


def test_pow_and_its_grad(xp):
    # the LLaMA RMSNorm's x.pow(2) (tests/data/paddle/llama_*): y a float attribute
    x, weight = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    np.testing.assert_allclose(run(xp, "pd_op.pow", [x], {"y": 2})[0], x * x)
    np.testing.assert_allclose(run(xp, "pd_op.pow", [np.abs(x)], {"y": 1.5})[0], np.abs(x) ** 1.5)
    (grad,) = run(xp, "pd_op.pow_grad", [x, weight], {"y": 3})
    expect_grad(xp, "pd_op.pow", [x], {"y": 3}, 0, grad, weight=weight)


# ---- matmul -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "x_shape, y_shape, tx, ty",
    [
        ((3, 4), (4, 5), False, False),
        ((4, 3), (5, 4), True, True),
        ((4, 3), (4, 5), True, False),
        ((3, 4), (5, 4), False, True),
        ((2, 3, 4, 5), (2, 3, 4, 6), True, False),  # attention's batched products, no broadcast
        ((2, 3, 5, 4), (2, 3, 6, 4), False, True),
        ((2, 1, 4, 3), (5, 4), True, True),
        ((2, 3, 4), (1, 4, 2), False, False),
        ((4,), (4, 5), False, False),
        ((3, 4), (4,), False, False),
        ((4,), (4,), False, False),
    ],
)
def test_matmul_grad(xp, x_shape, y_shape, tx, ty):
    x, y = rng.standard_normal(x_shape), rng.standard_normal(y_shape)
    attrs = {"transpose_x": tx, "transpose_y": ty}
    (out,) = run(xp, "pd_op.matmul", [x, y], attrs)
    weight = rng.standard_normal(out.shape)
    x_grad, y_grad = run(xp, "pd_op.matmul_grad", [x, y, weight], attrs)
    expect_grad(xp, "pd_op.matmul", [x, y], attrs, 0, x_grad, weight=weight)
    expect_grad(xp, "pd_op.matmul", [x, y], attrs, 1, y_grad, weight=weight)


# ---- activations ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "op, grad_operands",
    [
        ("relu", lambda x, out, w: [out, w]),
        ("tanh", lambda x, out, w: [out, w]),
        ("silu", lambda x, out, w: [x, out, w]),
    ],
)
def test_unary_activation_grads(xp, op, grad_operands):
    x = away_from_zero((3, 4)) * 2
    (out,) = run(xp, f"pd_op.{op}", [x])
    weight = rng.standard_normal(x.shape)
    (grad,) = run(xp, f"pd_op.{op}_grad", grad_operands(x, out, weight))
    expect_grad(xp, f"pd_op.{op}", [x], {}, 0, grad, weight=weight)
    (inplace,) = run(xp, f"pd_op.{op}_grad_", grad_operands(x, out, weight))
    np.testing.assert_array_equal(inplace, grad)


@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_grad(xp, approximate):
    x, weight = rng.standard_normal((4, 5)) * 3, rng.standard_normal((4, 5))
    (grad,) = run(xp, "pd_op.gelu_grad", [x, weight], {"approximate": approximate})
    expect_grad(xp, "pd_op.gelu", [x], {"approximate": approximate}, 0, grad, weight=weight)


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_grad(xp, axis):
    x, weight = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    (out,) = run(xp, "pd_op.softmax", [x], {"axis": axis})
    (grad,) = run(xp, "pd_op.softmax_grad", [out, weight], {"axis": axis})
    expect_grad(xp, "pd_op.softmax", [x], {"axis": axis}, 0, grad, weight=weight)


def test_leaky_relu_and_hardswish_grads(xp):
    # x kept off the kinks (0 for leaky_relu; -3 and 3 for hardswish), where no derivative exists
    x = away_from_zero((4, 6)) * 2.4
    x = np.where(np.abs(np.abs(x) - 3.0) < 0.2, x + 0.5, x)
    weight = rng.standard_normal(x.shape)
    attrs = {"negative_slope": 0.1}
    (grad,) = run(xp, "pd_op.leaky_relu_grad", [x, weight], attrs)
    expect_grad(xp, "pd_op.leaky_relu", [x], attrs, 0, grad, weight=weight)
    (grad,) = run(xp, "pd_op.hardswish_grad", [x, weight])
    expect_grad(xp, "pd_op.hardswish", [x], {}, 0, grad, weight=weight)
    assert np.any(x > 3) and np.any(x < -3) and np.any(np.abs(x) < 3)  # all three pieces


@pytest.mark.parametrize("axis", [-1, 0])
def test_log_softmax_grad(xp, axis):
    x, weight = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    (out,) = run(xp, "pd_op.log_softmax", [x], {"axis": axis})
    np.testing.assert_allclose(np.exp(out).sum(axis=axis), 1.0)
    (grad,) = run(xp, "pd_op.log_softmax_grad", [out, weight], {"axis": axis})
    expect_grad(xp, "pd_op.log_softmax", [x], {"axis": axis}, 0, grad, weight=weight)


def test_maximum_grad_gives_ties_to_y(xp):
    x, y = rng.standard_normal((3, 4)), rng.standard_normal(4)
    weight = rng.standard_normal((3, 4))
    x_grad, y_grad = run(xp, "pd_op.maximum_grad", [x, y, weight])
    expect_grad(xp, "pd_op.maximum", [x, y], {}, 0, x_grad, weight=weight)
    expect_grad(xp, "pd_op.maximum", [x, y], {}, 1, y_grad, weight=weight)
    tie = np.ones((2, 2))
    t_x, t_y = run(xp, "pd_op.maximum_grad", [tie, tie, tie])
    assert np.all(t_x == 0) and np.all(t_y == 1)


def test_index_select_takes_negative_ids_from_the_end_and_refuses_bad_ones(xp):
    # as Paddle's IndexSelectInner: ids in [-n, n); an empty index, and a 0-d x refused
    x = rng.standard_normal((3, 2))
    (out,) = run(xp, "pd_op.index_select", [x, np.array([-1, 0, -3])], {"axis": 0})
    np.testing.assert_array_equal(out, x[[2, 0, 0]])
    weight = rng.standard_normal((3, 2))
    (grad,) = run(xp, "pd_op.index_select_grad", [x, np.array([-1, 0, -3]), weight], {"axis": 0})
    np.testing.assert_allclose(grad, [weight[1] + weight[2], [0, 0], weight[0]])
    empty = np.zeros(0, np.int64)
    (none,) = run(xp, "pd_op.index_select", [x, empty], {"axis": 0})
    assert none.shape == (0, 2)
    (zeros,) = run(xp, "pd_op.index_select_grad", [x, empty, np.zeros((0, 2))], {"axis": 0})
    np.testing.assert_array_equal(zeros, np.zeros((3, 2)))
    with pytest.raises(KernelError, match=r"ids must lie in \[-3, 3\)"):
        run(xp, "pd_op.index_select", [x, np.array([3])], {"axis": 0})
    with pytest.raises(KernelError, match="0-d"):
        run(xp, "pd_op.index_select", [np.float64(1.0), np.array([0])], {"axis": 0})


def test_leaky_relu_and_hardswish_grads_follow_paddles_arithmetic(xp):
    # leaky_relu_grad is 1 at x = 0 (x >= 0) and 0 at NaN; hardswish_grad is NaN at NaN
    x = np.array([0.0, np.nan, -1.0])
    og = np.ones(3)
    (leaky,) = run(xp, "pd_op.leaky_relu_grad", [x, og], {"negative_slope": 0.1})
    np.testing.assert_allclose(leaky, [1.0, 0.0, 0.1])
    (hard,) = run(xp, "pd_op.hardswish_grad", [np.array([3.0, np.nan, -3.0]), og])
    assert hard[0] == 1.0 and np.isnan(hard[1]) and hard[2] == 0.0


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_index_select_grad_adds_repeated_ids(xp, axis):
    x = rng.standard_normal((3, 4, 2))
    index = np.array([2, 0, 2, 1, 2])[: x.shape[axis] + 1] % x.shape[axis]
    attrs = {"axis": axis}
    (out,) = run(xp, "pd_op.index_select", [x, index], attrs)
    np.testing.assert_array_equal(out, np.take(x, index, axis=axis))
    weight = rng.standard_normal(out.shape)
    (grad,) = run(xp, "pd_op.index_select_grad", [x, index, weight], attrs)
    expect_grad(xp, "pd_op.index_select", [x, index], attrs, 0, grad, weight=weight)


# ---- normalization ----------------------------------------------------------------------------

@pytest.mark.parametrize("begin, affine", [(1, True), (2, True), (1, False)])
def test_layer_norm_grad(xp, begin, affine):
    x = rng.standard_normal((2, 3, 4))
    cols = int(np.prod(x.shape[begin:]))
    scale, bias = (rng.standard_normal(cols), rng.standard_normal(cols)) if affine else (None, None)
    attrs = {"epsilon": 1e-5, "begin_norm_axis": begin}
    _, mean, variance = run(xp, "pd_op.layer_norm", [x, scale, bias], attrs)
    weight = rng.standard_normal(x.shape)
    grad_operands = [x, scale, bias, mean, variance, weight]
    x_grad, scale_grad, bias_grad = run(xp, "pd_op.layer_norm_grad", grad_operands, attrs)
    expect_grad(xp, "pd_op.layer_norm", [x, scale, bias], attrs, 0, x_grad, weight=weight)
    if affine:
        expect_grad(xp, "pd_op.layer_norm", [x, scale, bias], attrs, 1, scale_grad, weight=weight)
        expect_grad(xp, "pd_op.layer_norm", [x, scale, bias], attrs, 2, bias_grad, weight=weight)
    else:
        assert scale_grad is None and bias_grad is None


@pytest.mark.parametrize("with_scale", [True, False])
def test_rms_norm_grad(xp, with_scale):
    x = rng.standard_normal((3, 2, 4))
    scale = rng.standard_normal((2, 4)) if with_scale else None
    attrs = {"normalized_shape": [2, 4], "epsilon": 1e-6}
    _, invvar = run(xp, "pd_op.rms_norm", [x, scale], attrs)
    weight = rng.standard_normal(x.shape)
    x_grad, scale_grad = run(xp, "pd_op.rms_norm_grad", [x, scale, invvar, weight], attrs)
    expect_grad(xp, "pd_op.rms_norm", [x, scale], attrs, 0, x_grad, weight=weight)
    if with_scale:
        expect_grad(xp, "pd_op.rms_norm", [x, scale], attrs, 1, scale_grad, weight=weight)
    else:
        assert scale_grad is None


# ---- reductions -------------------------------------------------------------------------------

@FAST
@given(data=st.data(), op=st.sampled_from(["mean", "sum"]), keepdim=st.booleans())
def test_reduction_grads(xp, data, op, keepdim):
    shape = hnp.array_shapes(min_dims=1, max_dims=3, max_side=3)
    x = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2)))
    axes = np.array(data.draw(st.lists(st.integers(0, x.ndim - 1), max_size=x.ndim, unique=True)), np.int64)
    attrs = {"keepdim": keepdim, "dtype": "Undefined"}
    (out,) = run(xp, f"pd_op.{op}", [x, axes], attrs)
    weight = rng.standard_normal(out.shape)
    (grad,) = run(xp, f"pd_op.{op}_grad", [x, weight, axes], {"keepdim": keepdim, "reduce_all": False})
    expect_grad(xp, f"pd_op.{op}", [x, axes], attrs, 0, grad, weight=weight)


def test_reduce_all_and_mean_all_grads(xp):
    x = rng.standard_normal((2, 3))
    operands = [x, np.array(2.0), np.array([0], np.int64)]
    (grad,) = run(xp, "pd_op.sum_grad", operands, {"keepdim": False, "reduce_all": True})
    np.testing.assert_allclose(grad, np.full((2, 3), 2.0))
    (grad,) = run(xp, "pd_op.mean_all_grad", [x, np.array(3.0)])
    expect_grad(xp, "pd_op.mean_all", [x], {}, 0, grad, weight=np.array(3.0))


# ---- shape ------------------------------------------------------------------------------------

def test_reshape_and_transpose_grads(xp):
    x = rng.standard_normal((2, 3, 4))
    weight = rng.standard_normal((4, 6))
    (grad,) = run(xp, "pd_op.reshape_grad", [x, weight])
    expect_grad(xp, "pd_op.reshape", [x, np.array([4, -1])], {}, 0, grad, weight=weight)
    perm = {"perm": [1, 2, 0]}
    weight = rng.standard_normal((3, 4, 2))
    (grad,) = run(xp, "pd_op.transpose_grad", [weight], perm)
    expect_grad(xp, "pd_op.transpose", [x], perm, 0, grad, weight=weight)


def test_concat_grad_returns_a_vector(xp):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 1))
    weight = rng.standard_normal((2, 4))
    (grads,) = run(xp, "pd_op.concat_grad", [[a, b], weight, np.array([1], np.int32)])
    assert isinstance(grads, list) and len(grads) == 2
    for position, grad in enumerate(grads):
        def loss(v, position=position):
            parts = [a, b]
            parts[position] = v
            return float(np.sum(run(xp, "pd_op.concat", [parts, np.array([1], np.int32)])[0] * weight))
        np.testing.assert_allclose(grad, finite_difference(loss, [a, b][position]), atol=1e-6)


@pytest.mark.parametrize("op", ["pd_op.split_grad", "pd_op.split_with_num_grad"])
def test_split_grads_concatenate(xp, op):
    x = rng.standard_normal((3, 4))
    weights = [rng.standard_normal((3, 2)), rng.standard_normal((3, 2))]
    (grad,) = run(xp, op, [weights, np.array([1], np.int32)])

    def loss(v):
        parts = run(xp, "pd_op.split_with_num", [v, np.array([1], np.int32)], {"num": 2})[0]
        return float(sum(np.sum(p * w) for p, w in zip(parts, weights, strict=True)))

    np.testing.assert_allclose(grad, finite_difference(loss, x), atol=1e-6)


@pytest.mark.parametrize(
    "axes, starts, ends, decrease", [([1], [1], [3], []), ([0, 2], [-2, 0], [5, 1], [2])]
)
def test_slice_grad(xp, axes, starts, ends, decrease):
    x = rng.standard_normal((3, 4, 2))
    attrs = {"axes": axes, "infer_flags": [1] * len(axes), "decrease_axis": decrease}
    inputs = [x, np.array(starts), np.array(ends)]
    (out,) = run(xp, "pd_op.slice", inputs, attrs)
    weight = rng.standard_normal(out.shape)
    (grad,) = run(xp, "pd_op.slice_grad", [x, weight, np.array(starts), np.array(ends)], attrs)
    expect_grad(xp, "pd_op.slice", inputs, attrs, 0, grad, weight=weight)


# ---- embedding and loss -----------------------------------------------------------------------

@pytest.mark.parametrize("padding_idx", [-1, 1])
def test_embedding_grad(xp, padding_idx):
    ids, weight_table = np.array([[1, 3, 3], [0, 1, 3]]), rng.standard_normal((5, 2))
    attrs = {"padding_idx": padding_idx, "sparse": False}
    upstream = rng.standard_normal((2, 3, 2))
    (grad,) = run(xp, "pd_op.embedding_grad", [ids, weight_table, upstream], attrs)
    expect_grad(xp, "pd_op.embedding", [ids, weight_table], attrs, 1, grad, weight=upstream)
    assert np.all(grad[4] == 0)  # an unused row


CE = {"soft_label": False, "use_softmax": True, "numeric_stable_mode": True, "ignore_index": -100, "axis": -1}


@pytest.mark.parametrize(
    "variant",
    [
        {},
        {"soft_label": True},
        {"use_softmax": False},
        {"use_softmax": False, "soft_label": True},
        {"axis": 0},
    ],
)
def test_cross_entropy_grad(xp, variant):
    attrs = {**CE, **variant}
    axis = attrs["axis"]
    logits = rng.standard_normal((4, 5) if axis == -1 else (5, 4))
    if not attrs["use_softmax"]:
        logits = np.exp(logits) / np.exp(logits).sum(axis=axis, keepdims=True)
    if attrs["soft_label"]:
        label = rng.random(logits.shape)
        label /= label.sum(axis=axis, keepdims=True)
    else:
        label = np.array([[2], [0], [-100], [4]])
        label = label if axis == -1 else label.T
    softmax, loss = run(xp, "pd_op.cross_entropy_with_softmax", [logits, label], attrs)
    weight = rng.standard_normal(loss.shape)
    (grad,) = run(xp, "pd_op.cross_entropy_with_softmax_grad", [label, softmax, weight], attrs)
    expect_grad(xp, "pd_op.cross_entropy_with_softmax", [logits, label], attrs, 0, grad,
                result=1, weight=weight, tol=1e-5)


# ---- added ops ----------------------------------------------------------------------------------

@pytest.mark.parametrize("op, uses_out", [("exp", True), ("sqrt", True), ("rsqrt", True), ("sigmoid", True),
                                          ("log", False)])
def test_unary_math_grads(xp, op, uses_out):
    x, weight = rng.uniform(0.5, 3.0, (2, 3)), rng.standard_normal((2, 3))
    (out,) = run(xp, f"pd_op.{op}", [x])
    (grad,) = run(xp, f"pd_op.{op}_grad", [out if uses_out else x, weight])
    expect_grad(xp, f"pd_op.{op}", [x], {}, 0, grad, weight=weight)


def test_swiglu_grads(xp):
    a, b, weight = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    a_grad, b_grad = run(xp, "pd_op.swiglu_grad", [a, b, weight])
    expect_grad(xp, "pd_op.swiglu", [a, b], {}, 0, a_grad, weight=weight)
    expect_grad(xp, "pd_op.swiglu", [a, b], {}, 1, b_grad, weight=weight)
    joined = np.concatenate([a, b], axis=-1)
    joined_grad, none = run(xp, "pd_op.swiglu_grad", [joined, None, weight])
    assert none is None
    expect_grad(xp, "pd_op.swiglu", [joined, None], {}, 0, joined_grad, weight=weight)


def test_c_embedding_grad(xp):
    weight, ids = rng.standard_normal((4, 3)), np.array([[0, 5, 6], [9, 5, 7]])
    upstream = rng.standard_normal((2, 3, 3))
    attrs = {"start_index": 4, "vocab_size": 10}
    (grad,) = run(xp, "pd_op.c_embedding_grad", [weight, ids, upstream], attrs)
    expect_grad(xp, "pd_op.c_embedding", [weight, ids], attrs, 0, grad, weight=upstream)


def test_expand_squeeze_unsqueeze_grads(xp):
    column = rng.standard_normal((3, 1))
    target = np.array([2, -1, 4])
    weight = rng.standard_normal((2, 3, 4))
    (grad,) = run(xp, "pd_op.expand_grad", [column, weight, target])
    expect_grad(xp, "pd_op.expand", [column, target], {}, 0, grad, weight=weight)
    x, axes = rng.standard_normal((2, 3)), np.array([0, -1])
    weight = rng.standard_normal((1, 2, 3, 1))
    (grad,) = run(xp, "pd_op.unsqueeze_grad", [x, weight, axes])
    expect_grad(xp, "pd_op.unsqueeze", [x, axes], {}, 0, grad, weight=weight)
    (grad,) = run(xp, "pd_op.squeeze_grad", [weight, x, axes])
    expect_grad(xp, "pd_op.squeeze", [weight, axes], {}, 0, grad, weight=x)


# ---- abs, sin, cos, clip, max/min, where, flatten, stack, dropout --------------------------------

@pytest.mark.parametrize("op", ["abs", "sin", "cos"])
def test_abs_sin_cos_grads(xp, op):
    x, weight = away_from_zero((3, 4)), rng.standard_normal((3, 4))
    (grad,) = run(xp, f"pd_op.{op}_grad", [x, weight])
    expect_grad(xp, f"pd_op.{op}", [x], {}, 0, grad, weight=weight)


def test_clip_grad_passes_strictly_inside_the_bounds(xp):
    x = np.array([-2.0, -1.0, -0.3, 0.4, 0.5, 3.0])
    weight = rng.standard_normal(6)
    lo, hi = np.array([-1.0]), np.array([0.5])
    (grad,) = run(xp, "pd_op.clip_grad", [x, weight, lo, hi])
    np.testing.assert_array_equal(grad, weight * np.array([0, 0, 1, 1, 0, 0]))
    inside = np.array([-0.3, 0.4])
    (grad,) = run(xp, "pd_op.clip_grad", [inside, weight[:2], lo, hi])
    expect_grad(xp, "pd_op.clip", [inside, lo, hi], {}, 0, grad, weight=weight[:2])


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("keepdim", [True, False])
def test_max_min_grads(xp, op, keepdim):
    x = rng.standard_normal((2, 3, 4))
    axis = np.array([1], np.int64)
    (out,) = run(xp, f"pd_op.{op}", [x, axis], {"keepdim": keepdim})
    weight = rng.standard_normal(out.shape)
    (grad,) = run(xp, f"pd_op.{op}_grad", [x, out, weight, axis], {"keepdim": keepdim})
    expect_grad(xp, f"pd_op.{op}", [x, axis], {"keepdim": keepdim}, 0, grad, weight=weight)


def test_max_grad_gives_every_tie_the_whole_grad(xp):
    x = np.array([[1.0, 3.0, 3.0]])
    axis = np.array([1], np.int64)
    (grad,) = run(xp, "pd_op.max_grad", [x, np.array([3.0]), np.array([2.0]), axis], {})
    np.testing.assert_array_equal(grad, [[0.0, 2.0, 2.0]])  # Paddle's MaxOrMinGradFunctor


def test_where_grad(xp):
    x, y, weight = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    cond = x > 0
    x_grad, y_grad = run(xp, "pd_op.where_grad", [cond, x, y, weight])
    expect_grad(xp, "pd_op.where", [cond, x, y], {}, 1, x_grad, weight=weight)
    expect_grad(xp, "pd_op.where", [cond, x, y], {}, 2, y_grad, weight=weight)


def test_flatten_and_stack_grads(xp):
    x, y = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 3, 4))
    weight = rng.standard_normal((2, 12))
    (grad,) = run(xp, "pd_op.flatten_grad", [x, weight])
    expect_grad(xp, "pd_op.flatten", [x], {"start_axis": 1, "stop_axis": 2}, 0, grad,
                weight=weight)
    weight = rng.standard_normal((2, 2, 3, 4))
    (grads,) = run(xp, "pd_op.stack_grad", [[x, y], weight], {"axis": 1})
    np.testing.assert_array_equal(grads[0], weight[:, 0])
    np.testing.assert_array_equal(grads[1], weight[:, 1])


@pytest.mark.parametrize("mode", ["upscale_in_train", "downgrade_in_infer"])
@pytest.mark.parametrize("is_test", [False, True])
def test_dropout_grad(xp, mode, is_test):
    mask = np.array([[1, 0, 1], [0, 1, 1]], np.uint8)
    weight = rng.standard_normal((2, 3))
    p = np.array([0.25], np.float32)
    (grad,) = run(xp, "pd_op.dropout_grad", [mask, weight, p], {"is_test": is_test, "mode": mode})
    keep = np.float32(1) - np.float32(0.25)
    if is_test:
        expected = weight if mode == "upscale_in_train" else weight * keep
    else:
        expected = weight * mask / keep if mode == "upscale_in_train" else weight * mask
    np.testing.assert_allclose(grad, expected, rtol=1e-6)
