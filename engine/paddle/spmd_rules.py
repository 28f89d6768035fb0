"""Forward SPMD rules: from the placements of an op's operands, the placements it computes with.

Paddle 3.3.1 runs one SPMD rule per op while a dist program is traced (``paddle/phi/infermeta/
spmd_rules/``: ``elementwise.cc``, ``matmul.cc``, ``reduction.cc``, ``layer_norm.cc``,
``transpose.cc``, ...) and records the result in the op's ``op_dist_attr``: per operand the
dims_mapping/partial it *requires* (a later reshard pass makes the value match), per result what
it *produces*. :data:`SPMD_RULES` is that table, keyed by op name; ``rules/parallelize.rw`` reads
it through the ``spmd_dist`` / ``spmd_result`` functions of ``engine/paddle/parallelize.py``.

Each rule takes ``(op, inputs)`` with ``inputs[i]`` the :class:`TensorDistAttr` of operand ``i``
(``None`` for a missing or dense operand) and returns ``(operand_attrs, result_attrs)`` as lists of
:class:`Placed` (dims_mapping, partial) pairs, or ``None`` for an entry Paddle leaves null.
"""

from __future__ import annotations

from typing import Callable

import attrs

from rulepass.engine.ir.types import TensorDistAttr


@attrs.frozen
class Placed:
    """A dims_mapping and partial dims (``((mesh_dim, "SUM"), ...)``) without a mesh."""

    dims_mapping: tuple[int, ...]
    partial: tuple = ()

    @classmethod
    def of(cls, attr: TensorDistAttr | None, rank: int) -> "Placed":
        """``attr``'s placement, or Replicate for a tensor of rank ``rank`` when ``attr`` is None."""
        if attr is None or attr.is_null:
            return cls((-1,) * rank)
        return cls(tuple(attr.dims_mapping), tuple(attr.partial))

    def replicated_partial(self) -> "Placed":
        """The same dims_mapping with partial dims resolved (the reshard Paddle plans)."""
        return Placed(self.dims_mapping)


Rule = Callable[[object, list], tuple[list, list]]
SPMD_RULES: dict[str, Rule] = {}


def spmd_rule(*names: str):
    """Decorator: register a rule for the op names ``names``."""

    def register(fn: Rule) -> Rule:
        for name in names:
            SPMD_RULES[name] = fn
        return fn

    return register


def _rank(value) -> int:
    shape = getattr(getattr(value, "type", None), "shape", None)
    return len(shape) if shape is not None else 0


def _inputs(op, inputs) -> list[Placed]:
    return [Placed.of(a, _rank(v)) for a, v in zip(inputs, op.operands)]


@spmd_rule("pd_op.relu", "pd_op.square", "pd_op.exp", "pd_op.tanh", "pd_op.gelu", "pd_op.silu",
           "pd_op.sigmoid", "pd_op.sqrt", "pd_op.rsqrt", "pd_op.log", "pd_op.cast", "pd_op.pow",
           "pd_op.assign", "builtin.shadow_output")
def elementwise_unary(op, inputs):
    """Unary ops keep their operand's placement, partial included (``elementwise.cc``
    ElementwiseUnaryInferSpmd); ``builtin.shadow_output`` records its operand as it is."""
    (x,) = _inputs(op, inputs)[:1]
    return [x], [x] * len(op.results)


@spmd_rule("pd_op.scale")
def scale(op, inputs):
    """``scale(x, factor)``: x with its partial dims resolved first (``x * s + b`` of a partial
    sum is not the sum of the pieces' results); the factor tensor replicated."""
    ins = _inputs(op, inputs)
    x = ins[0].replicated_partial()
    factor = [Placed((-1,) * _rank(op.operands[1]))] if len(ins) > 1 else []
    return [x] + factor, [x]


@spmd_rule("pd_op.softmax")
def softmax(op, inputs):
    """``softmax.cc``: the softmax axis replicated, the other axes kept; partial resolved."""
    x = _inputs(op, inputs)[0]
    axis = int(op.attributes.get("axis", -1)) % max(len(x.dims_mapping), 1)
    dims = tuple(-1 if i == axis else m for i, m in enumerate(x.dims_mapping))
    return [Placed(dims)], [Placed(dims)]


@spmd_rule("pd_op.cross_entropy_with_softmax")
def cross_entropy_with_softmax(op, inputs):
    """``cross_entropy_with_softmax.cc``: the class axis of the logits replicated; the label and
    the loss laid out as the logits' other axes (their own class axis, of size 1, replicated);
    results: softmax like the logits, loss like the label."""
    logits, label = _inputs(op, inputs)[:2]
    rank = len(logits.dims_mapping)
    axis = int(op.attributes.get("axis", -1)) % rank
    dims = tuple(-1 if i == axis else m for i, m in enumerate(logits.dims_mapping))
    lab = tuple(-1 if i == axis else m for i, m in enumerate(dims[:len(label.dims_mapping)]))
    return [Placed(dims), Placed(lab)], [Placed(dims), Placed(lab)]


@spmd_rule("pd_op.embedding")
def embedding(op, inputs):
    """``embedding.cc`` as Paddle 3.3.1 registers it for PIR
    (``EmbeddingInferSpmdUnsupportVocabParallel``): the table is required replicated along its
    rows (a vocabulary-sharded table is all-gathered first, no Partial result); the result is
    the ids' layout plus the table's column axis."""
    ids, table = _inputs(op, inputs)[:2]
    col = table.dims_mapping[1]
    kept = tuple(m if m != col else -1 for m in ids.dims_mapping)
    return [Placed(kept), Placed((-1, col))], [Placed(kept + (col,))]


def _product(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


@spmd_rule("pd_op.reshape")
def reshape(op, inputs):
    """``reshape.cc`` (dim_trans), for the splits and merges of consecutive axes: axes are
    grouped where the running products of both shapes meet; in a group, the first input axis's
    sharding goes to the first output axis (when its size divides), any other sharded input axis
    of the group is required replicated."""
    x = _inputs(op, inputs)[0]
    src = _shape(op.operands[0])
    dst = (result_shapes(op) or [list(op.results[0].type.shape)])[0]
    if -1 in src or -1 in dst or _product(src) != _product(dst):
        return [x.replicated_partial()] + [Placed((-1,) * _rank(v)) for v in op.operands[1:]], \
            [Placed((-1,) * len(dst), x.partial)]
    required, out = list(x.dims_mapping), [-1] * len(dst)
    i = j = 0
    while i < len(src) or j < len(dst):
        gi, gj = [i], [j]
        a, b = (src[i] if i < len(src) else 1), (dst[j] if j < len(dst) else 1)
        i, j = i + 1, j + 1
        while a != b:
            if a < b:
                a *= src[i]
                gi.append(i)
                i += 1
            else:
                b *= dst[j]
                gj.append(j)
                j += 1
        gi = [k for k in gi if k < len(src)]
        gj = [k for k in gj if k < len(dst)]
        for k in gi[1:]:
            required[k] = -1
        if gi and gj and required[gi[0]] != -1 and dst[gj[0]] % 1 == 0:
            out[gj[0]] = required[gi[0]]
    rest = [Placed((-1,) * _rank(v)) for v in op.operands[1:]]
    return [Placed(tuple(required), x.partial)] + rest, [Placed(tuple(out), x.partial)]


def _merge(mappings: list[int]) -> int:
    # Paddle's ShardingMergeForTensors: the first sharded mapping wins
    return next((m for m in mappings if m != -1), -1)


@spmd_rule("pd_op.add", "pd_op.subtract", "pd_op.multiply", "pd_op.divide", "pd_op.maximum",
           "pd_op.minimum", "pd_op.greater_than", "pd_op.greater_equal", "pd_op.less_than",
           "pd_op.less_equal", "pd_op.equal", "pd_op.not_equal")
def elementwise_binary(op, inputs):
    """Broadcasting binary ops (``elementwise.cc`` ElementwiseBinaryInferSpmd): tensor axes aligned
    from the right, each output axis sharded as the first operand that shards it, each operand
    required in that layout on its own axes; a Partial operand is required Replicate unless every
    operand is Partial on the same mesh dims of an add/subtract, which then stays Partial."""
    ins = _inputs(op, inputs)
    shapes = [_shape(v) for v in op.operands]
    out_rank = max(len(p.dims_mapping) for p in ins)
    out_shape = [max([s[a - out_rank + len(s)] for s in shapes if a - out_rank + len(s) >= 0])
                 for a in range(out_rank)]

    def padded(p, shape):
        # a broadcast axis (size 1 against a larger one) takes no part ("1" in Paddle's notation)
        lead = out_rank - len(shape)
        return [-1] * lead + [-1 if shape[k] == 1 and out_shape[lead + k] != 1 else m
                              for k, m in enumerate(p.dims_mapping)]

    pads = [padded(p, sh) for p, sh in zip(ins, shapes)]
    merged = tuple(_merge([p[axis] for p in pads]) for axis in range(out_rank))
    partials = {p.partial for p in ins}
    keep_partial = (len(partials) == 1 and ins[0].partial
                    and op.name in ("pd_op.add", "pd_op.subtract"))
    partial = ins[0].partial if keep_partial else ()
    required = []
    for p, sh in zip(ins, shapes):
        lead = out_rank - len(sh)
        required.append(Placed(tuple(-1 if sh[k] == 1 and out_shape[lead + k] != 1
                                     else merged[lead + k] for k in range(len(sh))), partial))
    return required, [Placed(merged, partial)]


@spmd_rule("pd_op.matmul")
def matmul(op, inputs):
    """``matmul.cc`` MatmulInferSpmd: batch and row axes from x, column axis from y, the contracted
    axis merged (x's first); when it is sharded the result is Partial(SUM) over that mesh dim."""
    x, y = _inputs(op, inputs)[:2]
    tx, ty = bool(op.attributes.get("transpose_x")), bool(op.attributes.get("transpose_y"))
    xm, ym = list(x.dims_mapping), list(y.dims_mapping)
    x_row, x_k = (-1, -2) if tx else (-2, -1)
    y_k, y_col = (-1, -2) if ty else (-2, -1)
    k = _merge([xm[x_k], ym[y_k]])
    rank = max(len(xm), len(ym))
    xb = [-1] * (rank - len(xm)) + xm[:-2]
    yb = [-1] * (rank - len(ym)) + ym[:-2]
    batch = [_merge([a, b]) for a, b in zip(xb, yb)]
    free = batch + [xm[x_row], ym[y_col]]
    # a mesh dim claimed by an output axis and by the contraction goes to the output axis
    # (what Paddle 3.3.1 prints for a column-parallel Linear fed a hidden-sharded input)
    if k in free:
        k = -1
    seen: set = set()
    for i, m in enumerate(free):
        if m != -1 and m in seen:
            free[i] = -1
        seen.add(m)
    xm[x_k] = ym[y_k] = k
    xm[x_row], ym[y_col] = free[-2], free[-1]
    xm[:-2] = free[rank - len(xm):-2] if len(xm) > 2 else []
    ym[:-2] = free[rank - len(ym):-2] if len(ym) > 2 else []
    out = tuple(free)
    partial = ((k, "SUM"),) if k != -1 else ()
    return [Placed(tuple(xm)), Placed(tuple(ym))], [Placed(out, partial)]


def _int_array(value) -> list[int] | None:
    producer = getattr(value, "owner", None)
    if producer is None or producer.name != "pd_op.full_int_array":
        return None
    return list(producer.attributes.get("value", []))


@spmd_rule("pd_op.mean", "pd_op.sum")
def reduction(op, inputs):
    """``reduction.cc`` ReductionInferSpmd: the reduced axes (``[]`` = all) leave the result; a
    sharded reduced axis makes it Partial over that mesh dim (AVG for mean, SUM for sum)."""
    ins = _inputs(op, inputs)
    x = ins[0]
    rank = len(x.dims_mapping)
    axes = _int_array(op.operands[1]) if len(op.operands) > 1 else None
    axes = list(range(rank)) if not axes else [a % rank for a in axes]
    keepdim = bool(op.attributes.get("keepdim"))
    out, partial = [], []
    for axis, m in enumerate(x.dims_mapping):
        if axis in axes:
            if m != -1:
                partial.append((m, "AVG" if op.name == "pd_op.mean" else "SUM"))
            if keepdim:
                out.append(-1)
        else:
            out.append(m)
    rest = [Placed((-1,) * len(p.dims_mapping)) for p in ins[1:]]
    return [Placed(x.dims_mapping)] + rest, [Placed(tuple(out), tuple(sorted(partial)))]


@spmd_rule("pd_op.layer_norm")
def layer_norm(op, inputs):
    """``layer_norm.cc`` LayerNormInferSpmd: the normalized axes (from ``begin_norm_axis``)
    replicated; y keeps x's other axes; mean and variance are laid out as ``x.shape[:begin]``;
    scale and bias replicated."""
    ins = _inputs(op, inputs)
    x = ins[0]
    begin = int(op.attributes.get("begin_norm_axis", 1))
    kept = x.dims_mapping[:begin]
    y = Placed(kept + (-1,) * (len(x.dims_mapping) - begin))
    rest = [Placed((-1,) * len(p.dims_mapping)) for p in ins[1:]]
    stats = Placed(kept)
    return [y] + rest, [y, stats, stats]


@spmd_rule("pd_op.transpose")
def transpose(op, inputs):
    """``transpose.cc``: the result's axis i is laid out as the operand's axis ``perm[i]``."""
    (x,) = _inputs(op, inputs)[:1]
    perm = list(op.attributes.get("perm", []))
    rank = len(x.dims_mapping)
    perm = [p % rank for p in perm]
    return [x], [Placed(tuple(x.dims_mapping[p] for p in perm), x.partial)]


@spmd_rule("pd_op.full", "pd_op.full_int_array", "pd_op.uniform")
def constant(op, inputs):
    """Constants (and ``uniform``, which has no rule in Paddle) are replicated, on the mesh of
    their operands or of their stage."""
    ins = _inputs(op, inputs)
    return ins, [Placed((-1,) * _rank(r)) for r in op.results]


@spmd_rule("pd_op.full_like")
def full_like(op, inputs):
    """``full_like.cc``: the result is laid out as ``x`` (no partial: it is a constant)."""
    ins = _inputs(op, inputs)
    x = Placed(ins[0].dims_mapping)
    return [x] + [Placed((-1,) * len(p.dims_mapping)) for p in ins[1:]], [x]


@spmd_rule("pd_op.triu", "pd_op.tril")
def triu(op, inputs):
    """``triu.cc``: the last two axes (the matrix) replicated, the batch axes kept."""
    x = _inputs(op, inputs)[0]
    dims = tuple(x.dims_mapping[:-2]) + (-1, -1)
    return [Placed(dims)], [Placed(dims)]


@spmd_rule("pd_op.cumsum")
def cumsum(op, inputs):
    """``cumsum.cc``: the summed axis replicated (every axis, and a 1-D result, when
    ``flatten``); the axis operand replicated."""
    ins = _inputs(op, inputs)
    x = ins[0]
    rank = len(x.dims_mapping)
    axes = _int_array(op.operands[1]) if len(op.operands) > 1 else None
    axis = _full_value(op.operands[1]) if axes is None and len(op.operands) > 1 else None
    axis = axes[0] if axes else (int(axis) if axis is not None else -1)
    if op.attributes.get("flatten"):
        dims, out = (-1,) * rank, (-1,)
    else:
        dims = tuple(-1 if i == axis % rank else m for i, m in enumerate(x.dims_mapping))
        out = dims
    return [Placed(dims)] + [Placed((-1,) * len(p.dims_mapping)) for p in ins[1:]], \
        [Placed(out)]


def _full_value(value):
    producer = getattr(value, "owner", None)
    if producer is None or producer.name != "pd_op.full":
        return None
    return producer.attributes.get("value")


@spmd_rule("pd_op.unsqueeze")
def unsqueeze(op, inputs):
    """``unsqueeze.cc``: the new axes replicated; every other result axis laid out as its input
    axis (an input axis of size 1 replicated)."""
    ins = _inputs(op, inputs)
    x = ins[0]
    src = _shape(op.operands[0])
    out_rank = _rank(op.results[0])
    axes = [a % out_rank if a < 0 else a for a in (_int_array(op.operands[1]) or [])] \
        if len(op.operands) > 1 else []
    required = tuple(-1 if n == 1 else m for n, m in zip(src, x.dims_mapping))
    out, j = [], 0
    for i in range(out_rank):
        if i in axes:
            out.append(-1)
        else:
            out.append(required[j] if j < len(required) else -1)
            j += 1
    rest = [Placed((-1,) * len(p.dims_mapping)) for p in ins[1:]]
    return [Placed(required, x.partial)] + rest, [Placed(tuple(out), x.partial)]


@spmd_rule("pd_op.masked_select")
def masked_select(op, inputs):
    """No rule in Paddle 3.3.1: every operand replicated, the (data-dependent, 1-D) result
    replicated."""
    ins = _inputs(op, inputs)
    return [Placed((-1,) * len(p.dims_mapping)) for p in ins], \
        [Placed((-1,) * _rank(r)) for r in op.results]


def infer(op, inputs: list) -> tuple[list, list]:
    """Apply the op's rule; raises ``KeyError`` naming the op when the table has none."""
    try:
        rule = SPMD_RULES[op.name]
    except KeyError:
        raise KeyError(f"no SPMD rule for {op.name} (engine/paddle/spmd_rules.py)") from None
    return rule(op, inputs)


# --------------------------------------------------------------------------------------------
# Shapes: a hook that transposes (sequence parallel) changes the shapes downstream of it, so the
# serial program's result shapes are re-derived from the operands (Paddle's InferMeta functions,
# paddle/phi/infermeta/). Ops not listed keep their results' shapes.
# --------------------------------------------------------------------------------------------

def _shape(v) -> list[int]:
    return list(v.type.shape)


def _broadcast(op):
    shapes = [_shape(v) for v in op.operands if v is not None]
    rank = max(len(s) for s in shapes)
    out = []
    for axis in range(rank):
        sizes = [s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0]
        out.append(max(sizes) if all(x != -1 for x in sizes) else -1)
    return [out]


def _same_as_first(op):
    return [_shape(op.operands[0])] * len(op.results)


def _matmul_shape(op):
    x, y = _shape(op.operands[0]), _shape(op.operands[1])
    m = x[-1] if op.attributes.get("transpose_x") else x[-2]
    n = y[-2] if op.attributes.get("transpose_y") else y[-1]
    return [x[:-2] + [m, n]]


def _layer_norm_shape(op):
    x = _shape(op.operands[0])
    begin = int(op.attributes.get("begin_norm_axis", 1))
    return [x, x[:begin], x[:begin]]


def _transpose_shape(op):
    x = _shape(op.operands[0])
    return [[x[p % len(x)] for p in op.attributes.get("perm", [])]]


def _reduction_shape(op):
    x = _shape(op.operands[0])
    axes = _int_array(op.operands[1]) if len(op.operands) > 1 else None
    axes = list(range(len(x))) if not axes else [a % len(x) for a in axes]
    keep = bool(op.attributes.get("keepdim"))
    return [[1 if a in axes else n for a, n in enumerate(x) if keep or a not in axes]]


def _reshape_shape(op):
    x = _shape(op.operands[0])
    target = _int_array(op.operands[1]) if len(op.operands) > 1 else None
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
    return [_shape(op.operands[0]) + [_shape(op.operands[1])[1]]]


def _cross_entropy_shape(op):
    x = _shape(op.operands[0])
    return [x, x[:-1] + [1]]


def _cumsum_shape(op):
    x = _shape(op.operands[0])
    if op.attributes.get("flatten"):
        total = 1
        for n in x:
            total *= n
        return [[total]]
    return [x]


def _unsqueeze_shape(op):
    x = _shape(op.operands[0])
    axes = _int_array(op.operands[1]) if len(op.operands) > 1 else None
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
