"""Global pipeline mesh, second round (issue 13): programs Paddle 3.3.1 printed for configurations
the first captures held fixed, trained by `rulepass run` to Paddle's single-process reference.

Corpus captures (every pass boundary; `tests/test_passes_conformance.py` runs them too), run here
from a folder made of the capture (`forward_dist` of rank 0, the arrays, `config.json`'s settings):

- `gm_param_dp2_pp2_3d`, `gm_none_dp2_pp2_vpp2_3d`: the seed test's `["dp","pp","mp"]` mesh with
  dp2 (stage meshes [0,2] and [1,3]); `gm_param_pp2_dp2`: `["pp","dp"]`;
- `gm_param_pp2_mp2_vpp2_3d`: the blocks under tensor parallelism (`[1,2,2]`) and VPP;
- `gm_two_pp2_vpp2` (`global_spec` a list of two layers), `gm_tuple_pp2_vpp2` (a global layer
  returning two tensors), `gm_param_pp2_vpp2_some` (only blocks 1 and 2 read the global output).

Examples (their whole capture is over the corpus budget): `llama_pp2_vpp2_global` (the seed's
LLaMA with its global layer under VPP), `gm_none_dp2_pp2_3d`, `gm_param_pp4_1f1b`,
`gm_param_dp2_pp2_mp2` (world 8), `gm_none_pp4_vpp2` (pp4, VPP 2 chunks, 8 blocks; its
complete_chunk_id in operand order: tests/test_global_mesh.py, on a small program of that shape),
`llama_pp2_mp2_global` (LLaMA, tensor parallel on `[1,2,2]`, with the global layer: a
gradient-merge buffer of a sharded grad is zeroed in place with its own type), `gm_mid_pp4_1f1b`
(the global layer reads block 1's output, which stage 2 receives: its broadcasts run inside the
schedule, runtime/global_jobs.py; under mpiexec too, with `gm_mid_two_pp4_1f1b`, the same with a
second global layer holding a parameter, trained from its serial program).

All but `gm_none_pp4_vpp2`, `llama_pp2_vpp2_global`, `gm_none_dp2_pp2_3d` and
`gm_param_pp4_1f1b` are programs Paddle's own chain raises on (their `paddle_error.txt`;
docs/deviations.md).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from rulepass.chain import compile_rank
from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.example import load_example
from rulepass.run import RunOptions, run_local, summarize

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "paddle"
EXAMPLES = ROOT / "examples"
CAPTURES = ["gm_param_dp2_pp2_3d", "gm_none_dp2_pp2_vpp2_3d",
            "gm_param_pp2_dp2", "gm_param_pp2_mp2_vpp2_3d", "gm_two_pp2_vpp2",
            "gm_tuple_pp2_vpp2", "gm_param_pp2_vpp2_some"]
EXAMPLE_FOLDERS = ["llama_pp2_vpp2_global", "gm_none_dp2_pp2_3d", "gm_param_pp4_1f1b",
                   "gm_param_dp2_pp2_mp2", "gm_none_pp4_vpp2", "llama_pp2_mp2_global",
                   "gm_mid_pp4_1f1b"]


def example_of_capture(config: str, folder: Path) -> Path:
    """An example folder made of corpus capture ``config`` (what tools/capture_paddle.py writes
    for an example: rank 0's forward_dist as forward.pir, the arrays, config.toml)."""
    root = CORPUS / config
    cfg = json.loads((root / "rank0" / "config.json").read_text())
    folder.mkdir(parents=True)
    shutil.copyfile(next((root / "rank0").glob("*_forward_dist.pir")), folder / "forward.pir")
    for name in ("params.npz", "data.npz", "reference.json", "params_final.npz",
                 "opt_state.npz", "opt_state_final.npz"):
        if (root / name).exists():
            shutil.copyfile(root / name, folder / name)
    (folder / "config.toml").write_text("\n".join([
        "[parallel]", f"world_size = {cfg['world_size']}", f"pp = {cfg['pp']}",
        f"vpp = {cfg['vpp']}", f"mp = {cfg['mp']}", f"dp = {cfg['dp']}",
        f'schedule = "{cfg["schedule"]}"', f"micro_batches = {cfg['micro_batches']}",
        f'seg_method = "{cfg["seg_method"]}"', "", "[train]",
        f'optimizer = "{cfg.get("optimizer", "sgd")}"', f"lr = {cfg['lr']}",
        f"steps = {cfg['steps']}", "", "[check]", "rtol = 1e-5", "atol = 1e-7", ""]))
    return folder


def check_run(example) -> None:
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert len(result.losses) == example.steps
    for ours, ref in zip(report.losses, report.reference):
        assert abs(ours - ref) <= example.rtol * abs(ref)
    assert report.ok, report.param_errors
    return result


@pytest.mark.parametrize("config", CAPTURES)
def test_capture_trains_to_paddles_reference(config, tmp_path):
    example = load_example(example_of_capture(config, tmp_path / config))
    result = check_run(example)
    # a global layer computed on a stage (one with a parameter) reaches the others by broadcast;
    # a global op of its own (GlobalOutputNet) needs none
    calls = [stats.get("broadcast", {}).get("calls", 0) for stats in result.comm]
    assert (max(calls) > 0) == (not config.startswith("gm_none"))


@pytest.mark.parametrize("name", EXAMPLE_FOLDERS)
def test_example_trains_to_paddles_reference(name):
    check_run(load_example(EXAMPLES / name))


def test_paddle_raises_on_the_captures_it_cannot_compile():
    raises = {c: (CORPUS / c / "rank0" / "paddle_error.txt") for c in CAPTURES}
    messages = {c: p.read_text() for c, p in raises.items() if p.exists()}
    assert len(messages) == len(CAPTURES)
    assert "must not be less than the vpp_degree" in messages["gm_none_dp2_pp2_vpp2_3d"]
    assert "no reshard function that matches" in messages["gm_param_dp2_pp2_3d"]
    assert "SubToGlobalMeshFunction" in messages["gm_param_pp2_mp2_vpp2_3d"]


def test_params_final_of_a_sharded_weight_moved_by_vpp(tmp_path):
    """Under VPP a tensor-parallel weight moves to another stage: each rank's piece is cut by its
    type after complete_chunk_id, and `--out`'s params_final.npz assembles the pieces by the same
    types (before, rank 0 got the whole weight, whose stage the forward program puts on [2, 3])."""
    from rulepass.cli.main import main

    folder = example_of_capture("gm_param_pp2_mp2_vpp2_3d", tmp_path / "ex")
    assert main(["run", str(folder), "--out", str(tmp_path / "out")]) == 0
    ours = np.load(tmp_path / "out" / "params_final.npz")
    paddle = np.load(folder / "params_final.npz")
    assert sorted(ours.files) == sorted(paddle.files)
    for name in paddle.files:
        np.testing.assert_allclose(ours[name], paddle[name], rtol=1e-5, atol=1e-7, err_msg=name)


def test_complete_chunk_id_twice_equals_once_under_tensor_parallelism():
    """The pass's own tensor-parallel reshards inside a block do not count as layers when it
    runs again (Paddle's layer walk would count them)."""
    rules = load_rules([], installed=True)
    rank_dir = CORPUS / "gm_param_pp2_mp2_vpp2_3d" / "rank0"
    program = parse_program(next(rank_dir.glob("*_before_complete_chunk_id.pir")).read_text())
    params = dict(pp_degree=2, vpp_degree=2, seg_method="GMyLinear")
    rules.run_pass(program, "complete_chunk_id", **params)
    once = print_program(program)
    assert '"dist_op.reshard"' in once and "chunk_id:1" in once
    rules.run_pass(program, "complete_chunk_id", **params)
    assert print_program(program) == once


def test_every_rank_compiles_the_world_8_mesh():
    example = load_example(EXAMPLES / "gm_param_dp2_pp2_mp2")
    par = example.parallel
    forward = parse_program(example.forward_text)
    rules = load_rules([], installed=True)
    for rank in range(par.world_size):
        program = compile_rank(forward, rules, rank, pp=par.pp, vpp=par.vpp,
                               seg_method=par.seg_method,
                               micro_batches=par.micro_batches).program
        assert any(op.name == "pd_op.broadcast" for op in program.ops), rank


@pytest.mark.mpi
@pytest.mark.parametrize("name", ["gm_param_dp2_pp2_3d", "gm_param_pp4_1f1b",
                                  "llama_pp2_vpp2_global", "gm_mid_pp4_1f1b",
                                  "gm_mid_two_pp4_1f1b"])
def test_matches_paddle_under_mpiexec(mpiexec, name, tmp_path):
    folder = EXAMPLES / name
    if not folder.is_dir():
        folder = example_of_capture(name, tmp_path / name)
    world = load_example(folder).parallel.world_size
    done = mpiexec(world, "-m", "rulepass", "run", str(folder), "--backend", "mpi",
                   "--out", str(tmp_path / "out"), timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["ok"] is True and len(summary["losses"]) == 3
