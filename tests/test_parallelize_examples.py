"""Example folders holding ``serial.pir`` + ``plan.toml`` instead of ``forward.pir``: ``rulepass run``
parallelizes them first (``rulepass/example.py``) and trains to Paddle's single-process losses and
final parameters; the program it parallelizes is Paddle's own forward dist program."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rulepass.example import ExampleError, load_example
from rulepass.run import RunOptions, run_local, summarize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SERIAL_EXAMPLES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "serial.pir").exists())


def test_one_serial_example_per_kind_of_parallelism():
    plans = [(EXAMPLES / n / "plan.toml").read_text() for n in SERIAL_EXAMPLES]
    for kind in ("[pp]", "[mp]", "[dp]"):
        assert any(kind in p for p in plans), kind


@pytest.mark.parametrize("name", SERIAL_EXAMPLES)
def test_serial_example_matches_paddle(name):
    example = load_example(EXAMPLES / name)
    paddle = (ROOT / "tests" / "data" / "paddle" / name / "rank0" / "00_forward_dist.pir")
    if paddle.exists():  # the captured example: what we parallelized is what Paddle printed
        expected = re.sub(r"(mesh_shape:\[\d+\],process_ids:\[[\d,]*\],dims_mappings:\[[-\d,]*\], )"
                          r"placements:\[Replicate\(\), Replicate\(\)\]", r"\1placements:[Replicate()]",
                          paddle.read_text())
        assert example.forward_text == expected
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert len(result.losses) == example.steps and report.ok


def test_plan_degrees_must_match_the_config(tmp_path):
    copy = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "par_dp2", copy)
    plan = copy / "plan.toml"
    plan.write_text(plan.read_text().replace('dim_names = ["dp"]', 'dim_names = ["mp"]')
                    .replace("[dp]\nsharding_level = 0\n", ""))
    with pytest.raises(ExampleError, match="mp degree is 2 but config.toml says mp = 1"):
        load_example(copy)


def test_serial_and_forward_together_are_refused(tmp_path):
    copy = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "par_dp2", copy)
    (copy / "forward.pir").write_text("{\n}\n")
    with pytest.raises(ExampleError, match="both forward.pir and serial.pir"):
        load_example(copy)


def example_from_capture(config: str, dst: Path) -> Path:
    """An example folder (``serial.pir`` + ``plan.toml``) of the corpus capture ``config``, its
    ``[parallel]`` from the capture's config.json."""
    src = ROOT / "tests" / "data" / "paddle" / config
    cfg = json.loads((src / "rank0" / "config.json").read_text())
    dst.mkdir()
    for name in ("serial.pir", "plan.toml", "params.npz", "data.npz", "reference.json",
                 "params_final.npz"):
        shutil.copyfile(src / name, dst / name)
    schedule = cfg["schedule"] if cfg["pp"] > 1 else "FThenB"
    # the seed LLaMA's k_proj biases get a zero gradient (softmax ignores a per-query constant):
    # their final values are float noise around 0, compared with an absolute tolerance
    atol = "atol = 1e-7\n" if cfg.get("model") == "seedllama" else ""
    (dst / "config.toml").write_text(
        f"[parallel]\nworld_size = {cfg['world_size']}\npp = {cfg['pp']}\nvpp = {cfg['vpp']}\n"
        f"mp = {cfg['mp']}\ndp = {cfg['dp']}\nschedule = \"{schedule}\"\n"
        f"micro_batches = {cfg['micro_batches']}\nseg_method = \"{cfg['seg_method']}\"\n\n"
        f"[train]\noptimizer = \"sgd\"\nlr = {cfg['lr']}\nsteps = {cfg['steps']}\n\n"
        f"[check]\nrtol = 1e-5\n{atol}")
    return dst


#: captures our own chain trains from the serial program: a pipeline over a ["dp", "pp"] mesh
#: (its stages are not stage-major), data parallel along the mesh's second dimension,
#: SequenceParallelEnable (a Partial and a Replicate grad summed: append_backward reshards the
#: partial one first), ZeRO stage 3 with mp, the LLaMA (rsqrt and pow gradients), the seed
#: test's LLaMA (causal mask, masked_select loss, position ids from cumsum; a weight tied across
#: two stages)
TRAINED = ["par_dp2_pp2", "par_mp2_dp2", "par_mp2_sp_enable", "par_dp2_mp2_stage3", "llama_pp2_mp2",
           "seed_mp2_sp_pos", "seed_pp2_share",
           # many ops (vector grads through split/concat/stack, max over a sharded axis);
           # dropout in training, on a batch-sharded activation and under a pipeline, and the
           # seed's paddle.rand: Paddle's own random numbers (reference.json's "rng" seed)
           "zoo_mp2", "zoo_dp2_dropout", "zoo_pp2_dropout", "seed_pp2_rand"]


@pytest.mark.parametrize("config", TRAINED)
def test_serial_capture_trains_to_paddles_reference(config, tmp_path):
    example = load_example(example_from_capture(config, tmp_path / config))
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert report.ok, config
    par = example.parallel
    if par.pp > 1:  # every rank ran its own stage's job list (rank -> coordinate along pp)
        from rulepass.checks import pipeline_stages
        from rulepass.engine.pir.parse import parse_program

        assert result.stages == pipeline_stages(parse_program(example.forward_text),
                                                 par.world_size, par.pp)


def test_pipeline_stages_are_the_coordinate_along_pp():
    from rulepass.checks import pipeline_stages
    from rulepass.engine.pir.parse import parse_program

    corpus = ROOT / "tests" / "data" / "paddle"

    def stages(config, world, pp):
        text = (corpus / config / "rank0" / "00_forward_dist.pir").read_text()
        return pipeline_stages(parse_program(text), world, pp)

    assert stages("par_dp2_pp2", 4, 2) == [0, 1, 0, 1]        # ["dp", "pp"]
    assert stages("par_pp2_mp2", 4, 2) == [0, 0, 1, 1]        # ["pp", "mp"]
    assert stages("par_3d_pp_mp_dp", 8, 2) == [0] * 4 + [1] * 4
    assert stages("par_pp4_dict", 4, 4) == [0, 1, 2, 3]
    assert stages("par_mp2_dp2", 4, 1) == [0, 0, 0, 0]


def test_dropout_draws_paddles_numbers_with_other_micro_batch_counts(tmp_path):
    # 4 micro-batches of one sample each (captured with 2): each run of a dropout takes its rows
    # of the numbers Paddle drew for the whole batch
    example = load_example(example_from_capture("zoo_pp2_dropout", tmp_path / "zoo"))
    report = summarize(example, run_local(example, RunOptions(micro_batches=4)))
    assert report.ok and report.reference_source == "paddle"


def test_without_the_generator_seed_a_random_model_is_judged_against_the_single_device_run(
        tmp_path):
    path = example_from_capture("zoo_dp2_dropout", tmp_path / "zoo")
    reference = json.loads((path / "reference.json").read_text())
    del reference["rng"]
    (path / "reference.json").write_text(json.dumps(reference))
    example = load_example(path)
    report = summarize(example, run_local(example, RunOptions()))
    assert report.ok and report.reference_source == "single_device" and report.paddle is None
    assert any("pd_op.dropout" in line and '"rng" seed' in line for line in report.unchecked)
