"""Functions for `rules/global_reshard.rw`: reshards between a global pipeline mesh and one of its
stage (sub) meshes (PR #69628, ``dist.parallelize`` with ``global_spec``), registered with
:func:`rulepass.engine.rewrite.functions.function`.

- ``sub_mesh_dim(big, small)`` — the dimension of ``big`` along which ``small`` is one of its
  slices, or -1 (Paddle ``core.sub_mesh_dim`` / ``GlobalToSubMeshFunction.is_suitable``);
- ``broadcast_group(big, small, rank)`` and ``broadcast_ring(big, small, rank)`` — the ranks (and
  ring id) of the broadcast that sends ``small``'s copy of a value held by ``rank``'s position to
  the same position of the other slices (``SubToGlobalMeshFunction.reshard``: the group is sorted,
  the root is the index of the sending rank in it);
- ``broadcast_root(big, small, rank)`` — that index;
- ``plain(type)`` — a type without the extra placements Paddle prints for a 1-D stage mesh (its
  ``copy_dist_attr_with_new_member`` drops them);
- ``on_mesh(type, mesh)`` — a dist type moved onto ``mesh``, plain;
- ``all_replicated(type)`` — the type replicated over every mesh dimension;
- ``outside_mesh(big, small)`` — the 1-D mesh of ``big``'s ranks not in ``small`` (where Paddle puts
  the zeros buffer a broadcast receives into);
- ``with_result(op, index, type)`` — ``op``'s dist attribute with result ``index``'s entry set to
  ``type``'s (Paddle moves a value read once onto the stage mesh instead of copying it);
- ``undefined_place()`` — the attribute value ``Place(undefined:0)``.

All but ``broadcast_ring`` (which adds a process group) read their arguments only, never the
program: they are registered live, so a pass calling them needs no copy of the program.

Source: Paddle 3.3.1 ``python/paddle/distributed/auto_parallel/static/reshard_funcs/``
``global_to_sub_mesh_func.py`` and ``sub_to_global_mesh_func.py``.
"""

from __future__ import annotations

import attrs

from rulepass.engine.ir.attributes import Place
from rulepass.engine.ir.types import DistTensorType, OperationDistAttr, ProcessMesh, TensorDistAttr
from rulepass.engine.rewrite.functions import function


def _slice(big: ProcessMesh, dim: int, index: int) -> tuple[int, ...]:
    """The ranks of ``big`` whose coordinate along ``dim`` is ``index``, in mesh order."""
    return tuple(r for r in big.process_ids if big.coordinate(r)[dim] == index)


def mesh_slice_dim(big: ProcessMesh, small: ProcessMesh) -> int:
    """The dimension ``d`` of ``big`` such that ``small`` is the slice of ``big`` at some index
    along ``d``: with ``small`` one dimension less than ``big`` (``big``'s shape without ``d``),
    or as many with size 1 at ``d``; -1 when there is none (or when the meshes are equal).
    Source: Paddle ``core.sub_mesh_dim`` and ``_mesh_equal_ignore_shape_one``."""
    if not isinstance(big, ProcessMesh) or not isinstance(small, ProcessMesh) or big == small:
        return -1
    if not set(small.process_ids) < set(big.process_ids) or small.ndim not in (big.ndim,
                                                                               big.ndim - 1):
        return -1
    for d in range(big.ndim):
        rest = big.shape[:d] + big.shape[d + 1:]
        if small.ndim == big.ndim - 1 and tuple(small.shape) != tuple(rest):
            continue
        if small.ndim == big.ndim and (small.shape[d] != 1 or
                                       tuple(small.shape[:d] + small.shape[d + 1:]) != tuple(rest)):
            continue
        index = big.coordinate(small.process_ids[0])[d]
        if _slice(big, d, index) == tuple(small.process_ids):
            return d
    return -1


@function("sub_mesh_dim", live=True)
def sub_mesh_dim(program, big, small) -> int:
    """Rule function `sub_mesh_dim(big, small)`: :func:`mesh_slice_dim`."""
    return mesh_slice_dim(big, small)


def group_of(big: ProcessMesh, small: ProcessMesh, rank: int) -> tuple[int, ...]:
    """The sorted ranks of ``big`` at ``rank``'s position in every slice along the dimension of
    which ``small`` is a slice; ``rank`` may sit in any slice. Raises ``ValueError`` when
    ``small`` is not a slice of ``big`` or ``rank`` is not in ``big``."""
    d = mesh_slice_dim(big, small)
    if d < 0:
        raise ValueError(f"process mesh {list(small.process_ids)} is not a slice of "
                         f"{list(big.process_ids)}")
    return tuple(sorted(big.group_along(int(rank), d)))


@function("broadcast_group", live=True)
def broadcast_group(program, big, small, rank) -> list:
    """Rule function `broadcast_group(big, small, rank)`: :func:`group_of` as a list."""
    return list(group_of(big, small, rank))


@function("broadcast_ring", live=True)
def broadcast_ring(program, big, small, rank) -> int:
    """Rule function `broadcast_ring(big, small, rank)`: the ring id of :func:`group_of` (added to
    the program's groups when missing; `create_process_groups` adds every such group up front)."""
    return program.add_process_group(list(group_of(big, small, rank)))


@function("broadcast_root", live=True)
def broadcast_root(program, big, small, rank) -> int:
    """Rule function `broadcast_root(big, small, rank)`: the index in :func:`group_of` of the
    rank of ``small`` at ``rank``'s position (the sender: Paddle's ``root`` is group-local)."""
    group = group_of(big, small, rank)
    senders = [r for r in group if r in small.process_ids]
    if len(senders) != 1:
        raise ValueError(f"the group {list(group)} holds {len(senders)} ranks of "
                         f"{list(small.process_ids)}")
    return group.index(senders[0])


def plain_type(t):
    """``t`` without extra printed placements (dense and vector types unchanged)."""
    if isinstance(t, DistTensorType) and t.dist.extra_replicates:
        return attrs.evolve(t, dist=t.dist.normalized())
    return t


@function("plain", live=True)
def plain(program, t):
    """Rule function `plain(type)`: :func:`plain_type`."""
    return plain_type(t)


@function("on_mesh", live=True)
def on_mesh(program, t, mesh):
    """Rule function `on_mesh(type, mesh)`: dist type ``t`` with the same dims_mapping and partial
    on ``mesh`` (plain). Raises ``TypeError`` for a dense type."""
    if not isinstance(t, DistTensorType):
        raise TypeError(f"on_mesh() needs a dist type, got {t}")
    return attrs.evolve(t, dist=attrs.evolve(t.dist.normalized(), mesh=mesh))


@function("all_replicated", live=True)
def all_replicated(program, t):
    """Rule function `all_replicated(type)`: dist type ``t`` replicated on its mesh (plain)."""
    if not isinstance(t, DistTensorType):
        raise TypeError(f"all_replicated() needs a dist type, got {t}")
    return attrs.evolve(t, dist=TensorDistAttr(t.dist.mesh, (-1,) * len(t.shape), ()))


@function("outside_mesh", live=True)
def outside_mesh(program, big, small) -> ProcessMesh:
    """Rule function `outside_mesh(big, small)`: the 1-D process mesh of ``big``'s ranks not in
    ``small``, in ``big``'s order (Paddle: ``ProcessMesh(other_ranks)``). Raises ``ValueError``
    when there are none."""
    others = [r for r in big.process_ids if r not in small.process_ids]
    if not others:
        raise ValueError(f"process mesh {list(big.process_ids)} has no rank outside "
                         f"{list(small.process_ids)}")
    return ProcessMesh((len(others),), tuple(others))


@function("with_result", live=True)
def with_result(program, op, index, t) -> OperationDistAttr:
    """Rule function `with_result(op, index, type)`: ``op``'s dist attribute with its result
    ``index`` entry replaced by dist type ``t``'s attribute (mesh, operands, chunk kept).
    Source: ``GlobalToSubMeshFunction.reshard`` (a source value with one use)."""
    d = op.dist_attr
    results = list(d.results)
    results[int(index)] = t.dist
    return OperationDistAttr(d.mesh, d.operands, tuple(results), d.chunk_id)


@function("undefined_place", live=True)
def undefined_place(program) -> Place:
    """The attribute value ``Place(undefined:0)`` (``paddle.zeros`` in a static program)."""
    return Place("undefined:0")


__all__ = ["all_replicated", "outside_mesh", "with_result", "undefined_place", "mesh_slice_dim", "sub_mesh_dim", "group_of", "broadcast_group", "broadcast_ring",
           "broadcast_root", "plain_type", "plain", "on_mesh"]
