"""The ``examples/<cfg>/`` folder of a configuration, written from its capture: the forward dist
program (or the serial program and its plan), the numerics and a ``config.toml``.

Only run under ``/work/paddle-venv`` (tools/capture_paddle.py); never imported by rulepass."""

from __future__ import annotations

import shutil
from pathlib import Path

import paddle_parallelize_models as pm
from capture_paddle_configs import CONFIGS, DATA_DIR, EXAMPLES_DIR, LEARNING_RATE, STEPS


def write_example(cfg_name: str, data_dir: Path = DATA_DIR) -> None:
    """Write ``examples/<cfg>/`` from the capture in ``<data_dir>/<cfg>/``."""
    cfg = CONFIGS[cfg_name]
    src = data_dir / cfg_name
    dst = EXAMPLES_DIR / cfg_name
    dst.mkdir(parents=True, exist_ok=True)
    serial = cfg_name in pm.SERIAL_EXAMPLES or cfg_name in pm.SERIAL_EXAMPLES_ONLY
    if serial:  # the serial program and its plan: `rulepass run`
        for name in ("serial.pir", "plan.toml"):  # parallelizes first
            shutil.copyfile(src / name, dst / name)
    else:
        forward = sorted((src / "rank0").glob("*_forward_dist.pir"))[0]
        shutil.copyfile(forward, dst / "forward.pir")
    for name in ("params.npz", "data.npz", "reference.json", "params_final.npz",
                 "opt_state.npz", "opt_state_final.npz"):
        if (src / name).exists():
            shutil.copyfile(src / name, dst / name)
    if cfg["pp"] > 1:
        schedule = f'schedule = "{cfg["schedule"]}"\n'
    else:
        schedule = '# no pipeline in Paddle\'s run; with pp = 1 the schedule is moot\nschedule = "FThenB"\n'
    if serial:
        where = ("tests/data/global_mesh/parallelize/<cfg>/"
                 if cfg_name in pm.SERIAL_EXAMPLES_ONLY else "tests/data/paddle/<cfg>/")
        header = ["# Captured from PaddlePaddle 3.3.1 by tools/capture_paddle.py: serial.pir is the",
                  "# model without distribution, plan.toml its dist.parallelize config; `rulepass",
                  f"# run` parallelizes first (Paddle's own result: {where})."]
    else:
        header = ["# Captured from PaddlePaddle 3.3.1 by tools/capture_paddle.py; forward.pir is "
                  "rank 0's",
                  "# forward_dist stage (the global view after mix2dist and forward op roles)."]
    lines = [
        *header,
        "[parallel]",
        f"world_size = {cfg['world_size']}",
        f"pp = {cfg['pp']}",
        f"vpp = {cfg['vpp']}",
        f"mp = {cfg['mp']}",
        f"dp = {cfg['dp']}",
        schedule.rstrip("\n"),
        f"micro_batches = {cfg['micro_batches']}",
        f'seg_method = "{cfg["seg_method"]}"',
        "",
        "[train]",
        f'optimizer = "{cfg.get("optimizer", "sgd")}"',
        f"lr = {LEARNING_RATE}",
        f"steps = {STEPS}",
        "",
        "[check]",
        "rtol = 1e-5",
    ]
    if cfg.get("global_kind"):  # the global-mesh examples (issue 13)
        lines += ["# float32 rounding of elements near zero (~1e-9 absolute); the corpus tests use "
                  "the same atol", "atol = 1e-7"]
    elif cfg.get("model") == "seedllama":
        # the seed LLaMA's k_proj biases get a zero gradient (softmax ignores a per-query
        # constant): their final values are float noise around 0 (an outside trial's examples
        # of it failed without this line, which tests/test_parallelize_examples.py adds too)
        lines += ["# k_proj biases get a zero gradient: their final values are float noise "
                  "around 0", "atol = 1e-7"]
    (dst / "config.toml").write_text("\n".join(lines) + "\n")
