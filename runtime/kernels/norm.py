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


def _converter(xp: Any, dtype: Any, shape: tuple, to_dtype: Any, to_shape: tuple
               ) -> Callable | None:
    """What ``_as(xp, a, to_dtype, to_shape)`` does to an ``a`` of ``dtype`` and ``shape``,
    chosen once: None when nothing (``a`` itself), else a function of ``a``."""
    cast, reshape = dtype != to_dtype, tuple(shape) != tuple(to_shape)
    astype, reshape_to = xp.astype, xp.reshape
    if cast and reshape:
        return lambda a: reshape_to(astype(a, to_dtype), to_shape)
    if cast:
        return lambda a: astype(a, to_dtype)
    if reshape:
        return lambda a: reshape_to(a, to_shape)
    return None


def _convert(converter: Callable | None, a: Any) -> Any:
    return a if converter is None else converter(a)


class _NormPlan:
    """What layer_norm(_grad) works out from shapes and dtypes alone: ``rows``/``cols``,
    ``lead`` (x's shape before the normalized axes), ``epsilon``, ``x_grad`` (whether to
    compute it) and, by operand name, a converter (``_converter``) into the compute dtype and
    the shape the arithmetic needs, and for the results one back into their operand's.

    ``operands``: name -> ``(dtype, shape)`` of x and those of scale, bias (layer_norm) and
    mean, variance, out_grad (layer_norm_grad) that are present."""

    def __init__(self, xp: Any, operands: dict, begin: int, epsilon: float,
                 x_grad: bool = True):
        dtype, shape = operands["x"]
        wide = widened(xp, dtype)
        self.rows, self.cols = rows, cols = _rows_cols(shape, begin)
        self.lead, self.epsilon, self.x_grad = shape[:begin], epsilon, x_grad
        into = {"x": (rows, cols), "out_grad": (rows, cols), "mean": (rows, 1),
                "variance": (rows, 1), "scale": (cols,), "bias": (cols,)}
        self.scale = self.bias = self.out_grad = self.mean = self.variance = None
        for name, (a_dtype, a_shape) in operands.items():
            setattr(self, name, _converter(xp, a_dtype, a_shape, wide, into[name]))
        # y and x_grad (wide, [rows, cols]) go back to x; the affine grads (wide, summed to
        # [cols]) back to their operands
        self.back = _converter(xp, wide, (rows, cols), dtype, shape)
        self.scale_grad = self.bias_grad = None
        for name in ("scale", "bias"):
            if name in operands:
                setattr(self, name + "_grad", _converter(xp, wide, (cols,), *operands[name]))


_LAYER_NORM_OPERANDS = ("x", "scale", "bias")
_LAYER_NORM_GRAD_OPERANDS = ("x", "scale", "bias", "mean", "variance", "out_grad")


def _described(names: tuple, arrays: list) -> dict:
    """name -> ``(dtype, shape)`` of the arrays present."""
    return {name: (a.dtype, tuple(a.shape)) for name, a in zip(names, arrays) if a is not None}


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
    begin = _begin_norm_axis(attrs, inputs[0].ndim, "pd_op.layer_norm")
    plan = _NormPlan(xp, _described(_LAYER_NORM_OPERANDS, inputs), begin,
                     attrs.get("epsilon", 1e-5))
    return _layer_norm(xp, inputs, plan)


def _layer_norm(xp: Any, inputs: list, plan: _NormPlan) -> list:
    x, scale, bias = inputs
    cols = plan.cols
    x2 = _convert(plan.x, x)
    # sum / cols is what xp.mean computes, with fewer calls
    mean = xp.sum(x2, axis=1, keepdims=True) / cols
    centered = x2 - mean
    variance = xp.sum(centered * centered, axis=1, keepdims=True) / cols
    y = centered / xp.sqrt(variance + plan.epsilon)
    if scale is not None:
        y = y * _convert(plan.scale, scale)
    if bias is not None:
        y = y + _convert(plan.bias, bias)
    lead = plan.lead  # Paddle types mean and variance as x.shape[:begin_norm_axis]
    return [_convert(plan.back, y), xp.reshape(mean, lead), xp.reshape(variance, lead)]


@kernel("pd_op.layer_norm_grad")
def layer_norm_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``layer_norm_grad(x, scale, bias, mean, variance, out_grad, epsilon, begin_norm_axis)
    -> x_grad, scale_grad, bias_grad``.

    With ``xhat = (x - mean) * rstd``, ``rstd = 1/sqrt(variance + eps)`` and ``g = og * scale``:
    ``x_grad = rstd * (g - mean(g) - xhat * mean(g * xhat))`` over the normalized axes,
    ``scale_grad = sum_rows(og * xhat)``, ``bias_grad = sum_rows(og)``. A grad is None where its
    forward operand was None; each has its operand's shape and dtype.
    """
    begin = _begin_norm_axis(attrs, inputs[0].ndim, "pd_op.layer_norm_grad")
    plan = _NormPlan(xp, _described(_LAYER_NORM_GRAD_OPERANDS, inputs), begin,
                     attrs.get("epsilon", 1e-5))
    return _layer_norm_grad(xp, inputs, plan)


def _layer_norm_grad(xp: Any, inputs: list, plan: _NormPlan) -> list:
    x, scale, bias, mean, variance, out_grad = inputs
    cols = plan.cols
    x2 = _convert(plan.x, x)
    dy = _convert(plan.out_grad, out_grad)
    rstd = 1.0 / xp.sqrt(_convert(plan.variance, variance) + plan.epsilon)
    xhat = (x2 - _convert(plan.mean, mean)) * rstd
    x_grad = None
    if plan.x_grad:
        g = dy * _convert(plan.scale, scale) if scale is not None else dy
        dx = rstd * (g - xp.sum(g, axis=1, keepdims=True) / cols
                     - xhat * (xp.sum(g * xhat, axis=1, keepdims=True) / cols))
        x_grad = _convert(plan.back, dx)
    scale_grad = None
    if scale is not None:
        scale_grad = _convert(plan.scale_grad, xp.sum(dy * xhat, axis=0))
    bias_grad = None
    if bias is not None:
        bias_grad = _convert(plan.bias_grad, xp.sum(dy, axis=0))
    return [x_grad, scale_grad, bias_grad]


def _layer_norm_specializer(body: Callable, op_name: str, names: tuple) -> Callable:
    def specialize(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
                   nulls: frozenset) -> Callable | None:
        """layer_norm(_grad) with every operand's shape and dtype static: the normalized
        axis, the compute dtype and every cast and reshape, once; a null x_grad is not
        computed (``registry.specializer``)."""
        if len(shapes) < len(names) or shapes[0] is None or dtypes[0] is None or any(
                dtypes[k] is not None and shapes[k] is None for k in range(len(names))):
            return None
        begin = _begin_norm_axis(attrs, len(shapes[0]), op_name)
        operands = {name: (dtype_from_name(xp, dtypes[k], op_name), shapes[k])
                    for k, name in enumerate(names) if dtypes[k] is not None}
        plan = _NormPlan(xp, operands, begin, attrs.get("epsilon", 1e-5),
                         x_grad=0 not in nulls)
        return lambda inputs: body(xp, inputs, plan)
    return specialize


specializer("pd_op.layer_norm")(
    _layer_norm_specializer(_layer_norm, "pd_op.layer_norm", _LAYER_NORM_OPERANDS))
specializer("pd_op.layer_norm_grad")(
    _layer_norm_specializer(_layer_norm_grad, "pd_op.layer_norm_grad",
                            _LAYER_NORM_GRAD_OPERANDS))


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
