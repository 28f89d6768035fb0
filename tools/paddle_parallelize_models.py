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

Only imported by the capture tool under ``/work/paddle-venv``; never by rulepass.
"""

from __future__ import annotations

import json
import re

import numpy as np

SEED = 2024

# common shape of the small models: hidden 8, MLP inner 16, head out 4
_SHAPE = dict(hidden=8, inter=16, out=4)


def _pp(name_kind: str, schedule: str, layers: int, mesh: str | tuple = "1d", *, pp: int = 2,
        vpp: int | None = None, micro_batches: int = 4, global_batch: int = 8,
        mp_plan: bool = False, dp_config: bool = False, **extra) -> dict:
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
               mesh_shape=shape, mesh_dims=dims, **_SHAPE, config=config)
    if mp_plan:
        config["mp_config"] = {"parallelize_plan": dict(_GCOLROW)}
        cfg["plan_keys"] = dict(_GCOLROW_KEYS)
    if dp_config:  # the batch split along dp (the loader splits it whenever dp > 1)
        config["dp_config"] = {"sharding_level": 0}
    cfg.update(extra)
    return cfg


_GCOLROW = {"layers.*.linear0": "ColWiseParallel", "layers.*.linear1": "RowWiseParallel"}
_GCOLROW_KEYS = {"layers.*.linear0": "GMyLinear*/Linear", "layers.*.linear1": "GMyLinear*/Linear_1"}


# batch 1 (issue 13): a global layer with no input (the seed's), one computed from the model
# input, one with its own parameter; 1F1B and VPP; 1-D ["pp"] and the seed test's 3-D mesh
GLOBAL_CONFIGS: dict[str, dict] = {}
for _kind in ("none", "input", "param"):
    for _sched, _layers in (("1F1B", 2), ("VPP", 4)):
        for _mesh in ("1d", "3d"):
            _name = f"gm_{_kind}_pp2_{'vpp2' if _sched == 'VPP' else '1f1b'}"
            _name += "_3d" if _mesh == "3d" else ""
            GLOBAL_CONFIGS[_name] = _pp(_kind, _sched, _layers, _mesh)
# GlobalParam with its parameter placed on the global pp mesh by the user (Replicate) before
# dist.parallelize, which then leaves it there: no stage->global reshard after the layer
for _sched, _layers in (("1F1B", 2), ("VPP", 4)):
    GLOBAL_CONFIGS[f"gm_gparam_pp2_{'vpp2' if _sched == 'VPP' else '1f1b'}"] = _pp(
        "param", _sched, _layers, "1d", param_on_global_mesh=True)

# batch 3 (issue 13, second round): what batch 1 holds fixed. Schedules (FThenB), pp4 on a 1-D
# mesh, more blocks (pp2 with 4 and 6, VPP with 8, vpp 4), 3-D meshes with dp2 and mp2, the mesh
# dims in another order, the global output read by the head or by some blocks only, a global
# parameter under AdamW, 2 and 8 micro-batches, two global layers (global_spec as a list).
_PP_DP = ([2, 2], ["pp", "dp"])
_DP_PP_MP = ([2, 2, 1], ["dp", "pp", "mp"])
GLOBAL_CONFIGS_2: dict[str, dict] = {
    "gm_none_pp2_fthenb": _pp("none", "FThenB", 2),
    "gm_param_pp2_fthenb": _pp("param", "FThenB", 2),
    "gm_input_pp2_fthenb": _pp("input", "FThenB", 2),
    "gm_none_pp4_1f1b": _pp("none", "1F1B", 4, pp=4),
    "gm_param_pp4_1f1b": _pp("param", "1F1B", 4, pp=4),
    "gm_input_pp4_1f1b": _pp("input", "1F1B", 4, pp=4),
    "gm_param_pp4_fthenb": _pp("param", "FThenB", 4, pp=4),
    "gm_none_pp4_vpp2": _pp("none", "VPP", 8, pp=4),
    "gm_param_pp4_vpp2": _pp("param", "VPP", 8, pp=4),
    "gm_param_pp2_1f1b_l4": _pp("param", "1F1B", 4),
    "gm_input_pp2_1f1b_l6": _pp("input", "1F1B", 6),
    "gm_none_pp2_1f1b_l6": _pp("none", "1F1B", 6),
    "gm_none_pp2_vpp2_l8": _pp("none", "VPP", 8),
    "gm_param_pp2_vpp2_l8": _pp("param", "VPP", 8),
    "gm_none_pp2_vpp4": _pp("none", "VPP", 8, vpp=4),
    "gm_param_pp2_vpp4": _pp("param", "VPP", 8, vpp=4),
    "gm_none_dp2_pp2_3d": _pp("none", "1F1B", 2, _DP_PP_MP, dp_config=True),
    "gm_param_dp2_pp2_3d": _pp("param", "1F1B", 2, _DP_PP_MP, dp_config=True),
    "gm_input_dp2_pp2_3d": _pp("input", "1F1B", 2, _DP_PP_MP, dp_config=True),
    "gm_none_dp2_pp2_vpp2_3d": _pp("none", "VPP", 4, _DP_PP_MP, dp_config=True),
    "gm_param_dp2_pp2_vpp2_3d": _pp("param", "VPP", 4, _DP_PP_MP, dp_config=True),
    "gm_none_pp2_mp2_3d": _pp("none", "1F1B", 2, ([1, 2, 2], ["dp", "pp", "mp"]),
                              mp_plan=True, global_batch=4, seq=4, micro_batches=2),
    "gm_param_pp2_mp2_3d": _pp("param", "1F1B", 2, ([1, 2, 2], ["dp", "pp", "mp"]),
                               mp_plan=True, global_batch=4, seq=4, micro_batches=2),
    "gm_none_pp2_dp2": _pp("none", "1F1B", 2, _PP_DP, dp_config=True),
    "gm_param_pp2_dp2": _pp("param", "1F1B", 2, _PP_DP, dp_config=True),
    "gm_param_pp2_dp1": _pp("param", "1F1B", 2, ([2, 1], ["pp", "dp"])),
    "gm_param_dp1_pp2": _pp("param", "1F1B", 2, ([1, 2], ["dp", "pp"])),
    # the head reads the global output too: Paddle reshards only the inputs of the split_spec
    # layers (a plain `x + g` before the head fails in dy2static), so the head joins them
    "gm_none_pp2_1f1b_head": _pp("none", "1F1B", 3, head_reads_global=True,
                                 split_spec=["layers", "head"]),
    "gm_param_pp2_1f1b_head": _pp("param", "1F1B", 3, head_reads_global=True,
                                  split_spec=["layers", "head"]),
    "gm_param_pp2_1f1b_some": _pp("param", "1F1B", 4, global_readers=[0, 3]),
    "gm_input_pp2_1f1b_first": _pp("input", "1F1B", 4, global_readers=[0, 1]),
    "gm_param_pp2_vpp2_some": _pp("param", "VPP", 4, global_readers=[1, 2]),
    "gm_none_pp2_vpp2_some": _pp("none", "VPP", 4, global_readers=[0, 3]),
    "gm_param_pp2_1f1b_adamw": _pp("param", "1F1B", 2, optimizer="adamw"),
    "gm_param_pp2_vpp2_adamw": _pp("param", "VPP", 4, optimizer="adamw"),
    "gm_param_pp2_1f1b_mb8": _pp("param", "1F1B", 2, micro_batches=8),
    "gm_input_pp2_1f1b_mb2": _pp("input", "1F1B", 2, micro_batches=2),
    "gm_none_pp2_vpp2_mb2": _pp("none", "VPP", 4, micro_batches=2),
    "gm_none_pp2_vpp2_mb8": _pp("none", "VPP", 4, micro_batches=8),
    "gm_two_pp2_1f1b": _pp("none", "1F1B", 2, global_kind2="param",
                           global_spec=["global_layer", "global_layer2"]),
    "gm_two_pp2_vpp2": _pp("none", "VPP", 4, global_kind2="param",
                           global_spec=["global_layer", "global_layer2"]),
    "gm_two_input_pp2_1f1b": _pp("input", "1F1B", 2, global_kind2="param",
                                 global_spec=["global_layer", "global_layer2"]),
    # round 2: tensor parallel under VPP, a global layer reading the input through its own
    # parameter, one returning a tuple, a second global layer reading the first's output, the
    # input under VPP with dp2 and on pp4, dp2 x pp2 x mp2 (world 8)
    "gm_none_pp2_mp2_vpp2_3d": _pp("none", "VPP", 4, ([1, 2, 2], ["dp", "pp", "mp"]),
                                   mp_plan=True, global_batch=4, seq=4, micro_batches=2),
    "gm_param_pp2_mp2_vpp2_3d": _pp("param", "VPP", 4, ([1, 2, 2], ["dp", "pp", "mp"]),
                                    mp_plan=True, global_batch=4, seq=4, micro_batches=2),
    "gm_inparam_pp2_1f1b": _pp("inparam", "1F1B", 2),
    "gm_inparam_pp2_vpp2": _pp("inparam", "VPP", 4),
    "gm_tuple_pp2_1f1b": _pp("tuple", "1F1B", 2),
    "gm_tuple_pp2_vpp2": _pp("tuple", "VPP", 4),
    "gm_chain_pp2_1f1b": _pp("param", "1F1B", 2, global_kind2="input", global2_reads_global=True,
                             global_spec=["global_layer", "global_layer2"]),
    "gm_input_dp2_pp2_vpp2_3d": _pp("input", "VPP", 4, _DP_PP_MP, dp_config=True),
    "gm_input_pp4_vpp2": _pp("input", "VPP", 8, pp=4),
    # a global layer reading an activation of a middle stage (block 1's output on pp4)
    "gm_mid_pp4_1f1b": _pp("input", "1F1B", 4, pp=4, global_input_after=2,
                           global_readers=[2, 3]),
    "gm_mid_pp2_1f1b": _pp("inparam", "1F1B", 2, global_input_after=1, global_readers=[1]),
    # LLaMA: the global layer with tensor parallelism and with dp2 on the seed mesh
    "gm_param_dp2_pp2_mp2": _pp("param", "1F1B", 2, ([2, 2, 2], ["dp", "pp", "mp"]),
                                mp_plan=True, dp_config=True, global_batch=4, seq=4,
                                micro_batches=2),
}


def _par(model: str, mesh_shape: list, mesh_dims: list, config: dict, *, layers: int = 2,
         schedule: str = "none", micro_batches: int = 1, global_batch: int = 8,
         plan_keys: dict | None = None, **extra) -> dict:
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
               mesh_shape=mesh_shape, mesh_dims=mesh_dims, **_SHAPE, config=config,
               plan_keys=plan_keys or {})
    cfg.update(extra)
    return cfg


_COLROW = {"layers.*.linear0": "ColWiseParallel", "layers.*.linear1": "RowWiseParallel"}
_COLROW_KEYS = {"layers.*.linear0": "MyLinear*/Linear", "layers.*.linear1": "MyLinear*/Linear_1"}

# batch 2 (issue 14): every form of the three configs, alone and combined
PARALLELIZE_CONFIGS: dict[str, dict] = {
    # pp: split_spec as a string (with a LayerNorm before the blocks and a scale after them:
    # ops outside the named layers), as a list of two prefixes, as a dict with SplitPoint.END,
    # a layer count that does not divide (Paddle's divide_list_indices), VPP
    "par_pp2_str": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                        layers=4, micro_batches=4, pre_norm=True, post_scale=True),
    "par_pp2_list": _par("encdec", [2], ["pp"],
                         {"pp_config": {"split_spec": ["encoder", "decoder"]}},
                         layers=2, micro_batches=4),
    "par_pp2_dict": _par("mlp", [2], ["pp"],
                         {"pp_config": {"split_spec": {"layers.0": "END"}}},
                         layers=3, micro_batches=4),
    "par_pp2_uneven": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                           layers=3, micro_batches=4),
    "par_pp2_vpp2": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                         layers=4, micro_batches=4, schedule="VPP"),
    # mp: ColWise/RowWise on [batch, seq, hidden] inputs; a head ColWise with gather_output;
    # a parameter key (only the head's weight split)
    "par_mp2_colrow": _par("mlp", [2], ["mp"],
                           {"mp_config": {"parallelize_plan": _COLROW}},
                           plan_keys=_COLROW_KEYS, global_batch=4, seq=4),
    "par_mp2_gather": _par("mlp", [1, 2], ["dp", "mp"],
                           {"mp_config": {"parallelize_plan": {
                               **_COLROW, "head": {"kind": "ColWiseParallel",
                                                   "gather_output": True}}}},
                           plan_keys={**_COLROW_KEYS, "head": "Linear"},
                           global_batch=4, seq=4, layers=1),
    "par_mp2_param_key": _par("mlp", [2], ["mp"],
                              {"mp_config": {"parallelize_plan": {
                                  **_COLROW, "head.weight": "ColWiseParallel"}}},
                              plan_keys={**_COLROW_KEYS, "head.weight": "Linear.weight"},
                              global_batch=4, seq=4, layers=1),
    # mp + sequence parallel markers (c_split needs a "dp" mesh dimension)
    "par_mp2_sp": _par("sp", [1, 2], ["dp", "mp"],
                       {"mp_config": {"parallelize_plan": {
                           "embed": "SequenceParallelBegin",
                           "mlp.linear0": "ColWiseParallel", "mlp.linear1": "RowWiseParallel",
                           "mlp": {"kind": "SequenceParallelDisable", "need_transpose": False},
                           "head": "SequenceParallelEnd"}}},
                       plan_keys={"embed": "Linear", "mlp.linear0": "MyLinear/Linear",
                                  "mlp.linear1": "MyLinear/Linear_1", "mlp": "MyLinear",
                                  "head": "Linear_1"},
                       global_batch=2, seq=4),
    "par_mp2_sp_enable": _par("sp", [1, 2], ["dp", "mp"],
                              {"mp_config": {"parallelize_plan": {
                                  "mlp.linear0": "ColWiseParallel",
                                  "mlp.linear1": "RowWiseParallel",
                                  "norm": "SequenceParallelEnable"}}},
                              plan_keys={"mlp.linear0": "MyLinear/Linear",
                                         "mlp.linear1": "MyLinear/Linear_1",
                                         "norm": "LayerNorm"},
                              global_batch=2, seq=4),
    # dp (sharding_level 0) alone and with pp / mp
    "par_dp2": _par("mlp", [2], ["dp"], {"dp_config": {"sharding_level": 0}}),
    "par_dp2_pp2": _par("mlp", [2, 2], ["dp", "pp"],
                        {"pp_config": {"split_spec": "layers"},
                         "dp_config": {"sharding_level": 0}}, micro_batches=2),
    "par_pp2_mp2": _par("mlp", [2, 2], ["pp", "mp"],
                        {"pp_config": {"split_spec": "layers"},
                         "mp_config": {"parallelize_plan": _COLROW}},
                        plan_keys=_COLROW_KEYS, micro_batches=2, global_batch=4, seq=4),
    "par_dp2_mp2": _par("mlp", [2, 2], ["dp", "mp"],
                        {"mp_config": {"parallelize_plan": _COLROW},
                         "dp_config": {"sharding_level": 0}},
                        plan_keys=_COLROW_KEYS, global_batch=4, seq=4),
}

# a small LLaMA (the seed test's model): more ops, an embedding, cross-entropy
_LLAMA = dict(vocab=16, heads=2, seq=4)
_LLAMA_MP = {"embed_tokens": "ColWiseParallel",
             "layers.*.self_attn.q_proj": "ColWiseParallel",
             "layers.*.self_attn.k_proj": "ColWiseParallel",
             "layers.*.self_attn.v_proj": "ColWiseParallel",
             "layers.*.self_attn.o_proj": "RowWiseParallel",
             "layers.*.mlp.gate_proj": "ColWiseParallel",
             "layers.*.mlp.up_proj": "ColWiseParallel",
             "layers.*.mlp.down_proj": "RowWiseParallel",
             "lm_head.weight": "ColWiseParallel"}
_LLAMA_KEYS = {"embed_tokens": "Embedding",
               "layers.*.self_attn.q_proj": "LlamaDecoderLayer*/LlamaAttention/Linear",
               "layers.*.self_attn.k_proj": "LlamaDecoderLayer*/LlamaAttention/Linear_1",
               "layers.*.self_attn.v_proj": "LlamaDecoderLayer*/LlamaAttention/Linear_2",
               "layers.*.self_attn.o_proj": "LlamaDecoderLayer*/LlamaAttention/Linear_3",
               "layers.*.mlp.gate_proj": "LlamaDecoderLayer*/LlamaMLP/Linear",
               "layers.*.mlp.up_proj": "LlamaDecoderLayer*/LlamaMLP/Linear_1",
               "layers.*.mlp.down_proj": "LlamaDecoderLayer*/LlamaMLP/Linear_2",
               "lm_head.weight": "Linear.weight"}
PARALLELIZE_CONFIGS.update({
    "llama_pp2": _par("llama", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                      micro_batches=2, global_batch=4, **_LLAMA),
    "llama_pp2_global": _par("llama", [2], ["pp"],
                             {"pp_config": {"split_spec": "layers",
                                            "global_spec": "global_layer"}},
                             micro_batches=2, global_batch=4, global_kind="none", **_LLAMA),
    "llama_mp2": _par("llama", [2], ["mp"], {"mp_config": {"parallelize_plan": _LLAMA_MP}},
                      plan_keys=_LLAMA_KEYS, global_batch=2, **_LLAMA),
    "llama_dp2": _par("llama", [2], ["dp"], {"dp_config": {"sharding_level": 0}},
                      global_batch=4, **_LLAMA),
    "llama_dp_pp_mp_3d": _par("llama", [1, 2, 1], ["dp", "pp", "mp"],
                              {"pp_config": {"split_spec": "layers"},
                               "mp_config": {"parallelize_plan": _LLAMA_MP},
                               "dp_config": {"sharding_level": 0}},
                              plan_keys=_LLAMA_KEYS, micro_batches=2, global_batch=4, **_LLAMA),
    # issue 13, second round: the seed's global layer under VPP, on pp4, and with a parameter
    "llama_pp2_vpp2_global": _par("llama", [2], ["pp"],
                                  {"pp_config": {"split_spec": "layers",
                                                 "global_spec": "global_layer"}},
                                  layers=4, micro_batches=2, global_batch=4, global_kind="none",
                                  schedule="VPP", **_LLAMA, seg_method="LlamaDecoderLayer"),
    "llama_pp4_global": _par("llama", [4], ["pp"],
                             {"pp_config": {"split_spec": "layers",
                                            "global_spec": "global_layer"}},
                             layers=4, micro_batches=4, global_batch=4, global_kind="none",
                             **_LLAMA),
    "llama_pp2_mp2_global": _par("llama", [1, 2, 2], ["dp", "pp", "mp"],
                                 {"pp_config": {"split_spec": "layers",
                                                "global_spec": "global_layer"},
                                  "mp_config": {"parallelize_plan": _LLAMA_MP}},
                                 plan_keys=_LLAMA_KEYS, micro_batches=2, global_batch=4,
                                 global_kind="none", **_LLAMA),
    "llama_pp2_global_param": _par("llama", [2], ["pp"],
                                   {"pp_config": {"split_spec": "layers",
                                                  "global_spec": "global_layer"}},
                                   micro_batches=2, global_batch=4, global_kind="param",
                                   **_LLAMA),
    # the seed's plan shape: sequence parallel between the embedding and the head
    "llama_mp2_sp": _par("llama", [1, 2], ["dp", "mp"], {"mp_config": {"parallelize_plan": {
        **{k: v for k, v in _LLAMA_MP.items() if k != "embed_tokens"},
        "embed_tokens": ["ColWiseParallel", "SequenceParallelBegin"],
        "layers.*.self_attn": {"kind": "SequenceParallelDisable"},
        "layers.*.mlp": {"kind": "SequenceParallelDisable", "need_transpose": False},
        "lm_head": "SequenceParallelEnd"}}},
        plan_keys={**_LLAMA_KEYS, "layers.*.self_attn": "LlamaDecoderLayer*/LlamaAttention",
                   "layers.*.mlp": "LlamaDecoderLayer*/LlamaMLP", "lm_head": "Linear"},
        global_batch=2, **_LLAMA),
})

# batch 3 (issue 14, second pass): what the first batch did not exercise. Captured with
# --forward-only (rank 0's global view, the serial program and the numerics) unless listed in
# FULL_CAPTURES.
_3D = {"pp_config": {"split_spec": "layers"}, "mp_config": {"parallelize_plan": _COLROW},
       "dp_config": {"sharding_level": 0}}
PARALLELIZE_CONFIGS.update({
    # pp over 4 stages: string (with ops before and after the blocks), list, dict with several
    # split points, uneven divisions
    "par_pp4_str": _par("mlp", [4], ["pp"], {"pp_config": {"split_spec": "layers"}},
                        layers=4, micro_batches=4, pre_norm=True, post_scale=True),
    "par_pp4_list": _par("encdec", [4], ["pp"],
                         {"pp_config": {"split_spec": ["encoder", "decoder"]}},
                         layers=2, micro_batches=4),
    "par_pp4_dict": _par("mlp", [4], ["pp"],
                         {"pp_config": {"split_spec": {"layers.0": "END", "layers.2": "END",
                                                       "layers.3": "END"}}},
                         layers=5, micro_batches=4),
    "par_pp4_uneven": _par("mlp", [4], ["pp"], {"pp_config": {"split_spec": "layers"}},
                           layers=6, micro_batches=4),
    "par_pp2_uneven5": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                            layers=5, micro_batches=4),
    # a dict split on a layer outside the block list (the pre-norm ends stage 0)
    "par_pp2_dict_norm": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": {"norm": "END"}}},
                              layers=2, micro_batches=4, pre_norm=True),
    # block lists not named `layers`, nested prefixes, an nn.Sequential called as a whole
    "par_pp2_blocks": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "blocks"}},
                           layers=4, micro_batches=4, list_name="blocks"),
    "par_pp2_nested": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "model.blocks"}},
                           layers=4, micro_batches=4, list_name="blocks", nested="model",
                           pre_norm=True),
    "par_pp2_sequential": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "blocks"}},
                               layers=4, micro_batches=4, list_name="blocks",
                               container="sequential"),
    # the head registered before the blocks (Paddle stages layers in registration order)
    "par_pp2_head_first": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                               layers=2, micro_batches=4, head_first=True),
    # VPP with more chunks
    "par_pp2_vpp3": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                         layers=6, micro_batches=4, schedule="VPP", vpp=3),
    # two model inputs (both on the first stage), no biases
    "par_pp2_two_inputs": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                               layers=2, micro_batches=4, side_input=True),
    "par_pp2_nobias": _par("mlp", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                           layers=2, micro_batches=4, bias=False),
    # mp4 and dp4
    "par_mp4_colrow": _par("mlp", [4], ["mp"], {"mp_config": {"parallelize_plan": _COLROW}},
                           plan_keys=_COLROW_KEYS, global_batch=4, seq=4),
    "par_dp4": _par("mlp", [4], ["dp"], {"dp_config": {"sharding_level": 0}}),
    # ColWiseParallel(gather_output) on an inner layer; RowWiseParallel(is_input_parallel=False)
    "par_mp2_gather_inner": _par("mlp", [1, 2], ["dp", "mp"],
                                 {"mp_config": {"parallelize_plan": {
                                     "layers.*.linear0": {"kind": "ColWiseParallel",
                                                          "gather_output": True}}}},
                                 plan_keys={"layers.*.linear0": "MyLinear*/Linear"},
                                 global_batch=4, seq=4),
    "par_mp2_row_split": _par("mlp", [1, 2], ["dp", "mp"],
                              {"mp_config": {"parallelize_plan": {
                                  "layers.*.linear1": {"kind": "RowWiseParallel",
                                                       "is_input_parallel": False}}}},
                              plan_keys={"layers.*.linear1": "MyLinear*/Linear_1"},
                              global_batch=4, seq=4),
    # parameter keys on every block, wildcards in two segments, no biases
    "par_mp2_param_keys": _par("mlp", [2], ["mp"],
                               {"mp_config": {"parallelize_plan": {
                                   "layers.*.linear0.weight": "ColWiseParallel",
                                   "layers.*.linear1.weight": "RowWiseParallel",
                                   "head.bias": "ColWiseParallel"}}},
                               plan_keys={"layers.*.linear0.weight": "MyLinear*/Linear.weight",
                                          "layers.*.linear1.weight": "MyLinear*/Linear_1.weight",
                                          "head.bias": "Linear.bias"},
                               global_batch=4, seq=4),
    "par_mp2_wildcards": _par("mlp", [2], ["mp"],
                              {"mp_config": {"parallelize_plan": {
                                  "layers.*.linear0": "ColWiseParallel",
                                  "layers.*.linear1": "RowWiseParallel"}}},
                              plan_keys={"layers.*.linear0": "*/Lin*r",
                                         "layers.*.linear1": "*/*_1"},
                              global_batch=4, seq=4, bias=False),
    # an embedding (row- and column-parallel) before LayerNorm-free blocks; cross entropy
    "par_mp2_embed_row": _par("mlp", [2], ["mp"],
                              {"mp_config": {"parallelize_plan": {
                                  "embed": "RowWiseParallel", **_COLROW}}},
                              plan_keys={"embed": "Embedding", **_COLROW_KEYS},
                              global_batch=2, embed=True, vocab=16, seq=4),
    "par_pp2_mp2_embed": _par("mlp", [2, 2], ["pp", "mp"],
                              {"pp_config": {"split_spec": "layers"},
                               "mp_config": {"parallelize_plan": {
                                   "embed": "ColWiseParallel", **_COLROW,
                                   "head": "ColWiseParallel"}}},
                              plan_keys={"embed": "Embedding", **_COLROW_KEYS, "head": "Linear"},
                              micro_batches=2, global_batch=4, embed=True, vocab=16, seq=4),
    # dp along another mesh dimension than the first
    "par_mp2_dp2": _par("mlp", [2, 2], ["mp", "dp"],
                        {"mp_config": {"parallelize_plan": _COLROW},
                         "dp_config": {"sharding_level": 0}},
                        plan_keys=_COLROW_KEYS, global_batch=4, seq=4),
    "par_pp2_dp2": _par("mlp", [2, 2], ["pp", "dp"],
                        {"pp_config": {"split_spec": "layers"},
                         "dp_config": {"sharding_level": 0}}, micro_batches=2),
    # world 8: dp2 x pp2 x mp2 in several dimension orders
    "par_3d_dp_pp_mp": _par("mlp", [2, 2, 2], ["dp", "pp", "mp"], _3D, plan_keys=_COLROW_KEYS,
                            micro_batches=2, global_batch=8, seq=4),
    "par_3d_pp_dp_mp": _par("mlp", [2, 2, 2], ["pp", "dp", "mp"], _3D, plan_keys=_COLROW_KEYS,
                            micro_batches=2, global_batch=8, seq=4),
    "par_3d_mp_pp_dp": _par("mlp", [2, 2, 2], ["mp", "pp", "dp"], _3D, plan_keys=_COLROW_KEYS,
                            micro_batches=2, global_batch=8, seq=4),
    "par_3d_pp_mp_dp": _par("mlp", [2, 2, 2], ["pp", "mp", "dp"], _3D, plan_keys=_COLROW_KEYS,
                            micro_batches=2, global_batch=8, seq=4),
    # LLaMA under more plans
    "llama_pp2_mp2": _par("llama", [2, 2], ["pp", "mp"],
                          {"pp_config": {"split_spec": "layers"},
                           "mp_config": {"parallelize_plan": _LLAMA_MP}},
                          plan_keys=_LLAMA_KEYS, micro_batches=2, global_batch=4, **_LLAMA),
    "llama_pp2_mp2_sp": _par("llama", [1, 2, 2], ["dp", "pp", "mp"], {
        "pp_config": {"split_spec": "layers"},
        "mp_config": {"parallelize_plan": {
            **{k: v for k, v in _LLAMA_MP.items() if k != "embed_tokens"},
            "embed_tokens": ["ColWiseParallel", "SequenceParallelBegin"],
            "layers.*.self_attn": {"kind": "SequenceParallelDisable"},
            "layers.*.mlp": {"kind": "SequenceParallelDisable", "need_transpose": False},
            "lm_head": "SequenceParallelEnd"}}},
        plan_keys={**_LLAMA_KEYS, "layers.*.self_attn": "LlamaDecoderLayer*/LlamaAttention",
                   "layers.*.mlp": "LlamaDecoderLayer*/LlamaMLP", "lm_head": "Linear"},
        micro_batches=2, global_batch=4, **_LLAMA),
    "llama_mp2_sp_norm": _par("llama", [1, 2], ["dp", "mp"], {"mp_config": {"parallelize_plan": {
        **_LLAMA_MP, "norm": "SequenceParallelEnable"}}},
        plan_keys={**_LLAMA_KEYS, "norm": "LlamaRMSNorm"}, global_batch=2, **_LLAMA),
    "llama_dp2_mp2": _par("llama", [2, 2], ["dp", "mp"],
                          {"mp_config": {"parallelize_plan": _LLAMA_MP},
                           "dp_config": {"sharding_level": 0}},
                          plan_keys=_LLAMA_KEYS, global_batch=4, **_LLAMA),
    "llama_pp4": _par("llama", [4], ["pp"], {"pp_config": {"split_spec": "layers"}},
                      layers=4, micro_batches=4, global_batch=4, **_LLAMA),
})

# the seed test's LLaMA (tools/paddle_seed_llama.py) under the plans of Paddle's own test of
# dist.parallelize (parallel_api.py): mesh (dp, pp, mp), or ["dp"] when pp = mp = 1
_SEED = dict(vocab=16, heads=2, seq=4, labels_2d=True, global_rand=False)
_SEED_KEYS = {
    "llama.embed_tokens": "LlamaModel/Embedding",
    "llama.position_embedding": "LlamaModel/Embedding_1",
    "llama.layers.*.self_attn.q_proj": "LlamaModel/LlamaDecoderLayer*/LlamaAttention/Linear",
    "llama.layers.*.self_attn.k_proj": "LlamaModel/LlamaDecoderLayer*/LlamaAttention/Linear_1",
    "llama.layers.*.self_attn.v_proj": "LlamaModel/LlamaDecoderLayer*/LlamaAttention/Linear_2",
    "llama.layers.*.self_attn.o_proj": "LlamaModel/LlamaDecoderLayer*/LlamaAttention/Linear_3",
    "llama.layers.*.mlp.gate_proj": "LlamaModel/LlamaDecoderLayer*/LlamaMLP/Linear",
    "llama.layers.*.mlp.up_proj": "LlamaModel/LlamaDecoderLayer*/LlamaMLP/Linear_1",
    "llama.layers.*.mlp.down_proj": "LlamaModel/LlamaDecoderLayer*/LlamaMLP/Linear_2",
    "lm_head.weight": "LlamaLMHead.weight",
    "lm_head": "LlamaLMHead",
    "llama.layers.*.self_attn": "LlamaModel/LlamaDecoderLayer*/LlamaAttention",
    "llama.layers.*.mlp": "LlamaModel/LlamaDecoderLayer*/LlamaMLP",
    "llama.layers.*.input_layernorm": "LlamaModel/LlamaDecoderLayer*/LlamaRMSNorm",
    "llama.layers.*.post_attention_layernorm": "LlamaModel/LlamaDecoderLayer*/LlamaRMSNorm_1",
    "llama.norm": "LlamaModel/LlamaRMSNorm",
}
_SEED_MP = {  # parallel_api.py without sequence parallel
    "llama.embed_tokens": {"kind": "ColWiseParallel", "gather_output": True},
    "llama.position_embedding": "ColWiseParallel",
    "llama.layers.*.self_attn.q_proj": {"kind": "ColWiseParallel", "gather_output": True},
    "llama.layers.*.self_attn.k_proj": {"kind": "ColWiseParallel", "gather_output": True},
    "llama.layers.*.self_attn.v_proj": {"kind": "ColWiseParallel", "gather_output": True},
    "llama.layers.*.self_attn.o_proj": {"kind": "RowWiseParallel", "is_input_parallel": False},
    "llama.layers.*.mlp.gate_proj": "ColWiseParallel",
    "llama.layers.*.mlp.up_proj": "ColWiseParallel",
    "llama.layers.*.mlp.down_proj": "RowWiseParallel",
    "lm_head.weight": "ColWiseParallel",
}
_SEED_PROJ = {k: "ColWiseParallel" for k in (
    "llama.layers.*.self_attn.q_proj", "llama.layers.*.self_attn.k_proj",
    "llama.layers.*.self_attn.v_proj", "llama.layers.*.mlp.gate_proj",
    "llama.layers.*.mlp.up_proj", "lm_head.weight")}
_SEED_PROJ.update({k: "RowWiseParallel" for k in (
    "llama.layers.*.self_attn.o_proj", "llama.layers.*.mlp.down_proj")})
_SEED_SP = {  # parallel_api.py with sequence parallel
    "llama.embed_tokens": ["ColWiseParallel", "SequenceParallelBegin"],
    "llama.position_embedding": ["ColWiseParallel", "SequenceParallelBegin"],
    **_SEED_PROJ,
    "llama.layers.*.self_attn": "SequenceParallelDisable",
    "llama.layers.*.mlp": {"kind": "SequenceParallelDisable", "need_transpose": False},
    "lm_head": "SequenceParallelEnd",
}
_SEED_PREPARE = {  # parallel_api.py with prepare_input_output
    "llama.embed_tokens": "ColWiseParallel", "llama.position_embedding": "ColWiseParallel",
    **_SEED_PROJ,
    "llama.layers.*.input_layernorm": "SequenceParallelEnable",
    "llama.layers.*.post_attention_layernorm": "SequenceParallelEnable",
    "llama.norm": "SequenceParallelEnable",
}


def _seed(dp: int, pp: int, mp: int, plan: dict | None = None, **extra) -> dict:
    """A parallel_api.py configuration of the seed's LLaMA."""
    dims = [("dp", dp), ("pp", pp), ("mp", mp)] if pp * mp > 1 else [("dp", dp)]
    config: dict = {}
    if pp > 1:
        config["pp_config"] = {"split_spec": "llama.layers", "global_spec": "llama.global_layer"}
    if dp > 1:
        config["dp_config"] = {"sharding_level": 0}
    keys = {}
    if mp > 1:
        plan = dict(plan)
        if not extra.get("position_embedding"):
            plan.pop("llama.position_embedding", None)
        config["mp_config"] = {"parallelize_plan": plan}
        keys = {k: _SEED_KEYS[k] for k in plan}
    micro = 2 if pp > 1 else 1
    return _par("seedllama", [n for _, n in dims], [d for d, _ in dims], config,
                plan_keys=keys, micro_batches=micro, global_batch=2 * micro * dp,
                **{**_SEED, **extra})


PARALLELIZE_CONFIGS.update({
    "seed_pp2_rand": _seed(1, 2, 1, global_rand=True),
    "seed_pp2": _seed(1, 2, 1),
    "seed_dp2": _seed(2, 1, 1),
    "seed_mp2": _seed(1, 1, 2, _SEED_MP),
    "seed_mp2_sp": _seed(1, 1, 2, _SEED_SP),
    "seed_mp2_prepare": _seed(1, 1, 2, _SEED_PREPARE),
    "seed_mp2_pos": _seed(1, 1, 2, _SEED_MP, position_embedding=True),
    "seed_mp2_sp_pos": _seed(1, 1, 2, _SEED_SP, position_embedding=True),
    "seed_pp2_mp2": _seed(1, 2, 2, _SEED_MP),
    "seed_pp2_mp2_sp": _seed(1, 2, 2, _SEED_SP),
    "seed_dp2_pp2": _seed(2, 2, 1),
    "seed_dp2_mp2_sp": _seed(2, 1, 2, _SEED_SP),
    "seed_dp2_pp2_mp2": _seed(2, 2, 2, _SEED_MP),
    "seed_pp2_share": _seed(1, 2, 1, share_embedding=True),
    "seed_mp2_share": _seed(1, 1, 2, _SEED_MP, share_embedding=True),
    "seed_pp2_mp2_share": _seed(1, 2, 2, _SEED_MP, share_embedding=True),
})

# many common ops (tools/paddle_op_zoo.py) on replicated, column-sharded and batch-sharded values
_ZOO_KEYS = {"layers.*.linear0": "ZooBlock*/Linear", "layers.*.linear1": "ZooBlock*/Linear_1"}
PARALLELIZE_CONFIGS.update({
    "zoo_mp2": _par("zoo", [1, 2], ["dp", "mp"], {"mp_config": {"parallelize_plan": _COLROW}},
                    plan_keys=_ZOO_KEYS, global_batch=4, seq=4),
    "zoo_dp2": _par("zoo", [2], ["dp"], {"dp_config": {"sharding_level": 0}},
                    global_batch=4, seq=4),
    "zoo_pp2": _par("zoo", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                    micro_batches=2, global_batch=4, seq=4),
    # ZeRO stages through dp_config (the forward program of 1 and 2 is stage 0's)
    "par_dp2_stage1": _par("mlp", [2], ["dp"], {"dp_config": {"sharding_level": 1}}),
    "par_dp2_stage2": _par("mlp", [2], ["dp"], {"dp_config": {"sharding_level": 2}}),
    "par_dp2_stage3": _par("mlp", [2], ["dp"], {"dp_config": {"sharding_level": 3}}),
    "par_dp2_mp2_stage3": _par("mlp", [2, 2], ["dp", "mp"],
                               {"mp_config": {"parallelize_plan": _COLROW},
                                "dp_config": {"sharding_level": 3}},
                               plan_keys=_COLROW_KEYS, global_batch=4, seq=4),
    "par_mp2_dp2_stage3": _par("mlp", [2, 2], ["mp", "dp"],
                               {"mp_config": {"parallelize_plan": _COLROW},
                                "dp_config": {"sharding_level": 3}},
                               plan_keys=_COLROW_KEYS, global_batch=4, seq=4),
    "par_pp2_dp2_stage3": _par("mlp", [2, 2], ["pp", "dp"],
                               {"pp_config": {"split_spec": "layers"},
                                "dp_config": {"sharding_level": 3}}, micro_batches=2),
    # global_spec over four stages
    "gm_none_pp4": _pp("none", "1F1B", 4, "1d", pp=4, world_size=4, mesh_shape=[4]),
    "seed_pp4": _seed(1, 4, 1, layers=4),
    # the loader shards along a dp dimension of size 1 (parallel_api.py passes shard_dims="dp")
    "seed_pp2_mp2_loader_dp": _seed(1, 2, 2, _SEED_MP, loader_shard_dp=True),
    "zoo_mp2_dropout": _par("zoo", [1, 2], ["dp", "mp"],
                            {"mp_config": {"parallelize_plan": _COLROW}},
                            plan_keys=_ZOO_KEYS, global_batch=4, seq=4, dropout=True),
    "zoo_dp2_dropout": _par("zoo", [2], ["dp"], {"dp_config": {"sharding_level": 0}},
                            global_batch=4, seq=4, dropout=True),
    # dropout under a pipeline: each micro-batch draws its rows of the whole batch's numbers
    "zoo_pp2_dropout": _par("zoo", [2], ["pp"], {"pp_config": {"split_spec": "layers"}},
                            micro_batches=2, global_batch=4, seq=4, dropout=True),
})

# the parallelize configurations that get an `examples/<cfg>/` folder
EXAMPLES = ["gm_none_pp2_1f1b", "gm_param_pp2_1f1b", "gm_param_pp2_1f1b_3d"]
# ... of which these hold serial.pir + plan.toml instead of forward.pir (one per parallelism)
SERIAL_EXAMPLES = ["par_pp2_str", "par_mp2_colrow", "par_dp2"]
EXAMPLES += SERIAL_EXAMPLES
# configurations whose example folder is written even from a scratch capture (--data-dir): their
# whole capture is not in the corpus (its size budget), the example is (issue 13, second round)
EXAMPLES_ONLY = ["llama_pp2_vpp2_global", "gm_none_dp2_pp2_3d", "gm_param_pp4_1f1b",
                 "gm_param_dp2_pp2_mp2", "gm_none_pp4_vpp2", "llama_pp2_mp2_global"]


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


def build_model(cfg: dict):
    """The single-card model of `cfg` (no dist API touched), built from the fixed seeds."""
    import paddle
    import paddle.nn.functional as F
    from paddle import nn

    class GMyLinear(nn.Layer):
        """x -> linear1(relu(linear0(x + g))): a block reading the global tensor g."""

        def __init__(self):
            super().__init__()
            self.linear0 = nn.Linear(cfg["hidden"], cfg["inter"])
            self.linear1 = nn.Linear(cfg["inter"], cfg["hidden"])

        def forward(self, x, g=None, g2=None):
            if g is not None:
                x = x + g
            if g2 is not None:
                x = x + g2
            return self.linear1(F.relu(self.linear0(x)))

    class GlobalOutputNet(nn.Layer):
        """The seed's global layer without input; a constant instead of paddle.rand."""

        def forward(self, x=None):
            return paddle.full([cfg["hidden"]], 0.25, dtype="float32")

    class GlobalInputNet(nn.Layer):
        """A global layer computed from the model input."""

        def forward(self, x):
            return x * 0.5

    class GlobalParam(nn.Layer):
        """A global layer holding its own parameter (its grad comes from every stage)."""

        def __init__(self):
            super().__init__()
            self.weight = self.create_parameter([cfg["hidden"]], dtype="float32")

        def forward(self, x=None):
            return self.weight * 2.0

    class GlobalInputParam(nn.Layer):
        """A global layer reading the model input through its own parameter: x * weight."""

        def __init__(self):
            super().__init__()
            self.weight = self.create_parameter([cfg["hidden"]], dtype="float32")

        def forward(self, x):
            return x * self.weight

    class GlobalTuple(nn.Layer):
        """A global layer with a parameter returning two tensors (the hook's tuple branch)."""

        def __init__(self):
            super().__init__()
            self.weight = self.create_parameter([cfg["hidden"]], dtype="float32")

        def forward(self, x=None):
            return self.weight * 2.0, self.weight * 3.0

    class GHead(nn.Layer):
        """The head reading the global output: linear(x + g)."""

        def __init__(self):
            super().__init__()
            self.linear = nn.Linear(cfg["hidden"], cfg["out"])

        def forward(self, x, g):
            return self.linear(x + g)

    global_kinds = {"none": GlobalOutputNet, "input": GlobalInputNet, "param": GlobalParam,
                    "inparam": GlobalInputParam, "tuple": GlobalTuple}

    class GlobalMLP(nn.Layer):
        """[global_layer, global_layer2], N x GMyLinear reading their outputs (the blocks of
        ``global_readers``, default all), [x + g before the head], head Linear."""

        def __init__(self):
            super().__init__()
            kind, kind2 = cfg.get("global_kind"), cfg.get("global_kind2")
            self.global_layer = global_kinds[kind]() if kind else None
            if kind2:
                self.global_layer2 = global_kinds[kind2]()
            self.layers = nn.LayerList([GMyLinear() for _ in range(cfg["layers"])])
            self.head = GHead() if cfg.get("head_reads_global") else nn.Linear(cfg["hidden"],
                                                                                 cfg["out"])

        def forward(self, x):
            after = cfg.get("global_input_after")
            if after:  # the global layer reads block `after - 1`'s output, not the input
                for layer in list(self.layers)[:after]:
                    x = layer(x)
            g = self.global_layer(x) if self.global_layer is not None else None
            g2 = None
            if cfg.get("global_kind") == "tuple":
                g, g2 = g
            if cfg.get("global_kind2"):
                g2 = self.global_layer2(g if cfg.get("global2_reads_global") else x)
            readers = cfg.get("global_readers", range(cfg["layers"]))
            for i, layer in enumerate(self.layers):
                if i < (after or 0):
                    continue
                if i in readers:
                    x = layer(x, g, g2) if g2 is not None else layer(x, g)
                else:
                    x = layer(x)
            if cfg.get("head_reads_global"):
                return self.head(x, g)
            return self.head(x)

    def linear(i, o):
        # cfg["bias"] = False: Linear layers without a bias
        return nn.Linear(i, o, bias_attr=None if cfg.get("bias", True) else False)

    class MyLinear(nn.Layer):
        """x -> linear1(relu(linear0(x)))."""

        def __init__(self):
            super().__init__()
            self.linear0 = linear(cfg["hidden"], cfg["inter"])
            self.linear1 = linear(cfg["inter"], cfg["hidden"])

        def forward(self, x):
            return self.linear1(F.relu(self.linear0(x)))

    class EncoderBlock(MyLinear):
        pass

    class DecoderBlock(MyLinear):
        pass

    def block_list():
        blocks = [MyLinear() for _ in range(cfg["layers"])]
        # cfg["container"] = "sequential": an nn.Sequential called as a whole (a struct_name
        # level of its own), else an nn.LayerList iterated by the caller (no level)
        if cfg.get("container") == "sequential":
            return nn.Sequential(*blocks)
        return nn.LayerList(blocks)

    def run_blocks(blocks, x):
        if isinstance(blocks, nn.Sequential):
            return blocks(x)
        for layer in blocks:
            x = layer(x)
        return x

    class Backbone(nn.Layer):
        """[LayerNorm], the block list under cfg["list_name"] (a nested prefix:
        ``model.blocks``)."""

        def __init__(self):
            super().__init__()
            self.norm = nn.LayerNorm(cfg["hidden"]) if cfg.get("pre_norm") else None
            setattr(self, cfg.get("list_name", "layers"), block_list())

        def forward(self, x):
            if self.norm is not None:
                x = self.norm(x)
            return run_blocks(getattr(self, cfg.get("list_name", "layers")), x)

    class ParallelMLP(nn.Layer):
        """[Embedding], [side input Linear], [LayerNorm], N x MyLinear (under
        cfg["list_name"], default ``layers``, or inside a Backbone under cfg["nested"]),
        [x * 2], head Linear(hidden -> out). cfg["head_first"] registers the head before the
        blocks (Paddle stages a layer by its registration order)."""

        def __init__(self):
            super().__init__()
            out = cfg.get("vocab", cfg["out"])
            if cfg.get("head_first"):
                self.head = linear(cfg["hidden"], out)
            if cfg.get("embed"):
                self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
            if cfg.get("side_input"):
                self.side = linear(cfg["hidden"], cfg["hidden"])
            if cfg.get("nested"):
                setattr(self, cfg["nested"], Backbone())
            else:
                self.norm = nn.LayerNorm(cfg["hidden"]) if cfg.get("pre_norm") else None
                setattr(self, cfg.get("list_name", "layers"), block_list())
            if not cfg.get("head_first"):
                self.head = linear(cfg["hidden"], out)

        def forward(self, x, side=None):
            if cfg.get("embed"):
                x = self.embed(x)
            if side is not None:
                x = x + self.side(side)
            if cfg.get("nested"):
                x = getattr(self, cfg["nested"])(x)
            else:
                if self.norm is not None:
                    x = self.norm(x)
                x = run_blocks(getattr(self, cfg.get("list_name", "layers")), x)
            if cfg.get("post_scale"):
                x = x * 2.0
            return self.head(x)

    class EncDecMLP(nn.Layer):
        """N x EncoderBlock, N x DecoderBlock, head Linear: split_spec as a list of prefixes."""

        def __init__(self):
            super().__init__()
            self.encoder = nn.LayerList([EncoderBlock() for _ in range(cfg["layers"])])
            self.decoder = nn.LayerList([DecoderBlock() for _ in range(cfg["layers"])])
            self.head = nn.Linear(cfg["hidden"], cfg["out"])

        def forward(self, x):
            for layer in list(self.encoder) + list(self.decoder):
                x = layer(x)
            return self.head(x)

    class SequenceMLP(nn.Layer):
        """[batch, seq, hidden]: embed Linear, LayerNorm, MyLinear (mp), head Linear; the
        sequence-parallel markers go on embed/mlp/head or on the norm."""

        def __init__(self):
            super().__init__()
            self.embed = nn.Linear(cfg["hidden"], cfg["hidden"])
            self.norm = nn.LayerNorm(cfg["hidden"])
            self.mlp = MyLinear()
            self.head = nn.Linear(cfg["hidden"], cfg["out"])

        def forward(self, x):
            h = self.norm(self.embed(x))
            return self.head(self.mlp(h) + h)

    class LlamaRMSNorm(nn.Layer):
        """x * rsqrt(mean(x^2, -1) + eps) * weight (the seed test's RMSNorm, written out)."""

        def __init__(self):
            super().__init__()
            self.weight = self.create_parameter(
                [cfg["hidden"]], dtype="float32",
                default_initializer=nn.initializer.Constant(1.0))

        def forward(self, x):
            variance = x.pow(2).mean(-1, keepdim=True)
            return paddle.rsqrt(variance + 1e-6) * x * self.weight

    class LlamaAttention(nn.Layer):
        def __init__(self):
            super().__init__()
            h = cfg["hidden"]
            self.q_proj = nn.Linear(h, h, bias_attr=False)
            self.k_proj = nn.Linear(h, h, bias_attr=False)
            self.v_proj = nn.Linear(h, h, bias_attr=False)
            self.o_proj = nn.Linear(h, h, bias_attr=False)

        def forward(self, x):
            b, s, h = x.shape
            heads = cfg["heads"]

            def split(t):
                return t.reshape([b, s, heads, h // heads]).transpose([0, 2, 1, 3])

            q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
            scores = paddle.matmul(q, k, transpose_y=True) * (1.0 / (h // heads) ** 0.5)
            out = paddle.matmul(F.softmax(scores, axis=-1), v)
            return self.o_proj(out.transpose([0, 2, 1, 3]).reshape([b, s, h]))

    class LlamaMLP(nn.Layer):
        def __init__(self):
            super().__init__()
            h, i = cfg["hidden"], cfg["inter"]
            self.gate_proj = nn.Linear(h, i, bias_attr=False)
            self.up_proj = nn.Linear(h, i, bias_attr=False)
            self.down_proj = nn.Linear(i, h, bias_attr=False)

        def forward(self, x):
            return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

    class LlamaDecoderLayer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.input_layernorm = LlamaRMSNorm()
            self.self_attn = LlamaAttention()
            self.post_attention_layernorm = LlamaRMSNorm()
            self.mlp = LlamaMLP()

        def forward(self, x, g=None):
            residual = x if g is None else x + g
            x = residual + self.self_attn(self.input_layernorm(x))
            return x + self.mlp(self.post_attention_layernorm(x))

    class TinyLlama(nn.Layer):
        """The seed test's LLaMA shape, small: embedding, [global layer], decoder layers,
        RMSNorm, lm_head; cross-entropy loss on token ids."""

        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(cfg["vocab"], cfg["hidden"])
            kind = cfg.get("global_kind")
            self.global_layer = {"none": GlobalOutputNet, "param": GlobalParam}[kind]() \
                if kind else None
            self.layers = nn.LayerList([LlamaDecoderLayer() for _ in range(cfg["layers"])])
            self.norm = LlamaRMSNorm()
            self.lm_head = nn.Linear(cfg["hidden"], cfg["vocab"], bias_attr=False)

        def forward(self, ids):
            x = self.embed_tokens(ids)
            g = self.global_layer(None) if self.global_layer is not None else None
            for layer in self.layers:
                x = layer(x, g)
            return self.lm_head(self.norm(x))

    paddle.seed(SEED)
    np.random.seed(SEED)
    model = cfg.get("model", "global")
    if model == "seedllama":
        import paddle_seed_llama

        return paddle_seed_llama.build(cfg)
    if model == "zoo":
        import paddle_op_zoo

        return paddle_op_zoo.build(cfg)
    if model == "llama":
        return TinyLlama()
    if model == "mlp":
        return ParallelMLP()
    if model == "encdec":
        return EncDecMLP()
    if model == "sp":
        return SequenceMLP()
    return GlobalMLP()


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


def struct_paths(model) -> dict[str, str]:
    """Attribute path -> plan layer path for every sublayer: ``layers.1.linear0`` ->
    ``GMyLinear_1/Linear``. Paddle's ``struct_name`` names a layer by its class, suffixed
    ``_1``, ``_2``, ... for later instances of that class under the same parent."""
    paths: dict[str, str] = {}

    def walk(layer, prefix: str, path: str) -> None:
        seen: dict[str, int] = {}
        for name, child in layer.named_children():
            cls = type(child).__name__
            count = seen.get(cls, 0)
            seen[cls] = count + 1
            own = cls if count == 0 else f"{cls}_{count}"
            attr = f"{prefix}{name}"
            child_path = f"{path}/{own}" if path else own
            # containers (LayerList) are no struct_name level of their own
            if type(child).__name__ in ("LayerList", "LayerDict"):
                walk_flat(child, f"{attr}.", path, seen)
                continue
            paths[attr] = child_path
            walk(child, f"{attr}.", child_path)

    def walk_flat(container, prefix: str, path: str, seen: dict[str, int]) -> None:
        for name, child in container.named_children():
            cls = type(child).__name__
            count = seen.get(cls, 0)
            seen[cls] = count + 1
            own = cls if count == 0 else f"{cls}_{count}"
            child_path = f"{path}/{own}" if path else own
            paths[f"{prefix}{name}"] = child_path
            walk(child, f"{prefix}{name}.", child_path)

    walk(model, "", "")
    return paths


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_value(k)} = {_toml_value(v)}"
                                for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def plan_toml(cfg: dict, model) -> str:
    """The ``plan.toml`` (``../shared/spec/parallel-plan.md``) saying what `cfg["config"]` says,
    over layer paths of the serial program instead of attribute paths. mp plan keys come from
    ``cfg["plan_keys"]`` (Paddle regex key -> plan key), written by hand per configuration."""
    paths = struct_paths(model)

    def stem(prefix: str) -> str:
        # "layers" -> the class stem of layers.0, layers.1, ...: "GMyLinear"
        members = [p for a, p in paths.items() if re.fullmatch(rf"{re.escape(prefix)}\.\d+", a)]
        if not members:
            return paths[prefix]
        stems = {re.sub(r"_\d+$", "", p) for p in members}
        assert len(stems) == 1, (prefix, members)
        return stems.pop()

    lines = ["# Written by tools/capture_paddle.py: the dist.parallelize config of this capture",
             f"# ({json.dumps(cfg['config'])}) over the serial program's layer paths.",
             "[mesh]", f"shape = {_toml_value(cfg['mesh_shape'])}",
             f"dim_names = {_toml_value(cfg['mesh_dims'])}"]
    conf = cfg["config"]
    if "pp_config" in conf:
        pp = conf["pp_config"]
        split = pp["split_spec"]
        lines += ["", "[pp]"]
        if isinstance(split, str):
            lines.append(f"split_spec = {_toml_value(stem(split))}")
        elif isinstance(split, list):
            lines.append(f"split_spec = {_toml_value([stem(s) for s in split])}")
        else:
            lines.append("split_spec = " + _toml_value(
                {paths[k]: v.lower() for k, v in split.items()}))
        if pp.get("global_spec"):
            spec = pp["global_spec"]
            lines.append("global_spec = " + _toml_value(
                paths[spec] if isinstance(spec, str) else [paths[s] for s in spec]))
    if "mp_config" in conf:
        lines += ["", "[mp]"]
        keys = cfg["plan_keys"]
        plan = {keys[k]: v for k, v in conf["mp_config"]["parallelize_plan"].items()}
        lines.append(f"plan = {_toml_value(plan)}")
    if "dp_config" in conf:
        lines += ["", "[dp]", f"sharding_level = {conf['dp_config'].get('sharding_level', 0)}"]
    if cfg.get("side_input") and cfg["pp"] > 1:
        # shard_dataloader puts every input of [[input, side], label] on its first mesh; the
        # spec's default puts inputs after the first on the last stage
        lines += ["", "[inputs]", 'input1 = { stage = "first" }']
    return "\n".join(lines) + "\n"
