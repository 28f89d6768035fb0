"""Result shapes of a serial program's ops, re-derived from their operands.

A hook that transposes (sequence parallel: ``[b, s, h]`` <-> ``[s, b, h]``) changes the shapes
downstream of it, so ``rulepass parallelize`` re-derives each op's result shapes from its
operands' with Paddle's InferMeta logic (``paddle/phi/infermeta/``): :data:`SHAPE_RULES`, a table
keyed by op name. Ops not listed keep their printed shapes. Also the constant operands the SPMD
rules read (``full_int_array`` axes, a ``full`` scalar).
"""

from __future__ import annotations

from typing import Callable


def int_array(value) -> list[int] | None:
    """The ``value`` of the ``pd_op.full_int_array`` making ``value``, or None."""
    producer = getattr(value, "owner", None)
    if producer is None or producer.name != "pd_op.full_int_array":
        return None
    return list(producer.attributes.get("value", []))


def full_value(value):
    """The ``value`` attribute of the ``pd_op.full`` making ``value``, or None."""
    producer = getattr(value, "owner", None)
    if producer is None or producer.name != "pd_op.full":
        return None
    return producer.attributes.get("value")


def shape_of(v) -> list[int]:
    """The shape of value ``v``'s (tensor) type, as a list."""
    return list(v.type.shape)


def _broadcast(op):
    shapes = [shape_of(v) for v in op.operands if v is not None]
    rank = max(len(s) for s in shapes)
    out = []
    for axis in range(rank):
        sizes = [s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0]
        out.append(max(sizes) if all(x != -1 for x in sizes) else -1)
    return [out]


def _same_as_first(op):
    return [shape_of(op.operands[0])] * len(op.results)


def _matmul_shape(op):
    x, y = shape_of(op.operands[0]), shape_of(op.operands[1])
    m = x[-1] if op.attributes.get("transpose_x") else x[-2]
    n = y[-2] if op.attributes.get("transpose_y") else y[-1]
    return [x[:-2] + [m, n]]


def _layer_norm_shape(op):
    x = shape_of(op.operands[0])
    begin = int(op.attributes.get("begin_norm_axis", 1))
    return [x, x[:begin], x[:begin]]


def _transpose_shape(op):
    x = shape_of(op.operands[0])
    return [[x[p % len(x)] for p in op.attributes.get("perm", [])]]


def _reduction_shape(op):
    x = shape_of(op.operands[0])
    axes = int_array(op.operands[1]) if len(op.operands) > 1 else None
    axes = list(range(len(x))) if not axes else [a % len(x) for a in axes]
    keep = bool(op.attributes.get("keepdim"))
    return [[1 if a in axes else n for a, n in enumerate(x) if keep or a not in axes]]


def _reshape_shape(op):
    x = shape_of(op.operands[0])
    target = int_array(op.operands[1]) if len(op.operands) > 1 else None
    if target is None:
        return None
    out = [x[i] if t == 0 else t for i, t in enumerate(target)]
    if -1 in out:
        known = 1
        for t in out:
            known *= t if t != -1 else 1
        total = 1
        for n in x:
            total *= n
        out[out.index(-1)] = total // known if known else -1
    return [out]


def _embedding_shape(op):
    return [shape_of(op.operands[0]) + [shape_of(op.operands[1])[1]]]


def _cross_entropy_shape(op):
    x = shape_of(op.operands[0])
    return [x, x[:-1] + [1]]


def _cumsum_shape(op):
    x = shape_of(op.operands[0])
    if op.attributes.get("flatten"):
        total = 1
        for n in x:
            total *= n
        return [[total]]
    return [x]


def _unsqueeze_shape(op):
    x = shape_of(op.operands[0])
    axes = int_array(op.operands[1]) if len(op.operands) > 1 else None
    if axes is None:
        return None
    rank = len(x) + len(axes)
    new = sorted(a % rank if a < 0 else a for a in axes)
    it = iter(x)
    return [[1 if i in new else next(it) for i in range(rank)]]


SHAPE_RULES: dict[str, Callable] = {
    "pd_op.mean": _reduction_shape,
    "pd_op.sum": _reduction_shape,
    "pd_op.reshape": _reshape_shape,
    "pd_op.embedding": _embedding_shape,
    "pd_op.cross_entropy_with_softmax": _cross_entropy_shape,
    **{name: _same_as_first for name in (
        "pd_op.relu", "pd_op.square", "pd_op.exp", "pd_op.tanh", "pd_op.gelu", "pd_op.silu",
        "pd_op.sigmoid", "pd_op.sqrt", "pd_op.rsqrt", "pd_op.log", "pd_op.cast", "pd_op.assign",
        "pd_op.scale")},
    **{name: _broadcast for name in (
        "pd_op.add", "pd_op.subtract", "pd_op.multiply", "pd_op.divide", "pd_op.maximum",
        "pd_op.minimum")},
    **{name: _broadcast for name in (
        "pd_op.greater_than", "pd_op.greater_equal", "pd_op.less_than", "pd_op.less_equal",
        "pd_op.equal", "pd_op.not_equal")},
    "pd_op.triu": _same_as_first,
    "pd_op.tril": _same_as_first,
    "pd_op.full_like": _same_as_first,
    "pd_op.cumsum": _cumsum_shape,
    "pd_op.unsqueeze": _unsqueeze_shape,
    **{name: _same_as_first for name in (
        "pd_op.abs", "pd_op.sin", "pd_op.cos", "pd_op.erf", "pd_op.floor", "pd_op.ceil",
        "pd_op.sign", "pd_op.reciprocal", "pd_op.clip", "pd_op.dropout")},
    "pd_op.where": _broadcast,
    "pd_op.max": _reduction_shape,
    "pd_op.min": _reduction_shape,
    "pd_op.amax": _reduction_shape,
    "pd_op.amin": _reduction_shape,
    "pd_op.pow": _same_as_first,
    "pd_op.softmax": _same_as_first,
    "pd_op.matmul": _matmul_shape,
    "pd_op.layer_norm": _layer_norm_shape,
    "pd_op.transpose": _transpose_shape,
}


def result_shapes(op) -> list[list[int]] | None:
    """The global shapes of ``op``'s results from its operands' (None: keep the printed ones)."""
    rule = SHAPE_RULES.get(op.name)
    return rule(op) if rule is not None else None
