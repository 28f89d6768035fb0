"""The rich report of ``rulepass run``: a loss table (ours, Paddle's when the example has it, the
single-device run's), rules applied per pass, bytes moved per rank by collective, the bubble
fraction, the localizer's first divergence and the verdict."""

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


def _error_cell(ours, ref, rtol: float) -> str:
    err = relative_error(ours, ref) if ours is not None else float("inf")
    style = "green" if err <= rtol else "red"
    return f"[{style}]{err:.1e}[/{style}]"
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


def _names(names) -> str:
    """The first few names, and how many more."""
    names = list(names)
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _worst(errors: dict) -> tuple:
    """(name, error) of the largest error, NaN first."""
    return max(errors.items(), key=lambda kv: (kv[1] != kv[1], kv[1]))


def print_report(console: Console, name: str, report: Report) -> None:
    """Print the tables, the localizer's finding and the one-line verdict."""
    losses = Table(title=f"{name}: loss per step", title_justify="left")
    losses.add_column("step", justify="right")
    losses.add_column("rulepass", justify="right")
    if report.paddle is not None:
        losses.add_column("Paddle", justify="right")
        losses.add_column("rel. error", justify="right")
    single = report.single_device.get("losses", [])
    losses.add_column("single device", justify="right")
    losses.add_column("rel. error", justify="right")
    for i, ours in enumerate(report.losses):
        row = [str(i), "—" if ours is None else f"{ours:.7g}"]
        if report.paddle is not None and i < len(report.paddle):
            row += [f"{report.paddle[i]:.7g}", _error_cell(ours, report.paddle[i], report.rtol)]
        if i < len(single):
            row += [f"{single[i]:.7g}", _error_cell(ours, single[i], report.rtol)]
        losses.add_row(*row)
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

    console.print(f"schedule bubble fraction: {report.bubble:.3f} (simulated: F = B = W = 1, "
                  "full backward 2)")
    for label, errors in (("Paddle", report.param_errors),
                          ("single device", report.single_device_param_errors)):
        if not errors:
            continue
        worst = _worst(errors)
        line = (f"final parameters vs {label}: {len(errors)} compared, worst rel. error "
                f"{worst[1]:.1e} ({worst[0]})")
        if label == "Paddle" and report.tensor_errors:
            tensor = _worst(report.tensor_errors)
            line += f"; per tensor max|diff|/max|ref| {tensor[1]:.1e} ({tensor[0]})"
        if report.per_tensor.get(label):
            line += (f"; within tolerance per tensor only: {_names(report.per_tensor[label])} "
                     "(max|diff| <= atol + rtol·max|ref|)")
        console.print(line)
    for sentence in report.unchecked:
        console.print(f"[yellow]not checked[/yellow]: {sentence}")
    if report.localize is not None:
        first = report.localize["first"]
        if first is None:
            console.print(f"localize: {report.localize['compared']} op results compared with "
                          "the single-device run, none diverges")
        else:
            console.print(first["message"], markup=False, highlight=False, soft_wrap=True)
            console.print(f"  max |ours - single device| = {first['max_error']:.3e} on result "
                          f"{first['result']} (tolerance {first['tolerance']:.3e} = rtol "
                          f"{report.rtol:g} x max|reference| + atol {report.atol:g}), step "
                          f"{first['step']}; {report.localize['diverged']} op runs diverge in all",
                          markup=False, highlight=False, soft_wrap=True)
            for item in first.get("unchecked_inputs", []):
                console.print(f"  it reads {item}",
                              markup=False, highlight=False, soft_wrap=True)
    losses_vs = ["Paddle's reference"] if report.paddle is not None else []
    losses_vs.append("the single-device run")
    params_vs = ((["Paddle's reference"] if report.param_errors else [])
                 + (["the single-device run"] if report.single_device_param_errors else []))
    if report.ok:
        per_tensor = sorted({n for names in report.per_tensor.values() for n in names})
        rule = (f" (elementwise; per tensor for {_names(per_tensor)}: max|diff| <= atol + "
                "rtol·max|ref|)" if per_tensor else "")
        if params_vs == losses_vs:
            checked = f"every loss and parameter within rtol {report.rtol:g}{rule} of " + \
                " and ".join(losses_vs)
        else:  # say what each was compared with: no claim of a check that was not made
            checked = (f"every loss within rtol {report.rtol:g} of {' and '.join(losses_vs)}; "
                       f"every final parameter within rtol {report.rtol:g}{rule} of "
                       f"{' and '.join(params_vs)}")
        console.print(f"[bold green]OK[/bold green]: {checked}"
                      + (" (see what was not checked above)" if report.unchecked else ""),
                      highlight=False)
    else:
        console.print(f"[bold red]MISMATCH[/bold red]: some loss, parameter or op differs from "
                      f"{' or '.join(losses_vs)} by more than rtol {report.rtol:g}")
