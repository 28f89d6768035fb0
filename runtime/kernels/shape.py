"""Shape kernels and their gradients: reshape, transpose, concat, split, split_with_num, slice,
set_value_with_tensor, squeeze, unsqueeze, expand, flatten, stack, unbind.

``IntArray``/``Scalar`` arguments (reshape's ``shape``, concat's and split's ``axis``, split's
``sections``, slice's ``starts``/``ends``) are operands in PIR; ``operands.int_values`` reads them
from an array or a plain list alike. Vector results are returned as Python lists.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (transpose, concat, split, split_with_num, slice,
set_value_with_tensor, squeeze, unsqueeze), ``backward.yaml`` (transpose_grad, concat_grad,
split_with_num_grad, slice_grad, squeeze_grad, unsqueeze_grad, expand_grad); reshape,
reshape_grad, split_grad and expand as in Paddle 3.3.1's ``pd_op.h`` and ``manual_op.h``
(``reshape(x, shape) -> out``, ``reshape_grad(x, out_grad) -> x_grad``,
``split_grad(out_grad: vec, axis) -> x_grad``, ``expand(x, shape) -> out``); flatten, stack,
unbind and their grads as Paddle 3.3.1's ``append_backward`` prints them (``flatten(x)
{start_axis, stop_axis}``, ``flatten_grad(x, out_grad)``, ``stack(x: vec) {axis}``,
``stack_grad(x: vec, out_grad) {axis} -> vec``, ``unbind(x) {axis} -> vec``).
"""

from __future__ import annotations

from typing import Any

from array_api_compat import device as array_device

from .operands import int_value, int_values, normalize_axes, normalize_axis, sum_to_shape
from .registry import KernelError, kernel


def _operand_or_attr(inputs: list, index: int, attrs: dict, name: str, op_name: str,
                     default: Any = None) -> Any:
    """``IntArray``/``Scalar`` argument ``name``: operand ``index`` if present, else the attribute,
    else ``default``.

    Raises:
        KernelError: none of the three is there.
    """
    if len(inputs) > index and inputs[index] is not None:
        return inputs[index]
    if name in attrs:
        return attrs[name]
    if default is not None:
        return default
    raise KernelError(op_name, f"needs {name!r}, as operand {index} or as an attribute")


def target_shape(shape: list[int], x_shape: tuple, op_name: str) -> tuple[int, ...]:
    """Paddle's reshape target: ``0`` copies x's dim at that index, one ``-1`` is inferred.

    Raises:
        KernelError: more than one -1, a 0 past x's rank, or an element count mismatch.
    """
    resolved = []
    for i, n in enumerate(shape):
        if n == 0:
            if i >= len(x_shape):
                raise KernelError(op_name, f"shape {shape} copies dim {i} (0) but x has rank {len(x_shape)}")
            n = int(x_shape[i])
        resolved.append(n)
    size = 1
    for n in x_shape:
        size *= int(n)
    if resolved.count(-1) > 1:
        raise KernelError(op_name, f"shape {shape} has more than one -1")
    known = 1
    for n in resolved:
        known *= n if n != -1 else 1
    if -1 in resolved:
        if known == 0 or size % known:
            raise KernelError(op_name, f"cannot infer the -1 of shape {shape} for {size} elements")
        resolved[resolved.index(-1)] = size // known
    elif known != size:
        raise KernelError(op_name, f"shape {shape} holds {known} elements, x {tuple(x_shape)} has {size}")
    return tuple(resolved)


@kernel("pd_op.reshape", "pd_op.reshape_")
def reshape(xp: Any, inputs: list, attrs: dict) -> list:
    """``reshape(x, shape) -> out``: x's elements (row-major) in ``shape`` (0 = keep dim, -1 =
    inferred).

    Raises:
        KernelError: the shape cannot hold x's elements.
    """
    x = inputs[0]
    shape = int_values(_operand_or_attr(inputs, 1, attrs, "shape", "pd_op.reshape"))
    return [xp.reshape(x, target_shape(shape, tuple(x.shape), "pd_op.reshape"))]


@kernel("pd_op.reshape_grad", "pd_op.reshape_grad_")
def reshape_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``reshape_grad(x, out_grad) -> x_grad``: ``out_grad`` reshaped to x's shape."""
    x, out_grad = inputs
    return [xp.reshape(out_grad, tuple(x.shape))]


@kernel("pd_op.transpose", "pd_op.transpose_")
def transpose(xp: Any, inputs: list, attrs: dict) -> list:
    """``transpose(x, perm) -> out``: ``out.shape[i] = x.shape[perm[i]]`` (negative perm allowed)."""
    x = inputs[0]
    perm = normalize_axes(attrs["perm"], x.ndim, "pd_op.transpose")
    return [xp.permute_dims(x, perm)]


@kernel("pd_op.transpose_grad")
def transpose_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``transpose_grad(out_grad, perm) -> x_grad``: ``out_grad`` permuted by the inverse of
    ``perm``."""
    out_grad = inputs[0]
    perm = normalize_axes(attrs["perm"], out_grad.ndim, "pd_op.transpose_grad")
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return [xp.permute_dims(out_grad, tuple(inverse))]


def _axis(inputs: list, index: int, attrs: dict, ndim: int, op_name: str, default: int = 0) -> int:
    value = _operand_or_attr(inputs, index, attrs, "axis", op_name, default)
    return normalize_axis(int_value(value, op_name, "axis"), ndim, op_name)


@kernel("pd_op.concat")
def concat(xp: Any, inputs: list, attrs: dict) -> list:
    """``concat(x: vec, axis=0) -> out``: the tensors of ``x`` joined along ``axis``.

    Raises:
        KernelError: empty vector or bad axis.
    """
    tensors = inputs[0]
    if not tensors:
        raise KernelError("pd_op.concat", "needs at least one tensor in its vector operand")
    axis = _axis(inputs, 1, attrs, tensors[0].ndim, "pd_op.concat")
    return [xp.concat(list(tensors), axis=axis)]


def _split_at(xp: Any, x: Any, sizes: list[int], axis: int) -> list:
    parts, start = [], 0
    for size in sizes:
        index = [slice(None)] * x.ndim
        index[axis] = slice(start, start + size)
        parts.append(x[tuple(index)])
        start += size
    return parts


@kernel("pd_op.concat_grad")
def concat_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``concat_grad(x: vec, out_grad, axis=0) -> x_grad: vec``: ``out_grad`` cut back into
    pieces shaped like the tensors of ``x``."""
    tensors, out_grad = inputs[0], inputs[1]
    axis = _axis(inputs, 2, attrs, out_grad.ndim, "pd_op.concat_grad")
    return [_split_at(xp, out_grad, [int(t.shape[axis]) for t in tensors], axis)]


@kernel("pd_op.split")
def split(xp: Any, inputs: list, attrs: dict) -> list:
    """``split(x, sections, axis) -> out: vec``: pieces of the given sizes along ``axis``.

    One section may be -1 (the rest).

    Raises:
        KernelError: sections do not add up to the axis length.
    """
    x = inputs[0]
    axis = _axis(inputs, 2, attrs, x.ndim, "pd_op.split")
    sections = int_values(_operand_or_attr(inputs, 1, attrs, "sections", "pd_op.split"))
    length = int(x.shape[axis])
    if sections.count(-1) == 1:
        sections[sections.index(-1)] = length - (sum(sections) + 1)
    if sum(sections) != length or min(sections, default=0) < 0:
        raise KernelError("pd_op.split", f"sections {sections} do not split axis {axis} of length {length}")
    return [_split_at(xp, x, sections, axis)]


@kernel("pd_op.split_with_num")
def split_with_num(xp: Any, inputs: list, attrs: dict) -> list:
    """``split_with_num(x, num, axis) -> out: vec``: ``num`` equal pieces along ``axis``.

    ``axis`` is the operand, ``num`` an attribute.

    Raises:
        KernelError: the axis length is not divisible by ``num``.
    """
    x = inputs[0]
    axis = _axis(inputs, 1, attrs, x.ndim, "pd_op.split_with_num")
    num = int(attrs["num"])
    length = int(x.shape[axis])
    if num <= 0 or length % num:
        raise KernelError("pd_op.split_with_num", f"axis {axis} of length {length} does not split into {num}")
    return [_split_at(xp, x, [length // num] * num, axis)]


@kernel("pd_op.split_grad", "pd_op.split_with_num_grad")
def split_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``split_grad(out_grad: vec, axis) -> x_grad``: the pieces' grads concatenated along
    ``axis``. Also ``split_with_num_grad``, same operands."""
    grads = inputs[0]
    axis = _axis(inputs, 1, attrs, grads[0].ndim, "pd_op.split_grad", default=-1)
    return [xp.concat(list(grads), axis=axis)]


def _slice_bounds(inputs: list, attrs: dict, shape: tuple, op_name: str, first: int):
    """Per sliced axis ``(axis, start, stop)``, clamped the way Paddle's slice kernel clamps."""
    axes = [normalize_axis(a, len(shape), op_name) for a in int_values(attrs["axes"])]
    starts = int_values(_operand_or_attr(inputs, first, attrs, "starts", op_name))
    ends = int_values(_operand_or_attr(inputs, first + 1, attrs, "ends", op_name))
    if not len(axes) == len(starts) == len(ends):
        raise KernelError(op_name, f"axes {axes}, starts {starts} and ends {ends} differ in length")
    bounds = []
    for axis, start, end in zip(axes, starts, ends):
        dim = int(shape[axis])
        start = min(max(start + dim if start < 0 else start, 0), dim)
        end = min(max(end + dim if end < 0 else end, 0), dim)
        bounds.append((axis, start, max(end, start)))
    return bounds


@kernel("pd_op.slice")
def slice_(xp: Any, inputs: list, attrs: dict) -> list:
    """``slice(input, starts, ends, axes, infer_flags, decrease_axis) -> out``.

    ``input[starts:ends]`` on each of ``axes`` (step 1; negative bounds count from the end, bounds
    are clamped to the axis); ``decrease_axis`` axes (length 1 after slicing) are dropped.
    ``infer_flags`` only matters for shape inference and is ignored.

    Raises:
        KernelError: mismatched lengths or a decreased axis whose length is not 1.
    """
    x = inputs[0]
    index = [slice(None)] * x.ndim
    for axis, start, stop in _slice_bounds(inputs, attrs, tuple(x.shape), "pd_op.slice", 1):
        index[axis] = slice(start, stop)
    out = x[tuple(index)]
    decrease = [normalize_axis(a, x.ndim, "pd_op.slice") for a in int_values(attrs.get("decrease_axis", []))]
    if decrease:
        if any(int(out.shape[a]) != 1 for a in decrease):
            raise KernelError("pd_op.slice", f"decrease_axis {decrease} must have length 1, "
                                             f"got {tuple(out.shape)}")
        out = xp.reshape(out, tuple(n for i, n in enumerate(out.shape) if i not in decrease))
    return [out]


@kernel("pd_op.slice_grad")
def slice_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``slice_grad(input, out_grad, starts, ends, axes, infer_flags, decrease_axis) -> input_grad``.

    Zeros of input's shape with ``out_grad`` placed at the sliced region (built by concatenating
    zero blocks, so no in-place write is needed).
    """
    x, out_grad = inputs[0], inputs[1]
    bounds = _slice_bounds(inputs, attrs, tuple(x.shape), "pd_op.slice_grad", 2)
    region = list(x.shape)
    for axis, start, stop in bounds:
        region[axis] = stop - start
    grad = xp.reshape(out_grad, tuple(region))
    device = array_device(out_grad)
    for axis, start, stop in bounds:
        pieces = []
        for size in (start, int(x.shape[axis]) - stop):
            shape = list(grad.shape)
            shape[axis] = size
            pieces.append(xp.zeros(tuple(shape), dtype=grad.dtype, device=device))
        grad = xp.concat([pieces[0], grad, pieces[1]], axis=axis)
    return [grad]


@kernel("pd_op.set_value_with_tensor", "pd_op.set_value_with_tensor_")
def set_value_with_tensor(xp: Any, inputs: list, attrs: dict) -> list:
    """``set_value_with_tensor(x, values, starts, ends, steps, axes, decrease_axes, none_axes)
    -> out``: a copy of x with ``x[starts:ends:steps]`` (on ``axes``) replaced by ``values``.

    ``values`` broadcasts to the selected region with ``decrease_axes`` removed and size-1 axes
    inserted at ``none_axes``. Bounds follow Python slice semantics (Paddle's for positive steps).
    Writes into a fresh copy, so ``xp`` arrays must support ``__setitem__`` (NumPy, CuPy and
    ``array_api_strict`` do).

    Raises:
        KernelError: mismatched lengths of axes/starts/ends/steps.
    """
    x, values = inputs[0], inputs[1]
    name = "pd_op.set_value_with_tensor"
    axes = [normalize_axis(a, x.ndim, name) for a in int_values(attrs["axes"])]
    starts = int_values(_operand_or_attr(inputs, 2, attrs, "starts", name))
    ends = int_values(_operand_or_attr(inputs, 3, attrs, "ends", name))
    steps = int_values(_operand_or_attr(inputs, 4, attrs, "steps", name, [1] * len(axes)))
    if not len(axes) == len(starts) == len(ends) == len(steps):
        raise KernelError(name, f"axes {axes}, starts {starts}, ends {ends}, steps {steps} differ in length")
    index = [slice(None)] * x.ndim
    for axis, start, end, step in zip(axes, starts, ends, steps):
        index[axis] = slice(start, end, step)
    out = xp.asarray(x, copy=True)
    region = tuple(out[tuple(index)].shape)
    decrease = {normalize_axis(a, x.ndim, name) for a in int_values(attrs.get("decrease_axes", []))}
    target = [n for i, n in enumerate(region) if i not in decrease]
    for position in sorted(int_values(attrs.get("none_axes", []))):
        target.insert(position, 1)
    update = xp.broadcast_to(xp.astype(values, x.dtype), tuple(target))
    out[tuple(index)] = xp.reshape(update, region)
    return [out]


def _unsqueezed_shape(shape: tuple, axes: list[int], op_name: str) -> tuple[int, ...]:
    """Paddle's unsqueeze: size-1 axes inserted one after another, each axis (negative ones
    counted from the end) indexing the shape as it is after the previous insertions."""
    result = [int(n) for n in shape]
    for axis in axes:
        rank = len(result)
        if not -rank - 1 <= axis <= rank:
            raise KernelError(op_name, f"axis {axis} is out of range for inserting into rank {rank}")
        result.insert(axis + rank + 1 if axis < 0 else axis, 1)
    return tuple(result)


@kernel("pd_op.unsqueeze", "pd_op.unsqueeze_")
def unsqueeze(xp: Any, inputs: list, attrs: dict) -> list:
    """``unsqueeze(x, axis) -> out``: x with size-1 axes inserted at ``axis`` (an ``IntArray``
    operand), one after another.

    Raises:
        KernelError: an axis out of range.
    """
    x = inputs[0]
    axes = int_values(_operand_or_attr(inputs, 1, attrs, "axis", "pd_op.unsqueeze"))
    return [xp.reshape(x, _unsqueezed_shape(tuple(x.shape), axes, "pd_op.unsqueeze"))]


@kernel("pd_op.squeeze", "pd_op.squeeze_")
def squeeze(xp: Any, inputs: list, attrs: dict) -> list:
    """``squeeze(x, axis={}) -> out``: x without the listed size-1 axes (all size-1 axes when the
    list is empty). Listed axes whose size is not 1 are kept, as in Paddle."""
    x = inputs[0]
    axes = int_values(_operand_or_attr(inputs, 1, attrs, "axis", "pd_op.squeeze", []))
    drop = {normalize_axis(a, x.ndim, "pd_op.squeeze") for a in axes} if axes else set(range(x.ndim))
    return [xp.reshape(x, tuple(n for i, n in enumerate(x.shape) if not (i in drop and n == 1)))]


@kernel("pd_op.unsqueeze_grad", "pd_op.unsqueeze_grad_", "pd_op.squeeze_grad", "pd_op.squeeze_grad_")
def unsqueeze_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``unsqueeze_grad(x, out_grad, axis) -> x_grad`` (also ``squeeze_grad``, same operands):
    ``out_grad`` reshaped to x's shape."""
    x, out_grad = inputs[0], inputs[1]
    return [xp.reshape(out_grad, tuple(x.shape))]


def _expanded_shape(shape: tuple, target: list[int], op_name: str) -> tuple[int, ...]:
    """Paddle's expand target: leading new axes, ``-1`` keeps x's size, a size-1 axis may grow."""
    offset = len(target) - len(shape)
    if offset < 0:
        raise KernelError(op_name, f"shape {target} has fewer axes than x {tuple(shape)}")
    result = []
    for i, n in enumerate(target):
        own = int(shape[i - offset]) if i >= offset else None
        if n == -1:
            if own is None:
                raise KernelError(op_name, f"shape {target} has -1 at new leading axis {i}")
            n = own
        if own is not None and own not in (1, n):
            raise KernelError(op_name, f"cannot expand axis {i - offset} of size {own} to {n}")
        result.append(n)
    return tuple(result)


@kernel("pd_op.expand")
def expand(xp: Any, inputs: list, attrs: dict) -> list:
    """``expand(x, shape) -> out``: x broadcast to ``shape`` (an ``IntArray`` operand; ``-1`` keeps
    a dim). Source: Paddle 3.3.1 ``manual_op.h`` (``ExpandOp``).

    Raises:
        KernelError: the shape is not a broadcast of x's.
    """
    x = inputs[0]
    target = int_values(_operand_or_attr(inputs, 1, attrs, "shape", "pd_op.expand"))
    shape = _expanded_shape(tuple(x.shape), target, "pd_op.expand")
    return [xp.asarray(xp.broadcast_to(x, shape), copy=True)]


@kernel("pd_op.expand_grad")
def expand_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``expand_grad(x, out_grad, shape) -> x_grad``: ``out_grad`` summed over the broadcast axes
    back to x's shape."""
    x, out_grad = inputs[0], inputs[1]
    return [xp.astype(sum_to_shape(xp, out_grad, tuple(x.shape)), x.dtype)]


@kernel("pd_op.flatten", "pd_op.flatten_")
def flatten(xp: Any, inputs: list, attrs: dict) -> list:
    """``flatten(x, start_axis, stop_axis) -> out``: axes ``start_axis..stop_axis`` (inclusive,
    negative from the end) merged into one; a 0-d x becomes ``[1]``.

    Raises:
        KernelError: an axis out of range, or start after stop.
    """
    x = inputs[0]
    if x.ndim == 0:
        return [xp.reshape(x, (1,))]
    start = normalize_axis(int(attrs.get("start_axis", 0)), x.ndim, "pd_op.flatten")
    stop = normalize_axis(int(attrs.get("stop_axis", -1)), x.ndim, "pd_op.flatten")
    if start > stop:
        raise KernelError("pd_op.flatten", f"start_axis {start} is after stop_axis {stop}")
    merged = 1
    for n in x.shape[start:stop + 1]:
        merged *= int(n)
    return [xp.reshape(x, (*x.shape[:start], merged, *x.shape[stop + 1:]))]


@kernel("pd_op.flatten_grad")
def flatten_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``flatten_grad(x, out_grad) -> x_grad``: ``out_grad`` reshaped to x's shape."""
    x, out_grad = inputs[0], inputs[1]
    return [xp.reshape(out_grad, tuple(x.shape))]


def _unstack(xp: Any, x: Any, axis: int) -> list:
    return [x[(slice(None),) * axis + (i, ...)] for i in range(int(x.shape[axis]))]


@kernel("pd_op.stack")
def stack(xp: Any, inputs: list, attrs: dict) -> list:
    """``stack(x: vec, axis=0) -> out``: the tensors of ``x`` (one shape) joined along a new axis
    ``axis`` (negative: counted in the result's rank).

    Raises:
        KernelError: empty vector or bad axis.
    """
    tensors = list(inputs[0])
    if not tensors:
        raise KernelError("pd_op.stack", "needs at least one tensor in its vector operand")
    axis = normalize_axis(int(attrs.get("axis", 0)), tensors[0].ndim + 1, "pd_op.stack")
    return [xp.stack(tensors, axis=axis)]


@kernel("pd_op.stack_grad")
def stack_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``stack_grad(x: vec, out_grad, axis) -> x_grad: vec``: ``out_grad`` cut along ``axis``
    into one grad per stacked tensor."""
    out_grad = inputs[1]
    axis = normalize_axis(int(attrs.get("axis", 0)), out_grad.ndim, "pd_op.stack_grad")
    return [_unstack(xp, out_grad, axis)]


@kernel("pd_op.unbind")
def unbind(xp: Any, inputs: list, attrs: dict) -> list:
    """``unbind(x, axis=0) -> out: vec``: the slices of x along ``axis``, that axis removed."""
    x = inputs[0]
    axis = normalize_axis(int(attrs.get("axis", 0)), x.ndim, "pd_op.unbind")
    return [_unstack(xp, x, axis)]
