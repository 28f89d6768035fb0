"""Test-suite hooks.

``tests/pending/*.txt`` list, one node id a line (``#`` comments), tests known to fail on captured
programs until someone fixes what they show; each file's header says what and whose. They are
marked ``xfail(strict=True)``: each must keep failing, and whoever makes one pass deletes its line
(an XPASS fails the suite). A line ending in ``norun`` is not run at all (it would hang until a
timeout), only reported as an expected failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PENDING = Path(__file__).resolve().parent / "pending"


def _pending() -> dict[str, tuple[str, bool]]:
    """node id -> (file name, run it)."""
    out: dict[str, tuple[str, bool]] = {}
    for path in sorted(PENDING.glob("*.txt")):
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            node, _, flag = line.partition(" ")
            out[node] = (path.name, flag.strip() != "norun")
    return out


def pytest_collection_modifyitems(config, items):
    pending = _pending()
    if not pending:
        return
    for item in items:
        if item.nodeid in pending:
            name, run = pending[item.nodeid]
            item.add_marker(pytest.mark.xfail(strict=True, run=run,
                                              reason=f"known failure (tests/pending/{name})"))


@pytest.fixture
def mpiexec():
    """A launcher of ``mpiexec -n RANKS <this interpreter> ARGS...``: ``mpiexec(ranks, *args,
    timeout=..., env=None)`` returns the CompletedProcess (text stdout/stderr; TimeoutExpired past
    ``timeout`` seconds), the ranks unbuffered and ``env`` added to this process's environment.
    mpiexec is the one next to the interpreter (a venv with the ``mpich`` wheel), else on PATH;
    the test is skipped when it or mpi4py is missing."""
    pytest.importorskip("mpi4py")
    beside = Path(sys.executable).with_name("mpiexec")
    path = str(beside) if beside.exists() else shutil.which("mpiexec")
    if path is None:
        pytest.skip("mpiexec not found next to the interpreter or on PATH")

    def launch(ranks: int, *args: str, timeout: float, env: dict[str, str] | None = None):
        return subprocess.run([path, "-n", str(ranks), sys.executable, *args],
                              capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})

    return launch
