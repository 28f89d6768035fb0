"""The ``rulepass`` command line (contract: ``shared/spec/cli.md``).

Exit codes: 0 success; 1 a problem with the input or a failed check, reported as one clear
message on stderr (never a traceback); 2 wrong usage (argparse's own exit code).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rulepass.engine.errors import RulepassError


class InputError(Exception):
    """A problem with the user's input outside the parsers (missing file, bad flag value)."""


def read_text(path: str) -> str:
    """The file's text; :class:`InputError` naming it when it cannot be read."""
    p = Path(path)
    try:
        return p.read_text()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a program file") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not a text file ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None


def load_program(path: str):
    """Parse the program at ``path`` (errors name the file, line and column)."""
    from rulepass.engine.pir.parse import parse_program

    return parse_program(read_text(path), filename=path)


def cmd_print(args) -> int:
    from rulepass.engine.pir.printer import print_program

    sys.stdout.write(print_program(load_program(args.program)))
    return 0


def cmd_verify(args) -> int:
    from rulepass.engine.pir.verify import verify

    program = load_program(args.program)
    for w in verify(program, dense=args.dense):
        print(f"{args.program}: {w}", file=sys.stderr)
    return 0


COMMANDS = {}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand this installation provides."""
    parser = argparse.ArgumentParser(
        prog="rulepass",
        description="Declarative passes for distributed training programs (Paddle PIR).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("print", help="parse a program and print it in canonical form")
    p.add_argument("program", metavar="PROGRAM")
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("verify", help="parse and verify a program")
    p.add_argument("program", metavar="PROGRAM")
    p.add_argument("--dense", action="store_true",
                   help="also check that no dist type or op_dist_attr is left (as after "
                        "dist_to_dense)")
    p.set_defaults(func=cmd_verify)

    _register_optional_commands()
    for register in COMMANDS.values():
        register(sub)
    return parser


def _register_optional_commands() -> None:
    """Subcommands that live beside the modules they drive."""
    from rulepass import commands

    COMMANDS.update(commands.REGISTRY)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used by ``python -m rulepass``)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (RulepassError, InputError) as e:
        print(str(e), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
