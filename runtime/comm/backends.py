"""The collective backends `rulepass run` can train on, in one table (`BACKENDS`): adding a
backend is one entry here plus its `Communicator` subclass in this package.

Each entry says how ranks run (threads in this process, or one process per rank under
`mpiexec`), what it needs, the one-line message when that is missing, how to make a rank's
communicator and which array module its arrays live in. `rulepass run` (`rulepass/run.py`) and
the CLI's `--backend` choices (`rulepass/cli/commands.py`) both read it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import attrs

from rulepass.engine.errors import RuntimeFailure


def _local_communicator():
    from rulepass.runtime.comm.local import LocalCommunicator

    return LocalCommunicator


def _mpi_communicator():
    from rulepass.runtime.comm.mpi import MpiCommunicator

    return MpiCommunicator


def _nccl_communicator():
    from rulepass.runtime.comm.nccl import NcclCommunicator

    return NcclCommunicator


def _no_array_module():
    return None


def _cupy():
    return importlib.import_module("cupy")


@attrs.frozen
class Backend:
    """One collective backend.

    `name`: the `--backend` value. `help`: one line for `--help`. `per_process`: one rank per
    process under `mpiexec` (else every rank is a thread of this process). `needs`: (Python
    module, the one-line message when it does not import), checked in order by `require`.
    `communicator`: () -> the `Communicator` class of a rank. `array_module`: () -> the array
    module of its arrays (None: NumPy)."""

    name: str
    help: str
    per_process: bool
    needs: tuple[tuple[str, str], ...]
    communicator: Callable[[], type]
    array_module: Callable[[], Any] = _no_array_module

    def require(self) -> Backend:
        """This backend if what it needs imports; else RuntimeFailure with the first missing
        module's message."""
        for module, unavailable in self.needs:
            try:
                importlib.import_module(module)
            except ImportError:
                raise RuntimeFailure(unavailable) from None
        return self


#: what the process-per-rank backends need, and what the user is told without it.
NEEDS_MPI = ("mpi4py", "the mpi backend needs mpi4py: pip install 'rulepass[mpi]' and start under "
                       "mpiexec")
NEEDS_CUPY = ("cupy", "--backend nccl needs CuPy and a CUDA GPU per rank (pip install "
                      "'rulepass[gpu]'); use --backend mpi or local without one")

BACKENDS: dict[str, Backend] = {b.name: b for b in (
    Backend("local", "every rank a thread of this process (NumPy arrays)", False, (),
            _local_communicator),
    Backend("mpi", "one process per rank under mpiexec, through mpi4py (NumPy arrays)", True,
            (NEEDS_MPI,), _mpi_communicator),
    Backend("nccl", "one process per rank and one GPU each, NCCL through CuPy", True,
            (NEEDS_MPI, NEEDS_CUPY), _nccl_communicator, _cupy),
)}


def backend(name: str) -> Backend:
    """The backend `name`, checked to be usable (`Backend.require`); RuntimeFailure naming the
    known backends for an unknown name."""
    found = BACKENDS.get(name)
    if found is None:
        raise RuntimeFailure(f"unknown backend {name!r} (backends: {', '.join(BACKENDS)})")
    return found.require()
