"""What Paddle's pass params mean, checked against the program before a pass runs (registered
with :func:`rulepass.engine.rewrite.functions.param_check`, so the API, pipelines and the CLI all
check alike; issue 18):

- ``rank``: one of the ranks of the program's process meshes (a dense program, with no mesh,
  takes any rank). ``prune_other_ranks`` with ``rank=99`` or ``-1`` returned an empty program.
- ``pp_degree``, ``vpp_degree``, ``micro_batches``: at least 1. ``complete_chunk_id`` with
  ``vpp_degree=0`` changed nothing and said nothing.
"""

from __future__ import annotations

from rulepass.engine.ir.core import Program
from rulepass.engine.ir.types import DistTensorType
from rulepass.engine.rewrite.functions import param_check


def program_meshes(program: Program) -> set:
    """Every distinct process mesh of ``program``: of the ops' dist attributes and of the dist
    types of their results (one walk; linear in the program)."""
    meshes = set()
    for op in program.walk():
        if op.dist_attr is not None:
            meshes.add(op.dist_attr.mesh)
        for value in op.results:
            if isinstance(value.type, DistTensorType) and value.type.dist.mesh is not None:
                meshes.add(value.type.dist.mesh)
    return meshes


def program_ranks(program: Program) -> set:
    """The ranks of ``program``'s process meshes (empty for a dense program)."""
    return {rank for mesh in program_meshes(program) for rank in mesh.process_ids}


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
    ranks = program_ranks(program)
    if ranks and rank not in ranks:
        return (f"is not a rank of the program, whose process meshes hold ranks "
                f"{ranks_text(ranks)}")
    return None


@param_check("pp_degree")
@param_check("vpp_degree")
@param_check("micro_batches")
def check_at_least_one(program: Program, value) -> str | None:
    """A degree or count of at least 1."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 1:
        return "must be at least 1"
    return None
