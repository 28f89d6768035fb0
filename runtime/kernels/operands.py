"""Turning Paddle operands and attributes into what array-API code needs, and back.

PIR passes many "attributes" as operands (``IntArray``/``Scalar`` arguments become the results of
``pd_op.full_int_array`` / ``pd_op.full``), so a kernel sees e.g. a reshape's target shape as a 1-D
int64 array. These helpers accept both forms (array operand or plain Python value) so kernels do not
care which one the program used.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from array_api_compat import device as array_device

from .registry import KernelError

# Paddle's DataType names as PIR prints them; the array API uses the same names.
_PADDLE_DTYPES = frozenset({
    "bool", "int8", "int16", "int32", "int64", "uint8",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
})
_UNDEFINED = {"undefined", "none", ""}


def dtype_from_name(xp: Any, name: str | None, op_name: str) -> Any:
    """The dtype of namespace ``xp`` for a Paddle dtype name (``"float32"``, ``"int64"``, ...).

    Returns None for Paddle's ``Undefined`` dtype (meaning "same as the input").

    Raises:
        KernelError: the name is not a Paddle dtype, or ``xp`` lacks it (e.g. ``bfloat16``, which
            the array API standard does not define; NumPy has no bfloat16 either).
    """
    if name is None or str(name).lower() in _UNDEFINED:
        return None
    key = str(name).lower()
    if key not in _PADDLE_DTYPES:
        raise KernelError(op_name, f"unknown dtype {name!r}; expected one of {sorted(_PADDLE_DTYPES)}")
    dtype = getattr(xp, key, None)
    if dtype is None:
        raise KernelError(
            op_name,
            f"dtype {name!r} is not available in array namespace {getattr(xp, '__name__', xp)!r}; "
            "run this program in a wider dtype (e.g. cast bfloat16 to float32 before executing)",
        )
    return dtype


def int_values(value: Any) -> list[int]:
    """A list of Python ints from a Python int/list/tuple or an integer array (any rank).

    Used for ``IntArray`` arguments: shapes, axes, sections, slice bounds.
    """
    if isinstance(value, (list, tuple)):  # the common case (attributes) before the ABC check
        return [int(v) for v in value]
    if isinstance(value, (int, bool)):
        return [int(value)]
    if isinstance(value, Sequence):
        return [int(v) for v in value]
    shape = tuple(value.shape)
    if len(shape) == 0:
        return [int(value)]
    flat = value if len(shape) == 1 else _flatten(value)
    if hasattr(flat, "tolist"):  # NumPy, CuPy: one host copy rather than one per element
        return [int(v) for v in flat.tolist()]
    return [int(flat[i]) for i in range(flat.shape[0])]


def int_value(value: Any, op_name: str, what: str) -> int:
    """One Python int from a Python int or a one-element array (a ``Scalar(int)`` operand).

    Raises:
        KernelError: the array holds more than one element.
    """
    values = int_values(value)
    if len(values) != 1:
        raise KernelError(op_name, f"{what} must be a single integer, got {values}")
    return values[0]


def scalar_like(xp: Any, value: Any, like: Any) -> Any:
    """A 0-d array of ``like``'s dtype and device holding ``value``.

    ``value`` is a Python number or a one-element array (a ``Scalar`` operand such as the ``scale``
    of ``pd_op.scale``). Keeping it an array avoids a device-to-host copy on GPU namespaces.
    """
    if isinstance(value, (int, float, bool)):
        return xp.asarray(value, dtype=like.dtype, device=array_device(like))
    if value.ndim:
        value = xp.reshape(value, ())
    return value if value.dtype == like.dtype else xp.astype(value, like.dtype)


def python_scalar(value: Any) -> float:
    """A Python float from a Python number or a one-element array."""
    if isinstance(value, (int, float, bool)):
        return float(value)
    return float(value[(0,) * value.ndim]) if value.ndim else float(value)


def normalize_axes(axes: Sequence[int], ndim: int, op_name: str) -> tuple[int, ...]:
    """Each of ``axes`` as a non-negative index into ``ndim`` dimensions.

    Raises:
        KernelError: an axis is out of range.
    """
    axes = int_values(axes)
    if axes and not -max(ndim, 1) <= min(axes) <= max(axes) < max(ndim, 1):
        bad = next(a for a in axes if not -max(ndim, 1) <= a < max(ndim, 1))
        raise KernelError(op_name, f"axis {bad} is out of range for a tensor of rank {ndim}")
    return tuple(a % max(ndim, 1) for a in axes)


def normalize_axis(axis: int, ndim: int, op_name: str) -> int:
    """``axis`` as a non-negative index into ``ndim`` dimensions.

    Raises:
        KernelError: ``axis`` is out of range.
    """
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise KernelError(op_name, f"axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def sum_to_shape(xp: Any, grad: Any, shape: Sequence[int]) -> Any:
    """Reduce a broadcast result's gradient back to an operand of ``shape``.

    Sums over the leading axes ``grad`` has in excess and over every axis where ``shape`` has
    size 1 but ``grad`` does not (NumPy broadcasting, which is what Paddle does with ``axis=-1``).
    """
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
        return grad
    extra = grad.ndim - len(shape)
    if extra > 0:
        grad = xp.sum(grad, axis=tuple(range(extra)))
    squeezed = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    if squeezed:
        grad = xp.sum(grad, axis=squeezed, keepdims=True)
    return xp.reshape(grad, shape) if tuple(grad.shape) != shape else grad


def align_for_axis(xp: Any, y: Any, x_ndim: int, axis: int) -> Any:
    """Reshape ``y`` for Paddle's legacy elementwise ``axis`` (``y``'s dims start at ``axis`` of x).

    ``axis == -1`` (the only value PIR programs use) means NumPy trailing alignment: ``y`` is
    returned unchanged.
    """
    if axis == -1 or y.ndim >= x_ndim:
        return y
    trailing = x_ndim - axis - y.ndim
    return xp.reshape(y, tuple(y.shape) + (1,) * trailing)


def compute_dtype(xp: Any, x: Any) -> Any:
    """The dtype a reduction-heavy kernel computes in: float32 for 16-bit floats, else x's dtype.

    Paddle's norm/softmax/loss kernels accumulate half-precision inputs in float32 (its "MPType").
    """
    return widened(xp, x.dtype)


def widened(xp: Any, dtype: Any) -> Any:
    """float32 for the 16-bit float dtypes, ``dtype`` itself otherwise (see ``compute_dtype``)."""
    return xp.float32 if any(dtype == d for d in _narrow_floats(xp)) else dtype


@functools.cache
def _narrow_floats(xp: Any) -> tuple:
    # compare only with dtypes xp has: NumPy treats ``dtype == None`` as ``dtype == float64``
    return tuple(getattr(xp, name) for name in ("float16", "bfloat16") if hasattr(xp, name))


def _flatten(value: Any) -> Any:
    size = 1
    for n in value.shape:
        size *= int(n)
    xp_namespace = value.__array_namespace__()
    return xp_namespace.reshape(value, (size,))
