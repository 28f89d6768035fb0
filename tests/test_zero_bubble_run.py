"""Zero-bubble pipelines end to end: the split_backward pass, the B/W job split, examples trained
under ZBH1 and ZBVPP on threads and MPI against Paddle's reference, and `--micro-batches M`."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli_process import rulepass
from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.example import ExampleError, load_example
from rulepass.micro_batches import rebatch
from rulepass.run import RunOptions, compile_all, run_local, summarize
from rulepass.runtime.executor import Executor
from rulepass.runtime.pipeline import split_jobs
from rulepass.runtime.trace import job_counts

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name, **options):
    example = load_example(EXAMPLES / name)
    result = run_local(example, RunOptions(**options))
    return summarize(example, result), job_counts(result.events)


@pytest.mark.parametrize("name", ["pp2_1f1b", "pp2_fthenb", "dp2_pp2"])
def test_examples_train_to_the_reference_under_zbh1(name):
    report, jobs = run(name, schedule="ZBH1")
    assert report.ok, (report.losses, report.param_errors)
    assert any(counts.get("backward_b") and counts.get("backward_w") for counts in jobs.values())
    micro_batches = load_example(EXAMPLES / name).parallel.micro_batches
    assert report.bubble == pytest.approx(1 / (3 * micro_batches + 1))  # pp = 2: (p-1)/(3m+p-1)


def test_four_micro_batch_example_runs_under_zbvpp_with_two():
    report, jobs = run("pp2_vpp2", schedule="ZBVPP", micro_batches=2)
    assert report.ok, (report.losses, report.param_errors)
    steps = 3
    for counts in jobs.values():  # 2 chunks x 2 micro-batches per step, no whole backward
        assert counts == {"forward": 4 * steps, "backward_b": 4 * steps, "backward_w": 4 * steps,
                          "optimizer": steps}
    assert 0 < report.bubble < 1 / 5  # VPP's (p-1)/(v*m+p-1) at pp2 vpp2 m2


def test_micro_batches_two_under_1f1b():
    report, _ = run("pp2_1f1b", micro_batches=2)
    assert report.ok
    assert report.bubble == pytest.approx(1 / 3)


def test_split_pass_runs_only_for_zero_bubble_schedules():
    example = load_example(EXAMPLES / "pp2_1f1b")
    plain, _ = compile_all(example, RunOptions(), [1])
    split, _ = compile_all(example, RunOptions(schedule="ZBH1"), [1])
    assert "split_backward" not in [s.name for s in plain[1].steps]
    applied = {s.name: s.applied for s in split[1].steps}["split_backward"]
    assert applied == {"split_matmul_grad_2d": 3, "split_bias_grad": 3}
    text = [op.name for op in split[1].program.block]
    assert "pd_op.matmul_grad" not in text and "pd_op.add_grad" not in text
    jobs = split_jobs(split[1].program, "ZBH1")
    ops = list(split[1].program.block)
    weight = [ops[i] for i in jobs["backward_w"]]
    # the W job holds the gradient-merge accumulation and the weight-grad ops feeding it
    assert sum(op.attributes.get("grad_merge_add", False) for op in weight) == 6
    assert {op.name for op in weight} == {"pd_op.add_", "pd_op.matmul", "pd_op.sum",
                                          "pd_op.full_int_array"}
    assert all(ops[i].name != "pd_op.send_v2" for i in jobs["backward_w"])
    assert jobs["backward"] == sorted(jobs["backward_b"] + jobs["backward_w"])


SPLIT_INPUT = """
{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3,8],stop_gradient:[false]} : () -> tensor<2x3x8xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(undefined:0),shape:[8,4],stop_gradient:[false]} : () -> tensor<8x4xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"b",place:Place(undefined:0),shape:[4],stop_gradient:[false]} : () -> tensor<4xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"h",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[false]} : () -> tensor<2x3x4xf32>
    (%4) = "pd_op.data" () {dtype:float32,name:"dout",place:Place(undefined:0),shape:[2,3,4],stop_gradient:[false]} : () -> tensor<2x3x4xf32>
    (%5, %6) = "pd_op.add_grad" (%3, %2, %4) {axis:-1,op_role:1,stop_gradient:[false,false]} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>, tensor<4xf32>
    (%7, %8) = "pd_op.matmul_grad" (%0, %1, %5) {op_role:1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x3x8xf32>, tensor<8x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>, tensor<8x4xf32>
    () = "builtin.shadow_output" (%6) {output_name:"db"} : (tensor<4xf32>) -> 
    () = "builtin.shadow_output" (%7) {output_name:"dx"} : (tensor<2x3x8xf32>) -> 
    () = "builtin.shadow_output" (%8) {output_name:"dw"} : (tensor<8x4xf32>) -> 
}
"""


def test_split_backward_computes_the_same_grads():
    """Differential: the program before and after the pass gives the same x, weight and bias
    grads on random inputs (3-D activations: Paddle's folded form)."""
    rng = np.random.default_rng(0)
    feeds = {"x": rng.standard_normal((2, 3, 8)), "w": rng.standard_normal((8, 4)),
             "b": rng.standard_normal(4), "h": rng.standard_normal((2, 3, 4)),
             "dout": rng.standard_normal((2, 3, 4))}
    feeds = {k: v.astype(np.float32) for k, v in feeds.items()}
    before = parse_program(SPLIT_INPUT, "split.pir")
    after = parse_program(SPLIT_INPUT, "split.pir")
    result = load_rules([], installed=True).run_pass(after, "split_backward")
    assert {a.rule for a in result.trace} == {"split_bias_grad", "split_matmul_grad_folded"}
    want = Executor(before).run(feeds)
    got = Executor(after).run(feeds)
    for name in ("db", "dx", "dw"):
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6)


def test_rebatch_rescales_the_batch_and_refuses_what_it_cannot_follow():
    example = load_example(EXAMPLES / "pp2_1f1b")
    forward = parse_program(example.forward_text, "forward.pir")
    rebatch(forward, 2, 4)
    data = [op for op in forward.block if op.name == "pd_op.data"]
    assert {tuple(op.results[0].type.shape)[0] for op in data} == {4}
    assert all(op.attr("shape")[0] == 4 for op in data)
    text = """
{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%1) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0]} : () -> tensor<1xi64>
    (%2) = "pd_op.sum" (%0, %1) {dtype:Undefined,keepdim:false,stop_gradient:[true]} : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<8xf32>
}
"""
    with pytest.raises(ExampleError, match="pd_op.sum: it reduces the micro-batch dim but not "
                                           "every dim"):
        rebatch(parse_program(text, "t.pir"), 2, 4, "t.pir")
    unknown = text.replace('"pd_op.sum" (%0, %1)', '"pd_op.logsumexp" (%0, %1)')
    with pytest.raises(ExampleError, match="pd_op.logsumexp reads a value that holds the "
                                           "micro-batch"):
        rebatch(parse_program(unknown, "t.pir"), 2, 4, "t.pir")


@pytest.mark.parametrize("name, schedule, micro_batches", [
    ("pp2_1f1b", "ZBH1", 2), ("pp2_1f1b", "ZBH1", 8), ("pp2_1f1b", "1F1B", 8),
    ("dp2_pp2", "ZBH1", 4)])
def test_any_micro_batch_count_that_divides_the_global_batch_trains(name, schedule,
                                                                    micro_batches):
    # pp2_1f1b: 8 samples, captured as 4 micro-batches; dp2_pp2: 8 samples, 2 (over dp 2)
    report, jobs = run(name, schedule=schedule, micro_batches=micro_batches)
    assert report.ok, (report.losses, report.param_errors)
    steps = load_example(EXAMPLES / name).steps
    assert all(counts["forward"] == micro_batches * steps for counts in jobs.values())
    m = micro_batches
    expected = 1 / (3 * m + 1) if schedule == "ZBH1" else 1 / (m + 1)  # pp = 2
    assert report.bubble == pytest.approx(expected)


def test_a_micro_batch_the_data_parallel_ranks_cannot_share_is_refused():
    # dp2_pp2's 8 samples as 8 micro-batches: one sample for the 2 dp ranks of a stage
    from rulepass.micro_batches import rederive_micro_batches

    example = load_example(EXAMPLES / "dp2_pp2")
    with pytest.raises(ExampleError, match="micro-batches of 1 samples, which the 2 ranks sharing "
                                           "input 'input0' along the batch"):
        rederive_micro_batches(example, parse_program(example.forward_text, "forward.pir"), 8)
    r = rulepass("run", str(EXAMPLES / "dp2_pp2"), "--micro-batches", "8")
    assert r.returncode == 1 and "cannot split evenly" in r.stderr
    assert "Traceback" not in r.stderr


def test_impossible_micro_batch_counts_fail_before_compiling():
    from rulepass.micro_batches import rederive_micro_batches
    from rulepass.runtime.schedules import ScheduleError

    example = load_example(EXAMPLES / "pp2_vpp2")
    with pytest.raises(ExampleError, match="--micro-batches 3 does not divide the global batch of 8"):
        rederive_micro_batches(example, parse_program(example.forward_text, "forward.pir"), 3)
    with pytest.raises(ScheduleError, match="use --micro-batches 2"):
        compile_all(example, RunOptions(schedule="ZBVPP"), [0])
    r = rulepass("run", str(EXAMPLES / "pp2_vpp2"), "--micro-batches", "3")
    assert r.returncode == 1
    assert "--micro-batches 3 does not divide the global batch of 8" in r.stderr
    assert "Traceback" not in r.stderr


def test_cli_prints_the_jobs_each_rank_ran_and_traces_b_and_w(tmp_path):
    import json

    r = rulepass("run", str(EXAMPLES / "pp2_1f1b"), "--schedule", "ZBH1", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "jobs each rank ran" in r.stdout
    assert "backward_b 6, backward_w 6" in r.stdout
    assert "bubble fraction: 0.077" in r.stdout
    events = json.loads((tmp_path / "timeline_rank1.json").read_text())["traceEvents"]
    assert {"backward_b", "backward_w"} <= {e.get("cat") for e in events}
    assert json.loads((tmp_path / "summary.json").read_text())["jobs"]["1"]["backward_w"] == 6


@pytest.mark.mpi
@pytest.mark.parametrize("name, args", [("pp2_1f1b", ["--schedule", "ZBH1"]),
                                        ("dp2_pp2", ["--schedule", "ZBH1"]),
                                        ("pp2_vpp2", ["--schedule", "ZBVPP", "--micro-batches", "2"])])
def test_zero_bubble_examples_under_mpiexec(name, args):
    pytest.importorskip("mpi4py")
    here = Path(sys.executable).parent / "mpiexec"
    mpiexec = str(here) if here.exists() else shutil.which("mpiexec")
    if mpiexec is None:
        pytest.skip("mpiexec not found")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    ranks = str(load_example(EXAMPLES / name).parallel.world_size)
    r = subprocess.run([mpiexec, "-n", ranks, sys.executable, "-m", "mpi4py", "-m", "rulepass", "run",
                        str(EXAMPLES / name), "--backend", "mpi", *args],
                       capture_output=True, text=True, timeout=240, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "OK" in r.stdout and "backward_w" in r.stdout


def test_v_layout_deals_odd_chunks_backwards():
    from rulepass.engine.paddle.functions import deal_layers

    # pp2 vpp2, four layers: chunk 0 on stages 0, 1; chunk 1 on stages 1, 0 (the V)
    assert deal_layers([0, 0, 1, 1], 2, 2, v_shape=True) == ([0, 0, 1, 1], [0, 1, 1, 0])
    assert deal_layers([0, 0, 1, 1], 2, 2) == ([0, 0, 1, 1], [0, 1, 0, 1])
    # pp3 vpp3: chunk 2 runs upward again
    chunks, stages = deal_layers([0, 0, 0, 1, 1, 1, 2, 2, 2], 3, 3, v_shape=True)
    assert stages == [0, 1, 2, 2, 1, 0, 0, 1, 2] and chunks == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_adamw_under_zbh1_differs_from_paddle_only_by_the_merge_order(monkeypatch):
    """ZBH1 runs stage 1's W of micro-batch 0 last, so its gradient merge adds the micro-batches in
    the order 1, 2, 3, 0; in float32 that moves AdamW's normalised steps by ~2e-5 relative (the
    losses still match). With each W moved right after its B (1F1B's order of accumulation) the
    split program matches Paddle within the example's rtol, so the split itself is exact."""
    from rulepass.runtime import schedules
    from rulepass.runtime.schedules import Job

    report, _ = run("pp2_1f1b_adamw", schedule="ZBH1")
    assert all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(report.losses, report.reference))
    assert max(report.param_errors.values()) < 5e-5
    paddle_order = schedules.SCHEDULES["ZBH1"]

    def w_after_b(pp, stage, m, vpp):
        jobs = []
        for job in paddle_order(pp, stage, m, vpp):
            if job.kind != "backward_w":
                jobs.append(job)
            if job.kind == "backward_b":
                jobs.append(Job("backward_w", job.micro_batch))
        return jobs

    monkeypatch.setitem(schedules.SCHEDULES, "ZBH1", w_after_b)
    report, _ = run("pp2_1f1b_adamw", schedule="ZBH1")
    assert report.ok, report.param_errors


@pytest.mark.parametrize("name", ["pp2_vpp2", "pp2_vpp2_localmap"])
def test_vpp_examples_train_to_the_reference_under_zbv(name):
    report, jobs = run(name, schedule="ZBV")  # the examples' own 4 micro-batches
    assert report.ok, (report.losses, report.param_errors)
    assert all(counts["backward_w"] == counts["backward_b"] == counts["forward"]
               for counts in jobs.values())
    assert report.bubble == pytest.approx(1 / 25)  # (p-1)/(6m+p-1)
