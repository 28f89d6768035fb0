"""Creation and conversion kernels: full, full_int_array, full_like, full_, assign_value_,
assign, cast.

Data-free creation ops (``full``, ``full_int_array``) have no operand to take a device from; they
create on ``xp``'s default device. The ``place`` attribute is ignored: where a value lives is the
executor's business, not the program's.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (full, full_, full_int_array, full_like, cast,
assign_value_: what ``paddle.to_tensor`` of a list prints in a static program),
``inconsistent/static_ops.yaml`` (assign), ``backward.yaml`` (cast_grad); signatures checked
against Paddle 3.3.1's generated ``pd_op.h``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from array_api_compat import device as array_device

from .operands import dtype_from_name, int_values, python_scalar
from .registry import KernelError, kernel, specializer


def _fill_value(xp: Any, value: float, dtype: Any) -> Any:
    if dtype == xp.bool:
        return bool(value)
    if xp.isdtype(dtype, "integral"):
        return int(value)
    return float(value)


@kernel("pd_op.full")
def full(xp: Any, inputs: list, attrs: dict) -> list:
    """``full(shape, value, dtype=float32, place) -> out``: a tensor of ``shape`` filled with ``value``.

    ``shape`` (list of int), ``value`` (float; truncated for integer dtypes) and ``dtype`` are
    attributes in PIR; a ``shape`` operand, if a program has one, is honoured too.

    Raises:
        KernelError: ``dtype`` unknown to Paddle or missing from ``xp``.
    """
    shape = int_values(inputs[0]) if inputs and inputs[0] is not None else int_values(attrs["shape"])
    dtype = dtype_from_name(xp, attrs.get("dtype", "float32"), "pd_op.full") or xp.float32
    return [xp.full(tuple(shape), _fill_value(xp, attrs["value"], dtype), dtype=dtype)]


@kernel("pd_op.full_")
def full_inplace(xp: Any, inputs: list, attrs: dict) -> list:
    """``full_(output, shape, value, dtype, place) -> out``: ``full`` written over ``output``.

    The new value has ``shape``/``dtype`` from the attributes; the executor aliases it to
    ``output``. Source: ``ops.yaml`` ``full_``.
    """
    output = inputs[0]
    dtype = dtype_from_name(xp, attrs.get("dtype", "float32"), "pd_op.full_") or output.dtype
    shape = tuple(int_values(attrs["shape"])) if "shape" in attrs else tuple(output.shape)
    value = _fill_value(xp, attrs["value"], dtype)
    return [xp.full(shape, value, dtype=dtype, device=array_device(output))]


@kernel("pd_op.assign_value_")
def assign_value_inplace(xp: Any, inputs: list, attrs: dict) -> list:
    """``assign_value_(output, shape, dtype, values, place) -> out``: the literal ``values``
    (row-major) in ``shape`` and ``dtype``, written over ``output`` (the executor aliases it).

    Raises:
        KernelError: ``dtype`` unknown, or as many values as the shape holds not given.
    """
    output = inputs[0] if inputs else None
    dtype = dtype_from_name(xp, attrs.get("dtype", "float32"), "pd_op.assign_value_") or \
        (output.dtype if output is not None else xp.float32)
    shape = tuple(int_values(attrs["shape"]))
    values = list(attrs.get("values", ()))
    if xp.isdtype(dtype, "integral"):  # ints kept exact (an int64 past 2**53 too)
        values = [v if isinstance(v, int) else int(python_scalar(v)) for v in values]
    elif xp.isdtype(dtype, "bool"):
        values = [bool(v) for v in values]
    else:
        values = [python_scalar(v) for v in values]
    size = 1
    for n in shape:
        size *= n
    if len(values) != size:
        raise KernelError("pd_op.assign_value_", f"{len(values)} values for shape "
                                                 f"{list(shape)} ({size} elements)")
    device = array_device(output) if output is not None else None
    return [xp.reshape(xp.asarray(values, dtype=dtype, device=device), shape)]


@kernel("pd_op.full_int_array")
def full_int_array(xp: Any, inputs: list, attrs: dict) -> list:
    """``full_int_array(value, dtype=int64, place) -> out``: the 1-D tensor ``value``.

    ``value`` is a list of ints (possibly empty: a shape-``[0]`` tensor, PIR's "reduce over all
    axes"); ``dtype`` is usually int64.
    """
    dtype = dtype_from_name(xp, attrs.get("dtype", "int64"), "pd_op.full_int_array") or xp.int64
    values = int_values(attrs["value"])
    if xp.isdtype(dtype, "real floating"):
        values = [float(v) for v in values]
    return [xp.asarray(values, dtype=dtype)]


@kernel("pd_op.full_like")
def full_like(xp: Any, inputs: list, attrs: dict) -> list:
    """``full_like(x, value, dtype=Undefined, place) -> out``: x's shape and device, filled.

    ``value`` is an operand in PIR (a ``pd_op.full`` result of shape ``[1]``) or, failing that,
    the ``value`` attribute. ``dtype`` ``Undefined`` keeps x's dtype.
    """
    x = inputs[0]
    value = inputs[1] if len(inputs) > 1 and inputs[1] is not None else attrs["value"]
    dtype = dtype_from_name(xp, attrs.get("dtype"), "pd_op.full_like") or x.dtype
    fill = _fill_value(xp, python_scalar(value), dtype)
    return [xp.full(tuple(x.shape), fill, dtype=dtype, device=array_device(x))]


@specializer("pd_op.full_like")
def full_like_specialized(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
                          nulls: frozenset) -> Callable | None:
    """``full_like(x, value)`` with x's shape and dtype static and ``value`` a one-element
    ``pd_op.full`` (or no value operand): the fill value, once. It is read as the kernel reads
    it, from the array ``pd_op.full``'s kernel makes (so a float32 0.1 fills a float64 result
    with float32's 0.1, as it does at run time)."""
    if shapes[0] is None or dtypes[0] is None:
        return None
    dtype = dtype_from_name(xp, attrs.get("dtype"), "pd_op.full_like") \
        or dtype_from_name(xp, dtypes[0], "pd_op.full_like")
    if len(shapes) > 1 and dtypes[1] is not None:
        if constants[1] is None:
            return None
        value = full(xp, [], {"shape": [1], "value": constants[1][0], "dtype": dtypes[1]})[0]
    elif "value" in attrs:
        value = attrs["value"]
    else:
        return None
    fill = _fill_value(xp, python_scalar(value), dtype)
    shape, make = shapes[0], xp.full
    return lambda inputs: [make(shape, fill, dtype=dtype, device=array_device(inputs[0]))]


@kernel("pd_op.assign", "pd_op.assign_")
def assign(xp: Any, inputs: list, attrs: dict) -> list:
    """``assign(x) -> out``: a copy of x (same shape, dtype, device)."""
    return [xp.asarray(inputs[0], copy=True)]


@kernel("pd_op.share_data_", "pd_op.share_data")
def share_data(xp: Any, inputs: list, attrs: dict) -> list:
    """``share_data_(x) -> out``: out shares x's buffer (Paddle's ``share_data_``: a view, no
    copy; the global-mesh reshards of ``global_to_sub_mesh_func.py`` use it)."""
    return [inputs[0]]


@kernel("pd_op.assign_out_")
def assign_out(xp: Any, inputs: list, attrs: dict) -> list:
    """``assign_out_(x, output) -> out``: x's value, to be written into ``output`` by the executor.

    Source: ``ops.yaml`` ``assign_out_`` (inplace ``output -> out``); Paddle's manual op keeps the
    same operand order.
    """
    return [xp.asarray(inputs[0], copy=True)]


@kernel("pd_op.cast", "pd_op.cast_")
def cast(xp: Any, inputs: list, attrs: dict) -> list:
    """``cast(x, dtype) -> out``: x converted to ``dtype`` (float->int truncates toward zero).

    Raises:
        KernelError: ``dtype`` unknown to Paddle or missing from ``xp`` (e.g. bfloat16).
    """
    x = inputs[0]
    dtype = dtype_from_name(xp, attrs["dtype"], "pd_op.cast") or x.dtype
    return [xp.astype(x, dtype)]


@kernel("pd_op.cast_grad")
def cast_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``cast_grad(x, out_grad) -> x_grad``: ``out_grad`` cast back to x's dtype.

    Source: ``backward.yaml`` ``cast_grad``.
    """
    x, out_grad = inputs
    return [xp.astype(out_grad, x.dtype)]
