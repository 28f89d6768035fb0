"""Subcommands of ``rulepass`` past ``print`` and ``verify``: each registers its argparse
sub-parser in :data:`REGISTRY` (name → ``register(subparsers)``); ``main.build_parser`` adds them."""

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
    from rulepass.runtime.comm.backends import BACKENDS

    p.add_argument("--backend", choices=list(BACKENDS), default="local",
                   help="; ".join(f"{b.name}: {b.help}" for b in BACKENDS.values()))
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
    from rulepass.runtime.comm.backends import BACKENDS

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
        if not BACKENDS[options.backend].per_process:
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


@command("rewrite")
def _register_rewrite(sub) -> None:
    p = sub.add_parser("rewrite", help="run a pass or pipeline on a program; stdout holds only "
                                       "the rewritten program")
    p.add_argument("program", metavar="PROGRAM")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--pass", dest="pass_name", metavar="NAME")
    which.add_argument("--pipeline", metavar="NAME")
    p.add_argument("-p", dest="params", action="append", default=[], metavar="KEY=VALUE",
                   help="a param of the pass (repeatable), converted to its declared type")
    p.add_argument("--rules", action="append", default=[], metavar="PATH",
                   help="more .rw files or folders (the installed rules/ are always loaded)")
    p.add_argument("-o", dest="out", metavar="OUT", help="write the program here, not stdout")
    p.add_argument("--trace", metavar="FILE", help="rule applications as JSON lines")
    p.add_argument("--stats", action="store_true", help="per-rule counts and times on stderr")
    p.add_argument("--explain", metavar="RULE@K",
                   help="on stderr: the first constraint of RULE that fails at the op at "
                        "position K (0-based, printed order), or that it matches")
    p.set_defaults(func=_run_rewrite)


def _parse_params(items) -> dict:
    from rulepass.cli.inputs import InputError

    params = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise InputError(f"-p {item!r}: expected KEY=VALUE (for example -p rank=1)")
        params[key.strip()] = value
    return params


def _run_rewrite(args) -> int:
    from rulepass.cli.inputs import InputError, load_program
    from rulepass.engine.api import load_rules
    from rulepass.engine.pir.printer import print_program
    from rulepass.engine.rewrite.trace import write_trace

    params = _parse_params(args.params)
    rules = load_rules(args.rules, installed=True)
    program = load_program(args.program)
    name = args.pass_name or args.pipeline
    if args.explain:
        rule, sep, position = args.explain.rpartition("@")
        if not sep or not rule or not position.lstrip("-").isdigit():
            raise InputError(f"--explain {args.explain!r}: expected RULE@K (for example "
                             "--explain allreduce_split_slice@12)")
        pass_params = params
        explained = rules.explain(program, rule, int(position), param_strings=True,
                                  **pass_params)
        print(explained, file=sys.stderr)
    if args.pass_name:
        result = rules.run_pass(program, name, param_strings=True, trace_positions=True,
                                timing=args.stats,
                                **params)
    else:
        result = rules.run_pipeline(program, name, param_strings=True, trace_positions=True,
                                    timing=args.stats,
                                    **params)
    text = print_program(result.program)
    if args.trace:
        write_trace(result.trace, args.trace)
    if args.stats:
        print(result.stats.table(), file=sys.stderr)
    if args.out:
        try:
            with open(args.out, "w") as f:
                f.write(text)
        except OSError as e:
            raise InputError(f"{args.out}: {e.strerror}") from None
    else:
        sys.stdout.write(text)
    return 0


@command("check")
def _register_check(sub) -> None:
    p = sub.add_parser("check", help="lint rule files and run their test blocks")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help=".rw files or folders (default: the installed rules/)")
    p.set_defaults(func=_run_check)


def _run_check(args) -> int:
    from rulepass.engine.api import installed_rules
    from rulepass.engine.rule_tests import check

    paths = args.paths or [installed_rules()]
    report = check(paths)
    for warning in report.warnings:
        print(warning, file=sys.stderr)
    for line in report.lines():
        print(line)
    return 1 if report.failed else 0


def cmd_print(args) -> int:
    """``rulepass print PROGRAM``: the program in canonical form on stdout."""
    from rulepass.cli.inputs import load_program
    from rulepass.engine.pir.printer import print_program

    sys.stdout.write(print_program(load_program(args.program)))
    return 0


def cmd_verify(args) -> int:
    """``rulepass verify PROGRAM [--dense]``: warnings on stderr; errors exit 1."""
    from rulepass.cli.inputs import load_program
    from rulepass.engine.pir.verify import verify

    program = load_program(args.program)
    for w in verify(program, dense=args.dense):
        print(f"{args.program}: {w}", file=sys.stderr)
    return 0
