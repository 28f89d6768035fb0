"""What ``rulepass run --localize`` costs: seconds of a plain run and of a localized one (best of
``--repeat``), per example, in process (no interpreter start-up), on the local backend.

A plain run compiles every rank and the single-device reference, trains the ranks and the
single-device program (float64 and float32; its share is the third column); a localized one also
records every op's float32 single-device results and compares every op result of every rank with
them.

    python bench/localize.py [--repeat 3] [EXAMPLE ...]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.example import load_example
from rulepass.reference import single_device
from rulepass.run import RunOptions, run_local

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def best(example, options, repeat: int) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_local(example, options)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = args.examples or sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())
    print("| example | plain (s) | of which single device (s) | --localize (s) | ratio | "
          "op results compared |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    rules = load_rules([], installed=True)
    for name in names:
        example = load_example(EXAMPLES / name)
        plain = best(example, RunOptions(), args.repeat)
        localized = best(example, RunOptions(localize=True), args.repeat)
        compared = run_local(example, RunOptions(localize=True)).localize["compared"]
        forward = parse_program(example.forward_text)
        alone = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            single_device(example, rules, forward, steps=example.steps,
                          micro_batches=example.parallel.micro_batches)
            alone.append(time.perf_counter() - start)
        print(f"| {name} | {plain:.2f} | {min(alone):.2f} | {localized:.2f} | "
              f"{localized / plain:.2f}x | {compared} |")


if __name__ == "__main__":
    main()
