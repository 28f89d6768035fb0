"""Collectives on the `mpi` transport: real processes under `mpiexec`, with a timeout so a hang
fails the test instead of stalling the suite."""

from pathlib import Path

import pytest

pytest.importorskip("mpi4py")

pytestmark = pytest.mark.mpi

WORKER = Path(__file__).with_name("mpi_collectives_worker.py")


@pytest.fixture
def launch(mpiexec):
    """``launch(ranks, scenario, timeout=60, backend="mpi", comm_timeout=None)`` runs the worker
    under `mpiexec -n ranks`; returns the CompletedProcess (TimeoutExpired on a hang).
    `comm_timeout`: RULEPASS_COMM_TIMEOUT for the ranks."""
    def run(ranks, scenario, timeout=60, backend="mpi", comm_timeout=None):
        env = {} if comm_timeout is None else {"RULEPASS_COMM_TIMEOUT": str(comm_timeout)}
        return mpiexec(ranks, "-m", "mpi4py", str(WORKER), scenario, backend, timeout=timeout,
                       env=env)

    return run


@pytest.mark.parametrize("ranks", [2, 4])
def test_every_op_and_key_matching_under_mpiexec(launch, ranks):
    result = launch(ranks, "ok")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"mpi-ok world={ranks}" in result.stdout


def test_a_raising_rank_aborts_the_job_without_hanging(launch):
    result = launch(2, "fail", timeout=60)
    assert result.returncode != 0
    assert "rank one exploded" in result.stderr
    assert "[rank 1]" in result.stderr


def test_a_project_error_is_one_line_not_a_traceback(launch):
    # issue 18: a rank's failure printed two chained tracebacks
    result = launch(2, "fail_project", timeout=60)
    assert result.returncode != 0
    assert "[rank 1] runtime error: rank 1: a project error on rank one" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("ranks, scenario", [(3, "stop_collective"), (2, "stop_recv"),
                                              (2, "stop_setup"), (3, "stop_setup")])
def test_a_stopped_rank_ends_the_job_naming_it(launch, ranks, scenario):
    # issue 18: a SIGSTOPped rank hung the job forever; now the others give up after the
    # configured timeout (3 s here; 60 s by default) and name the rank that did not arrive
    import time

    start = time.monotonic()
    result = launch(ranks, scenario, timeout=60, comm_timeout=3)
    assert result.returncode != 0
    assert time.monotonic() - start < 40
    assert "rank 1 did not arrive" in result.stderr, result.stderr
    # a waiting rank reports (whichever aborts the job first: with 3 ranks, 0 or 2)
    waiting = [f"[rank {r}]" for r in range(ranks) if r != 1]
    assert any(w in result.stderr for w in waiting) and "Traceback" not in result.stderr
