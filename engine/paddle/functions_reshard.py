"""Functions for `rules/reshard.rw` (lowering a same-mesh `dist_op.reshard`), registered with
:func:`rulepass.engine.rewrite.functions.function`. The rules choose each step (which mesh dimension,
which placement change, which ops); these say only what the rule language has no syntax for:

- ``mesh_group(mesh, mesh_dim, rank)`` — the ring id of ``rank``'s slice of ``mesh`` along
  ``mesh_dim``, creating the groups of every slice in a fixed order (live: it changes the
  program's process-group table, journaled);
- type constructors for the intermediate states: ``replicated``, ``placed``, ``resized``,
  ``transposed``, ``gathered``, ``piece_types``, ``vec``, ``replicated_array``;
- ``dense_reshaped(t, shape)`` — a dense type with another shape (``rules/split_backward.rw``);
- ``shard_sizes(size, parts)`` — the sections of the uneven split rule;
- ``dtype_attr(name)`` and ``cpu_place()`` — the bare-word attribute values ``float32`` and
  ``Place(cpu)``.

All but ``mesh_group`` read their arguments only, never the program: they are registered live
(called directly each time), so a pass calling them needs no copy of the program as it found it.

Source: Paddle 3.3.1 ``python/paddle/distributed/auto_parallel/static/reshard_funcs/``
(``nd_mesh_reshard_func.py``: ``get_1D_sub_process_mesh`` and the group of every sub mesh created
with ``new_process_group``; ``s_to_r_reshard_func.py``: ``infer_allgather_dist_type``).
"""

from __future__ import annotations

import itertools

from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.rewrite.functions import function
from rulepass.engine.ir.types import (
    DenseTensorType,
    DistTensorType,
    Partial,
    ProcessMesh,
    Replicate,
    Shard,
    TensorDistAttr,
    VectorType,
    shard_size,
)


def slice_groups(mesh: ProcessMesh, mesh_dim: int) -> list[tuple[int, ...]]:
    """Every slice of ``mesh`` along ``mesh_dim`` (the ranks sharing a coordinate on the other
    dimensions, in mesh order), slices in row-major order of those other coordinates.

    Raises ``ValueError`` when ``mesh_dim`` is not a dimension of the mesh."""
    if not 0 <= mesh_dim < mesh.ndim:
        raise ValueError(f"mesh dimension {mesh_dim} is outside a {mesh.ndim}-d process mesh")
    others = [range(n) if i != mesh_dim else range(1) for i, n in enumerate(mesh.shape)]
    groups = []
    for coord in itertools.product(*others):
        flat = 0
        for c, n in zip(coord, mesh.shape):
            flat = flat * n + c
        groups.append(mesh.group_along(mesh.process_ids[flat], mesh_dim))
    return groups


@function("mesh_group", live=True)
def mesh_group(program, mesh: ProcessMesh, mesh_dim: int, rank: int) -> int:
    """Ring id of the process group of ``rank``'s slice of ``mesh`` along ``mesh_dim``
    (:meth:`ProcessMesh.group_along`). On first use for that (mesh, mesh_dim) the groups of all
    its slices are added, in the order of :func:`slice_groups`, so every rank's program numbers
    them alike whichever slice it is in (as Paddle creates every sub mesh's group in
    ``nd_mesh_reshard_func.py``). Raises ``ValueError`` when ``rank`` is not in ``mesh``."""
    if rank not in mesh:
        raise ValueError(f"rank {rank} is not in process mesh {list(mesh.process_ids)}")
    for group in slice_groups(mesh, int(mesh_dim)):
        program.add_process_group(group)
    return program.add_process_group(mesh.group_along(rank, int(mesh_dim)))


def _with(t: DistTensorType, placements=None, shape=None) -> DistTensorType:
    """``t`` with new placements (one per mesh dimension) and/or global shape."""
    shape = tuple(t.shape if shape is None else shape)
    dist = t.dist
    if placements is not None:
        dist = TensorDistAttr.from_placements(dist.mesh, len(shape), placements)
    return DistTensorType(shape, t.dtype, dist)


def _need_dist(t, name: str) -> DistTensorType:
    if not isinstance(t, DistTensorType):
        raise TypeError(f"{name}() needs a dist tensor type, got {t!r}")
    return t


@function("replicated", live=True)
def replicated(program, t, mesh_dim: int) -> DistTensorType:
    """``t`` with mesh dimension ``mesh_dim`` made ``Replicate()`` (shape unchanged)."""
    t = _need_dist(t, "replicated")
    placements = list(t.placements)
    placements[mesh_dim] = Replicate()
    return _with(t, placements)


@function("placed", live=True)
def placed(program, t, mesh_dim: int, placement) -> DistTensorType:
    """``t`` with mesh dimension ``mesh_dim`` given ``placement`` (a ``Shard``, ``Partial`` or
    ``Replicate`` read from another type's placements). Raises ``ValueError`` when the result
    would shard one tensor dimension over two mesh dimensions."""
    t = _need_dist(t, "placed")
    if not isinstance(placement, (Shard, Partial, Replicate)):
        raise TypeError(f"placed() needs a placement, got {placement!r}")
    placements = list(t.placements)
    placements[mesh_dim] = placement
    return _with(t, placements)


@function("resized", live=True)
def resized(program, t, dim: int, size: int) -> DistTensorType:
    """``t`` with global size ``size`` along tensor dimension ``dim`` (placements unchanged)."""
    t = _need_dist(t, "resized")
    shape = list(t.shape)
    shape[dim] = int(size)
    return _with(t, shape=shape)


@function("transposed", live=True)
def transposed(program, t, perm) -> DistTensorType:
    """The type of ``transpose(x, perm)`` for ``x`` of type ``t``: shape and dims_mapping
    permuted (``out.shape[i] = t.shape[perm[i]]``), partial status kept."""
    t = _need_dist(t, "transposed")
    perm = [int(p) for p in perm]
    if sorted(perm) != list(range(len(t.shape))):
        raise ValueError(f"perm {perm} is not a permutation of {len(t.shape)} dimensions")
    dist = TensorDistAttr(t.dist.mesh, tuple(t.dims_mapping[p] for p in perm), t.dist.partial)
    return DistTensorType(tuple(t.shape[p] for p in perm), t.dtype, dist)


@function("gathered", live=True)
def gathered(program, t, mesh_dim: int, rank: int) -> DistTensorType:
    """The type of ``all_gather`` along ``mesh_dim`` of ``x: t``, ``t`` being ``Shard(d)`` there
    with a size along ``d`` that the group size ``n`` divides (padded if need be).

    All_gather stacks the ``n`` pieces along axis 0 (Paddle ``infer_allgather_dist_type``): for
    ``d == 0`` that is ``t`` replicated on ``mesh_dim``; otherwise the stack of pieces, each of
    ``t``'s shape with ``t.shape[d] / n`` along ``d``, so axis 0 grows ``n`` times. When axis 0 is
    itself split unevenly over another mesh dimension no global shape gives every rank its
    stacked size; the type then holds ``rank``'s stacked size with axis 0 replicated (a type true
    for ``rank``, whose program this is).

    Raises ``ValueError`` when ``t`` is not sharded on ``mesh_dim`` or ``n`` does not divide it."""
    t = _need_dist(t, "gathered")
    placement = t.placements[mesh_dim]
    if not isinstance(placement, Shard):
        raise ValueError(f"gathered() needs a type sharded on mesh dimension {mesh_dim}, got {t}")
    d = placement.dim
    n = t.mesh.shape[mesh_dim]
    if t.shape[d] < 0 or t.shape[d] % n:
        raise ValueError(f"gathered(): size {t.shape[d]} of dimension {d} does not split in {n}")
    out = replicated(program, t, mesh_dim)
    if d == 0:
        return out
    out = resized(program, out, d, t.shape[d] // n)
    first = out.dims_mapping[0]
    if out.shape[0] < 0:
        return out
    if first < 0 or out.shape[0] % out.mesh.shape[first] == 0:
        return resized(program, out, 0, out.shape[0] * n)
    stacked = out.local_shape(rank)[0] * n
    placements = list(out.placements)
    placements[first] = Replicate()
    return resized(program, _with(out, placements), 0, stacked)


@function("dense_reshaped", live=True)
def dense_reshaped(program, t, shape) -> DenseTensorType:
    """Dense type ``t`` with shape ``shape`` (a list of ints), the type of ``reshape(x, shape)``.

    Raises ValueError (a rule error naming the rule) for a non-dense ``t`` or a shape holding
    another number of elements (dynamic ``-1`` sizes are not resolved)."""
    if not isinstance(t, DenseTensorType):
        raise ValueError(f"dense_reshaped needs a dense tensor type, got {t}")
    shape = [int(d) for d in shape]
    if -1 not in shape and -1 not in t.shape and _elements(shape) != _elements(t.shape):
        raise ValueError(f"cannot reshape {t} to {shape}: the element counts differ")
    return DenseTensorType(tuple(shape), t.dtype)


def _elements(shape) -> int:
    count = 1
    for d in shape:
        count *= d
    return count


@function("shard_sizes", live=True)
def shard_sizes(program, size: int, parts: int) -> list[int]:
    """Sizes of the ``parts`` pieces of ``size`` under the uneven rule (leading pieces get the
    ceiling, the last the rest; trailing pieces may be empty): ``shard_sizes(5, 2) == [3, 2]``,
    ``shard_sizes(5, 4) == [2, 2, 1, 0]``."""
    return [shard_size(int(size), int(parts), i) for i in range(int(parts))]


@function("piece_types", live=True)
def piece_types(program, t, dim: int, sizes, mesh_dim: int = -1, keep: int = -1) -> list:
    """Types of the pieces of ``x: t`` split along ``dim`` into ``sizes`` (``t`` not sharded
    along ``dim``): piece ``i`` is ``t`` with size ``sizes[i]`` along ``dim``. Piece ``keep``
    (when ``keep >= 0``) is typed as the shard it becomes, ``t`` with ``Shard(dim)`` on
    ``mesh_dim``, whose local shape on the rank that keeps it is that piece's."""
    t = _need_dist(t, "piece_types")
    types = [resized(program, t, dim, s) for s in sizes]
    if keep >= 0:
        types[keep] = placed(program, t, mesh_dim, Shard(dim))
    return types


@function("vec", live=True)
def vec(program, types) -> VectorType:
    """``vec[...]`` of the given types (the type of a split op's result)."""
    return VectorType(tuple(types))


@function("replicated_array", live=True)
def replicated_array(program, mesh: ProcessMesh, length: int, dtype: str) -> DistTensorType:
    """``pd_dist.tensor<{length}x{dtype}>`` replicated over ``mesh``: the type Paddle gives the
    axis and section constants (``pd_op.full``, ``pd_op.full_int_array``) of reshard ops."""
    dist = TensorDistAttr(mesh, (-1,), ())
    return DistTensorType((int(length),), str(dtype), dist)


@function("dtype_attr", live=True)
def dtype_attr(program, name) -> Symbol:
    """The bare-word dtype attribute ``name`` (``dtype:float32``, not ``dtype:"float32"``)."""
    return Symbol(str(name))


@function("cpu_place", live=True)
def cpu_place(program) -> Place:
    """The attribute value ``Place(cpu)`` that Paddle gives its constant ops."""
    return Place("cpu")


__all__ = [
    "slice_groups", "mesh_group", "replicated", "placed", "resized", "transposed", "gathered",
    "dense_reshaped",
    "shard_sizes", "piece_types", "vec", "replicated_array", "dtype_attr", "cpu_place",
]
