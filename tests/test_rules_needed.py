"""`load_rules(..., needed=...)` (issue 16): `rulepass rewrite --pass NAME` loads and checks only
the installed file declaring NAME and what it includes, not every installed pass; the passes it
gets run exactly as those of the whole set, and whatever the subset cannot answer — an unknown
name, a name of the other kind, an error in its files — is answered by loading everything, so
messages stay those of the whole set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulepass.engine.api as api
from rulepass.cli.main import main
from rulepass.cli.passes import plan_steps, run_steps
from rulepass.engine.api import installed_rules, load_rules
from rulepass.engine.errors import RuleCompileError, RulepassError
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program

CORPUS = Path(__file__).parent / "data" / "paddle"

#: the six seed passes: (input stage, params) in the pp2 vpp2 capture of rank 0
SEED = {
    "complete_chunk_id": ("01_before_complete_chunk_id",
                          {"pp_degree": "2", "vpp_degree": "2", "seg_method": "MyLinear"}),
    "grad_chunk": ("03_before_grad_chunk_id", {}),
    "prune_other_ranks": ("05_before_remove_other_rank_op_pass", {"rank": "0"}),
    "check_chunk_id": ("09_before_check_chunk_id", {}),
    "dist_to_dense": ("11_before_dist2dense", {"rank": "0"}),
    "drop_trivial_comm": ("12_after_dist2dense", {}),
}


def test_a_pass_loads_only_its_own_file():
    rules = load_rules([], installed=True, needed=[("pass", "drop_trivial_comm")])
    assert set(rules.passes) == {"drop_trivial_comm"}
    assert list(rules.sources.texts) == [str(installed_rules() / "drop_trivial_comm.rw")]


def test_a_pipeline_loads_its_file_and_what_it_includes():
    whole = load_rules([], installed=True)
    rules = load_rules([], installed=True, needed=[("pipeline", "paddle")])
    assert len(rules.passes) < len(whole.passes)
    assert set(rules.pipelines) == {"paddle", "paddle_without_vpp"}
    params = {"rank": 0, "pp_degree": 2, "vpp_degree": 2, "seg_method": "MyLinear"}
    assert ([(cpass.name, resolved) for cpass, resolved in rules.pipeline_steps("paddle", params)]
            == [(cpass.name, resolved) for cpass, resolved in whole.pipeline_steps("paddle",
                                                                                   params)])


@pytest.mark.parametrize("name", list(SEED))
def test_a_pass_of_the_subset_runs_as_in_the_whole_set(name):
    stage, params = SEED[name]
    text = (CORPUS / "pp2_vpp2" / "rank0" / f"{stage}.pir").read_text()
    outputs = []
    for rules in (load_rules([], installed=True),
                  load_rules([], installed=True, needed=[("pass", name)])):
        program = parse_program(text)
        result = run_steps(rules, program, plan_steps(rules, [("pass", name)], params),
                           trace_positions=True)
        outputs.append((print_program(result.program),
                        [application.json() for application in result.trace]))
    assert outputs[0] == outputs[1]
    assert outputs[0][1] or name in ("drop_trivial_comm",)


@pytest.mark.parametrize("needed", [
    [("pass", "no_such_pass")],
    [("pass", "paddle")],  # a pipeline asked for as a pass
    [("pipeline", "dist_to_dense")],  # and a pass as a pipeline
    [("pass", "dist_to_dense"), ("pass", "no_such_pass")],
])
def test_what_the_subset_cannot_answer_loads_everything(needed):
    whole = load_rules([], installed=True)
    rules = load_rules([], installed=True, needed=needed)
    assert set(rules.passes) == set(whole.passes)
    assert set(rules.pipelines) == set(whole.pipelines)
    with pytest.raises(RuleCompileError) as subset_error:
        plan_steps(rules, needed, {"rank": "0"})
    with pytest.raises(RuleCompileError) as whole_error:
        plan_steps(whole, needed, {"rank": "0"})
    assert str(subset_error.value) == str(whole_error.value)


GOOD = "pass good { rule r { match { o = pd_op.relu(x) } where not has(o.t) rewrite { set o.t = 1 } } }\n"
BROKEN = "pass broken { rule r { match { o = pd_op.relu(x) } where rewrite { } } }\n"


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """An installed rules/ folder of the test's own files."""
    folder = tmp_path / "rules"
    folder.mkdir()
    monkeypatch.setattr(api, "installed_rules", lambda: folder)
    return folder


def test_an_unneeded_broken_file_is_not_loaded(installed):
    (installed / "a_broken.rw").write_text(BROKEN)
    (installed / "b_good.rw").write_text(GOOD)
    with pytest.raises(RulepassError):
        load_rules([], installed=True)
    rules = load_rules([], installed=True, needed=[("pass", "good")])
    assert set(rules.passes) == {"good"}


def test_an_error_in_a_needed_file_is_reported_as_by_the_whole_set(installed):
    (installed / "a_broken.rw").write_text(BROKEN)
    (installed / "b_also.rw").write_text(BROKEN.replace("broken", "also"))
    with pytest.raises(RulepassError) as whole:
        load_rules([], installed=True)
    with pytest.raises(RulepassError) as subset:
        load_rules([], installed=True, needed=[("pass", "also")])
    assert str(subset.value) == str(whole.value)
    assert "a_broken.rw:1:" in str(subset.value)  # file:line:col of the first error, as before


def test_a_name_declared_twice_is_reported_as_by_the_whole_set(installed):
    (installed / "a.rw").write_text(GOOD)
    (installed / "b.rw").write_text(GOOD)
    with pytest.raises(RuleCompileError, match="defined twice"):
        load_rules([], installed=True, needed=[("pass", "good")])


def test_user_rules_still_meet_every_installed_pass(tmp_path, capsys):
    # --rules: the user's file may name any installed pass, so everything is loaded
    (tmp_path / "mine.rw").write_text(GOOD.replace("good", "check_chunk_id"))
    program = CORPUS / "pp2_vpp2" / "rank0" / "12_after_dist2dense.pir"
    code = main(["rewrite", str(program), "--pass", "drop_trivial_comm", "--rules",
                 str(tmp_path / "mine.rw")])
    assert code == 1
    assert "'check_chunk_id' is defined twice" in capsys.readouterr().err


def test_the_command_line_trace_names_the_installed_file(tmp_path, capsys):
    program = CORPUS / "pp2_vpp2" / "rank0" / "05_before_remove_other_rank_op_pass.pir"
    trace = tmp_path / "t.jsonl"
    assert main(["rewrite", str(program), "--pass", "prune_other_ranks", "-p", "rank=0",
                 "--trace", str(trace)]) == 0
    expected = CORPUS / "pp2_vpp2" / "rank0" / "06_after_remove_other_rank_op_pass.pir"
    assert capsys.readouterr().out == expected.read_text()
    entries = [json.loads(line) for line in trace.read_text().splitlines()]
    assert entries and {e["file"] for e in entries} == {"rules/prune_other_ranks.rw"}
