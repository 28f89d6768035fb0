"""Elementwise math kernels and their gradients: exp, log, sqrt, rsqrt, sigmoid.

Like Paddle's, the gradients of exp, sqrt, rsqrt and sigmoid are written in terms of the forward
output ``out`` (``exp_grad(out, out_grad)``), log's in terms of the input x.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (exp, log, sqrt, rsqrt, sigmoid), ``backward.yaml``
(their ``_grad`` ops); operand orders checked against Paddle 3.3.1's ``pd_op.h``.
"""

from __future__ import annotations

from typing import Any

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
