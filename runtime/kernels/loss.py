"""Softmax cross-entropy and its gradient: cross_entropy_with_softmax(_grad).

Hard labels are integer class ids with the class axis of length 1 (``[N, 1]`` for ``[N, C]``
logits; a label missing that axis is accepted too); soft labels are distributions shaped like the
logits. Class selection uses a comparison with ``arange(C)`` instead of a gather, so only standard
operations are needed.

Numerics: with ``use_softmax`` the loss is computed from the log-softmax (``x - max - log sum exp``)
rather than ``log(softmax)``, which agrees with Paddle's result to rounding but never takes the log
of an underflowed probability.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (cross_entropy_with_softmax), ``backward.yaml``
(cross_entropy_with_softmax_grad); operand orders checked against Paddle 3.3.1's ``pd_op.h``.
"""

from __future__ import annotations

from typing import Any

from array_api_compat import device as array_device

from .operands import compute_dtype, normalize_axis
from .registry import KernelError, kernel


def _class_axis(attrs: dict, ndim: int, op_name: str) -> int:
    return normalize_axis(attrs.get("axis", -1), ndim, op_name)


def _hard_label(xp: Any, label: Any, like: Any, axis: int, op_name: str) -> Any:
    """The label with the class axis present (length 1), checked to be integral."""
    if not xp.isdtype(label.dtype, "integral"):
        raise KernelError(op_name, f"hard labels must be integers, got dtype {label.dtype}; "
                                   "set soft_label=true for probability labels")
    if label.ndim == like.ndim - 1:
        label = xp.expand_dims(label, axis=axis)
    if label.ndim != like.ndim or int(label.shape[axis]) != 1:
        raise KernelError(op_name, f"hard label shape {tuple(label.shape)} does not match logits "
                                   f"{tuple(like.shape)} with length 1 on axis {axis}")
    return label


def _one_hot(xp: Any, label: Any, like: Any, axis: int) -> Any:
    classes = int(like.shape[axis])
    shape = [1] * like.ndim
    shape[axis] = classes
    ids = xp.reshape(xp.arange(classes, dtype=label.dtype, device=array_device(label)), tuple(shape))
    return label == ids


def _check_range(xp: Any, label: Any, classes: int, ignore_index: int, op_name: str) -> None:
    valid = (label == ignore_index) | ((label >= 0) & (label < classes))
    if not bool(xp.all(valid)):
        raise KernelError(op_name, f"hard labels must lie in [0, {classes}) or equal ignore_index "
                                   f"{ignore_index}")


@kernel("pd_op.cross_entropy_with_softmax", "pd_op.cross_entropy_with_softmax_")
def cross_entropy_with_softmax(xp: Any, inputs: list, attrs: dict) -> list:
    """``cross_entropy_with_softmax(input, label, soft_label=false, use_softmax=true,
    numeric_stable_mode=true, ignore_index=-100, axis=-1) -> softmax, loss``.

    ``softmax`` has input's shape (the input itself when ``use_softmax=false``: then ``input``
    already holds probabilities); ``loss`` has input's shape with length 1 on ``axis``:
    ``-log p[label]`` (hard; 0 where ``label == ignore_index``) or ``-sum(label * log p)``
    (soft). ``numeric_stable_mode`` is always on.

    Raises:
        KernelError: label dtype/shape mismatch or hard labels out of range.
    """
    logits, label = inputs
    name = "pd_op.cross_entropy_with_softmax"
    axis = _class_axis(attrs, logits.ndim, name)
    wide = xp.astype(logits, compute_dtype(xp, logits), copy=False)
    if attrs.get("use_softmax", True):
        shifted = wide - xp.max(wide, axis=axis, keepdims=True)
        log_p = shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))
        softmax = xp.astype(xp.exp(log_p), logits.dtype, copy=False)
    else:
        log_p = xp.log(wide)
        softmax = logits
    if attrs.get("soft_label", False):
        loss = -xp.sum(xp.astype(label, log_p.dtype, copy=False) * log_p, axis=axis, keepdims=True)
    else:
        ignore_index = attrs.get("ignore_index", -100)
        label = _hard_label(xp, label, logits, axis, name)
        _check_range(xp, label, int(logits.shape[axis]), ignore_index, name)
        picked = xp.sum(xp.where(_one_hot(xp, label, logits, axis), log_p, xp.zeros_like(log_p)),
                        axis=axis, keepdims=True)
        loss = xp.where(label == ignore_index, xp.zeros_like(picked), -picked)
    return [softmax, xp.astype(loss, logits.dtype, copy=False)]


@kernel("pd_op.cross_entropy_with_softmax_grad", "pd_op.cross_entropy_with_softmax_grad_")
def cross_entropy_with_softmax_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``cross_entropy_with_softmax_grad(label, softmax, loss_grad, soft_label, use_softmax,
    numeric_stable_mode, ignore_index, axis) -> input_grad``.

    With ``use_softmax``: ``(softmax - onehot(label)) * loss_grad`` (hard; rows with
    ``ignore_index`` get 0) or ``(softmax - label) * loss_grad`` (soft; Paddle assumes each soft
    label sums to 1). Without: ``-loss_grad / p`` at the label class (hard) or
    ``-label / p * loss_grad`` (soft), ``p`` being the forward input. Shape/dtype of ``softmax``.
    """
    label, softmax, loss_grad = inputs
    name = "pd_op.cross_entropy_with_softmax_grad"
    axis = _class_axis(attrs, softmax.ndim, name)
    wide = xp.astype(softmax, compute_dtype(xp, softmax), copy=False)
    upstream = xp.astype(loss_grad, wide.dtype, copy=False)
    if attrs.get("soft_label", False):
        target = xp.astype(label, wide.dtype, copy=False)
        if attrs.get("use_softmax", True):
            grad = (wide - target) * upstream
        else:
            grad = -target / wide * upstream
    else:
        ignore_index = attrs.get("ignore_index", -100)
        label = _hard_label(xp, label, softmax, axis, name)
        hot = _one_hot(xp, label, softmax, axis)
        zeros = xp.zeros_like(wide)
        if attrs.get("use_softmax", True):
            grad = (wide - xp.astype(hot, wide.dtype, copy=False)) * upstream
        else:
            safe = xp.where(hot, wide, xp.ones_like(wide))  # no division by the other classes
            grad = xp.where(hot, -upstream / safe, zeros)
        grad = xp.where(label == ignore_index, zeros, grad)
    return [xp.astype(grad, softmax.dtype, copy=False)]
