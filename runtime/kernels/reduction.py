"""Reduction kernels and their gradients: mean, sum, mean_all, max, min.

``axis`` is an ``IntArray``: an operand in PIR (a ``pd_op.full_int_array`` result) or, in
hand-written programs, an attribute. An empty axis list means "all axes", as in Paddle; negative
axes count from the end.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (mean, sum, mean_all, max, min), ``backward.yaml``
(mean_grad, sum_grad, mean_all_grad, max_grad, min_grad); operand orders checked against Paddle
3.3.1's ``pd_op.h``. ``max_grad``/``min_grad`` give the whole ``out_grad`` to every element equal to
the result (ties each get it), as Paddle's ``MaxOrMinGradFunctor``.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod
from typing import Any

from .operands import compute_dtype, dtype_from_name, int_values, normalize_axes, widened
from .registry import kernel, specializer


def _axes(inputs: list, attrs: dict, ndim: int, op_name: str, operand_index: int) -> tuple[int, ...]:
    """Reduced axes, sorted and non-negative; all axes for an empty list or ``reduce_all``."""
    if len(inputs) > operand_index and inputs[operand_index] is not None:
        axis = int_values(inputs[operand_index])
    else:
        axis = int_values(attrs.get("axis", []))
    if not axis or attrs.get("reduce_all", False):
        return tuple(range(ndim))
    return tuple(sorted(set(normalize_axes(axis, ndim, op_name))))


def _expand_to(xp: Any, out_grad: Any, x: Any, axes: tuple[int, ...], keepdim: bool) -> Any:
    """Broadcast a reduction's ``out_grad`` back to x's shape."""
    if not keepdim:
        out_grad = xp.reshape(out_grad, _kept_shape(tuple(x.shape), axes))
    return xp.broadcast_to(out_grad, tuple(x.shape))


def _count(x: Any, axes: tuple[int, ...]) -> int:
    count = 1
    for a in axes:
        count *= int(x.shape[a])
    return count


@kernel("pd_op.mean")
def mean(xp: Any, inputs: list, attrs: dict) -> list:
    """``mean(x, axis={}, keepdim=false) -> out``: arithmetic mean over ``axis``.

    Computed in ``compute_dtype`` (float32 for 16-bit floats), returned in x's dtype. A 0-d
    result for a full reduction without ``keepdim``.
    """
    x = inputs[0]
    axes = _axes(inputs, attrs, x.ndim, "pd_op.mean", 1)
    return _mean(xp, x, axes, attrs.get("keepdim", False), _count(x, axes),
                 compute_dtype(xp, x))


def _mean(xp: Any, x: Any, axes: tuple, keepdim: bool, count: int, wide: Any) -> list:
    wide_x = xp.astype(x, wide, copy=False)
    # sum / count is what xp.mean computes, with fewer calls (NumPy's mean is Python code)
    out = xp.sum(wide_x, axis=axes, keepdims=keepdim) / count if axes else wide_x
    return [xp.asarray(xp.astype(out, x.dtype, copy=False))]  # NumPy reduces to a scalar, not a 0-d array


@kernel("pd_op.mean_grad")
def mean_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``mean_grad(x, out_grad, axis, keepdim=false, reduce_all=false) -> x_grad``:
    ``out_grad`` broadcast over the reduced axes, divided by the number of reduced elements."""
    x, out_grad = inputs[0], inputs[1]
    axes = _axes(inputs, attrs, x.ndim, "pd_op.mean_grad", 2)
    kept = None if attrs.get("keepdim", False) else _kept_shape(tuple(x.shape), axes)
    return _mean_grad(xp, tuple(x.shape), x.dtype, out_grad, kept,
                      float(max(_count(x, axes), 1)))


def _kept_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else int(n) for i, n in enumerate(shape))


def _mean_grad(xp: Any, shape: tuple, dtype: Any, out_grad: Any, kept: tuple | None,
               divisor: float) -> list:
    """out_grad (reshaped to ``kept`` first, unless None: keepdim) broadcast to ``shape``,
    divided by ``divisor``, in ``dtype`` (what ``_expand_to`` and the division give)."""
    if kept is not None:
        out_grad = xp.reshape(out_grad, kept)
    grad = xp.broadcast_to(out_grad, shape)
    return [xp.astype(grad / divisor, dtype, copy=False)]


def _static_axes(attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
                 operand_index: int, op_name: str) -> tuple | None:
    """``_axes`` of an op whose x shape (operand 0) is static and whose axis operand, if it
    has one, is a constant; None otherwise."""
    if shapes[0] is None:
        return None
    if len(dtypes) > operand_index and dtypes[operand_index] is not None:
        if constants[operand_index] is None:
            return None
        axis = list(constants[operand_index])
    else:
        axis = int_values(attrs.get("axis", []))
    ndim = len(shapes[0])
    if not axis or attrs.get("reduce_all", False):
        return tuple(range(ndim))
    return tuple(sorted(set(normalize_axes(axis, ndim, op_name))))


@specializer("pd_op.mean")
def mean_specialized(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
                     nulls: frozenset) -> Callable | None:
    """``mean`` with x's shape and dtype static and the axes constant: the axes, the count
    and the compute dtype, once."""
    axes = _static_axes(attrs, shapes, dtypes, constants, 1, "pd_op.mean")
    if axes is None or dtypes[0] is None:
        return None
    wide = widened(xp, dtype_from_name(xp, dtypes[0], "pd_op.mean"))
    keepdim = attrs.get("keepdim", False)
    count = prod(int(shapes[0][a]) for a in axes)
    return lambda inputs: _mean(xp, inputs[0], axes, keepdim, count, wide)


@specializer("pd_op.mean_grad")
def mean_grad_specialized(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple,
                          constants: tuple, nulls: frozenset) -> Callable | None:
    """``mean_grad`` with x's shape and dtype static and the axes constant: the kept shape
    and the divisor, once."""
    axes = _static_axes(attrs, shapes, dtypes, constants, 2, "pd_op.mean_grad")
    if axes is None or dtypes[0] is None:
        return None
    shape = shapes[0]
    dtype = dtype_from_name(xp, dtypes[0], "pd_op.mean_grad")
    kept = None if attrs.get("keepdim", False) else _kept_shape(shape, axes)
    divisor = float(max(prod(int(shape[a]) for a in axes), 1))
    return lambda inputs: _mean_grad(xp, shape, dtype, inputs[1], kept, divisor)


@kernel("pd_op.mean_all")
def mean_all(xp: Any, inputs: list, attrs: dict) -> list:
    """``mean_all(x) -> out``: the mean of all elements, a 0-d tensor."""
    x = inputs[0]
    return [xp.asarray(xp.astype(xp.mean(xp.astype(x, compute_dtype(xp, x))), x.dtype, copy=False))]


@kernel("pd_op.mean_all_grad")
def mean_all_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``mean_all_grad(x, out_grad) -> x_grad = out_grad / numel(x)`` broadcast to x's shape."""
    x, out_grad = inputs
    grad = xp.broadcast_to(xp.reshape(out_grad, ()), tuple(x.shape))
    return [xp.astype(grad / float(max(_count(x, tuple(range(x.ndim))), 1)), x.dtype, copy=False)]


@kernel("pd_op.sum")
def sum_(xp: Any, inputs: list, attrs: dict) -> list:
    """``sum(x, axis={}, dtype=Undefined, keepdim=false) -> out``.

    Output dtype: ``dtype`` if given; otherwise int64 for bool/int32 x (Paddle's rule) and x's
    dtype else. 16-bit floats accumulate in float32.

    Raises:
        KernelError: unknown ``dtype``.
    """
    x = inputs[0]
    axes = _axes(inputs, attrs, x.ndim, "pd_op.sum", 1)
    out_dtype = dtype_from_name(xp, attrs.get("dtype"), "pd_op.sum")
    if out_dtype is None:
        out_dtype = xp.int64 if x.dtype in (xp.bool, xp.int32) else x.dtype
    values = xp.astype(x, widened(xp, out_dtype), copy=False)
    out = xp.sum(values, axis=axes, keepdims=attrs.get("keepdim", False)) if axes else values
    return [xp.asarray(xp.astype(out, out_dtype, copy=False))]


@kernel("pd_op.sum_grad")
def sum_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``sum_grad(x, out_grad, axis, keepdim, reduce_all=false) -> x_grad``: ``out_grad``
    broadcast over the reduced axes, in x's dtype."""
    x, out_grad = inputs[0], inputs[1]
    axes = _axes(inputs, attrs, x.ndim, "pd_op.sum_grad", 2)
    grad = _expand_to(xp, out_grad, x, axes, attrs.get("keepdim", False))
    return [xp.astype(grad, x.dtype, copy=False)]


def _extreme(name: str, fn):
    @kernel(f"pd_op.{name}")
    def reduce(xp: Any, inputs: list, attrs: dict) -> list:
        x = inputs[0]
        axes = _axes(inputs, attrs, x.ndim, f"pd_op.{name}", 1)
        if not axes:  # a 0-d x
            return [x]
        return [xp.asarray(getattr(xp, fn)(x, axis=axes, keepdims=attrs.get("keepdim", False)))]

    reduce.__doc__ = (f"``{name}(x, axis={{}}, keepdim=false) -> out``: the {name}imum over "
                      "``axis`` (all axes for an empty list).")
    reduce.__name__ = name

    @kernel(f"pd_op.{name}_grad")
    def grad(xp: Any, inputs: list, attrs: dict) -> list:
        x, out, out_grad = inputs[0], inputs[1], inputs[2]
        axes = _axes(inputs, attrs, x.ndim, f"pd_op.{name}_grad", 3)
        keepdim = attrs.get("keepdim", False)
        at = x == _expand_to(xp, out, x, axes, keepdim)
        spread = _expand_to(xp, out_grad, x, axes, keepdim)
        return [xp.where(at, spread, xp.zeros_like(spread))]

    grad.__doc__ = (f"``{name}_grad(x, out, out_grad, axis, keepdim, reduce_all) -> x_grad``: "
                    "``out_grad`` broadcast back, kept where x equals the result.")
    grad.__name__ = f"{name}_grad"
    return reduce, grad


max_, max_grad = _extreme("max", "max")
min_, min_grad = _extreme("min", "min")
