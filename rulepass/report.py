"""The rich report of ``rulepass run``: a loss table, rules applied per pass, bytes moved per rank
by collective, the pipeline jobs each rank ran, the bubble fraction and the verdict."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from rulepass.run import Report, relative_error


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def print_report(console: Console, name: str, report: Report) -> None:
    """Print the tables and the one-line verdict."""
    losses = Table(title=f"{name}: loss per step", title_justify="left")
    losses.add_column("step", justify="right")
    losses.add_column("rulepass", justify="right")
    losses.add_column("reference", justify="right")
    losses.add_column("rel. error", justify="right")
    for i, (ours, ref) in enumerate(zip(report.losses, report.reference)):
        err = relative_error(ours, ref) if ours is not None else float("inf")
        style = "green" if err <= report.rtol else "red"
        losses.add_row(str(i), "—" if ours is None else f"{ours:.7g}", f"{ref:.7g}",
                       f"[{style}]{err:.1e}[/{style}]")
    console.print(losses)

    rules = Table(title="rules applied per pass (all ranks)", title_justify="left")
    rules.add_column("pass")
    rules.add_column("rule")
    rules.add_column("applied", justify="right")
    for pass_name, applied in report.rules.items():
        if not applied:
            rules.add_row(pass_name, "[dim]none[/dim]", "0")
        for i, (rule, count) in enumerate(sorted(applied.items())):
            rules.add_row(pass_name if i == 0 else "", rule, str(count))
    console.print(rules)

    comm = Table(title="bytes moved per rank by collective (ring figures, all steps)",
                 title_justify="left")
    comm.add_column("rank", justify="right")
    comm.add_column("collective")
    comm.add_column("calls", justify="right")
    comm.add_column("bytes", justify="right")
    for rank, stats in enumerate(report.comm):
        for i, (kind, figures) in enumerate(sorted(stats.items())):
            comm.add_row(str(rank) if i == 0 else "", kind, str(figures["calls"]),
                         _bytes(figures["bytes"]))
    console.print(comm)

    if report.jobs:
        jobs = Table(title="jobs each rank ran (all steps)", title_justify="left")
        jobs.add_column("rank", justify="right")
        jobs.add_column("stage", justify="right")
        jobs.add_column("jobs")
        for rank, counts in report.jobs.items():
            jobs.add_row(str(rank), str(report.stages.get(rank, "")),
                         ", ".join(f"{kind} {n}" for kind, n in counts.items()))
        console.print(jobs)

    worst = max(report.param_errors.items(), key=lambda kv: kv[1], default=(None, 0.0))
    console.print(f"schedule bubble fraction: {report.bubble:.3f} (simulated: F = B = W = 1, "
                  "full backward 2)")
    console.print(f"final parameters: {len(report.param_errors)} compared, worst rel. error "
                  f"{worst[1]:.1e}" + (f" ({worst[0]})" if worst[0] else ""))
    if report.ok:
        console.print(f"[bold green]OK[/bold green]: every loss and parameter within rtol "
                      f"{report.rtol:g} of the reference")
    else:
        console.print(f"[bold red]MISMATCH[/bold red]: some loss or parameter differs from the "
                      f"reference by more than rtol {report.rtol:g}")
