"""complete_chunk_id on a global pipeline mesh: what becomes of each reshard from the global mesh
to a stage mesh (``dist.parallelize``'s ``global_spec``, PR #69628) when VPP re-places the layers.

Paddle 3.3.1 (``pir_pass.complete_chunk_id``) never decides this in one place; it falls out of
five steps, which :func:`global_reshard_plan` follows on the program as the pass finds it:

1. ``fold_reshard_pass``: reshards of one value to one type fold into the first (a *group*);
2. step 4 (``_set_process_mesh_and_chunk_id``): each layer op that moves its inputs, in program
   order, moves the group's result onto its new stage mesh when the result sits on the op's old
   mesh (so the last such reader wins) and rebuilds its placements (the extra ``Replicate()`` of a
   1-D stage mesh go); the group's *final* type is what is left;
3. step 5: the reshard's dist attribute gets that mesh (``GlobalToSubMeshFunction`` branch);
4. step 6 (``apply_partition_pass`` / ``reshard_single_value``): a reader whose operand entry
   (after its move) is not the final type gets a new reshard right before it: of the global value
   when the meshes have as many dimensions (the reshard chain folds), else of the group's reshard
   (a stage-to-stage reshard: Paddle skips the fold for a global mesh of more dimensions); a
   group's reshard that no reader reads any more is erased;
5. ``fold_reshard_pass`` again: reshards of one value to one type fold into the first.

The rules (``rules/complete_chunk_id.rw``, ``global_*``) carry the plan out at each reshard in
program order, looking for the earlier reshard a fold would keep in the program as it then is.
The readers of one reshard must want one type (true of ``dist.parallelize``'s pre-hooks, one
reshard per layer call); otherwise the rules stop with a message.
"""

from __future__ import annotations

import weakref

import attrs

from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.ir.types import DistTensorType, OperationDistAttr, TensorDistAttr
from rulepass.engine.rewrite.functions import function
from .functions import current_layout
from .functions_global import mesh_slice_dim


@attrs.frozen
class GlobalReshard:
    """The plan for one global -> stage reshard: its group's ``final`` type, the type its
    readers ``want``, ``cross`` (the stage mesh has fewer dimensions: new reshards start from the
    group's reshard, not the global value), ``keep`` (some reshard of the group has readers that
    want the final type), ``dist`` (the dist attribute of a reshard of the final type), and
    ``error`` (readers wanting different types; "" when none)."""

    final: DistTensorType
    want: DistTensorType
    cross: bool
    keep: bool
    dist: OperationDistAttr
    error: str = ""


def _is_global_reshard(op: Operation) -> bool:
    if op.name != "dist_op.reshard" or not op.results or op.operand(0) is None:
        return False
    src, dst = op.operand(0).type, op.results[0].type
    return (isinstance(src, DistTensorType) and isinstance(dst, DistTensorType)
            and mesh_slice_dim(src.mesh, dst.mesh) >= 0)


def _wanted(layout, reader: Operation, index: int, value) -> DistTensorType | None:
    """The type operand ``index`` of ``reader`` has once the reader is placed (its entry moved
    with it), or None without an entry."""
    d = reader.dist_attr
    if d is None or index >= len(d.operands) or not isinstance(d.operands[index], TensorDistAttr):
        return None
    entry = d.operands[index]
    if entry.mesh is None:
        return None
    place = layout.placement(reader)
    if place is not None and place.moves and entry.mesh == d.mesh:
        entry = attrs.evolve(entry, mesh=place.mesh)
    return DistTensorType(value.type.shape, value.type.dtype, entry.normalized())


def global_reshard_plan(program: Program, layout) -> dict:
    """Reshard op -> :class:`GlobalReshard` for every global -> stage reshard of the top block."""
    ops = program.block.ops
    groups: dict = {}
    for op in ops:
        if _is_global_reshard(op):
            groups.setdefault((id(op.operand(0)), op.results[0].type), []).append(op)
    plan: dict = {}
    for members in groups.values():
        first = members[0]
        # step 4: the readers that move their inputs, in program order
        readers = sorted({id(u): u for r in members for u in r.results[0].users()}.values(),
                         key=lambda u: u.position_key())
        current = first.results[0].type
        for u in readers:
            place = layout.placement(u)
            if (u.name != "dist_op.reshard" and place is not None and place.moves
                    and u.dist_attr is not None and current.mesh == u.dist_attr.mesh):
                current = attrs.evolve(current, dist=attrs.evolve(current.dist.normalized(),
                                                                  mesh=place.mesh))
        final = current
        d = first.dist_attr
        dist = OperationDistAttr(d.mesh, d.operands, (final.dist.normalized(),), d.chunk_id)
        cross = first.operand(0).type.mesh.ndim != final.mesh.ndim
        wants = {}
        for r in members:
            value = r.results[0]
            found = set()
            for use in value.uses:
                if use.op.name == "dist_op.reshard":
                    continue
                want = _wanted(layout, use.op, use.index, value)
                if want is not None:
                    found.add(want)
            wants[r] = found
        keep = any(final in found or not found for found in wants.values())
        for r, found in wants.items():
            error = ""
            if len(found) > 1:
                error = (f"complete_chunk_id: the readers of one reshard from the global mesh "
                         f"{list(first.operand(0).type.mesh.process_ids)} need it on different "
                         "stage meshes; resharding one reader's use needs a per-use replace the "
                         "rule language does not have yet")
            want = next(iter(found)) if len(found) == 1 else final
            plan[r] = GlobalReshard(final, want, cross, keep, dist, error)
    return plan


#: program -> (the layout the plan was made for, the plan)
_PLANS: "weakref.WeakKeyDictionary[Program, tuple]" = weakref.WeakKeyDictionary()


def _plan_of(program: Program, op: Operation) -> GlobalReshard | None:
    layout = current_layout(program)
    if layout is None:
        return None
    kept = _PLANS.get(program)
    if kept is None or kept[0] is not layout:
        kept = _PLANS[program] = (layout, global_reshard_plan(program, layout))
        _FIRST.pop(program, None)  # a new pass: what earlier_reshard remembered is stale
    return kept[1].get(op)


@function("gm_reshard", live=True)
def gm_reshard(program: Program, op: Operation) -> bool:
    """Rule function `gm_reshard(r)`: whether `r` is a global -> stage reshard of the program as
    complete_chunk_id found it (the plan is made at the first call after `vpp_start`)."""
    return _plan_of(program, op) is not None


def _field(program, op, name):
    plan = _plan_of(program, op)
    return getattr(plan, name) if plan is not None else None


@function("gm_final", live=True)
def gm_final(program: Program, op: Operation):
    """Rule function `gm_final(r)`: the final type of `r`'s group (absent when not planned)."""
    return _field(program, op, "final")


@function("gm_want", live=True)
def gm_want(program: Program, op: Operation):
    """Rule function `gm_want(r)`: the type `r`'s readers need (absent when not planned)."""
    return _field(program, op, "want")


@function("gm_cross", live=True)
def gm_cross(program: Program, op: Operation):
    """Rule function `gm_cross(r)`: whether new reshards start from the group's reshard."""
    return _field(program, op, "cross")


@function("gm_keep", live=True)
def gm_keep(program: Program, op: Operation):
    """Rule function `gm_keep(r)`: whether a reshard of the final type stays for the group."""
    return _field(program, op, "keep")


@function("gm_dist", live=True)
def gm_dist(program: Program, op: Operation):
    """Rule function `gm_dist(r)`: the dist attribute of the group's reshard of the final type."""
    return _field(program, op, "dist")


@function("gm_error", live=True)
def gm_error(program: Program, op: Operation):
    """Rule function `gm_error(r)`: why `r` cannot be planned, "" when it can."""
    return _field(program, op, "error") or ""


#: (program, id of the value, type) -> the first reshard of that value to that type found so far:
#: the rules ask once per reshard of a global value, and scanning its readers each time would cost
#: O(readers²) over a pass (a global value is read by every layer).
_FIRST: "weakref.WeakKeyDictionary[Program, dict]" = weakref.WeakKeyDictionary()


def _reshards_to(value, t, op: Operation) -> Operation | None:
    for u in value.users():  # in program order
        if not u.is_before(op):
            return None
        if u.name == "dist_op.reshard" and u.results and u.results[0].type == t:
            return u
    return None


@function("earlier_reshard", live=True)
def earlier_reshard(program: Program, value, op: Operation, t) -> list:
    """Rule function `earlier_reshard(x, r, type)`: ``[e]`` for the first `dist_op.reshard` of
    value `x` to `type` that comes before `r`, else ``[]`` (the reshard Paddle's
    ``fold_reshard_pass`` keeps). A reshard found is remembered while it stays in the program,
    reads `x` and has that type (a sweep creates new ones only after it)."""
    if not hasattr(value, "users"):
        value = value.results[0]
    memo = _FIRST.setdefault(program, {})
    key = (id(value), t)
    kept = memo.get(key)
    if kept is not None:
        e, v = kept
        if (v is value and e.block is not None and e.operand(0) is value and e is not op
                and e.results[0].type == t and e.is_before(op)):
            return [e]
    found = _reshards_to(value, t, op)
    if found is None:
        return []
    memo[key] = (found, value)
    return [found]


__all__ = ["GlobalReshard", "global_reshard_plan", "gm_reshard", "gm_final", "gm_want",
           "gm_cross", "gm_keep", "gm_dist", "gm_error", "earlier_reshard"]
