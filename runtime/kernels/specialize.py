"""Kernels specialized to one op when the executor plans a program (see
``registry.specializer``): what the generic kernel works out on every call from attributes and
shapes — a permutation and its inverse, a reshape's target shape, the learning-rate scalar of
``sgd_`` — is worked out once from the op's static operand shapes, dtypes and constant operands.

Each specializer gives the result its kernel gives (``tests/test_kernels_specialize.py`` checks
them against each other); where an op does not fit (a dynamic shape, a shape operand that no
constant op makes, mixed precision), it returns None and the generic kernel runs. A reshape
whose constant target cannot hold its input is a KernelError when the program is planned.

Sources: as for the kernels (``shape.py``, ``optimizer.py``).
"""

from __future__ import annotations

from typing import Any, Callable

from .operands import normalize_axes
from .registry import specializer
from .shape import target_shape


@specializer("pd_op.transpose", "pd_op.transpose_")
def transpose(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``transpose(x, perm)`` with x's rank known: the normalized permutation, once."""
    if shapes[0] is None or "perm" not in attrs:
        return None
    perm = normalize_axes(attrs["perm"], len(shapes[0]), "pd_op.transpose")
    permute = xp.permute_dims
    return lambda inputs: [permute(inputs[0], perm)]


@specializer("pd_op.transpose_grad")
def transpose_grad(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``transpose_grad(out_grad, perm)`` with out_grad's rank known: the inverse, once."""
    if shapes[0] is None or "perm" not in attrs:
        return None
    perm = normalize_axes(attrs["perm"], len(shapes[0]), "pd_op.transpose_grad")
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    inverse = tuple(inverse)
    permute = xp.permute_dims
    return lambda inputs: [permute(inputs[0], inverse)]


@specializer("pd_op.reshape", "pd_op.reshape_")
def reshape(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``reshape(x, shape)`` with x's shape static and ``shape`` a constant operand: the
    resolved target shape, once (a target that cannot hold x raises KernelError now)."""
    if shapes[0] is None or len(constants) < 2 or constants[1] is None \
            or not all(type(n) is int for n in constants[1]):
        return None
    target = target_shape(list(constants[1]), shapes[0], "pd_op.reshape")
    reshape_to = xp.reshape
    return lambda inputs: [reshape_to(inputs[0], target)]


@specializer("pd_op.reshape_grad", "pd_op.reshape_grad_")
def reshape_grad(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``reshape_grad(x, out_grad)`` with x's shape static: out_grad reshaped to it."""
    if shapes[0] is None:
        return None
    x_shape = shapes[0]
    reshape_to = xp.reshape
    return lambda inputs: [reshape_to(inputs[1], x_shape)]


@specializer("pd_op.sgd_")
def sgd(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``sgd_`` without mixed precision, parameter, learning rate and grad of one dtype and a
    0-d or one-element learning rate: ``param - learning_rate * grad``."""
    if attrs.get("multi_precision", False) or len(shapes) < 3 or shapes[1] not in ((), (1,)) \
            or dtypes[0] is None or not dtypes[0] == dtypes[1] == dtypes[2]:
        return None
    if shapes[1] == ():
        return lambda inputs: [inputs[0] - inputs[1] * inputs[2], None]
    scalar = xp.reshape
    return lambda inputs: [inputs[0] - scalar(inputs[1], ()) * inputs[2], None]


def _matrices(shapes: tuple) -> bool:
    """x and y (operands 0 and 1) of rank >= 2 with the same batch axes: nothing broadcasts."""
    x, y = shapes[0], shapes[1]
    return x is not None and y is not None and len(x) >= 2 and len(x) == len(y) \
        and x[:-2] == y[:-2]


@specializer("pd_op.matmul")
def matmul(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``matmul(x, y)`` of rank >= 2 operands with the same batch axes: one ``xp.matmul`` of
    the (optionally) transposed operands."""
    if not _matrices(shapes):
        return None
    mm, t = xp.matmul, xp.matrix_transpose
    tx, ty = attrs.get("transpose_x", False), attrs.get("transpose_y", False)
    if tx and ty:
        return lambda inputs: [mm(t(inputs[0]), t(inputs[1]))]
    if tx:
        return lambda inputs: [mm(t(inputs[0]), inputs[1])]
    if ty:
        return lambda inputs: [mm(inputs[0], t(inputs[1]))]
    return lambda inputs: [mm(inputs[0], inputs[1])]


@specializer("pd_op.matmul_grad")
def matmul_grad(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``matmul_grad(x, y, out_grad)`` when nothing broadcasts: the two products of the
    kernel's ``_same_batch_grads`` for this op's transposes, chosen once (a null grad is not
    computed)."""
    if not _matrices(shapes) or len(shapes) < 3 or shapes[2] is None \
            or len(shapes[2]) != len(shapes[0]):
        return None
    mm, t = xp.matmul, xp.matrix_transpose
    tx, ty = attrs.get("transpose_x", False), attrs.get("transpose_y", False)
    if not tx and not ty:
        x_grad = lambda x, y, og: mm(og, t(y))  # noqa: E731
        y_grad = lambda x, y, og: mm(t(x), og)  # noqa: E731
    elif not tx and ty:
        x_grad = lambda x, y, og: mm(og, y)  # noqa: E731
        y_grad = lambda x, y, og: mm(t(og), x)  # noqa: E731
    elif tx and not ty:
        x_grad = lambda x, y, og: mm(y, t(og))  # noqa: E731
        y_grad = lambda x, y, og: mm(x, og)  # noqa: E731
    else:
        x_grad = lambda x, y, og: mm(t(y), t(og))  # noqa: E731
        y_grad = lambda x, y, og: mm(t(og), t(x))  # noqa: E731
    if 0 in nulls or 1 in nulls:
        x_grad = None if 0 in nulls else x_grad
        y_grad = None if 1 in nulls else y_grad
        return lambda inputs: [None if x_grad is None else x_grad(*inputs[:3]),
                               None if y_grad is None else y_grad(*inputs[:3])]
    # the common case, the products written out (a call less per grad)
    if not tx and not ty:
        return lambda inputs: [mm(inputs[2], t(inputs[1])), mm(t(inputs[0]), inputs[2])]
    if not tx and ty:
        return lambda inputs: [mm(inputs[2], inputs[1]), mm(t(inputs[2]), inputs[0])]
    if tx and not ty:
        return lambda inputs: [mm(inputs[1], t(inputs[2])), mm(inputs[0], inputs[2])]
    return lambda inputs: [mm(t(inputs[1]), t(inputs[2])), mm(t(inputs[2]), t(inputs[0]))]


def _reducer(xp: Any, grad_shape: tuple, shape: tuple) -> Callable | None:
    """``operands.sum_to_shape(xp, grad, shape)`` for a grad of static ``grad_shape``, its
    steps (the leading axes summed, the broadcast ones summed with keepdims, a reshape) chosen
    once; None when the grad already has the shape (sum_to_shape returns it as it is)."""
    if grad_shape == shape:
        return None
    extra = len(grad_shape) - len(shape)
    lead = tuple(range(extra))
    after = grad_shape[extra:] if extra > 0 else grad_shape
    squeezed = tuple(i for i, n in enumerate(shape) if n == 1 and after[i] != 1)
    if squeezed:
        after = tuple(1 if i in squeezed else n for i, n in enumerate(after))
    final = shape if after != shape else None
    total, reshape_to = xp.sum, xp.reshape

    def reduce(grad):
        if extra > 0:
            grad = total(grad, axis=lead)
        if squeezed:
            grad = total(grad, axis=squeezed, keepdims=True)
        return grad if final is None else reshape_to(grad, final)
    return reduce


def _binary_grads(xp: Any, attrs: dict, shapes: tuple, nulls: frozenset, negate_y: bool
                  ) -> Callable | None:
    """add_grad / subtract_grad ``(x, y, out_grad) -> x_grad, y_grad`` with the three shapes
    static and Paddle's ``axis=-1``: out_grad (for subtract, y's grad negated) summed to each
    operand's shape by a planned reducer; a null grad is not computed."""
    if attrs.get("axis", -1) != -1 or len(shapes) < 3 or None in shapes[:3] \
            or any(len(shapes[2]) < len(s) for s in shapes[:2]):
        return None
    x_reduce = _reducer(xp, shapes[2], shapes[0])
    y_reduce = _reducer(xp, shapes[2], shapes[1])
    need_x, need_y = 0 not in nulls, 1 not in nulls

    def grads(inputs):
        out_grad = inputs[2]
        x_grad = y_grad = None
        if need_x:
            x_grad = out_grad if x_reduce is None else x_reduce(out_grad)
        if need_y:
            y_part = -out_grad if negate_y else out_grad
            y_grad = y_part if y_reduce is None else y_reduce(y_part)
        return [x_grad, y_grad]
    if need_x and need_y and x_reduce is None and y_reduce is None and not negate_y:
        return lambda inputs: [inputs[2], inputs[2]]  # the common add: both are out_grad
    return grads


@specializer("pd_op.add_grad", "pd_op.add_grad_")
def add_grad(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``add_grad(x, y, out_grad)``: see ``_binary_grads``."""
    return _binary_grads(xp, attrs, shapes, nulls, negate_y=False)


@specializer("pd_op.subtract_grad", "pd_op.subtract_grad_")
def subtract_grad(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``subtract_grad(x, y, out_grad)``: see ``_binary_grads`` (y's grad negated)."""
    return _binary_grads(xp, attrs, shapes, nulls, negate_y=True)


@specializer("pd_op.scale", "pd_op.scale_")
def scale(xp: Any, attrs: dict, shapes: tuple, dtypes: tuple, constants: tuple,
        nulls: frozenset) -> Callable | None:
    """``scale(x, scale)`` of a float x with a one-element ``scale`` operand of x's dtype and a
    float ``bias``: ``x * scale + bias`` (or ``(x + bias) * scale``), the scalar read as 0-d."""
    bias = attrs.get("bias", 0.0)
    if len(shapes) < 2 or shapes[1] not in ((), (1,)) or dtypes[0] not in _FLOATS \
            or dtypes[1] != dtypes[0] or not isinstance(bias, float):
        return None
    scalar = xp.reshape
    if attrs.get("bias_after_scale", True):
        return lambda inputs: [inputs[0] * scalar(inputs[1], ()) + bias]
    return lambda inputs: [(inputs[0] + bias) * scalar(inputs[1], ())]


_FLOATS = frozenset({"float16", "bfloat16", "float32", "float64"})
