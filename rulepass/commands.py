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
