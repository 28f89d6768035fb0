"""The global-mesh pipeline configurations (issue 13) `tools/capture_paddle.py` builds through
``dist.parallelize``: ``GlobalMLP`` with a layer on the whole pp mesh (``global_spec``) whose
output the stage blocks read, under every schedule, mesh and plan listed below.

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass."""

from __future__ import annotations

from paddle_config_forms import global_mesh_config as _pp

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
    # the same under VPP (block 1's output, on stage 1 chunk 0, read by chunk 1 of both
    # stages) and under FThenB; a second global layer (a parameter) read with it
    "gm_mid_pp2_vpp2": _pp("input", "VPP", 4, global_input_after=2, global_readers=[2, 3]),
    "gm_mid_pp4_fthenb": _pp("input", "FThenB", 4, pp=4, global_input_after=2,
                             global_readers=[2, 3]),
    "gm_mid_two_pp4_1f1b": _pp("input", "1F1B", 4, pp=4, global_input_after=2,
                               global_readers=[2, 3], global_kind2="param",
                               global_spec=["global_layer", "global_layer2"]),
    # a split layer also in global_spec (its output goes to the next stage, then onto the global
    # mesh: Paddle chains the post-hooks; tests/data/global_mesh/parallelize/gm_gsplit_pp3)
    "gm_gsplit_pp3": _pp("param", "1F1B", 3, pp=3, micro_batches=3, global_batch=6,
                         global_spec=["global_layer", "layers.1"]),
    # the last layer (the head, on the global mesh) in global_spec: its ops read stage 1's
    # values, which Paddle accepts as it builds them (its remove_other_rank_op_pass aborts later)
    "gm_glast_pp2": _pp("param", "1F1B", 2, global_spec=["global_layer", "layers.1"]),
    # LLaMA: the global layer with tensor parallelism and with dp2 on the seed mesh
    "gm_param_dp2_pp2_mp2": _pp("param", "1F1B", 2, ([2, 2, 2], ["dp", "pp", "mp"]),
                                mp_plan=True, dp_config=True, global_batch=4, seq=4,
                                micro_batches=2),
}

# SequenceParallelEnd on the head, whose input no SequenceParallelBegin swapped: Paddle raises as
# it builds the loss's subtract (tests/data/global_mesh/paddle_raises/sp_end_head_2d)
_SP_END_HEAD = _pp("param", "1F1B", 2, ([1, 2, 2], ["dp", "pp", "mp"]), mp_plan=True,
                   global_batch=4, seq=4, micro_batches=2, head_reads_global=True,
                   split_spec=["layers", "head"])
_SP_END_HEAD["config"]["mp_config"]["parallelize_plan"]["head"] = "SequenceParallelEnd"
_SP_END_HEAD["plan_keys"]["head"] = "GHead"
GLOBAL_CONFIGS_2["sp_end_head_2d"] = _SP_END_HEAD
