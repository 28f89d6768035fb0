"""The xDSL yardstick of bench/engine.py: the benchmark's six rewrites, and its 44 decoys, as xDSL
users write them — a ``RewritePattern`` class per rule, run by ``PatternRewriteWalker`` with a
``GreedyRewritePatternApplier``, on a tiny IRDL dialect holding the workload's ops (one op class
per op name). Each decoy is one ``RewritePattern`` whose ``match_and_rewrite`` is typed on its
root op class with ``op_type_rewrite_pattern`` (xDSL then rejects other ops by ``isinstance``),
and tests what the ``.rw`` decoy tests (``bench/engine_rules.py``'s ``decoy_rules``)."""

from __future__ import annotations

import gc
import time

from workload import ABSENT_OPS, GROUPS, PRESENT, RANK


def timed(fn):
    """(result, CPU seconds, wall seconds) of ``fn()``."""
    c0, w0 = time.process_time(), time.perf_counter()
    result = fn()
    return result, time.process_time() - c0, time.perf_counter() - w0


def decoy_checks(xattr) -> list:
    """(root op name, test of the op) of each of the 44 decoys, in ``decoy_rules`` order."""
    def attr_is(key, value):
        wanted = xattr(value)
        return lambda op: op.attributes.get(key) == wanted

    def has_decoy(op):
        return "decoy" in op.attributes

    def uses(op):
        return sum(r.uses.get_length() for r in op.results)

    def absent(op):  # o = NAME(x) {op_role: r} where uses(o) > 0 and r == 0
        role = op.attributes.get("op_role")
        return len(op.operands) == 1 and role is not None and uses(op) > 0 and role.data == 0

    tests = {
        0: attr_is("transpose_x", True), 1: attr_is("transpose_y", True),
        2: lambda op: len(op.operands) == 2
        and getattr(op.operands[0].owner, "name", None) == "pd_op.transpose",
        3: lambda op: uses(op) > 1000,
        4: lambda op: len(op.operands) == 2 and op.operands[0] is op.operands[1],
        5: has_decoy, 6: attr_is("reduce_type", 1), 7: attr_is("ring_id", 99),
        8: attr_is("axis", 0), 9: has_decoy, 10: attr_is("scale", 2.0),
        11: attr_is("perm", [0, 1]), 12: lambda op: uses(op) == 0,
        13: attr_is("parameter_name", "none"), 14: attr_is("num", 3), 15: attr_is("index", 5),
        16: attr_is("nranks", 8), 17: has_decoy, 18: lambda op: len(op.operands) > 5,
        19: attr_is("op_role", 0), 20: has_decoy, 21: has_decoy,
    }
    assert len(tests) == len(PRESENT)
    return ([(name, absent) for name in ABSENT_OPS]
            + [(PRESENT[i][2], tests[i]) for i in range(len(PRESENT))])


def decoy_patterns(op_class, xattr, RewritePattern, PatternRewriter, op_type_rewrite_pattern):
    """The 44 decoys: one ``RewritePattern`` subclass each, typed on its root op class."""
    def method(test, mark):
        def match_and_rewrite(self, op, rewriter):
            if test(op):
                op.attributes["decoy"] = mark
                rewriter.notify_op_modified(op)
        return match_and_rewrite

    patterns = []
    for i, (name, test) in enumerate(decoy_checks(xattr)):
        match_and_rewrite = method(test, xattr(i))
        # what `def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter)` says
        match_and_rewrite.__annotations__ = {"op": op_class(name), "rewriter": PatternRewriter,
                                             "return": None}
        cls = type(f"Decoy{i}", (RewritePattern,),
                   {"match_and_rewrite": op_type_rewrite_pattern(match_and_rewrite)})
        patterns.append(cls())
    return patterns


def xdsl_runner(program, decoys: bool = False):
    """``once() -> row``: one timed run of the six rewrites as xDSL ``RewritePattern``s (with
    ``decoys``, also the 44 decoy rules as 44 more patterns), on ``program`` converted to a tiny
    IRDL dialect (conversion untimed). The dialect and the patterns are made here, once: every
    call of ``once`` runs with them as the engine's runs reuse its compiled rules."""
    from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, NoneType, StringAttr, \
        TensorType, f32
    from xdsl.ir import Block, Region
    from xdsl.irdl import IRDLOperation, irdl_op_definition, var_operand_def, var_result_def
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, \
        PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern

    classes: dict[str, type] = {}

    def op_class(op_name: str) -> type:
        cls = classes.get(op_name)
        if cls is None:
            @irdl_op_definition
            class BenchOp(IRDLOperation):
                name = op_name
                ins = var_operand_def()
                outs = var_result_def()
            cls = classes[op_name] = BenchOp
        return cls

    types: dict = {}

    def xtype(t):
        found = types.get(t)
        if found is None:
            shape = getattr(t, "shape", None)
            found = types[t] = TensorType(f32, list(shape)) if shape is not None else NoneType()
        return found

    def xattr(v):
        if isinstance(v, bool):
            return IntAttr(int(v))
        if isinstance(v, int):
            return IntAttr(v)
        if isinstance(v, (list, tuple)):
            return ArrayAttr([xattr(i) for i in v])
        return StringAttr(str(v))

    def convert():
        values = {}
        ops = []
        for op in program.walk():
            new = op_class(op.name).create(
                operands=[values[v] for v in op.operands],
                result_types=[xtype(r.type) for r in op.results],
                attributes={k: xattr(v) for k, v in op.attributes.items()})
            for old, res in zip(op.results, new.results):
                values[old] = res
            ops.append(new)
        return ModuleOp(Region(Block(ops)))

    count = [0]
    one, zero = IntAttr(1), IntAttr(0)
    reduce_scatter = op_class("pd_op.reduce_scatter")
    collectives = {"pd_op.all_reduce", "pd_op.all_gather", "pd_op.c_identity"}
    dead = {"pd_op.full", "pd_op.full_int_array", "pd_op.shape"}

    class AllReduceSplitSlice(RewritePattern):
        """all_reduce(SUM) -> split_with_num -> this rank's builtin.slice => reduce_scatter."""

        def match_and_rewrite(self, op, rewriter: PatternRewriter):
            if op.name != "builtin.slice":
                return
            sp = op.operands[0].owner
            if getattr(sp, "name", None) != "pd_op.split_with_num":
                return
            ar = sp.operands[0].owner
            if getattr(ar, "name", None) != "pd_op.all_reduce":
                return
            a = ar.attributes
            if a["reduce_type"].data != 0:
                return
            ring = a["ring_id"].data
            group = GROUPS.get(ring)
            n = sp.attributes["num"].data
            if not group or len(group) < 2 or n != len(group) or RANK not in group \
                    or op.attributes["index"].data != group.index(RANK):
                return
            if not ar.results[0].has_one_use() or not sp.results[0].has_one_use():
                return
            x = ar.operands[0]
            if x.type.get_shape()[0] % n:
                return
            attrs = {"nranks": IntAttr(n), "op_role": a.get("op_role", IntAttr(-1)),
                     "ring_id": a["ring_id"]}
            if "chunk_id" in a:
                attrs["chunk_id"] = a["chunk_id"]
            rs = reduce_scatter.create(operands=[x], result_types=[op.results[0].type],
                                       attributes=attrs)
            rewriter.replace_matched_op(rs)
            rewriter.erase_op(sp)
            rewriter.erase_op(ar)
            count[0] += 1

    class GradTakesForwardChunk(RewritePattern):
        """A grad op takes the chunk_id of the forward op whose op_id its grad_of names."""

        def __init__(self, forward: dict):
            self.forward = forward

        def match_and_rewrite(self, op, rewriter: PatternRewriter):
            k = op.attributes.get("grad_of")
            if k is None:
                return
            c = self.forward.get(k.data)
            if c is None:
                return
            current = op.attributes.get("chunk_id")
            if current is not None and current.data == c.data:
                return
            op.attributes["chunk_id"] = c
            rewriter.notify_op_modified(op)
            count[0] += 1

    class DropOneRankCollective(RewritePattern):
        """A collective over a one-rank group is its operand."""

        def match_and_rewrite(self, op, rewriter: PatternRewriter):
            if op.name not in collectives or len(op.operands) != 1:
                return
            group = GROUPS.get(op.attributes["ring_id"].data)
            if group is None or len(group) != 1:
                return
            rewriter.replace_all_uses_with(op.results[0], op.operands[0])
            rewriter.erase_op(op)
            count[0] += 1

    class TagLocalRegion(RewritePattern):
        """Tag each op between a dtensor_to_local and the next dtensor_from_local."""

        def match_and_rewrite(self, op, rewriter: PatternRewriter):
            if op.name != "dist_op.dtensor_to_local":
                return
            body = []
            cur = op.next_op
            while cur is not None and cur.name != "dist_op.dtensor_from_local":
                body.append(cur)
                cur = cur.next_op
            if cur is None or all("local" in o.attributes for o in body):
                return
            for o in body:
                if "local" not in o.attributes:
                    o.attributes["local"] = one
                    rewriter.notify_op_modified(o)
            count[0] += 1

    class TanhGelu(RewritePattern):
        """Exact gelu -> tanh gelu."""

        def match_and_rewrite(self, op, rewriter: PatternRewriter):
            if op.name == "pd_op.gelu" and op.attributes.get("approximate") == zero:
                op.attributes["approximate"] = one
                rewriter.notify_op_modified(op)
                count[0] += 1

    class EraseUnused(RewritePattern):
        """Erase constant and shape ops nobody reads."""

        def match_and_rewrite(self, op, rewriter: PatternRewriter):
            if op.name in dead and not any(r.uses for r in op.results):
                rewriter.erase_op(op)
                count[0] += 1

    def run(module):
        forward = {}
        for op in module.walk():
            a = op.attributes
            if "op_id" in a and "chunk_id" in a:
                forward[a["op_id"].data] = a["chunk_id"]
        patterns = [AllReduceSplitSlice(), GradTakesForwardChunk(forward),
                    DropOneRankCollective(), TagLocalRegion(), TanhGelu(), EraseUnused()]
        if decoys:
            patterns += decoy_patterns(op_class, xattr, RewritePattern, PatternRewriter,
                                       op_type_rewrite_pattern)
        walker = PatternRewriteWalker(GreedyRewritePatternApplier(patterns, dce_enabled=False))
        walker.rewrite_module(module)
        return module

    def once() -> dict:
        module = convert()
        count[0] = 0
        gc.collect()
        _, cpu, wall = timed(lambda: run(module))
        out = {"ops": 0, "reduce_scatter": 0, "all_reduce": 0, "local": 0, "grad_chunk": 0,
               "tanh_gelu": 0}
        for op in module.body.block.ops:
            a = op.attributes
            out["ops"] += 1
            out["reduce_scatter"] += op.name == "pd_op.reduce_scatter"
            out["all_reduce"] += op.name == "pd_op.all_reduce"
            out["local"] += a.get("local") == one
            out["grad_chunk"] += "grad_of" in a and "chunk_id" in a
            out["tanh_gelu"] += op.name == "pd_op.gelu" and a.get("approximate") == one
        del module
        return {"cpu": cpu, "wall": wall, "applications": count[0], "summary": out}
    return once


