"""bench/executor.py --quick runs end to end: the executor's step agrees with the hand-written
NumPy step, and the timing and collective-bytes tables are printed with the ring figures."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "executor.py"


def test_executor_benchmark_quick_mode_agrees_and_prints_its_tables():
    result = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "agreement (rtol 0.0001): 25/25 checks pass" in out
    assert "ratio executor/reference" in out
    assert "executor (numpy)" in out and "\nNumPy " in out
    # [4096, 1024] float32 is 16 MiB: all_reduce moves 2(n-1)/n of it per rank, reduce_scatter
    # (n-1)/n.
    rows = {tuple(line.split()[:3]) for line in out.splitlines()}
    assert ("all_reduce+split", "2", "16,777,216") in rows
    assert ("reduce_scatter", "2", "8,388,608") in rows
    assert ("all_reduce+split", "4", "25,165,824") in rows
    assert ("reduce_scatter", "4", "12,582,912") in rows
