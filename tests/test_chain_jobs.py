"""Issue "Backward": our whole chain gives per-rank dense programs whose op multiset per job
equals Paddle 3.3.1's final job programs, for every pipeline configuration captured.

The one difference is deliberate (docs/deviations.md): Paddle splits a rank's program into one
program per job and hands values between them through extra `builtin.shadow_output` ops; our
runtime keeps one program and one environment per micro-batch, so it needs none.
"""

import collections
import json
from pathlib import Path

import pytest

from rulepass.chain import compile_rank
from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.verify import verify
from rulepass.runtime.pipeline import split_jobs

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "paddle"
# gm_*: a global pipeline mesh (issue 13); gm_*_vpp2_3d differs on purpose (docs/deviations.md:
# a stage copies a global value from the global value, not by a send from another stage)
CONFIGS = ["pp2_fthenb", "pp2_1f1b", "pp2_vpp2", "pp2_vpp2_localmap", "dp2_pp2", "gm_none_pp2_1f1b",
           "gm_none_pp2_vpp2", "gm_input_pp2_1f1b", "gm_param_pp2_1f1b", "gm_param_pp2_1f1b_3d"]


def config_of(cfg: str) -> dict:
    return json.loads((CORPUS / cfg / "rank0" / "config.json").read_text())


# every rank; with dp the last stage's loss grad differs on purpose (docs/deviations.md: a 1/dp
# scale where Paddle all-gathers and slices), so only the first stage's ranks there
CASES = [(cfg, rank) for cfg in CONFIGS
         for rank in (range(config_of(cfg)["world_size"]) if config_of(cfg)["dp"] == 1 else (0, 1))]


@pytest.fixture(scope="module")
def rules():
    return load_rules([], installed=True)


@pytest.mark.parametrize("cfg, rank", CASES)
def test_op_multiset_per_job_equals_paddles(cfg, rank, rules):
    config = config_of(cfg)
    forward = parse_program(next((CORPUS / cfg / "rank0").glob("*_forward_dist.pir")).read_text())
    compiled = compile_rank(forward, rules, rank, pp=config["pp"], vpp=config["vpp"],
                            seg_method=config["seg_method"],
                            micro_batches=config["micro_batches"])
    verify(compiled.program, dense=True)
    ops = compiled.program.ops
    ours = {job: collections.Counter(ops[i].name for i in indices)
            for job, indices in split_jobs(compiled.program, config["schedule"]).items()}
    ours = {job: counts for job, counts in ours.items() if counts}
    our_outputs = {op.attributes.get("output_name") for op in ops
                   if op.name == "builtin.shadow_output"}
    theirs = {}
    for path in (CORPUS / cfg / f"rank{rank}").glob("job_*.pir"):
        program = parse_program(path.read_text(), str(path))
        theirs[path.stem[len("job_"):]] = collections.Counter(
            op.name for op in program.ops
            if op.name != "builtin.shadow_output"
            or op.attributes.get("output_name") in our_outputs)
    theirs = {job: counts for job, counts in theirs.items() if counts}
    assert theirs, "no job programs captured"
    assert ours == theirs
