"""Layout of the Paddle corpus in tests/data/paddle and the examples copied from it.

The corpus is written by tools/capture_paddle.py (see tests/data/paddle/README.md); these tests
only check that it is complete and well formed, without Paddle.
"""

from __future__ import annotations

import json
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
    for rank in range(world_size):
        rank_dir = root / f"rank{rank}"
        assert rank_dir.is_dir(), f"{config}: missing rank{rank}/"
        summary = rank_config(config, rank)
        assert summary["rank"] == rank and summary["name"] == config
        assert not summary["failed"], (rank_dir / "FAILED.txt").read_text()
        for stage in summary["stages"]:
            assert (rank_dir / stage).is_file(), f"{config}/rank{rank}: missing {stage}"
        stems = {name.split("_", 1)[1] for name in summary["stages"] if name[:2].isdigit()}
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


@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.pir")) + [e / "forward.pir" for e in CAPTURED_EXAMPLES],
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
    for name in EXAMPLE_FILES:
        assert (example / name).is_file(), f"examples/{config}: missing {name}"
    forward = next((CORPUS / config / "rank0").glob("*_forward_dist.pir"))
    assert (example / "forward.pir").read_text() == forward.read_text()
    for name in CONFIG_FILES:
        assert (example / name).read_bytes() == (CORPUS / config / name).read_bytes()


def test_corpus_size():
    total = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    total += sum(p.stat().st_size for e in CAPTURED_EXAMPLES for p in e.rglob("*") if p.is_file())
    assert total < 20 * 1024 * 1024
