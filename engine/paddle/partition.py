"""Insert ``dist_op.reshard`` wherever a value's placement differs from what its reader requires.

Reimplements the insertion half of Paddle 3.3.1's ``apply_reshard_pass``
(``python/paddle/distributed/auto_parallel/static/pir_pass.py``): every op with an op dist
attribute states, per operand, the dist attribute it computes with; when the operand's value has
another placement on the same process mesh, a reshard to the required attribute is inserted right
before the first such reader (with its ``op_role`` and chunk, so it runs in that reader's pipeline
job), and later readers needing the same placement of the same value share it. Cross-mesh changes are explicit ``dist_op.reshard`` ops already (pipeline
stage boundaries) and are left to ``rules/pipeline_reshard.rw``; the inserted same-mesh reshards are
lowered by ``rules/reshard.rw``.

The rule language has no action that rewires one operand of one op, so this step is Python; it
records every change through the IR's journaled mutation API.
"""

from __future__ import annotations

from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.ir.types import DistTensorType, OperationDistAttr, TensorDistAttr


def needs_reshard(value_type, required) -> bool:
    """Whether a value of ``value_type`` read as ``required`` (a :class:`TensorDistAttr`) needs a
    same-mesh reshard: both dist, on one mesh, with other dims mappings or partial dims."""
    if not isinstance(value_type, DistTensorType) or not isinstance(required, TensorDistAttr):
        return False
    have = value_type.dist
    if have is required:  # the common case: the reader computes with the value's own attribute
        return False
    if required.is_null or required.mesh != have.mesh:
        return False
    return (have.dims_mapping, have.partial) != (required.dims_mapping, required.partial)


def insert_reshards(program: Program) -> list[Operation]:
    """Insert the reshards (in place); returns them in program order. Readers that need the same
    value with the same placement share one reshard, made before the first of them (a forward
    op and the grad op that reads the same activation: one all_reduce, as Paddle has)."""
    made: list[Operation] = []
    shared: dict = {}
    for op in list(program.block):
        d = op.dist_attr
        if d is None or op.name == "dist_op.reshard":
            continue
        for i, v in enumerate(op.operands):
            if v is None or i >= len(d.operands):
                continue
            required = d.operands[i]
            if not needs_reshard(v.type, required):
                continue
            key = (id(v), required)
            if key in shared:
                op.set_operand(i, shared[key].result)
                continue
            src = v.type
            dst = DistTensorType(src.shape, src.dtype, required)
            attributes = {"op_role": op.op_role if op.op_role >= 0 else 0,
                          "stop_gradient": (True,) if op.op_role == 2 else (False,)}
            if "chunk_id" in op.attributes:
                attributes["chunk_id"] = op.attributes["chunk_id"]
            reshard = Operation.create(
                "dist_op.reshard", [v], [dst], attributes,
                OperationDistAttr(src.mesh, [src.dist], [required], d.chunk_id))
            program.block.insert_before(op, reshard)
            op.set_operand(i, reshard.result)
            shared[key] = reshard
            made.append(reshard)
    return made


def create_process_groups(program: Program, updates=None) -> int:
    """Add to the program's table, in program order, every process group that lowering its
    reshards can use: the slice groups of every dimension of a same-mesh reshard's mesh, the
    ``[sender, receiver]`` pair of each position of a cross-mesh (pipeline) reshard (and its
    target mesh's slice groups when it also changes placements), the broadcast group of each
    position of a stage -> global reshard, and both meshes' slice groups of a global -> stage one.

    Run on the global program before any per-rank lowering, so that every rank's program holds
    the same table with the same ring ids — MPI and NCCL build one communicator per group, all
    ranks together, and a rank that numbered its groups differently would wait forever.
    ``updates``, when given (``optimizer.update_reshards``: the ``(source, target)`` types of
    the reshards before every rank's parameter updates), stands for the reshards of the
    optimizer's ops (``op_role`` 2), which are then passed over: the groups of all ranks'
    updates come last, in parameter order, whether this program holds every rank's updates or
    only its own (``append_optimizer(rank=...)``). Returns the number of groups added.
    """
    before = len(program.process_groups)
    for op in program.walk():
        if op.name != "dist_op.reshard" or not op.results or op.operand(0) is None:
            continue
        if updates is not None and op.op_role == 2:
            continue
        for group in _groups(op.operand(0).type, op.results[0].type):
            program.add_process_group(group)
    for src, dst in updates or ():
        for group in _groups(src, dst):
            program.add_process_group(group)
    return len(program.process_groups) - before


def _groups(src, dst):
    """The process groups lowering a reshard from type ``src`` to type ``dst`` can use, in the
    order :func:`create_process_groups` numbers them (none unless both are dist types)."""
    from rulepass.engine.paddle.functions_global import group_of, mesh_slice_dim
    from rulepass.engine.paddle.functions_reshard import slice_groups

    if not isinstance(src, DistTensorType) or not isinstance(dst, DistTensorType):
        return
    if src.mesh == dst.mesh:
        for mesh_dim in range(src.mesh.ndim):
            yield from slice_groups(src.mesh, mesh_dim)
    elif mesh_slice_dim(dst.mesh, src.mesh) >= 0:
        # stage -> global: one broadcast group per position of the stage mesh
        for rank in src.mesh.process_ids:
            yield group_of(dst.mesh, src.mesh, rank)
    elif mesh_slice_dim(src.mesh, dst.mesh) >= 0:
        # global -> stage: no communication (share_data_); a non-replicated side is resharded
        # on its own mesh
        for mesh in (src.mesh, dst.mesh):
            for mesh_dim in range(mesh.ndim):
                yield from slice_groups(mesh, mesh_dim)
    elif len(src.mesh.process_ids) == len(dst.mesh.process_ids):
        for s, d in zip(src.mesh.process_ids, dst.mesh.process_ids):
            yield [s, d]
        if src.placements != dst.placements:
            # split into a move and a same-mesh reshard on the target (global_reshard.rw)
            for mesh_dim in range(dst.mesh.ndim):
                yield from slice_groups(dst.mesh, mesh_dim)
