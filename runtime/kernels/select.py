"""Comparison, masking and scan kernels: greater_than and the other comparisons, masked_select
(and its gradient), where (and its gradient), triu / tril, cumsum.

The seed test's LLaMA (Paddle's ``single_llama_model.py``) builds its causal mask with
``full_like`` + ``triu`` and its loss with ``masked_select(loss, loss > 0)``; position ids come
from ``cumsum``. ``masked_select``'s result has a data-dependent length (``tensor<-1xf32>``).

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (greater_than, less_than, equal, ..., masked_select,
triu, tril, cumsum) and ``backward.yaml`` (masked_select_grad ``(x, mask, out_grad) ->
x_grad``); numerics as Paddle 3.3.1's CPU kernels (masked_select broadcasts x and mask first and
takes the selected elements in row-major order).
"""

from __future__ import annotations

from typing import Any

from .operands import int_value, normalize_axis, sum_to_shape
from .registry import kernel


def _compare(name: str, fn):
    @kernel(f"pd_op.{name}")
    def compare(xp: Any, inputs: list, attrs: dict) -> list:
        x, y = inputs
        return [fn(x, y)]

    compare.__doc__ = (f"``{name}(x, y) -> out`` (bool), broadcasting.")
    compare.__name__ = name
    return compare


for _name, _fn in (("greater_than", lambda x, y: x > y), ("greater_equal", lambda x, y: x >= y),
                   ("less_than", lambda x, y: x < y), ("less_equal", lambda x, y: x <= y),
                   ("equal", lambda x, y: x == y), ("not_equal", lambda x, y: x != y)):
    _compare(_name, _fn)


@kernel("pd_op.masked_select")
def masked_select(xp: Any, inputs: list, attrs: dict) -> list:
    """``masked_select(x, mask) -> out``: the elements of ``x`` where ``mask`` (bool) is true,
    1-D, in row-major order; ``x`` and ``mask`` broadcast to one shape first. The length is the
    count of true entries, read on the host (no boolean indexing: a stable sort brings the
    selected positions first, in order)."""
    x, mask = xp.broadcast_arrays(*inputs)
    flat_x, flat_mask = xp.reshape(x, (-1,)), xp.reshape(mask, (-1,))
    count = int(xp.sum(xp.astype(flat_mask, xp.int64)))
    order = xp.argsort(xp.astype(xp.logical_not(flat_mask), xp.int8), stable=True)
    return [xp.take(flat_x, order[:count])]


@kernel("pd_op.masked_select_grad")
def masked_select_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``masked_select_grad(x, mask, out_grad) -> x_grad``: ``out_grad`` scattered back to the
    selected positions (the k-th true entry of the mask, row-major, takes ``out_grad[k]``), zero
    elsewhere; shape and dtype of ``x``."""
    x, mask, out_grad = inputs
    flat_mask = xp.reshape(xp.broadcast_to(mask, x.shape), (-1,))
    position = xp.cumulative_sum(xp.astype(flat_mask, xp.int64)) - 1
    if out_grad.shape[0] == 0:
        return [xp.zeros(x.shape, dtype=out_grad.dtype)]
    picked = xp.take(out_grad, xp.clip(position, 0, out_grad.shape[0] - 1))
    flat = xp.where(flat_mask, picked, xp.zeros_like(picked))
    return [xp.reshape(flat, x.shape)]


@kernel("pd_op.triu")
def triu(xp: Any, inputs: list, attrs: dict) -> list:
    """``triu(x) {diagonal} -> out``: the upper triangle of the last two axes (elements with
    column - row >= diagonal), zero below."""
    (x,) = inputs
    diagonal = int_value(attrs.get("diagonal", 0), "pd_op.triu", "diagonal")
    rows, cols = x.shape[-2], x.shape[-1]
    keep = (xp.arange(cols)[None, :] - xp.arange(rows)[:, None]) >= diagonal
    return [xp.where(keep, x, xp.zeros_like(x))]


@kernel("pd_op.tril")
def tril(xp: Any, inputs: list, attrs: dict) -> list:
    """``tril(x) {diagonal} -> out``: the lower triangle of the last two axes (column - row <=
    diagonal), zero above."""
    (x,) = inputs
    diagonal = int_value(attrs.get("diagonal", 0), "pd_op.tril", "diagonal")
    rows, cols = x.shape[-2], x.shape[-1]
    keep = (xp.arange(cols)[None, :] - xp.arange(rows)[:, None]) <= diagonal
    return [xp.where(keep, x, xp.zeros_like(x))]


@kernel("pd_op.cumsum")
def cumsum(xp: Any, inputs: list, attrs: dict) -> list:
    """``cumsum(x, axis) {flatten, exclusive, reverse} -> out``: running sums along ``axis``
    (of the flattened ``x`` with ``flatten``); ``exclusive`` starts each sum at zero,
    ``reverse`` runs from the end. Same dtype as ``x``."""
    x, axis = inputs
    if attrs.get("flatten"):
        x, axis = xp.reshape(x, (-1,)), 0
    else:
        axis = normalize_axis(int_value(axis, "pd_op.cumsum", "axis"), x.ndim, "pd_op.cumsum")
    if attrs.get("reverse"):
        x = xp.flip(x, axis=axis)
    out = xp.cumulative_sum(x, axis=axis, dtype=x.dtype)
    if attrs.get("exclusive"):
        out = out - x
    if attrs.get("reverse"):
        out = xp.flip(out, axis=axis)
    return [out]


@kernel("pd_op.where", "pd_op.where_")
def where(xp: Any, inputs: list, attrs: dict) -> list:
    """``where(condition, x, y) -> out``: x where ``condition`` (bool) holds, else y
    (broadcasting)."""
    condition, x, y = inputs
    return [xp.where(condition, x, y)]


@kernel("pd_op.where_grad")
def where_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``where_grad(condition, x, y, out_grad) -> x_grad, y_grad``: ``out_grad`` where the
    condition holds goes to x, elsewhere to y (each summed back to its operand's shape)."""
    condition, x, y, out_grad = inputs
    zero = xp.zeros_like(out_grad)
    return [sum_to_shape(xp, xp.where(condition, out_grad, zero), x.shape),
            sum_to_shape(xp, xp.where(condition, zero, out_grad), y.shape)]
