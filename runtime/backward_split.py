"""Which backward ops of a stage's program belong to the B job (input grads) and which to the W job
(weight grads) of the zero-bubble schedules ZBH1 and ZBVPP.

An op of the backward region is W when it is a gradient-merge accumulation (attribute
``grad_merge_add``, the ``add_`` into ``<param>@GRAD@MERGE``) or when it has results and every op
reading them is W; every other backward op (the input-grad chain, the send of the input grad, an
op without results, an op whose result nothing reads) is B. One reverse walk, linear in the
program. After ``rules/split_backward.rw`` this puts each weight-grad matmul, bias-grad sum and the
reshapes feeding them in W, and leaves whole ``matmul_grad`` / ``add_grad`` ops (which compute an
input grad too) in B.

Reimplements (read, not copied) Paddle 3.3.1 ``python/paddle/distributed/passes/pass_utils.py``
``_pir_get_backward_op_type``, which recognises W by the exact op sequence its split leaves
(``full_int_array, reshape, full_int_array, reshape, matmul, full_int_array, reshape, add_``) and by
"every result read by a grad-merge add"; the closure here gives the same split for that sequence
and also covers the 2-D and bias-grad forms of ``rules/split_backward.rw``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulepass.engine.ir.core import Operation

__all__ = ["split_backward_halves"]


def split_backward_halves(ops: Sequence[Operation], types: Sequence[str]) -> list[str]:
    """`types` (one job type per op, as a splitter gives them) with every ``backward{c}`` entry
    made ``backward_b{c}`` or ``backward_w{c}`` (the chunk suffix kept)."""
    out = list(types)
    weight: set[int] = set()  # id() of the W ops found so far (users come after their producers)
    for i in range(len(ops) - 1, -1, -1):
        kind = out[i]
        if not kind.startswith("backward"):
            continue
        op = ops[i]
        chunk = kind[len("backward"):]
        is_weight = bool(op.attributes.get("grad_merge_add")) or (
            bool(op.results) and all(_read_only_by(value.users(), weight) for value in op.results))
        if is_weight:
            weight.add(id(op))
        out[i] = ("backward_w" if is_weight else "backward_b") + chunk
    return out


def _read_only_by(users: list, weight: set[int]) -> bool:
    return bool(users) and all(id(user) in weight for user in users)
