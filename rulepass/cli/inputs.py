"""Reading the user's files for the command line: one clear `InputError` line per problem."""

from __future__ import annotations


class InputError(Exception):
    """A problem with the user's input outside the parsers (missing file, bad flag value)."""


class UsageError(Exception):
    """Wrong usage that argparse cannot see (a param given twice, an empty pass list): exit 2,
    as argparse's own usage errors."""


def path_argument(text: str) -> str:
    """argparse ``type`` of every path the command line takes (programs, rule files, ``-o``,
    ``--out``, ``--trace``, ``--dump-dir``, ``--plan``): an empty path is wrong usage (exit 2),
    not "stdout" or "nothing written" (``-o ""`` printed the program, ``run --out ""`` wrote
    nothing, both with exit 0).

    Raises:
        argparse.ArgumentTypeError: for an empty (or blank) path.
    """
    import argparse

    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; give a file or folder name")
    return text


def positive_int(text: str) -> int:
    """argparse ``type`` of counts (``--steps``, ``--micro-batches``): an integer >= 1; 0 or a
    negative count is wrong usage (exit 2), as a value that is not an integer is to argparse.

    Raises:
        argparse.ArgumentTypeError: naming the value.
    """
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def positive_seconds(text: str) -> float:
    """argparse ``type`` of a duration (``--comm-timeout``): a finite number of seconds > 0;
    0, a negative number, nan or inf is wrong usage (exit 2).

    Raises:
        argparse.ArgumentTypeError: naming the value.
    """
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid float value: {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def read_text(path: str) -> str:
    """The program file's text (:func:`rulepass.engine.files.read_text`: a
    :class:`~rulepass.engine.files.FileError` naming it when it cannot be read or is not UTF-8);
    a FIFO is read, so that a shell's process substitution ``<(...)`` works."""
    from rulepass.engine.files import read_text as read_file

    return read_file(path, "program file", pipe=True)  # `rulepass print <(cat p.pir)`


def load_program(path: str):
    """Parse the program at ``path`` (errors name the file, line and column)."""
    from rulepass.engine.pir.parse import parse_program

    return parse_program(read_text(path), filename=path)
