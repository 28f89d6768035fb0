"""Models and configurations that `tools/capture_paddle.py` builds through ``dist.parallelize``.

Paddle 3.3.1's front end (``python/paddle/distributed/auto_parallel/intermediate/``, seed 003,
PR #69628) turns a single-card ``nn.Layer`` into a distributed one from a config dict
(``pp_config`` split_spec / global_spec, ``mp_config`` parallelize_plan, ``dp_config``
sharding_level). The configurations here hold that dict in a JSON-able form (``"config"``,
SplitPoint and plan classes by name) and ``parallelize`` turns it back into Paddle's objects.

Every model is deterministic: ``paddle.seed``/``np.random.seed`` before construction, and the
seed's ``GlobalOutputNet`` (``paddle.rand`` on every call) returns a constant ``paddle.full``
instead. Class names are the layer names a plan uses (``GlobalMLP/GMyLinear_1/Linear``), so they
match ``../shared/spec/parallel-plan.md``.

The configurations live in ``paddle_global_configs.py`` (issue 13) and
``paddle_parallelize_configs.py`` (issue 14), built by ``paddle_config_forms.py``; the models in
``paddle_parallelize_layers.py``; the ``plan.toml`` writer in ``paddle_plan_toml.py``. This module
gathers them for the capture tool and turns a configuration into Paddle's ``dist.parallelize``
call.

Only imported by the capture tool under ``/work/paddle-venv``; never by rulepass.
"""

from __future__ import annotations

import numpy as np
from paddle_global_configs import GLOBAL_CONFIGS, GLOBAL_CONFIGS_2  # noqa: F401
from paddle_parallelize_configs import (  # noqa: F401
    EXAMPLES, EXAMPLES_ONLY, PARALLELIZE_CONFIGS, SERIAL_EXAMPLES, SERIAL_EXAMPLES_ONLY)
from paddle_parallelize_layers import SEED, build_model  # noqa: F401
from paddle_plan_toml import plan_toml, struct_paths  # noqa: F401

__all__ = ["EXAMPLES", "EXAMPLES_ONLY", "GLOBAL_CONFIGS", "GLOBAL_CONFIGS_2",
           "PARALLELIZE_CONFIGS", "SEED", "SERIAL_EXAMPLES", "SERIAL_EXAMPLES_ONLY", "build_loss",
           "build_model", "mesh_of", "paddle_config", "parallelize", "plan_toml", "stage_meshes",
           "struct_paths"]


def mesh_of(cfg: dict):
    """The global ProcessMesh of a configuration (process ids 0..n-1, row-major)."""
    import paddle.distributed as dist

    ids = np.arange(int(np.prod(cfg["mesh_shape"]))).reshape(cfg["mesh_shape"]).tolist()
    return dist.ProcessMesh(ids, dim_names=list(cfg["mesh_dims"]))


def stage_meshes(cfg: dict) -> list:
    """The pp stage meshes (Paddle's ``get_mesh_with_dim("pp", i)``), or [global mesh]."""
    mesh = mesh_of(cfg)
    if "pp" not in cfg["mesh_dims"]:
        return [mesh]
    return [mesh.get_mesh_with_dim("pp", i) for i in range(mesh.get_dim_size("pp"))]


def build_loss(cfg: dict):
    """The configuration's own loss layer, or None for the capture tool's default."""
    if cfg.get("model") == "seedllama":
        import paddle_seed_llama

        return paddle_seed_llama.criterion(cfg)
    return None


def paddle_config(cfg: dict) -> dict:
    """`cfg["config"]` as Paddle's objects: SplitPoint members and plan instances."""
    import paddle.distributed as dist

    def plan_of(entry):
        if isinstance(entry, list):
            return [plan_of(e) for e in entry]
        if isinstance(entry, dict):
            entry = dict(entry)
            return getattr(dist, entry.pop("kind"))(**entry)
        return getattr(dist, entry)()

    out = {}
    for key, value in cfg["config"].items():
        value = dict(value)
        if key == "pp_config" and isinstance(value.get("split_spec"), dict):
            value["split_spec"] = {k: getattr(dist.SplitPoint, v)
                                   for k, v in value["split_spec"].items()}
        if key == "mp_config":
            value["parallelize_plan"] = {k: plan_of(v)
                                         for k, v in value["parallelize_plan"].items()}
        out[key] = value
    return out


def parallelize(cfg: dict, model, optimizer):
    """``dist.parallelize(model, optimizer, config=...)`` under the configuration's global mesh."""
    import paddle.distributed as dist

    mesh = mesh_of(cfg)
    dist.auto_parallel.set_mesh(mesh)
    if cfg.get("param_on_global_mesh"):
        pp_mesh = mesh.get_mesh_with_dim("pp")
        layer = model.global_layer
        layer.weight = dist.shard_tensor(layer.weight, pp_mesh,
                                         [dist.Replicate() for _ in pp_mesh.shape])
    return dist.parallelize(model, optimizer, config=paddle_config(cfg))
