"""`rulepass rewrite --trace` as a user runs it: a one-rule fixpoint tagging every op of an
N-op chain (issue 16's target: <= 10 s at 50,000 ops, process time minus `rulepass print` of the
same file), and the trace's positions checked (one application per op, each at its op).
``--shape fan``: the README's ``fold_unit_scale`` erasing N - 1 unit scales that all read one
``pd_op.data`` (each erase sent the driver back to every other reader: 20,000 ops took 23 s).

Run: ``python bench/cli_trace.py [--sizes 5000 50000] [--shape chain|fan]``. Times are the child processes' CPU
seconds (user + system), so they do not count other engineers' load on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET_S = 10.0

RULE = """
pass tag_all {
  rule tag { match { o = pd_op.relu(x) } where not has(o.tag) rewrite { set o.tag = 1 } }
}
"""


def _program(n: int, op_text) -> str:
    """`pd_op.data` as op 0, then ops 1 .. n - 1 as ``op_text(i)`` writes them."""
    lines = ['    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>']
    lines += ["    " + op_text(i) for i in range(1, n)]
    return "{\n" + "\n".join(lines) + "\n}\n"


def chain_text(n: int) -> str:
    """`pd_op.data` then n - 1 relus, each reading the previous op."""
    return _program(n, lambda i: f'(%{i}) = "pd_op.relu" (%{i - 1}) {{}} : (tensor<4xf32>) -> '
                                 'tensor<4xf32>')


FAN_RULE = """
pass tag_all {
  rule fold_unit_scale { match { s = pd_op.scale(x) {scale: 1} } rewrite { erase s } }
}
"""


def fan_text(n: int) -> str:
    """`pd_op.data` then n - 1 unit `pd_op.scale` ops, all reading it."""
    return _program(n, lambda i: f'(%{i}) = "pd_op.scale" (%0) {{bias:0,scale:1}} : '
                                 '(tensor<4xf32>) -> tensor<4xf32>')


#: shape -> (program text, rules, the trace's positions for n ops): a chain's relus are tagged
#: where they stand; a fan's scales go in order, each at position 1 when its turn comes
SHAPES = {"chain": (chain_text, RULE, lambda n: list(range(1, n))),
          "fan": (fan_text, FAN_RULE, lambda n: [1] * (n - 1))}


def child_seconds(argv: list[str], env: dict) -> float:
    """CPU seconds of one child process running `argv` (its stdout discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(n: int, folder: Path, shape: str = "chain") -> dict:
    """Seconds of `rulepass rewrite --trace` and of `rulepass print` on an n-op program of
    `shape` (SHAPES)."""
    text, rule, expected = SHAPES[shape]
    program = folder / f"{shape}{n}.pir"
    program.write_text(text(n))
    rules = folder / "tag.rw"
    rules.write_text(rule)
    trace = folder / f"trace{n}.jsonl"
    cli = [sys.executable, "-m", "rulepass"]
    # as a user runs it: Python's compiled modules kept (this machine sets
    # PYTHONDONTWRITEBYTECODE), the rule cache on, after one untimed run that fills both
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "RULEPASS_CACHE")}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    warm = folder / "warm.pir"
    warm.write_text(text(10))
    child_seconds(cli + ["rewrite", str(warm), "--pass", "tag_all", "--rules", str(rules),
                         "-o", str(folder / "warm.out.pir")], env)
    printing = child_seconds(cli + ["print", str(program)], env)
    rewriting = child_seconds(cli + ["rewrite", str(program), "--pass", "tag_all", "--rules",
                                     str(rules), "--trace", str(trace), "-o",
                                     str(folder / "out.pir")], env)
    entries = [json.loads(line) for line in trace.read_text().splitlines()]
    positions = [entry["position"] for entry in entries]
    assert positions == expected(n), "each application where its op stands, in order"
    return {"size": n, "rewrite_s": rewriting, "print_s": printing,
            "engine_s": rewriting - printing, "applications": len(entries)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 50000])
    parser.add_argument("--shape", choices=sorted(SHAPES), default="chain")
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            rows.append(measure(n, Path(tmp), args.shape))
    print(f"{'ops':>8} {'rewrite s':>10} {'print s':>8} {'difference s':>13} {'target':>8}")
    for row in rows:
        met = "met" if row["engine_s"] <= TARGET_S else "MISSED"
        print(f"{row['size']:8d} {row['rewrite_s']:10.2f} {row['print_s']:8.2f} "
              f"{row['engine_s']:13.2f} "
              f"{'<= 10 s ' + met if row['size'] >= 50000 and args.shape == 'chain' else '':>8}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
