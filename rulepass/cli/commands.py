"""Subcommands of ``rulepass`` past ``print`` and ``verify``: each registers its argparse
sub-parser in :data:`REGISTRY` (name → ``register(subparsers)``); ``main.build_parser`` adds them."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys

from rulepass.cli.inputs import path_argument, positive_int, positive_seconds

REGISTRY: dict = {}


def command(name: str):
    """Decorator: ``register(subparsers)`` adds the sub-parser of command ``name``."""

    def deco(register):
        REGISTRY[name] = register
        return register

    return deco


@command("jobs")
def _register_jobs(sub) -> None:
    from rulepass.runtime.schedules import SCHEDULES

    p = sub.add_parser("jobs", help="print a pipeline schedule's job list for one stage")
    p.add_argument("--schedule", required=True, choices=list(SCHEDULES))
    p.add_argument("--pp", type=int, required=True, help="pipeline degree (stages)")
    p.add_argument("--vpp", type=int, default=None, help="virtual chunks per stage (VPP, ZBVPP)")
    p.add_argument("--stage", type=int, required=True, help="this stage, 0-based")
    p.add_argument("--micro-batches", type=positive_int, required=True, dest="micro_batches")
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
    p.add_argument("example", type=path_argument, metavar="EXAMPLE",
                   help="an example folder (see examples/)")
    from rulepass.runtime.comm.backends import BACKENDS

    p.add_argument("--backend", choices=list(BACKENDS), default="local",
                   help="; ".join(f"{b.name}: {b.help}" for b in BACKENDS.values()))
    p.add_argument("--steps", type=positive_int, default=None, help="steps to run (default: all)")
    from rulepass.runtime.schedules import SCHEDULES

    p.add_argument("--schedule", choices=list(SCHEDULES), default=None)
    p.add_argument("--micro-batches", type=positive_int, default=None, dest="micro_batches")
    p.add_argument("--rules", type=path_argument, action="append", default=[], metavar="PATH",
                   help="more .rw files or folders (repeatable)")
    p.add_argument("--comm-timeout", type=positive_seconds, default=None, metavar="SECONDS",
                   dest="comm_timeout",
                   help="end the job when a rank waits this long for a peer, naming the peer "
                        "(default 60; also RULEPASS_COMM_TIMEOUT)")
    p.add_argument("--print-ir-after-all", action="store_true",
                   help="print each rank's program on stderr after every step of the chain")
    p.add_argument("--dump-dir", type=path_argument, metavar="DIR",
                   help="write each rank's program after every step to DIR/rank<r>/NN_STEP.pir")
    p.add_argument("--out", type=path_argument, default=None, metavar="DIR",
                   help="write rank<r>.pir, trace.jsonl, timelines and summary.json here")
    p.add_argument("--localize", action="store_true",
                   help="compare every op of every rank with the single-device run and name "
                        "the first divergent op, its pass and rule (any divergence fails)")
    p.add_argument("--add-pass", dest="add_pass", action="append", default=[], metavar="NAME",
                   help="run the user's pass NAME (from --rules) on every rank, right after "
                        "the step of the matching --after (repeatable)")
    p.add_argument("--after", action="append", default=[], metavar="STEP",
                   help="the chain step (a pass name such as dist_to_dense) after which the "
                        "matching --add-pass runs")
    p.set_defaults(func=_run_example)


def _run_example(args) -> int:
    from pathlib import Path

    from rich.progress import Progress

    from rulepass.checks import check_example, check_schedule
    from rulepass.cli.passes import IRDumps
    from rulepass.engine.files import check_output_dir
    from rulepass.example import ExampleError, load_example
    from rulepass.report import print_report, report_console
    from rulepass.run import RunOptions, run_distributed, run_local, summarize, write_outputs
    from rulepass.runtime.comm.backends import BACKENDS
    from rulepass.runtime.trace import job_counts

    if len(args.add_pass) != len(args.after):  # wrong usage: exit 2, as argparse's own errors
        print(f"rulepass run: every --add-pass needs its --after (got {len(args.add_pass)} "
              f"--add-pass, {len(args.after)} --after)", file=sys.stderr)
        return 2

    def prepare():
        """Everything checked before the run (on every MPI rank alike)."""
        if args.comm_timeout is not None:  # > 0 and finite (positive_seconds)
            # every backend reads it (collectives.comm_timeout), MPI ranks from their environment
            os.environ["RULEPASS_COMM_TIMEOUT"] = repr(args.comm_timeout)
        example = load_example(args.example)
        example.steps_to_run(args.steps)  # --steps beyond data.npz fails before anything runs
        check_example(example)  # data.npz holds the global batch, whatever --micro-batches says
        if args.schedule is not None:
            check_schedule(args.schedule, example.parallel.vpp, "--schedule")
        check_run_outputs(example, args)  # no output is an input of the run (nor another output)
        if args.out:  # before the run, not after it: the folder, then every file in it
            from rulepass.engine.files import check_writable
            from rulepass.outputs import out_files

            folder = check_output_dir(args.out, "--out folder")
            for name in out_files(example.parallel.world_size):
                check_writable(folder / name, "--out file")
        dumps = IRDumps(args.print_ir_after_all, args.dump_dir)
        return example, dumps

    if BACKENDS[args.backend].per_process:  # one report of an error every rank hits alike
        from rulepass.runtime.comm.mpi import agreed

        from rulepass.cli.inputs import UsageError
        from rulepass.engine.errors import RulepassError

        example, dumps = agreed(prepare, errors=(RulepassError, UsageError))
    else:
        example, dumps = prepare()
    options = RunOptions(args.backend, args.steps, args.schedule, args.micro_batches,
                         tuple(args.rules), Path(args.out) if args.out else None,
                         args.localize, tuple(zip(args.add_pass, args.after)),
                         after_step=dumps.per_rank if dumps.active else None)
    console = report_console()
    steps = example.steps_to_run(options.steps)
    with contextlib.ExitStack() as stack:
        advance = None
        if console.is_terminal:  # a bar on a terminal; piped, stdout holds the report alone
            progress = stack.enter_context(Progress(console=console, transient=True))
            task = progress.add_task("training", total=steps)
            advance = lambda step: progress.update(task, completed=step + 1)  # noqa: E731
        if not BACKENDS[options.backend].per_process:
            result = run_local(example, options, advance)
        else:
            result = run_distributed(example, options, advance)
    if result is None:  # an MPI rank other than 0: rank 0 reports
        return 0
    report = summarize(example, result)
    report.jobs = job_counts(result.events)
    report.stages = {rank: result.stages[rank] for rank in report.jobs}
    print_report(console, Path(args.example).name, report)
    if options.out is not None:
        write_outputs(options.out, result.records, result.events, report, example, options)
        console.print(f"wrote {options.out}")
    return 0 if report.ok else 1


def check_run_outputs(example, args) -> None:
    """``run``'s outputs are none of its inputs (the example's files, the rule files and what
    they include) nor one another: ``--out`` is not the example's own folder, no file it will
    hold is an input, and no ``.pir`` file already in a ``--dump-dir`` rank folder
    (``rank<r>/``, where the dumps ``rank<r>/NN_PASS.pir`` go; their names are known only once
    the rank is compiled, and a dump file can only be an input if it exists now, as a link).
    Files elsewhere in the dump folder are never written, so ``--dump-dir EXAMPLE`` is allowed.
    The own-folder check is not one of the per-file clashes: an example without
    ``params_final.npz`` has no file ``--out`` would overwrite, yet ``--out EXAMPLE`` would add
    rulepass's ``params_final.npz`` there, which later runs would take for Paddle's.

    Raises:
        OutputClash: naming the output and what it is (exit 2).
    """
    from pathlib import Path

    from rulepass.cli.destinations import OutputClash, check_outputs, command_inputs
    from rulepass.outputs import out_files

    if args.out and _same_folder(args.out, example.path):
        raise OutputClash(f"--out {args.out} is the example's own folder: rulepass's "
                          "params_final.npz and other outputs would replace or join its inputs; "
                          "give another folder (nothing was written)")
    inputs = [(f"the example's {p.name}", p) for p in sorted(example.path.iterdir())
              if p.is_file()]
    inputs = command_inputs(args.rules, inputs)
    outputs = []
    if args.out:
        outputs += [("--out", Path(args.out) / name)
                    for name in out_files(example.parallel.world_size)]
    if args.dump_dir:
        folder = Path(args.dump_dir)
        outputs += [("--dump-dir", p) for rank in range(example.parallel.world_size)
                    for p in sorted(folder.glob(f"rank{rank}/*.pir"))]
    check_outputs(inputs, outputs)


def _same_folder(path, other) -> bool:
    """Whether ``path`` is the folder ``other`` (False when ``path`` does not exist yet)."""
    try:
        return os.path.samefile(path, other)
    except OSError:
        return False


class _PassList(argparse.Action):
    """``--pass``/``--pipeline``: appends (kind, text) to one list, so the order is kept."""

    def __call__(self, parser, namespace, values, option_string=None):
        items = list(getattr(namespace, self.dest) or [])
        items.append((option_string.lstrip("-"), values))
        setattr(namespace, self.dest, items)


@command("rewrite")
def _register_rewrite(sub) -> None:
    p = sub.add_parser("rewrite", help="run passes or pipelines on a program; stdout holds only "
                                       "the rewritten program")
    p.add_argument("program", type=path_argument, metavar="PROGRAM")
    p.add_argument("--pass", dest="steps", action=_PassList, default=[], metavar="NAME",
                   help="a pass to run (repeatable, or NAME,NAME,...: run in the order given); "
                        "`rulepass list` shows the passes and their params")
    p.add_argument("--pipeline", dest="steps", action=_PassList, default=[], metavar="NAME",
                   help="a pipeline to run (a named list of passes, such as `paddle`; "
                        "repeatable and mixable with --pass)")
    p.add_argument("-p", dest="params", action="append", default=[], metavar="KEY=VALUE",
                   help="a param (each key once), converted to its declared type; it reaches "
                        "every pass that declares it")
    p.add_argument("--rules", type=path_argument, action="append", default=[], metavar="PATH",
                   help="more .rw files or folders (the installed rules/ are always loaded)")
    p.add_argument("-o", type=path_argument, dest="out", metavar="OUT",
                   help="write the program here, not stdout")
    p.add_argument("--trace", type=path_argument, metavar="FILE",
                   help="rule applications as JSON lines")
    p.add_argument("--stats", action="store_true", help="per-rule counts and times on stderr")
    p.add_argument("--explain", metavar="RULE@K",
                   help="on stderr: the first constraint of RULE that fails at the op at "
                        "position K (0-based, printed order), or that it matches")
    p.add_argument("--print-ir-after-all", action="store_true",
                   help="print the program on stderr after every pass")
    p.add_argument("--dump-dir", type=path_argument, metavar="DIR",
                   help="write the program after every pass to DIR/NN_PASS.pir")
    p.set_defaults(func=_run_rewrite)


def _rewrite_paths(args) -> tuple:
    """(inputs, outputs, in place) of ``rewrite`` for
    :func:`~rulepass.cli.destinations.check_outputs`: ``-o PROGRAM`` rewrites it in place
    (atomically); no other output may be an input or another output."""
    from rulepass.cli.destinations import command_inputs

    inputs = command_inputs(args.rules, [("the input program", args.program)])
    outputs = [(flag, path) for flag, path in (("-o", args.out), ("--trace", args.trace)) if path]
    return inputs, outputs, [("-o", "the input program")]


def _run_rewrite(args) -> int:
    from rulepass.cli.destinations import check_outputs
    from rulepass.cli.inputs import load_program
    from rulepass.cli.passes import IRDumps, parse_params, split_names
    from rulepass.engine.api import load_rules
    from rulepass.engine.files import check_writable

    names = split_names(args.steps)
    params = parse_params(args.params)
    # Outputs are checked before the work, so a bad path fails at once, not after the pass.
    paths = _rewrite_paths(args)  # (reads the --rules files' includes: once)
    check_outputs(*paths)
    if args.out:
        check_writable(args.out, "output file")
    if args.trace:
        check_writable(args.trace, "trace file")
    dumps = IRDumps(args.print_ir_after_all, args.dump_dir)
    with _collector_paused():
        # Only the installed files declaring the passes asked for are loaded (all of them with
        # --rules, whose files may name any installed pass, or --explain: it may name any rule).
        rules = load_rules(args.rules, installed=True, needed=None if args.explain else names)
        program = load_program(args.program)
        return _rewrite_loaded(args, rules, program, names, params, dumps, paths)


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic collector paused for the block, as :func:`run_pass` pauses it for a pass:
    a command's objects (the rules, the program, the trace) live until it ends, and collections
    set off by the trace entries and the pass's new ops walked all of them (0.1–0.2 s of a
    25,000-op `rewrite --trace`). What the block leaves as garbage is collected later as
    usual."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _rewrite_loaded(args, rules, program, names, params, dumps, paths) -> int:
    """`rulepass rewrite` once the rules and the program are loaded; ``paths``:
    :func:`_rewrite_paths`, checked again with the ``--dump-dir`` files."""
    from rulepass.cli.destinations import check_outputs, write_stdout
    from rulepass.cli.inputs import UsageError
    from rulepass.cli.passes import plan_steps, run_steps
    from rulepass.engine.files import write_text
    from rulepass.engine.pir.printer import print_program
    from rulepass.engine.rewrite.trace import write_trace

    steps = plan_steps(rules, names, params)
    if dumps.folder is not None:  # its files are named after the steps
        inputs, outputs, in_place = paths
        check_outputs(inputs, outputs + [("--dump-dir", dumps.file(n + 1, cpass.name))
                                         for n, (cpass, _) in enumerate(steps)], in_place)
    rules.check_steps(program, steps)  # a rank the program does not have, a degree below 1
    if args.explain:
        rule, sep, position = args.explain.rpartition("@")
        if not sep or not rule or not position.lstrip("-").isdigit():
            raise UsageError(f"--explain {args.explain!r}: expected RULE@K (for example "
                             "--explain allreduce_split_slice@12)")
        explained = rules.explain(program, rule, int(position), param_strings=True, **params)
        print(explained, file=sys.stderr)
    result = run_steps(rules, program, steps, dumps, timing=args.stats,
                       trace_positions=bool(args.trace))
    text = print_program(result.program)
    if args.trace:
        write_trace(result.trace, args.trace)
    if args.stats:
        print(result.stats.table(), file=sys.stderr)
    if args.out:
        write_text(args.out, text)  # atomic: a failed write leaves the input, even in place
    else:
        write_stdout(text)
    return 0


@command("parallelize")
def _register_parallelize(sub) -> None:
    p = sub.add_parser("parallelize", help="make a serial program parallel as a plan says; "
                                           "stdout holds only the forward dist program")
    p.add_argument("serial", type=path_argument, metavar="SERIAL",
                   help="the serial program (Paddle's print of the model without "
                        "distribution)")
    p.add_argument("--plan", type=path_argument, required=True, metavar="PLAN",
                   help="the plan (plan.toml)")
    p.add_argument("--rules", type=path_argument, action="append", default=[], metavar="PATH",
                   help="more .rw files or folders (the installed rules/ are always loaded)")
    p.add_argument("-o", type=path_argument, dest="out", metavar="OUT",
                   help="write the program here, not stdout")
    p.set_defaults(func=_run_parallelize)


def _run_parallelize(args) -> int:
    from rulepass.cli.destinations import check_outputs, command_inputs, write_stdout
    from rulepass.cli.inputs import load_program
    from rulepass.engine.api import load_rules
    from rulepass.engine.files import check_writable, read_text, write_text
    from rulepass.engine.paddle.plan import load_plan
    from rulepass.engine.pir.printer import print_program
    from rulepass.parallelize import check_serial, parallelize

    if args.out:
        check_outputs(command_inputs(args.rules, [("the input program", args.serial),
                                                   ("the --plan file", args.plan)]),
                      [("-o", args.out)])
        check_writable(args.out)  # before the work, not after it
    plan = load_plan(read_text(args.plan, "plan file"), args.plan)
    program = load_program(args.serial)
    check_serial(program, args.serial)
    rules = load_rules(args.rules, installed=True)
    text = print_program(parallelize(program, plan, rules, file=str(args.plan)))
    if args.out:
        write_text(args.out, text)
    else:
        write_stdout(text)
    return 0


@command("check")
def _register_check(sub) -> None:
    p = sub.add_parser("check", help="lint rule files and run their test blocks")
    p.add_argument("paths", type=path_argument, nargs="*", metavar="PATH",
                   help=".rw files or folders (default: the installed rules/)")
    p.set_defaults(func=_run_check)


def _run_check(args) -> int:
    from rulepass.engine.api import installed_rules
    from rulepass.engine.rule_tests import check

    paths = args.paths or [installed_rules()]
    if not args.paths:  # say what was checked: a user in an empty folder saw only our rules' lines
        print(f"no PATH given: checking the installed rules ({paths[0]})", file=sys.stderr)
    report = check(paths)
    for warning in report.warnings:
        print(warning, file=sys.stderr)
    for line in report.lines():
        print(line)
    return 1 if report.failed else 0


def cmd_print(args) -> int:
    """``rulepass print PROGRAM``: the program in canonical form on stdout."""
    from rulepass.cli.destinations import write_stdout
    from rulepass.cli.inputs import load_program
    from rulepass.engine.pir.printer import print_program

    write_stdout(print_program(load_program(args.program)))
    return 0


def cmd_verify(args) -> int:
    """``rulepass verify PROGRAM [--dense]``: warnings on stderr; errors exit 1."""
    from rulepass.cli.inputs import load_program
    from rulepass.engine.pir.verify import verify

    program = load_program(args.program)
    for w in verify(program, dense=args.dense):
        print(f"{args.program}: {w}", file=sys.stderr)
    return 0
