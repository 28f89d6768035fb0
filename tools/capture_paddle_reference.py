"""The reference numerics of a configuration: the same model trained without distribution for a
few steps (fixed seeds), its initial and final parameters, data, losses and optimizer state.

Only run under ``/work/paddle-venv`` (tools/capture_paddle.py); never imported by rulepass."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from capture_paddle_configs import ADAMW, CONFIGS, DATA_DIR, LEARNING_RATE, SEED, STEPS
from capture_paddle_models import (build_model, make_data, make_loss, make_optimizer,
                                   make_side_input)


def reference(cfg_name: str, data_dir: Path = DATA_DIR) -> None:
    """Train ``cfg_name``'s model without distribution for STEPS steps and write
    ``params.npz``, ``params_final.npz``, ``data.npz``, ``reference.json`` (and the AdamW state)
    into ``<data_dir>/<cfg>/``, named as rank 0's capture names them."""
    import paddle

    cfg = CONFIGS[cfg_name]
    cfg_dir = data_dir / cfg_name
    rank0 = json.loads((cfg_dir / "rank0" / "config.json").read_text())
    name_of = rank0["structured_param_names"]  # structured name -> program parameter name
    *input_names, label_name = rank0["data_names"]

    model, _ = build_model(cfg, distributed=False)
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    assert set(state) == set(name_of), (sorted(state), sorted(name_of))
    params = {name_of[k]: v for k, v in state.items()}
    missing = set(rank0["param_names"]) - set(params)
    assert not missing, f"program parameters without values: {missing}"

    x, y = make_data(cfg)
    inputs = [x] + ([] if make_side_input(cfg) is None else [make_side_input(cfg)])
    optimizer = make_optimizer(cfg, model.parameters())
    loss_fn = make_loss(cfg)
    losses = []
    # the CPU generator as training starts, whatever the initialisation drew: a model that draws
    # random numbers (dropout, paddle.rand) draws from here, and reference.json says so
    paddle.seed(SEED)
    for step in range(STEPS):
        out = model(*[paddle.to_tensor(v[step]) for v in inputs])
        loss = loss_fn(out, paddle.to_tensor(y[step]))
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss.numpy()))
    final = {name_of[k]: v.numpy() for k, v in model.state_dict().items()}
    if cfg.get("optimizer") == "adamw":
        save_adamw_state(cfg_dir, model, name_of, params, optimizer)

    np.savez(cfg_dir / "params.npz", **params)
    np.savez(cfg_dir / "params_final.npz", **final)
    np.savez(cfg_dir / "data.npz", **dict(zip(input_names, inputs)), **{label_name: y})
    # the optimizer reads its learning rate from a persistable `pd_op.data` it adds itself
    dense = "".join(f.read_text() for f in (cfg_dir / "rank0").glob("*_dense_final.pir"))
    lr_feeds = sorted(set(re.findall(r'name:"(learning_rate[^"]*)"', dense)))
    if not lr_feeds and ((cfg_dir / "rank0" / "paddle_error.txt").exists()
                         or rank0.get("forward_only")):
        # Paddle's chain raised (or a --forward-only capture stopped) before its optimizer
        # ran: the name its optimizer gives the learning rate in every configuration that got
        # there
        lr_feeds = ["learning_rate_0"]
    # steps: after how many steps params_final.npz holds the parameters (rulepass compares them
    # only with a run of as many steps)
    reference_json = {"losses": losses, "steps": STEPS, "learning_rate": LEARNING_RATE,
                      "feeds": {name: LEARNING_RATE for name in lr_feeds}, "rng": {"seed": SEED}}
    (cfg_dir / "reference.json").write_text(json.dumps(reference_json, indent=1) + "\n")


ADAMW_STATE = ("moment1_0", "moment2_0", "beta1_pow_acc_0", "beta2_pow_acc_0")


def save_adamw_state(cfg_dir: Path, model, name_of: dict, params: dict, optimizer) -> None:
    """AdamW's state lives in persistable `pd_op.data` values named `<parameter>_<suffix>`
    (not in builtin.parameter): write its start (as Paddle's startup program sets it: moments
    zero, beta powers beta1/beta2, shape [1]) and its value after training."""
    initial = {}
    for name, value in params.items():
        initial[f"{name}_moment1_0"] = np.zeros_like(value)
        initial[f"{name}_moment2_0"] = np.zeros_like(value)
        initial[f"{name}_beta1_pow_acc_0"] = np.full([1], ADAMW["beta1"], dtype="float32")
        initial[f"{name}_beta2_pow_acc_0"] = np.full([1], ADAMW["beta2"], dtype="float32")
    plain_to_program = {v.name: name_of[k] for k, v in model.state_dict().items()}
    final = {}
    for key, value in optimizer.state_dict().items():
        if not hasattr(value, "numpy"):
            continue
        plain, suffix = next((p, key[len(p) + 1:]) for p in plain_to_program
                             if key.startswith(p + "_") and key[len(p) + 1:] in ADAMW_STATE)
        final[f"{plain_to_program[plain]}_{suffix}"] = value.numpy()
    assert set(final) == set(initial), sorted(set(final) ^ set(initial))
    np.savez(cfg_dir / "opt_state.npz", **initial)
    np.savez(cfg_dir / "opt_state_final.npz", **final)
