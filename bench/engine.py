"""The rule engine on synthetic training programs of 10k, 100k and 1M ops, with xDSL and tinygrad
as yardsticks.

The workload (``engine_program.py``'s :func:`build_program`) is a tensor- and sequence-parallel
training program for rank 0, built with ``engine/ir/builder.py``: 40 ops per layer — two parameters,
an rms_norm, a matmul into a ``dist_op.dtensor_to_local`` .. ``dist_op.dtensor_from_local`` local
region (gelu, scale), a row parallel matmul whose ``all_reduce`` is split along axis 0 with this
rank's piece sliced out (the sequence-parallel shape ``sp_fusion`` turns into a ``reduce_scatter``),
an all_gather, a residual add, an ``all_reduce`` over a one-rank group, an attention-like
transpose/matmul/softmax/matmul with a second residual add, two unused ops (``pd_op.shape``,
``pd_op.full_int_array``) — and, after all forward layers, their 17 grad ops in reverse layer order,
each linked to its forward op by ``grad_of``/``op_id``, with two ``sgd_`` updates per layer. Forward
ops carry ``chunk_id``.

The pass (``engine_rules.py``'s :data:`RULES`, ``.rw`` text) has the six rule shapes of the real
passes: all_reduce + split_with_num + builtin.slice → reduce_scatter (``rules/sp_fusion.rw``); the
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

Times are CPU seconds (``time.process_time``) of one run, best of ``--repeat`` at 10k and of
``--repeat-large`` (default 1) above, for every run alike. Each run is a fresh child process
(ours and the yardsticks' start from the same state: a long process's heap and caches would
favour whichever ran in it longest), and the runs take turns (each of the six once, then again),
so that a slow stretch of the machine falls on all of them. The engine's peak is the rise of the
resident set over the run (Linux: ``VmHWM`` after resetting it through ``/proc/self/clear_refs``,
minus ``VmRSS`` before), and the process's peak the largest ``resource.getrusage(...).ru_maxrss``
of the size's processes.

This file measures (each run in a child process) and runs the command line; the table, the
verdicts against the targets and the ``--json`` rows are ``engine_report.py``'s.

Run: ``python bench/engine.py [--sizes 10000 100000 1000000] [--quick] [--no-yardsticks]
[--repeat N] [--repeat-large N] [--markdown] [--json FILE] [--profile SIZE]
[--breakdown SIZE]``; ``--json`` writes
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
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the modules beside this one
from engine_program import build_program, layers_for, summary_rulepass  # noqa: E402
from engine_report import check_results, json_rows, print_report  # noqa: E402
from engine_rules import RULES, rules_text  # noqa: E402
from workload import RANK  # noqa: E402
from yardstick_tinygrad import tinygrad_runner  # noqa: E402
from yardstick_xdsl import xdsl_runner  # noqa: E402


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


def run_engine(rules, ops: int, pass_name: str, again: bool = False) -> dict:
    """Build a fresh program and run ``pass_name`` on it once (CPU time); with ``again``, also
    run the pass once more on its own output (nothing matches). The best of several runs is
    :func:`measure_size`'s, each run in a process of its own."""
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
        again_result, cpu, wall = timed(lambda: rules.run_pass(program, pass_name, rank=RANK))
        hwm = _status_kib("VmHWM") if reset else None
        row["again"] = {"cpu": cpu, "wall": wall,
                        "rewrites": sum(again_result.applied.values()),
                        "ops": program.num_ops(),
                        "peak_kib": (hwm - rss0) if hwm is not None and rss0 else None}
    row["summary"] = summary_rulepass(program)
    return row


#: The runs of one size: ours with the 6 and the 50 rules, then each yardstick's two.
ENGINE_RUNS = ("rules6", "rules50")
YARDSTICK_RUNS = ("xdsl", "xdsl50", "tinygrad", "tinygrad50")


def measure_base(ops: int) -> dict:
    """Building, printing and parsing the program of one size (in a child process)."""
    gc.disable()  # building a 1M-op graph with the cyclic collector on costs minutes
    program, build_cpu, build_wall = timed(lambda: build_program(ops))
    n_ops = program.num_ops()
    text, print_cpu, print_wall = timed(lambda: print_program(program))
    del program
    parsed, parse_cpu, parse_wall = timed(lambda: parse_program(text))
    assert parsed.num_ops() == n_ops
    return {"ops": n_ops, "layers": layers_for(ops), "build_cpu": build_cpu,
            "print_cpu": print_cpu, "print_wall": print_wall, "parse_cpu": parse_cpu,
            "parse_wall": parse_wall,
            "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}


def measure_run(ops: int, key: str) -> dict:
    """One run `key` (one of ENGINE_RUNS and YARDSTICK_RUNS) on a program of `ops` ops, in a
    child process of its own: every run, ours and the yardsticks', starts from the same fresh
    interpreter (a long process's heap and caches would favour whichever ran in it longest)."""
    gc.disable()
    # each first runs on a 200-op program, untimed: imports, the engine's generated code and
    # the libraries' own caches are made before the timed run, alike for all
    if key in ENGINE_RUNS:
        rules = load_rules_text(rules_text(decoys=True), "bench/engine.py")
        pass_name = "bench6" if key == "rules6" else "bench50"
        rules.run_pass(build_program(200), pass_name, rank=RANK)
        return run_engine(rules, ops, pass_name, again=key == "rules50")
    make = xdsl_runner if key.startswith("xdsl") else tinygrad_runner
    make(build_program(200), decoys=key.endswith("50"))()
    once = make(build_program(ops), decoys=key.endswith("50"))  # conversion untimed
    return once()


def child(args: list) -> dict:
    """The JSON a child process of :func:`main` printed (argv tail `args`); RuntimeError with
    its output when it failed."""
    cmd = [sys.executable, str(Path(__file__).resolve())] + args
    done = subprocess.run(cmd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_size(ops: int, repeat: int, yardsticks: bool) -> dict:
    """Every figure for one size: each run in a fresh child process (:func:`measure_run`),
    one run of each in turn, `repeat` times, each keeping its best. The machine's speed drifts
    over tens of seconds (the same engine run took 0.97-1.26 s in one evening, xDSL's 50-rule
    walk 3.8-5.4 s), so taking turns lets ours and the yardsticks it is compared with get their
    best from the same stretches of time."""
    row = child(["--child", str(ops), "--child-run", "base"])
    keys = ENGINE_RUNS + (YARDSTICK_RUNS if yardsticks else ())
    for _ in range(repeat):
        for key in keys:
            found = child(["--child", str(ops), "--child-run", key])
            row["maxrss_kib"] = max(row["maxrss_kib"], found.pop("maxrss_kib"))
            row[key] = _best(row.get(key), found)
    return row


def _best(old: dict | None, new: dict) -> dict:
    """The run of lower CPU time of `old` and `new`, with the larger peak of the two (a later
    run may reuse memory an earlier one freed: its rise of the resident set shows less); the
    no-match run (`again`) of each is compared apart."""
    if old is None:
        return new
    agains = [r["again"] for r in (old, new) if r.get("again") is not None]
    best = dict(new if new["cpu"] < old["cpu"] else old)
    if agains:
        best["again"] = dict(min(agains, key=lambda r: r["cpu"]))
        peaks = [r["peak_kib"] for r in agains if r.get("peak_kib") is not None]
        best["again"]["peak_kib"] = max(peaks) if peaks else None
    peaks = [r["peak_kib"] for r in (old, new) if r.get("peak_kib") is not None]
    if peaks or "peak_kib" in best:
        best["peak_kib"] = max(peaks) if peaks else None
    return best


# ---- report -----------------------------------------------------------------------------------
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
    parser.add_argument("--repeat-large", type=int, default=1, metavar="N",
                        help="runs at larger sizes, ours and the yardsticks' alike (best; "
                             "default 1: one run; a single run at 100k moves by about 20%% "
                             "with the machine's load)")
    parser.add_argument("--markdown", action="store_true", help="also print a markdown table")
    parser.add_argument("--json", metavar="FILE", help='write {"rows": [...]} to FILE')
    parser.add_argument("--profile", type=int, metavar="SIZE",
                        help="profile the 6-rule and the no-match 50-rule runs at SIZE ops")
    parser.add_argument("--breakdown", type=int, metavar="SIZE",
                        help="split the no-match cost at SIZE ops by rule group and exit")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--child-run", choices=("base",) + ENGINE_RUNS + YARDSTICK_RUNS,
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile)
        return 0
    if args.breakdown:
        breakdown(args.breakdown)
        return 0
    if args.child:
        if args.child_run == "base":
            print(json.dumps(measure_base(args.child)))
        else:
            found = measure_run(args.child, args.child_run)
            found["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print(json.dumps(found))
        return 0
    sizes = [1_000] if args.tiny else [10_000] if args.quick else args.sizes
    results = []
    for size in sizes:
        yard = not args.no_yardsticks and size <= 100_000
        repeat = args.repeat if size <= 10_000 else args.repeat_large
        try:
            results.append(measure_size(size, repeat, yard))
        except RuntimeError as error:
            sys.stderr.write(str(error))
            print(f"size {size}: a measuring process failed", file=sys.stderr)
            return 1
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
