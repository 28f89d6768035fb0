"""The command line as a user runs it: ``rulepass(*args)`` runs ``python -m rulepass ARGS`` in a
child process (this interpreter), capturing its output as text; shared by the tests that check
exit codes, stdout and stderr of whole commands."""

from __future__ import annotations

import subprocess
import sys


def rulepass(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """The finished ``rulepass ARGS`` process (``returncode``, ``stdout``, ``stderr``); raises
    ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
    return subprocess.run([sys.executable, "-m", "rulepass", *args], capture_output=True,
                          text=True, timeout=timeout)
