"""``rulepass run --micro-batches M``: re-derive the micro-batch dimension of a forward dist
program captured for another micro-batch count.

Paddle prints the forward program for one micro-batch: every ``pd_op.data`` input (not the
learning rate, not a persistable) has dim 0 = global batch / micro-batches, and so has every value
computed from it along the batch. :func:`rebatch` rescales that dim 0 from the captured
micro-batch size to ``global batch / M``: on the data ops (their ``shape`` attribute and result
type) and on the results of the ops the batch flows through, op by op in program order. How an op
carries the batch is a table keyed by op name (:data:`CARRIES_BATCH`): most keep it in result 0
(elementwise, activations, ``matmul`` with the batch in x, dist conversions); reductions over every
axis (``mean``, ``sum`` without axes) drop it. An op outside the table that reads a batched value
is an error naming it, so the program is never guessed at. Dist types keep their placements (a
``Shard(0)`` along data parallelism divides the new size as it divided the old).

Equivalent to capturing the program again with Paddle's ``accumulate_steps = M`` for the same
global batch (``micro_batch_size = global batch / M``).
"""

from __future__ import annotations

import attrs

from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.ir.types import DenseTensorType, DistTensorType
from rulepass.example import ExampleError

__all__ = ["CARRIES_BATCH", "rebatch", "rederive_micro_batches"]

_KEEP = "keep"      # result 0 is batched when an operand is (others broadcast; matmul: x only)
_REDUCE = "reduce"  # a reduction: batched result only when axis 0 is kept (not supported), else none

#: op name -> how the batch (dim 0 of operand 0) reaches its results
CARRIES_BATCH: dict[str, str] = {
    **{f"pd_op.{name}": _KEEP for name in (
        "add", "subtract", "multiply", "divide", "maximum", "minimum", "relu", "gelu", "tanh",
        "sigmoid", "silu", "square", "sqrt", "exp", "log", "scale", "cast", "assign", "matmul",
        "softmax", "abs", "pow")},
    "dist_op.reshard": _KEEP,
    "dist_op.dtensor_to_local": _KEEP,
    "dist_op.dtensor_from_local": _KEEP,
    "pd_op.mean": _REDUCE,
    "pd_op.sum": _REDUCE,
    "builtin.shadow_output": _REDUCE,
}


def _is_fed(op: Operation) -> bool:
    persistable = op.attr("persistable", [False])
    return (op.name == "pd_op.data" and op.attr("name") != "learning_rate_0"
            and not (isinstance(persistable, list) and any(persistable)))


def _resized(t, old: int, new: int, where: str):
    shape = list(t.shape)
    if not shape or shape[0] != old:
        raise ExampleError(f"{where}: expected dim 0 of {shape} to be the micro-batch size {old}")
    shape[0] = new
    if isinstance(t, DistTensorType):
        return attrs.evolve(t, shape=tuple(shape))
    if isinstance(t, DenseTensorType):
        return DenseTensorType(tuple(shape), t.dtype)
    raise ExampleError(f"{where}: cannot resize a value of type {t}")


def _reduces_batch(op: Operation) -> bool:
    """A mean/sum over every axis (axis [] or absent, or reduce_all): the batch is gone."""
    if op.name == "builtin.shadow_output":
        return True
    if op.attr("reduce_all", False):
        return True
    axis = op.attr("axis")
    if axis is None and op.num_operands > 1:
        producer = op.operand(1).owner if op.operand(1) is not None else None
        axis = producer.attr("value") if isinstance(producer, Operation) else None
    return axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0)


def rebatch(program: Program, old: int, new: int, file: str = "forward.pir") -> None:
    """Rescale the micro-batch dim of `program` in place from `old` to `new` samples (see the
    module docstring). Raises ExampleError naming the op when the batch reaches an op the table
    does not know, or a value whose dim 0 is not the micro-batch size."""
    if old == new:
        return
    batched: set[int] = set()  # id() of values that carry the batch in dim 0
    for op in program.block:
        where = f"{file}: {op.name}"
        if _is_fed(op):
            shape = op.attr("shape")
            if isinstance(shape, (list, tuple)) and shape and shape[0] == old:
                op.set_attr("shape", type(shape)([new, *shape[1:]]))
            value = op.results[0]
            value.set_type(_resized(value.type, old, new, where))
            batched.add(id(value))
            continue
        reads = [i for i, v in enumerate(op.operands) if v is not None and id(v) in batched]
        if not reads:
            continue
        how = CARRIES_BATCH.get(op.name)
        if how is None:
            raise ExampleError(f"{where} reads a value whose dim 0 is the micro-batch, and how that "
                               "op carries the batch is not known (rulepass/micro_batches.py "
                               "CARRIES_BATCH); run with the example's own --micro-batches")
        if how == _REDUCE:
            if not _reduces_batch(op):
                raise ExampleError(f"{where} reduces over some axes only; the micro-batch "
                                   "dimension cannot be re-derived through it")
            continue
        if op.name == "pd_op.matmul" and (reads != [0] or op.attr("transpose_x", False)):
            raise ExampleError(f"{where}: the micro-batch reaches the weight side or a transposed "
                               "x; the micro-batch dimension cannot be re-derived through it")
        value = op.results[0]
        value.set_type(_resized(value.type, old, new, where))
        batched.add(id(value))


def rederive_micro_batches(example, forward: Program, micro_batches: int) -> None:
    """Rebatch `example`'s parsed forward program for `micro_batches` micro-batches (in place).

    The global batch is dim 1 of the example's ``data.npz`` arrays (``[steps, batch, ...]``).
    Raises ExampleError when `micro_batches` does not divide it, or when a fed input sharded
    along the batch (``Shard(0)``, data parallelism) could not split the new micro-batch evenly
    over its ranks (a rank would get fewer samples than another, or none)."""
    captured = example.parallel.micro_batches
    if micro_batches == captured:
        return
    batches = {int(array.shape[1]) for array in example.data.values() if array.ndim >= 2}
    if len(batches) != 1:
        raise ExampleError(f"{example.path / 'data.npz'}: the arrays disagree on the global batch "
                           f"({sorted(batches)}); cannot re-derive the micro-batch size")
    batch = batches.pop()
    if batch % micro_batches or batch % captured:
        raise ExampleError(f"--micro-batches {micro_batches} does not divide the global batch of "
                           f"{batch} samples of {example.path.name}; choose a divisor of {batch}")
    size = batch // micro_batches
    for op in forward.block:
        t = op.results[0].type if _is_fed(op) else None
        if isinstance(t, DistTensorType) and t.dims_mapping and t.dims_mapping[0] >= 0:
            ranks = t.mesh.shape[t.dims_mapping[0]]
            if size % ranks:
                raise ExampleError(
                    f"--micro-batches {micro_batches} makes micro-batches of {size} samples, which "
                    f"the {ranks} ranks sharing input {op.attr('name')!r} along the batch "
                    f"(Shard(0)) cannot split evenly; choose M with {batch} / M divisible by "
                    f"{ranks}")
    rebatch(forward, batch // captured, size, str(example.path / "forward.pir"))
