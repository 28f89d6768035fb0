"""Pipeline models whose blocks use ops the MLP corpus lacks (``cfg["custom"]``), for
``tools/capture_paddle.py``: Paddle 3.3.1 is run on them as on the other pipeline models
(``capture_paddle_models.build_model`` hands them here).

- ``attention``: pre-LayerNorm single-layer attention with two heads and an MLP on
  ``[batch, seq, hidden]`` — ``paddle.split`` of the qkv projection (``pd_op.split_with_num``, a
  vector result read through ``builtin.split``), reshape/transpose, ``matmul(transpose_y=True)``,
  softmax, gelu; blocks named ``Block``.
- ``split_concat``: on ``[batch, hidden]``, ``paddle.split`` then ``paddle.concat`` of
  sigmoid·tanh and silu (``builtin.combine`` vectors), abs, mean, divide; blocks ``OpsBlock``.
- ``activations``: on ``[batch, hidden]``, leaky_relu, maximum, index_select by a
  ``paddle.to_tensor`` index (``pd_op.assign_value_``), hardswish and log_softmax, scaled to
  stay well conditioned; blocks ``ActBlock``.
- ``residual``: the pipeline MLP's blocks (``MyLinear``: linear, relu, linear) with block 0's
  output added to the head's input on the last stage: a value sent past the next stage (under
  VPP with blocks round-robin over the stages, from virtual stage 0 to the last one).

Under VPP (``vpp_seg_method`` the block name) complete_chunk_id moves whole blocks to other
stages: the vector results and the combines are what these models add (tests/data/pieces/).
Found by an outside trial of rulepass on programs it had not seen.
"""

from __future__ import annotations


def build_block_model(cfg: dict, distributed: bool, seed: int):
    """(layer, stage meshes) for ``cfg["custom"]`` in ``attention``, ``split_concat``,
    ``activations`` or ``residual``: one
    block per entry of ``cfg["layer_stages"]`` (its stage), then a ``Linear(hidden, out)`` head
    on the last stage; activations resharded to the next block's stage mesh. Without
    ``distributed`` no dist API is touched (the reference run), with the same initial values
    (the same seed, drawn in the same order). Raises KeyError for another kind."""
    import numpy as np
    import paddle
    import paddle.distributed as dist
    import paddle.nn.functional as F
    from paddle import nn

    hidden, inter, out = cfg["hidden"], cfg["inter"], cfg["out"]

    def place(param, mesh):
        if not distributed:
            return param
        return dist.shard_tensor(param, mesh, [dist.Replicate()], stop_gradient=False)

    def placed(layer, mesh, parts):
        for part in parts:
            part.weight = place(part.weight, mesh)
            part.bias = place(part.bias, mesh)
        return layer

    class Block(nn.Layer):
        def __init__(self, mesh):
            super().__init__()
            self.norm = nn.LayerNorm(hidden)
            self.qkv = nn.Linear(hidden, 3 * hidden)
            self.proj = nn.Linear(hidden, hidden)
            self.fc = nn.Linear(hidden, inter)
            self.fc2 = nn.Linear(inter, hidden)
            placed(self, mesh, (self.norm, self.qkv, self.proj, self.fc, self.fc2))

        def forward(self, x):
            q, k, v = paddle.split(self.qkv(self.norm(x)), 3, axis=-1)
            b, s, half = x.shape[0], x.shape[1], hidden // 2

            def heads(t):
                return paddle.reshape(t, [b, s, 2, half]).transpose([0, 2, 1, 3])

            att = F.softmax(paddle.matmul(heads(q), heads(k), transpose_y=True)
                            * (1.0 / half ** 0.5), axis=-1)
            o = paddle.reshape(paddle.matmul(att, heads(v)).transpose([0, 2, 1, 3]),
                               [b, s, hidden])
            x = x + self.proj(o)
            return x + self.fc2(F.gelu(self.fc(x)))

    class OpsBlock(nn.Layer):
        def __init__(self, mesh):
            super().__init__()
            self.a = nn.Linear(hidden, inter)
            self.b = nn.Linear(inter // 2 * 2, hidden)
            placed(self, mesh, (self.a, self.b))

        def forward(self, x):
            h1, h2 = paddle.split(self.a(x), 2, axis=-1)
            h = paddle.concat([F.sigmoid(h1) * paddle.tanh(h2), F.silu(h2)], axis=-1)
            h = h / (1.0 + paddle.mean(paddle.abs(h), axis=-1, keepdim=True))
            return self.b(h) + x

    class TwoLinear(nn.Layer):
        """``a``: hidden -> inter, ``b``: inter -> hidden, on ``mesh`` (a struct_name is the
        subclass's name)."""

        def __init__(self, mesh):
            super().__init__()
            self.a = nn.Linear(hidden, inter)
            self.b = nn.Linear(inter, hidden)
            placed(self, mesh, (self.a, self.b))

    class ActBlock(TwoLinear):
        def forward(self, x):
            h = F.leaky_relu(self.a(x), 0.1)
            h = paddle.maximum(h, h * 0.5 - 0.1)
            reverse = paddle.to_tensor(list(range(inter - 1, -1, -1)), dtype="int64")
            h = paddle.index_select(h, reverse, axis=-1) * 0.5 + h * 0.5
            h = F.log_softmax(F.hardswish(h), axis=-1) * 0.1
            return self.b(h) + x

    class MyLinear(TwoLinear):
        def forward(self, x):
            return self.b(F.relu(self.a(x)))

    block = {"attention": Block, "split_concat": OpsBlock, "activations": ActBlock,
             "residual": MyLinear}[cfg["custom"]]

    class Net(nn.Layer):
        def __init__(self, stage_meshes):
            super().__init__()
            self.layer_meshes = [stage_meshes[s] for s in cfg["layer_stages"]]
            self.layers = nn.LayerList([block(m) for m in self.layer_meshes])
            self.head_mesh = stage_meshes[-1]
            self.head = nn.Linear(hidden, out)
            placed(self.head, self.head_mesh, (self.head,))

        def forward(self, x):
            prev = self.layer_meshes[0]
            first = None
            for mesh, layer in zip(self.layer_meshes + [self.head_mesh],
                                   list(self.layers) + [self.head]):
                if distributed and mesh != prev:
                    x = dist.reshard(x, mesh, [dist.Replicate()])
                prev = mesh
                if layer is self.head and cfg["custom"] == "residual":
                    x = x + (dist.reshard(first, mesh, [dist.Replicate()]) if distributed
                             else first)
                x = layer(x)
                first = x if first is None else first
            return x

    paddle.seed(seed)
    np.random.seed(seed)
    meshes = ([dist.ProcessMesh([i], dim_names=["pp"]) for i in range(cfg["pp"])]
              if distributed else [None] * max(cfg["pp"], 1))
    return Net(meshes), meshes
