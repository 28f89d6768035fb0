"""The single-card models of the dist.parallelize configurations (``cfg["model"]``): the
global-mesh ``GlobalMLP`` (the default), ``ParallelMLP`` (``mlp``), ``EncDecMLP`` (``encdec``),
``SequenceMLP`` (``sp``), a small LLaMA (``llama``), the seed test's LLaMA (``seedllama``,
``tools/paddle_seed_llama.py``) and the op zoo (``zoo``, ``tools/paddle_op_zoo.py``).

Every model is deterministic: ``paddle.seed``/``np.random.seed`` before construction, and the
seed's ``GlobalOutputNet`` (``paddle.rand`` on every call) returns a constant ``paddle.full``
instead. Class names are the layer names a plan uses (``GlobalMLP/GMyLinear_1/Linear``).

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass."""

from __future__ import annotations

import numpy as np

SEED = 2024


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
