"""What Paddle's pass params mean, checked against the program before a pass runs (registered
with :func:`rulepass.engine.rewrite.functions.param_check`, so the API, pipelines and the CLI all
check alike; issue 18):

- ``rank``: one of the ranks of the program's process meshes (a dense program, with no mesh,
  takes any rank). ``prune_other_ranks`` with ``rank=99`` or ``-1`` returned an empty program.
- ``pp_degree``, ``vpp_degree``, ``micro_batches``: from 1 to 65,536. ``complete_chunk_id`` with
  ``vpp_degree=0`` changed nothing and said nothing; with ``pp_degree=2**40`` it ran out of
  memory.
"""

from __future__ import annotations

from rulepass.engine.ir.core import Program
from rulepass.engine.limits import MAX_MESH_RANKS
from rulepass.engine.ir.types import DistTensorType
from rulepass.engine.rewrite.functions import param_check


def _meshes(program: Program):
    """Yield the process meshes of ``program``'s ops' dist attributes and of their results' dist
    types, in program order, each mesh object and each type object looked at once (programs share
    them widely: a 1,024-layer program has a handful of meshes over 100,000 values), so equal
    meshes that are distinct objects may come more than once."""
    seen_meshes: set = set()
    seen_types: set = set()
    for op in program.walk():
        dist_attr = op.dist_attr
        if dist_attr is not None:
            mesh = dist_attr.mesh
            if id(mesh) not in seen_meshes:
                seen_meshes.add(id(mesh))
                yield mesh
        for value in op.results:
            vtype = value.type
            # a dense type has no mesh: tested by class first, as most values of a dense
            # program are distinct type objects (the id set would only grow)
            if type(vtype) is not DistTensorType or id(vtype) in seen_types:
                continue
            seen_types.add(id(vtype))
            mesh = vtype.dist.mesh
            if mesh is not None and id(mesh) not in seen_meshes:
                seen_meshes.add(id(mesh))
                yield mesh


def program_meshes(program: Program) -> set:
    """Every distinct process mesh of ``program``: of the ops' dist attributes and of the dist
    types of their results (one walk; linear in the program)."""
    return set(_meshes(program))


def program_ranks(program: Program) -> set:
    """The ranks of ``program``'s process meshes (empty for a dense program)."""
    return {rank for mesh in program_meshes(program) for rank in mesh.process_ids}


def program_has_rank(program: Program, rank: int) -> bool:
    """Whether ``rank`` is a rank of ``program``'s process meshes, or the program is dense (has
    no mesh): ``not program_ranks(program) or rank in program_ranks(program)``, stopping at the
    first mesh holding ``rank`` (the chain checks ``rank`` before each of six passes on programs
    of 25,000-50,000 ops, where a whole walk per check cost 0.2-0.3 s together)."""
    any_mesh = False
    for mesh in _meshes(program):
        if rank in mesh.process_ids:
            return True
        any_mesh = True
    return not any_mesh


def ranks_text(ranks) -> str:
    """``0, 1 (2 ranks)``: the first 16 ranks in order and their count."""
    ranks = sorted(ranks)
    shown = ", ".join(map(str, ranks[:16])) + (", ..." if len(ranks) > 16 else "")
    return f"{shown} ({len(ranks)} rank{'s' if len(ranks) != 1 else ''})"


@param_check("rank")
def check_rank(program: Program, rank) -> str | None:
    """A rank the program's meshes hold (any rank for a dense program)."""
    if not isinstance(rank, int) or isinstance(rank, bool):
        return None
    if program_has_rank(program, rank):
        return None
    return (f"is not a rank of the program, whose process meshes hold ranks "
            f"{ranks_text(program_ranks(program))}")


@param_check("pp_degree")
@param_check("vpp_degree")
@param_check("micro_batches")
def check_degree(program: Program, value) -> str | None:
    """A degree or count from 1 to :data:`~rulepass.engine.limits.MAX_MESH_RANKS` (65,536, the
    most ranks a mesh holds): ``pp_degree=2**40`` made complete_chunk_id allocate a list per
    stage (a MemoryError traceback), ``10**20`` overflowed an index."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if value < 1:
        return "must be at least 1"
    if value > MAX_MESH_RANKS:
        return f"must be at most {MAX_MESH_RANKS:,}"
    return None
