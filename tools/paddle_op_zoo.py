"""A model of many common ops, for the SPMD rules of ``rulepass parallelize``.

Each ``ZooBlock`` computes, from ``x`` ``[b, s, 8]``: ``h = linear0(x)`` (``[b, s, 16]``, column
parallel in the plans, so sharded on its last axis), ``h - max(h, -1) / 2``, with ``dropout``
(p = 0.1, when ``cfg["dropout"]``: the numerics are then random), then ``split`` into halves, ``concat`` them
back in another order, ``dropout`` (p = 0, so the numerics stay deterministic), ``gelu``, ``tanh``,
``sin`` + ``cos``, ``clip``, ``abs``, a slice ``h[:, :, 0:8]`` and ``h[:, 1:, :]`` padded back with
``concat``, ``unsqueeze`` + ``squeeze``, ``flatten`` + ``reshape``, ``stack`` + ``sum``,
``where(h > 0, h, 0.1 * h)``, ``expand`` of a ``[16]`` parameter, ``max`` over the hidden axis,
``exp``/``log``/``sqrt``, ``linear1`` back to 8 (row parallel), and ``layer_norm``.

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass.
"""

from __future__ import annotations


def build(cfg: dict):
    """``ZooMLP``: ``cfg["layers"]`` ZooBlocks and a head Linear(8 -> 4)."""
    import paddle
    import paddle.nn.functional as F
    from paddle import nn

    hidden, inter = cfg["hidden"], cfg["inter"]

    class ZooBlock(nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear0 = nn.Linear(hidden, inter)
            self.linear1 = nn.Linear(inter, hidden)
            self.scale = self.create_parameter([inter], dtype="float32",
                                               default_initializer=nn.initializer.Constant(0.5))
            self.norm = nn.LayerNorm(hidden)

        def forward(self, x):
            h = self.linear0(x)
            h = h - paddle.max(h, axis=-1, keepdim=True) * 0.5  # a max over the sharded axis
            if cfg.get("dropout"):
                h = F.dropout(h, p=0.1, training=True)
            a, b = paddle.split(h, 2, axis=-1)
            h = paddle.concat([b, a * 0.5], axis=-1)
            h = F.dropout(h, p=0.0, training=True)
            h = F.gelu(h) + paddle.tanh(h)
            h = paddle.sin(h) * paddle.cos(h) + paddle.clip(h, -1.0, 1.0) + paddle.abs(h) * 0.1
            first = h[:, :, 0:8]
            h = h + paddle.concat([first, first], axis=-1)
            shifted = paddle.concat([h[:, 1:, :], h[:, :1, :]], axis=1)
            h = h + shifted
            h = paddle.squeeze(paddle.unsqueeze(h, 1), 1)
            b_, s_, d_ = h.shape
            h = paddle.flatten(h, 0, 1).reshape([b_, s_, d_])
            h = paddle.stack([h, h * 2.0], axis=0).sum(axis=0)
            h = paddle.where(h > 0, h, h * 0.1)
            h = h * self.scale.expand([b_, s_, d_])
            h = h - paddle.max(h, axis=-1, keepdim=True)
            h = paddle.log(paddle.exp(h) + 1.0) + paddle.sqrt(paddle.abs(h) + 1.0)
            return self.norm(self.linear1(h) + x)

    class ZooMLP(nn.Layer):
        def __init__(self):
            super().__init__()
            self.layers = nn.LayerList([ZooBlock() for _ in range(cfg["layers"])])
            self.head = nn.Linear(hidden, cfg["out"])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return self.head(x)

    return ZooMLP()
