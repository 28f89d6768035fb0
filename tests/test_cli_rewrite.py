"""`rulepass rewrite` and `rulepass check` as docs/spec/cli.md fixes them."""

import json
from pathlib import Path

import pytest
from cli_process import rulepass

CORPUS = Path(__file__).parent / "data" / "paddle"

RULES = """
pass fold_unit_scale {
  rule unit_scale {
    match { s = pd_op.scale(x, pd_op.full() {value: 1}) {bias: 0} }
    rewrite {
      replace s with x
      erase s
    }
  }
}

pass tag(k: int) {
  rule tag_relu {
    match { r = pd_op.relu(_) }
    where not has(r.k)
    rewrite { set r.k = $k }
  }
}
"""

PROGRAM = """{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
    (%1) = "pd_op.full" () {value:1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%3) = "pd_op.relu" (%2) {} : (tensor<4xf32>) -> tensor<4xf32>
}
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "mine.rw").write_text(RULES)
    (tmp_path / "p.pir").write_text(PROGRAM)
    return tmp_path


def test_stdout_holds_only_the_program(files):
    r = rulepass("rewrite", str(files / "p.pir"), "--pass", "fold_unit_scale", "--rules",
                 str(files / "mine.rw"), "--stats")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("{\n") and r.stdout.endswith("}\n")
    assert "pd_op.scale" not in r.stdout
    assert "unit_scale" in r.stderr  # the stats table goes to stderr


def test_params_are_converted_to_the_declared_type(files):
    r = rulepass("rewrite", str(files / "p.pir"), "--pass", "tag", "-p", "k=7", "--rules",
                 str(files / "mine.rw"))
    assert r.returncode == 0, r.stderr
    assert "{k:7}" in r.stdout
    bad = rulepass("rewrite", str(files / "p.pir"), "--pass", "tag", "-p", "k=seven",
                   "--rules", str(files / "mine.rw"))
    assert bad.returncode == 1 and "not an int" in bad.stderr and bad.stdout == ""


def test_trace_output_and_explain(files):
    out, trace = files / "out.pir", files / "t.jsonl"
    r = rulepass("rewrite", str(files / "p.pir"), "--pass", "fold_unit_scale", "--rules",
                 str(files / "mine.rw"), "-o", str(out), "--trace", str(trace),
                 "--explain", "unit_scale@3")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    assert "pd_op.scale" not in out.read_text()
    line = json.loads(trace.read_text().splitlines()[0])
    assert line["pass"] == "fold_unit_scale" and line["rule"] == "unit_scale"
    assert line["line"] == 3 and line["before"][-1]["name"] == "pd_op.scale"
    assert "op 3 (pd_op.relu)" in r.stderr
    # spec cli.md: the anchor's position before the application; the scale was op 2
    assert line["position"] == 2 == line["before"][-1]["position"]
    assert [item["position"] for item in line["before"]] == [1, 2]
    assert line["after"] == [{"position": 1, "name": "pd_op.full"}]  # the scale is gone


def test_explain_past_the_last_op_says_how_many_there_are(files):
    # an outside trial: "no op at position 10002: the program has 10002" (of what?)
    ops = len(rulepass("print", str(files / "p.pir")).stdout.strip().splitlines()) - 2
    r = rulepass("rewrite", str(files / "p.pir"), "--pass", "fold_unit_scale", "--rules",
                 str(files / "mine.rw"), "--explain", f"unit_scale@{ops}")
    assert r.returncode == 1 and r.stdout == ""
    assert (f"no op at position {ops}: the program has {ops} ops (positions 0 to {ops - 1})"
            in r.stderr), r.stderr


def test_trace_files_are_named_relative_to_the_project_or_as_given(files, monkeypatch):
    monkeypatch.chdir(files)
    r = rulepass("rewrite", "p.pir", "--pass", "fold_unit_scale", "--rules", "mine.rw",
                 "--trace", "t.jsonl", "-o", "out.pir")
    assert r.returncode == 0, r.stderr
    assert json.loads((files / "t.jsonl").read_text())["file"] == "mine.rw"
    pipeline = files / "pipe.jsonl"
    r = rulepass("rewrite", str(CORPUS / "pp2_vpp2" / "rank0" / "11_before_dist2dense.pir"),
                 "--pass", "dist_to_dense", "-p", "rank=0", "--trace", str(pipeline),
                 "-o", str(files / "dense.pir"))
    assert r.returncode == 0, r.stderr
    entries = [json.loads(line) for line in pipeline.read_text().splitlines()]
    assert entries and all(e["file"] == "rules/dist_to_dense.rw" for e in entries)
    # value rules (retyping kwargs) have no anchor op: their position is null
    assert all(e["position"] >= 0 if e["before"] else e["position"] is None for e in entries)
    assert any(e["before"] for e in entries)


@pytest.mark.parametrize("args, code, message", [
    (["--pass", "no_such_pass"], 1, "unknown pass 'no_such_pass'"),
    # wrong usage (exit 2), as argparse's own errors (breaker item 18)
    (["--pass", "tag", "-p", "nokey"], 2, "expected KEY=VALUE"),
    (["--pass", "tag", "-p", "k=1", "--explain", "tag"], 2, "expected RULE@K"),
    (["--pass", "tag"], 1, "needs param 'k'"),
    ([], 2, "give --pass NAME or --pipeline NAME"),
    # --pass and --pipeline mix, in the order given (issue 18); a param given twice is usage
    (["--pass", "tag", "-p", "k=1", "-p", "k=2"], 2, "-p k given twice"),
])
def test_errors_and_usage(files, args, code, message):
    r = rulepass("rewrite", str(files / "p.pir"), "--rules", str(files / "mine.rw"), *args)
    assert r.returncode == code
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_check_counts_and_fails(files):
    good = files / "good.rw"
    good.write_text(RULES + '\ntest folds { run fold_unit_scale input """' + PROGRAM
                    + '""" expect unchanged }\n')
    r = rulepass("check", str(good))
    assert r.returncode == 1  # the scale is folded, so "unchanged" fails
    assert r.stdout.splitlines()[-1] == "0 passed, 1 failed"
    ok = rulepass("check")  # the installed rules
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.splitlines()[-1].endswith(" passed, 0 failed")


def test_rewrite_reproduces_paddles_own_output_from_the_command_line():
    before = CORPUS / "pp2_vpp2" / "rank0" / "05_before_remove_other_rank_op_pass.pir"
    after = CORPUS / "pp2_vpp2" / "rank0" / "06_after_remove_other_rank_op_pass.pir"
    r = rulepass("rewrite", str(before), "--pass", "prune_other_ranks", "-p", "rank=0")
    assert r.returncode == 0, r.stderr
    assert r.stdout == after.read_text()
