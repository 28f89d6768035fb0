"""Global arrays -> the piece one rank holds, from a distributed type; and micro-batch slicing.

Used to load a captured configuration's global parameters (``params.npz``) and batches
(``data.npz``) into each rank of its dense programs: the dense program has lost its dist types, so
the placement is read from the same rank's program before Paddle's ``dist2dense`` pass
(``*_before_dist2dense.pir``), where every ``builtin.parameter`` and ``pd_op.data`` has a
``pd_dist.tensor<...>`` type.

Pieces follow Paddle's rule for uneven shards (leading pieces get the ceiling; see
``engine.types.shard_bounds``). Partial placements are not pieces of a global array and are refused.

Batches (``tests/data/paddle/README.md``): micro-batch ``m`` of ``k`` is rows ``m*B/k .. (m+1)*B/k``
of the step's batch of ``B`` samples, split in order; with data parallelism that micro-batch is then
split again, in order, along the dp mesh dimension. This is what the dist type of a pipeline's
``pd_op.data`` says: its global shape is one micro-batch (``[4,8]`` for dp2_pp2, global batch 8,
two micro-batches) sharded ``Shard(0)`` along dp. So :func:`rank_micro_batch` slices first, then
shards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulepass.engine.errors import RuntimeFailure
from rulepass.engine.ir.core import Program
from rulepass.engine.ir.types import DistTensorType, shard_bounds

__all__ = ["ShardingError", "dist_types", "local_piece", "micro_batch", "rank_micro_batch", "shard_parameters"]


class ShardingError(RuntimeFailure, ValueError):
    """A global array does not fit the dist type, or a batch does not split into micro-batches
    (a :class:`RuntimeFailure`, so the CLI reports it as one message)."""


def dist_types(program: Program) -> dict[str, dict[str, DistTensorType]]:
    """``{"parameters": {parameter_name: type}, "data": {data name: type}}`` for the dist-typed
    ``builtin.parameter`` and ``pd_op.data`` ops of a (pre-``dist2dense``) program."""
    out: dict[str, dict[str, DistTensorType]] = {"parameters": {}, "data": {}}
    for op in program.walk():
        if not op.results or not isinstance(op.results[0].type, DistTensorType):
            continue
        if op.name == "builtin.parameter":
            out["parameters"][op.attr("parameter_name")] = op.results[0].type
        elif op.name == "pd_op.data":
            out["data"][op.attr("name")] = op.results[0].type
    return out


def local_piece(array: Any, dist_type: DistTensorType, rank: int) -> Any:
    """The piece of global ``array`` that ``rank`` holds under ``dist_type``.

    Each tensor dim mapped to a mesh dim is cut into that mesh dim's size and the rank's coordinate
    picks the piece. A rank outside the mesh gets the whole array.
    Raises ShardingError for a shape mismatch or a partial placement.
    """
    if dist_type.dist.partial:
        raise ShardingError(f"{dist_type} is partial; a partial tensor is not a piece of a global one")
    shape = tuple(array.shape)
    expected = tuple(dist_type.shape)
    if len(shape) != len(expected) or any(e >= 0 and s != e for s, e in zip(shape, expected)):
        raise ShardingError(f"global array of shape {list(shape)} does not fit {list(expected)}")
    mesh = dist_type.mesh
    if rank not in mesh:
        return array
    coordinate = mesh.coordinate(rank)
    index = []
    for dim, mesh_dim in enumerate(dist_type.dims_mapping):
        if mesh_dim < 0:
            index.append(slice(None))
        else:
            start, stop = shard_bounds(shape[dim], mesh.shape[mesh_dim], coordinate[mesh_dim])
            index.append(slice(start, stop))
    return array[tuple(index)]


def micro_batch(array: Any, micro_batches: int, index: int) -> Any:
    """Micro-batch ``index`` of ``micro_batches`` equal slices of ``array`` along axis 0.

    Raises ShardingError when ``micro_batches`` does not divide axis 0.
    """
    size = array.shape[0]
    if micro_batches < 1 or size % micro_batches:
        raise ShardingError(f"{micro_batches} micro-batches do not divide a batch of {size} samples")
    step = size // micro_batches
    return array[index * step:(index + 1) * step]


def rank_micro_batch(batch: Any, dist_type: DistTensorType | None, rank: int, micro_batches: int,
                     index: int) -> Any:
    """``rank``'s piece of micro-batch ``index`` of a step's global batch (axis 0 = samples).

    ``dist_type``: the type of the program's ``pd_op.data`` (its shape is one global micro-batch);
    None means the micro-batch is replicated. Raises ShardingError.
    """
    chunk = micro_batch(batch, micro_batches, index)
    return chunk if dist_type is None else local_piece(chunk, dist_type, rank)


def shard_parameters(global_params: Mapping[str, Any], types: Mapping[str, DistTensorType],
                     rank: int, names) -> dict[str, Any]:
    """``{name: rank's piece}`` for each parameter in ``names`` (a dense program's parameters).

    Raises ShardingError when a name has no global value or no dist type."""
    out = {}
    for name in names:
        if name not in global_params:
            raise ShardingError(f"parameter {name!r} has no global value")
        if name not in types:
            raise ShardingError(f"parameter {name!r} has no dist type in the dist program")
        out[name] = local_piece(global_params[name], types[name], rank)
    return out
