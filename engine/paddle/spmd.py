"""Placements of gradients: the standard duals of SPMD rules, used by ``append_backward``.

A forward op ``F`` with an op dist attribute states, per operand and result, the placement it
computes with (Paddle's SPMD rules chose them when the forward program was built; see
``paddle/phi/infermeta/spmd_rules/``). Its grad ops follow from those, by the duality between a
value and its gradient (Megatron-LM's f/g operators; "GSPMD", Xu et al. 2021, §3.4):

- the grad of a result that is ``Partial`` on a mesh dim is ``Replicate`` there (a sum's adjoint
  broadcasts); for ``Partial(AVG)`` it is also divided by the group size (an average's adjoint);
- the grad of an operand keeps its ``Shard`` dims; on a mesh dim where the operand is
  ``Replicate`` but the op computes sharded (some operand or result of ``F`` is ``Shard`` there),
  each rank only sees its shard's contribution, so the grad is ``Partial(SUM)`` there and needs a
  sum — losing that sum is the silent bug of data-parallel and sequence-parallel training;
- grad ops read forward values with the placements ``F`` read or wrote them with.

``rules/grad.rw`` declares each grad result's type with ``grad_type(f, x)``
(``engine/paddle/functions_dist.py``), which applies :func:`grad_of_operand`; an op whose gradient is
placed otherwise names another type there. The partition step then inserts a
``dist_op.reshard`` wherever a value's placement differs from what its reader requires
(``engine/paddle/partition.py``).
"""

from __future__ import annotations

import math

from rulepass.engine.ir.types import TensorDistAttr


def _is_attr(x) -> bool:
    return isinstance(x, TensorDistAttr) and not x.is_null


def dual_of_result(attr: TensorDistAttr) -> TensorDistAttr:
    """The placement of the grad of a result placed ``attr``: partial dims become replicated."""
    if not _is_attr(attr) or not attr.partial:
        return attr
    return TensorDistAttr(attr.mesh, attr.dims_mapping, (), attr.show_placements)


def average_factor(attr: TensorDistAttr) -> int:
    """The product of the group sizes of ``attr``'s ``Partial(AVG)`` mesh dims (1 when none):
    the grad of an averaged value is divided by it."""
    if not _is_attr(attr):
        return 1
    return math.prod(attr.mesh.shape[m] for m, reduce in attr.partial if reduce == "AVG")


def sharded_mesh_dims(op_dist) -> set[int]:
    """Mesh dims on which the op computes on shards: some operand or result is ``Shard`` there."""
    dims: set[int] = set()
    for entry in list(op_dist.operands) + list(op_dist.results):
        items = entry if isinstance(entry, tuple) else (entry,)
        for item in items:
            if _is_attr(item):
                dims.update(m for m in item.dims_mapping if m >= 0)
    return dims


def grad_of_operand(op_dist, index: int) -> TensorDistAttr | None:
    """The placement of the grad of operand ``index`` of an op with dist attribute ``op_dist``,
    or ``None`` when the operand's entry is not a tensor dist attribute."""
    if index >= len(op_dist.operands):
        return None
    return grad_of_entry(op_dist, op_dist.operands[index])


def grad_of_entry(op_dist, base) -> TensorDistAttr | None:
    """The placement of the grad of an operand the op reads placed ``base`` (see
    :func:`grad_of_operand`), or ``None`` when ``base`` is not a tensor dist attribute."""
    if not _is_attr(base):
        return None
    used = {m for m in base.dims_mapping if m >= 0}
    partial = [(m, "SUM") for m in sorted(sharded_mesh_dims(op_dist) - used)
               if m < base.mesh.ndim]
    return TensorDistAttr(base.mesh, base.dims_mapping, tuple(partial), base.show_placements)


def placements_text(attr: TensorDistAttr) -> str:
    """``[Shard(dim=0), Partial(reduce_type=SUM)]`` for messages."""
    return "[" + ", ".join(str(p) for p in attr.placements) + "]"

