"""Instructions the engine benchmark's pass costs, counted by valgrind's callgrind: a figure that
does not drift with the machine, for comparing two versions of the engine.

On the shared machines this project runs on, the same engine run has taken 0.97 s and 1.26 s
within one evening (the parse of the same program 2.1 s and 2.9 s): a change of a few per cent
cannot be seen in CPU seconds. Instructions executed by the interpreter are the same run after run
(with ``PYTHONHASHSEED=0``). This counts them for ``bench/engine.py``'s workload: a process that
builds the program of SIZE ops and runs PASS on it, minus one that only builds it (both after a
warm-up on a small program, so that the rules' generated code is made before either count). Run
it in each checkout to compare (the two processes of one checkout run side by side).

Run: ``python bench/instructions.py [--pass bench50] [--size 10000]``; needs ``valgrind``.
Prints ``PASS SIZE: N instructions (N per op)``. It takes about 30 s at 10k ops.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(pass_name: str, size: int, run: bool) -> None:
    """Build the workload (and run the pass when `run`), after a warm-up."""
    sys.path.insert(0, str(HERE))
    from engine_program import build_program
    from engine_rules import rules_text
    from workload import RANK

    from rulepass.engine.api import load_rules_text

    gc.disable()
    rules = load_rules_text(rules_text(decoys=True), "bench/engine.py")
    rules.run_pass(build_program(200), pass_name, rank=RANK)  # the generated code is made here
    program = build_program(size)
    if run:
        rules.run_pass(program, pass_name, rank=RANK)


def count(pass_name: str, size: int, run: bool) -> subprocess.Popen:
    """A callgrind process counting the child's instructions (read with `collected`)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
            sys.executable, __file__, "--child", pass_name, str(size), "1" if run else "0"]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def collected(process: subprocess.Popen) -> int:
    """The instruction count callgrind printed; RuntimeError when the run failed."""
    out, _ = process.communicate()
    found = re.search(r"Collected : (\d+)", out)
    if process.returncode != 0 or found is None:
        raise RuntimeError(f"the counted run failed:\n{out[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pass", dest="pass_name", default="bench50",
                        choices=["bench6", "bench50"])
    parser.add_argument("--size", type=int, default=10_000, help="ops in the program")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2] == "1")
        return 0
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (not found on PATH)")
        return 1
    running, built = count(args.pass_name, args.size, True), count(args.pass_name, args.size, False)
    try:
        cost = collected(running) - collected(built)
    except RuntimeError as error:
        print(error)
        return 1
    print(f"{args.pass_name} {args.size}: {cost:,} instructions ({cost / args.size:,.0f} per op)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
