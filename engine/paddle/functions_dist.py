"""Functions for rules that build distributed ops (registered with
:func:`rulepass.engine.rewrite.functions.function`):

- ``op_dist(mesh, operands, results[, chunk_id])`` — an op dist attribute whose entries are those
  Paddle writes for the given values or types (:func:`entry_of`);
- ``stage_peer(from_mesh, to_mesh, rank)`` — the rank of ``to_mesh`` at ``rank``'s position in
  ``from_mesh`` (pipeline stages hold equal meshes: rank i of one stage talks to rank i of the next);
- ``p2p_ring(src, dst)`` — the ring id of the process group ``[src, dst]``, created in the program's
  table when missing (live: it changes the program, journaled);
- ``dynamic_shape(t)`` — ``t`` dense with every dim dynamic (the single-device form of a local
  region's values).

``op_dist``, ``stage_peer``, ``placed_as`` and ``dynamic_shape`` read their arguments only (the
values' types as they stand), never the program: they are registered live, so a pass calling them
needs no copy of the program as it found it.
"""

from __future__ import annotations

from rulepass.engine.rewrite.exprs import ABSENT
from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.rewrite.functions import function
from rulepass.engine.ir.types import (
    NULL_DIST,
    DenseTensorType,
    DistTensorType,
    NullType,
    OperationDistAttr,
    ProcessMesh,
    TensorDistAttr,
    VectorType,
)


def entry_of(x):
    """The op-dist-attr entry Paddle writes for a value or type: a dist type's attribute, the
    null attribute for a missing value, ``<#AttrNull>`` (None) for a dense tensor, a tuple for
    a vector."""
    if isinstance(x, Operation) and len(x.results) == 1:  # an op means its only result
        x = x.results[0]
    if isinstance(x, Value):
        x = x.type
    if x is None or x is ABSENT or isinstance(x, NullType):
        return NULL_DIST
    if isinstance(x, DistTensorType):
        return x.dist
    if isinstance(x, VectorType):
        return tuple(entry_of(i) if not isinstance(i, DenseTensorType) else NULL_DIST
                     for i in x.items)
    return None


@function("op_dist", live=True)
def op_dist(program, mesh, operands, results, chunk_id=-1):
    """``OperationDistAttr(mesh, [entry of each operand], [entry of each result], chunk_id)``;
    operands and results are values or types (see :func:`entry_of`). Raises ``TypeError`` when
    ``mesh`` is not a process mesh."""
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"op_dist() needs a process mesh first, got {mesh!r}")
    return OperationDistAttr(mesh, [entry_of(x) for x in operands],
                             [entry_of(x) for x in results], int(chunk_id))


@function("stage_peer", live=True)
def stage_peer(program, from_mesh, to_mesh, rank):
    """The rank of ``to_mesh`` in the position ``rank`` holds in ``from_mesh``.

    Raises ``ValueError`` when the meshes differ in size or ``rank`` is not in ``from_mesh``."""
    if len(from_mesh.process_ids) != len(to_mesh.process_ids):
        raise ValueError(f"stage meshes differ in size: {list(from_mesh.process_ids)} and "
                         f"{list(to_mesh.process_ids)}")
    if rank not in from_mesh.process_ids:
        raise ValueError(f"rank {rank} is not in mesh {list(from_mesh.process_ids)}")
    return to_mesh.process_ids[from_mesh.process_ids.index(rank)]


@function("p2p_ring", live=True)
def p2p_ring(program, src, dst):
    """Ring id of the group ``[src, dst]`` (created when missing): Paddle's p2p groups hold the
    sender first, so a send's peer is 1 and a receive's peer is 0."""
    return program.add_process_group([int(src), int(dst)])


@function("used_chunk", live=True)
def used_chunk(program, value):
    """The chunk of the first op downstream of ``value`` whose dist attribute has one (depth
    first through results, each op once), or -1. Paddle 3.3.1 ``pass_utils.find_var_used_op_
    chunk_id``, used to give a pipeline ``recv_v2`` its chunk."""
    if not isinstance(value, Value):
        value = value.results[0]
    seen: set = set()
    stack = [value]
    while stack:
        v = stack.pop()
        for op in v.users():
            if id(op) in seen:
                continue
            seen.add(id(op))
            if op.dist_attr is not None and op.dist_attr.chunk_id != -1:
                return op.dist_attr.chunk_id
            stack.extend(reversed(op.results))
    return -1


@function("send_chunk", live=True)
def send_chunk(program, value) -> int:
    """The chunk of a pipeline ``send_v2`` of ``value``: the chunk of the op that made it; for a
    sum of grads (``pd_op.add_n`` of a ``builtin.combine``) the chunk of the ops that made the
    summed values, which must agree (the add_n itself may sit in the chunk of the forward value it
    is the grad of, the send belongs to its readers' chunk). -1 without one.
    Raises ``ValueError`` when the summed values come from different chunks.
    Source: Paddle 3.3.1 ``reshard_funcs/same_status_reshard_func.py`` (``SameStatusReshardFunction
    .reshard``, the ``add_n`` branch)."""
    if not isinstance(value, Value):
        value = value.results[0]
    owner = value.owner
    if owner is None:
        return -1
    if owner.name == "pd_op.add_n" and owner.operands and owner.operands[0] is not None \
            and owner.operands[0].owner is not None \
            and owner.operands[0].owner.name == "builtin.combine":
        chunks = [v.owner.dist_attr.chunk_id
                  if v is not None and v.owner is not None and v.owner.dist_attr is not None
                  else -1 for v in owner.operands[0].owner.operands]
        if len(set(chunks)) > 1:
            raise ValueError(f"the grads summed by {owner.name} before a pipeline send come from "
                             f"different chunks {chunks}")
        return chunks[0] if chunks else -1
    return owner.dist_attr.chunk_id if owner.dist_attr is not None else -1


@function("with_chunk", live=True)
def with_chunk(program, dist_attr, chunk_id) -> OperationDistAttr:
    """Op dist attribute ``dist_attr`` with its chunk id set to ``chunk_id``."""
    if not isinstance(dist_attr, OperationDistAttr):
        raise TypeError(f"with_chunk() needs an op dist attribute, got {dist_attr!r}")
    return OperationDistAttr(dist_attr.mesh, dist_attr.operands, dist_attr.results,
                             int(chunk_id))


@function("placed_as", live=True)
def placed_as(program, t, dist_attr):
    """Dist type ``t`` on its own mesh with the dims_mapping and partial dims of ``dist_attr``
    (e.g. a ``dtensor_to_local``'s ``grad_dist_attr``, whose mesh may be stale after
    ``complete_chunk_id`` moved the op); ``t`` itself when ``dist_attr`` is absent or null, or
    lays out another number of mesh dimensions. Raises ``TypeError`` for a dense ``t``."""
    if dist_attr is None or dist_attr is ABSENT or getattr(dist_attr, "is_null", True):
        return t
    if not isinstance(t, DistTensorType):
        raise TypeError(f"placed_as() needs a dist tensor type, got {t!r}")
    if dist_attr.mesh.ndim != t.mesh.ndim or len(dist_attr.dims_mapping) != len(t.shape):
        return t
    return DistTensorType(t.shape, t.dtype, TensorDistAttr(t.mesh, dist_attr.dims_mapping,
                                                           dist_attr.partial))


@function("grad_type", live=True)
def grad_type(program, op, operand):
    """The type of the grad of ``operand`` (a forward value) of forward op ``op``: its shape and
    dtype, placed by the SPMD duals of :mod:`rulepass.engine.paddle.spmd` from what ``op`` computes with
    (Partial(SUM) on mesh dims where the op runs on shards but the operand is replicated; its own
    Shard dims kept); a vector operand (a ``builtin.combine``'s) item by item. A dense operand, or
    an op without a dist attribute, keeps its type; an absent operand gives absent. ``rules/grad.rw`` declares every grad result with it."""
    import rulepass.engine.paddle.spmd as spmd

    if operand is None or operand is ABSENT:
        return ABSENT
    if isinstance(operand, Operation):
        operand = operand.results[0]
    t = operand.type
    dist = op.dist_attr
    if dist is None:
        return t
    index = next((i for i, v in enumerate(op.operands) if v is operand), None)
    # memoised by identity (types and dist attributes are shared, immutable objects; the key's
    # objects are kept with the answer, so their ids stay theirs)
    key = (id(t), id(dist), index)
    found = _GRAD_TYPES.get(key)
    if found is not None and found[0] is t and found[1] is dist:
        return found[2]
    entry = dist.operands[index] if index is not None and index < len(dist.operands) else None
    if isinstance(t, VectorType) and isinstance(entry, tuple) and len(entry) == len(t.items):
        # a vector operand (builtin.combine): each item's grad placed as a tensor operand's
        result = VectorType(tuple(_placed(item, spmd.grad_of_entry(dist, base))
                                  for item, base in zip(t.items, entry)))
    else:
        result = _placed(t, spmd.grad_of_entry(dist, entry) if entry is not None else None)
    if len(_GRAD_TYPES) > 100_000:
        _GRAD_TYPES.clear()
    _GRAD_TYPES[key] = (t, dist, result)
    return result


def _placed(t, placed):
    """Dist type ``t`` with dist attribute ``placed`` (``t`` when it is not a dist type, or
    ``placed`` is None or on another mesh)."""
    if not isinstance(t, DistTensorType) or placed is None or placed.mesh != t.mesh:
        return t
    return DistTensorType(t.shape, t.dtype, placed)


#: (id(type), id(op dist attribute), operand index) -> (type, dist attribute, grad type)
_GRAD_TYPES: dict = {}


@function("dynamic_shape", live=True)
def dynamic_shape(program, t):
    """``t`` (a type, or a value's) with every dim dynamic (-1): a dense tensor of the same dtype
    and rank, vectors item by item, other types unchanged. ``rules/dist_to_global.rw`` gives it to
    the values of a local region, whose ops then run on the global tensors (their static shapes
    are the local pieces' only)."""
    if isinstance(t, Operation) and len(t.results) == 1:
        t = t.results[0]
    if isinstance(t, Value):
        t = t.type
    if isinstance(t, (DenseTensorType, DistTensorType)):
        return DenseTensorType(tuple(-1 for _ in t.shape), t.dtype)
    if isinstance(t, VectorType):
        return VectorType(tuple(dynamic_shape(program, i) for i in t.items))
    return t


@function("dist_program")
def dist_program(program: Program) -> bool:
    """Rule function `dist_program()`: whether the program, as the pass found it, has an op with a
    dist attribute or a value of dist type. dist_to_dense rewrites chunk ids of ops without a dist
    attribute only then, so a dense program passes through unchanged (the C++ pass would reset
    every chunk_id to -1 on a second run)."""
    from rulepass.engine.ir.types import is_dist

    for op in program.walk():
        if op.dist_attr is not None or any(is_dist(r.type) for r in op.results):
            return True
    return any(is_dist(v.type) for v in program.kwargs)


def local_region_ops(program: Program) -> set:
    """The ids of the ops lying strictly between a `dist_op.dtensor_to_local` and the first
    `dist_op.dtensor_from_local` after it in the same block: one walk over the program."""
    inner: set = set()
    blocks = [program.block]
    while blocks:
        block = blocks.pop()
        opened = None
        for o in block:
            blocks.extend(o.regions)
            if o.name == "dist_op.dtensor_to_local":
                opened = []
            elif o.name == "dist_op.dtensor_from_local":
                if opened is not None:
                    inner.update(id(x) for x in opened)
                opened = None
            elif opened is not None:
                opened.append(o)
    return inner


@function("inside_local_region", prepare=local_region_ops)
def inside_local_region(inner: set, op: Operation) -> bool:
    """Rule function `inside_local_region(op)`: whether `op` lies strictly between a
    `dist_op.dtensor_to_local` and the first `dist_op.dtensor_from_local` after it in its block, in
    the program as the pass found it. The same question as the built-in `in_region`, answered from
    one walk over the program per pass (`local_region_ops`, the table this function reads) instead
    of a walk from each op (which costs O(n) per op)."""
    return id(op) in inner
