"""Elementwise arithmetic kernels and their gradients: add, subtract, multiply, divide, maximum,
scale, add_n, square, pow.

Binary ops broadcast like NumPy (PIR programs always use Paddle's ``axis=-1``); their gradients sum
``out_grad`` back to each operand's shape. Each in-place variant (``add_``, ``scale_``, ...) returns
the new value and leaves aliasing its first operand to the executor.

Sources: ``paddle/phi/ops/yaml/inconsistent/static_ops.yaml`` (add, subtract, multiply, divide,
add_n), ``ops.yaml`` (scale, square), ``backward.yaml`` (add_grad, subtract_grad, multiply_grad,
divide_grad, scale_grad, square_grad, maximum_grad: ``MaxGradDx``/``MaxGradDy`` of
``elementwise_functor.h``, a tie's grad to y); operand orders checked against Paddle 3.3.1's
``pd_op.h``.
"""

from __future__ import annotations

from typing import Any

from .operands import align_for_axis, scalar_like, sum_to_shape
from .registry import KernelError, kernel


@kernel("pd_op.add", "pd_op.add_")
def add(xp: Any, inputs: list, attrs: dict) -> list:
    """``add(x, y) -> out = x + y``, broadcasting. Any shapes that broadcast; result dtype by
    array-API promotion."""
    x, y = inputs
    return [x + y]


@kernel("pd_op.subtract", "pd_op.subtract_")
def subtract(xp: Any, inputs: list, attrs: dict) -> list:
    """``subtract(x, y) -> out = x - y``, broadcasting."""
    x, y = inputs
    return [x - y]


@kernel("pd_op.multiply", "pd_op.multiply_")
def multiply(xp: Any, inputs: list, attrs: dict) -> list:
    """``multiply(x, y) -> out = x * y``, broadcasting."""
    x, y = inputs
    return [x * y]


@kernel("pd_op.divide", "pd_op.divide_")
def divide(xp: Any, inputs: list, attrs: dict) -> list:
    """``divide(x, y) -> out = x / y``, broadcasting.

    Integer operands divide with truncation toward zero, as Paddle's C++ kernel does (not Python's
    floor division).
    """
    x, y = inputs
    if xp.isdtype(x.dtype, "integral") and xp.isdtype(y.dtype, "integral"):
        quotient = xp.abs(x) // xp.abs(y)
        return [xp.where((x < 0) != (y < 0), -quotient, quotient)]
    return [x / y]


def _binary_grads(xp: Any, x: Any, y: Any, x_part: Any, y_part: Any, axis: int) -> list:
    """Reduce per-element partials to each operand's shape, honouring a legacy ``axis``."""
    if axis != -1 and y.ndim < x.ndim:
        aligned = align_for_axis(xp, y, x.ndim, axis)
        y_grad = xp.reshape(sum_to_shape(xp, y_part, aligned.shape), y.shape)
    else:
        y_grad = sum_to_shape(xp, y_part, y.shape)
    return [sum_to_shape(xp, x_part, x.shape), y_grad]


@kernel("pd_op.add_grad", "pd_op.add_grad_")
def add_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``add_grad(x, y, out_grad, axis=-1) -> x_grad, y_grad``.

    Both are ``out_grad`` summed over the axes broadcasting added to each operand. x and y are only
    read for their shapes.
    """
    x, y, out_grad = inputs
    axis = attrs.get("axis", -1)
    return _binary_grads(xp, x, y, out_grad, out_grad, axis)


@kernel("pd_op.subtract_grad", "pd_op.subtract_grad_")
def subtract_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``subtract_grad(x, y, out_grad, axis=-1) -> x_grad, y_grad`` (``y_grad`` negated)."""
    x, y, out_grad = inputs
    return _binary_grads(xp, x, y, out_grad, -out_grad, attrs.get("axis", -1))


@kernel("pd_op.multiply_grad")
def multiply_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``multiply_grad(x, y, out_grad, axis=-1) -> x_grad = og*y, y_grad = og*x`` (reduced)."""
    x, y, out_grad = inputs
    axis = attrs.get("axis", -1)
    y_aligned = align_for_axis(xp, y, x.ndim, axis)
    return _binary_grads(xp, x, y, out_grad * y_aligned, out_grad * x, axis)


@kernel("pd_op.divide_grad")
def divide_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``divide_grad(x, y, out, out_grad, axis=-1) -> x_grad = og/y, y_grad = -og*out/y``.

    Uses the forward ``out`` (= x/y) as Paddle does, so it needs no second division of x.
    """
    x, y, out, out_grad = inputs
    axis = attrs.get("axis", -1)
    y_aligned = align_for_axis(xp, y, x.ndim, axis)
    x_part = out_grad / y_aligned
    return _binary_grads(xp, x, y, x_part, -x_part * out, axis)


@kernel("pd_op.maximum")
def maximum(xp: Any, inputs: list, attrs: dict) -> list:
    """``maximum(x, y) -> out``: the larger, elementwise, broadcasting."""
    x, y = inputs
    return [xp.maximum(x, y)]


@kernel("pd_op.maximum_grad")
def maximum_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``maximum_grad(x, y, out_grad) -> x_grad = og where x > y, y_grad = og where x <= y``
    (Paddle gives a tie to y), each reduced to its operand's shape."""
    x, y, out_grad = inputs
    zero = xp.zeros_like(out_grad)
    x_wins = x > y
    return _binary_grads(xp, x, y, xp.where(x_wins, out_grad, zero),
                         xp.where(x_wins, zero, out_grad), -1)


@kernel("pd_op.scale", "pd_op.scale_")
def scale(xp: Any, inputs: list, attrs: dict) -> list:
    """``scale(x, scale=1.0, bias=0.0, bias_after_scale=true) -> out``.

    ``out = scale*x + bias`` if ``bias_after_scale`` else ``scale*(x + bias)``. In PIR ``scale``
    is an operand (a shape-``[1]`` tensor); a ``scale`` attribute is used when the operand is
    absent. ``bias`` is an attribute. Computed in x's dtype.
    """
    x = inputs[0]
    factor = inputs[1] if len(inputs) > 1 and inputs[1] is not None else attrs.get("scale", 1.0)
    factor = scalar_like(xp, factor, x)
    bias = attrs.get("bias", 0.0)
    if not (isinstance(bias, float) and xp.isdtype(x.dtype, "real floating")):
        bias = scalar_like(xp, bias, x)  # a Python float keeps a float array's dtype as it is
    if attrs.get("bias_after_scale", True):
        return [x * factor + bias]
    return [(x + bias) * factor]


@kernel("pd_op.scale_grad")
def scale_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``scale_grad(out_grad, scale) -> x_grad = scale * out_grad`` (the bias has no gradient).

    Source: ``backward.yaml`` ``scale_grad`` (Paddle usually emits a plain ``scale`` instead).
    """
    out_grad = inputs[0]
    factor = inputs[1] if len(inputs) > 1 and inputs[1] is not None else attrs.get("scale", 1.0)
    return [out_grad * scalar_like(xp, factor, out_grad)]


@kernel("pd_op.add_n", "pd_op.add_n_")
def add_n(xp: Any, inputs: list, attrs: dict) -> list:
    """``add_n(inputs: vec) -> out``: the sum of the tensors of one vector operand (same shapes).

    Raises:
        KernelError: the vector is empty.
    """
    tensors = inputs[0]
    if not tensors:
        raise KernelError("pd_op.add_n", "needs at least one tensor in its vector operand")
    total = tensors[0]
    for tensor in tensors[1:]:
        total = total + tensor
    return [total if len(tensors) > 1 else xp.asarray(total, copy=True)]


@kernel("pd_op.square", "pd_op.square_")
def square(xp: Any, inputs: list, attrs: dict) -> list:
    """``square(x) -> out = x * x``."""
    return [inputs[0] * inputs[0]]


@kernel("pd_op.pow", "pd_op.pow_")
def pow_(xp: Any, inputs: list, attrs: dict) -> list:
    """``pow(x) {y} -> out = x ** y`` (``ops.yaml`` pow; ``y`` a float attribute)."""
    return [inputs[0] ** float(attrs.get("y", 1.0))]


@kernel("pd_op.pow_grad", "pd_op.pow_grad_")
def pow_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``pow_grad(x, out_grad) {y} -> x_grad = y * x ** (y - 1) * out_grad`` (``backward.yaml``)."""
    x, out_grad = inputs
    y = float(attrs.get("y", 1.0))
    return [y * x ** (y - 1.0) * out_grad]


@kernel("pd_op.square_grad", "pd_op.square_grad_")
def square_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``square_grad(x, out_grad) -> x_grad = 2 * x * out_grad``."""
    x, out_grad = inputs
    return [2.0 * x * out_grad]
