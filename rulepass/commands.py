"""Subcommands of ``rulepass`` beyond ``print`` and ``verify``: each registers its argparse
sub-parser in :data:`REGISTRY` (name → ``register(subparsers)``)."""

from __future__ import annotations

import sys

REGISTRY: dict = {}


def command(name: str):
    """Decorator: ``register(subparsers)`` adds the sub-parser of command ``name``."""

    def deco(register):
        REGISTRY[name] = register
        return register

    return deco


@command("jobs")
def _register_jobs(sub) -> None:
    p = sub.add_parser("jobs", help="print a pipeline schedule's job list for one stage")
    p.add_argument("--schedule", required=True, choices=["FThenB", "1F1B", "Eager1F1B", "VPP"])
    p.add_argument("--pp", type=int, required=True, help="pipeline degree (stages)")
    p.add_argument("--vpp", type=int, default=None, help="virtual chunks per stage (VPP)")
    p.add_argument("--stage", type=int, required=True, help="this stage, 0-based")
    p.add_argument("--micro-batches", type=int, required=True, dest="micro_batches")
    p.set_defaults(func=_run_jobs)


def _run_jobs(args) -> int:
    from rulepass.runtime.schedules import jobs_command

    # ScheduleError is a RulepassError: the CLI prints it as one line and exits 1.
    line = jobs_command(args.schedule, args.pp, args.vpp, args.stage, args.micro_batches)
    sys.stdout.write(line + "\n")
    return 0


@command("run")
def _register_run(sub) -> None:
    p = sub.add_parser("run", help="rewrite a distributed program per rank, run every rank and "
                                   "check the losses against the single-device reference")
    p.add_argument("example", metavar="EXAMPLE", help="an example folder (see examples/)")
    p.add_argument("--backend", choices=["local", "mpi", "nccl"], default="local")
    p.add_argument("--steps", type=int, default=None, help="steps to run (default: all)")
    p.add_argument("--schedule", choices=["FThenB", "1F1B", "Eager1F1B", "VPP"], default=None)
    p.add_argument("--micro-batches", type=int, default=None, dest="micro_batches")
    p.add_argument("--rules", action="append", default=[], metavar="PATH",
                   help="more .rw files or folders (repeatable)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write rank<r>.pir, trace.jsonl, timelines and summary.json here")
    p.set_defaults(func=_run_example)


def _run_example(args) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import Progress

    from rulepass.example import ExampleError, load_example
    from rulepass.report import print_report
    from rulepass.run import RunOptions, run_distributed, run_local, summarize, write_outputs

    if args.steps is not None and args.steps < 1:
        raise ExampleError(f"--steps must be at least 1, got {args.steps}")
    if args.micro_batches is not None and args.micro_batches < 1:
        raise ExampleError(f"--micro-batches must be at least 1, got {args.micro_batches}")
    example = load_example(args.example)
    options = RunOptions(args.backend, args.steps, args.schedule, args.micro_batches,
                         tuple(args.rules), Path(args.out) if args.out else None)
    console = Console(stderr=False)
    steps = min(options.steps or example.steps, example.steps)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("training", total=steps)
        advance = lambda step: progress.update(task, completed=step + 1)  # noqa: E731
        if options.backend == "local":
            result = run_local(example, options, advance)
        else:
            result = run_distributed(example, options, advance)
    if result is None:  # an MPI rank other than 0: rank 0 reports
        return 0
    records, losses, comm, events, schedule, micro_batches = result
    report = summarize(example, records, losses, comm, schedule, micro_batches)
    print_report(console, Path(args.example).name, report)
    if options.out is not None:
        write_outputs(options.out, records, events, report)
        console.print(f"wrote {options.out}")
    return 0 if report.ok else 1
