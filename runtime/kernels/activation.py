"""Activation kernels and their gradients: relu, leaky_relu, hardswish, gelu (exact and tanh),
silu, swiglu, tanh, softmax, log_softmax.

Gradient kernels take what Paddle's grad ops take: some the forward input ``x``, some the forward
output ``out`` (e.g. ``relu_grad(out, out_grad)``), so they must not be swapped.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (relu, leaky_relu, hardswish, gelu, silu, swiglu,
tanh, log_softmax), ``inconsistent/static_ops.yaml`` (softmax), ``backward.yaml`` (relu_grad,
leaky_relu_grad, hardswish_grad, gelu_grad, silu_grad, swiglu_grad, tanh_grad, softmax_grad,
log_softmax_grad); hardswish's threshold 6, scale 6, offset 3 and its gradient as
``HardSwishGradFunctor`` (``activation_functor.h``); operand orders checked against Paddle
3.3.1's ``pd_op.h`` and its printed backward programs. Exact GELU's erf is ``special.erf``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .operands import compute_dtype, dtype_from_name, normalize_axis, widened
from .registry import kernel, specializer
from .special import erf
from .unary import sigmoid_of

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715


@kernel("pd_op.relu", "pd_op.relu_")
def relu(xp: Any, inputs: list, attrs: dict) -> list:
    """``relu(x) -> out = max(x, 0)``; any real dtype, shape kept."""
    x = inputs[0]
    return [xp.where(x > 0, x, xp.zeros_like(x))]


@kernel("pd_op.relu_grad", "pd_op.relu_grad_")
def relu_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``relu_grad(out, out_grad) -> x_grad = out_grad where out > 0, else 0``."""
    out, out_grad = inputs
    return [xp.where(out > 0, out_grad, xp.zeros_like(out_grad))]


@kernel("pd_op.leaky_relu", "pd_op.leaky_relu_")
def leaky_relu(xp: Any, inputs: list, attrs: dict) -> list:
    """``leaky_relu(x, negative_slope=0.02) -> out = max(x, slope * x)`` (``min`` for a slope
    above 1), as Paddle's ``LeakyReluFunctor``."""
    x = inputs[0]
    slope = attrs.get("negative_slope", 0.02)
    return [xp.maximum(x, x * slope) if slope < 1 else xp.minimum(x, x * slope)]


@kernel("pd_op.leaky_relu_grad", "pd_op.leaky_relu_grad_")
def leaky_relu_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``leaky_relu_grad(x, out_grad, negative_slope) -> x_grad = og * (slope where x < 0, 1
    where x >= 0)``, as Paddle's ``LeakyReluGradFunctor`` (1 at x = 0; 0 at a NaN x)."""
    x, out_grad = inputs
    slope = attrs.get("negative_slope", 0.02)
    below = xp.astype(x < 0, out_grad.dtype)
    above = xp.astype(x >= 0, out_grad.dtype)
    return [out_grad * (below * slope + above)]


_HARDSWISH_OFFSET, _HARDSWISH_THRESHOLD, _HARDSWISH_SCALE = 3.0, 6.0, 6.0


@kernel("pd_op.hardswish", "pd_op.hardswish_")
def hardswish(xp: Any, inputs: list, attrs: dict) -> list:
    """``hardswish(x) -> out = x * min(max(x + 3, 0), 6) / 6``."""
    x = inputs[0]
    gate = xp.clip(x + _HARDSWISH_OFFSET, 0.0, _HARDSWISH_THRESHOLD)
    return [x * gate / _HARDSWISH_SCALE]


@kernel("pd_op.hardswish_grad", "pd_op.hardswish_grad_")
def hardswish_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``hardswish_grad(x, out_grad) -> x_grad``: ``og * (2x + 3) / 6`` where ``-3 < x < 3``,
    ``og`` where ``x >= 3``, 0 where ``x <= -3``; Paddle's ``HardSwishGradFunctor`` arithmetic,
    so a NaN x gives NaN."""
    x, out_grad = inputs
    shifted = x + _HARDSWISH_OFFSET
    below = xp.astype(shifted < _HARDSWISH_THRESHOLD, out_grad.dtype)
    positive = xp.astype(shifted > 0, out_grad.dtype)
    slope = positive * (2.0 * x + _HARDSWISH_OFFSET) / _HARDSWISH_SCALE * below + (1.0 - below)
    return [out_grad * slope]


def _gelu_tanh_inner(xp: Any, x: Any) -> Any:
    return xp.tanh(_SQRT_2_OVER_PI * (x + _GELU_CUBIC * x * x * x))


@kernel("pd_op.gelu")
def gelu(xp: Any, inputs: list, attrs: dict) -> list:
    """``gelu(x, approximate=false) -> out``.

    Exact: ``0.5 * x * (1 + erf(x / sqrt(2)))``; ``approximate=true``:
    ``0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))``. Real floating x.
    """
    x = inputs[0]
    if attrs.get("approximate", False):
        return [0.5 * x * (1.0 + _gelu_tanh_inner(xp, x))]
    return [0.5 * x * (1.0 + erf(xp, x * (1.0 / math.sqrt(2.0))))]


@kernel("pd_op.gelu_grad")
def gelu_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``gelu_grad(x, out_grad, approximate) -> x_grad``: the derivative of ``gelu`` at x times
    ``out_grad``."""
    x, out_grad = inputs
    if attrs.get("approximate", False):
        t = _gelu_tanh_inner(xp, x)
        inner_slope = _SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_CUBIC * x * x)
        slope = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * inner_slope
    else:
        cdf = 0.5 * (1.0 + erf(xp, x * (1.0 / math.sqrt(2.0))))
        pdf = xp.exp(-0.5 * x * x) * (1.0 / math.sqrt(2.0 * math.pi))
        slope = cdf + x * pdf
    return [out_grad * slope]


@kernel("pd_op.silu", "pd_op.silu_")
def silu(xp: Any, inputs: list, attrs: dict) -> list:
    """``silu(x) -> out = x * sigmoid(x)``."""
    x = inputs[0]
    return [x * sigmoid_of(xp, x)]


@kernel("pd_op.silu_grad", "pd_op.silu_grad_")
def silu_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``silu_grad(x, out, out_grad) -> x_grad = og * s * (1 + x * (1 - s))``, ``s = sigmoid(x)``."""
    x, _out, out_grad = inputs
    s = sigmoid_of(xp, x)
    return [out_grad * s * (1.0 + x * (1.0 - s))]


def _swiglu_halves(xp: Any, x: Any, y: Any) -> tuple[Any, Any]:
    """(gate, up): x and y, or x's two halves along its last axis when y is None."""
    if y is not None:
        return x, y
    half = int(x.shape[-1]) // 2
    return x[..., :half], x[..., half:]


@kernel("pd_op.swiglu")
def swiglu(xp: Any, inputs: list, attrs: dict) -> list:
    """``swiglu(x, y) -> out = silu(x) * y``.

    ``y`` is optional: without it, x's last axis (even length) is split in half, ``x = [a, b]``,
    and ``out = silu(a) * b`` has half x's last dimension.
    """
    a, b = _swiglu_halves(xp, inputs[0], inputs[1])
    return [a * sigmoid_of(xp, a) * b]


@kernel("pd_op.swiglu_grad")
def swiglu_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``swiglu_grad(x, y, out_grad) -> x_grad, y_grad``.

    ``x_grad = og * b * s * (1 + a * (1 - s))`` with ``s = sigmoid(a)`` and ``y_grad = og * silu(a)``;
    without ``y`` the two are concatenated into ``x_grad`` and ``y_grad`` is None.
    """
    x, y, out_grad = inputs
    a, b = _swiglu_halves(xp, x, y)
    s = sigmoid_of(xp, a)
    a_grad = out_grad * b * s * (1.0 + a * (1.0 - s))
    b_grad = out_grad * a * s
    if y is None:
        return [xp.concat([a_grad, b_grad], axis=-1), None]
    return [a_grad, b_grad]


@kernel("pd_op.tanh", "pd_op.tanh_")
def tanh(xp: Any, inputs: list, attrs: dict) -> list:
    """``tanh(x) -> out``."""
    return [xp.tanh(inputs[0])]


@kernel("pd_op.tanh_grad", "pd_op.tanh_grad_")
def tanh_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``tanh_grad(out, out_grad) -> x_grad = out_grad * (1 - out^2)``."""
    out, out_grad = inputs
    return [out_grad * (1.0 - out * out)]


def softmax_of(xp: Any, x: Any, axis: int) -> Any:
    """Numerically stable softmax of x along ``axis``, computed in ``compute_dtype``, returned in
    x's dtype. Shared with ``loss.py``."""
    return _softmax(xp, x, axis, compute_dtype(xp, x))


def _shifted(xp: Any, x: Any, axis: int, wide: Any) -> Any:
    """x in dtype ``wide`` minus its maximum along ``axis`` (what keeps exp from overflowing in
    softmax and log_softmax)."""
    wide_x = xp.astype(x, wide, copy=False)
    return wide_x - xp.max(wide_x, axis=axis, keepdims=True)


def _softmax(xp: Any, x: Any, axis: int, wide: Any) -> Any:
    e = xp.exp(_shifted(xp, x, axis, wide))
    return xp.astype(e / xp.sum(e, axis=axis, keepdims=True), x.dtype, copy=False)


@kernel("pd_op.softmax", "pd_op.softmax_")
def softmax(xp: Any, inputs: list, attrs: dict) -> list:
    """``softmax(x, axis) -> out``: ``exp(x) / sum(exp(x))`` along ``axis`` (0-d x gives 1).

    Raises:
        KernelError: ``axis`` out of range.
    """
    x = inputs[0]
    if x.ndim == 0:
        return [xp.ones_like(x)]
    axis = normalize_axis(attrs.get("axis", -1), x.ndim, "pd_op.softmax")
    return [softmax_of(xp, x, axis)]


@kernel("pd_op.softmax_grad")
def softmax_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``softmax_grad(out, out_grad, axis) -> x_grad = out * (og - sum(og * out, axis))``."""
    out, out_grad = inputs
    if out.ndim == 0:
        return [xp.zeros_like(out_grad)]
    axis = normalize_axis(attrs.get("axis", -1), out.ndim, "pd_op.softmax_grad")
    return [_softmax_grad(xp, out, out_grad, axis)]


def _softmax_grad(xp: Any, out: Any, out_grad: Any, axis: int) -> Any:
    return out * (out_grad - xp.sum(out_grad * out, axis=axis, keepdims=True))


@specializer("pd_op.softmax", "pd_op.softmax_")
def softmax_specialized(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
                        nulls: frozenset) -> Callable | None:
    """``softmax`` of an x of static rank >= 1 and dtype: the axis and the compute dtype,
    once."""
    if shapes[0] is None or not shapes[0] or dtypes[0] is None:
        return None
    axis = normalize_axis(attrs.get("axis", -1), len(shapes[0]), "pd_op.softmax")
    wide = widened(xp, dtype_from_name(xp, dtypes[0], "pd_op.softmax"))
    return lambda inputs: [_softmax(xp, inputs[0], axis, wide)]


@specializer("pd_op.softmax_grad")
def softmax_grad_specialized(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple,
                             constants: tuple, nulls: frozenset) -> Callable | None:
    """``softmax_grad`` of an out of static rank >= 1: the axis, once."""
    if shapes[0] is None or not shapes[0]:
        return None
    axis = normalize_axis(attrs.get("axis", -1), len(shapes[0]), "pd_op.softmax_grad")
    return lambda inputs: [_softmax_grad(xp, inputs[0], inputs[1], axis)]


@kernel("pd_op.log_softmax")
def log_softmax(xp: Any, inputs: list, attrs: dict) -> list:
    """``log_softmax(x, axis) -> out = x - log(sum(exp(x)))`` along ``axis``, computed in
    ``compute_dtype`` (0-d x gives 0).

    Raises:
        KernelError: ``axis`` out of range.
    """
    x = inputs[0]
    if x.ndim == 0:
        return [xp.zeros_like(x)]
    axis = normalize_axis(attrs.get("axis", -1), x.ndim, "pd_op.log_softmax")
    shifted = _shifted(xp, x, axis, compute_dtype(xp, x))
    out = shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))
    return [xp.astype(out, x.dtype, copy=False)]


@kernel("pd_op.log_softmax_grad")
def log_softmax_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``log_softmax_grad(out, out_grad, axis) -> x_grad = og - exp(out) * sum(og, axis)``."""
    out, out_grad = inputs
    if out.ndim == 0:
        return [xp.zeros_like(out_grad)]
    axis = normalize_axis(attrs.get("axis", -1), out.ndim, "pd_op.log_softmax_grad")
    return [out_grad - xp.exp(out) * xp.sum(out_grad, axis=axis, keepdims=True)]
