"""Paddle's five passes, as our rules, on the pipeline MLP at 256 and 1,024 layers (rank 0).

Issue "seed passes": Paddle 3.3.1 takes 2.56 s (complete_chunk_id), 0.13 s (grad chunk), 0.19 s
(remove_other_rank_op_pass), 0.07 s (check_chunk_id) and 0.026 s (dist2dense) on the 1,024-layer
pp2 vpp2 model — 2.99 s; ours should take at most half, grow linearly, and conform. The program
is generated (``bench/mlp_program.py``), each pass timed inside the whole chain (engine time,
parsing and printing apart; ``bench/chain_scale.py`` prints every step).
Run: ``python bench/passes_scale.py [--layers 256 1024]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chain_scale import PADDLE_PASSES, measure  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from rulepass.engine.api import load_rules  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[256, 1024])
    args = parser.parse_args(argv)
    rules = load_rules([], installed=True)
    results = {n: measure(n, rules)["steps"] for n in args.layers}
    table = Table(title="Paddle's five passes as rules, rank 0 (seconds)")
    table.add_column("pass")
    for n in args.layers:
        table.add_column(f"{n} layers", justify="right")
    table.add_column("Paddle 3.3.1, 1,024 layers", justify="right")
    for name, paddle in list(PADDLE_PASSES.items()) + [("together", sum(PADDLE_PASSES.values()))]:
        values = [sum(r.get(k, 0.0) for k in PADDLE_PASSES) if name == "together"
                  else r.get(name, 0.0) for r in results.values()]
        table.add_row(name, *[f"{v:.3f}" for v in values], f"{paddle:.3f}")
    Console().print(table)
    last = sum(results[args.layers[-1]].get(k, 0.0) for k in PADDLE_PASSES)
    target = sum(PADDLE_PASSES.values()) / 2
    print(f"together at {args.layers[-1]} layers: {last:.2f} s; target {target:.2f} s "
          f"({'met' if last <= target else f'missed by {last / target:.1f}x'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
