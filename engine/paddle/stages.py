"""Which pipeline stage a process mesh and a rank belong to.

Paddle 3.3.1 assumes the pp dimension is the outermost one of the global mesh: a rank's stage is
``rank // (world_size // pp)`` (``static/utils.py`` ``get_pp_stage_by_rank``, used by
``get_pp_stage_by_process_mesh`` in ``complete_chunk_id``). ``dist.parallelize`` takes the pp
dimension wherever the user's mesh has it (``["dp", "pp", "mp"]``, the seed test's mesh), and then
the stage meshes are slices across the rank order: on ``[2, 2, 1]`` ``["dp","pp","mp"]`` stage 0
holds ranks ``[0, 2]`` and stage 1 ``[1, 3]``, which Paddle's formula puts on stages ``{0, 1}``.

Here a stage is found from the program itself (for ``complete_chunk_id``'s layer layout; the
runtime's table of every rank's stage is :func:`rulepass.checks.pipeline_stages`, the same rule):
its stage meshes (the meshes of its ``pd_op`` ops without those holding every rank) partition the
ranks into ``pp`` meshes, and stage ``k`` is the ``k``-th by first process id (the mesh at pp
coordinate ``k``: its smallest rank is ``k`` times the pp stride, so the order is the pp order
whatever the dimension order). Where the program does not show such a partition, Paddle's formula
stands; for the pp-outermost meshes Paddle supports both give the same stage.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulepass.engine.ir.core import Program
from rulepass.engine.ir.types import ProcessMesh

__all__ = ["stage_meshes", "stage_partition", "stage_of_mesh"]


def stage_meshes(program: Program) -> list[ProcessMesh]:
    """The stage (sub) meshes of a program, ordered by first process id.

    The meshes of `pd_op.*` ops; when some mesh holds fewer ranks than all of them together, the
    meshes holding every rank (global meshes) are dropped.
    Source: Paddle ``utils.get_sub_process_mesh_by_program`` / ``get_sub_process_mesh``.
    """
    meshes: list[ProcessMesh] = []
    for op in program.block:
        if "pd_op" in op.name and op.dist_attr is not None and op.dist_attr.mesh not in meshes:
            meshes.append(op.dist_attr.mesh)
    every = set().union(*(set(m.process_ids) for m in meshes)) if meshes else set()
    has_sub = any(set(m.process_ids) < every for m in meshes)
    if has_sub:
        meshes = [m for m in meshes if set(m.process_ids) != every]
    return sorted(meshes, key=lambda m: m.process_ids[0])


def stage_partition(meshes: Sequence[ProcessMesh], pp_degree: int) -> list[frozenset] | None:
    """The rank sets of the ``pp_degree`` stages when ``meshes`` (:func:`stage_meshes`) are
    exactly that many disjoint meshes of equal size, in order; else None."""
    sets = []
    for mesh in meshes:
        ids = frozenset(mesh.process_ids)
        if ids not in sets:
            sets.append(ids)
    if pp_degree < 2 or len(sets) != pp_degree or len({len(s) for s in sets}) != 1:
        return None
    if len(frozenset().union(*sets)) != sum(len(s) for s in sets):
        return None
    return sets


def stage_of_mesh(mesh: ProcessMesh, pp_degree: int, world_size: int,
                  partition: Sequence[frozenset] | None = None) -> int | None:
    """The pipeline stage every rank of `mesh` belongs to, or None when its ranks span several
    stages. With a ``partition`` (:func:`stage_partition`) the stage whose ranks hold all of
    `mesh`'s; without one ``rank // (world_size // pp)`` (Paddle
    ``utils.get_pp_stage_by_process_mesh``)."""
    ids = set(mesh.process_ids)
    if partition is not None:
        found = [k for k, ranks in enumerate(partition) if ids <= ranks]
        return found[0] if found else None
    group = max(1, world_size // pp_degree)
    stages = {pid // group for pid in ids}
    return stages.pop() if len(stages) == 1 else None
