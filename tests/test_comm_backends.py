"""The one backend table (runtime/comm/backends.py) is what `rulepass run` and its `--backend`
choices read; a backend whose modules are missing fails with its own one-line message."""

from __future__ import annotations

import attrs
import pytest

from rulepass.cli.main import build_parser
from rulepass.engine.errors import RuntimeFailure
from rulepass.runtime.comm.backends import BACKENDS, backend
from rulepass.runtime.comm.collectives import Communicator
from rulepass.runtime.comm.local import LocalCommunicator


def run_choices() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    run = sub.choices["run"]
    return list(next(a for a in run._actions if a.dest == "backend").choices)


def test_cli_choices_are_the_table():
    assert run_choices() == list(BACKENDS) == ["local", "mpi", "nccl"]


def test_every_backend_names_a_communicator_class():
    assert BACKENDS["local"].communicator() is LocalCommunicator
    assert not BACKENDS["local"].per_process and BACKENDS["mpi"].per_process
    for entry in BACKENDS.values():
        if all(_imports(module) for module, _ in entry.needs):
            assert issubclass(entry.communicator(), Communicator)


def _imports(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def test_unknown_backend_lists_the_known_ones():
    with pytest.raises(RuntimeFailure, match="unknown backend 'tcp' \\(backends: local, mpi, nccl\\)"):
        backend("tcp")


def test_missing_module_gives_the_backends_message(monkeypatch):
    fake = attrs.evolve(BACKENDS["mpi"], name="fake",
                        needs=(("rulepass_no_such_module", "--backend fake needs it"),))
    monkeypatch.setitem(BACKENDS, "fake", fake)
    with pytest.raises(RuntimeFailure, match="--backend fake needs it$"):
        backend("fake")
    assert backend("local") is BACKENDS["local"]
