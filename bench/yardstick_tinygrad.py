"""The tinygrad yardstick of bench/engine.py: the benchmark's six rewrites, and its 44 decoys, as
tinygrad users write them — ``UPat`` rules in one ``PatternMatcher`` run by ``graph_rewrite`` on a
``UOp`` graph converted from the workload (each op a ``CUSTOM`` UOp with ``arg = (name, attrs,
uid)``). Each decoy is one ``UPat`` (its operand shape written as ``src`` patterns) with a callback
testing the op name and what the ``.rw`` decoy tests (``bench/engine_rules.py``'s ``decoy_rules``);
tinygrad has no use lists, so the two decoys on use counts test only the name."""

from __future__ import annotations

import gc
import time

from workload import ABSENT_OPS, GROUPS, PRESENT, RANK


def timed(fn):
    """(result, CPU seconds, wall seconds) of ``fn()``."""
    c0, w0 = time.process_time(), time.perf_counter()
    result = fn()
    return result, time.process_time() - c0, time.perf_counter() - w0


# The decoys' callbacks: module functions (tinygrad compiles a callback from its code and
# globals and refuses closures), made from this table once. (src shape, test of `a`, the op's
# attributes, or of `o` and its sources).
_DECOY_TESTS = {
    0: ("", "a.get('transpose_x') is True"), 1: ("", "a.get('transpose_y') is True"),
    2: ("transpose", "t.arg[0] == 'pd_op.transpose'"), 3: ("", "False"),
    4: ("same", "True"), 5: ("", "'decoy' in a"), 6: ("", "a.get('reduce_type') == 1"),
    7: ("", "a.get('ring_id') == 99"), 8: ("", "a.get('axis') == 0"), 9: ("", "'decoy' in a"),
    10: ("", "a.get('scale') == 2.0"), 11: ("", "a.get('perm') == (0, 1)"), 12: ("", "False"),
    13: ("", "a.get('parameter_name') == 'none'"), 14: ("", "a.get('num') == 3"),
    15: ("", "a.get('index') == 5"), 16: ("", "a.get('nranks') == 8"), 17: ("", "'decoy' in a"),
    18: ("", "len(o.src) > 5"), 19: ("", "a.get('op_role') == 0"), 20: ("", "'decoy' in a"),
    21: ("", "'decoy' in a"),
}


def _define_decoy_callbacks() -> list:
    """Define ``tg_decoy_<i>`` for each decoy; returns (index, src shape) in decoy order."""
    shapes = []
    source = []
    for i, name in enumerate(ABSENT_OPS):  # o = NAME(x) {op_role: r} where ... r == 0
        source.append(f"def tg_decoy_{i}(ctx, o, x):\n"
                      f"    if o.arg[0] != {name!r}:\n        return None\n"
                      f"    if dict(o.arg[1]).get('op_role') != 0:\n        return None\n"
                      f"    return tg_with_attrs(o, {{'decoy': {i}}})\n")
        shapes.append((i, "one"))
    for k, (_, _, root) in enumerate(PRESENT):
        i = len(ABSENT_OPS) + k
        shape, test = _DECOY_TESTS[k]
        args = {"": "o", "transpose": "o, t", "same": "o, x"}[shape]
        source.append(f"def tg_decoy_{i}(ctx, {args}):\n"
                      f"    if o.arg[0] != {root!r}:\n        return None\n"
                      f"    a = dict(o.arg[1])\n"
                      f"    if not ({test}):\n        return None\n"
                      f"    return tg_with_attrs(o, {{'decoy': {i}}})\n")
        shapes.append((i, shape))
    exec(compile("\n".join(source), __file__ + ":decoys", "exec"), globals())
    return shapes


_DECOY_SHAPES = _define_decoy_callbacks()


def decoy_patterns(UPat, Ops) -> list:
    """The 44 decoys as (``UPat``, callback) pairs."""
    patterns = []
    for i, shape in _DECOY_SHAPES:
        if shape == "one":
            pattern = UPat(Ops.CUSTOM, name="o", src=(UPat(name="x"),))
        elif shape == "transpose":
            pattern = UPat(Ops.CUSTOM, name="o", src=(UPat(Ops.CUSTOM, name="t"), UPat()))
        elif shape == "same":
            pattern = UPat(Ops.CUSTOM, name="o", src=(UPat(name="x"), UPat(name="x")))
        else:
            pattern = UPat(Ops.CUSTOM, name="o")
        patterns.append((pattern, globals()[f"tg_decoy_{i}"]))
    return patterns


# tinygrad compiles pattern callbacks from their code and globals (closures are refused), so the
# callbacks are module functions; ``tinygrad_runner`` puts ``Ops``, ``UOp`` and ``TG_VOID`` into the
# module's globals before the first match. ``ctx`` is a :class:`TgContext`.
COLLECTIVES = {"pd_op.all_reduce", "pd_op.all_gather", "pd_op.c_identity"}
DEAD = {"pd_op.full", "pd_op.full_int_array", "pd_op.shape"}


class TgContext:
    """The tinygrad port's context: op_id -> chunk_id of forward ops, and the rewrites made."""

    def __init__(self, forward: dict):
        self.forward = forward
        self.count = 0


def tg_with_attrs(node, changes: dict):
    """``node`` with attributes ``changes`` set (a new UOp)."""
    name, attrs, uid = node.arg
    merged = dict(attrs)
    merged.update(changes)
    return node.replace(arg=(name, tuple(sorted(merged.items())), uid))


def tg_fuse(ctx, sl, sp, ar, x):
    """all_reduce(SUM) -> split_with_num -> this rank's builtin.slice => reduce_scatter."""
    if sl.arg[0] != "builtin.slice" or sp.arg[0] != "pd_op.split_with_num" \
            or ar.arg[0] != "pd_op.all_reduce":
        return None
    a = dict(ar.arg[1])
    if a.get("reduce_type") != 0:
        return None
    group = GROUPS.get(a.get("ring_id"))
    n = dict(sp.arg[1]).get("num")
    if not group or len(group) < 2 or n != len(group) or RANK not in group \
            or dict(sl.arg[1]).get("index") != group.index(RANK):
        return None
    attrs = {"nranks": n, "op_role": a.get("op_role", -1), "ring_id": a["ring_id"]}
    if "chunk_id" in a:
        attrs["chunk_id"] = a["chunk_id"]
    ctx.count += 1
    return UOp(Ops.CUSTOM, TG_VOID, (x,),
               ("pd_op.reduce_scatter", tuple(sorted(attrs.items())), sl.arg[2]))


def tg_per_op(ctx, o):
    """tanh gelu, one-rank collectives, local-region tagging (rooted at the region's
    dtensor_from_local, walking back to its dtensor_to_local) and the grad_of join."""
    name = o.arg[0]
    if name == "pd_op.gelu":
        if dict(o.arg[1]).get("approximate") is False:
            ctx.count += 1
            return tg_with_attrs(o, {"approximate": True})
    if name in COLLECTIVES and len(o.src) == 1:
        group = GROUPS.get(dict(o.arg[1]).get("ring_id"))
        if group is not None and len(group) == 1:
            ctx.count += 1
            return o.src[0]
    if name == "dist_op.dtensor_from_local":
        chain = []
        cur = o.src[0]
        while cur.op is Ops.CUSTOM and cur.arg[0] != "dist_op.dtensor_to_local":
            chain.append(cur)
            if not cur.src:
                return None
            cur = cur.src[0]
        if cur.op is not Ops.CUSTOM or all(("local", True) in c.arg[1] for c in chain):
            return None
        new = cur
        for c in reversed(chain):
            tagged = c if ("local", True) in c.arg[1] else tg_with_attrs(c, {"local": True})
            new = tagged.replace(src=(new,) + c.src[1:])
        ctx.count += 1
        return o.replace(src=(new,) + o.src[1:])
    if len(o.arg) == 3 and isinstance(o.arg[1], tuple):
        a = dict(o.arg[1])
        k = a.get("grad_of")
        if k is not None:
            c = ctx.forward.get(k)
            if c is not None and a.get("chunk_id") != c:
                ctx.count += 1
                return tg_with_attrs(o, {"chunk_id": c})
    return None


def tg_prune(ctx, s):
    """Drop unused constant and shape ops from the sink (nothing else reaches them)."""
    kept = tuple(r for r in s.src if not (r.op is Ops.CUSTOM and r.arg[0] in DEAD))
    if len(kept) == len(s.src):
        return None
    ctx.count += len(s.src) - len(kept)
    return s.replace(src=kept)


def tinygrad_runner(program, decoys: bool = False):
    """``once() -> row``: one timed run of the six rewrites as tinygrad ``UPat`` rules run by
    ``graph_rewrite`` (with ``decoys``, the 44 decoys as 44 more ``UPat``s in the same
    ``PatternMatcher``), on ``program`` converted to a ``UOp`` graph (conversion untimed). The
    matcher is made here, once, for every call of ``once``.

    Each op is a ``CUSTOM`` UOp with ``arg = (name, attrs, uid)`` (the uid keeps distinct ops
    from being hash-consed into one); result ``i`` of a multi-result op is a ``("result", i)``
    node; the sink holds every op whose results nobody reads. UOps are immutable, so setting an
    attribute makes a new UOp, and an op nobody reaches from the sink is gone: erasing an unused
    op is dropping it from the sink. tinygrad has no use lists, so the fusion does not check
    uses (the workload's fused values have one reader each); the grad join reads a dict
    op_id -> chunk_id built by walking the graph (timed), as the engine reads its index."""
    from tinygrad.dtype import dtypes
    from tinygrad.uop.ops import Ops, PatternMatcher, UOp, UPat, graph_rewrite

    void = dtypes.void

    def hashable(v):
        return tuple(hashable(i) for i in v) if isinstance(v, (list, tuple)) else v

    def convert():
        values = {}
        roots = []
        for uid, op in enumerate(program.walk()):
            attrs = tuple(sorted((k, hashable(v)) for k, v in op.attributes.items()))
            node = UOp(Ops.CUSTOM, void, tuple(values[v] for v in op.operands),
                       (op.name, attrs, uid))
            if len(op.results) == 1:
                values[op.results[0]] = node
            else:
                for i, r in enumerate(op.results):
                    values[r] = UOp(Ops.CUSTOM, void, (node,), ("result", i, uid))
            if all(r.num_uses == 0 for r in op.results):
                roots.append(node)
        return UOp(Ops.SINK, void, tuple(roots))

    globals().update(Ops=Ops, UOp=UOp, TG_VOID=void)
    patterns = [
        (UPat(Ops.CUSTOM, name="sl", src=(UPat(Ops.CUSTOM, name="sp", src=(
            UPat(Ops.CUSTOM, name="ar", src=(UPat(name="x"),)), UPat())),)), tg_fuse),
        (UPat(Ops.CUSTOM, name="o"), tg_per_op),
        (UPat(Ops.SINK, name="s"), tg_prune),
    ]
    if decoys:
        patterns += decoy_patterns(UPat, Ops)
    matcher = PatternMatcher(patterns)

    def run(sink):
        forward = {}
        for node in sink.toposort():
            if node.op is Ops.CUSTOM and isinstance(node.arg[1], tuple):
                a = dict(node.arg[1])
                if "op_id" in a and "chunk_id" in a:
                    forward[a["op_id"]] = a["chunk_id"]
        ctx = TgContext(forward)
        return graph_rewrite(sink, matcher, ctx=ctx), ctx

    def once() -> dict:
        sink = convert()
        gc.collect()
        (result, ctx), cpu, wall = timed(lambda: run(sink))
        out = {"ops": 0, "reduce_scatter": 0, "all_reduce": 0, "local": 0, "grad_chunk": 0,
               "tanh_gelu": 0}
        for node in result.toposort():
            if node.op is not Ops.CUSTOM or node.arg[0] == "result":
                continue
            name, a = node.arg[0], dict(node.arg[1])
            out["ops"] += 1
            out["reduce_scatter"] += name == "pd_op.reduce_scatter"
            out["all_reduce"] += name == "pd_op.all_reduce"
            out["local"] += a.get("local") is True
            out["grad_chunk"] += "grad_of" in a and "chunk_id" in a
            out["tanh_gelu"] += name == "pd_op.gelu" and a.get("approximate") is True
        del sink, result
        return {"cpu": cpu, "wall": wall, "applications": ctx.count, "summary": out}
    return once


