"""Kernels on CuPy against the same kernels on NumPy: one or more cases for every family of ops
(creation, elementwise and their grads, matmul, activations, norms, reductions, shapes, embedding,
loss, optimizers, in-place ops).

The kernel tests of ``test_kernels*.py`` run in the namespaces of
``rulepass.runtime.kernels.testing.namespaces()`` (NumPy and ``array_api_strict``, both on the
CPU), whose ``to_numpy`` reads results through DLPack on the host, so they cannot take device
arrays. Here the inputs are copied to the GPU with ``cupy.asarray``, the kernel runs with
``array_api_compat.cupy``, and the results come back with ``cupy.asnumpy``; the NumPy run of the
same kernel is the reference (float32 cases to a few ulp, float64 cases to 1e-12, integer and
shape results exactly). Skipped without CuPy or a CUDA device; ``bench/gpu_check.sh`` runs it on a
lent GPU machine.
"""

from __future__ import annotations

import numpy as np
import pytest

cupy = pytest.importorskip("cupy")

pytestmark = pytest.mark.gpu


def _device_count() -> int:
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001 - no driver, no device
        return 0


if _device_count() < 1:
    pytest.skip("no CUDA device", allow_module_level=True)

import array_api_compat.cupy as cupy_xp  # noqa: E402
import array_api_compat.numpy as numpy_xp  # noqa: E402

from rulepass.runtime import kernels as _kernels  # noqa: E402,F401  (registers the kernels)
from rulepass.runtime.kernels.registry import lookup  # noqa: E402

rng = np.random.default_rng(20261130)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def f64(*shape):
    return rng.standard_normal(shape)


def _to_device(value):
    if value is None:
        return None
    if isinstance(value, list):
        return [_to_device(v) for v in value]
    return cupy.asarray(np.asarray(value))


def _to_host(value):
    if value is None:
        return None
    if isinstance(value, list):
        return [_to_host(v) for v in value]
    assert isinstance(value, cupy.ndarray), f"a kernel on CuPy returned {type(value).__name__}"
    return cupy.asnumpy(value)


def _compare(actual, expected, what):
    if expected is None:
        assert actual is None, f"{what}: expected None"
        return
    if isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), what
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, f"{what}[{i}]")
        return
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    if expected.dtype.kind in "fc":
        tol = 1e-12 if expected.dtype == np.float64 else 2e-5
        np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol, err_msg=what)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=what)


def check(op_name, inputs, attrs=None):
    """Run ``op_name`` on NumPy and on CuPy with the same inputs and compare every result."""
    kernel = lookup(op_name)
    expected = kernel(numpy_xp, list(inputs), dict(attrs or {}))
    actual = kernel(cupy_xp, [_to_device(v) for v in inputs], dict(attrs or {}))
    assert len(actual) == len(expected), f"{op_name}: {len(actual)} results, NumPy gives {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        _compare(_to_host(a), e, f"{op_name} result {i}")


def _layer_norm_stats(x, scale, bias, attrs):
    _, mean, variance = lookup("pd_op.layer_norm")(numpy_xp, [x, scale, bias], attrs)
    return mean, variance


CE = {"soft_label": False, "use_softmax": True, "numeric_stable_mode": True, "ignore_index": -100,
      "axis": -1}
LN = {"epsilon": 1e-5, "begin_norm_axis": 1}
ADAMW = {"with_decay": True, "coeff": 0.01, "lr_ratio": 1.0, "amsgrad": False}


def _cases():
    x, y, g = f32(4, 8), f32(4, 8), f32(4, 8)
    b = f32(8)
    positive = np.abs(f32(4, 8)) + 0.5
    a3, w = f32(2, 3, 4), f32(5, 4)
    m, n, mg = f32(3, 4), f32(4, 5), f32(3, 5)
    ln_x, ln_s, ln_b, ln_g = f32(6, 16), f32(16), f32(16), f32(6, 16)
    ln_mean, ln_var = _layer_norm_stats(ln_x, ln_s, ln_b, LN)
    rms_invvar = lookup("pd_op.rms_norm")(numpy_xp, [ln_x, ln_s], {"normalized_shape": [16],
                                                                    "epsilon": 1e-6})[1]
    ids = np.array([[0, 3], [5, 3]], np.int64)
    table = f32(6, 4)
    logits = f32(4, 6)
    labels = np.array([[1], [5], [-100], [0]], np.int64)
    softmax, _ = lookup("pd_op.cross_entropy_with_softmax")(numpy_xp, [logits, labels], CE)
    param, grad = f32(4, 3), f32(4, 3)
    yield "full", "pd_op.full", [], {"shape": [2, 3], "value": 1.5, "dtype": "float32"}
    yield "full_int_array", "pd_op.full_int_array", [], {"value": [4, -1, 0], "dtype": "int64"}
    yield "full_like", "pd_op.full_like", [x, np.array([7.0], np.float32)], {"dtype": "Undefined"}
    yield "cast", "pd_op.cast", [x * 4], {"dtype": "int32"}
    yield "scale", "pd_op.scale", [x, np.array([0.5], np.float32)], {"bias": 1.0,
                                                                      "bias_after_scale": False}
    yield "add_broadcast", "pd_op.add", [x, b], {}
    yield "add_grad", "pd_op.add_grad", [x, b, g], {"axis": -1}
    yield "subtract_grad", "pd_op.subtract_grad", [x, y, g], {"axis": -1}
    yield "multiply_grad", "pd_op.multiply_grad", [x, b, g], {"axis": -1}
    yield "divide_grad", "pd_op.divide_grad", [x, positive, x / positive, g], {"axis": -1}
    yield "add_n", "pd_op.add_n", [[x, y, g]], {}
    yield "square_grad", "pd_op.square_grad", [x, g], {}
    yield "matmul_batched_transpose", "pd_op.matmul", [a3, w], {"transpose_x": False,
                                                                 "transpose_y": True}
    yield "matmul_float64", "pd_op.matmul", [f64(3, 4), f64(4, 5)], {}
    yield "matmul_grad", "pd_op.matmul_grad", [m, n, mg], {"transpose_x": False,
                                                           "transpose_y": False}
    yield "relu_grad", "pd_op.relu_grad", [x, g], {}
    yield "gelu_exact", "pd_op.gelu", [x], {"approximate": False}
    yield "gelu_tanh", "pd_op.gelu", [x], {"approximate": True}
    yield "gelu_grad_exact", "pd_op.gelu_grad", [x, g], {"approximate": False}
    yield "gelu_grad_tanh", "pd_op.gelu_grad", [x, g], {"approximate": True}
    yield "silu_grad", "pd_op.silu_grad", [x, x, g], {}
    yield "tanh_grad", "pd_op.tanh_grad", [np.tanh(x), g], {}
    yield "softmax", "pd_op.softmax", [x], {"axis": -1}
    probabilities = np.abs(x) / np.abs(x).sum(axis=-1, keepdims=True)
    yield "softmax_grad", "pd_op.softmax_grad", [probabilities, g], {"axis": -1}
    yield "layer_norm", "pd_op.layer_norm", [ln_x, ln_s, ln_b], LN
    yield "layer_norm_grad", "pd_op.layer_norm_grad", [ln_x, ln_s, ln_b, ln_mean, ln_var, ln_g], LN
    yield "rms_norm", "pd_op.rms_norm", [ln_x, ln_s], {"normalized_shape": [16], "epsilon": 1e-6}
    yield "rms_norm_grad", "pd_op.rms_norm_grad", [ln_x, ln_s, rms_invvar, ln_g], {
        "normalized_shape": [16], "epsilon": 1e-6}
    yield "mean_axis", "pd_op.mean", [x, np.array([1], np.int64)], {"keepdim": False}
    yield "mean_all", "pd_op.mean", [x, np.array([], np.int64)], {"keepdim": False}
    yield "mean_grad", "pd_op.mean_grad", [x, f32(4), np.array([1], np.int64)], {
        "keepdim": False, "reduce_all": False}
    yield "sum_keepdim", "pd_op.sum", [x, np.array([0], np.int64)], {"keepdim": True,
                                                                     "dtype": "Undefined"}
    yield "reshape", "pd_op.reshape", [x, np.array([2, -1, 4], np.int64)], {}
    yield "transpose_grad", "pd_op.transpose_grad", [f32(2, 3, 4)], {"perm": [2, 0, 1]}
    yield "concat", "pd_op.concat", [[x, y], np.array([-1], np.int32)], {}
    yield "split_with_num", "pd_op.split_with_num", [x, np.array([1], np.int32)], {"num": 2}
    yield "slice", "pd_op.slice", [f32(4, 5, 6), np.array([-3, 1]), np.array([100, -1])], {
        "axes": [0, 2], "infer_flags": [1, 1], "decrease_axis": []}
    yield "set_value_with_tensor_", "pd_op.set_value_with_tensor_", [
        x, np.arange(8.0, dtype=np.float32), np.array([1]), np.array([2]), np.array([1])], {
        "axes": [0], "decrease_axes": [0], "none_axes": []}
    yield "embedding", "pd_op.embedding", [ids, table], {"padding_idx": 3, "sparse": False}
    yield "embedding_grad", "pd_op.embedding_grad", [ids, table, f32(2, 2, 4)], {
        "padding_idx": -1, "sparse": False}
    yield "cross_entropy_with_softmax", "pd_op.cross_entropy_with_softmax", [logits, labels], CE
    yield "cross_entropy_with_softmax_grad", "pd_op.cross_entropy_with_softmax_grad", [
        labels, softmax, f32(4, 1)], CE
    yield "sgd_", "pd_op.sgd_", [param, np.array([0.1], np.float32), grad, None], {
        "multi_precision": False}
    yield "adamw_", "pd_op.adamw_", [
        param, grad, np.array(0.01, np.float32), f32(4, 3), np.abs(f32(4, 3)), None,
        np.array([0.9], np.float32), np.array([0.999], np.float32), None, None,
        np.array([0.9]), np.array([0.999]), np.array([1e-8])], ADAMW
    yield "add_", "pd_op.add_", [x, y], {}
    yield "abs_grad", "pd_op.abs_grad", [x, g], {}
    yield "sin_grad", "pd_op.sin_grad", [x, g], {}
    yield "cos_grad", "pd_op.cos_grad", [x, g], {}
    bounds = [np.array([-0.5], np.float32), np.array([0.5], np.float32)]
    yield "clip", "pd_op.clip", [x, *bounds], {}
    yield "clip_grad", "pd_op.clip_grad", [x, g, *bounds], {}
    axis = np.array([1], np.int64)
    x_max = x.max(axis=1, keepdims=True)
    yield "max", "pd_op.max", [x, axis], {"keepdim": True}
    yield "max_grad", "pd_op.max_grad", [x, x_max, f32(4, 1), axis], {"keepdim": True}
    yield "min_grad", "pd_op.min_grad", [x, x.min(axis=1), f32(4), axis], {"keepdim": False}
    yield "where_grad", "pd_op.where_grad", [x > 0, x, y, g], {}
    yield "flatten", "pd_op.flatten", [a3], {"start_axis": 1, "stop_axis": 2}
    yield "stack", "pd_op.stack", [[x, y]], {"axis": 1}
    yield "stack_grad", "pd_op.stack_grad", [[x, y], f32(4, 2, 8)], {"axis": 1}
    yield "unbind", "pd_op.unbind", [a3], {"axis": 1}
    mask = (x > 0).astype(np.uint8)
    yield "dropout_grad", "pd_op.dropout_grad", [mask, g, np.array([0.1], np.float32)], {
        "is_test": False, "mode": "upscale_in_train"}
    yield "dropout_test", "pd_op.dropout", [x, None, np.array([0.1], np.float32)], {
        "is_test": True, "mode": "downgrade_in_infer"}


CASES = list(_cases())


@pytest.mark.parametrize("op_name, inputs, attrs", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_kernel_on_cupy_matches_numpy(op_name, inputs, attrs):
    check(op_name, inputs, attrs)


def test_results_stay_on_the_device():
    (out,) = lookup("pd_op.matmul")(cupy_xp, [cupy.ones((2, 3), "float32"),
                                              cupy.ones((3, 4), "float32")], {})
    assert isinstance(out, cupy.ndarray) and out.device == cupy.cuda.Device()


def test_dropout_draws_the_same_numbers_on_the_device():
    from rulepass.runtime.generator import SequentialSource

    x = f32(6, 5)
    attrs = {"is_test": False, "mode": "upscale_in_train", "seed": 0, "fix_seed": False}
    p = np.array([0.3], np.float32)
    kernel = lookup("pd_op.dropout")
    expected = kernel(numpy_xp, [x, None, p], attrs, SequentialSource(4).draws(None, numpy_xp))
    actual = kernel(cupy_xp, [_to_device(x), None, _to_device(p)], attrs,
                    SequentialSource(4).draws(None, cupy_xp))
    for a, e in zip(actual, expected):
        _compare(_to_host(a), e, "pd_op.dropout")
