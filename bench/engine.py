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

Yardsticks, at 10k and 100k ops only (``yardstick_xdsl.py``, ``yardstick_tinygrad.py``): the same
six rewrites, then the same 50 rules (the 44 decoys written as each library's users write them:
xDSL, one ``RewritePattern`` per decoy typed on its root op with ``op_type_rewrite_pattern``;
tinygrad, one ``UPat`` per decoy in the ``PatternMatcher``), with xDSL (``PatternRewriteWalker`` +
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
[--markdown] [--json FILE] [--profile SIZE] [--breakdown SIZE]``; ``--json`` writes
``{"rows": [{"size", "run", "engine_s", "us_per_op", "rewrites", "rewrites_per_s"}]}`` with
``run`` one of ``engine 6 rules``, ``engine 50 rules``, ``engine 50 rules no match``,
``xDSL 6 rules``, ``xDSL 50 rules``, ``tinygrad 6 rules``, ``tinygrad 50 rules``.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the yardsticks and workload.py
from workload import ABSENT_OPS, GROUPS, PRESENT, RANK, SOLO_RING, TP_RING  # noqa: E402
from yardstick_tinygrad import run_tinygrad  # noqa: E402
from yardstick_xdsl import run_xdsl  # noqa: E402

#: Sequence length (split across the 2 tensor-parallel ranks) and hidden size of the workload.
S, H = 8, 16
OPS_PER_LAYER = 40
#: Ops outside the layers (data, lr, loss, grad seed, output).
FIXED_OPS = 5
#: Rewrites the pass makes per layer (1 fusion, 3 erasures, 1 drop, 1 region, 1 gelu, 11 grads).
REWRITES_PER_LAYER = 18

#: Rewrites/s over the yardstick's, at 100k ops: with the 6 rules (both), with the 50.
TARGET_6 = 1.5
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
    for i, (pattern, where, _) in enumerate(PRESENT):
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
        applied = result.applied  # the trace is not read: what a user who asks for none pays
        row = {"cpu": cpu, "wall": wall, "rewrites": sum(applied.values()),
               "rules_fired": sorted(applied),
               "peak_kib": (hwm - rss0) if hwm is not None and rss0 is not None else None}
        if again:
            rss0 = _status_kib("VmRSS")
            reset = _reset_peak()
            res2, cpu2, wall2 = timed(lambda: rules.run_pass(program, pass_name, rank=RANK))
            hwm = _status_kib("VmHWM") if reset else None
            row["again"] = {"cpu": cpu2, "wall": wall2, "rewrites": sum(res2.applied.values()),
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
        row["xdsl50"] = run_xdsl(from_program, repeat, decoys=True)
        row["tinygrad"] = run_tinygrad(from_program, repeat)
        row["tinygrad50"] = run_tinygrad(from_program, repeat, decoys=True)
    row["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return row


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
        for label, key in (("xDSL PatternRewriteWalker, 6 rules", "xdsl"),
                           ("xDSL PatternRewriteWalker, 50 rules", "xdsl50"),
                           ("tinygrad graph_rewrite, 6 rules", "tinygrad"),
                           ("tinygrad graph_rewrite, 50 rules", "tinygrad50")):
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
        for ours, key, name, rules, target in (
                ("rules6", "xdsl", "xDSL", 6, TARGET_6),
                ("rules6", "tinygrad", "tinygrad", 6, TARGET_6),
                ("rules50", "xdsl50", "xDSL", 50, TARGET_XDSL),
                ("rules50", "tinygrad50", "tinygrad", 50, TARGET_TINYGRAD)):
            y = r.get(key)
            if y is None:
                continue
            ratio = y["cpu"] / r[ours]["cpu"]
            verdicts.append(f"{fmt_int(r['ops'])} ops: {ratio:.2f}× {name}'s rewrites/s with "
                            f"{rules} rules each (target ≥ {target:g}×: "
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
        for key in ("xdsl", "tinygrad", "xdsl50", "tinygrad50"):
            y = r.get(key)
            if y is not None and y["summary"] != six["summary"]:
                problems.append(f"{r['ops']} ops: {key} result {y['summary']} differs from "
                                f"the engine's {six['summary']}")
    return problems


def json_rows(results: list[dict]) -> list[dict]:
    """The rows `--json` writes: size, run, engine_s (CPU s of the run), us_per_op, rewrites and
    rewrites_per_s (a yardstick's rewrites are the engine's: the same work)."""
    rows = []

    def add(size, run, seconds, ops, rewrites):
        rows.append({"size": size, "run": run, "engine_s": seconds,
                     "us_per_op": seconds / ops * 1e6, "rewrites": rewrites,
                     "rewrites_per_s": rewrites / seconds if seconds else 0.0})

    for r in results:
        size, ops = r["ops"], r["ops"]
        rewrites = r["rules6"]["rewrites"]
        add(size, "engine 6 rules", r["rules6"]["cpu"], ops, rewrites)
        add(size, "engine 50 rules", r["rules50"]["cpu"], ops, r["rules50"]["rewrites"])
        again = r["rules50"]["again"]
        add(size, "engine 50 rules no match", again["cpu"], again["ops"], again["rewrites"])
        for key, run in (("xdsl", "xDSL 6 rules"), ("xdsl50", "xDSL 50 rules"),
                         ("tinygrad", "tinygrad 6 rules"), ("tinygrad50", "tinygrad 50 rules")):
            if key in r:
                add(size, run, r[key]["cpu"], ops, rewrites)
    return rows


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
    parser.add_argument("--json", metavar="FILE", help='write {"rows": [...]} to FILE')
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
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": json_rows(results)}, indent=1) + "\n")
    problems = check_results(results)
    for p in problems:
        print(f"INVALID: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
