"""Our whole chain and Paddle's passes on the pipeline MLP at 256 and 1,024 layers (pp2, vpp2).

Times each step of ``rulepass.chain.compile_rank`` for rank 0 (parsing apart), the five passes
Paddle 3.3.1 timed on the same model (issue "seed passes": complete_chunk_id 2.56 s, grad chunk
0.13 s, remove_other_rank_op_pass 0.19 s, check_chunk_id 0.07 s, dist2dense 0.026 s — 2.99 s
together; its append_backward 60–86 s and whole chain 116 s), and the growth from 256 to 1,024
layers (linear means ×4). The chain runs as ``rulepass run`` runs it without ``--out`` (no
trace), after one small warm-up compile (the rules' generated code is made once per process);
each size is compiled ``--repeat`` times and the best is shown, in CPU seconds of this process
(``time.process_time``: the machine is shared), the whole chain's wall seconds beside it.
Run: ``python bench/chain_scale.py [--layers 256 1024] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlp_program import pipeline_mlp  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from rulepass.chain import compile_rank  # noqa: E402
from rulepass.engine.api import load_rules  # noqa: E402
from rulepass.engine.pir.parse import parse_program  # noqa: E402

PADDLE_PASSES = {"complete_chunk_id": 2.56, "grad_chunk": 0.13, "prune_other_ranks": 0.19,
                 "check_chunk_id": 0.07, "dist_to_dense": 0.026}
PADDLE_BACKWARD = (60.0, 86.0)
PADDLE_CHAIN = 116.0


def measure(layers: int, rules, repeat: int = 1) -> dict:
    """CPU seconds per chain step (and parse, total; the total's wall seconds too) for rank 0
    of a ``layers``-layer program, each the best of ``repeat`` compiles."""
    text = pipeline_mlp(layers)
    start = time.process_time()
    program = parse_program(text)
    parse = time.process_time() - start
    ops = program.num_ops()
    best: dict = {}
    for _ in range(repeat):
        start, wall = time.process_time(), time.perf_counter()
        compiled = compile_rank(program, rules, 0, pp=2, vpp=2, seg_method="MyLinear",
                                micro_batches=2, trace=False)  # as `rulepass run` without --out
        total, wall = time.process_time() - start, time.perf_counter() - wall
        steps = {s.name: s.cpu_seconds for s in compiled.steps}
        if not best or total < best["total"]:
            best = {"total": total, "wall": wall}
        best["steps"] = {k: min(v, best.get("steps", {}).get(k, v)) for k, v in steps.items()}
        ops_after = compiled.program.num_ops()
        del compiled
    return {"ops": ops, "parse": parse, "ops_after": ops_after, **best}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--repeat", type=int, default=3, help="compiles per size (best shown)")
    args = parser.parse_args(argv)
    rules = load_rules([], installed=True)
    measure(16, rules)  # the rules' generated code, made once per process
    results = {n: measure(n, rules, args.repeat) for n in args.layers}
    console = Console()
    table = Table(title="chain on the pipeline MLP, rank 0 (CPU seconds, best of "
                        f"{args.repeat}; parsing apart)")
    table.add_column("step")
    for n in args.layers:
        table.add_column(f"{n} layers", justify="right")
    if len(args.layers) > 1:
        table.add_column(f"×({args.layers[-1]}/{args.layers[0]})", justify="right")
    table.add_column("Paddle 3.3.1, 1,024 layers", justify="right")
    names = list(results[args.layers[0]]["steps"])
    for name in names + ["total"]:
        row = [name]
        values = [results[n]["steps"].get(name) if name != "total" else results[n]["total"]
                  for n in args.layers]
        row += [f"{v:.3f}" for v in values]
        if len(args.layers) > 1:
            row.append(f"{values[-1] / values[0]:.1f}" if values[0] else "—")
        paddle = PADDLE_PASSES.get(name)
        if name == "append_backward":
            paddle = f"{PADDLE_BACKWARD[0]:.0f}–{PADDLE_BACKWARD[1]:.0f}"
        elif name == "total":
            paddle = f"{PADDLE_CHAIN:.0f}"
        row.append("" if paddle is None else str(paddle))
        table.add_row(*row)
    console.print(table)
    last = results[args.layers[-1]]
    ours_passes = sum(last["steps"].get(k, 0.0) for k in PADDLE_PASSES)
    console.print("ops: " + ", ".join(f"{n} layers: {r['ops']} in, {r['ops_after']} out"
                                       for n, r in results.items()))
    console.print("parse: " + ", ".join(f"{n} layers {r['parse']:.3f} s"
                                         for n, r in results.items()))
    console.print("whole chain, wall seconds of the same compile: " + ", ".join(
        f"{n} layers {r['wall']:.3f} s" for n, r in results.items()))
    console.print(f"Paddle's five passes at {args.layers[-1]} layers: ours {ours_passes:.3f} s "
                  f"vs 2.99 s ({ours_passes / 2.99:.2f}×); whole chain {last['total']:.2f} s vs "
                  f"116 s ({last['total'] / PADDLE_CHAIN:.3f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
