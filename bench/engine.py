"""The rule engine on synthetic training programs of 10k, 100k and 1M ops, with xDSL and tinygrad
as yardsticks.

The workload (:func:`build_program`) is a tensor- and sequence-parallel training program for rank 0,
built with ``engine/ir/builder.py``: 40 ops per layer — two parameters, an rms_norm, a matmul into a
``dist_op.dtensor_to_local`` .. ``dist_op.dtensor_from_local`` local region (gelu, scale), a row
parallel matmul whose ``all_reduce`` is split along axis 0 with this rank's piece sliced out (the
sequence-parallel shape ``sp_fusion`` turns into a ``reduce_scatter``), an all_gather, a residual
add, an ``all_reduce`` over a one-rank group, an attention-like transpose/matmul/softmax/matmul
with a second residual add, two unused ops (``pd_op.shape``, ``pd_op.full_int_array``) — and,
after all forward layers, their 17 grad ops in reverse layer order, each linked to its forward op by
``grad_of``/``op_id``, with two ``sgd_`` updates per layer. Forward ops carry ``chunk_id``.

The pass (:data:`RULES`, ``.rw`` text) has the six rule shapes of the real passes:
all_reduce + split_with_num + builtin.slice → reduce_scatter (``rules/sp_fusion.rw``); the
``grad_of``/``op_id`` join copying ``chunk_id`` (``rules/grad_chunk.rw``); dropping a collective
over a one-rank group (``rules/drop_trivial_comm.rw``); a region rule tagging the ops of each local
region; an attribute rewrite (exact gelu → tanh gelu); erasing unused constant/shape ops. Each
layer gets 18 rewrites. The same pass with 44 decoy rules (:func:`decoy_rules`) that never fire —
22 on op names the program does not have, 22 on op names it has, with attributes or ``where``
clauses that are false — is run on a fresh program, then once more on its own output, where
nothing matches (the "no match" row).

Yardsticks, at 10k and 100k ops only: the same six rewrites with xDSL (``PatternRewriteWalker`` +
``GreedyRewritePatternApplier`` of ``RewritePattern`` classes, on a tiny IRDL dialect holding the
same ops) and with tinygrad (``graph_rewrite`` with ``UPat`` rules on a ``UOp`` graph). Both are
converted from the same rulepass program (conversion untimed), and their results are checked to
be the same program as the engine's (op counts by kind, tags, chunk ids). Rewrites per second of a
yardstick are the engine's rewrite count (the same work) over the yardstick's time; each port's
own count of pattern applications is shown beside it.

Times are CPU seconds (``time.process_time``) of one run, best of ``--repeat`` at 10k. Each size
runs in a child process, so that peak memory is per size: the engine's peak is the rise of the
resident set over the run (Linux: ``VmHWM`` after resetting it through ``/proc/self/clear_refs``,
minus ``VmRSS`` before), and the process's peak is ``resource.getrusage(...).ru_maxrss``.

Run: ``python bench/engine.py [--sizes 10000 100000 1000000] [--quick] [--no-yardsticks]
[--markdown] [--profile SIZE] [--breakdown SIZE]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from rulepass.engine.api import load_rules_text
from rulepass.engine.ir.attributes import Symbol
from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.ir.core import Program
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import VectorType

#: Sequence length (split across the 2 tensor-parallel ranks) and hidden size of the workload.
S, H = 8, 16
#: Ring ids: the tensor-parallel group of ranks 0 and 1, and a one-rank group.
TP_RING, SOLO_RING = 12, 7
GROUPS = {TP_RING: (0, 1), SOLO_RING: (0,)}
RANK = 0
OPS_PER_LAYER = 40
#: Ops outside the layers (data, lr, loss, grad seed, output).
FIXED_OPS = 5
#: Rewrites the pass makes per layer (1 fusion, 3 erasures, 1 drop, 1 region, 1 gelu, 11 grads).
REWRITES_PER_LAYER = 18

TARGET_XDSL = 5.0
TARGET_TINYGRAD = 2.0
TARGET_US_NO_MATCH = 3.0
TARGET_SCALING = 11.0

RULES = """
pass bench6(rank: int = 0) {
  # sp_fusion's shape: all_reduce(SUM) -> split_with_num -> this rank's slice => reduce_scatter
  rule allreduce_split_slice {
    match {
      ar = pd_op.all_reduce(x) {reduce_type: 0, ring_id: g}
      sp = pd_op.split_with_num(ar, _) {num: n}
      sl = builtin.slice(sp) {index: i}
    }
    where uses(ar) == 1 and uses(sp) == 1 and group_size(g) > 1 and n == group_size(g)
      and i == group_rank(g, $rank) and type(x).shape[0] % n == 0
    rewrite {
      rs = pd_op.reduce_scatter(x) {nranks: n, op_role: role(ar), ring_id: g} : type(sl)
      for c in [ar.chunk_id ?? "none"] where c != "none" { set rs.chunk_id = c }
      replace sl with rs
      erase sl, sp, ar
    }
  }

  # grad_chunk's join: each grad op takes the chunk of the forward op it was made for
  rule grad_takes_forward_chunk {
    match {
      f = * {op_id: k, chunk_id: c}
      g = * {grad_of: k}
    }
    where (g.chunk_id ?? -1) != c
    rewrite { set g.chunk_id = c }
  }

  # drop_trivial_comm's shape: a collective over a one-rank group does nothing
  rule drop_one_rank_collective {
    match { o = (pd_op.all_reduce | pd_op.all_gather | pd_op.c_identity)(x) {ring_id: g} }
    where group_size(g) == 1
    rewrite {
      replace o with x
      erase o
    }
  }

  # a region rule: tag every op of a dtensor_to_local .. dtensor_from_local region
  rule tag_local_region {
    match region t = dist_op.dtensor_to_local(_) .. f = dist_op.dtensor_from_local(_) as body
    where any(o in body, not has(o.local))
    rewrite { for o in body where not has(o.local) { set o.local = true } }
  }

  # an attribute rewrite: exact gelu -> tanh gelu
  rule tanh_gelu {
    match { o = pd_op.gelu {approximate: false} }
    rewrite { set o.approximate = true }
  }

  # erase constant and shape ops nobody reads
  rule erase_unused {
    match { o = (pd_op.full | pd_op.full_int_array | pd_op.shape) }
    where uses(o) == 0
    rewrite { erase o }
  }
}
"""

#: Op names the workload never has (decoys on them are never even tried).
ABSENT_OPS = ["pd_op.conv2d", "pd_op.flash_attn", "pd_op.embedding", "pd_op.dropout",
              "pd_op.layer_norm", "pd_op.relu", "pd_op.tanh", "pd_op.sigmoid", "pd_op.reshape",
              "pd_op.concat", "pd_op.c_identity", "pd_op.broadcast", "pd_op.send_v2",
              "pd_op.recv_v2", "pd_op.cast", "pd_op.fused_gemm_epilogue", "pd_op.squeeze",
              "pd_op.unsqueeze", "pd_op.where", "pd_op.pow", "pd_op.exp", "pd_op.adamw_"]


def decoy_rules() -> str:
    """44 rules that never fire: 22 rooted at op names the workload lacks, 22 at names it has
    whose attribute constraints, operand shapes or ``where`` clauses are false there."""
    rules = []
    for i, name in enumerate(ABSENT_OPS):
        rules.append(f"""
  rule absent_{i} {{
    match {{ o = {name}(x) {{op_role: r}} }}
    where uses(o) > 0 and r == 0
    rewrite {{ set o.decoy = {i} }}
  }}""")
    present = [
        ("pd_op.matmul {transpose_x: true}", "true"),
        ("pd_op.matmul {transpose_y: true}", "true"),
        ("pd_op.matmul(pd_op.transpose(_), _)", "true"),
        ("pd_op.matmul", "uses(o) > 1000"),
        ("pd_op.add(x, x)", "true"),
        ("pd_op.add", "has(o.decoy)"),
        ("pd_op.all_reduce {reduce_type: 1}", "true"),
        ("pd_op.all_reduce {ring_id: 99}", "true"),
        ("pd_op.softmax {axis: 0}", "true"),
        ("pd_op.gelu", "has(o.decoy)"),
        ("pd_op.scale {scale: 2.0}", "true"),
        ("pd_op.transpose {perm: [0, 1]}", "true"),
        ("pd_op.rms_norm", "uses(o) == 0"),
        ("builtin.parameter {parameter_name: \"none\"}", "true"),
        ("pd_op.split_with_num {num: 3}", "true"),
        ("builtin.slice {index: 5}", "true"),
        ("pd_op.all_gather {nranks: 8}", "true"),
        ("pd_op.matmul_grad", "has(o.decoy)"),
        ("pd_op.add_grad", "len(operands(o)) > 5"),
        ("pd_op.sgd_ {op_role: 0}", "true"),
        ("pd_op.add_n", "has(o.decoy)"),
        ("dist_op.dtensor_to_local", "has(o.decoy)"),
    ]
    for i, (pattern, where) in enumerate(present):
        rules.append(f"""
  rule present_{i} {{
    match {{ o = {pattern} }}
    where {where}
    rewrite {{ set o.decoy = {i} }}
  }}""")
    return "".join(rules)


def rules_text(decoys: bool) -> str:
    """The 6-rule pass ``bench6``, and with ``decoys`` also ``bench50`` (the same six + 44)."""
    if not decoys:
        return RULES
    body = RULES[RULES.index("{", RULES.index("pass bench6")) + 1: RULES.rindex("}")]
    return RULES + "\npass bench50(rank: int = 0) {" + body + decoy_rules() + "\n}\n"


# ---- workload ---------------------------------------------------------------------------------

def layers_for(ops: int) -> int:
    """Layers giving about ``ops`` ops (at least 1)."""
    return max(1, (ops - FIXED_OPS) // OPS_PER_LAYER)


def build_program(ops: int) -> Program:
    """The synthetic training program of about ``ops`` ops (see the module docstring)."""
    layers = layers_for(ops)
    program = Program(process_groups=GROUPS)
    b = Builder(program)
    t_sh, t_s4h, t_hs, t_ss = tensor((S, H)), tensor((S, 4 * H)), tensor((H, S)), tensor((S, S))
    t_w1, t_w2, t_half = tensor((H, 4 * H)), tensor((4 * H, H)), tensor((S // 2, H))
    t_vec, t_one = VectorType((t_half, t_half)), tensor((1,))
    t_axis, t_shape = tensor((1,), "int32"), tensor((2,), "int64")
    f32 = Symbol("float32")
    next_id = [0]

    def fwd(name, operands, attrs, types, layer):
        next_id[0] += 1
        attrs = {**attrs, "op_id": next_id[0], "chunk_id": layer % 4, "op_role": 0}
        return b.op(name, operands, attrs, types), next_id[0]

    x = b.op("pd_op.data", [], {"dtype": f32, "name": "x", "shape": [S, H]}, [t_sh]).result
    lr = b.op("pd_op.full", [], {"dtype": f32, "shape": [1], "value": 0.01}, [t_one]).result
    saved = []
    h = x
    for layer in range(layers):
        w1 = b.op("builtin.parameter", [], {"parameter_name": f"l{layer}.w1"}, [t_w1]).result
        w2 = b.op("builtin.parameter", [], {"parameter_name": f"l{layer}.w2"}, [t_w2]).result
        n, id_n = fwd("pd_op.rms_norm", [h], {"epsilon": 1e-6}, [t_sh], layer)
        m1, id_m1 = fwd("pd_op.matmul", [n.result, w1],
                        {"transpose_x": False, "transpose_y": False}, [t_s4h], layer)
        t = b.op("dist_op.dtensor_to_local", [m1.result], {"op_role": 0}, [t_s4h])
        g, id_g = fwd("pd_op.gelu", [t.result], {"approximate": False}, [t_s4h], layer)
        s, id_s = fwd("pd_op.scale", [g.result], {"bias": 0.0, "scale": 1.0}, [t_s4h], layer)
        fl = b.op("dist_op.dtensor_from_local", [s.result], {"op_role": 0}, [t_s4h])
        m2, id_m2 = fwd("pd_op.matmul", [fl.result, w2],
                        {"transpose_x": False, "transpose_y": False}, [t_sh], layer)
        ar = b.op("pd_op.all_reduce", [m2.result],
                  {"op_role": 0, "reduce_type": 0, "ring_id": TP_RING, "chunk_id": layer % 4},
                  [t_sh])
        axis = b.op("pd_op.full", [], {"dtype": Symbol("int32"), "shape": [1], "value": 0},
                    [t_axis])
        sp = b.op("pd_op.split_with_num", [ar.result, axis.result], {"num": 2}, [t_vec])
        sl = b.op("builtin.slice", [sp.result], {"index": RANK}, [t_half])
        ag = b.op("pd_op.all_gather", [sl.result], {"nranks": 2, "ring_id": TP_RING}, [t_sh])
        r, id_r = fwd("pd_op.add", [h, ag.result], {}, [t_sh], layer)
        one = b.op("pd_op.all_reduce", [r.result],
                   {"op_role": 0, "reduce_type": 0, "ring_id": SOLO_RING}, [t_sh])
        b.op("pd_op.shape", [r.result], {}, [t_shape])
        b.op("pd_op.full_int_array", [], {"dtype": Symbol("int64"), "value": [S, H]}, [t_shape])
        tr, id_tr = fwd("pd_op.transpose", [one.result], {"perm": [1, 0]}, [t_hs], layer)
        att, id_att = fwd("pd_op.matmul", [one.result, tr.result],
                          {"transpose_x": False, "transpose_y": False}, [t_ss], layer)
        sm, id_sm = fwd("pd_op.softmax", [att.result], {"axis": -1}, [t_ss], layer)
        o, id_o = fwd("pd_op.matmul", [sm.result, one.result],
                      {"transpose_x": False, "transpose_y": False}, [t_sh], layer)
        h2, id_h2 = fwd("pd_op.add", [one.result, o.result], {}, [t_sh], layer)
        ids = (id_n, id_m1, id_g, id_s, id_m2, id_r, id_tr, id_att, id_sm, id_o, id_h2)
        saved.append((w1, w2, n, t, g, s, fl, r, one, ag, tr, sm, h, o, ids))
        h = h2.result
    loss = b.op("pd_op.mean", [h], {"keepdim": False, "op_role": 0}, [tensor(())])
    gh = b.op("pd_op.full", [], {"dtype": f32, "shape": [S, H], "value": 1.0, "op_role": 1},
              [t_sh]).result

    def bwd(name, operands, grad_of, types, extra=None):
        attrs = {"op_role": 1, **(extra or {})}
        if grad_of is not None:
            attrs["grad_of"] = grad_of
        return b.op(name, operands, attrs, types)

    for w1, w2, n, t, g, s, fl, r, one, ag, tr, sm, h_in, o, ids in reversed(saved):
        id_n, id_m1, id_g, id_s, id_m2, id_r, id_tr, id_att, id_sm, id_o, id_h2 = ids
        a1 = bwd("pd_op.add_grad", [one.result, o.result, gh], id_h2, [t_sh, t_sh])
        m_o = bwd("pd_op.matmul_grad", [sm.result, one.result, a1.results[1]], id_o, [t_ss, t_sh])
        d_sm = bwd("pd_op.softmax_grad", [sm.result, m_o.results[0]], id_sm, [t_ss])
        m_att = bwd("pd_op.matmul_grad", [one.result, tr.result, d_sm.result], id_att,
                    [t_sh, t_hs])
        d_tr = bwd("pd_op.transpose", [m_att.results[1]], id_tr, [t_sh], {"perm": [1, 0]})
        comb = bwd("builtin.combine", [a1.results[0], m_o.results[1], m_att.results[0],
                                       d_tr.result], None, [VectorType((t_sh,) * 4)])
        d_one = bwd("pd_op.add_n", [comb.result], None, [t_sh])
        a2 = bwd("pd_op.add_grad", [h_in, ag.result, d_one.result], id_r, [t_sh, t_sh])
        m2g = bwd("pd_op.matmul_grad", [fl.result, w2, a2.results[1]], id_m2, [t_s4h, t_w2])
        d_s = bwd("pd_op.scale", [m2g.results[0]], id_s, [t_s4h], {"bias": 0.0, "scale": 1.0})
        d_g = bwd("pd_op.gelu_grad", [t.result, d_s.result], id_g, [t_s4h],
                  {"approximate": False})
        m1g = bwd("pd_op.matmul_grad", [n.result, w1, d_g.result], id_m1, [t_sh, t_w1])
        d_n = bwd("pd_op.all_reduce", [m1g.results[0]], None, [t_sh],
                  {"reduce_type": 0, "ring_id": TP_RING})
        d_h = bwd("pd_op.rms_norm_grad", [h_in, d_n.result], id_n, [t_sh])
        gh = bwd("pd_op.add", [a2.results[0], d_h.result], None, [t_sh]).result
        b.op("pd_op.sgd_", [w1, lr, m1g.results[1]], {"op_role": 2}, [t_w1])
        b.op("pd_op.sgd_", [w2, lr, m2g.results[1]], {"op_role": 2}, [t_w2])
    b.op("builtin.shadow_output", [loss.result], {"output_name": "loss"}, [])
    return program


def summary_rulepass(program: Program) -> dict:
    """Counts that say what the pass did, comparable across the three engines."""
    out = {"ops": 0, "reduce_scatter": 0, "all_reduce": 0, "local": 0, "grad_chunk": 0,
           "tanh_gelu": 0}
    for op in program.walk():
        a = op.attributes
        out["ops"] += 1
        out["reduce_scatter"] += op.name == "pd_op.reduce_scatter"
        out["all_reduce"] += op.name == "pd_op.all_reduce"
        out["local"] += a.get("local") is True
        out["grad_chunk"] += "grad_of" in a and "chunk_id" in a
        out["tanh_gelu"] += op.name == "pd_op.gelu" and a.get("approximate") is True
    return out


# ---- measuring --------------------------------------------------------------------------------

def _status_kib(key: str) -> int | None:
    """A ``/proc/self/status`` figure in KiB (``VmRSS``, ``VmHWM``), None where there is none."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    """Reset the resident-set high-water mark (Linux ``clear_refs`` 5); whether it worked."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def timed(fn):
    """(result, CPU seconds, wall seconds) of ``fn()``."""
    c0, w0 = time.process_time(), time.perf_counter()
    result = fn()
    return result, time.process_time() - c0, time.perf_counter() - w0


def run_engine(rules, ops: int, pass_name: str, repeat: int, again: bool = False) -> dict:
    """Build a fresh program and run ``pass_name`` on it, best of ``repeat`` (CPU time); with
    ``again``, also run the pass once more on its own output (nothing matches)."""
    best = None
    for _ in range(repeat):
        program = build_program(ops)
        gc.collect()
        rss0 = _status_kib("VmRSS")
        reset = _reset_peak()
        result, cpu, wall = timed(lambda: rules.run_pass(program, pass_name, rank=RANK))
        hwm = _status_kib("VmHWM") if reset else None
        row = {"cpu": cpu, "wall": wall, "rewrites": len(result.trace),
               "rules_fired": sorted({a.rule for a in result.trace}),
               "peak_kib": (hwm - rss0) if hwm is not None and rss0 is not None else None}
        if again:
            rss0 = _status_kib("VmRSS")
            reset = _reset_peak()
            res2, cpu2, wall2 = timed(lambda: rules.run_pass(program, pass_name, rank=RANK))
            hwm = _status_kib("VmHWM") if reset else None
            row["again"] = {"cpu": cpu2, "wall": wall2, "rewrites": len(res2.trace),
                            "ops": program.num_ops(),
                            "peak_kib": (hwm - rss0) if hwm is not None and rss0 else None}
        row["summary"] = summary_rulepass(program)
        if best is None or row["cpu"] < best["cpu"]:
            best = row
        del program, result
        gc.collect()
    return best


def measure_size(ops: int, repeat: int, yardsticks: bool) -> dict:
    """Every figure for one size (run in a child process, see :func:`main`)."""
    gc.disable()  # building a 1M-op graph with the cyclic collector on costs minutes
    rules = load_rules_text(rules_text(decoys=True), "bench/engine.py")
    program, build_cpu, build_wall = timed(lambda: build_program(ops))
    n_ops = program.num_ops()
    text, print_cpu, print_wall = timed(lambda: print_program(program))
    del program
    parsed, parse_cpu, parse_wall = timed(lambda: parse_program(text))
    assert parsed.num_ops() == n_ops
    del parsed, text
    gc.collect()
    row = {"ops": n_ops, "layers": layers_for(ops), "build_cpu": build_cpu,
           "print_cpu": print_cpu, "print_wall": print_wall, "parse_cpu": parse_cpu,
           "parse_wall": parse_wall}
    row["rules6"] = run_engine(rules, ops, "bench6", repeat)
    row["rules50"] = run_engine(rules, ops, "bench50", repeat, again=True)
    if yardsticks:
        from_program = build_program(ops)
        row["xdsl"] = run_xdsl(from_program, repeat)
        row["tinygrad"] = run_tinygrad(from_program, repeat)
    row["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return row


# ---- xDSL yardstick ---------------------------------------------------------------------------

def run_xdsl(program: Program, repeat: int) -> dict:
    """The six rewrites as xDSL ``RewritePattern``s, on ``program`` converted to a tiny IRDL
    dialect (conversion untimed); best of ``repeat`` CPU times."""
    from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, NoneType, StringAttr, \
        TensorType, f32
    from xdsl.ir import Block, Region
    from xdsl.irdl import IRDLOperation, irdl_op_definition, var_operand_def, var_result_def
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, \
        PatternRewriteWalker, RewritePattern

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
        walker = PatternRewriteWalker(GreedyRewritePatternApplier(
            [AllReduceSplitSlice(), GradTakesForwardChunk(forward), DropOneRankCollective(),
             TagLocalRegion(), TanhGelu(), EraseUnused()], dce_enabled=False))
        walker.rewrite_module(module)
        return module

    best = None
    for _ in range(repeat):
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
        row = {"cpu": cpu, "wall": wall, "applications": count[0], "summary": out}
        if best is None or cpu < best["cpu"]:
            best = row
        del module
    return best


# ---- tinygrad yardstick -----------------------------------------------------------------------

# tinygrad compiles pattern callbacks from their code and globals (closures are refused), so the
# callbacks are module functions; ``run_tinygrad`` puts ``Ops``, ``UOp`` and ``TG_VOID`` into the
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


def run_tinygrad(program: Program, repeat: int) -> dict:
    """The six rewrites as tinygrad ``UPat`` rules run by ``graph_rewrite``, on ``program``
    converted to a ``UOp`` graph (conversion untimed); best of ``repeat`` CPU times.

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
    matcher = PatternMatcher([
        (UPat(Ops.CUSTOM, name="sl", src=(UPat(Ops.CUSTOM, name="sp", src=(
            UPat(Ops.CUSTOM, name="ar", src=(UPat(name="x"),)), UPat())),)), tg_fuse),
        (UPat(Ops.CUSTOM, name="o"), tg_per_op),
        (UPat(Ops.SINK, name="s"), tg_prune),
    ])

    def run(sink):
        forward = {}
        for node in sink.toposort():
            if node.op is Ops.CUSTOM and isinstance(node.arg[1], tuple):
                a = dict(node.arg[1])
                if "op_id" in a and "chunk_id" in a:
                    forward[a["op_id"]] = a["chunk_id"]
        ctx = TgContext(forward)
        return graph_rewrite(sink, matcher, ctx=ctx), ctx

    best = None
    for _ in range(repeat):
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
        row = {"cpu": cpu, "wall": wall, "applications": ctx.count, "summary": out}
        if best is None or cpu < best["cpu"]:
            best = row
        del sink, result
    return best


# ---- report -----------------------------------------------------------------------------------

def fmt_int(n) -> str:
    """``n`` with thousands separators."""
    return f"{n:,.0f}"


def verdict(shortfall: float) -> str:
    """"met" when ``shortfall`` (how many times worse than the target) is at most 1."""
    return "met" if shortfall <= 1 else f"missed by {shortfall:.2f}×"


def build_rows(results: list[dict]) -> tuple[list[str], list[list[str]], list[str]]:
    """(header, rows, verdict lines) of the report."""
    header = ["size", "ops", "run", "engine CPU s", "µs/op", "rewrites", "rewrites/s",
              "peak MiB"]
    rows: list[list[str]] = []
    for r in results:
        size = fmt_int(r["ops"])
        mib = (lambda k: "—" if k is None else f"{k / 1024:.0f}")
        for label, key in (("6 rules", "rules6"), ("50 rules (6 + 44 decoys)", "rules50")):
            e = r[key]
            rows.append([size, fmt_int(r["ops"]), label, f"{e['cpu']:.3f}",
                         f"{e['cpu'] / r['ops'] * 1e6:.2f}", fmt_int(e["rewrites"]),
                         fmt_int(e["rewrites"] / e["cpu"]), mib(e["peak_kib"])])
        a = r["rules50"]["again"]
        rows.append([size, fmt_int(a["ops"]), "50 rules, no match (fixpoint input)",
                     f"{a['cpu']:.3f}", f"{a['cpu'] / a['ops'] * 1e6:.2f}",
                     fmt_int(a["rewrites"]), "—", mib(a["peak_kib"])])
        for label, key in (("xDSL PatternRewriteWalker", "xdsl"),
                           ("tinygrad graph_rewrite", "tinygrad")):
            y = r.get(key)
            if y is None:
                continue
            same = "same result" if y["summary"] == r["rules6"]["summary"] else "DIFFERENT"
            rows.append([size, fmt_int(r["ops"]), f"{label} ({same}; "
                         f"{fmt_int(y['applications'])} applications)", f"{y['cpu']:.3f}",
                         f"{y['cpu'] / r['ops'] * 1e6:.2f}", fmt_int(r["rules6"]["rewrites"]),
                         fmt_int(r["rules6"]["rewrites"] / y["cpu"]), "—"])
        rows.append([size, fmt_int(r["ops"]), "print (print_program)", f"{r['print_cpu']:.3f}",
                     f"{r['print_cpu'] / r['ops'] * 1e6:.2f}", "", "", ""])
        rows.append([size, fmt_int(r["ops"]), "parse (parse_program)", f"{r['parse_cpu']:.3f}",
                     f"{r['parse_cpu'] / r['ops'] * 1e6:.2f}", "", "",
                     f"{r['maxrss_kib'] / 1024:.0f} (process maxrss)"])
    verdicts = []
    for r in results:
        e = r["rules6"]
        for key, name, target in (("xdsl", "xDSL", TARGET_XDSL),
                                  ("tinygrad", "tinygrad", TARGET_TINYGRAD)):
            y = r.get(key)
            if y is None:
                continue
            ratio = y["cpu"] / e["cpu"]
            verdicts.append(f"{fmt_int(r['ops'])} ops: {ratio:.2f}× {name}'s rewrites/s "
                            f"(target ≥ {target:g}×: "
                            f"{verdict(target / ratio)})")
        a = r["rules50"]["again"]
        us = a["cpu"] / a["ops"] * 1e6
        verdicts.append(f"{fmt_int(r['ops'])} ops: {us:.2f} µs/op with 50 rules and no match "
                        f"(target ≤ {TARGET_US_NO_MATCH:g}: "
                        f"{verdict(us / TARGET_US_NO_MATCH)})")
    big = [r for r in results if r["ops"] >= 900_000]
    mid = [r for r in results if 90_000 <= r["ops"] < 200_000]
    if big and mid:
        for key, label in (("rules6", "6 rules"), ("rules50", "50 rules")):
            ratio = big[0][key]["cpu"] / mid[0][key]["cpu"]
            verdicts.append(f"time(1M)/time(100k), {label}: {ratio:.2f} "
                            f"(ops ×{big[0]['ops'] / mid[0]['ops']:.2f}; target ≤ "
                            f"{TARGET_SCALING:g}: "
                            f"{verdict(ratio / TARGET_SCALING)})")
    return header, rows, verdicts


def print_report(results: list[dict], markdown: bool) -> None:
    """The rich table (and the markdown table with ``markdown``) and the target verdicts."""
    from rich.console import Console
    from rich.table import Table

    header, rows, verdicts = build_rows(results)
    console = Console(width=200)
    table = Table(title="rulepass engine benchmark (CPU seconds; parse and print apart)")
    for i, h in enumerate(header):
        table.add_column(h, justify="left" if i in (0, 2) else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for line in verdicts:
        console.print(line)
    for r in results:
        fired = r["rules50"]["rules_fired"]
        console.print(f"{fmt_int(r['ops'])} ops ({r['layers']} layers): rules fired with 50: "
                      f"{len(fired)} ({', '.join(fired)}); build {r['build_cpu']:.2f} s")
    if markdown:
        print()
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        print()
        for line in verdicts:
            print(f"- {line}")


def check_results(results: list[dict]) -> list[str]:
    """Problems that make the benchmark invalid: decoys that fired, a no-match run that rewrote,
    a rewrite count off the design, a yardstick with a different result."""
    problems = []
    for r in results:
        six, fifty = r["rules6"], r["rules50"]
        expected = REWRITES_PER_LAYER * r["layers"]
        if six["rewrites"] != expected:
            problems.append(f"{r['ops']} ops: 6 rules made {six['rewrites']} rewrites, "
                            f"expected {expected}")
        if fifty["rewrites"] != six["rewrites"] or fifty["summary"] != six["summary"]:
            problems.append(f"{r['ops']} ops: the decoys changed the outcome")
        if fifty["again"]["rewrites"]:
            problems.append(f"{r['ops']} ops: the no-match run rewrote")
        for key in ("xdsl", "tinygrad"):
            y = r.get(key)
            if y is not None and y["summary"] != six["summary"]:
                problems.append(f"{r['ops']} ops: {key} result {y['summary']} differs from "
                                f"the engine's {six['summary']}")
    return problems


def profile(ops: int) -> None:
    """cProfile of the 6-rule pass on a fresh program (rewriting), then of the 50-rule pass on
    its fixpoint output (no match): the top functions of each by own time."""
    import cProfile
    import pstats

    gc.disable()
    rules = load_rules_text(rules_text(decoys=True), "bench/engine.py")
    for title, pass_name, warm in (("6 rules, rewriting", "bench6", False),
                                   ("50 rules, no match", "bench50", True)):
        program = build_program(ops)
        if warm:
            rules.run_pass(program, pass_name, rank=RANK)
        prof = cProfile.Profile()
        prof.runcall(lambda: rules.run_pass(program, pass_name, rank=RANK))
        print(f"==== {title} ({ops:,} ops) ====")
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def breakdown(ops: int, repeat: int = 5) -> None:
    """Split the no-match cost at ``ops`` ops: the driver's floor (one rule on an absent op
    name), the five rules other than the ``grad_of`` join, the six, and the fifty; each run on
    the fixpoint output of ``bench50``, best of ``repeat`` CPU times."""
    gc.disable()
    body = RULES[RULES.index("{", RULES.index("pass bench6")) + 1: RULES.rindex("}")]
    start, end = body.index("  # grad_chunk's join"), body.index("  # drop_trivial_comm's shape")
    text = (rules_text(decoys=True)
            + "\npass floor { rule r { match { o = pd_op.conv2d } rewrite { erase o } } }\n"
            + "pass no_join(rank: int = 0) {" + body[:start] + body[end:] + "}\n")
    rules = load_rules_text(text, "bench/engine.py")
    program = build_program(ops)
    rules.run_pass(program, "bench50", rank=RANK)
    n = program.num_ops()
    print(f"no-match cost on {n:,} ops (the fixpoint of {ops:,}), best of {repeat} CPU s:")
    for name, label in (("floor", "1 rule on an absent op name (driver floor)"),
                        ("no_join", "the 5 rules without the grad_of/op_id join"),
                        ("bench6", "the 6 rules"), ("bench50", "the 50 rules")):
        params = {} if name == "floor" else {"rank": RANK}
        best = min(timed(lambda: rules.run_pass(program, name, **params))[1]
                   for _ in range(repeat))
        print(f"  {label:45s} {best:7.3f} s {best / n * 1e6:7.2f} µs/op")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--quick", action="store_true", help="10k ops only")
    parser.add_argument("--tiny", action="store_true", help="1k ops only (the smoke test)")
    parser.add_argument("--no-yardsticks", action="store_true", help="skip xDSL and tinygrad")
    parser.add_argument("--repeat", type=int, default=3, help="runs at sizes up to 10k (best)")
    parser.add_argument("--markdown", action="store_true", help="also print a markdown table")
    parser.add_argument("--profile", type=int, metavar="SIZE",
                        help="profile the 6-rule and the no-match 50-rule runs at SIZE ops")
    parser.add_argument("--breakdown", type=int, metavar="SIZE",
                        help="split the no-match cost at SIZE ops by rule group and exit")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-yardsticks", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile)
        return 0
    if args.breakdown:
        breakdown(args.breakdown)
        return 0
    if args.child:
        repeat = args.repeat if args.child <= 10_000 else 1
        print(json.dumps(measure_size(args.child, repeat, args.child_yardsticks)))
        return 0
    sizes = [1_000] if args.tiny else [10_000] if args.quick else args.sizes
    results = []
    for size in sizes:
        yard = not args.no_yardsticks and size <= 100_000
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(size),
               "--repeat", str(args.repeat)] + (["--child-yardsticks"] if yard else [])
        done = subprocess.run(cmd, capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": "0"})
        if done.returncode != 0:
            sys.stderr.write(done.stdout + done.stderr)
            print(f"size {size}: the measuring process failed", file=sys.stderr)
            return 1
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"measured {size:,} ops", file=sys.stderr, flush=True)
    print_report(results, args.markdown)
    problems = check_results(results)
    for p in problems:
        print(f"INVALID: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
