"""Types and distribution attributes of the IR: immutable, validated at construction.

Mirrors Paddle's PIR type system as it prints (``paddle/pir/src/core/builtin_type.cc``,
``paddle/fluid/pir/dialect/distributed/ir/dist_type.cc`` and ``dist_attribute.cc``):

- :class:`DenseTensorType` ``tensor<4x8xf32>`` — shape (``-1`` for a dynamic dim) and element type.
- :class:`DistTensorType` ``pd_dist.tensor<...>`` — the *global* shape plus a :class:`TensorDistAttr`.
- :class:`VectorType` ``vec[...]`` and :class:`NullType` ``<<NULL TYPE>>``.
- :class:`ProcessMesh`, the placements :class:`Shard`, :class:`Replicate`, :class:`Partial`,
  :class:`TensorDistAttr` and :class:`OperationDistAttr`.

All classes here are frozen ``attrs`` classes: equal when their fields are equal, hashable, safe to
share between values and ops.
"""

from __future__ import annotations

import math
from typing import Union

import attrs

#: Element type as printed inside a tensor type → the dtype name used in attributes.
ELEMENT_TYPES: dict[str, str] = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "u8": "uint8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "b": "bool",
    "c64": "complex64",
    "c128": "complex128",
}
#: dtype name → element type as printed.
DTYPE_TO_ELEMENT: dict[str, str] = {v: k for k, v in ELEMENT_TYPES.items()}

#: Reduce types Paddle prints for partial placements (``phi::ReduceType``).
REDUCE_TYPES = ("SUM", "AVG", "MAX", "MIN", "PRODUCT", "ANY", "ALL")


def _int_tuple(xs) -> tuple[int, ...]:
    return tuple(int(x) for x in xs)


# --------------------------------------------------------------------------------------------
# Process mesh and placements
# --------------------------------------------------------------------------------------------


@attrs.frozen(cache_hash=True)
class ProcessMesh:
    """A logical grid of ranks: ``shape`` (e.g. ``(2, 2)``) over ``process_ids`` in row-major order.

    ``dim_names`` (e.g. ``("pp", "dp")``) are optional: Paddle's printer does not write them, so a
    parsed mesh has none and compares equal to the same mesh named.

    Raises ``ValueError`` when the ids are not distinct or their count differs from the product
    of ``shape``. Source: ``paddle/phi/core/distributed/auto_parallel/process_mesh.h``.
    """

    shape: tuple[int, ...] = attrs.field(converter=_int_tuple)
    process_ids: tuple[int, ...] = attrs.field(converter=_int_tuple)
    dim_names: tuple[str, ...] | None = attrs.field(default=None, eq=False, hash=False)

    def __attrs_post_init__(self):
        if len(set(self.process_ids)) != len(self.process_ids):
            raise ValueError(f"process mesh ids are not distinct: {list(self.process_ids)}")
        if self.shape and math.prod(self.shape) != len(self.process_ids):
            raise ValueError(
                f"process mesh shape {list(self.shape)} holds {math.prod(self.shape)} ranks "
                f"but {len(self.process_ids)} process ids were given"
            )

    @property
    def ndim(self) -> int:
        """Number of mesh dimensions."""
        return len(self.shape)

    def __contains__(self, rank: int) -> bool:
        return rank in self.process_ids

    def coordinate(self, rank: int) -> tuple[int, ...]:
        """The row-major coordinate of ``rank`` in the mesh; ``ValueError`` if it is not in it."""
        if rank not in self.process_ids:
            raise ValueError(f"rank {rank} is not in process mesh {list(self.process_ids)}")
        flat = self.process_ids.index(rank)
        coord = []
        for size in reversed(self.shape):
            coord.append(flat % size)
            flat //= size
        return tuple(reversed(coord))

    def group_along(self, rank: int, mesh_dim: int) -> tuple[int, ...]:
        """The ranks that share ``rank``'s coordinate on every mesh dimension except ``mesh_dim``,
        in mesh order: the process group a collective along that dimension runs over."""
        coord = list(self.coordinate(rank))
        group = []
        for i in range(self.shape[mesh_dim]):
            coord[mesh_dim] = i
            flat = 0
            for c, size in zip(coord, self.shape):
                flat = flat * size + c
            group.append(self.process_ids[flat])
        return tuple(group)


@attrs.frozen(cache_hash=True)
class Shard:
    """Placement: the tensor is split along tensor dimension ``dim`` over this mesh dimension."""

    dim: int

    def __str__(self) -> str:
        return f"Shard(dim={self.dim})"


@attrs.frozen(cache_hash=True)
class Replicate:
    """Placement: every rank of this mesh dimension holds the whole tensor."""

    def __str__(self) -> str:
        return "Replicate()"


@attrs.frozen(cache_hash=True)
class Partial:
    """Placement: each rank of this mesh dimension holds a partial value; the true value is their
    reduction by ``reduce_type`` (``SUM`` by default)."""

    reduce_type: str = "SUM"

    def __attrs_post_init__(self):
        if self.reduce_type not in REDUCE_TYPES:
            raise ValueError(f"unknown reduce type {self.reduce_type!r}; one of {REDUCE_TYPES}")

    def __str__(self) -> str:
        return f"Partial(reduce_type={self.reduce_type})"


Placement = Union[Shard, Replicate, Partial]


def placements_of(mesh_ndim: int, dims_mapping, partial) -> tuple[Placement, ...]:
    """Placements per mesh dimension implied by ``dims_mapping`` (tensor dim → mesh dim or -1)
    and ``partial`` (pairs of mesh dim and reduce type)."""
    out: list[Placement] = [Replicate()] * mesh_ndim
    for mesh_dim, reduce_type in partial:
        out[mesh_dim] = Partial(reduce_type)
    for tensor_dim, mesh_dim in enumerate(dims_mapping):
        if mesh_dim >= 0:
            out[mesh_dim] = Shard(tensor_dim)
    return tuple(out)


def _partial_tuple(xs) -> tuple[tuple[int, str], ...]:
    return tuple((int(d), str(r)) for d, r in xs)


@attrs.frozen(cache_hash=True)
class TensorDistAttr:
    """How a tensor is laid out over a process mesh.

    ``dims_mapping[i]`` is the mesh dimension that tensor dimension ``i`` is sharded over, or -1;
    ``partial`` lists ``(mesh_dim, reduce_type)`` for the mesh dimensions holding partial values.
    :attr:`placements` (one per mesh dimension) is what those two imply. Paddle prints the
    placements only when the attribute carries them (``show_placements``); attributes we create
    carry them. A *null* attribute (``mesh is None``) prints as
    ``{mesh_shape:[],process_ids:[],dims_mappings:[]}``.

    ``extra_replicates`` counts ``Replicate()`` entries printed beyond the mesh's dimensions:
    Paddle stores the placements it is given, and ``dist.parallelize``'s pipeline pre-hook reshards
    onto a 1-D stage mesh with ``[Replicate(), Replicate()]`` (PR #69628), so its text shows two
    placements and one dims_mapping entry. They mean nothing more, but Paddle's attribute equality
    sees them (its partition pass reshards such a value again), so equality here does too. Paddle's
    ``copy_dist_attr_with_new_member`` drops them (:meth:`normalized`).

    Raises ``ValueError`` when a dims_mapping entry names no mesh dimension, when two tensor
    dimensions map to one mesh dimension, or when given placements contradict the mapping.
    Source: ``paddle/fluid/pir/dialect/distributed/ir/dist_attribute.h`` and the printer in
    ``dist_dialect.cc``.
    """

    mesh: ProcessMesh | None
    dims_mapping: tuple[int, ...] = attrs.field(converter=_int_tuple, default=())
    partial: tuple[tuple[int, str], ...] = attrs.field(converter=_partial_tuple, default=())
    show_placements: bool = True
    extra_replicates: int = 0

    def __attrs_post_init__(self):
        if self.extra_replicates and (self.mesh is None or not self.show_placements):
            raise ValueError("extra placements need a mesh and printed placements")
        if self.mesh is None:
            if self.dims_mapping or self.partial:
                raise ValueError("a null tensor dist attribute has no dims_mapping or partial")
            object.__setattr__(self, "show_placements", False)
            return
        ndim = self.mesh.ndim
        used = set()
        for m in self.dims_mapping:
            if m < -1 or m >= ndim:
                raise ValueError(
                    f"dims_mapping {list(self.dims_mapping)} names mesh dimension {m}, "
                    f"but the mesh has {ndim}"
                )
            if m >= 0:
                if m in used:
                    raise ValueError(
                        f"dims_mapping {list(self.dims_mapping)} shards two tensor dimensions "
                        f"over mesh dimension {m}"
                    )
                used.add(m)
        for m, reduce_type in self.partial:
            if not 0 <= m < ndim:
                raise ValueError(f"partial mesh dimension {m} is outside the mesh ({ndim} dims)")
            if m in used:
                raise ValueError(f"mesh dimension {m} is both sharded (dims_mapping "
                                 f"{list(self.dims_mapping)}) and partial")
            if reduce_type not in REDUCE_TYPES:
                raise ValueError(f"unknown reduce type {reduce_type!r}")

    @property
    def placements(self) -> tuple[Placement, ...]:
        """One placement per mesh dimension (empty for the null attribute)."""
        if self.mesh is None:
            return ()
        return placements_of(self.mesh.ndim, self.dims_mapping, self.partial)

    @property
    def printed_placements(self) -> tuple[Placement, ...]:
        """The placements as the text shows them: :attr:`placements` and the extra
        ``Replicate()`` entries."""
        return self.placements + (Replicate(),) * self.extra_replicates

    def normalized(self) -> "TensorDistAttr":
        """This attribute without extra placements (Paddle's ``copy_dist_attr_with_new_member``
        rebuilds the placements from the mapping)."""
        return attrs.evolve(self, extra_replicates=0) if self.extra_replicates else self

    @classmethod
    def parsed(cls, mesh: ProcessMesh | None, dims_mapping, partial,
               placements) -> "TensorDistAttr":
        """The attribute a program text writes: ``placements`` as printed, or None when the text
        has none. Trailing ``Replicate()`` entries beyond the mesh's dimensions are kept as
        :attr:`extra_replicates` (Paddle's two-placement quirk; ``verify`` warns about them).
        Both parsers build attributes here, so they give one answer.

        Raises ``ValueError`` for a null attribute with a mapping, or placements that contradict
        the mapping."""
        if mesh is None:
            if dims_mapping or partial or placements:
                raise ValueError("a null dist attribute (empty mesh) has no dims_mappings")
            return cls(None)
        attr = cls(mesh, dims_mapping, partial, show_placements=placements is not None)
        if placements is None:
            return attr
        placements = tuple(placements)
        extra = placements[mesh.ndim:]
        if extra and all(isinstance(p, Replicate) for p in extra):
            attr.check_placements(placements[:mesh.ndim])
            return attrs.evolve(attr, extra_replicates=len(extra))
        attr.check_placements(placements)
        return attr

    def check_placements(self, placements) -> None:
        """``ValueError`` unless ``placements`` (as printed) agree with the mapping."""
        if tuple(placements) != self.placements:
            raise ValueError(
                "placements [" + ", ".join(map(str, placements)) + "] do not match "
                f"dims_mappings {list(self.dims_mapping)} and partial {list(self.partial)}"
            )

    @classmethod
    def from_placements(cls, mesh: ProcessMesh, ndim: int, placements) -> "TensorDistAttr":
        """Build from one placement per mesh dimension for a tensor of rank ``ndim``."""
        dims_mapping = [-1] * ndim
        partial = []
        for mesh_dim, p in enumerate(placements):
            if isinstance(p, Shard):
                dims_mapping[p.dim] = mesh_dim
            elif isinstance(p, Partial):
                partial.append((mesh_dim, p.reduce_type))
        return cls(mesh, tuple(dims_mapping), tuple(partial))

    @property
    def is_null(self) -> bool:
        """True for the null attribute (no mesh)."""
        return self.mesh is None


NULL_DIST = TensorDistAttr(None)


@attrs.frozen(cache_hash=True)
class OperationDistAttr:
    """An op's dist attribute: its mesh, one :class:`TensorDistAttr` per operand and result (a
    vector operand or result holds a tuple of them), and its ``chunk_id`` (-1 = unset).

    Source: ``paddle/fluid/pir/dialect/distributed/ir/dist_attribute.h``
    (``OperationDistAttribute``).
    """

    mesh: ProcessMesh
    operands: tuple = attrs.field(converter=tuple, default=())
    results: tuple = attrs.field(converter=tuple, default=())
    chunk_id: int = -1


# --------------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------------


def _check_dtype(instance, attribute, value):
    if value not in DTYPE_TO_ELEMENT:
        raise ValueError(f"unknown dtype {value!r}")


def dimension_problem(d: int) -> str | None:
    """What is wrong with ``d`` as a tensor dimension, or None: -1 is Paddle's dynamic size; no
    other negative size means anything. (The parsers ask per dimension, to point at it.)"""
    if d < -1:
        return f"dimension {d} of a tensor shape; sizes are >= 0, or -1 for a dynamic size"
    return None


def _check_shape(instance, attribute, value):
    for d in value:
        problem = dimension_problem(d)
        if problem:
            raise ValueError(problem)


@attrs.frozen(cache_hash=True)
class DenseTensorType:
    """``tensor<4x8xf32>``: a shape (``-1`` = dynamic; ``()`` = 0-d) and a dtype name
    (``"float32"``, ``"int64"``, ``"bool"``, ...)."""

    shape: tuple[int, ...] = attrs.field(converter=_int_tuple, validator=_check_shape)
    dtype: str = attrs.field(validator=_check_dtype)

    def local_shape(self, rank: int) -> tuple[int, ...]:
        """A dense tensor is the same on every rank."""
        return self.shape


def shard_size(global_size: int, parts: int, index: int) -> int:
    """Size of piece ``index`` when ``global_size`` is split in ``parts``: leading pieces get the
    ceiling, the last piece the remainder (Paddle's uneven split rule). -1 stays -1."""
    if global_size < 0:
        return -1
    step = -(-global_size // parts)
    start = min(step * index, global_size)
    return min(step, global_size - start)


def shard_bounds(global_size: int, parts: int, index: int) -> tuple[int, int]:
    """``[start, stop)`` of piece ``index`` under the uneven split rule of :func:`shard_size`."""
    step = -(-global_size // parts)
    start = min(step * index, global_size)
    return start, min(start + step, global_size)


@attrs.frozen(cache_hash=True)
class DistTensorType:
    """``pd_dist.tensor<...>``: the global shape and dtype of a distributed tensor and its
    :class:`TensorDistAttr` (not null)."""

    shape: tuple[int, ...] = attrs.field(converter=_int_tuple, validator=_check_shape)
    dtype: str = attrs.field(validator=_check_dtype)
    dist: TensorDistAttr = attrs.field()

    def __attrs_post_init__(self):
        if self.dist.is_null:
            raise ValueError("a dist tensor type needs a process mesh")
        if len(self.dist.dims_mapping) != len(self.shape):
            raise ValueError(
                f"dims_mappings {list(self.dist.dims_mapping)} has {len(self.dist.dims_mapping)} "
                f"entries for a tensor of rank {len(self.shape)}"
            )

    @property
    def mesh(self) -> ProcessMesh:
        """The process mesh."""
        return self.dist.mesh

    @property
    def dims_mapping(self) -> tuple[int, ...]:
        """Tensor dim → mesh dim (or -1)."""
        return self.dist.dims_mapping

    @property
    def placements(self) -> tuple[Placement, ...]:
        """One placement per mesh dimension."""
        return self.dist.placements

    def local_shape(self, rank: int) -> tuple[int, ...]:
        """The shape of ``rank``'s piece: each sharded dim split by the uneven rule (leading ranks
        get the ceiling). A rank outside the mesh gets the global shape (Paddle's convention)."""
        mesh = self.dist.mesh
        if rank not in mesh:
            return self.shape
        coord = mesh.coordinate(rank)
        out = list(self.shape)
        for tensor_dim, mesh_dim in enumerate(self.dist.dims_mapping):
            if mesh_dim >= 0:
                out[tensor_dim] = shard_size(out[tensor_dim], mesh.shape[mesh_dim], coord[mesh_dim])
        return tuple(out)

    def local_type(self, rank: int) -> DenseTensorType:
        """The dense type ``rank`` holds."""
        return DenseTensorType(self.local_shape(rank), self.dtype)


@attrs.frozen(cache_hash=True)
class VectorType:
    """``vec[tensor<...>,tensor<...>]``: the type of a ``builtin.combine`` result."""

    items: tuple = attrs.field(converter=tuple)


@attrs.frozen(cache_hash=True)
class NullType:
    """``<<NULL TYPE>>``: the type of a missing value."""


NULL_TYPE = NullType()

Type = Union[DenseTensorType, DistTensorType, VectorType, NullType]


def is_dist(t) -> bool:
    """True when ``t`` is or contains a :class:`DistTensorType`."""
    if isinstance(t, DistTensorType):
        return True
    if isinstance(t, VectorType):
        return any(is_dist(i) for i in t.items)
    return False


def local_type(t, rank: int):
    """The dense type ``rank`` holds for type ``t`` (vectors item by item)."""
    if isinstance(t, DistTensorType):
        return t.local_type(rank)
    if isinstance(t, VectorType):
        return VectorType(tuple(local_type(i, rank) for i in t.items))
    return t
