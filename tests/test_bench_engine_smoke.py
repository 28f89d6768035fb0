"""bench/engine.py --tiny runs end to end: the 6-rule and 50-rule passes make the designed
rewrites (the decoys never fire, the second run on the fixpoint rewrites nothing), the table is
printed, and the xDSL and tinygrad ports reach the same program as the engine (when installed)."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "engine.py"
YARDSTICKS = all(importlib.util.find_spec(m) is not None for m in ("xdsl", "tinygrad"))


def test_engine_benchmark_tiny_prints_its_table():
    cmd = [sys.executable, str(BENCH), "--tiny", "--repeat", "1"]
    if not YARDSTICKS:
        cmd.append("--no-yardsticks")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "INVALID" not in result.stderr
    assert "rulepass engine benchmark" in out
    for row in ("6 rules", "50 rules (6 + 44 decoys)", "50 rules, no match (fixpoint input)",
                "print (print_program)", "parse (parse_program)"):
        assert row in out
    # 24 layers x 18 rewrites; the six rules fire, no decoy does.
    assert "432" in out
    assert "rules fired with 50: 6 (allreduce_split_slice, drop_one_rank_collective, " \
           "erase_unused, grad_takes_forward_chunk, tag_local_region, tanh_gelu)" in out
    assert "µs/op with 50 rules and no match" in out
    if YARDSTICKS:
        for rules in (6, 50):
            assert f"xDSL PatternRewriteWalker, {rules} rules (same result" in out
            assert f"tinygrad graph_rewrite, {rules} rules (same result" in out
            assert f"xDSL's rewrites/s with {rules} rules each" in out
            assert f"tinygrad's rewrites/s with {rules} rules each" in out


def test_engine_benchmark_json_rows(tmp_path):
    out = tmp_path / "engine.json"
    cmd = [sys.executable, str(BENCH), "--tiny", "--repeat", "1", "--json", str(out)]
    if not YARDSTICKS:
        cmd.append("--no-yardsticks")
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = json.loads(out.read_text())["rows"]
    runs = [row["run"] for row in rows]
    expected = ["engine 6 rules", "engine 50 rules", "engine 50 rules no match"]
    if YARDSTICKS:
        expected += ["xDSL 6 rules", "xDSL 50 rules", "tinygrad 6 rules", "tinygrad 50 rules"]
    assert runs == expected
    for row in rows:
        assert set(row) == {"size", "run", "engine_s", "us_per_op", "rewrites", "rewrites_per_s"}
        assert row["engine_s"] > 0 and row["size"] > 900
    assert rows[0]["rewrites"] == 432 and rows[2]["rewrites"] == 0


def test_runs_taking_turns_keep_the_fastest_time_and_the_largest_peak(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    first = {"cpu": 1.0, "peak_kib": 900, "again": {"cpu": 0.3, "peak_kib": 5}}
    second = {"cpu": 0.8, "peak_kib": 0, "again": {"cpu": 0.4, "peak_kib": 0}}
    best = bench._best(bench._best(None, first), second)
    assert best["cpu"] == 0.8 and best["peak_kib"] == 900
    assert best["again"] == {"cpu": 0.3, "peak_kib": 5}
    assert first["peak_kib"] == 900 and second["peak_kib"] == 0  # the runs' rows are left alone
