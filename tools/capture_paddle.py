"""Capture PaddlePaddle 3.3.1 programs at each auto-parallel pass boundary, plus reference numerics.

Run with the Paddle venv (Paddle is a tool here, never a rulepass dependency):

    /work/paddle-venv/bin/python tools/capture_paddle.py                 # every config
    /work/paddle-venv/bin/python tools/capture_paddle.py pp2_fthenb mp2  # some configs
    /work/paddle-venv/bin/python tools/capture_paddle.py pp2_vpp2 --layers 1024 --out /tmp/vpp1024
                                                   # rank 0 at scale, programs only (benchmarks)

For each configuration and rank a fresh process builds the model with ``dist.to_static`` and
runs the static engine's program preparation (``Engine._prepare_program``) on CPU, with the
communicator start-up and parameter initialisation replaced by no-ops. Every pass the engine
calls is wrapped at the name the engine looks it up by, and ``str(program)`` is written before
and after it to ``tests/data/paddle/<cfg>/rank<r>/<NN>_<stage>.pir``. A last process trains the
same model without distribution for a few steps (SGD or AdamW, fixed seeds) and writes the
numerics.
See tests/data/paddle/README.md for the stage list.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paddle_parallelize_models as pm  # noqa: E402  (a sibling module, not a package)

REPO = Path(__file__).resolve().parent.parent
DATA_DIR = REPO / "tests" / "data" / "paddle"
EXAMPLES_DIR = REPO / "examples"

STEPS = 3
LEARNING_RATE = 0.05
SEED = 2024
# AdamW as constructed below: Paddle's defaults apart from the weight decay
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
}
# configurations built through dist.parallelize (tools/paddle_parallelize_models.py)
CONFIGS.update(pm.GLOBAL_CONFIGS)
CONFIGS.update(pm.GLOBAL_CONFIGS_2)
CONFIGS.update(pm.PARALLELIZE_CONFIGS)
# the configurations `examples/<cfg>/` is refreshed for
EXAMPLE_CONFIGS = [name for name, cfg in CONFIGS.items() if cfg["kind"] != "parallelize"]
EXAMPLE_CONFIGS += pm.EXAMPLES


# --------------------------------------------------------------------------------------------
# Models (shared by the distributed capture and the single-process reference)
# --------------------------------------------------------------------------------------------

def build_model(cfg: dict, distributed: bool):
    """Return (layer, meshes). With distributed=False no dist API is touched.

    Both variants draw their initial values in the same order from the same seed.
    For ``kind="parallelize"`` the model is single-card either way (dist.parallelize
    distributes it later, see ``capture``)."""
    if cfg["kind"] == "parallelize":
        return pm.build_model(cfg), (pm.stage_meshes(cfg) if distributed else [None])
    import paddle
    import paddle.distributed as dist
    import paddle.nn.functional as F
    from paddle import nn

    def place(param, mesh, placements):
        if not distributed:
            return param
        return dist.shard_tensor(param, mesh, placements, stop_gradient=False)

    def local_region(x):
        # the same arithmetic as Paddle's LocalLayer test, on the local shard
        return (x + 0.1 - 0.3) * 0.5

    class MyLinear(nn.Layer):
        def __init__(self, mesh):
            super().__init__()
            self.mesh = mesh
            self.linear0 = nn.Linear(cfg["hidden"], cfg["inter"])
            self.linear1 = nn.Linear(cfg["inter"], cfg["hidden"])
            for lin in (self.linear0, self.linear1):
                lin.weight = place(lin.weight, mesh, [dist.Replicate()])
                lin.bias = place(lin.bias, mesh, [dist.Replicate()])

        def forward(self, x):
            out = self.linear1(F.relu(self.linear0(x)))
            if cfg.get("local_map"):
                if distributed:
                    fn = dist.local_map(local_region, out_placements=[[dist.Replicate()]],
                                        in_placements=[[dist.Replicate()]], process_mesh=self.mesh)
                    out = fn(out)
                else:
                    out = local_region(out)
            return out

    class PipelineMLP(nn.Layer):
        def __init__(self, stage_meshes):
            super().__init__()
            self.layer_meshes = [stage_meshes[s] for s in cfg["layer_stages"]]
            self.layers = nn.LayerList([MyLinear(m) for m in self.layer_meshes])
            self.head = nn.Linear(cfg["hidden"], cfg["out"])
            self.head_mesh = stage_meshes[-1]
            self.head.weight = place(self.head.weight, self.head_mesh, [dist.Replicate()])
            self.head.bias = place(self.head.bias, self.head_mesh, [dist.Replicate()])

        def forward(self, x):
            prev = self.layer_meshes[0]
            # with data parallelism the batch stays split along the stage's dp axis
            placements = [dist.Shard(0)] if cfg["dp"] > 1 else [dist.Replicate()]
            for mesh, layer in zip(self.layer_meshes + [self.head_mesh], list(self.layers) + [self.head]):
                if distributed and mesh != prev:
                    x = dist.reshard(x, mesh, placements)
                prev = mesh
                x = layer(x)
            return x

    class TensorParallelMLP(nn.Layer):
        """Column-parallel Linear, relu, row-parallel Linear (Megatron MLP); with
        sequence_parallel the part outside the MLP is split along the sequence axis."""

        def __init__(self, mesh):
            super().__init__()
            self.mesh = mesh
            self.column = nn.Linear(cfg["hidden"], cfg["inter"])
            self.row = nn.Linear(cfg["inter"], cfg["out"])
            self.column.weight = place(self.column.weight, mesh, [dist.Shard(1)])
            self.column.bias = place(self.column.bias, mesh, [dist.Shard(0)])
            self.row.weight = place(self.row.weight, mesh, [dist.Shard(0)])
            self.row.bias = place(self.row.bias, mesh, [dist.Replicate()])

        def forward(self, x):
            sp = cfg.get("sequence_parallel")
            if sp and distributed:
                x = dist.reshard(x, self.mesh, [dist.Shard(1)])
            h = x * 0.5
            if sp and distributed:
                h_full = dist.reshard(h, self.mesh, [dist.Replicate()])
            else:
                h_full = h
            out = self.row(F.relu(self.column(h_full)))
            if sp:
                if distributed:
                    out = dist.reshard(out, self.mesh, [dist.Shard(1)])
                out = out + h
            return out

    class SequenceParallelMLP(nn.Layer):
        """Megatron sequence parallelism on [seq, batch, hidden]: outside the tensor-parallel
        region the activations are split along the sequence (Shard(0)); all_gather before the
        column-parallel Linear (w Shard(1), b Shard(0)), relu, row-parallel Linear without bias
        (w Shard(0)) whose Partial(SUM) output goes straight to Shard(0) (reduce-scatter), then a
        residual add and a LayerNorm (scale and bias Replicate) on the sequence shards."""

        def __init__(self, mesh):
            super().__init__()
            self.mesh = mesh
            self.column = nn.Linear(cfg["hidden"], cfg["inter"])
            self.row = nn.Linear(cfg["inter"], cfg["out"], bias_attr=False)
            self.norm = nn.LayerNorm(cfg["out"])
            self.column.weight = place(self.column.weight, mesh, [dist.Shard(1)])
            self.column.bias = place(self.column.bias, mesh, [dist.Shard(0)])
            self.row.weight = place(self.row.weight, mesh, [dist.Shard(0)])
            self.norm.weight = place(self.norm.weight, mesh, [dist.Replicate()])
            self.norm.bias = place(self.norm.bias, mesh, [dist.Replicate()])

        def forward(self, x):
            # x arrives Shard(0) (the loader splits the sequence along "mp")
            x_full = dist.reshard(x, self.mesh, [dist.Replicate()]) if distributed else x
            out = self.row(F.relu(self.column(x_full)))  # Partial(SUM) when distributed
            if distributed:
                out = dist.reshard(out, self.mesh, [dist.Shard(0)])
            return self.norm(out + x)

    paddle.seed(SEED)
    np.random.seed(SEED)
    if cfg["kind"] == "sp":
        mesh = dist.ProcessMesh(list(range(cfg["world_size"])), dim_names=["mp"]) if distributed else None
        return SequenceParallelMLP(mesh), [mesh]
    if cfg["kind"] == "dp":
        stage_meshes = [dist.ProcessMesh(list(range(cfg["world_size"])), dim_names=["dp"])
                        if distributed else None]
        return PipelineMLP(stage_meshes), stage_meshes
    if cfg["kind"] == "pp":
        if distributed:
            if cfg["dp"] > 1:
                world = dist.ProcessMesh(np.arange(cfg["world_size"]).reshape(cfg["pp"], cfg["dp"]).tolist(),
                                         dim_names=["pp", "dp"])
                stage_meshes = [world.get_mesh_with_dim("pp")[i] for i in range(cfg["pp"])]
            else:
                stage_meshes = [dist.ProcessMesh([i], dim_names=["pp"]) for i in range(cfg["pp"])]
        else:
            stage_meshes = [None] * cfg["pp"]
        return PipelineMLP(stage_meshes), stage_meshes
    mesh = dist.ProcessMesh(list(range(cfg["world_size"])), dim_names=["mp"]) if distributed else None
    return TensorParallelMLP(mesh), [mesh]


def make_optimizer(cfg: dict, parameters):
    import paddle

    if cfg.get("optimizer", "sgd") == "adamw":
        return paddle.optimizer.AdamW(learning_rate=LEARNING_RATE, parameters=parameters, **ADAMW)
    return paddle.optimizer.SGD(learning_rate=LEARNING_RATE, parameters=parameters)


def make_loss(cfg: dict):
    """``nn.MSELoss()``, or ``nn.CrossEntropyLoss()`` for a token model (``cfg["vocab"]``)."""
    from paddle import nn

    own = pm.build_loss(cfg) if cfg["kind"] == "parallelize" else None
    if own is not None:
        return own
    return nn.CrossEntropyLoss() if "vocab" in cfg else nn.MSELoss()


def make_data(cfg: dict) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and labels shaped [steps, global batch, ...], float32 (int64 token ids
    ``[.., seq]`` and labels ``[.., seq, 1]`` for a token model)."""
    rng = np.random.default_rng(SEED)
    if "vocab" in cfg:
        shape = [STEPS, cfg["global_batch"], cfg["seq"]]
        x = rng.integers(0, cfg["vocab"], shape).astype("int64")
        # labels [.., seq] for a criterion that unsqueezes them itself (the seed's LLaMA)
        y = rng.integers(0, cfg["vocab"], shape + ([] if cfg.get("labels_2d") else [1]))
        y = y.astype("int64")
        return x, y
    if cfg.get("seq_first"):  # [steps, seq, batch, ...]: the loader stacks sequence positions
        feature, label = [cfg["batch"], cfg["hidden"]], [cfg["batch"], cfg["out"]]
    elif "seq" in cfg:
        feature, label = [cfg["seq"], cfg["hidden"]], [cfg["seq"], cfg["out"]]
    else:
        feature, label = [cfg["hidden"]], [cfg["out"]]
    x = rng.standard_normal([STEPS, cfg["global_batch"], *feature]).astype("float32")
    y = rng.standard_normal([STEPS, cfg["global_batch"], *label]).astype("float32")
    return x, y


# --------------------------------------------------------------------------------------------
# Capture (one process per rank)
# --------------------------------------------------------------------------------------------

class Recorder:
    """Writes numbered stage files; holds the dist program once mix2dist has seen it."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.count = 0
        self.dist_program = None
        self.written: list[str] = []
        self.param_names: list[str] = []
        self.data_names: list[str] = []
        # stage -> wall seconds Paddle spent in the wrapped pass (printing apart)
        self.seconds: dict[str, float] = {}

    def dump(self, stage: str, program) -> None:
        name = f"{self.count:02d}_{stage}.pir"
        self.count += 1
        (self.out_dir / name).write_text(str(program))
        self.written.append(name)


def annotate_grad_links(block, state) -> list:
    """Give each forward op that has grad ops `op_id:N` and its grad ops `grad_of:N`."""
    touched = []
    next_id = 0
    for op in block.ops:
        grads = state.op_to_opgrad[op] if op in state.op_to_opgrad else []
        if not grads:
            continue
        op.set_int_attr("op_id", next_id)
        touched.append((op, "op_id"))
        for grad_op in grads:
            if grad_op.has_attr("grad_of"):
                continue  # a grad op shared by two forward ops keeps its first link
            grad_op.set_int_attr("grad_of", next_id)
            touched.append((grad_op, "grad_of"))
        next_id += 1
    return touched


def patch_process_mesh_for_numpy2() -> None:
    """Paddle 3.3.1's ProcessMesh.get_rank_by_dim_and_process_id does int() on a 1-element array,
    which NumPy 2 rejects (shard_dataloader with shard_dims hits it); same result, plain int."""
    from paddle.distributed.auto_parallel.process_mesh import ProcessMesh

    def rank_by_dim(self, dim, process_id):
        if process_id not in self.process_ids:
            return -1
        if dim is None:
            return 0
        axis = dim if isinstance(dim, int) else self.dim_names.index(dim)
        return int(np.argwhere(np.asarray(self.mesh) == process_id)[0][axis])

    ProcessMesh.get_rank_by_dim_and_process_id = rank_by_dim


def patch_shard_dataloader_for_middle_stages() -> None:
    """Paddle 3.3.1's ShardDataloader, on a rank in none of its meshes (a middle pipeline stage:
    pp > 2, inputs on the first stage, labels on the last) with ``shard_dims=None``, indexes
    ``to_list(None)[0]`` and raises TypeError. With ``shard_dims=None`` the rank's mesh position
    is never used (the loader is the given one, unsplit), so the constructor runs as if on the
    first mesh's first rank; nothing later reads the rank."""
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import ShardDataloader

    original = ShardDataloader.__init__

    def init(self, dataloader, meshes, input_keys=None, shard_dims=None, *args, **kwargs):
        flat = []
        for mesh in (meshes if isinstance(meshes, (list, tuple)) else [meshes]):
            flat.extend(mesh if isinstance(mesh, (list, tuple)) else [mesh])
        rank = dist.get_rank()
        if shard_dims is not None or any(rank in m.process_ids for m in flat):
            return original(self, dataloader, meshes, input_keys, shard_dims, *args, **kwargs)
        real = dist.get_rank
        dist.get_rank = lambda *a, **k: flat[0].process_ids[0]
        try:
            return original(self, dataloader, meshes, input_keys, shard_dims, *args, **kwargs)
        finally:
            dist.get_rank = real

    ShardDataloader.__init__ = init


def install_hooks(rec: Recorder, forward_only: bool = False) -> None:
    import paddle
    import paddle.autograd.ir_backward as ir_backward
    import paddle.distributed.auto_parallel.static.engine as engine_mod
    from paddle.distributed.auto_parallel.static.pir_pass import RemovePasses

    engine_mod.Engine._init_comm = lambda self: None
    engine_mod.Engine._initialize = lambda self, mode, init_parameters=True: None

    patch_process_mesh_for_numpy2()
    patch_shard_dataloader_for_middle_stages()

    def around(name, fn, program_of):
        def wrapped(*args, **kwargs):
            program = program_of(*args)
            rec.dump(f"before_{name}", program)
            start = time.perf_counter()
            result = fn(*args, **kwargs)
            rec.seconds[name] = rec.seconds.get(name, 0.0) + time.perf_counter() - start
            rec.dump(f"after_{name}", program)
            return result
        return wrapped

    first = {"mix2dist": True, "op_role": True, "unuseful": 0}
    original_mix2dist = engine_mod.apply_mix2dist_pass

    def mix2dist(program, *args, **kwargs):
        if first["mix2dist"]:
            rec.dist_program = program
            first["mix2dist"] = False
        return original_mix2dist(program, *args, **kwargs)

    engine_mod.apply_mix2dist_pass = mix2dist

    original_op_role = engine_mod.set_all_ops_op_role

    def set_op_role(block, role):
        result = original_op_role(block, role)
        if first["op_role"] and rec.dist_program is not None:
            first["op_role"] = False
            rec.dump("forward_dist", rec.dist_program)
            rec.param_names, rec.data_names = program_names(rec.dist_program)
            if forward_only:
                raise ForwardCaptured
        return result

    engine_mod.set_all_ops_op_role = set_op_role

    engine_mod.complete_chunk_id = around(
        "complete_chunk_id", engine_mod.complete_chunk_id, lambda program, *a: program)
    engine_mod.check_chunk_id = around(
        "check_chunk_id", engine_mod.check_chunk_id, lambda program, *a: program)
    RemovePasses.remove_other_rank_op_pass = staticmethod(around(
        "remove_other_rank_op_pass", RemovePasses.remove_other_rank_op_pass,
        lambda program, *a: program))

    original_chunk = ir_backward._complete_grad_op_chunk_id

    def grad_chunk(block, state):
        touched = annotate_grad_links(block, state)
        rec.dump("before_grad_chunk_id", block.program)
        start = time.perf_counter()
        result = original_chunk(block, state)
        rec.seconds["grad_chunk_id"] = time.perf_counter() - start
        rec.dump("after_grad_chunk_id", block.program)
        # later stages stay Paddle's own text: drop our link attributes again
        for op, attr in touched:
            op.erase_attr(attr)
        return result

    ir_backward._complete_grad_op_chunk_id = grad_chunk

    original_new_pass = engine_mod.new_pass

    def new_pass(name, *args, **kwargs):
        pass_obj = original_new_pass(name, *args, **kwargs)
        if name == "auto_parallel_gradient_merge_pass":
            pass_obj.apply = around("gradient_merge", pass_obj.apply,
                                    lambda mains, *a: mains[0])
        return pass_obj

    engine_mod.new_pass = new_pass

    libpir = paddle.base.libpaddle.pir
    libpir.apply_dist2dense_pass = around(
        "dist2dense", libpir.apply_dist2dense_pass, lambda program, *a: program)

    original_unuseful = engine_mod.remove_unuseful_comm_op_pass

    def unuseful(program):
        result = original_unuseful(program)
        first["unuseful"] += 1
        stage = "after_remove_unuseful_comm_op" if first["unuseful"] == 1 else "dense_final"
        rec.dump(stage, program)
        return result

    engine_mod.remove_unuseful_comm_op_pass = unuseful

    original_pipeline = engine_mod.pipeline_pass

    def pipeline(mains, startups, strategy):
        rec.dump("before_pipeline_pass", mains[0])
        return original_pipeline(mains, startups, strategy)

    engine_mod.pipeline_pass = pipeline


def make_strategy(cfg: dict):
    import paddle.distributed as dist

    strategy = dist.Strategy()
    strategy.auto_mode = "semi"
    strategy.reinit = True
    if cfg["kind"] == "pp" or (cfg["kind"] == "parallelize" and cfg["pp"] > 1):
        pipeline = strategy.pipeline
        pipeline.enable = True
        pipeline.schedule_mode = cfg["schedule"]
        pipeline.pp_degree = cfg["pp"]
        pipeline.accumulate_steps = cfg["micro_batches"]
        pipeline.micro_batch_size = cfg["global_batch"] // cfg["micro_batches"] // cfg["dp"]
        if cfg["schedule"] == "VPP":
            pipeline.vpp_degree = cfg["vpp"]
            pipeline.vpp_seg_method = cfg["seg_method"]
    return strategy


def make_side_input(cfg: dict) -> np.ndarray | None:
    """The second model input of a two-input model (``cfg["side_input"]``): float32
    ``[steps, global batch, hidden]``, or None."""
    if not cfg.get("side_input"):
        return None
    rng = np.random.default_rng(SEED + 1)
    return rng.standard_normal([STEPS, cfg["global_batch"], cfg["hidden"]]).astype("float32")


def make_loader(cfg: dict):
    """Batches ``[input, label]`` (``[[input, side], label]`` for a two-input model: Paddle's
    shard_dataloader puts every input on its first mesh, the label on its last)."""
    import paddle

    x, y = make_data(cfg)
    side = make_side_input(cfg)

    class Batches(paddle.io.Dataset):
        def __init__(self):
            self.x = x.reshape(-1, *x.shape[2:])
            self.y = y.reshape(-1, *y.shape[2:])
            self.side = None if side is None else side.reshape(-1, *side.shape[2:])

        def __getitem__(self, i):
            if self.side is not None:
                return [self.x[i], self.side[i]], self.y[i]
            return self.x[i], self.y[i]

        def __len__(self):
            return len(self.x)

    return paddle.io.DataLoader(Batches(), batch_size=cfg["global_batch"], shuffle=False)


def make_dist_loader(cfg: dict, meshes: list):
    """Inputs on the first stage's mesh, labels on the last one's; the batch split along dp."""
    import paddle.distributed as dist

    loader = make_loader(cfg)
    shard_dims = "dp" if cfg["dp"] > 1 else "mp" if cfg["kind"] == "sp" else None
    if cfg.get("loader_shard_dp") and "dp" in cfg.get("mesh_dims", []):
        shard_dims = "dp"  # as Paddle's parallel_api.py does, whatever the dp degree
    if cfg["kind"] == "pp" or (cfg["kind"] == "parallelize" and len(meshes) > 1):
        return dist.shard_dataloader(loader, meshes=[meshes[0], meshes[-1]], shard_dims=shard_dims)
    return dist.shard_dataloader(loader, meshes=meshes[0], shard_dims=shard_dims)


def program_names(program) -> tuple[list[str], list[str]]:
    params, datas = [], []
    for op in program.global_block().ops:
        if op.name() == "builtin.parameter":
            params.append(op.str_attr("parameter_name"))
        elif op.name() == "pd_op.data":
            datas.append(op.str_attr("name"))
    return params, datas


def scaled_config(cfg_name: str, layers: int) -> dict:
    """``cfg_name`` with ``layers`` MyLinear layers, the first half on stage 0, the rest on 1."""
    cfg = dict(CONFIGS[cfg_name])
    if "layer_stages" not in cfg or cfg["pp"] != 2 or layers < 2 or layers % 2:
        raise SystemExit(f"--layers needs a pp2 configuration and an even count >= 2, "
                         f"got {cfg_name} with {layers}")
    cfg["layer_stages"] = [0] * (layers // 2) + [1] * (layers // 2)
    return cfg


class ForwardCaptured(Exception):
    """Raised after the forward dist program is written in a ``--forward-only`` capture."""


def capture(cfg_name: str, rank: int, layers: int | None = None,
            out_dir: Path | None = None, forward_only: bool = False) -> None:
    cfg = CONFIGS[cfg_name] if layers is None else scaled_config(cfg_name, layers)
    os.environ["PADDLE_TRAINERS_NUM"] = str(cfg["world_size"])
    os.environ["PADDLE_TRAINER_ID"] = str(rank)
    endpoints = [f"127.0.0.1:{6170 + i}" for i in range(cfg["world_size"])]
    os.environ["PADDLE_TRAINER_ENDPOINTS"] = ",".join(endpoints)
    os.environ["PADDLE_CURRENT_ENDPOINT"] = endpoints[rank]
    os.environ["FLAGS_enable_pir_api"] = "1"

    import paddle
    import paddle.distributed as dist
    from paddle import nn
    from paddle.distributed.auto_parallel.static.process_group import get_all_process_groups

    paddle.base.set_flags({"FLAGS_enable_pir_api": 1})
    out_dir = out_dir or DATA_DIR / cfg_name / f"rank{rank}"
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


def capture_serial(cfg_name: str) -> None:
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
    from paddle import nn

    paddle.base.set_flags({"FLAGS_enable_pir_api": 1})
    engine_mod.Engine._init_comm = lambda self: None
    engine_mod.Engine._initialize = lambda self, mode, init_parameters=True: None
    target = DATA_DIR / cfg_name / "serial.pir"

    class Printed(Exception):
        pass

    def mix2dist(program, *args, **kwargs):
        target.write_text(str(program))
        raise Printed

    engine_mod.apply_mix2dist_pass = mix2dist
    model, _ = build_model(cfg, distributed=False)
    if not cfg.get("param_on_global_mesh"):  # a user's own shard_tensor is no plan key
        (DATA_DIR / cfg_name / "plan.toml").write_text(pm.plan_toml(cfg, model))
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


# --------------------------------------------------------------------------------------------
# Reference numerics (single process, no distribution)
# --------------------------------------------------------------------------------------------

def reference(cfg_name: str) -> None:
    import paddle
    from paddle import nn

    cfg = CONFIGS[cfg_name]
    cfg_dir = DATA_DIR / cfg_name
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
    reference_json = {"losses": losses, "learning_rate": LEARNING_RATE,
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


def write_example(cfg_name: str) -> None:
    cfg = CONFIGS[cfg_name]
    src = DATA_DIR / cfg_name
    dst = EXAMPLES_DIR / cfg_name
    dst.mkdir(parents=True, exist_ok=True)
    if cfg_name in pm.SERIAL_EXAMPLES:  # the serial program and its plan: `rulepass run`
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
    if cfg_name in pm.SERIAL_EXAMPLES:
        header = ["# Captured from PaddlePaddle 3.3.1 by tools/capture_paddle.py: serial.pir is the",
                  "# model without distribution, plan.toml its dist.parallelize config; `rulepass",
                  "# run` parallelizes first (Paddle's own result: tests/data/paddle/<cfg>/)."]
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
    (dst / "config.toml").write_text("\n".join(lines) + "\n")


def main() -> int:
    global DATA_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="*", help=f"default: all of {', '.join(CONFIGS)}")
    parser.add_argument("--worker", choices=["capture", "reference", "serial"], help=argparse.SUPPRESS)
    parser.add_argument("--rank", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--layers", type=int,
                        help="capture one pp2 configuration with this many MyLinear layers "
                             "(rank 0 by default, programs only, into --out; for benchmarks)")
    parser.add_argument("--out", type=Path, help="output folder of a --layers capture")
    parser.add_argument("--data-dir", type=Path,
                        help=f"write the configurations here instead of {DATA_DIR} "
                             "(scratch captures; no examples/ refresh)")
    parser.add_argument("--forward-only", action="store_true",
                        help="parallelize configurations: rank 0 up to 00_forward_dist only "
                             "(the global view), the serial program and the reference numerics")
    parser.add_argument("--list", action="store_true", help="print the configuration names")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CONFIGS))
        return 0
    scratch = args.data_dir is not None
    if scratch:
        DATA_DIR = args.data_dir.resolve()
        DATA_DIR.mkdir(parents=True, exist_ok=True)
    passed = (["--data-dir", str(DATA_DIR)] if scratch else []) + \
        (["--forward-only"] if args.forward_only else [])

    if args.worker == "capture":
        capture(args.configs[0], args.rank, args.layers, args.out, args.forward_only)
        return 0
    if args.layers is not None:
        if len(args.configs) != 1 or args.out is None:
            parser.error("--layers needs exactly one configuration and --out")
        rc = subprocess.call([sys.executable, __file__, args.configs[0], "--worker", "capture",
                              "--rank", str(args.rank), "--layers", str(args.layers),
                              "--out", str(args.out.resolve())], cwd=REPO)
        return rc
    if args.worker == "reference":
        reference(args.configs[0])
        return 0
    if args.worker == "serial":
        capture_serial(args.configs[0])
        return 0

    status = 0
    for name in args.configs or list(CONFIGS):
        cfg = CONFIGS[name]
        if args.forward_only and cfg["kind"] != "parallelize":
            parser.error(f"--forward-only takes dist.parallelize configurations, not {name}")
        ranks = [0] if args.forward_only else range(cfg["world_size"])
        if args.forward_only:
            shutil.rmtree(DATA_DIR / name, ignore_errors=True)
        for rank in ranks:
            print(f"== {name} rank {rank}", flush=True)
            rc = subprocess.call([sys.executable, __file__, name, "--worker", "capture",
                                  "--rank", str(rank), *passed], cwd=REPO)
            status |= rc
        print(f"== {name} reference", flush=True)
        rc = subprocess.call([sys.executable, __file__, name, "--worker", "reference", *passed],
                             cwd=REPO)
        status |= rc
        if cfg["kind"] == "parallelize":
            print(f"== {name} serial", flush=True)
            status |= subprocess.call([sys.executable, __file__, name, "--worker", "serial",
                                       *passed], cwd=REPO)
        # EXAMPLES_ONLY: the example folder is written from a scratch capture too (the whole
        # capture is over the corpus budget)
        if rc == 0 and ((name in EXAMPLE_CONFIGS and not scratch) or name in pm.EXAMPLES_ONLY):
            write_example(name)
    return status


if __name__ == "__main__":
    sys.exit(main())
