"""The two forms of the configurations `tools/capture_paddle.py` builds through
``dist.parallelize``: a global-mesh pipeline (:func:`global_mesh_config`, issue 13) and any
parallelize plan (:func:`parallelize_config`, issue 14). A configuration is a JSON-able dict:
degrees, schedule, batch sizes, model options and Paddle's config dict under ``"config"``
(SplitPoint and plan classes by name; ``paddle_parallelize_models.paddle_config`` turns it back
into Paddle's objects).

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass."""

from __future__ import annotations

import numpy as np

#: common shape of the small models: hidden 8, MLP inner 16, head out 4
SMALL_SHAPE = dict(hidden=8, inter=16, out=4)

#: the tensor-parallel plan of a global-mesh configuration with ``mp_plan``, and its plan keys
_GCOLROW = {"layers.*.linear0": "ColWiseParallel", "layers.*.linear1": "RowWiseParallel"}
_GCOLROW_KEYS = {"layers.*.linear0": "GMyLinear*/Linear", "layers.*.linear1": "GMyLinear*/Linear_1"}


def global_mesh_config(name_kind: str, schedule: str, layers: int, mesh: str | tuple = "1d",
                       *, pp: int = 2, vpp: int | None = None, micro_batches: int = 4,
                       global_batch: int = 8, mp_plan: bool = False, dp_config: bool = False,
                       **extra) -> dict:
    """A global-mesh pipeline configuration (issue 13): GlobalMLP with `layers` GMyLinear blocks,
    split evenly by ``split_spec="layers"`` and ``global_spec="global_layer"``. `mesh` is
    ``"1d"`` (``[pp]`` ``["pp"]``), ``"3d"`` (the seed test's ``[1, pp, 1]``
    ``["dp","pp","mp"]``) or ``(shape, dim_names)``; ``mp_plan`` puts each block's linear0/1
    under ColWise/RowWiseParallel (needs an ``mp`` dimension), ``dp_config`` adds
    ``{"sharding_level": 0}``."""
    if vpp is None:
        vpp = 2 if schedule == "VPP" else 1
    if mesh == "1d":
        shape, dims = [pp], ["pp"]
    elif mesh == "3d":
        shape, dims = [1, pp, 1], ["dp", "pp", "mp"]
    else:
        shape, dims = list(mesh[0]), list(mesh[1])
    size = dict(zip(dims, shape))
    config = {"pp_config": {"split_spec": extra.pop("split_spec", "layers"),
                            "global_spec": extra.pop("global_spec", "global_layer")}}
    cfg = dict(kind="parallelize", model="global", global_kind=name_kind,
               world_size=int(np.prod(shape)), pp=size["pp"], vpp=vpp, mp=size.get("mp", 1),
               dp=size.get("dp", 1), schedule=schedule, micro_batches=micro_batches,
               global_batch=global_batch, layers=layers,
               seg_method="GMyLinear" if vpp > 1 else "",
               mesh_shape=shape, mesh_dims=dims, **SMALL_SHAPE, config=config)
    if mp_plan:
        config["mp_config"] = {"parallelize_plan": dict(_GCOLROW)}
        cfg["plan_keys"] = dict(_GCOLROW_KEYS)
    if dp_config:  # the batch split along dp (the loader splits it whenever dp > 1)
        config["dp_config"] = {"sharding_level": 0}
    cfg.update(extra)
    return cfg


def parallelize_config(model: str, mesh_shape: list, mesh_dims: list, config: dict, *,
                       layers: int = 2, schedule: str = "none", micro_batches: int = 1,
                       global_batch: int = 8, plan_keys: dict | None = None, **extra) -> dict:
    """A dist.parallelize configuration (issue 14) of the model family `model`
    (``mlp``: ParallelMLP, ``encdec``: EncDecMLP, ``sp``: SequenceMLP)."""
    size = dict(zip(mesh_dims, mesh_shape))
    pp, mp, dp = size.get("pp", 1), size.get("mp", 1), size.get("dp", 1)
    vpp = 2 if schedule == "VPP" else 1
    if pp > 1 and schedule == "none":
        schedule = "1F1B"
    cfg = dict(kind="parallelize", model=model, world_size=int(np.prod(mesh_shape)),
               pp=pp, vpp=vpp, mp=mp, dp=dp, schedule=schedule, micro_batches=micro_batches,
               global_batch=global_batch, layers=layers,
               seg_method="MyLinear" if vpp > 1 else "",
               mesh_shape=mesh_shape, mesh_dims=mesh_dims, **SMALL_SHAPE, config=config,
               plan_keys=plan_keys or {})
    cfg.update(extra)
    return cfg

