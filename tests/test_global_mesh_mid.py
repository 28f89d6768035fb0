"""A global layer reading a middle stage's activation (issue 13): its broadcasts run inside the
schedule where the stage computing them runs them (runtime/global_jobs.py), and `rulepass
parallelize` places such a layer's parameter as Paddle does, or, where Paddle's front end raises,
where the program trains (docs/deviations.md).

- `examples/gm_mid_pp4_1f1b` (Paddle 3.3.1 compiles it): trained on threads and under mpiexec
  (tests/test_global_mesh_more.py), and here under the other schedules;
- `gm_mid_pp2_1f1b` (tests/data/global_mesh/paddle_raises/): the global layer multiplies block
  0's output by its own weight on pp2; Paddle registers the weight on stage 0 and raises where
  the layer reads stage 1's activation; ours keeps the weight on stage 1 and trains it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.example import load_example
from rulepass.parallelize import parallelize
from rulepass.run import RunOptions, run_local, summarize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
RAISES = ROOT / "tests" / "data" / "global_mesh" / "paddle_raises"


@pytest.mark.parametrize("schedule, micro_batches", [("FThenB", 4), ("ZBH1", 4),
                                                     ("Eager1F1B", 8), ("1F1B", 8)])
def test_a_global_layer_of_a_middle_stage_trains_under_other_schedules(schedule, micro_batches):
    """gm_mid_pp4_1f1b: the global layer reads block 1's output on stage 2; its broadcasts run
    where stage 2 (forward) and stages 2 and 3 (backward) compute them, the other ranks joining
    at their place in the schedule's order; Paddle's 1F1B losses hold for any schedule and any
    number of micro-batches of the same batch."""
    example = load_example(EXAMPLES / "gm_mid_pp4_1f1b")
    result = run_local(example, RunOptions(schedule=schedule, micro_batches=micro_batches))
    assert summarize(example, result).ok
    assert any(str(e.name).startswith("global_join") for e in result.events)


def _serial_example(name: str, folder: Path, micro_batches: int = 4, steps: int = 3) -> Path:
    """An example folder of a serial program Paddle could not compile: its serial.pir and
    plan.toml, random parameters and data (fixed seed); judged against the single-device run."""
    src = RAISES / name
    folder.mkdir()
    for file in ("serial.pir", "plan.toml"):
        shutil.copyfile(src / file, folder / file)
    program = parse_program((src / "serial.pir").read_text())
    rng = np.random.default_rng(0)
    params = {f"{op.attributes['parameter_name']}.dist":
              rng.uniform(-0.5, 0.5, op.results[0].type.shape).astype(np.float32)
              for op in program.ops if op.name == "builtin.parameter"}
    data = {str(op.attributes["name"]): rng.uniform(-1, 1, (steps, micro_batches
                                                            * op.results[0].type.shape[0],
                                                            *op.results[0].type.shape[1:]))
            .astype(np.float32) for op in program.ops if op.name == "pd_op.data"}
    np.savez(folder / "params.npz", **params)
    np.savez(folder / "data.npz", **data)
    shape = re.search(r"shape = \[(\d+)\]", (src / "plan.toml").read_text()).group(1)
    (folder / "config.toml").write_text(
        f"[parallel]\nworld_size = {shape}\npp = {shape}\nvpp = 1\nmp = 1\ndp = 1\n"
        f'schedule = "1F1B"\nmicro_batches = {micro_batches}\nseg_method = ""\n\n'
        f'[train]\noptimizer = "sgd"\nlr = 0.05\nsteps = {steps}\n\n[check]\nrtol = 1e-5\n'
        "atol = 1e-7\n")
    return folder


def test_a_global_parameter_read_with_a_middle_activation_trains_where_paddle_raises(tmp_path):
    """gm_mid_pp2_1f1b: `x * weight` of block 0's output (received on stage 1). Paddle 3.3.1
    puts the weight on stage 0 (its layer registers first) and raises; ours leaves it on stage 1
    with the activation, and the broadcast of the product (stage 1 -> global) and its grad run
    inside the schedule."""
    assert "not belong to input mesh" in (RAISES / "gm_mid_pp2_1f1b" / "paddle_error.txt") \
        .read_text()
    program = parse_program((RAISES / "gm_mid_pp2_1f1b" / "serial.pir").read_text())
    parallelize(program, (RAISES / "gm_mid_pp2_1f1b" / "plan.toml").read_text(),
                load_rules([], installed=True))
    weight = next(op for op in program.ops if op.name == "builtin.parameter"
                  and "global_input_param" in op.attributes["parameter_name"])
    assert weight.results[0].type.mesh.process_ids == (1,)
    example = load_example(_serial_example("gm_mid_pp2_1f1b", tmp_path / "ex"))
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert report.ok and report.reference_source == "single_device"
    assert any(str(e.name).startswith("global_join") for e in result.events)


def test_paddles_job_lists_for_a_middle_global_layer_deadlock():
    """Paddle 3.3.1's own 1F1B plan for gm_mid_pp4_1f1b (job programs of ranks 2 and 3): rank 3
    runs recv_forward:0, a receive from rank 2, before forward:0, which calls the broadcast
    rooted at rank 2; rank 2's forward:0 calls that broadcast before its send to rank 3. On a
    real communicator neither goes on; ours runs rank 3's call of the broadcast before its
    receive (a global_join job)."""
    import json

    from rulepass.runtime.schedules import Job

    root = ROOT / "tests" / "data" / "global_mesh" / "paddle_jobs" / "gm_mid_pp4_1f1b"
    jobs3 = [Job.parse(t) for t in (root / "rank3" / "jobs.txt").read_text().split()]
    assert jobs3.index(Job("recv_forward", 0)) < jobs3.index(Job("forward", 0))
    groups3 = json.loads((root / "rank3" / "process_groups.json").read_text())
    recv = next(op for op in parse_program((root / "rank3" / "job_recv_forward.pir").read_text()).ops
                if op.name == "pd_op.recv_v2")
    assert groups3[str(recv.attributes["ring_id"])][recv.attributes["peer"]] == 2
    assert any(op.name == "pd_op.broadcast" and op.attributes["root"] == 2 for op in
               parse_program((root / "rank3" / "job_forward.pir").read_text()).ops)
    forward2 = [op.name for op in parse_program((root / "rank2" / "job_forward.pir").read_text()).ops]
    assert forward2.index("pd_op.broadcast") < forward2.index("pd_op.send_v2")
    groups2 = json.loads((root / "rank2" / "process_groups.json").read_text())
    send = next(op for op in parse_program((root / "rank2" / "job_forward.pir").read_text()).ops
                if op.name == "pd_op.send_v2")
    assert groups2[str(send.attributes["ring_id"])][send.attributes["peer"]] == 3
