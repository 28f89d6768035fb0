"""Layout of the Paddle corpus in tests/data/paddle and the examples copied from it.

The corpus is written by tools/capture_paddle.py (see tests/data/paddle/README.md); these tests
only check that it is complete and well formed, without Paddle.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

CORPUS = Path(__file__).resolve().parent / "data" / "paddle"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CONFIG_FILES = ("params.npz", "data.npz", "reference.json", "params_final.npz")
EXAMPLE_FILES = ("forward.pir", "config.toml", *CONFIG_FILES)

CONFIGS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []
# only the examples copied from the corpus; examples/ may hold hand-written ones too
CAPTURED_EXAMPLES = [EXAMPLES / c for c in CONFIGS if (EXAMPLES / c).is_dir()]


def rank_config(config: str, rank: int) -> dict:
    return json.loads((CORPUS / config / f"rank{rank}" / "config.json").read_text())


def test_corpus_has_first_configs():
    assert {"pp2_fthenb", "pp2_1f1b", "pp2_vpp2", "mp2"} <= set(CONFIGS)


@pytest.mark.parametrize("config", CONFIGS)
def test_config_files(config):
    root = CORPUS / config
    for name in CONFIG_FILES:
        assert (root / name).is_file(), f"{config}: missing {name}"
    world_size = rank_config(config, 0)["world_size"]
    if rank_config(config, 0).get("forward_only"):
        # a --forward-only dist.parallelize capture: rank 0's global view (the same on every
        # rank), the serial program, the plan and the numerics; nothing of Paddle's later passes
        summary = rank_config(config, 0)
        assert summary["kind"] == "parallelize" and not summary["failed"], config
        assert summary["stages"] == ["00_forward_dist.pir"], config
        assert sorted(p.name for p in (root / "rank0").iterdir()) == [
            "00_forward_dist.pir", "config.json", "process_groups.json"], config
        assert not list(root.glob("rank[1-9]*")), config
        assert (root / "serial.pir").is_file() and (root / "plan.toml").is_file(), config
        return
    for rank in range(world_size):
        rank_dir = root / f"rank{rank}"
        assert rank_dir.is_dir(), f"{config}: missing rank{rank}/"
        summary = rank_config(config, rank)
        assert summary["rank"] == rank and summary["name"] == config
        for stage in summary["stages"]:
            assert (rank_dir / stage).is_file(), f"{config}/rank{rank}: missing {stage}"
        stems = {name.split("_", 1)[1] for name in summary["stages"] if name[:2].isdigit()}
        if summary["failed"]:
            # Paddle's own chain raised (issue 13 lists where): the boundaries before it exist,
            # the error is recorded, nothing after it is
            error = (rank_dir / "paddle_error.txt").read_text()
            assert error.strip() and (rank_dir / "FAILED.txt").is_file(), config
            assert "forward_dist.pir" in stems and not (rank_dir / "startup.pir").exists()
            continue
        assert not (rank_dir / "paddle_error.txt").exists()
        assert {"forward_dist.pir", "before_grad_chunk_id.pir", "after_grad_chunk_id.pir",
                "before_remove_other_rank_op_pass.pir", "after_remove_other_rank_op_pass.pir",
                "before_dist2dense.pir", "after_dist2dense.pir",
                "after_remove_unuseful_comm_op.pir", "dense_final.pir"} <= stems
        if summary["schedule"] == "VPP":
            assert {"before_complete_chunk_id.pir", "after_complete_chunk_id.pir",
                    "before_check_chunk_id.pir", "after_check_chunk_id.pir"} <= stems
        if summary["pp"] > 1:
            assert {"before_gradient_merge.pir", "after_gradient_merge.pir"} <= stems
            jobs = (rank_dir / "jobs.txt").read_text().split()
            assert jobs and jobs == summary["jobs"]
            for job in jobs:
                job_type, micro_batch = job.rsplit(":", 1)
                assert (rank_dir / f"job_{job_type}.pir").is_file()
                assert 0 <= int(micro_batch) < summary["micro_batches"]
        groups = json.loads((rank_dir / "process_groups.json").read_text())
        for ring_id, ranks in groups.items():
            assert int(ring_id) >= 0 and all(0 <= r < world_size for r in ranks)


@pytest.mark.parametrize("config", CONFIGS)
def test_numerics_match_program_names(config):
    root = CORPUS / config
    summary = rank_config(config, 0)
    reference = json.loads((root / "reference.json").read_text())
    steps = summary["steps"]
    assert len(reference["losses"]) == steps
    with np.load(root / "params.npz") as params, np.load(root / "params_final.npz") as final:
        assert set(params.files) == set(summary["param_names"])
        assert set(final.files) == set(params.files)
        for name in params.files:
            assert params[name].shape == final[name].shape
            assert params[name].dtype == np.float32
    with np.load(root / "data.npz") as data:
        assert set(data.files) == set(summary["data_names"])
        for name in data.files:
            assert data[name].shape[:2] == (steps, summary["global_batch"])
    if summary.get("optimizer") == "adamw":
        # AdamW's state: persistable pd_op.data named <parameter>_<suffix>, per parameter
        suffixes = ("moment1_0", "moment2_0", "beta1_pow_acc_0", "beta2_pow_acc_0")
        expected = {f"{p}_{s}" for p in summary["param_names"] for s in suffixes}
        with np.load(root / "opt_state.npz") as state, \
                np.load(root / "opt_state_final.npz") as final:
            assert set(state.files) == expected == set(final.files)
    else:
        assert not (root / "opt_state.npz").exists()


def _example_program(example: Path) -> Path:
    """An example's program: ``forward.pir``, or ``serial.pir`` (with ``plan.toml``)."""
    serial = example / "serial.pir"
    return serial if serial.exists() else example / "forward.pir"


@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.pir")) + [_example_program(e) for e in CAPTURED_EXAMPLES],
                         ids=lambda p: str(p.relative_to(p.parents[2])))
def test_pir_text(path):
    text = path.read_text()
    assert text.startswith("{") and text.rstrip().endswith("}"), path


@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.json")) + [e / "reference.json" for e in CAPTURED_EXAMPLES],
                         ids=lambda p: str(p.relative_to(p.parents[2])))
def test_json_parses(path):
    json.loads(path.read_text())


@pytest.mark.parametrize("config", CONFIGS)
def test_example_copy(config):
    example = EXAMPLES / config
    if not example.is_dir():
        pytest.skip(f"no examples/{config}")
    if (example / "serial.pir").exists():  # rulepass run parallelizes it first
        assert not (example / "forward.pir").exists()
        for name in ("serial.pir", "plan.toml"):
            assert (example / name).read_bytes() == (CORPUS / config / name).read_bytes()
        files = [n for n in EXAMPLE_FILES if n != "forward.pir"]
    else:
        forward = next((CORPUS / config / "rank0").glob("*_forward_dist.pir"))
        assert (example / "forward.pir").read_text() == forward.read_text()
        files = EXAMPLE_FILES
    for name in files:
        assert (example / name).is_file(), f"examples/{config}: missing {name}"
    for name in CONFIG_FILES:
        assert (example / name).read_bytes() == (CORPUS / config / name).read_bytes()


def test_corpus_size():
    total = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    total += sum(p.stat().st_size for e in CAPTURED_EXAMPLES for p in e.rglob("*") if p.is_file())
    # 20 MiB before the dist.parallelize captures (issues 13 and 14: ~1 MiB a config, ~3 MiB a
    # LLaMA one)
    assert total < 64 * 1024 * 1024


# configurations built through dist.parallelize carry the serial program and the plan
PARALLELIZE_CONFIGS = [c for c in CONFIGS if rank_config(c, 0)["kind"] == "parallelize"]
# ops of a serial program that belong to no layer (../shared/spec/parallel-plan.md)
NO_LAYER_OPS = {"builtin.parameter", "pd_op.data", "builtin.shadow_output"}


@pytest.mark.parametrize("config", PARALLELIZE_CONFIGS)
def test_serial_program_and_plan(config):
    root = CORPUS / config
    serial = (root / "serial.pir").read_text()
    assert serial.startswith("{") and serial.rstrip().endswith("}")
    assert "pd_dist." not in serial and "op_dist_attr" not in serial, "serial has dist types"
    ops = re.findall(r'"([a-z_]+\.[a-z_0-9]+)" \([^)]*\) \{([^\n]*)\} :', serial)
    assert ops, config
    for name, attrs in ops:
        assert ("struct_name:" in attrs) == (name not in NO_LAYER_OPS), (config, name)
    # the serial program's inputs are at the micro-batch size the dist program has
    forward = next((root / "rank0").glob("*_forward_dist.pir")).read_text()
    shapes = re.compile(r'"pd_op\.data" \(\) \{[^\n]*name:"(\w+)"[^\n]*,shape:\[([0-9,]*)\]')
    assert dict(shapes.findall(serial)) == dict(shapes.findall(forward))
    summary = rank_config(config, 0)
    if summary.get("param_on_global_mesh"):
        # the user placed a parameter with dist.shard_tensor: no plan says that
        assert not (root / "plan.toml").exists()
        return
    plan = tomllib.loads((root / "plan.toml").read_text())
    assert plan["mesh"]["shape"] == summary["mesh_shape"]
    assert plan["mesh"]["dim_names"] == summary["mesh_dims"]
    assert set(plan) <= {"mesh", "pp", "mp", "dp", "inputs"}
    assert ("pp" in plan) == ("pp_config" in summary["config"])
    assert ("mp" in plan) == ("mp_config" in summary["config"])
    assert ("dp" in plan) == ("dp_config" in summary["config"])
    for layer in _plan_layers(plan):
        assert f"/{layer}/" in serial or re.search(rf'/{re.escape(layer)}(_\d+)?/', serial), \
            (config, layer)


def _plan_layers(plan: dict) -> list[str]:
    """The layer names a plan's pp table names (split_spec stems or layers, global_spec)."""
    pp = plan.get("pp", {})
    split = pp.get("split_spec", [])
    names = [split] if isinstance(split, str) else list(split)
    spec = pp.get("global_spec", [])
    names += [spec] if isinstance(spec, str) else list(spec)
    return names
