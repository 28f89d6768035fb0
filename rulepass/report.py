"""The rich report of ``rulepass run``: a loss table, rules applied per pass, bytes moved per rank
by collective, the bubble fraction and the verdict."""

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


def report_console() -> Console:
    """The console of the report on stdout: a terminal's own width; piped or redirected, no
    wrapping at rich's default 80 columns (a line a script greps for stays one line)."""
    import sys

    if sys.stdout.isatty():
        return _ReportConsole()
    return _ReportConsole(width=400, soft_wrap=True)


class _ReportConsole(Console):
    """rich's console, but a closed pipe (``rulepass run ... | head``) raises BrokenPipeError
    for ``main`` to end with exit 0 — rich's own handler exits 1."""

    def on_broken_pipe(self) -> None:
        """Called by rich when stdout's reader went away."""
        raise BrokenPipeError("stdout closed")


def _worst(errors: dict) -> tuple:
    """(name, error) of the largest error, NaN first."""
    return max(errors.items(), key=lambda kv: (kv[1] != kv[1], kv[1]))


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

    console.print(f"schedule bubble fraction: {report.bubble:.3f}")
    if report.param_errors:
        worst = _worst(report.param_errors)
        line = (f"final parameters: {len(report.param_errors)} compared, worst rel. error "
                f"{worst[1]:.1e} ({worst[0]})")
        if report.tensor_errors:
            tensor = _worst(report.tensor_errors)
            line += f"; per tensor max|diff|/max|ref| {tensor[1]:.1e} ({tensor[0]})"
        console.print(line)
    for sentence in report.unchecked:
        console.print(f"[yellow]not checked[/yellow]: {sentence}")
    if report.ok:
        checked = "every loss and parameter" if report.param_errors else "every loss"
        console.print(f"[bold green]OK[/bold green]: {checked} within rtol "
                      f"{report.rtol:g} of the reference"
                      + (" (see what was not checked above)" if report.unchecked else ""))
    else:
        console.print(f"[bold red]MISMATCH[/bold red]: some loss or parameter differs from the "
                      f"reference by more than rtol {report.rtol:g}")
