"""The configurations tools/capture_paddle.py captures, by name, and the settings every capture
shares: where the corpus and the examples go, the steps, learning rate, seed and AdamW settings of
the reference numerics.

Only run under ``/work/paddle-venv`` (tools/capture_paddle.py); never imported by rulepass."""

from __future__ import annotations

from pathlib import Path

import paddle_parallelize_models as pm

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = REPO / "tests" / "data" / "paddle"
EXAMPLES_DIR = REPO / "examples"

STEPS = 3
LEARNING_RATE = 0.05
SEED = 2024
# AdamW as make_optimizer (capture_paddle_models.py) makes it: Paddle's defaults apart from the
# weight decay
ADAMW = dict(beta1=0.9, beta2=0.999, epsilon=1e-8, weight_decay=0.01)

# name -> configuration. `layer_stages[i]` is the pipeline stage of MyLinear layer i
# (the head Linear always sits on the last stage).
CONFIGS: dict[str, dict] = {
    "pp2_fthenb": dict(kind="pp", world_size=2, pp=2, vpp=1, mp=1, dp=1, schedule="FThenB",
                       micro_batches=4, global_batch=8, hidden=8, inter=16, out=4,
                       layer_stages=[0, 1], seg_method="", local_map=False),
    "pp2_1f1b": dict(kind="pp", world_size=2, pp=2, vpp=1, mp=1, dp=1, schedule="1F1B",
                     micro_batches=4, global_batch=8, hidden=8, inter=16, out=4,
                     layer_stages=[0, 1], seg_method="", local_map=False),
    "pp2_vpp2": dict(kind="pp", world_size=2, pp=2, vpp=2, mp=1, dp=1, schedule="VPP",
                     micro_batches=4, global_batch=8, hidden=8, inter=16, out=4,
                     layer_stages=[0, 0, 1, 1], seg_method="MyLinear", local_map=False),
    "pp2_vpp2_localmap": dict(kind="pp", world_size=2, pp=2, vpp=2, mp=1, dp=1, schedule="VPP",
                              micro_batches=4, global_batch=8, hidden=8, inter=16, out=4,
                              layer_stages=[0, 0, 1, 1], seg_method="MyLinear", local_map=True),
    "mp2": dict(kind="mp", world_size=2, pp=1, vpp=1, mp=2, dp=1, schedule="none",
                micro_batches=1, global_batch=4, hidden=8, inter=16, out=8,
                seg_method="", sequence_parallel=False),
    # Megatron-style sequence parallelism, sequence-first [seq, batch, hidden]: the loader's
    # leading axis is the sequence (global_batch = seq positions per step, each [batch, hidden])
    "mp2_sp": dict(kind="sp", world_size=2, pp=1, vpp=1, mp=2, dp=1, schedule="none",
                   micro_batches=1, global_batch=4, seq=4, batch=2, hidden=8, inter=16, out=8,
                   seg_method="", seq_first=True),
    "mp2_sp_bias": dict(kind="mp", world_size=2, pp=1, vpp=1, mp=2, dp=1, schedule="none",
                        micro_batches=1, global_batch=4, seq=4, hidden=8, inter=16, out=8,
                        seg_method="", sequence_parallel=True),
    "pp2_1f1b_adamw": dict(kind="pp", world_size=2, pp=2, vpp=1, mp=1, dp=1, schedule="1F1B",
                           micro_batches=4, global_batch=8, hidden=8, inter=16, out=4,
                           layer_stages=[0, 1], seg_method="", local_map=False, optimizer="adamw"),
    "dp2": dict(kind="dp", world_size=2, pp=1, vpp=1, mp=1, dp=2, schedule="none",
                micro_batches=1, global_batch=8, hidden=8, inter=16, out=4,
                layer_stages=[0, 0], seg_method="", local_map=False),
    "dp2_pp2": dict(kind="pp", world_size=4, pp=2, vpp=1, mp=1, dp=2, schedule="1F1B",
                    micro_batches=2, global_batch=8, hidden=8, inter=16, out=4,
                    layer_stages=[0, 1], seg_method="", local_map=False),
    # AdamW on tensor-parallel parameters: the moments are sharded as their parameters
    "mp2_adamw": dict(kind="mp", world_size=2, pp=1, vpp=1, mp=2, dp=1, schedule="none",
                      micro_batches=1, global_batch=4, hidden=8, inter=16, out=8,
                      seg_method="", sequence_parallel=False, optimizer="adamw"),
    # blocks with other ops (tools/paddle_block_models.py), moved between stages by VPP: a
    # vector result (paddle.split) and builtin.combine vectors (paddle.concat)
    "attn_pp2_vpp2": dict(kind="pp", world_size=2, pp=2, vpp=2, mp=1, dp=1, schedule="VPP",
                          micro_batches=2, global_batch=4, seq=4, hidden=8, inter=16, out=4,
                          layer_stages=[0, 0, 1, 1], seg_method="Block", local_map=False,
                          custom="attention"),
    "split_concat_pp2_vpp2": dict(kind="pp", world_size=2, pp=2, vpp=2, mp=1, dp=1,
                                  schedule="VPP", micro_batches=4, global_batch=8, hidden=8,
                                  inter=16, out=4, layer_stages=[0, 0, 1, 1],
                                  seg_method="OpsBlock", local_map=False, custom="split_concat"),
    # activations with grads of their own: leaky_relu, maximum, index_select, hardswish,
    # log_softmax (and the assign_value_ a to_tensor index prints)
    "acts_pp2_1f1b": dict(kind="pp", world_size=2, pp=2, vpp=1, mp=1, dp=1, schedule="1F1B",
                          micro_batches=2, global_batch=4, hidden=8, inter=16, out=4,
                          layer_stages=[0, 1], seg_method="", local_map=False,
                          custom="activations"),
    # block 0's output added to the head's input: a send past the next stage, from virtual
    # stage 0 to the last under VPP (blocks round-robin, the layout complete_chunk_id gives)
    "skipres_pp4_vpp2": dict(kind="pp", world_size=4, pp=4, vpp=2, mp=1, dp=1, schedule="VPP",
                             micro_batches=4, global_batch=8, hidden=8, inter=16, out=4,
                             layer_stages=[0, 1, 2, 3, 0, 1, 2, 3], seg_method="MyLinear",
                             local_map=False, custom="residual"),
}
# configurations built through dist.parallelize (tools/paddle_parallelize_models.py)
CONFIGS.update(pm.GLOBAL_CONFIGS)
CONFIGS.update(pm.GLOBAL_CONFIGS_2)
CONFIGS.update(pm.PARALLELIZE_CONFIGS)
# the configurations `examples/<cfg>/` is refreshed for
EXAMPLE_CONFIGS = [name for name, cfg in CONFIGS.items() if cfg["kind"] != "parallelize"]
EXAMPLE_CONFIGS += pm.EXAMPLES
