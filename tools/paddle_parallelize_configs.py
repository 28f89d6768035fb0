"""The dist.parallelize configurations (issue 14) `tools/capture_paddle.py` builds: every form of
the pp, mp and dp configs alone and combined on small MLPs, a small LLaMA, the seed test's LLaMA
(``tools/paddle_seed_llama.py``) and the op zoo (``tools/paddle_op_zoo.py``); and which of all
the parallelize configurations get an ``examples/<cfg>/`` folder.

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass."""

from __future__ import annotations

from paddle_config_forms import global_mesh_config as _pp
from paddle_config_forms import parallelize_config as _par

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
# the seed's sequence-parallel plan shape over it: sequence parallel between the embedding and
# the head, attention and MLP on whole sequences
_LLAMA_SP = {**{k: v for k, v in _LLAMA_MP.items() if k != "embed_tokens"},
             "embed_tokens": ["ColWiseParallel", "SequenceParallelBegin"],
             "layers.*.self_attn": {"kind": "SequenceParallelDisable"},
             "layers.*.mlp": {"kind": "SequenceParallelDisable", "need_transpose": False},
             "lm_head": "SequenceParallelEnd"}
_LLAMA_SP_KEYS = {**_LLAMA_KEYS, "layers.*.self_attn": "LlamaDecoderLayer*/LlamaAttention",
                  "layers.*.mlp": "LlamaDecoderLayer*/LlamaMLP", "lm_head": "Linear"}
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
    "llama_mp2_sp": _par("llama", [1, 2], ["dp", "mp"],
                         {"mp_config": {"parallelize_plan": _LLAMA_SP}},
                         plan_keys=_LLAMA_SP_KEYS, global_batch=2, **_LLAMA),
    # the same plan under a virtual pipeline: the Shard -> Replicate reshards sequence
    # parallel puts at each layer's start move with the layer (an outside trial)
    "llama_pp2_mp2_sp_vpp2": _par("llama", [1, 2, 2], ["dp", "pp", "mp"],
                                  {"pp_config": {"split_spec": "layers"},
                                   "mp_config": {"parallelize_plan": _LLAMA_SP}},
                                  plan_keys=_LLAMA_SP_KEYS, layers=4, micro_batches=2,
                                  global_batch=4, schedule="VPP",
                                  seg_method="LlamaDecoderLayer", **_LLAMA),
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
    "llama_pp2_mp2_sp": _par("llama", [1, 2, 2], ["dp", "pp", "mp"],
                             {"pp_config": {"split_spec": "layers"},
                              "mp_config": {"parallelize_plan": _LLAMA_SP}},
                             plan_keys=_LLAMA_SP_KEYS, micro_batches=2, global_batch=4,
                             **_LLAMA),
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
                 "gm_param_dp2_pp2_mp2", "gm_none_pp4_vpp2", "llama_pp2_mp2_global",
                 "gm_mid_pp4_1f1b", "gm_mid_two_pp4_1f1b", "llama_pp2_mp2_sp_vpp2"]
# ... of which these hold serial.pir + plan.toml (Paddle's forward dist program of the capture is
# in tests/data/global_mesh/parallelize/<cfg>/)
SERIAL_EXAMPLES_ONLY = ["gm_mid_two_pp4_1f1b"]
