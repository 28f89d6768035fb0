"""bench/instructions.py: the counted child runs the workload, callgrind's count is read, and a
machine without valgrind gets one line."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "instructions.py"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_instructions", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_child_builds_and_runs_the_workload():
    # as callgrind runs it, without callgrind
    for run in ("1", "0"):
        done = subprocess.run([sys.executable, str(BENCH), "--child", "bench50", "400", run],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr


def test_the_count_is_read_from_callgrind_and_a_failed_run_is_named(bench):
    ok = subprocess.Popen([sys.executable, "-c", "print('==1== Collected : 12345')"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert bench.collected(ok) == 12345
    failed = subprocess.Popen([sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with pytest.raises(RuntimeError, match="boom"):
        bench.collected(failed)


def test_no_valgrind_is_one_line(bench, monkeypatch, capsys):
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    assert bench.main([]) == 1
    assert capsys.readouterr().out.strip() == \
        "bench/instructions.py needs valgrind (not found on PATH)"
