"""The capture processes: one rank's programs at each pass boundary (:func:`capture`), and the
serial program a dist.parallelize configuration starts from (:func:`capture_serial`).

Only run under ``/work/paddle-venv`` (tools/capture_paddle.py); never imported by rulepass."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import paddle_parallelize_models as pm
from capture_paddle_configs import CONFIGS, DATA_DIR, LEARNING_RATE, STEPS
from capture_paddle_hooks import ForwardCaptured, Recorder, install_hooks
from capture_paddle_models import (build_model, make_data, make_dist_loader, make_loader,
                                   make_loss, make_optimizer, make_strategy)


def scaled_config(cfg_name: str, layers: int) -> dict:
    """``cfg_name`` with ``layers`` MyLinear layers, the first half on stage 0, the rest on 1."""
    cfg = dict(CONFIGS[cfg_name])
    if "layer_stages" not in cfg or cfg["pp"] != 2 or layers < 2 or layers % 2:
        raise SystemExit(f"--layers needs a pp2 configuration and an even count >= 2, "
                         f"got {cfg_name} with {layers}")
    cfg["layer_stages"] = [0] * (layers // 2) + [1] * (layers // 2)
    return cfg



def capture(cfg_name: str, rank: int, layers: int | None = None,
            out_dir: Path | None = None, forward_only: bool = False,
            data_dir: Path = DATA_DIR) -> None:
    """Capture rank ``rank`` of ``cfg_name`` into ``out_dir`` (default
    ``<data_dir>/<cfg>/rank<r>/``): the stage files, ``config.json``, ``process_groups.json``,
    the startup program and the job list; ``FAILED.txt`` and ``paddle_error.txt`` where Paddle
    raised. ``layers``: the pp2 model scaled to that many MyLinear layers (``--layers``);
    ``forward_only``: stop after the forward dist program."""
    cfg = CONFIGS[cfg_name] if layers is None else scaled_config(cfg_name, layers)
    os.environ["PADDLE_TRAINERS_NUM"] = str(cfg["world_size"])
    os.environ["PADDLE_TRAINER_ID"] = str(rank)
    endpoints = [f"127.0.0.1:{6170 + i}" for i in range(cfg["world_size"])]
    os.environ["PADDLE_TRAINER_ENDPOINTS"] = ",".join(endpoints)
    os.environ["PADDLE_CURRENT_ENDPOINT"] = endpoints[rank]
    os.environ["FLAGS_enable_pir_api"] = "1"

    import paddle
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.static.process_group import get_all_process_groups

    paddle.base.set_flags({"FLAGS_enable_pir_api": 1})
    out_dir = out_dir or data_dir / cfg_name / f"rank{rank}"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    rec = Recorder(out_dir)
    install_hooks(rec, forward_only)

    error = None
    model, meshes = build_model(cfg, distributed=True)
    optimizer = make_optimizer(cfg, model.parameters())
    if cfg["kind"] == "parallelize":
        model, optimizer = pm.parallelize(cfg, model, optimizer)
    structured = {k: v.name for k, v in model.state_dict().items()}
    dist_loader = make_dist_loader(cfg, meshes)
    strategy = make_strategy(cfg)

    try:
        dist_model = dist.to_static(model, dist_loader, make_loss(cfg), optimizer, strategy)
        dist_model.train()
    except ForwardCaptured:  # --forward-only: the global view is all this capture keeps
        pass
    except Exception as exc:  # record what failed; keep the stages captured so far
        import traceback
        error = traceback.format_exc()
        (out_dir / "FAILED.txt").write_text(error)
        # the error line alone, for issue 13's list of where Paddle's own chain raises
        (out_dir / "paddle_error.txt").write_text(f"{type(exc).__name__}: {exc}\n")
        print(error, file=sys.stderr)

    summary = dict(cfg)
    summary.update(name=cfg_name, rank=rank, steps=STEPS, lr=LEARNING_RATE,
                   micro_batch_size=cfg["global_batch"] // cfg["micro_batches"] // cfg["dp"],
                   stages=rec.written, failed=error is not None,
                   structured_param_names=structured)
    if forward_only:
        summary["forward_only"] = True
    summary.update(param_names=rec.param_names, data_names=rec.data_names)
    if layers is not None:
        (out_dir / "pass_seconds.json").write_text(json.dumps(rec.seconds, indent=1) + "\n")
    groups = {str(g.id): list(g.ranks) for g in get_all_process_groups()}
    (out_dir / "process_groups.json").write_text(json.dumps(groups, indent=1) + "\n")

    if error is None and not forward_only:
        engine = dist_model._engine
        # the startup program as the engine leaves it (never run here): initial values of the
        # optimizer state and of the parameters (random initialisers)
        (out_dir / "startup.pir").write_text(str(engine._startup_progs["train"]))
        rec.written.append("startup.pir")
        plan = engine._job_plan
        if plan is not None:
            jobs = [f"{job.type()}:{job.micro_batch_id()}" for job in plan.job_list()]
            (out_dir / "jobs.txt").write_text("\n".join(jobs) + "\n")
            for job_type in plan.job_types():
                name = f"job_{job_type}.pir"
                (out_dir / name).write_text(str(plan.ir_program(job_type)))
                rec.written.append(name)
            summary["jobs"] = jobs
        summary["stages"] = rec.written
    (out_dir / "config.json").write_text(json.dumps(summary, indent=1) + "\n")


def capture_serial(cfg_name: str, data_dir: Path = DATA_DIR) -> None:
    """Write ``<cfg>/serial.pir``: the program Paddle hands its first ``apply_mix2dist_pass`` in
    a run of the same model without any distribution (world size 1, no mesh, no
    ``dist.parallelize``, a plain DataLoader at the micro-batch size, a Strategy without
    pipeline). That is the dense forward program with the loss, every layer op carrying its
    ``struct_name``; the run stops right after the print (nothing later is needed)."""
    cfg = CONFIGS[cfg_name]
    os.environ["PADDLE_TRAINERS_NUM"] = "1"
    os.environ["PADDLE_TRAINER_ID"] = "0"
    os.environ["PADDLE_TRAINER_ENDPOINTS"] = "127.0.0.1:6170"
    os.environ["PADDLE_CURRENT_ENDPOINT"] = "127.0.0.1:6170"
    os.environ["FLAGS_enable_pir_api"] = "1"

    import paddle
    import paddle.distributed as dist
    import paddle.distributed.auto_parallel.static.engine as engine_mod

    paddle.base.set_flags({"FLAGS_enable_pir_api": 1})
    engine_mod.Engine._init_comm = lambda self: None
    engine_mod.Engine._initialize = lambda self, mode, init_parameters=True: None
    target = data_dir / cfg_name / "serial.pir"

    class Printed(Exception):
        pass

    def mix2dist(program, *args, **kwargs):
        target.write_text(str(program))
        raise Printed

    engine_mod.apply_mix2dist_pass = mix2dist
    model, _ = build_model(cfg, distributed=False)
    if not cfg.get("param_on_global_mesh"):  # a user's own shard_tensor is no plan key
        (data_dir / cfg_name / "plan.toml").write_text(pm.plan_toml(cfg, model))
    optimizer = make_optimizer(cfg, model.parameters())
    x, y = make_data(cfg)
    micro = dict(cfg, global_batch=cfg["global_batch"] // cfg["micro_batches"])
    strategy = dist.Strategy()
    strategy.auto_mode = "semi"
    try:
        dist_model = dist.to_static(model, make_loader(micro), make_loss(cfg), optimizer,
                                    strategy)
        dist_model.train()
    except Printed:
        return
    raise SystemExit(f"{cfg_name}: the serial run never reached apply_mix2dist_pass")
