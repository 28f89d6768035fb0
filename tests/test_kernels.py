"""Forward kernels against float64 NumPy references written here, in every namespace.

Each test runs under NumPy and under ``array_api_strict``; the strict run fails on any call outside
the array API standard.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rulepass.runtime.kernels import KernelError
from rulepass.runtime.kernels.testing import namespaces, run

pytestmark = pytest.mark.parametrize("xp", [xp for _, xp in namespaces()], ids=[n for n, _ in namespaces()])

FAST = settings(max_examples=25, deadline=None)
rng = np.random.default_rng(20261130)


def close(actual, expected, tol=1e-12):
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)
    assert actual.shape == np.shape(expected)


def floats(shape):
    return hnp.arrays(np.float64, shape, elements=st.floats(-3, 3, allow_nan=False, width=64))


# ---- creation ---------------------------------------------------------------------------------

def test_full_fills_shape_with_value_in_dtype(xp):
    (out,) = run(xp, "pd_op.full", [], {"shape": [2, 3], "value": 1.5, "dtype": "float32", "place": "cpu"})
    close(out, np.full((2, 3), 1.5))
    assert out.dtype == np.float32
    (ints,) = run(xp, "pd_op.full", [], {"shape": [3], "value": -2.7, "dtype": "int64"})
    assert ints.dtype == np.int64 and ints.tolist() == [-2, -2, -2]  # truncated toward zero


def test_full_int_array_and_full_like(xp):
    (values,) = run(xp, "pd_op.full_int_array", [], {"value": [4, -1, 0], "dtype": "int64"})
    assert values.dtype == np.int64 and values.tolist() == [4, -1, 0]
    (empty,) = run(xp, "pd_op.full_int_array", [], {"value": [], "dtype": "int64"})
    assert empty.shape == (0,)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    (like,) = run(xp, "pd_op.full_like", [x, np.array([7.0], np.float32)], {"dtype": "Undefined"})
    assert like.dtype == np.float32
    close(like, np.full((2, 3), 7.0))
    (from_attr,) = run(xp, "pd_op.full_like", [x, None], {"value": 2.0, "dtype": "int32"})
    assert from_attr.dtype == np.int32 and from_attr.tolist() == [[2, 2, 2]] * 2


def test_full_inplace_keeps_operand_dtype_and_shape(xp):
    (out,) = run(xp, "pd_op.full_", [np.ones((2, 2))], {"shape": [2, 2], "value": 0.0, "dtype": "float64"})
    close(out, np.zeros((2, 2)))


def test_assign_value_writes_its_literal(xp):
    # what paddle.to_tensor([...]) prints in a static program (an outside trial's index_select)
    attrs = {"shape": [2, 3], "dtype": "int64", "values": [5, 4, 3, 2, 1, 2**60 + 1]}
    (out,) = run(xp, "pd_op.assign_value_", [np.zeros((2, 3), np.int64)], attrs)
    assert out.dtype == np.int64 and out.tolist() == [[5, 4, 3], [2, 1, 2**60 + 1]]
    (floats,) = run(xp, "pd_op.assign_value_", [np.zeros(2, np.float32)],
                    {"shape": [2], "dtype": "float32", "values": [0.5, -1.0]})
    assert floats.dtype == np.float32 and floats.tolist() == [0.5, -1.0]
    with pytest.raises(KernelError, match="3 values for shape \\[2, 2\\]"):
        run(xp, "pd_op.assign_value_", [np.zeros((2, 2))],
            {"shape": [2, 2], "dtype": "float32", "values": [1.0, 2.0, 3.0]})


def test_assign_and_cast(xp):
    x = np.array([-1.7, 2.9, 0.5])
    (copy,) = run(xp, "pd_op.assign", [x])
    close(copy, x)
    (ints,) = run(xp, "pd_op.cast", [x], {"dtype": "int32"})
    assert ints.dtype == np.int32 and ints.tolist() == [-1, 2, 0]
    (back,) = run(xp, "pd_op.cast_grad", [x, np.array([1, 2, 3], np.float32)])
    assert back.dtype == np.float64 and back.tolist() == [1.0, 2.0, 3.0]


def test_unknown_dtype_is_a_kernel_error(xp):
    with pytest.raises(KernelError, match="unknown dtype"):
        run(xp, "pd_op.cast", [np.ones(2)], {"dtype": "float128x"})


# ---- elementwise ------------------------------------------------------------------------------

BINARY = {
    "pd_op.add": np.add,
    "pd_op.subtract": np.subtract,
    "pd_op.multiply": np.multiply,
    "pd_op.divide": np.divide,
}


@FAST
@given(data=st.data(), op=st.sampled_from(sorted(BINARY)))
def test_binary_ops_broadcast(xp, data, op):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3))
    x = data.draw(floats(shapes.input_shapes[0]))
    y = data.draw(floats(shapes.input_shapes[1]).map(lambda a: np.where(np.abs(a) < 0.1, 1.0, a)))
    (out,) = run(xp, op, [x, y])
    close(out, BINARY[op](x, y))
    (inplace,) = run(xp, op + "_", [x, y])
    close(inplace, BINARY[op](x, y))


def test_integer_divide_truncates_toward_zero(xp):
    (out,) = run(xp, "pd_op.divide", [np.array([-7, 7, -7, 7]), np.array([2, -2, -2, 2])])
    assert out.tolist() == [-3, -3, 3, 3]


@pytest.mark.parametrize("after", [True, False])
def test_scale_from_operand_or_attribute(xp, after):
    x = rng.standard_normal((2, 3))
    expected = 2.5 * x + 0.5 if after else 2.5 * (x + 0.5)
    attrs = {"bias": 0.5, "bias_after_scale": after}
    close(run(xp, "pd_op.scale", [x, np.array([2.5])], attrs)[0], expected)
    close(run(xp, "pd_op.scale_", [x, None], {**attrs, "scale": 2.5})[0], expected)
    close(run(xp, "pd_op.scale_grad", [x, np.array([2.5])])[0], 2.5 * x)


def test_add_n_and_square(xp):
    a, b, c = (rng.standard_normal((2, 2)) for _ in range(3))
    close(run(xp, "pd_op.add_n", [[a, b, c]])[0], a + b + c)
    close(run(xp, "pd_op.add_n", [[a]])[0], a)
    close(run(xp, "pd_op.square", [a])[0], a * a)
    with pytest.raises(KernelError, match="at least one"):
        run(xp, "pd_op.add_n", [[]])


# ---- matmul -----------------------------------------------------------------------------------

MATMUL_CASES = [
    ((3, 4), (4, 5), False, False),
    ((4, 3), (4, 5), True, False),
    ((3, 4), (5, 4), False, True),
    ((2, 1, 4, 3), (5, 4), True, True),
    ((2, 3, 4), (1, 4, 2), False, False),
    ((4,), (4, 5), False, False),
    ((3, 4), (4,), False, False),
    ((4,), (4,), False, False),
]


@pytest.mark.parametrize("x_shape, y_shape, tx, ty", MATMUL_CASES)
def test_matmul(xp, x_shape, y_shape, tx, ty):
    x, y = rng.standard_normal(x_shape), rng.standard_normal(y_shape)
    a = np.swapaxes(x, -1, -2) if tx and x.ndim > 1 else x
    b = np.swapaxes(y, -1, -2) if ty and y.ndim > 1 else y
    (out,) = run(xp, "pd_op.matmul", [x, y], {"transpose_x": tx, "transpose_y": ty})
    close(out, np.matmul(a, b))


# ---- activations ------------------------------------------------------------------------------

def test_relu_tanh_silu(xp):
    x = rng.standard_normal((3, 4)) * 3
    close(run(xp, "pd_op.relu", [x])[0], np.maximum(x, 0))
    close(run(xp, "pd_op.relu_", [x])[0], np.maximum(x, 0))
    close(run(xp, "pd_op.tanh", [x])[0], np.tanh(x))
    close(run(xp, "pd_op.silu", [x])[0], x / (1 + np.exp(-x)))
    big = np.array([-800.0, 800.0])  # no overflow in the sigmoid
    close(run(xp, "pd_op.silu", [big])[0], np.array([0.0, 800.0]))


def test_gelu_exact_and_tanh(xp):
    x = np.linspace(-6, 6, 97)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    close(run(xp, "pd_op.gelu", [x], {"approximate": False})[0], exact, 1e-14)
    tanh_form = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    close(run(xp, "pd_op.gelu", [x], {"approximate": True})[0], tanh_form)
    x32 = x.astype(np.float32)
    (out32,) = run(xp, "pd_op.gelu", [x32], {"approximate": False})
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32, exact, rtol=3e-7, atol=3e-7)


@pytest.mark.parametrize("axis", [-1, 0, 1])
def test_softmax(xp, axis):
    x = rng.standard_normal((3, 4, 2)) * 10
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    close(run(xp, "pd_op.softmax", [x], {"axis": axis})[0], e / e.sum(axis=axis, keepdims=True))


# ---- normalization ----------------------------------------------------------------------------

@pytest.mark.parametrize("begin", [1, 2, -1])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm(xp, begin, affine):
    x = rng.standard_normal((2, 3, 4))
    axes = tuple(range(begin % 3, 3))
    cols = int(np.prod(x.shape[begin % 3:]))
    scale, bias = (rng.standard_normal(cols), rng.standard_normal(cols)) if affine else (None, None)
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    expected = (x - mean) / np.sqrt(var + 1e-5)
    if affine:
        expected = expected * scale.reshape(x.shape[begin % 3:]) + bias.reshape(x.shape[begin % 3:])
    attrs = {"epsilon": 1e-5, "begin_norm_axis": begin}
    out, out_mean, out_var = run(xp, "pd_op.layer_norm", [x, scale, bias], attrs)
    close(out, expected)
    assert tuple(out_mean.shape) == tuple(out_var.shape) == x.shape[:begin % 3]  # Paddle's typing
    close(out_mean, mean.reshape(out_mean.shape))
    close(out_var, var.reshape(out_var.shape))


def test_rms_norm(xp):
    x, w = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4))
    inv = 1 / np.sqrt((x**2).mean(axis=(1, 2)) + 1e-6)
    y, invvar = run(xp, "pd_op.rms_norm", [x, w], {"normalized_shape": [3, 4], "epsilon": 1e-6})
    close(y, x * inv[:, None, None] * w)
    close(invvar, inv)
    with pytest.raises(KernelError, match="normalized_shape"):
        run(xp, "pd_op.rms_norm", [x, w], {"normalized_shape": [4, 3], "epsilon": 1e-6})


def test_half_precision_layer_norm_keeps_float32_statistics(xp):
    if not hasattr(xp, "float16"):
        pytest.skip("the array API standard has no float16")
    x = rng.standard_normal((4, 8)).astype(np.float16)
    out, mean, var = run(xp, "pd_op.layer_norm", [x, None, None], {"epsilon": 1e-5, "begin_norm_axis": 1})
    assert out.dtype == np.float16 and mean.dtype == np.float32 and var.dtype == np.float32
    close(mean, x.astype(np.float64).mean(axis=1), 1e-6)


# ---- reductions -------------------------------------------------------------------------------

@FAST
@given(data=st.data(), keepdim=st.booleans(), as_operand=st.booleans())
def test_mean_and_sum(xp, data, keepdim, as_operand):
    x = data.draw(floats(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3)))
    axis = st.integers(-x.ndim, x.ndim - 1)
    axes = data.draw(st.lists(axis, max_size=x.ndim, unique_by=lambda a: a % x.ndim))
    inputs = [x, np.array(axes, np.int64)] if as_operand else [x]
    attrs = {"keepdim": keepdim} if as_operand else {"keepdim": keepdim, "axis": axes}
    reduced = tuple(axes) if axes else None
    close(run(xp, "pd_op.mean", inputs, attrs)[0], np.mean(x, axis=reduced, keepdims=keepdim))
    (total,) = run(xp, "pd_op.sum", inputs, {**attrs, "dtype": "Undefined"})
    close(total, np.sum(x, axis=reduced, keepdims=keepdim))


def test_sum_dtypes_follow_paddle(xp):
    x = np.array([[1, 2], [3, 4]], np.int32)
    (out,) = run(xp, "pd_op.sum", [x, np.array([1])], {"dtype": "Undefined", "keepdim": False})
    assert out.dtype == np.int64 and out.tolist() == [3, 7]
    (as_float,) = run(xp, "pd_op.sum", [x, np.array([], np.int64)], {"dtype": "float64", "keepdim": False})
    assert as_float.dtype == np.float64 and float(as_float) == 10.0
    (mean_all,) = run(xp, "pd_op.mean_all", [np.array([[1.0, 2.0], [3.0, 6.0]])])
    assert mean_all.shape == () and float(mean_all) == 3.0


# ---- shape ------------------------------------------------------------------------------------

def test_reshape_copies_zero_dims_and_infers_minus_one(xp):
    x = rng.standard_normal((2, 3, 4))
    close(run(xp, "pd_op.reshape", [x, np.array([0, -1])])[0], x.reshape(2, 12))
    close(run(xp, "pd_op.reshape_", [x, None], {"shape": [4, 0, 2]})[0], x.reshape(4, 3, 2))
    with pytest.raises(KernelError, match="holds 10 elements"):
        run(xp, "pd_op.reshape", [x, np.array([2, 5])])
    with pytest.raises(KernelError, match="more than one -1"):
        run(xp, "pd_op.reshape", [x, np.array([-1, -1])])


def test_transpose(xp):
    x = rng.standard_normal((2, 3, 4))
    close(run(xp, "pd_op.transpose", [x], {"perm": [2, 0, -2]})[0], np.transpose(x, (2, 0, 1)))


def test_concat_split_split_with_num(xp):
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 5))
    close(run(xp, "pd_op.concat", [[a, b], np.array([-1], np.int32)])[0], np.concatenate([a, b], axis=1))
    x = rng.standard_normal((4, 6))
    parts = run(xp, "pd_op.split", [x, np.array([1, -1, 2]), np.array([1], np.int32)])[0]
    for got, want in zip(parts, np.split(x, [1, 4], axis=1), strict=True):
        close(got, want)
    halves = run(xp, "pd_op.split_with_num", [x, np.array([0], np.int32)], {"num": 2})[0]
    for got, want in zip(halves, np.split(x, 2, axis=0), strict=True):
        close(got, want)
    with pytest.raises(KernelError, match="does not split into 4"):
        run(xp, "pd_op.split_with_num", [x, np.array([1], np.int32)], {"num": 4})
    with pytest.raises(KernelError, match="sections"):
        run(xp, "pd_op.split", [x, np.array([1, 2]), np.array([1], np.int32)])


@pytest.mark.parametrize(
    "axes, starts, ends, decrease, index",
    [
        ([1], [1], [3], [], (slice(None), slice(1, 3))),
        ([0, 2], [-3, 1], [100, -1], [], (slice(-3, None), slice(None), slice(1, -1))),
        ([0], [2], [3], [0], (2,)),
        ([2], [5], [2], [], (slice(None), slice(None), slice(5, 5))),
    ],
)
def test_slice(xp, axes, starts, ends, decrease, index):
    x = rng.standard_normal((4, 5, 6))
    attrs = {"axes": axes, "infer_flags": [1] * len(axes), "decrease_axis": decrease}
    close(run(xp, "pd_op.slice", [x, np.array(starts), np.array(ends)], attrs)[0], x[index])


def test_set_value_with_tensor_writes_region_of_a_copy(xp):
    x = rng.standard_normal((3, 4))
    values = np.arange(4.0)
    attrs = {"axes": [0], "decrease_axes": [0], "none_axes": []}
    operands = [x, values, np.array([1]), np.array([2]), np.array([1])]
    (out,) = run(xp, "pd_op.set_value_with_tensor_", operands, attrs)
    expected = x.copy()
    expected[1] = values
    close(out, expected)
    strided = {"axes": [1], "decrease_axes": [], "none_axes": []}
    operands = [x, np.array([9.0]), np.array([0]), np.array([4]), np.array([2])]
    (out,) = run(xp, "pd_op.set_value_with_tensor", operands, strided)
    expected = x.copy()
    expected[:, 0:4:2] = 9.0
    close(out, expected)


# ---- embedding and loss -----------------------------------------------------------------------

@pytest.mark.parametrize("padding_idx", [-1, 2])
def test_embedding(xp, padding_idx):
    ids, weight = np.array([[1, 2, 2], [0, 4, 1]]), rng.standard_normal((5, 3))
    expected = weight[ids]
    if padding_idx != -1:
        expected[ids == padding_idx] = 0.0
    (out,) = run(xp, "pd_op.embedding", [ids, weight], {"padding_idx": padding_idx, "sparse": False})
    close(out, expected)
    with pytest.raises(KernelError, match=r"\[0, 5\)"):
        run(xp, "pd_op.embedding", [np.array([5]), weight], {"padding_idx": -1})


def _log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


CE = {"soft_label": False, "use_softmax": True, "numeric_stable_mode": True, "ignore_index": -100, "axis": -1}


def test_cross_entropy_hard_labels_with_ignore_index(xp):
    logits, labels = rng.standard_normal((4, 6)), np.array([[1], [5], [-100], [0]])
    softmax, loss = run(xp, "pd_op.cross_entropy_with_softmax", [logits, labels], CE)
    close(softmax, np.exp(_log_softmax(logits, 1)))
    log_p = _log_softmax(logits, 1)
    expected = np.array([-log_p[i, c] if c != -100 else 0.0 for i, c in enumerate(labels[:, 0])])
    close(loss, expected.reshape(4, 1))
    # labels without the class axis, and the class axis first
    close(run(xp, "pd_op.cross_entropy_with_softmax", [logits, labels[:, 0]], CE)[1], expected.reshape(4, 1))
    _, loss_t = run(xp, "pd_op.cross_entropy_with_softmax", [logits.T, labels.T], {**CE, "axis": 0})
    close(loss_t, expected.reshape(1, 4))
    with pytest.raises(KernelError, match=r"\[0, 6\)"):
        run(xp, "pd_op.cross_entropy_with_softmax", [logits, np.array([[6], [0], [0], [0]])], CE)


def test_cross_entropy_soft_labels_and_probabilities(xp):
    logits = rng.standard_normal((3, 5))
    soft = rng.random((3, 5))
    soft /= soft.sum(axis=1, keepdims=True)
    _, loss = run(xp, "pd_op.cross_entropy_with_softmax", [logits, soft], {**CE, "soft_label": True})
    close(loss, -(soft * _log_softmax(logits, 1)).sum(axis=1, keepdims=True))
    probabilities = np.exp(_log_softmax(logits, 1))
    labels = np.array([[0], [4], [2]])
    attrs = {**CE, "use_softmax": False}
    passed, loss = run(xp, "pd_op.cross_entropy_with_softmax", [probabilities, labels], attrs)
    close(passed, probabilities)
    close(loss, -np.log(probabilities[np.arange(3), labels[:, 0]]).reshape(3, 1))


def test_missing_int_array_argument_is_a_kernel_error(xp):
    with pytest.raises(KernelError, match="needs 'shape'"):
        run(xp, "pd_op.reshape", [np.ones(4), None])


# ---- added ops: unary math, squeeze/unsqueeze/expand, swiglu, c_embedding ------------------------

UNARY = {
    "pd_op.exp": np.exp,
    "pd_op.log": np.log,
    "pd_op.sqrt": np.sqrt,
    "pd_op.rsqrt": lambda v: 1 / np.sqrt(v),
    "pd_op.sigmoid": lambda v: 1 / (1 + np.exp(-v)),
}


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_math(xp, op):
    x = rng.uniform(0.1, 4.0, (3, 4))
    close(run(xp, op, [x])[0], UNARY[op](x))
    close(run(xp, op + "_", [x])[0], UNARY[op](x))


@pytest.mark.parametrize(
    "axes, shape",  # shapes printed by Paddle 3.3.1 for x of shape [2, 3]
    [([0, -1, 1], (1, 1, 2, 3, 1)), ([-1, -1], (2, 3, 1, 1)), ([2, 0], (1, 2, 3, 1))],
)
def test_unsqueeze_inserts_axes_one_after_another(xp, axes, shape):
    x = rng.standard_normal((2, 3))
    (out,) = run(xp, "pd_op.unsqueeze", [x, np.array(axes)])
    close(out, x.reshape(shape))


def test_squeeze_and_expand(xp):
    x = rng.standard_normal((1, 3, 1, 2))
    close(run(xp, "pd_op.squeeze", [x, np.array([0, 1])])[0], x.reshape(3, 1, 2))  # axis 1 is kept
    close(run(xp, "pd_op.squeeze_", [x, np.array([], np.int64)])[0], x.reshape(3, 2))
    column = rng.standard_normal((3, 1))
    close(run(xp, "pd_op.expand", [column, np.array([2, -1, 4])])[0], np.broadcast_to(column, (2, 3, 4)))
    with pytest.raises(KernelError, match="cannot expand axis 0 of size 3 to 5"):
        run(xp, "pd_op.expand", [column, np.array([5, 4])])


def test_swiglu_with_and_without_y(xp):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    expected = a / (1 + np.exp(-a)) * b
    close(run(xp, "pd_op.swiglu", [a, b])[0], expected)
    close(run(xp, "pd_op.swiglu", [np.concatenate([a, b], axis=-1), None])[0], expected)


def test_c_embedding_looks_up_only_its_shard(xp):
    weight = rng.standard_normal((4, 3))  # rows 4..7 of a 10-row table
    ids = np.array([[0, 5, 6], [9, 3, 7]])
    expected = np.zeros((2, 3, 3))
    for position, i in np.ndenumerate(ids):
        if 4 <= i < 8:
            expected[position] = weight[i - 4]
    (out,) = run(xp, "pd_op.c_embedding", [weight, ids], {"start_index": 4, "vocab_size": 10})
    close(out, expected)


@pytest.mark.parametrize("op, reference", [("pd_op.abs", np.abs), ("pd_op.sin", np.sin),
                                           ("pd_op.cos", np.cos)])
def test_abs_sin_cos(xp, op, reference):
    x = rng.standard_normal((3, 4))
    close(run(xp, op, [x])[0], reference(x))


def test_clip_with_tensor_bounds(xp):
    x = np.array([-2.0, -0.5, 0.0, 0.7, 3.0])
    (out,) = run(xp, "pd_op.clip", [x, np.array([-1.0]), np.array([0.5])])
    close(out, np.array([-1.0, -0.5, 0.0, 0.5, 0.5]))


@pytest.mark.parametrize("op, reference", [("pd_op.max", np.max), ("pd_op.min", np.min)])
@pytest.mark.parametrize("axis, keepdim", [([1], True), ([-1, 0], False), ([], False)])
def test_max_min(xp, op, reference, axis, keepdim):
    x = rng.standard_normal((2, 3, 4))
    (out,) = run(xp, op, [x, np.array(axis, np.int64)], {"keepdim": keepdim})
    close(out, reference(x, axis=tuple(axis) or None, keepdims=keepdim))


def test_flatten_stack_unbind(xp):
    x = rng.standard_normal((2, 3, 4))
    close(run(xp, "pd_op.flatten", [x], {"start_axis": 1, "stop_axis": -1})[0], x.reshape(2, 12))
    close(run(xp, "pd_op.flatten", [x], {"start_axis": 0, "stop_axis": 1})[0], x.reshape(6, 4))
    y = rng.standard_normal((2, 3, 4))
    close(run(xp, "pd_op.stack", [[x, y]], {"axis": -1})[0], np.stack([x, y], axis=-1))
    parts = run(xp, "pd_op.unbind", [x], {"axis": 1})[0]
    assert len(parts) == 3
    for i, part in enumerate(parts):
        close(part, x[:, i])
    with pytest.raises(KernelError, match="start_axis 2 is after stop_axis 1"):
        run(xp, "pd_op.flatten", [x], {"start_axis": 2, "stop_axis": 1})


def test_where(xp):
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    cond = x > 0
    close(run(xp, "pd_op.where", [cond, x, y])[0], np.where(cond, x, y))
