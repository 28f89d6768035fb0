"""Lookups by integer ids and their gradients: embedding, c_embedding (one shard of a
vocabulary-parallel table), index_select (ids along any axis) and their ``_grad`` ops.

The gradient is a scatter-add of ``out_grad`` rows into the vocabulary, which the array API
standard has no primitive for. It is computed as a sorted segment sum: sort the ids, take running
sums of the correspondingly ordered gradient rows (``cumulative_sum``), and difference them at each
vocabulary row's segment bounds (``searchsorted``). That costs O(tokens x width + vocab x width)
memory and time, where a one-hot matmul would cost O(tokens x vocab x width). Running sums are
taken in float64 (when the namespace has it) so the differences lose nothing a float32 result
would keep.

Sources: ``paddle/phi/ops/yaml/inconsistent/static_ops.yaml`` (embedding, c_embedding),
``ops.yaml`` (index_select), ``backward.yaml`` (embedding_grad, c_embedding_grad,
index_select_grad ``(x, index, out_grad) {axis}``); operand orders checked against Paddle 3.3.1's
``pd_op.h`` (c_embedding takes the weight first) and its printed backward programs.
"""

from __future__ import annotations

from typing import Any

from array_api_compat import device as array_device

from .operands import normalize_axis
from .registry import KernelError, kernel

_NO_PADDING = -1


def _flat_ids(xp: Any, x: Any, vocab: int, op_name: str, from_end: bool = False) -> Any:
    """``x`` as flat int64 ids in ``[0, vocab)``; with ``from_end``, ids in ``[-vocab, vocab)``
    where a negative id counts from the end (Paddle's ``IndexSelectInner``). Raises KernelError
    for non-integer ids or ids outside the range."""
    if not xp.isdtype(x.dtype, "integral"):
        raise KernelError(op_name, f"ids must be an integer tensor, got dtype {x.dtype}")
    size = 1
    for n in x.shape:
        size *= int(n)
    ids = xp.reshape(xp.astype(x, xp.int64), (size,))
    low = -vocab if from_end else 0
    if size and (int(xp.min(ids)) < low or int(xp.max(ids)) >= vocab):
        raise KernelError(op_name, f"ids must lie in [{low}, {vocab}), got values in "
                                   f"[{int(xp.min(ids))}, {int(xp.max(ids))}]")
    return xp.where(ids < 0, ids + vocab, ids) if from_end else ids


@kernel("pd_op.embedding")
def embedding(xp: Any, inputs: list, attrs: dict) -> list:
    """``embedding(x, weight, padding_idx=-1, sparse=false) -> out``.

    ``out[..., :] = weight[x[...], :]``: x integer ids of any shape, weight ``[vocab, width]``,
    out ``x.shape + [width]`` in weight's dtype. Rows whose id equals ``padding_idx`` are zero
    (``-1`` means no padding row, as in Paddle's kernel). ``sparse`` only selects Paddle's
    SelectedRows gradient and is ignored.

    Raises:
        KernelError: non-integer ids or ids outside ``[0, vocab)``.
    """
    x, weight = inputs
    ids = _flat_ids(xp, x, int(weight.shape[0]), "pd_op.embedding")
    rows = xp.take(weight, ids, axis=0)
    padding_idx = attrs.get("padding_idx", _NO_PADDING)
    if padding_idx != _NO_PADDING:
        rows = xp.where(xp.reshape(ids == padding_idx, (-1, 1)), xp.zeros_like(rows), rows)
    return [xp.reshape(rows, tuple(x.shape) + (int(weight.shape[1]),))]


def _scatter_rows(xp: Any, ids: Any, rows: Any, vocab: int, skip: Any = None) -> Any:
    """``grad[v] = sum of rows[i] with ids[i] == v`` for v in ``[0, vocab)``, in float64 when
    available; ids outside the range, and positions where ``skip`` is true, contribute nothing."""
    accumulate = getattr(xp, "float64", None) or xp.float32
    rows = xp.astype(rows, accumulate)
    if skip is not None:
        rows = xp.where(xp.reshape(skip, (-1, 1)), xp.zeros_like(rows), rows)
    order = xp.argsort(ids, stable=True)
    sorted_ids = xp.take(ids, order)
    running = xp.cumulative_sum(xp.take(rows, order, axis=0), axis=0, include_initial=True)
    vocabulary = xp.arange(vocab, dtype=ids.dtype, device=array_device(ids))
    first = xp.searchsorted(sorted_ids, vocabulary, side="left")
    past = xp.searchsorted(sorted_ids, vocabulary, side="right")
    return xp.take(running, past, axis=0) - xp.take(running, first, axis=0)


@kernel("pd_op.embedding_grad")
def embedding_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``embedding_grad(x, weight, out_grad, padding_idx=-1, sparse=false) -> weight_grad``.

    ``weight_grad[v] = sum of out_grad[i] over positions i with x[i] == v`` (zero for unused rows
    and for the ``padding_idx`` row); shape and dtype of ``weight``. See the module docstring for
    the method.

    Raises:
        KernelError: non-integer ids or ids outside ``[0, vocab)``.
    """
    x, weight, out_grad = inputs
    vocab, width = int(weight.shape[0]), int(weight.shape[1])
    ids = _flat_ids(xp, x, vocab, "pd_op.embedding_grad")
    rows = xp.reshape(out_grad, (ids.shape[0], width))
    padding_idx = attrs.get("padding_idx", _NO_PADDING)
    skip = ids == padding_idx if padding_idx != _NO_PADDING else None
    return [xp.astype(_scatter_rows(xp, ids, rows, vocab, skip), weight.dtype)]


def _shard_ids(xp: Any, x: Any, attrs: dict, rows: int, op_name: str) -> tuple[Any, Any]:
    """(ids relative to the shard, mask of ids outside it)."""
    if not xp.isdtype(x.dtype, "integral"):
        raise KernelError(op_name, f"ids must be an integer tensor, got dtype {x.dtype}")
    size = 1
    for n in x.shape:
        size *= int(n)
    local = xp.reshape(xp.astype(x, xp.int64), (size,)) - int(attrs.get("start_index", 0))
    outside = (local < 0) | (local >= rows)
    return xp.where(outside, xp.zeros_like(local), local), outside


@kernel("pd_op.c_embedding")
def c_embedding(xp: Any, inputs: list, attrs: dict) -> list:
    """``c_embedding(weight, x, start_index=0, vocab_size=-1) -> out``: lookup in one shard.

    ``weight`` holds rows ``[start_index, start_index + rows)`` of the whole table; ids outside
    that range give zero rows (the other shards supply them; an all-reduce sums the shards).
    ``vocab_size`` (the whole table's) only serves Paddle's checks and is ignored. Note the
    operand order: weight first.

    Raises:
        KernelError: non-integer ids.
    """
    weight, x = inputs
    rows, width = int(weight.shape[0]), int(weight.shape[1])
    local, outside = _shard_ids(xp, x, attrs, rows, "pd_op.c_embedding")
    found = xp.take(weight, local, axis=0)
    found = xp.where(xp.reshape(outside, (-1, 1)), xp.zeros_like(found), found)
    return [xp.reshape(found, tuple(x.shape) + (width,))]


@kernel("pd_op.c_embedding_grad")
def c_embedding_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``c_embedding_grad(weight, x, out_grad, start_index=0) -> weight_grad``: the shard's part
    of the embedding gradient (ids outside the shard contribute nothing)."""
    weight, x, out_grad = inputs
    rows, width = int(weight.shape[0]), int(weight.shape[1])
    local, outside = _shard_ids(xp, x, attrs, rows, "pd_op.c_embedding_grad")
    grad_rows = xp.reshape(out_grad, (local.shape[0], width))
    return [xp.astype(_scatter_rows(xp, local, grad_rows, rows, outside), weight.dtype)]


def _axis_first(xp: Any, x: Any, axis: int) -> Any:
    """``x`` with ``axis`` moved to the front (the others in order)."""
    return xp.permute_dims(x, (axis, *(i for i in range(x.ndim) if i != axis)))


def _axis_back(xp: Any, x: Any, axis: int) -> Any:
    """The inverse of :func:`_axis_first`."""
    order = list(range(1, x.ndim))
    order.insert(axis, 0)
    return xp.permute_dims(x, tuple(order))


def _select_axis(x: Any, attrs: dict, op_name: str) -> int:
    """The axis ``attrs`` names, normalized against x. Raises KernelError for a 0-d x (Paddle
    refuses it too) or an axis out of range."""
    if x.ndim == 0:
        raise KernelError(op_name, "x must have at least one dimension, got a 0-d tensor")
    return normalize_axis(attrs.get("axis", 0), x.ndim, op_name)


@kernel("pd_op.index_select")
def index_select(xp: Any, inputs: list, attrs: dict) -> list:
    """``index_select(x, index, axis=0) -> out``: the entries of ``x`` at ``index`` (an integer
    tensor; negative ids count from the end) along ``axis``; shape of x with that axis's size
    the number of ids.

    Raises:
        KernelError: non-integer ids, ids outside ``[-size, size)``, a 0-d x, or ``axis`` out
        of range.
    """
    x, index = inputs
    axis = _select_axis(x, attrs, "pd_op.index_select")
    ids = _flat_ids(xp, index, int(x.shape[axis]), "pd_op.index_select", from_end=True)
    return [xp.take(x, ids, axis=axis)]


@kernel("pd_op.index_select_grad")
def index_select_grad(xp: Any, inputs: list, attrs: dict) -> list:
    """``index_select_grad(x, index, out_grad, axis=0) -> x_grad``: ``out_grad`` added back at
    ``index`` along ``axis`` (an id taken twice gets both), zero elsewhere; shape and dtype of x.

    Raises:
        KernelError: as :func:`index_select`.
    """
    x, index, out_grad = inputs
    axis = _select_axis(x, attrs, "pd_op.index_select_grad")
    size = int(x.shape[axis])
    ids = _flat_ids(xp, index, size, "pd_op.index_select_grad", from_end=True)
    moved = _axis_first(xp, out_grad, axis)
    rest = tuple(int(n) for n in moved.shape[1:])
    width = 1
    for n in rest:
        width *= n
    rows = xp.reshape(moved, (int(ids.shape[0]), width))
    summed = xp.reshape(_scatter_rows(xp, ids, rows, size), (size, *rest))
    return [xp.astype(_axis_back(xp, summed, axis), x.dtype)]
