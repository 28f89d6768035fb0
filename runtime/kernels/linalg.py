"""Matrix multiplication kernels: matmul and matmul_grad.

Semantics follow Paddle's ``matmul``: ``transpose_x``/``transpose_y`` swap the last two axes of an
operand of rank >= 2 (they are ignored for a 1-D operand); a 1-D x is a row vector ``[1, K]`` and a
1-D y a column vector ``[K, 1]``, and the added axis is dropped from the result; batch axes
broadcast like NumPy.

Sources: ``paddle/phi/ops/yaml/inconsistent/static_ops.yaml`` (matmul), ``backward.yaml``
(matmul_grad); operand orders checked against Paddle 3.3.1's ``pd_op.h``.
"""

from __future__ import annotations

from typing import Any

from .operands import sum_to_shape
from .registry import kernel


def _swap_last(xp: Any, a: Any) -> Any:
    return xp.matrix_transpose(a)


def _as_matrices(xp: Any, x: Any, y: Any, transpose_x: bool, transpose_y: bool):
    """x and y promoted to rank >= 2 and transposed as asked: ``[..., M, K]`` and ``[..., K, N]``."""
    x2 = xp.reshape(x, (1, x.shape[0])) if x.ndim == 1 else (_swap_last(xp, x) if transpose_x else x)
    y2 = xp.reshape(y, (y.shape[0], 1)) if y.ndim == 1 else (_swap_last(xp, y) if transpose_y else y)
    return x2, y2


@kernel("pd_op.matmul")
def matmul(xp: Any, inputs: list, attrs: dict) -> list:
    """``matmul(x, y, transpose_x=false, transpose_y=false) -> out``.

    Shapes: ``[..., M, K] @ [..., K, N] -> [broadcast(...), M, N]`` after the optional transposes;
    1-D operands as described in the module docstring. Float dtypes, promoted per the array API.
    """
    x, y = inputs
    if x.ndim >= 2 and y.ndim >= 2:
        t = xp.matrix_transpose
        return [xp.matmul(t(x) if attrs.get("transpose_x", False) else x,
                          t(y) if attrs.get("transpose_y", False) else y)]
    x2, y2 = _as_matrices(xp, x, y, attrs.get("transpose_x", False), attrs.get("transpose_y", False))
    out = xp.matmul(x2, y2)
    if x.ndim == 1:
        out = xp.squeeze(out, axis=-2)
    if y.ndim == 1:
        out = xp.squeeze(out, axis=-1)
    return [out]


def _same_batch_grads(xp: Any, x: Any, y: Any, og: Any, transpose_x: bool,
                      transpose_y: bool) -> list:
    """matmul_grad when x and y have rank >= 2 and the same batch axes (nothing broadcast, so
    nothing to sum): each grad is one matmul of ``og`` with the other operand, in the order
    that gives it its operand's layout directly (``(og @ B^T)^T = B @ og^T``)."""
    t = xp.matrix_transpose
    if transpose_x:
        x_grad = xp.matmul(t(y), t(og)) if transpose_y else xp.matmul(y, t(og))
    else:
        x_grad = xp.matmul(og, y) if transpose_y else xp.matmul(og, t(y))
    if transpose_y:
        y_grad = xp.matmul(t(og), t(x)) if transpose_x else xp.matmul(t(og), x)
    else:
        y_grad = xp.matmul(x, og) if transpose_x else xp.matmul(t(x), og)
    return [x_grad, y_grad]


@kernel("pd_op.matmul_grad")
def matmul_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``matmul_grad(x, y, out_grad, transpose_x, transpose_y) -> x_grad, y_grad``.

    With ``A = op(x)``, ``B = op(y)`` (``op`` the optional transpose): ``dA = og @ B^T``,
    ``dB = A^T @ og``, transposed back where the forward transposed, and summed over batch axes
    that broadcasting added. ``x_grad``/``y_grad`` have x's/y's shapes.
    """
    x, y, out_grad = inputs
    transpose_x = attrs.get("transpose_x", False)
    transpose_y = attrs.get("transpose_y", False)
    if x.ndim >= 2 and x.ndim == y.ndim and x.shape[:-2] == y.shape[:-2] \
            and out_grad.ndim == x.ndim:
        return _same_batch_grads(xp, x, y, out_grad, transpose_x, transpose_y)
    a, b = _as_matrices(xp, x, y, transpose_x, transpose_y)
    batch = _broadcast_shape(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    grad = xp.reshape(out_grad, batch + (a.shape[-2], b.shape[-1]))

    grad_a = xp.matmul(grad, _swap_last(xp, b))
    grad_b = xp.matmul(_swap_last(xp, a), grad)
    if transpose_x and x.ndim >= 2:
        grad_a = _swap_last(xp, grad_a)
    if transpose_y and y.ndim >= 2:
        grad_b = _swap_last(xp, grad_b)
    x_full = (1, x.shape[0]) if x.ndim == 1 else tuple(x.shape)
    y_full = (y.shape[0], 1) if y.ndim == 1 else tuple(y.shape)
    x_grad = xp.reshape(sum_to_shape(xp, grad_a, x_full), tuple(x.shape))
    y_grad = xp.reshape(sum_to_shape(xp, grad_b, y_full), tuple(y.shape))
    return [x_grad, y_grad]


def _broadcast_shape(a: tuple, b: tuple) -> tuple:
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + a
    b = (1,) * (rank - len(b)) + b
    return tuple(n if m == 1 else m for m, n in zip(a, b))
