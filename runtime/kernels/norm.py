"""Normalization kernels and their gradients: layer_norm and rms_norm.

Both flatten x to ``[rows, cols]`` (``cols`` the product of the normalized trailing axes), work in
``compute_dtype`` (float32 for 16-bit inputs, as Paddle's kernels do), and return their statistics
as 1-D ``[rows]`` tensors in that dtype.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (layer_norm), ``backward.yaml`` (layer_norm_grad). For
rms_norm, the ``rms_norm`` of older ``ops.yaml`` files (x, bias, residual, norm_weight, norm_bias,
...) was renamed ``fused_rms_norm_ext``; Paddle 3.3's ``pd_op.rms_norm`` is
``rms_norm(x, scale, normalized_shape, epsilon) -> y, invvar`` and
``rms_norm_grad(x, scale, invvar, y_grad, normalized_shape, epsilon) -> x_grad, scale_grad``
(checked against Paddle 3.3.1's generated ``pd_op.h`` and ``phi/infermeta/binary.h``).
"""

from __future__ import annotations

from typing import Any, Callable

from .operands import compute_dtype, dtype_from_name, widened
from .registry import KernelError, kernel, specializer


def _rows_cols(shape: tuple, begin: int) -> tuple[int, int]:
    rows = 1
    for n in shape[:begin]:
        rows *= int(n)
    cols = 1
    for n in shape[begin:]:
        cols *= int(n)
    return rows, cols


def _begin_norm_axis(attrs: dict, ndim: int, op_name: str) -> int:
    begin = attrs.get("begin_norm_axis", 1)
    begin = begin + ndim if begin < 0 else begin
    if not 0 <= begin <= ndim:
        raise KernelError(op_name, f"begin_norm_axis {attrs.get('begin_norm_axis')} is out of range "
                                   f"for a tensor of rank {ndim}")
    return begin


def _as(xp: Any, a: Any, dtype: Any, shape: tuple) -> Any:
    """``a`` in ``dtype`` and ``shape``, copying or reshaping only when it differs."""
    if a.dtype != dtype:
        a = xp.astype(a, dtype)
    return a if tuple(a.shape) == shape else xp.reshape(a, shape)


@kernel("pd_op.layer_norm")
def layer_norm(xp: Any, inputs: list, attrs: dict) -> list:
    """``layer_norm(x, scale, bias, epsilon=1e-5, begin_norm_axis=1) -> out, mean, variance``.

    Normalizes over axes ``begin_norm_axis..`` of x: ``out = (x - mean) / sqrt(variance + eps)
    * scale + bias``. ``scale``/``bias`` are optional (None) and hold ``cols`` elements (shape
    ``[cols]`` or x's trailing shape). ``mean``/``variance`` (biased) have shape
    ``x.shape[:begin_norm_axis]``, as Paddle 3.3.1 types them.

    Raises:
        KernelError: ``begin_norm_axis`` out of range.
    """
    x = inputs[0]
    begin = _begin_norm_axis(attrs, x.ndim, "pd_op.layer_norm")
    shape = tuple(x.shape)
    return _layer_norm(xp, inputs, shape, begin, compute_dtype(xp, x), attrs.get("epsilon", 1e-5))


def _layer_norm(xp: Any, inputs: list, shape: tuple, begin: int, wide: Any,
                epsilon: float) -> list:
    x, scale, bias = inputs
    rows, cols = _rows_cols(shape, begin)
    x2 = _as(xp, x, wide, (rows, cols))
    # sum / cols is what xp.mean computes, with fewer calls
    mean = xp.sum(x2, axis=1, keepdims=True) / cols
    centered = x2 - mean
    variance = xp.sum(centered * centered, axis=1, keepdims=True) / cols
    y = centered / xp.sqrt(variance + epsilon)
    if scale is not None:
        y = y * _as(xp, scale, wide, (cols,))
    if bias is not None:
        y = y + _as(xp, bias, wide, (cols,))
    lead = shape[:begin]  # Paddle types mean and variance as x.shape[:begin_norm_axis]
    return [_as(xp, y, x.dtype, shape), xp.reshape(mean, lead), xp.reshape(variance, lead)]


@kernel("pd_op.layer_norm_grad")
def layer_norm_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``layer_norm_grad(x, scale, bias, mean, variance, out_grad, epsilon, begin_norm_axis)
    -> x_grad, scale_grad, bias_grad``.

    With ``xhat = (x - mean) * rstd``, ``rstd = 1/sqrt(variance + eps)`` and ``g = og * scale``:
    ``x_grad = rstd * (g - mean(g) - xhat * mean(g * xhat))`` over the normalized axes,
    ``scale_grad = sum_rows(og * xhat)``, ``bias_grad = sum_rows(og)``. A grad is None where its
    forward operand was None; each has its operand's shape and dtype.
    """
    x = inputs[0]
    begin = _begin_norm_axis(attrs, x.ndim, "pd_op.layer_norm_grad")
    return _layer_norm_grad(xp, inputs, tuple(x.shape), begin, compute_dtype(xp, x),
                            attrs.get("epsilon", 1e-5))


def _layer_norm_grad(xp: Any, inputs: list, shape: tuple, begin: int, wide: Any,
                     epsilon: float) -> list:
    x, scale, bias, mean, variance, out_grad = inputs
    rows, cols = _rows_cols(shape, begin)
    x2 = _as(xp, x, wide, (rows, cols))
    dy = _as(xp, out_grad, wide, (rows, cols))
    rstd = 1.0 / xp.sqrt(_as(xp, variance, wide, (rows, 1)) + epsilon)
    xhat = (x2 - _as(xp, mean, wide, (rows, 1))) * rstd
    g = dy * _as(xp, scale, wide, (cols,)) if scale is not None else dy
    dx = rstd * (g - xp.sum(g, axis=1, keepdims=True) / cols
                 - xhat * (xp.sum(g * xhat, axis=1, keepdims=True) / cols))
    x_grad = _as(xp, dx, x.dtype, shape)
    scale_grad = None
    if scale is not None:
        scale_grad = _as(xp, xp.sum(dy * xhat, axis=0), scale.dtype, tuple(scale.shape))
    bias_grad = None
    if bias is not None:
        bias_grad = _as(xp, xp.sum(dy, axis=0), bias.dtype, tuple(bias.shape))
    return [x_grad, scale_grad, bias_grad]


def _layer_norm_specializer(body: Callable, op_name: str) -> Callable:
    def specialize(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple,
                   constants: tuple) -> Callable | None:
        """layer_norm(_grad) with x's shape and dtype static: the normalized axis and the
        compute dtype, once (``registry.specializer``)."""
        if shapes[0] is None or dtypes[0] is None:
            return None
        shape = shapes[0]
        begin = _begin_norm_axis(attrs, len(shape), op_name)
        wide = widened(xp, dtype_from_name(xp, dtypes[0], op_name))
        epsilon = attrs.get("epsilon", 1e-5)
        return lambda inputs: body(xp, inputs, shape, begin, wide, epsilon)
    return specialize


specializer("pd_op.layer_norm")(_layer_norm_specializer(_layer_norm, "pd_op.layer_norm"))
specializer("pd_op.layer_norm_grad")(
    _layer_norm_specializer(_layer_norm_grad, "pd_op.layer_norm_grad"))


def _normalized_rank(x: Any, scale: Any, attrs: dict, op_name: str) -> int:
    normalized = list(attrs.get("normalized_shape") or [])
    rank = len(normalized) or (scale.ndim if scale is not None else 1)
    if rank > x.ndim or (normalized and tuple(x.shape[x.ndim - rank:]) != tuple(normalized)):
        raise KernelError(op_name, f"normalized_shape {normalized} does not match the trailing axes "
                                   f"of x's shape {tuple(x.shape)}")
    return rank


@kernel("pd_op.rms_norm")
def rms_norm(xp: Any, inputs: list, attrs: dict) -> list:
    """``rms_norm(x, scale, normalized_shape, epsilon=1e-5) -> y, invvar``.

    ``invvar = 1 / sqrt(mean(x^2) + epsilon)`` over the trailing ``normalized_shape`` axes, shape
    ``[rows]`` (1-D, as documented by ``paddle.nn.functional.rms_norm``); ``y = x * invvar *
    scale`` in x's dtype (``scale`` optional, ``normalized_shape``-shaped).

    Raises:
        KernelError: ``normalized_shape`` is not x's trailing shape.
    """
    x, scale = inputs
    rank = _normalized_rank(x, scale, attrs, "pd_op.rms_norm")
    epsilon = attrs.get("epsilon", 1e-5)
    rows, cols = _rows_cols(tuple(x.shape), x.ndim - rank)
    wide = compute_dtype(xp, x)
    x2 = xp.reshape(xp.astype(x, wide), (rows, cols))
    invvar = 1.0 / xp.sqrt(xp.mean(x2 * x2, axis=1) + epsilon)
    y = x2 * invvar[:, None]
    if scale is not None:
        y = y * xp.reshape(xp.astype(scale, wide), (cols,))
    return [xp.astype(xp.reshape(y, tuple(x.shape)), x.dtype), invvar]


@kernel("pd_op.rms_norm_grad")
def rms_norm_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``rms_norm_grad(x, scale, invvar, y_grad, normalized_shape, epsilon) -> x_grad, scale_grad``.

    With ``r = invvar``, ``xhat = x * r`` and ``g = y_grad * scale``:
    ``x_grad = r * (g - xhat * mean(g * xhat))`` over the normalized axes and
    ``scale_grad = sum_rows(y_grad * xhat)`` (None without ``scale``).
    """
    x, scale, invvar, y_grad = inputs
    rank = _normalized_rank(x, scale, attrs, "pd_op.rms_norm_grad")
    rows, cols = _rows_cols(tuple(x.shape), x.ndim - rank)
    wide = compute_dtype(xp, x)
    x2 = xp.reshape(xp.astype(x, wide), (rows, cols))
    dy = xp.reshape(xp.astype(y_grad, wide), (rows, cols))
    r = xp.reshape(xp.astype(invvar, wide), (rows, 1))
    xhat = x2 * r
    g = dy * xp.reshape(xp.astype(scale, wide), (cols,)) if scale is not None else dy
    dx = r * (g - xhat * xp.mean(g * xhat, axis=1, keepdims=True))
    x_grad = xp.astype(xp.reshape(dx, tuple(x.shape)), x.dtype)
    scale_grad = None
    if scale is not None:
        scale_grad = xp.astype(xp.reshape(xp.sum(dy * xhat, axis=0), tuple(scale.shape)), scale.dtype)
    return [x_grad, scale_grad]
