"""The ``rulepass`` command line: the argument parser and ``main`` (contract: ``docs/spec/cli.md``).

Exit codes: 0 success; 1 a problem with the input or a failed check, reported as one clear
message on stderr (never a traceback); 2 wrong usage (argparse's own exit code).
"""

from __future__ import annotations

import argparse
import sys

import rulepass.cli.listing  # noqa: F401 - registers `rulepass list`
from rulepass.cli.commands import REGISTRY, cmd_print, cmd_verify
from rulepass.cli.inputs import InputError, UsageError, path_argument
from rulepass.engine.errors import RulepassError
from rulepass.version import version


class VersionAction(argparse.Action):
    """``--version``: the version is read from the installed metadata only when asked (about
    20 ms that every other command would pay)."""

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"rulepass {version()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand this installation provides."""
    parser = argparse.ArgumentParser(
        prog="rulepass",
        description="Declarative passes for distributed training programs (Paddle PIR).",
    )
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("print", help="parse a program and print it in canonical form")
    p.add_argument("program", metavar="PROGRAM", type=path_argument)
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("verify", help="parse and verify a program")
    p.add_argument("program", metavar="PROGRAM", type=path_argument)
    p.add_argument("--dense", action="store_true",
                   help="also check that no dist type or op_dist_attr is left (as after "
                        "dist_to_dense)")
    p.set_defaults(func=cmd_verify)

    for register in REGISTRY.values():
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used by ``python -m rulepass``)."""
    # Messages to a terminal whose encoding is not UTF-8 (PYTHONIOENCODING=ascii) show what
    # they cannot encode escaped, not a UnicodeEncodeError traceback; program text is written
    # as UTF-8 bytes whatever the locale (cli/destinations.write_stdout).
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (RulepassError, InputError) as e:
        if getattr(e, "reported_elsewhere", False):  # an MPI rank other than 0: rank 0 did
            return 2 if issubclass(e.like, UsageError) else 1  # the status rank 0 exits with
        print(str(e), file=sys.stderr)
        return 1
    except UsageError as e:
        if getattr(e, "show_usage", True):  # an output clash is one line
            parser.print_usage(sys.stderr)
        print(f"rulepass: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader of stdout went away (`| head`): it has what it wanted. Point stdout at
        # /dev/null so that Python's flush at exit does not fail a second time.
        import os

        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
