"""`rulepass run`: every example trains on threads and under MPI, and matches Paddle's losses and
final parameters, and the single-device run rulepass computes itself (which equals Paddle's within
1e-5, and judges the run alone when Paddle's results are removed); bad input is one clear line and
exit status 1."""

import json
import math
import shutil
from pathlib import Path

import attrs
import pytest

from cli_process import rulepass
from rulepass.engine.pir.parse import parse_program
from rulepass.example import ExampleError, load_example
from rulepass.run import RunOptions, run_local, summarize

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ["pp2_fthenb", "pp2_1f1b", "pp2_1f1b_adamw", "pp2_vpp2", "pp2_vpp2_localmap", "mp2",
         "mp2_sp", "mp2_sp_bias", "dp2", "dp2_pp2", "mp2_adamw"]


@pytest.mark.parametrize("name", NAMES)
def test_example_matches_paddle_on_threads(name):
    example = load_example(EXAMPLES / name)
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert len(result.losses) == example.steps
    assert report.reference_source == "paddle"
    for ours, ref in zip(report.losses, report.reference):
        assert abs(ours - ref) <= example.rtol * abs(ref)
    assert report.param_errors and max(report.param_errors.values()) <= example.rtol
    assert report.ok
    # the self-computed reference equals Paddle's within 1e-5, in float64 and float32
    for key in ("losses", "losses_float32"):
        single = report.single_device[key]
        assert len(single) == len(example.reference_losses)
        for ours, ref in zip(single, example.reference_losses):
            assert abs(ours - ref) <= 1e-5 * abs(ref), (key, single, example.reference_losses)
    # without Paddle's results the run is judged against the single-device run, and passes
    alone = attrs.evolve(example, reference_losses=None, final_params={})
    report = summarize(alone, result)
    assert report.reference_source == "single_device" and report.paddle is None
    assert report.reference == report.single_device["losses"]
    assert report.single_device_param_errors and report.ok


def test_cli_run_prints_the_tables_and_writes_outputs(tmp_path):
    out = tmp_path / "out"
    r = rulepass("run", str(EXAMPLES / "pp2_vpp2_localmap"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    for heading in ("loss per step", "rules applied per pass", "bytes moved per rank",
                    "bubble fraction", "OK"):
        assert heading in r.stdout
    assert "{\n" in (out / "rank0.pir").read_text()
    assert (out / "rank1.pir").exists()
    trace = [json.loads(line) for line in (out / "trace.jsonl").read_text().splitlines()]
    assert {"pass", "rule", "file", "line", "position", "before", "after", "rank"} <= set(trace[0])
    # real positions (spec cli.md --trace), installed rule files named relative to the project
    anchored = [entry for entry in trace if entry["before"]]
    assert anchored and all(entry["position"] == entry["before"][-1]["position"] >= 0
                            for entry in anchored)
    assert all(item["position"] >= 0 for entry in trace for item in entry["after"])
    assert all(entry["file"].startswith("rules/") for entry in trace)
    timeline = json.loads((out / "timeline_rank0.json").read_text())
    assert timeline["traceEvents"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["ok"] is True and len(summary["losses"]) == 3


def test_cli_run_exits_1_when_the_reference_differs(tmp_path):
    copy = tmp_path / "pp2_fthenb"
    shutil.copytree(EXAMPLES / "pp2_fthenb", copy)
    reference = json.loads((copy / "reference.json").read_text())
    reference["losses"][1] *= 1.01
    (copy / "reference.json").write_text(json.dumps(reference))
    r = rulepass("run", str(copy))
    assert r.returncode == 1
    assert "MISMATCH" in r.stdout


@pytest.mark.parametrize("breakage, message", [
    (lambda d: (d / "forward.pir").unlink(), "forward.pir: missing"),
    (lambda d: (d / "params.npz").unlink(), "params.npz: missing"),
    (lambda d: (d / "config.toml").write_text(
        (d / "config.toml").read_text().replace("[train]", "[train]\nwarmup = 3")),
     "unknown key 'warmup' in [train]"),
    (lambda d: (d / "config.toml").write_text(
        (d / "config.toml").read_text().replace("world_size = 2", "world_size = 3")),
     "pp × mp × dp = 2 × 1 × 1 = 2, but world_size is 3"),
    (lambda d: (d / "forward.pir").write_text(
        (d / "forward.pir").read_text().replace("tensor<", "tensr<", 1)),
     "forward.pir:2:"),
    (lambda d: (d / "reference.json").write_text("{"), "reference.json:1:2: not valid JSON"),
])
def test_bad_example_is_one_clear_line_and_exit_1(tmp_path, breakage, message):
    copy = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "pp2_fthenb", copy)
    breakage(copy)
    r = rulepass("run", str(copy))
    assert r.returncode == 1
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_missing_example_folder_is_reported():
    with pytest.raises(ExampleError, match="no such example folder"):
        load_example(EXAMPLES / "no_such_example")


@pytest.mark.mpi
@pytest.mark.parametrize("name", ["pp2_fthenb", "pp2_1f1b", "pp2_vpp2_localmap", "mp2_sp", "dp2_pp2"])
def test_example_matches_paddle_under_mpiexec(mpiexec, name):
    world = load_example(EXAMPLES / name).parallel.world_size
    r = mpiexec(world, "-m", "mpi4py", "-m", "rulepass", "run", str(EXAMPLES / name),
                "--backend", "mpi", timeout=240)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("loss per step") == 1  # rank 0 reports, the others stay quiet
    assert "OK" in r.stdout


@pytest.mark.parametrize("name", ["dp2_pp2", "mp2_sp", "pp2_vpp2"])
def test_every_rank_numbers_its_process_groups_alike(name):
    # MPI and NCCL build one communicator per group on all ranks together: different tables
    # would hang the job (a dp2_pp2 run under mpiexec did, before process_groups ran globally).
    from rulepass.run import compile_all

    example = load_example(EXAMPLES / name)
    compiled, _ = compile_all(example, RunOptions(), range(example.parallel.world_size))
    tables = {r: c.program.process_groups for r, c in compiled.items()}
    assert tables[0]
    assert all(t == tables[0] for t in tables.values())


def test_sequence_parallel_fuses_every_row_parallel_output_and_halves_its_bytes():
    # Issue "Tensor and sequence parallel": in mp2_sp the row-parallel output goes Partial ->
    # Shard(0); lowered as all_reduce + split it is fused into reduce_scatter on every rank.
    from rulepass.runtime.comm.collectives import ring_bytes

    example = load_example(EXAMPLES / "mp2_sp")
    result = run_local(example, RunOptions())
    records, comm = result.records, result.comm
    sites = [r.applied["lower_reshard"].get("partial_to_shard", 0) for r in records]
    fused = [r.applied["sp_fusion"].get("allreduce_split_with_num", 0) for r in records]
    assert sites == fused == [1, 1]
    # the fused tensor: the [seq 4, batch 2, hidden 8] float32 row-parallel output
    full = 4 * 2 * 8 * 4
    for stats in comm:
        per_call = stats["reduce_scatter"]["bytes"] / stats["reduce_scatter"]["calls"]
        assert per_call == ring_bytes("reduce_scatter", full, 2)
        assert 2 * per_call == ring_bytes("all_reduce", full, 2)
    report = summarize(example, result)
    assert report.ok
    # the LayerNorm scale, replicated on sequence shards, ends equal to Paddle's on both ranks
    norm = [name for name in report.param_errors if "layer_norm" in name and ".w_" in name]
    assert norm and all(r.param_ok[n] for r in records for n in norm)


@pytest.mark.parametrize("schedule, micro_batches", [(None, None), ("ZBH1", None),
                                                     ("ZBH1", 4), ("FThenB", 4)])
def test_data_parallel_grads_are_all_reduced_once_per_step_after_gradient_merge(schedule,
                                                                                micro_batches):
    # Issue 19: as Paddle's gradient merge does (auto_parallel_gradient_merge.py), a dp grad
    # accumulates partial in its @GRAD@MERGE buffer and is summed once, in the optimizer job.
    # Once per micro-batch gave 24 and 36 calls per rank over 3 steps, and twice the bytes; with
    # 4 micro-batches it would give 4 times. The zero-bubble split keeps the merge in the W job.
    from rulepass.runtime.comm.collectives import ring_bytes

    example = load_example(EXAMPLES / "dp2_pp2")
    assert example.parallel.micro_batches == 2
    result = run_local(example, RunOptions(schedule=schedule, micro_batches=micro_batches))
    records, comm = result.records, result.comm
    calls = [stats["all_reduce"]["calls"] for stats in comm]
    assert calls == [12, 12, 18, 18]  # 3 steps x (4 grads on stage 0, 6 on stage 1)
    for record, stats in zip(records, comm):
        program = parse_program(record.program_text)
        grads = [op for op in program.ops if op.name == "pd_op.all_reduce"]
        assert {op.op_role for op in grads} == {2}  # all in the optimizer job
        assert all(op.operand(0).kwarg_name.endswith("@GRAD@MERGE") for op in grads)
        per_step = sum(ring_bytes("all_reduce", 4 * math.prod(op.operand(0).type.shape), 2)
                       for op in grads)  # float32 grads, summed over the 2 dp ranks
        assert stats["all_reduce"]["bytes"] == example.steps * per_step
    report = summarize(example, result)
    assert report.ok


@pytest.mark.mpi
@pytest.mark.parametrize("ranks, breakage, message", [
    (2, lambda d: (d / "config.toml").write_text(
        (d / "config.toml").read_text().replace("lr = 0.05", "lr = nan")),
     "[train] lr must be a finite positive number"),
    (3, lambda d: None, "world_size is 2 but mpiexec started 3 processes"),
])
def test_an_error_every_rank_hits_is_reported_once_under_mpiexec(mpiexec, tmp_path, ranks,
                                                                 breakage, message):
    # breaker item 24: every rank printed the same example error
    copy = tmp_path / "mp2"
    shutil.copytree(EXAMPLES / "mp2", copy)
    breakage(copy)
    r = mpiexec(ranks, "-m", "mpi4py", "-m", "rulepass", "run", str(copy), "--backend", "mpi",
                timeout=240)
    assert r.returncode != 0
    assert r.stderr.count(message) == 1, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.mpi
def test_an_output_clash_under_mpiexec_is_reported_once_with_exit_2(mpiexec, tmp_path):
    # breaker2 item 5: every rank printed the same usage error (an --out that is the example)
    copy = tmp_path / "mp2"
    shutil.copytree(EXAMPLES / "mp2", copy)
    r = mpiexec(2, "-m", "mpi4py", "-m", "rulepass", "run", str(copy), "--backend", "mpi",
                "--out", str(copy), timeout=240)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("is the example's own folder") == 1, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("name", ["mp2", "dp2", "mp2_sp"])
def test_micro_batches_without_a_pipeline_accumulate_gradients(name):
    # an outside trial: `--micro-batches 2` on a program without pipeline stages was "rank 0
    # failed: PipelineError: 2 micro-batches need a pipeline schedule"; the grads of the
    # micro-batches are merged and applied once, so the losses are Paddle's full-batch ones
    example = load_example(EXAMPLES / name)
    result = run_local(example, RunOptions(micro_batches=2))
    report = summarize(example, result)
    assert result.micro_batches == 2 and report.reference_source == "paddle"
    assert report.ok


def test_a_run_failing_mid_way_writes_nothing_to_stdout(tmp_path):
    # an outside trial: a run that failed after it started wrote a lone newline to stdout (the
    # progress bar's, which a pipe never shows)
    rules = tmp_path / "boom.rw"
    rules.write_text('pass boom { rule r { match { o = pd_op.relu } rewrite { fail "boom" } } }\n')
    r = rulepass("run", str(EXAMPLES / "mp2"), "--rules", str(rules), "--add-pass", "boom",
                 "--after", "dist_to_dense")
    assert r.returncode == 1 and "boom" in r.stderr
    assert r.stdout == ""
    ok = rulepass("run", str(EXAMPLES / "mp2"), "--steps", "1")
    assert ok.returncode == 0 and ok.stdout.startswith("mp2: loss per step")
