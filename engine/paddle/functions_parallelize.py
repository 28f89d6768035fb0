"""Functions ``rules/parallelize.rw`` calls to place a serial program's ops (registered with
:func:`rulepass.engine.rewrite.functions.function`).

They read the plan resolved for the program (:data:`rulepass.engine.paddle.parallelize.RESOLVED`,
set by :func:`~rulepass.engine.paddle.parallelize.resolve`) and the types the sweep has given the
ops before; all are live (the sweep retypes as it goes). Absent is returned for a program that has
no resolved plan, so the rules match nothing there.

- ``planned(o)`` — whether the op's program is being parallelized;
- ``planned_type(v)`` — a parameter's or input's dist type: its stage mesh, the plan's placement;
- ``spmd_dist(o)`` — the op dist attribute the op's SPMD rule (:mod:`spmd_rules`) gives from its
  operands' current types, on their mesh (an op without dist operands: its stage's mesh);
- ``spmd_type(o, r)`` — result ``r``'s dist type from ``o``'s dist attribute (a vector result:
  its items');
- ``vector_type(o, r)`` — a ``builtin.combine`` / ``builtin.split`` result's type, from its
  operands (they carry no dist attribute);
- ``reshard_type(r)``, ``reshard_mesh(r)`` — a hook reshard's result type and op mesh;
- ``dist_name(name)`` — Paddle's name of a sharded parameter (``linear_0.w_0.dist``).
"""

from __future__ import annotations

import sys

from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.ir.types import (
    NULL_DIST,
    DistTensorType,
    OperationDistAttr,
    ProcessMesh,
    TensorDistAttr,
    VectorType,
)
from rulepass.engine.rewrite.functions import function
from rulepass.engine.rewrite.values import ABSENT


def _resolved(program):
    """``program``'s resolved plan (``parallelize.RESOLVED``), or None. Only
    :func:`~rulepass.engine.paddle.parallelize.resolve` fills that table, so while its module is
    not imported no program has a plan: a ``rulepass rewrite`` of another pass then does not
    import the planner, the SPMD rules and tomllib (about 30 ms a process)."""
    module = sys.modules.get("rulepass.engine.paddle.parallelize")
    return None if module is None else module.RESOLVED.get(program)


def _value(x) -> Value:
    return x.results[0] if isinstance(x, Operation) else x


@function("planned", live=True)
def planned(program, op):
    """True when ``op``'s program has a resolved plan (``rulepass parallelize`` is running)."""
    return _resolved(program) is not None


@function("dist_name", live=True)
def dist_name(program, name):
    """``name + ".dist"``: ``dist.shard_tensor`` renames every parameter it places."""
    return f"{name}.dist"


@function("planned_type", live=True)
def planned_type(program, x):
    """The dist type of a ``builtin.parameter`` or ``pd_op.data`` result under the plan."""
    res = _resolved(program)
    if res is None:
        return ABSENT
    v = _value(x)
    op = v.owner
    mesh = res.mesh_of_stage(res.stage_of(op))
    rank = len(v.type.shape)
    if op.name == "builtin.parameter":
        dims = res.param_dims.get(id(op), (-1,) * rank)
    else:
        dims = [-1] * rank
        # the batch split along dp (a loader's shard_dims="dp"); a dp degree of 1 splits nothing
        names = list(mesh.dim_names or ())
        if res.plan.sharding_level is not None and "dp" in names and rank \
                and mesh.shape[names.index("dp")] > 1:
            dims[0] = names.index("dp")
    return DistTensorType(v.type.shape, v.type.dtype, TensorDistAttr(mesh, tuple(dims)))


def _attr(v):
    """The value's TensorDistAttr; for a vector of dist tensors a tuple of them; else None."""
    if v is None:
        return None
    if isinstance(v.type, VectorType):
        if v.type.items and all(isinstance(t, DistTensorType) for t in v.type.items):
            return tuple(t.dist for t in v.type.items)
        return None
    if not isinstance(v.type, DistTensorType):
        return None
    return v.type.dist


def _first_mesh(attrs_) -> ProcessMesh | None:
    for a in attrs_:
        if isinstance(a, tuple):
            a = a[0] if a else None
        if a is not None:
            return a.mesh
    return None


def _dense_mesh(res, op) -> ProcessMesh:
    """The mesh of a dense op (:func:`~rulepass.engine.paddle.parallelize.resolve_constants`):
    its first dist reader's first dist operand's (Paddle's ``HasDistInput`` +
    ``CvtAllInputsToDist``); the stage of its position when no op with a dist operand reads its
    subgraph.

    The sweep reaches the dense op before that reader, so the ops in between are not placed yet:
    their meshes are worked out here in one pass in program order, as the sweep will place them
    (a parameter or input on its stage, a hook reshard on its target, any other op on its first
    dist operand's mesh), a value of another dense subgraph counting as dist only after its own
    first reader. Each reader's answer is kept (``res.reader_mesh``)."""
    reader = res.dense_reader.get(id(op))
    if reader is not None and id(reader) not in res.reader_mesh:
        _place_readers(res, res.position[id(op)], res.position[id(reader)])
    mesh = res.reader_mesh.get(id(reader)) if reader is not None else None
    return mesh if mesh is not None else res.mesh_of_stage(res.stage_of(op))


def _place_readers(res, start: int, end: int) -> None:
    """Fill ``res.reader_mesh`` for the readers of dense subgraphs at positions ``start+1 ..
    end`` (see :func:`_dense_mesh`)."""
    predicted: dict = {}  # id(op) -> mesh, for the ops not placed yet

    def value_mesh(v, at: int):
        if v is None or v.owner is None:
            return _first_mesh([_attr(v)]) if v is not None else None
        owner = v.owner
        if id(owner) in res.dense_reader:  # dense until its first dist reader is built
            first = res.dense_reader[id(owner)]
            if first is None or res.position[id(first)] >= at:
                return None
            return _first_mesh([_attr(v)]) or res.reader_mesh.get(id(first))
        return _first_mesh([_attr(v)]) or predicted.get(id(owner))

    for position in range(start + 1, end + 1):
        op = res.ops[position]
        found = next((m for m in (value_mesh(v, position) for v in op.operands)
                      if m is not None), None)
        if op in res.readers:
            res.reader_mesh[id(op)] = found
        if id(op) in res.dense_reader or op.results and _attr(op.results[0]) is not None:
            continue
        mode = op.attributes.get("plan_reshard")
        if op.name in ("builtin.parameter", "pd_op.data"):
            predicted[id(op)] = res.mesh_of_stage(res.stage_of(op))
        elif mode is not None and mode not in ("concat", "split", "split_mp"):
            predicted[id(op)] = res.mesh_of_stage(int(op.attributes["plan_target"]))
        else:
            predicted[id(op)] = found if found is not None else \
                res.mesh_of_stage(res.stage_of(op))


@function("spmd_dist", live=True)
def spmd_dist(program, op):
    """The op dist attribute of ``op`` from the SPMD table; absent without a resolved plan.
    An op with no dist operand is a dense constant: it goes on the mesh of its first dist
    reader (:func:`_dense_mesh`, Paddle's ``CvtAllInputsToDist``). Raises ``KeyError`` naming
    the op when the table has no rule for it."""
    res = _resolved(program)
    if res is None:
        return ABSENT
    inputs = [_attr(v) for v in op.operands]
    mesh = _first_mesh(inputs)
    if mesh is None:
        mesh = _dense_mesh(res, op)
    from rulepass.engine.paddle import spmd_rules  # here: see _resolved

    operands, results = spmd_rules.infer(op, inputs)

    def entry(p, v):
        if v is None:
            return NULL_DIST
        if isinstance(p, list):  # a vector operand or result: one entry per item
            return tuple(TensorDistAttr(mesh, x.dims_mapping, x.partial) for x in p)
        return TensorDistAttr(mesh, p.dims_mapping, p.partial)

    return OperationDistAttr(mesh, [entry(p, v) for p, v in zip(operands, op.operands)],
                             [entry(p, r) for p, r in zip(results, op.results)], -1)


def _stops(v) -> bool:
    if v is None or v.owner is None:
        return True
    flags = v.owner.attributes.get("stop_gradient")
    return bool(flags[v.index]) if isinstance(flags, tuple) and len(flags) > v.index else False


@function("stop_flags", live=True)
def stop_flags(program, op):
    """``op``'s ``stop_gradient`` flags, each also true when every operand stops gradients
    (Paddle derives a result's flag from its inputs; the dist program's inputs stop them)."""
    flags = tuple(op.attributes.get("stop_gradient", ()))
    if not op.operands or not all(_stops(v) for v in op.operands):
        return flags
    return tuple(True for _ in flags)


@function("own_dist", live=True)
def own_dist(program, op, mesh):
    """``op``'s dist attribute on ``mesh`` with the entries of its values' current types (the
    live counterpart of ``op_dist``, for an op the sweep has just retyped)."""
    from rulepass.engine.paddle.functions_dist import entry_of

    return OperationDistAttr(mesh, [entry_of(v) for v in op.operands],
                             [entry_of(r) for r in op.results], -1)


@function("spmd_type", live=True)
def spmd_type(program, op, result):
    """``result``'s type placed as ``op``'s dist attribute says (its own type when it has none)."""
    v = _value(result)
    d = op.dist_attr
    if d is None or v.index >= len(d.results):
        return v.type
    placed = d.results[v.index]
    if isinstance(placed, tuple):  # a vector result (split): its items placed one by one
        return VectorType([DistTensorType(t.shape, t.dtype, a)
                           for t, a in zip(v.type.items, placed)])
    if placed.is_null:
        return v.type
    from rulepass.engine.paddle.spmd_shapes import result_shapes  # here: see _resolved

    shapes = result_shapes(op)
    shape = shapes[v.index] if shapes is not None else v.type.shape
    return DistTensorType(shape, v.type.dtype, placed)


@function("vector_type", live=True)
def vector_type(program, op, result):
    """The type of a ``builtin.combine`` result (the vector of its operands' types) or of a
    ``builtin.split`` result (its item of the operand vector): these ops have no dist attribute
    of their own, their results follow their operands."""
    v = _value(result)
    if op.name == "builtin.combine":
        return VectorType([x.type for x in op.operands])
    items = getattr(op.operands[0].type, "items", None)
    return items[v.index] if items is not None and v.index < len(items) else v.type


def _union_mesh(a: ProcessMesh, b: ProcessMesh) -> ProcessMesh:
    if a == b:
        return a
    ids = sorted(set(a.process_ids) | set(b.process_ids))
    return ProcessMesh([len(ids)], ids)


@function("reshard_type", live=True)
def reshard_type(program, r):
    """The result type of a hook reshard (``plan_reshard`` / ``plan_target`` attributes): to a
    stage with its operand's placement (``"stage"``), Replicate on the target (``"global"``), a
    tied parameter placed as its reader's plan says on the reader's stage (``"share"``),
    Replicate along ``mp`` on its own mesh (``"concat"``, Paddle's c_concat) or sharded along
    ``mp`` on the sequence axis (``"split"``, c_split: axis 1 when dp shards axis 0, else 0) or
    on the hidden axis 2 (``"split_mp"``, c_split of ``RowWiseParallel(is_input_parallel=False)``)."""
    res = _resolved(program)
    if res is None:
        return ABSENT
    src = r.operands[0].type
    mode, target = r.attributes["plan_reshard"], int(r.attributes["plan_target"])
    if mode in ("concat", "split", "split_mp"):
        mesh = src.mesh
        names = list(res.mesh_of_stage(target).dim_names)
        mp = names.index("mp")
        dims = [-1 if m == mp else m for m in src.dims_mapping]
        partial = tuple(p for p in src.dist.partial if p[0] != mp)
        if mode == "split_mp":
            dims[2] = mp
        elif mode == "split":
            # Paddle's c_split: the batch is the axis dp shards; the sequence the other one
            dp = names.index("dp") if "dp" in names else None
            batch = src.dims_mapping.index(dp) if dp is not None and dp in src.dims_mapping else None
            dims[1 if batch == 0 else 0] = mp
        return DistTensorType(src.shape, src.dtype, TensorDistAttr(mesh, tuple(dims), partial))
    mesh = res.mesh_of_stage(target)
    if mode == "share":  # a tied parameter onto another stage, placed by that layer's plan
        return DistTensorType(src.shape, src.dtype, TensorDistAttr(mesh, res.reshard_dims[id(r)]))
    if mode == "stage":
        return DistTensorType(src.shape, src.dtype,
                              TensorDistAttr(mesh, src.dims_mapping, src.dist.partial))
    return DistTensorType(src.shape, src.dtype, TensorDistAttr(mesh, (-1,) * len(src.shape)))


@function("reshard_mesh", live=True)
def reshard_mesh(program, src_type, dst_type):
    """The mesh of a reshard's op dist attribute: the meshes' union as one dimension when they
    differ (``{shape:[2],process_ids:[0,1]}`` between stages [0] and [1]), else the mesh."""
    return _union_mesh(src_type.mesh, dst_type.mesh)
