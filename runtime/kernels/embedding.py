"""Embedding lookup and its gradient: embedding and embedding_grad.

The gradient is a scatter-add of ``out_grad`` rows into the vocabulary, which the array API
standard has no primitive for. It is computed as a sorted segment sum: sort the ids, take running
sums of the correspondingly ordered gradient rows (``cumulative_sum``), and difference them at each
vocabulary row's segment bounds (``searchsorted``). That costs O(tokens x width + vocab x width)
memory and time, where a one-hot matmul would cost O(tokens x vocab x width). Running sums are
taken in float64 (when the namespace has it) so the differences lose nothing a float32 result
would keep.

Sources: ``paddle/phi/ops/yaml/inconsistent/static_ops.yaml`` (embedding), ``backward.yaml``
(embedding_grad); operand orders checked against Paddle 3.3.1's ``pd_op.h``.
"""

from __future__ import annotations

from typing import Any

from array_api_compat import device as array_device

from .registry import KernelError, kernel

_NO_PADDING = -1


def _flat_ids(xp: Any, x: Any, vocab: int, op_name: str) -> Any:
    if not xp.isdtype(x.dtype, "integral"):
        raise KernelError(op_name, f"ids must be an integer tensor, got dtype {x.dtype}")
    size = 1
    for n in x.shape:
        size *= int(n)
    ids = xp.reshape(xp.astype(x, xp.int64), (size,))
    if size and (int(xp.min(ids)) < 0 or int(xp.max(ids)) >= vocab):
        raise KernelError(op_name, f"ids must lie in [0, {vocab}), got values in "
                                   f"[{int(xp.min(ids))}, {int(xp.max(ids))}]")
    return ids


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
    accumulate = getattr(xp, "float64", None) or xp.float32

    order = xp.argsort(ids, stable=True)
    sorted_ids = xp.take(ids, order)
    running = xp.cumulative_sum(xp.astype(xp.take(rows, order, axis=0), accumulate), axis=0,
                                include_initial=True)
    vocabulary = xp.arange(vocab, dtype=xp.int64, device=array_device(ids))
    first = xp.searchsorted(sorted_ids, vocabulary, side="left")
    past = xp.searchsorted(sorted_ids, vocabulary, side="left")
    grad = xp.take(running, past, axis=0) - xp.take(running, first, axis=0)

    padding_idx = attrs.get("padding_idx", _NO_PADDING)
    if padding_idx != _NO_PADDING:
        grad = xp.where(xp.reshape(vocabulary == padding_idx, (-1, 1)), xp.zeros_like(grad), grad)
    return [xp.astype(grad, weight.dtype)]
