"""Self-checking runs (issue 15): the single-device reference computed from the program, the
first divergent op with its pass and rule (``--localize``), user passes in the chain
(``--add-pass``), all without Paddle's results."""

import json
import shutil
from pathlib import Path

import attrs
import pytest

from cli_process import rulepass
from rulepass.example import load_example
from rulepass.run import RunOptions, run_local, summarize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DATA = ROOT / "tests" / "data" / "selfcheck"
WRONG = (str(DATA / "wrong_pass.rw"),)
HARMLESS = (str(DATA / "harmless_pass.rw"),)


def without_paddle(tmp_path, name):
    """A copy of example ``name`` with Paddle's reference.json and params_final.npz removed."""
    copy = tmp_path / name
    shutil.copytree(EXAMPLES / name, copy)
    (copy / "reference.json").unlink()
    (copy / "params_final.npz").unlink()
    return copy


def test_cli_without_paddle_reference_passes_against_the_single_device_run(tmp_path):
    copy = without_paddle(tmp_path, "dp2_pp2")
    out = tmp_path / "out"
    r = rulepass("run", str(copy), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "single device" in r.stdout and "Paddle" not in r.stdout.split("rules applied")[0]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ok"] is True and summary["reference_source"] == "single_device"
    assert summary["reference"] == summary["single_device"]["losses"]
    paddle = json.loads((EXAMPLES / "dp2_pp2" / "reference.json").read_text())["losses"]
    assert all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(summary["reference"], paddle))


def test_summary_names_paddle_as_the_reference_when_it_is_there(tmp_path):
    out = tmp_path / "out"
    r = rulepass("run", str(EXAMPLES / "mp2"), "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["reference_source"] == "paddle"
    assert summary["reference"] == summary["paddle"]
    assert len(summary["single_device"]["losses"]) == 3


def test_wrong_pass_is_localized_to_its_rank_op_pass_and_rule(tmp_path):
    # On rank 1 only, LayerNorm's epsilon 1e-5 -> 2e-5: the losses move by less than 1e-5.
    copy = without_paddle(tmp_path, "mp2_sp")
    example = load_example(copy)
    extra = (("loose_epsilon", "dist_to_dense"),)
    plain = run_local(example, RunOptions(rules=WRONG, extra=extra))
    moved = [abs(a - b) / abs(b) for a, b in zip(plain.losses, plain.single.float64.losses)]
    assert 0 < max(moved) < 1e-5
    result = run_local(example, RunOptions(rules=WRONG, extra=extra, localize=True))
    report = summarize(example, result)
    assert not report.ok
    first = report.localize["first"]
    assert (first["rank"], first["micro_batch"], first["op"]) == (1, 0, "pd_op.layer_norm")
    assert (first["pass"], first["rule"]) == ("loose_epsilon", "epsilon_on_rank_1")
    assert first["message"] == (
        f"first divergence: rank 1, micro-batch 0, op pd_op.layer_norm ({first['value']}) made "
        "by pass loose_epsilon rule epsilon_on_rank_1 (wrong_pass.rw:5)")
    assert first["max_error"] > first["tolerance"]


def test_cli_localize_prints_the_one_line_and_exits_1(tmp_path):
    copy = without_paddle(tmp_path, "mp2_sp")
    r = rulepass("run", str(copy), "--rules", WRONG[0], "--add-pass", "loose_epsilon",
                 "--after", "dist_to_dense", "--localize")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = [line for line in r.stdout.splitlines() if line.startswith("first divergence:")]
    assert len(lines) == 1
    assert "rank 1, micro-batch 0, op pd_op.layer_norm (%" in lines[0]
    assert lines[0].endswith("made by pass loose_epsilon rule epsilon_on_rank_1 "
                             "(wrong_pass.rw:5)")
    assert "max |ours - single device|" in r.stdout


def test_harmless_pass_passes_with_no_divergence(tmp_path):
    copy = without_paddle(tmp_path, "mp2_sp")
    example = load_example(copy)
    result = run_local(example, RunOptions(rules=HARMLESS, extra=(("tag_matmuls", "sp_fusion"),),
                                           localize=True))
    report = summarize(example, result)
    assert sum(r.applied["tag_matmuls"].get("tag", 0) for r in result.records) > 0
    assert report.localize["first"] is None and report.localize["compared"] > 100
    assert report.ok


def _lying_placements(tmp_path):
    # mp2's row-parallel matmul makes a Partial(SUM) result; annotated Replicate, partition
    # inserts no reshard, so no all_reduce is made, and the program still verifies.
    copy = without_paddle(tmp_path, "mp2")
    forward = copy / "forward.pir"
    text = forward.read_text()
    partial = "partial(0,SUM), placements:[Partial(reduce_type=SUM)]"
    assert text.count(partial) == 3
    forward.write_text(text.replace(partial, "placements:[Replicate()]"))
    return copy


def test_lying_placements_fail_without_paddle_reference(tmp_path):
    copy = _lying_placements(tmp_path)
    example = load_example(copy)
    result = run_local(example, RunOptions(localize=True))
    assert all("all_reduce" not in c for c in result.comm)  # nothing was reduced
    report = summarize(example, result)
    assert not report.ok
    first = report.localize["first"]
    assert first["op"] == "pd_op.matmul" and first["micro_batch"] == 0
    r = rulepass("run", str(copy))
    assert r.returncode == 1 and "MISMATCH" in r.stdout


def test_add_pass_after_an_unknown_step_is_one_line(tmp_path):
    r = rulepass("run", str(EXAMPLES / "mp2"), "--rules", HARMLESS[0], "--add-pass",
                 "tag_matmuls", "--after", "no_such_step")
    assert r.returncode == 1
    assert "--after 'no_such_step': no such step of the chain" in r.stderr
    assert "Traceback" not in r.stderr
    r = rulepass("run", str(EXAMPLES / "mp2"), "--add-pass", "tag_matmuls")
    assert r.returncode == 2 and "every --add-pass needs its --after" in r.stderr


def test_localize_needs_the_local_backend():
    from rulepass.example import ExampleError
    from rulepass.run import run_distributed

    example = load_example(EXAMPLES / "mp2")
    with pytest.raises(ExampleError, match="--localize runs every rank on threads"):
        run_distributed(example, RunOptions(backend="mpi", localize=True))


def test_example_without_paddle_results_loads(tmp_path):
    example = load_example(without_paddle(tmp_path, "pp2_fthenb"))
    assert example.reference_losses is None and example.final_params == {}
    assert example.steps == 3
    assert attrs.evolve(example, steps=1).steps == 1


def test_a_divergence_seen_at_the_reader_of_a_remade_op_names_that_op(tmp_path):
    example = load_example(without_paddle(tmp_path, "mp2"))
    rules = (str(DATA / "remade_op.rw"),)
    result = run_local(example, RunOptions(rules=rules, extra=(("remade_scale", "dist_to_dense"),),
                                           localize=True))
    first = result.localize["first"]
    assert (first["rank"], first["op"]) == (1, "pd_op.matmul")
    assert any("(pd_op.scale) made by pass remade_scale rule remake (remade_op.rw:5)" in item
               for item in first["unchecked_inputs"])


def _sharded_local_region(tmp_path):
    # mp2 with its relu inside a local region over Shard(1) pieces (dtensor_to_local ..
    # dtensor_from_local, as dist.local_map makes): each rank computes on [4, 8] pieces of the
    # global [4, 16]; the single-device program runs the region on the global tensor.
    import re

    copy = without_paddle(tmp_path, "mp2")
    forward = copy / "forward.pir"
    lines = forward.read_text().split("\n")
    i = next(k for k, line in enumerate(lines) if '"pd_op.relu"' in line)
    out_v, in_v = re.match(r'\s*\(%(\d+)\) = "pd_op.relu" \(%(\d+)\)', lines[i]).groups()
    placed = "mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0], placements:[Shard(dim=1)]"
    dist = f"pd_dist.tensor<4x16xf32, {placed}>"
    mesh = "mesh:{shape:[2],process_ids:[0,1]}"
    null = "{<#AttrNull>}"
    lines[i:i + 1] = [
        f'    (%900) = "dist_op.dtensor_to_local" (%{in_v}) {{grad_dist_attr:{placed},'
        f'op_dist_attr:{{{mesh},operand(0):{{{placed}}},result(0):{null},chunk_id:-1}},'
        f'op_role:0,stop_gradient:[false]}} : ({dist}) -> tensor<4x8xf32>',
        f'    (%901) = "pd_op.relu" (%900) {{op_dist_attr:{{{mesh},operand(0):{null},'
        f'result(0):{null},chunk_id:-1}},op_role:0,stop_gradient:[false]}} : '
        f'(tensor<4x8xf32>) -> tensor<4x8xf32>',
        f'    (%{out_v}) = "dist_op.dtensor_from_local" (%901) {{op_dist_attr:{{{mesh},'
        f'operand(0):{null},result(0):{{{placed}}},chunk_id:-1}},op_role:0,'
        f'stop_gradient:[false]}} : (tensor<4x8xf32>) -> {dist}',
    ]
    forward.write_text("\n".join(lines))
    return copy


def test_a_local_region_over_shards_runs_on_the_global_tensor(tmp_path):
    example = load_example(_sharded_local_region(tmp_path))
    result = run_local(example, RunOptions(localize=True))
    report = summarize(example, result)
    steps = [s.applied for s in result.single.float64.compiled.steps if s.name == "dist_to_global"]
    assert steps[0]["local_region_op"] == 1 and steps[0]["drop_local_boundary"] == 2
    assert report.ok and report.localize["first"] is None
    paddle = json.loads((EXAMPLES / "mp2" / "reference.json").read_text())["losses"]
    assert all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(report.single_device["losses"], paddle))


ERASE_RELU = """
pass erase_relu sweep {
  rule r {
    match { o = pd_op.relu(x) }
    rewrite {
      replace o with x
      erase o
    }
  }
}
"""


@pytest.mark.parametrize("name", ["dp2", "pp2_1f1b", "mp2"])
def test_a_pass_that_rewires_an_operand_is_blamed(tmp_path, name):
    # breaker item 11: replacing relu's result by its input rewired the matmul reading it, and
    # the localizer blamed dist_to_dense (the rule that made the matmul last)
    rules = tmp_path / "erase_relu.rw"
    rules.write_text(ERASE_RELU)
    example = load_example(without_paddle(tmp_path, name))
    result = run_local(example, RunOptions(rules=(str(rules),),
                                           extra=(("erase_relu", "dist_to_dense"),),
                                           localize=True))
    first = result.localize["first"]
    blamed = [first["message"], *first["unchecked_inputs"]]
    assert any("made by pass erase_relu rule r (erase_relu.rw:" in text for text in blamed), blamed
