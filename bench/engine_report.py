"""The report of bench/engine.py: the table (rich, and markdown), the verdicts against the speed
targets of docs/performance.md, the checks that make a run invalid, and the ``--json`` rows."""

from __future__ import annotations

from engine_program import REWRITES_PER_LAYER

#: Rewrites/s over the yardstick's, at 100k ops: with the 6 rules (both), with the 50.
TARGET_6 = 1.5
TARGET_XDSL = 5.0
TARGET_TINYGRAD = 2.0
TARGET_US_NO_MATCH = 3.0
TARGET_SCALING = 11.0

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
