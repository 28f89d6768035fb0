"""Elementwise math kernels and their gradients: exp, log, sqrt, rsqrt, sigmoid, abs, sin, cos,
clip.

Like Paddle's, the gradients of exp, sqrt, rsqrt and sigmoid are written in terms of the forward
output ``out`` (``exp_grad(out, out_grad)``), those of log, abs, sin, cos and clip in terms of the
input x.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (exp, log, sqrt, rsqrt, sigmoid, abs, sin, cos, clip),
``backward.yaml`` (their ``_grad`` ops); operand orders checked against Paddle 3.3.1's
``pd_op.h`` and the grad ops its ``append_backward`` prints; clip as Paddle's ``ClipFunctor`` /
``ClipGradFunctor`` (the grad passes only strictly inside ``(min, max)``).
"""

from __future__ import annotations

from typing import Any

from .operands import scalar_like
from .registry import kernel


@kernel("pd_op.exp", "pd_op.exp_")
def exp(xp: Any, inputs: list, attrs: dict) -> list:
    """``exp(x) -> out``."""
    return [xp.exp(inputs[0])]


@kernel("pd_op.exp_grad", "pd_op.exp_grad_")
def exp_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``exp_grad(out, out_grad) -> x_grad = out_grad * out``."""
    out, out_grad = inputs
    return [out_grad * out]


@kernel("pd_op.log", "pd_op.log_")
def log(xp: Any, inputs: list, attrs: dict) -> list:
    """``log(x) -> out``, the natural logarithm."""
    return [xp.log(inputs[0])]


@kernel("pd_op.log_grad", "pd_op.log_grad_")
def log_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``log_grad(x, out_grad) -> x_grad = out_grad / x``."""
    x, out_grad = inputs
    return [out_grad / x]


@kernel("pd_op.sqrt", "pd_op.sqrt_")
def sqrt(xp: Any, inputs: list, attrs: dict) -> list:
    """``sqrt(x) -> out``."""
    return [xp.sqrt(inputs[0])]


@kernel("pd_op.sqrt_grad", "pd_op.sqrt_grad_")
def sqrt_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``sqrt_grad(out, out_grad) -> x_grad = out_grad * 0.5 / out``."""
    out, out_grad = inputs
    return [out_grad * 0.5 / out]


@kernel("pd_op.rsqrt", "pd_op.rsqrt_")
def rsqrt(xp: Any, inputs: list, attrs: dict) -> list:
    """``rsqrt(x) -> out = 1 / sqrt(x)``."""
    return [1.0 / xp.sqrt(inputs[0])]


@kernel("pd_op.rsqrt_grad", "pd_op.rsqrt_grad_")
def rsqrt_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``rsqrt_grad(out, out_grad) -> x_grad = -0.5 * out_grad * out^3``."""
    out, out_grad = inputs
    return [-0.5 * out_grad * out * out * out]


def sigmoid_of(xp: Any, x: Any) -> Any:
    """``1 / (1 + exp(-x))`` elementwise, exponentiating only non-positive numbers (no overflow
    for large ``|x|``). Shared with ``activation`` (silu, swiglu)."""
    e = xp.exp(-xp.abs(x))
    return xp.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@kernel("pd_op.sigmoid", "pd_op.sigmoid_")
def sigmoid(xp: Any, inputs: list, attrs: dict) -> list:
    """``sigmoid(x) -> out = 1 / (1 + exp(-x))``."""
    return [sigmoid_of(xp, inputs[0])]


@kernel("pd_op.sigmoid_grad", "pd_op.sigmoid_grad_")
def sigmoid_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``sigmoid_grad(out, out_grad) -> x_grad = out_grad * out * (1 - out)``."""
    out, out_grad = inputs
    return [out_grad * out * (1.0 - out)]


@kernel("pd_op.abs", "pd_op.abs_")
def abs_(xp: Any, inputs: list, attrs: dict) -> list:
    """``abs(x) -> out = |x|``."""
    return [xp.abs(inputs[0])]


@kernel("pd_op.abs_grad")
def abs_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``abs_grad(x, out_grad) -> x_grad = out_grad * sign(x)`` (0 at x = 0, as Paddle's)."""
    x, out_grad = inputs
    return [out_grad * xp.sign(x)]


@kernel("pd_op.sin", "pd_op.sin_")
def sin(xp: Any, inputs: list, attrs: dict) -> list:
    """``sin(x) -> out``."""
    return [xp.sin(inputs[0])]


@kernel("pd_op.sin_grad")
def sin_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``sin_grad(x, out_grad) -> x_grad = out_grad * cos(x)``."""
    x, out_grad = inputs
    return [out_grad * xp.cos(x)]


@kernel("pd_op.cos", "pd_op.cos_")
def cos(xp: Any, inputs: list, attrs: dict) -> list:
    """``cos(x) -> out``."""
    return [xp.cos(inputs[0])]


@kernel("pd_op.cos_grad")
def cos_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``cos_grad(x, out_grad) -> x_grad = -out_grad * sin(x)``."""
    x, out_grad = inputs
    return [-out_grad * xp.sin(x)]


def _bounds(xp: Any, inputs: list, attrs: dict, x: Any) -> tuple:
    """clip's ``min`` and ``max``: the operands (``Scalar`` tensors) or the attributes."""
    lo = inputs[1] if len(inputs) > 1 and inputs[1] is not None else attrs.get("min")
    hi = inputs[2] if len(inputs) > 2 and inputs[2] is not None else attrs.get("max")
    return scalar_like(xp, lo, x), scalar_like(xp, hi, x)


@kernel("pd_op.clip", "pd_op.clip_")
def clip(xp: Any, inputs: list, attrs: dict) -> list:
    """``clip(x, min, max) -> out``: ``min`` where x < min, ``max`` where x > max, else x
    (``min``/``max`` are one-element tensors, or attributes in hand-written programs)."""
    x = inputs[0]
    lo, hi = _bounds(xp, inputs, attrs, x)
    return [xp.where(x < lo, lo, xp.where(x > hi, hi, x))]


@kernel("pd_op.clip_grad")
def clip_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``clip_grad(x, out_grad, min, max) -> x_grad``: ``out_grad`` where min < x < max, else 0."""
    x, out_grad = inputs[0], inputs[1]
    lo, hi = _bounds(xp, [x, *inputs[2:]], attrs, x)
    inside = xp.logical_and(x > lo, x < hi)
    return [xp.where(inside, out_grad, xp.zeros_like(out_grad))]
