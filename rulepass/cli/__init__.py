"""The ``rulepass`` command line (``rulepass = "rulepass.cli:main"``): ``main.py`` builds the
argument parser and maps errors to exit codes, ``commands.py`` holds the subcommands,
``inputs.py`` reads the user's files. Nothing here imports this package back."""

from rulepass.cli.inputs import InputError, UsageError, load_program, read_text  # noqa: F401
from rulepass.cli.main import build_parser, main  # noqa: F401
