"""Kernels that draw random numbers, and dropout's gradient: dropout, dropout_grad, uniform.

A random kernel is given ``draws(shape, dtype, seed)`` (``registry.random_kernel``), the uniform
[0, 1) numbers Paddle's CPU kernel takes for this run of the op, one per element in row-major
order (``rulepass.runtime.generator`` reproduces Paddle's generator). The numerics follow Paddle
3.3.1's CPU kernels (``paddle/phi/kernels/cpu/dropout_kernel.cc``, ``dropout_grad_kernel.cc``,
``uniform_kernel.cc``):

- ``dropout(x, seed_tensor, p) {is_test, mode, seed, fix_seed} -> out, mask``: in training an
  element is dropped where its draw is below ``p`` (mask 0, out 0), else kept (mask 1, out
  ``x / (1 - p)`` for ``mode = "upscale_in_train"``, ``x`` for ``"downgrade_in_infer"``); ``p =
  1`` drops all without drawing; a nonzero ``seed`` (with ``fix_seed``) or seed tensor draws
  from an engine seeded with it. With ``is_test`` out is ``x`` (upscale) or ``x * (1 - p)``, and
  the mask — which Paddle leaves unwritten — is all ones here.
- ``dropout_grad(mask, out_grad, p) {is_test, mode} -> x_grad``.
- ``uniform(shape, min, max) {dtype, seed} -> out = min + (max - min) * draw``.
"""

from __future__ import annotations

from typing import Any

from .operands import dtype_from_name, int_values, python_scalar
from .registry import KernelError, kernel, random_kernel


def _probability(inputs: list, attrs: dict, index: int) -> float:
    value = inputs[index] if len(inputs) > index and inputs[index] is not None else attrs["p"]
    return python_scalar(value)


def _seed(xp: Any, inputs: list, attrs: dict) -> int:
    if len(inputs) > 1 and inputs[1] is not None:
        return int_values(inputs[1])[0]
    return int(attrs.get("seed", 0)) if attrs.get("fix_seed", False) else 0


def _dtype_name(x: Any) -> str:
    return str(x.dtype).rsplit(".", 1)[-1]


@random_kernel("pd_op.dropout")
def dropout(xp: Any, inputs: list, attrs: dict, draws=None) -> list:
    """``dropout(x, seed_tensor, p, is_test, mode, seed, fix_seed) -> out, mask (uint8)``; see the
    module docstring.

    Raises:
        KernelError: training with 0 < p < 1 and no draw source; an unknown mode.
    """
    x = inputs[0]
    p = _probability(inputs, attrs, 2)
    mode = attrs.get("mode", "upscale_in_train")
    if mode not in ("upscale_in_train", "downgrade_in_infer"):
        raise KernelError("pd_op.dropout", f"unknown mode {mode!r}; expected "
                          "'upscale_in_train' or 'downgrade_in_infer'")
    upscale = mode == "upscale_in_train"
    keep = _keep(xp, p, x.dtype)
    if attrs.get("is_test", False):
        out = x if upscale else x * keep
        return [out, xp.ones(tuple(x.shape), dtype=xp.uint8)]
    if p == 1.0:
        return [xp.zeros_like(x), xp.zeros(tuple(x.shape), dtype=xp.uint8)]
    if p <= 0.0:  # every draw is kept (u < 0 never holds)
        mask = xp.ones(tuple(x.shape), dtype=xp.bool)
    else:
        if draws is None:
            raise KernelError("pd_op.dropout", f"drops with p = {p} in training, which needs "
                              "random numbers; run it in an executor with a draw source")
        # the CPU kernel draws floats whatever x's dtype (uniform_real_distribution<float>)
        u = draws(tuple(x.shape), "float32", _seed(xp, inputs, attrs))
        mask = u >= xp.asarray(p, dtype=xp.float32)
    kept = x / keep if upscale else x
    return [xp.where(mask, kept, xp.zeros_like(x)), xp.astype(mask, xp.uint8)]


def _keep(xp: Any, p: float, dtype: Any) -> Any:
    """Paddle's ``static_cast<T>(1.0f - p)``: the difference taken in float32."""
    one = xp.asarray(1.0, dtype=xp.float32)
    return xp.astype(one - xp.asarray(p, dtype=xp.float32), dtype)


@kernel("pd_op.dropout_grad")
def dropout_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``dropout_grad(mask, out_grad, p, is_test, mode) -> x_grad``: in training ``out_grad *
    mask / (1 - p)`` (upscale; 0 for p = 1) or ``out_grad * mask``; with ``is_test`` ``out_grad``
    (upscale) or ``out_grad * (1 - p)``."""
    mask, out_grad = inputs[0], inputs[1]
    p = _probability(inputs, attrs, 2)
    upscale = attrs.get("mode", "upscale_in_train") == "upscale_in_train"
    keep = _keep(xp, p, out_grad.dtype)
    if attrs.get("is_test", False):
        return [out_grad if upscale else out_grad * keep]
    masked = out_grad * xp.astype(mask, out_grad.dtype)
    if not upscale:
        return [masked]
    if p == 1.0:
        return [xp.zeros_like(out_grad)]
    return [masked / keep]


@random_kernel("pd_op.uniform")
def uniform(xp: Any, inputs: list, attrs: dict, draws=None) -> list:
    """``uniform(shape, min, max, dtype, seed) -> out``: ``min + (max - min) * u`` per element
    (``shape`` an ``IntArray`` operand or attribute, ``min``/``max`` ``Scalar`` operands or
    attributes; a nonzero ``seed`` draws from an engine seeded with it).

    Raises:
        KernelError: no draw source, or a non-float dtype.
    """
    shape = tuple(int_values(inputs[0] if inputs and inputs[0] is not None else attrs["shape"]))
    lo = python_scalar(inputs[1] if len(inputs) > 1 and inputs[1] is not None else attrs["min"])
    hi = python_scalar(inputs[2] if len(inputs) > 2 and inputs[2] is not None else attrs["max"])
    name = str(attrs.get("dtype", "float32")).lower()
    dtype = dtype_from_name(xp, name, "pd_op.uniform") or xp.float32
    if not xp.isdtype(dtype, "real floating"):
        raise KernelError("pd_op.uniform", f"draws floats; dtype {name} is not one")
    if draws is None:
        raise KernelError("pd_op.uniform", "needs random numbers; run it in an executor with a "
                          "draw source")
    u = xp.astype(draws(shape, name, int(attrs.get("seed", 0))), dtype)
    # Paddle takes min and max as floats; libstdc++ computes u * (b - a) + a in the draw's type
    a = xp.astype(xp.asarray(lo, dtype=xp.float32), dtype)
    b = xp.astype(xp.asarray(hi, dtype=xp.float32), dtype)
    return [u * (b - a) + a]
