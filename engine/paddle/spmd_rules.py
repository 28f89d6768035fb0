"""Forward SPMD rules: from the placements of an op's operands, the placements it computes with.

Paddle 3.3.1 runs one SPMD rule per op while a dist program is traced (``paddle/phi/infermeta/
spmd_rules/``: ``elementwise.cc``, ``matmul.cc``, ``reduction.cc``, ``layer_norm.cc``,
``transpose.cc``, ...) and records the result in the op's ``op_dist_attr``: per operand the
dims_mapping/partial it *requires* (a later reshard pass makes the value match), per result what
it *produces*. :data:`SPMD_RULES` is that table, keyed by op name; ``rules/parallelize.rw`` reads
it through the ``spmd_dist`` / ``spmd_type`` functions of
``engine/paddle/functions_parallelize.py``; result shapes are ``spmd_shapes.py``'s.

Each rule takes ``(op, inputs)`` with ``inputs[i]`` the :class:`TensorDistAttr` of operand ``i``
(``None`` for a missing or dense operand) and returns ``(operand_attrs, result_attrs)`` as lists of
:class:`Placed` (dims_mapping, partial) pairs, or ``None`` for an entry Paddle leaves null.
"""

from __future__ import annotations

from typing import Callable

import attrs

from rulepass.engine.ir.types import TensorDistAttr
from rulepass.engine.paddle.spmd_shapes import full_value, int_array, result_shapes, shape_of


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


def _inputs(op, inputs) -> list:
    """Per operand its :class:`Placed`; a vector operand (``builtin.combine``'s result) a list of
    them, one per item."""
    out = []
    for a, v in zip(inputs, op.operands):
        items = getattr(getattr(v, "type", None), "items", None)
        if items is not None:
            attrs_ = a if isinstance(a, tuple) else (None,) * len(items)
            out.append([Placed.of(x, len(getattr(t, "shape", ()))) for x, t in zip(attrs_, items)])
        else:
            out.append(Placed.of(a, _rank(v)))
    return out


def _replicated(p) -> "Placed | list":
    """``p`` (or each item of a vector) replicated."""
    if isinstance(p, list):
        return [_replicated(x) for x in p]
    return Placed((-1,) * len(p.dims_mapping))


@spmd_rule("pd_op.relu", "pd_op.square", "pd_op.exp", "pd_op.tanh", "pd_op.gelu", "pd_op.silu",
           "pd_op.sigmoid", "pd_op.sqrt", "pd_op.rsqrt", "pd_op.log", "pd_op.cast", "pd_op.pow",
           "pd_op.assign", "builtin.shadow_output", "pd_op.abs", "pd_op.sin", "pd_op.cos",
           "pd_op.erf", "pd_op.floor", "pd_op.ceil", "pd_op.sign", "pd_op.reciprocal")
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
    src = shape_of(op.operands[0])
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


def _one_axis_per_mesh_dim(dims) -> tuple:
    """ShardingMergeForTensors' conflict rule: a mesh dim claimed by several tensor axes stays
    on the first of them; the later ones are replicated."""
    seen: set = set()
    out = []
    for m in dims:
        out.append(-1 if m != -1 and m in seen else m)
        seen.add(m)
    return tuple(out)


@spmd_rule("pd_op.add", "pd_op.subtract", "pd_op.multiply", "pd_op.divide", "pd_op.maximum",
           "pd_op.minimum", "pd_op.greater_than", "pd_op.greater_equal", "pd_op.less_than",
           "pd_op.less_equal", "pd_op.equal", "pd_op.not_equal", "pd_op.where")
def elementwise_binary(op, inputs):
    """Broadcasting binary ops (``elementwise.cc`` ElementwiseBinaryInferSpmd): tensor axes aligned
    from the right, each output axis sharded as the first operand that shards it, each operand
    required in that layout on its own axes; a Partial operand is required Replicate unless every
    operand is Partial on the same mesh dims of an add/subtract, which then stays Partial."""
    ins = _inputs(op, inputs)
    shapes = [shape_of(v) for v in op.operands]
    out_rank = max(len(p.dims_mapping) for p in ins)
    out_shape = [max([s[a - out_rank + len(s)] for s in shapes if a - out_rank + len(s) >= 0])
                 for a in range(out_rank)]

    def padded(p, shape):
        # a broadcast axis (size 1 against a larger one) takes no part ("1" in Paddle's notation)
        lead = out_rank - len(shape)
        return [-1] * lead + [-1 if shape[k] == 1 and out_shape[lead + k] != 1 else m
                              for k, m in enumerate(p.dims_mapping)]

    pads = [padded(p, sh) for p, sh in zip(ins, shapes)]
    merged = _one_axis_per_mesh_dim(_merge([p[axis] for p in pads]) for axis in range(out_rank))
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


#: The Partial reduce kind of a reduction op's result over a sharded reduced axis.
_REDUCE_KIND = {"pd_op.mean": "AVG", "pd_op.sum": "SUM", "pd_op.max": "MAX", "pd_op.amax": "MAX",
                "pd_op.min": "MIN", "pd_op.amin": "MIN"}


@spmd_rule(*_REDUCE_KIND)
def reduction(op, inputs):
    """``reduction.cc`` ReductionInferSpmd: the reduced axes (``[]`` = all) leave the result; a
    sharded reduced axis makes it Partial over that mesh dim, of the op's kind (AVG for mean, SUM
    for sum, MAX for max/amax, MIN for min/amin: ``_REDUCE_KIND``)."""
    ins = _inputs(op, inputs)
    x = ins[0]
    rank = len(x.dims_mapping)
    axes = int_array(op.operands[1]) if len(op.operands) > 1 else None
    axes = list(range(rank)) if not axes else [a % rank for a in axes]
    keepdim = bool(op.attributes.get("keepdim"))
    kind = _REDUCE_KIND[op.name]
    out, partial = [], []
    for axis, m in enumerate(x.dims_mapping):
        if axis in axes:
            if m != -1:
                partial.append((m, kind))
            if keepdim:
                out.append(-1)
        else:
            out.append(m)
    return [Placed(x.dims_mapping)] + [_replicated(p) for p in ins[1:]], \
        [Placed(tuple(out), tuple(sorted(partial)))]


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
    axes = int_array(op.operands[1]) if len(op.operands) > 1 else None
    axis = full_value(op.operands[1]) if axes is None and len(op.operands) > 1 else None
    axis = axes[0] if axes else (int(axis) if axis is not None else -1)
    if op.attributes.get("flatten"):
        dims, out = (-1,) * rank, (-1,)
    else:
        dims = tuple(-1 if i == axis % rank else m for i, m in enumerate(x.dims_mapping))
        out = dims
    return [Placed(dims)] + [Placed((-1,) * len(p.dims_mapping)) for p in ins[1:]], \
        [Placed(out)]


@spmd_rule("pd_op.unsqueeze")
def unsqueeze(op, inputs):
    """``unsqueeze.cc``: the new axes replicated; every other result axis laid out as its input
    axis (an input axis of size 1 replicated)."""
    ins = _inputs(op, inputs)
    x = ins[0]
    src = shape_of(op.operands[0])
    out_rank = _rank(op.results[0])
    axes = [a % out_rank if a < 0 else a for a in (int_array(op.operands[1]) or [])] \
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


@spmd_rule("pd_op.dropout")
def dropout(op, inputs):
    """``dropout.cc``: the result and its mask laid out as x; the seed tensor (often null) and
    the rate replicated."""
    ins = _inputs(op, inputs)
    x = ins[0]
    return [x] + [_replicated(p) for p in ins[1:]], [x] * len(op.results)


@spmd_rule("pd_op.clip")
def clip(op, inputs):
    """``clip(x, min, max)``: x's placement kept (elementwise), the bound tensors replicated."""
    ins = _inputs(op, inputs)
    return [ins[0]] + [_replicated(p) for p in ins[1:]], [ins[0]]


def _axis_operand(op, index: int, rank: int, default: int = 0) -> int:
    """An axis given as an operand (``full`` or one-element ``full_int_array``), normalized."""
    if len(op.operands) <= index:
        return default % max(rank, 1)
    axes = int_array(op.operands[index])
    value = axes[0] if axes else full_value(op.operands[index])
    return int(default if value is None else value) % max(rank, 1)


@spmd_rule("pd_op.split_with_num", "pd_op.split")
def split(op, inputs):
    """``split.cc``: the split axis replicated, the other axes kept; every piece (an item of the
    vector result) laid out alike."""
    ins = _inputs(op, inputs)
    x = ins[0]
    rank = len(x.dims_mapping)
    axis = _axis_operand(op, len(op.operands) - 1, rank)
    dims = tuple(-1 if i == axis else m for i, m in enumerate(x.dims_mapping))
    count = len(getattr(op.results[0].type, "items", ()))
    return [Placed(dims)] + [_replicated(p) for p in ins[1:]], [[Placed(dims)] * count]


def _merge_items(items: list, rank: int) -> list[int]:
    return list(_one_axis_per_mesh_dim(_merge([p.dims_mapping[a] for p in items])
                                       for a in range(rank)))


@spmd_rule("pd_op.concat")
def concat(op, inputs):
    """``concat.cc``: the pieces' layouts merged axis by axis (the first sharding wins), the
    concatenated axis replicated; every piece required in that layout, the result too."""
    ins = _inputs(op, inputs)
    items = ins[0]
    rank = len(items[0].dims_mapping)
    axis = _axis_operand(op, 1, rank)
    merged = _merge_items(items, rank)
    merged[axis] = -1
    dims = tuple(merged)
    return [[Placed(dims)] * len(items)] + [_replicated(p) for p in ins[1:]], [Placed(dims)]


@spmd_rule("pd_op.stack")
def stack(op, inputs):
    """``stack.cc``: the pieces' layouts merged; the new axis replicated."""
    ins = _inputs(op, inputs)
    items = ins[0]
    rank = len(items[0].dims_mapping)
    axis = int(op.attributes.get("axis", 0)) % (rank + 1)
    dims = tuple(_merge_items(items, rank))
    return [[Placed(dims)] * len(items)], [Placed(dims[:axis] + (-1,) + dims[axis:])]


@spmd_rule("pd_op.slice")
def slice_(op, inputs):
    """``slice.cc``: the sliced axes replicated; ``decrease_axis`` removes axes from the
    result."""
    ins = _inputs(op, inputs)
    x = ins[0]
    rank = len(x.dims_mapping)
    axes = {a % rank for a in op.attributes.get("axes", [])}
    dims = tuple(-1 if i in axes else m for i, m in enumerate(x.dims_mapping))
    drop = {a % rank for a in op.attributes.get("decrease_axis", [])}
    out = tuple(m for i, m in enumerate(dims) if i not in drop)
    return [Placed(dims)] + [_replicated(p) for p in ins[1:]], [Placed(out)]


@spmd_rule("pd_op.squeeze")
def squeeze(op, inputs):
    """``squeeze.cc``: the removed axes (of size 1) leave the result, the others keep their
    layout."""
    ins = _inputs(op, inputs)
    x = ins[0]
    src = shape_of(op.operands[0])
    rank = len(src)
    axes = int_array(op.operands[1]) if len(op.operands) > 1 else None
    axes = {a % rank for a in axes} if axes else {i for i, n in enumerate(src) if n == 1}
    axes = {a for a in axes if src[a] == 1}
    dims = tuple(-1 if src[i] == 1 else m for i, m in enumerate(x.dims_mapping))
    out = tuple(m for i, m in enumerate(dims) if i not in axes)
    return [Placed(dims, x.partial)] + [_replicated(p) for p in ins[1:]], \
        [Placed(out, x.partial)]


@spmd_rule("pd_op.flatten")
def flatten(op, inputs):
    """``flatten.cc``: the axes ``start_axis..stop_axis`` merge into one, laid out as the first
    of them; the others of the group required replicated."""
    ins = _inputs(op, inputs)
    x = ins[0]
    rank = len(x.dims_mapping)
    if rank == 0:
        return [x], [Placed((-1,))]
    start = int(op.attributes.get("start_axis", 0)) % rank
    stop = int(op.attributes.get("stop_axis", -1)) % rank
    dims = tuple(-1 if start < i <= stop else m for i, m in enumerate(x.dims_mapping))
    out = dims[:start + 1] + dims[stop + 1:]
    return [Placed(dims, x.partial)], [Placed(out, x.partial)]


@spmd_rule("pd_op.expand")
def expand(op, inputs):
    """``expand.cc``: x aligned to the result's trailing axes; an axis it broadcasts (size 1 to
    more) and every new leading axis replicated, the others keep x's layout."""
    ins = _inputs(op, inputs)
    x = ins[0]
    src = shape_of(op.operands[0])
    dst = list(op.results[0].type.shape)
    lead = len(dst) - len(src)
    dims = tuple(-1 if n == 1 and dst[lead + i] != 1 else m
                 for i, (n, m) in enumerate(zip(src, x.dims_mapping)))
    out = (-1,) * lead + dims
    return [Placed(dims)] + [_replicated(p) for p in ins[1:]], [Placed(out)]


def infer(op, inputs: list) -> tuple[list, list]:
    """Apply the op's rule; raises ``KeyError`` naming the op when the table has none."""
    try:
        rule = SPMD_RULES[op.name]
    except KeyError:
        raise KeyError(f"no SPMD rule for {op.name} (engine/paddle/spmd_rules.py)") from None
    return rule(op, inputs)
