"""What a capture builds for a configuration (shared by the distributed capture and the
single-process reference): the model (:func:`build_model`), optimizer, loss, data, loaders and the
auto-parallel Strategy.

Only run under ``/work/paddle-venv`` (tools/capture_paddle.py); never imported by rulepass."""

from __future__ import annotations

import numpy as np

import paddle_parallelize_models as pm
from capture_paddle_configs import ADAMW, LEARNING_RATE, SEED, STEPS


def build_model(cfg: dict, distributed: bool):
    """Return (layer, meshes). With distributed=False no dist API is touched.

    Both variants draw their initial values in the same order from the same seed.
    For ``kind="parallelize"`` the model is single-card either way (dist.parallelize
    distributes it later, see ``capture``)."""
    if cfg["kind"] == "parallelize":
        return pm.build_model(cfg), (pm.stage_meshes(cfg) if distributed else [None])
    if cfg.get("custom"):  # blocks with other ops (attention, split/concat)
        from paddle_block_models import build_block_model

        return build_block_model(cfg, distributed, SEED)
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
    """SGD, or AdamW (``cfg["optimizer"] == "adamw"``, settings ``ADAMW``), at LEARNING_RATE."""
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



def make_strategy(cfg: dict):
    """The semi-auto ``dist.Strategy``; with a pipeline, its schedule, degrees and
    micro-batches (and the VPP degree and segment method)."""
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
