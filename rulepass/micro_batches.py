"""``rulepass run --micro-batches M``: re-derive the micro-batch dimension of a forward dist
program captured for another micro-batch count.

Paddle prints the forward program for one micro-batch: every ``pd_op.data`` input (not the
learning rate, not a persistable) has dim 0 = global batch / micro-batches, and so has the dim of
every value computed from it that holds the batch. :func:`rebatch` rescales those dims from the
captured micro-batch size to ``global batch / M``: on the data ops (their ``shape`` attribute and
result type) and on the results of the ops the batch flows through, op by op in program order.

A value holds the batch in one dim, possibly merged with inner dims (``[b * s, h]`` after a
reshape of ``[b, s, h]``): its *batch position* is ``(dim, inner)``, the dim's size being
``micro-batch size * inner``. How an op carries it is a table keyed by op name
(:data:`BATCH_RULES`): elementwise ops and activations keep it (aligned by broadcasting),
``transpose`` moves it, ``reshape``/``flatten``/``unsqueeze``/``squeeze``/``slice`` follow it,
``matmul`` keeps it from x, ``embedding`` from the ids, reductions keep it unless they reduce it
(a reduction of every axis, the loss, drops it; one over the batch and not every axis is
refused), the vector ops (``builtin.combine``/``split``, ``concat``, ``split``, ``stack``,
``unbind``) carry it item by item. A ``reshape`` or ``expand`` whose shape operand spells the
batch size out gets its constant rewritten (a copy of the ``pd_op.full_int_array`` when other ops
read it too). An op outside the table that reads a batched value, a value not computed from the
inputs that has the batch size where a batched one broadcasts with it (a constant shaped by the
batch), and an op that would mix the batch into other dims are errors naming the op, so the
program is never guessed at. Dist types keep their placements (a ``Shard(0)`` along data
parallelism divides the new size as it divided the old).

Equivalent to capturing the program again with Paddle's ``accumulate_steps = M`` for the same
global batch (``micro_batch_size = global batch / M``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs

from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.ir.types import DenseTensorType, DistTensorType, VectorType
from rulepass.example import ExampleError

__all__ = ["BATCH_RULES", "UNKNOWN", "batch_positions", "rebatch", "rederive_micro_batches"]


class _Refused(Exception):
    """An op the batch cannot be followed through (the message says why)."""


Position = tuple[int, int]
"""``(dim, inner)``: the dim holding the batch, of size micro-batch size × ``inner``."""

Rule = Callable[[Operation, dict, "_Context"], dict]
"""``rule(op, batched, context) -> {result index: position}``; ``batched`` maps each operand
index that holds the batch to its position (a tuple of positions or None per item for a
vector operand). Raises ``_Refused``."""


class _Context:
    """What rules may ask: the old micro-batch size, constants, and a way to rewrite a shape
    constant."""

    def __init__(self, program: Program, old: int, new: int):
        self.program = program
        self.old = old
        self.new = new
        self.before: dict = {}  # value -> its type before rebatch resized it
        self.expanded: dict = {}  # expands shaped by the batch -> their batch position

    def shape(self, v: Value | None) -> tuple:
        """The shape of tensor value ``v`` as captured (before rebatching), () for others."""
        t = self.before.get(v, v.type if v is not None else None)
        return tuple(t.shape) if isinstance(t, (DenseTensorType, DistTensorType)) else ()

    def constant(self, op: Operation, index: int, attr: str | None = None) -> list[int] | None:
        """The ints of operand ``index`` when a ``pd_op.full_int_array``/``pd_op.full`` makes
        it, else the attribute ``attr``, else None."""
        v = op.operand(index) if index < op.num_operands else None
        owner = v.owner if v is not None else None
        if owner is not None and owner.name in ("pd_op.full_int_array", "pd_op.full"):
            value = owner.attr("value")
            return [int(x) for x in value] if isinstance(value, (list, tuple)) else [int(value)]
        value = op.attr(attr) if attr else None
        if value is None:
            return None
        return [int(x) for x in value] if isinstance(value, (list, tuple)) else [int(value)]

    def shaped_by_batch(self, v: Value, dim: int, inner: int) -> bool:
        """Whether ``v`` is an ``expand`` (of a value without the batch) to a shape spelling the
        micro-batch size out in ``dim`` (``x.expand([b, s, h])`` with ``b`` read from an
        activation's shape, which Paddle prints as a constant): then its constant is rewritten
        and ``v`` resized, and True."""
        op = v.owner
        target = self.constant(op, 1, "shape") if op is not None and \
            op.name == "pd_op.expand" else None
        if target is None or dim >= len(target) or target[dim] != self.old * inner:
            return False
        if dim < len(target) - _rank(op.operand(0)):  # an axis the expand adds
            self.rewrite_constant(op, 1, dim, self.new * inner)
            if self.old != self.new:
                self.before[v] = v.type
                v.set_type(_resized(v.type, (dim, inner), self.old, self.new, op.name))
            self.expanded[v] = (dim, inner)
            return True
        return False

    def rewrite_constant(self, op: Operation, index: int, position: int, value: int) -> None:
        """Set entry ``position`` of the ``pd_op.full_int_array`` operand ``index`` of ``op``
        to ``value`` (on a copy when other ops read it)."""
        v = op.operand(index)
        owner = v.owner
        values = list(owner.attr("value"))
        if values[position] == value:
            return
        values[position] = value
        if v.num_uses > 1:  # a copy right before it, read by op only
            copy = owner.clone()
            owner.block.insert_before(owner, copy)
            op.set_operand(index, copy.result)
            owner = copy
        owner.set_attr("value", type(owner.attr("value"))(values))


def _rank(v: Value | None) -> int:
    t = v.type if v is not None else None
    return len(t.shape) if isinstance(t, (DenseTensorType, DistTensorType)) else 0


def _elementwise(op: Operation, batched: dict, ctx: _Context) -> dict:
    """Every tensor result broadcast from the operands: the batch keeps its (right-aligned)
    dim; an operand without the batch must broadcast there (size 1)."""
    rank = max((_rank(r) for r in op.results), default=0)
    aligned = set()
    for i, (dim, inner) in batched.items():
        aligned.add((dim + rank - _rank(op.operand(i)), inner))
    if len(aligned) != 1:
        raise _Refused("its operands hold the micro-batch in different dims")
    ((dim, inner),) = aligned
    for i, v in enumerate(op.operands):
        if i in batched or v is None or not isinstance(v.type, (DenseTensorType, DistTensorType)):
            continue
        at = dim - (rank - _rank(v))
        if 0 <= at < _rank(v) and ctx.shape(v)[at] not in (1, -1):
            if not ctx.shaped_by_batch(v, at, inner):
                raise _Refused(f"operand {i} is not computed from the inputs but has size "
                               f"{ctx.shape(v)[at]} where the micro-batch broadcasts with it (a "
                               "value shaped by the batch other than an expand)")
    return {k: (dim - (rank - _rank(r)), inner) for k, r in enumerate(op.results)
            if _rank(r) == rank}


def _from_operand(index: int, results=(0,)) -> Rule:
    """The batch of operand ``index`` in the same dim of the given results (embedding's ids)."""

    def rule(op, batched, ctx):
        others = set(batched) - {index}
        if others:
            raise _Refused(f"the micro-batch reaches operand {min(others)}, which it cannot carry")
        return {k: batched[index] for k in results if k < len(op.results)}

    return rule


def _matmul(op, batched, ctx):
    """The batch of x in its batch dims or rows; of both x and y in a batch dim of both (a
    batched product, attention's ``q @ k^T``)."""
    rank = _rank(op.results[0])
    if 1 in batched:
        (dx, ix), (dy, iy) = batched.get(0, (None, None)), batched[1]
        rank_x, rank_y = _rank(op.operand(0)), _rank(op.operand(1))
        if dx is None or dy >= rank_y - 2 or dx >= rank_x - 2 or ix != iy \
                or dx + rank - rank_x != dy + rank - rank_y:
            raise _Refused("the micro-batch reaches the weight side")
        return {0: (dx + rank - rank_x, ix)}
    dim, inner = batched[0]
    rank_x = _rank(op.operand(0))
    if dim < rank_x - 2 or (dim == rank_x - 2 and not op.attr("transpose_x", False)):
        return {0: (dim + rank - rank_x, inner)}
    raise _Refused("the micro-batch is in a contracted dim of x")


def _transpose(op, batched, ctx):
    dim, inner = batched[0]
    perm = [p % _rank(op.operand(0)) for p in op.attr("perm")]
    return {0: (perm.index(dim), inner)}


def _reshape(op, batched, ctx):
    """The batch stays the outermost factor of the result dim whose leading dims hold the same
    elements; an explicit size there is rewritten."""
    dim, inner = batched[0]
    shape_in, shape_out = ctx.shape(op.operand(0)), ctx.shape(op.results[0])
    outer = math.prod(shape_in[:dim])
    target = ctx.constant(op, 1, "shape")
    for e, size in enumerate(shape_out):
        if math.prod(shape_out[:e]) != outer:
            continue
        if size == 1 and ctx.old != 1 and e < len(shape_out) - 1:
            continue  # a size-1 dim before the batch's (with one sample: the outermost is it)
        if size < 0 or size % ctx.old:
            break
        rest_in = math.prod(shape_in[dim:]) // ctx.old
        if math.prod(shape_out[e:]) // ctx.old != rest_in:
            break
        if target is not None and e < len(target) and target[e] not in (0, -1):
            ctx.rewrite_constant(op, 1, e, size // ctx.old * ctx.new)
        elif target is not None and e < len(target) and target[e] == 0 and e != dim:
            break
        return {0: (e, size // ctx.old)}
    raise _Refused("it mixes the micro-batch into other dims")


def _flatten(op, batched, ctx):
    dim, inner = batched[0]
    rank = _rank(op.operand(0))
    if rank == 0:
        raise _Refused("it flattens a 0-d value")
    start, stop = op.attr("start_axis", 0) % rank, op.attr("stop_axis", -1) % rank
    if dim < start:
        return {0: (dim, inner)}
    if dim > stop:
        return {0: (dim - (stop - start), inner)}
    if dim == start:
        return {0: (start, inner * math.prod(ctx.shape(op.operand(0))[start + 1:stop + 1]))}
    raise _Refused("it merges the micro-batch into an outer dim")


def _unsqueeze(op, batched, ctx):
    dim, inner = batched[0]
    rank_out = _rank(op.results[0])
    axes = ctx.constant(op, 1, "axis") or []
    order = list(range(_rank(op.operand(0))))
    for a in axes:  # inserted one after another, as the kernel
        a = a + len(order) + 1 if a < 0 else a
        order.insert(a, None)
    if len(order) != rank_out:
        raise _Refused("its axes do not give the result's rank")
    return {0: (order.index(dim), inner)}


def _squeeze(op, batched, ctx):
    dim, inner = batched[0]
    shape_in, rank = ctx.shape(op.operand(0)), _rank(op.operand(0))
    axes = [a % rank for a in (ctx.constant(op, 1, "axis") or [])] or list(range(rank))
    dropped = [a for a in axes if shape_in[a] == 1]
    if dim in dropped:
        raise _Refused("it squeezes the micro-batch dim")
    return {0: (dim - sum(1 for a in dropped if a < dim), inner)}


def _reduction(op, batched, ctx):
    dim, inner = batched[0]
    rank = _rank(op.operand(0))
    axes = ctx.constant(op, 1, "axis")
    axes = list(range(rank)) if not axes or op.attr("reduce_all", False) else \
        sorted({a % max(rank, 1) for a in axes})
    if dim not in axes:
        keep = op.attr("keepdim", False)
        return {0: (dim if keep else dim - sum(1 for a in axes if a < dim), inner)}
    if len(axes) == rank:
        return {}  # the loss: the batch is gone
    raise _Refused("it reduces the micro-batch dim but not every dim")


def _gone(op, batched, ctx):
    return {}


def _slice(op, batched, ctx):
    dim, inner = batched[0]
    rank = _rank(op.operand(0))
    axes = [a % rank for a in op.attr("axes", [])]
    if dim in axes:
        raise _Refused("it slices the micro-batch dim")
    decrease = [a % rank for a in op.attr("decrease_axis", [])]
    return {0: (dim - sum(1 for a in decrease if a < dim), inner)}


def _along_axis(index: int = 0, attr: str = "axis", operand: int | None = None) -> Rule:
    """An op along an axis that must not be the batch's (cumsum, softmax, split...): the batch
    keeps its dim in every result (items of a vector result)."""

    def rule(op, batched, ctx):
        dim, inner = batched[index]
        rank = _rank(op.operand(index))
        axis = ctx.constant(op, operand, attr) if operand is not None else [op.attr(attr, -1)]
        if axis and axis[0] % max(rank, 1) == dim:
            raise _Refused("it works along the micro-batch dim")
        out = {}
        for k, r in enumerate(op.results):
            if isinstance(r.type, VectorType):
                out[k] = tuple((dim, inner) for _ in r.type.items)
            elif _rank(r) == rank:
                out[k] = (dim, inner)
        return out

    return rule


def _norm(op, batched, ctx):
    """layer_norm / rms_norm: the batch in the normalized value and in the per-row statistics
    (shaped ``x.shape[:begin_norm_axis]``) when it lies before the normalized dims."""
    if set(batched) != {0}:
        raise _Refused("the micro-batch reaches its scale or bias")
    dim, inner = batched[0]
    out = {0: (dim, inner)}
    for k in range(1, len(op.results)):
        if _rank(op.results[k]) > dim:
            out[k] = (dim, inner)
    return out


def _expand(op, batched, ctx):
    if set(batched) != {0}:
        raise _Refused("the micro-batch reaches its shape operand")
    dim, inner = batched[0]
    at = dim + _rank(op.results[0]) - _rank(op.operand(0))
    target = ctx.constant(op, 1, "shape")
    if target is not None and target[at] not in (-1,):
        ctx.rewrite_constant(op, 1, at, ctx.new * inner)
    return {0: (at, inner)}


def _combine(op, batched, ctx):
    return {0: tuple(batched.get(i) for i in range(op.num_operands))}


def _split_items(op, batched, ctx):
    items = batched[0]
    return {k: p for k, p in enumerate(items) if p is not None}


def _items_dim(items) -> tuple:
    """The one (dim, inner) every item of a vector operand holds the micro-batch in."""
    found = set(items)
    if len(found) != 1 or None in found:
        raise _Refused("its items do not all hold the micro-batch in one dim")
    return next(iter(found))


def _concat(op, batched, ctx):
    dim, inner = _items_dim(batched[0])
    axis = (ctx.constant(op, 1, "axis") or [0])[0] % max(_rank(op.results[0]), 1)
    if axis == dim:
        raise _Refused("it concatenates along the micro-batch dim")
    return {0: (dim, inner)}


def _stack(op, batched, ctx):
    dim, inner = _items_dim(batched[0])
    axis = op.attr("axis", 0) % _rank(op.results[0])
    return {0: (dim + 1 if axis <= dim else dim, inner)}


def _unbind(op, batched, ctx):
    dim, inner = batched[0]
    axis = op.attr("axis", 0) % _rank(op.operand(0))
    if axis == dim:
        raise _Refused("it unbinds the micro-batch dim")
    t = op.results[0].type
    return {0: tuple((dim - (axis < dim), inner) for _ in t.items)}


_ELEMENTWISE = (
    "add", "subtract", "multiply", "divide", "maximum", "minimum", "relu", "gelu", "tanh",
    "sigmoid", "silu", "square", "sqrt", "rsqrt", "exp", "log", "scale", "cast", "assign", "abs",
    "pow", "sin", "cos", "clip", "where", "full_like", "triu", "tril", "dropout", "greater_than",
    "greater_equal", "less_than", "less_equal", "equal", "not_equal", "swiglu")

#: op name -> how the batch reaches its results (see the module docstring)
BATCH_RULES: dict[str, Rule] = {
    **{f"pd_op.{name}": _elementwise for name in _ELEMENTWISE},
    "dist_op.reshard": _elementwise,
    "dist_op.dtensor_to_local": _elementwise,
    "dist_op.dtensor_from_local": _elementwise,
    "pd_op.matmul": _matmul,
    "pd_op.embedding": _from_operand(0),
    "pd_op.c_embedding": _from_operand(1),
    "pd_op.transpose": _transpose,
    "pd_op.reshape": _reshape,
    "pd_op.flatten": _flatten,
    "pd_op.unsqueeze": _unsqueeze,
    "pd_op.squeeze": _squeeze,
    "pd_op.slice": _slice,
    "pd_op.expand": _expand,
    **{f"pd_op.{name}": _reduction for name in ("mean", "sum", "max", "min")},
    "pd_op.mean_all": _gone,
    "pd_op.masked_select": _gone,  # a data-dependent length: no static dim to rescale
    "builtin.shadow_output": _gone,
    "pd_op.softmax": _along_axis(attr="axis"),
    "pd_op.cumsum": _along_axis(operand=1),
    "pd_op.cross_entropy_with_softmax": _along_axis(attr="axis"),
    "pd_op.layer_norm": _norm,
    "pd_op.rms_norm": _norm,
    "builtin.combine": _combine,
    "builtin.split": _split_items,
    "pd_op.concat": _concat,
    "pd_op.split": _along_axis(operand=2),
    "pd_op.split_with_num": _along_axis(operand=1),
    "pd_op.stack": _stack,
    "pd_op.unbind": _unbind,
}


def _is_fed(op: Operation) -> bool:
    persistable = op.attr("persistable", [False])
    return (op.name == "pd_op.data" and op.attr("name") != "learning_rate_0"
            and not (isinstance(persistable, list) and any(persistable)))


def _resized(t, position: Position, old: int, new: int, where: str):
    dim, inner = position
    shape = list(t.shape)
    if dim >= len(shape) or shape[dim] != old * inner:
        raise ExampleError(f"{where}: expected dim {dim} of {shape} to hold the micro-batch "
                           f"size {old}" + (f" times {inner}" if inner != 1 else ""))
    shape[dim] = new * inner
    if isinstance(t, DistTensorType):
        return attrs.evolve(t, shape=tuple(shape))
    if isinstance(t, DenseTensorType):
        return DenseTensorType(tuple(shape), t.dtype)
    raise ExampleError(f"{where}: cannot resize a value of type {t}")


def _resize(value: Value, position, old: int, new: int, where: str, before: dict) -> None:
    t = value.type
    before[value] = t
    if isinstance(t, VectorType):
        items = tuple(_resized(item, p, old, new, where) if p is not None else item
                      for item, p in zip(t.items, position))
        value.set_type(VectorType(items))
    else:
        value.set_type(_resized(t, position, old, new, where))


def rebatch(program: Program, old: int, new: int, file: str = "forward.pir") -> None:
    """Rescale the micro-batch dims of `program` in place from `old` to `new` samples (see the
    module docstring). Raises ExampleError naming the op when the batch reaches an op it cannot
    follow, or a value whose batch dim does not have the micro-batch size."""
    if old == new:
        return
    _trace(program, _Context(program, old, new), file, strict=True)


def batch_positions(program: Program, size: int) -> dict:
    """Value -> its batch position ``(dim, inner)`` for every value of `program` that holds the
    micro-batch of ``size`` samples (a tuple per item for a vector), or :data:`UNKNOWN` past an
    op the batch cannot be followed through; the program is left unchanged."""
    return _trace(program, _Context(program, size, size), "program", strict=False)


UNKNOWN = "unknown"
"""The batch position of a value computed from the batch by an op :func:`batch_positions`
cannot follow."""


def _trace(program: Program, context: _Context, file: str, strict: bool) -> dict:
    old, new = context.old, context.new
    batch: dict = {}  # value -> position (a tuple of positions for a vector)
    for op in list(program.block):
        where = f"{file}: {op.name}"
        if _is_fed(op):
            value = op.results[0]
            batch[value] = (0, 1)
            if old == new:
                continue
            shape = op.attr("shape")
            if isinstance(shape, (list, tuple)) and shape and shape[0] == old:
                op.set_attr("shape", type(shape)([new, *shape[1:]]))
            _resize(value, (0, 1), old, new, where, context.before)
            continue
        batched = {i: batch[v] for i, v in enumerate(op.operands)
                   if v is not None and v in batch}
        if not batched:
            continue
        rule = BATCH_RULES.get(op.name)
        lost = any(p == UNKNOWN for p in batched.values())
        if not strict and (rule is None or lost):
            batch.update((r, UNKNOWN) for r in op.results)
            continue
        if rule is None:
            raise ExampleError(f"{where} reads a value that holds the micro-batch, and how that "
                               "op carries the batch is not known (rulepass/micro_batches.py "
                               "BATCH_RULES); run with the example's own --micro-batches")
        try:
            positions = rule(op, batched, context)
        except _Refused as refused:
            if not strict:
                batch.update((r, UNKNOWN) for r in op.results)
                continue
            raise ExampleError(f"{where}: {refused}; the micro-batch dimension cannot be "
                               "re-derived through it (run with the example's own "
                               "--micro-batches)") from None
        for k, position in positions.items():
            value = op.results[k]
            if old != new:
                _resize(value, position, old, new, where, context.before)
            batch[value] = position
        batch.update(context.expanded)
        context.expanded.clear()
    return batch


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
