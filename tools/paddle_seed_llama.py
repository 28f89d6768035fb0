"""The seed test's LLaMA, small: the model ``dist.parallelize`` is exercised with upstream.

Paddle's own test of the front end (``test/auto_parallel/hybrid_strategy/parallel_api.py`` with
``single_llama_model.py``, seed 003) builds ``LlamaForCausalLM`` = ``llama`` (``LlamaModel``:
``embed_tokens``, optional ``position_embedding``, ``global_layer``, ``layers``, ``norm``) and
``lm_head`` (``LlamaLMHead``, optionally tied to the embedding), trained with a pretraining
criterion (cross entropy without reduction, ``masked_select`` of the positive losses, mean). This
module writes a model of that structure and those ops (written here, not copied), at toy sizes,
for ``tools/capture_paddle.py``: attention is Paddle's ``_math_attention`` (transposes, a scaled
``matmul``, the causal mask of ``full_like`` + ``triu``, ``softmax``), q/k/v/o have biases, the
MLP returns a tuple, the global layer returns ``paddle.rand`` (or, with ``global_rand`` false, a
constant, so that the numerics are reproducible).

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass.
"""

from __future__ import annotations


def build(cfg: dict):
    """``LlamaForCausalLM`` of ``cfg`` (``hidden``, ``inter``, ``vocab``, ``heads``, ``layers``;
    flags ``share_embedding``, ``position_embedding``, ``global_rand``)."""
    import paddle
    import paddle.nn.functional as F
    from paddle import nn
    from paddle.nn.functional.flash_attention import _math_attention

    hidden, inter, heads = cfg["hidden"], cfg["inter"], cfg["heads"]
    head_dim = hidden // heads

    class SDPALayer(nn.Layer):
        def forward(self, query, key, value, is_causal=True):
            out, _ = _math_attention(query, key, value, causal=is_causal)
            return out

    class LlamaAttention(nn.Layer):
        def __init__(self):
            super().__init__()
            self.sdpa = SDPALayer()
            self.q_proj = nn.Linear(hidden, hidden)
            self.k_proj = nn.Linear(hidden, hidden)
            self.v_proj = nn.Linear(hidden, hidden)
            self.o_proj = nn.Linear(hidden, hidden)

        def forward(self, x):
            def split(t):
                return t.reshape(shape=[0, 0, heads, head_dim])

            q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
            seq = q.shape[1]
            out = self.sdpa(q, k, v, is_causal=True)
            return self.o_proj(out.reshape([-1, seq, hidden]))

    class LlamaMLP(nn.Layer):
        def __init__(self):
            super().__init__()
            self.gate_proj = nn.Linear(hidden, inter, bias_attr=False)
            self.up_proj = nn.Linear(hidden, inter, bias_attr=False)
            self.down_proj = nn.Linear(inter, hidden, bias_attr=False)

        def forward(self, x, passthrough):
            return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x)), passthrough

    class LlamaRMSNorm(nn.Layer):
        def __init__(self):
            super().__init__()
            self.weight = paddle.create_parameter(
                shape=[hidden], dtype="float32",
                default_initializer=nn.initializer.Constant(1.0))

        def forward(self, x):
            variance = x.astype("float32").pow(2).mean(-1, keepdim=True)
            return paddle.rsqrt(variance + 1e-6) * x * self.weight

    class LlamaDecoderLayer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.self_attn = LlamaAttention()
            self.mlp = LlamaMLP()
            self.input_layernorm = LlamaRMSNorm()
            self.post_attention_layernorm = LlamaRMSNorm()

        def forward(self, hidden_states, global_tensor):
            residual = hidden_states + global_tensor
            h = self.self_attn(self.input_layernorm(hidden_states))
            h = residual + h
            out, _ = self.mlp(self.post_attention_layernorm(h), "passthrough")
            return h + out

    class GlobalOutputNet(nn.Layer):
        def forward(self, x):
            if cfg.get("global_rand", True):
                return paddle.rand([hidden], dtype="float32")
            return paddle.full([hidden], 0.25, dtype="float32")

    class LlamaModel(nn.Layer):
        def __init__(self):
            super().__init__()
            self.embed_tokens = nn.Embedding(cfg["vocab"], hidden)
            self.position_embedding = (nn.Embedding(cfg["vocab"], hidden)
                                       if cfg.get("position_embedding") else None)
            self.global_layer = GlobalOutputNet()
            self.layers = nn.LayerList([LlamaDecoderLayer() for _ in range(cfg["layers"])])
            self.norm = LlamaRMSNorm()

        def forward(self, input_ids):
            h = self.embed_tokens(input_ids)
            if self.position_embedding is not None:
                ones = paddle.ones(input_ids.shape, dtype="int64")
                position_ids = paddle.cumsum(ones, axis=-1) - ones
                h = h + self.position_embedding(position_ids)
            g = self.global_layer(None)
            for layer in self.layers:
                h = layer(hidden_states=h, global_tensor=g)
            return self.norm(h)

    class LlamaLMHead(nn.Layer):
        def __init__(self, weight=None):
            super().__init__()
            self.transpose_y = weight is not None
            if weight is not None:
                self.weight = weight
            else:
                self.weight = self.create_parameter(shape=[hidden, cfg["vocab"]],
                                                    dtype="float32")

        def forward(self, x):
            return paddle.matmul(x, self.weight, transpose_y=self.transpose_y)

    class LlamaForCausalLM(nn.Layer):
        def __init__(self):
            super().__init__()
            self.llama = LlamaModel()
            tied = self.llama.embed_tokens.weight if cfg.get("share_embedding") else None
            self.lm_head = LlamaLMHead(tied)

        def forward(self, input_ids):
            input_ids.stop_gradient = True
            return self.lm_head(self.llama(input_ids))

    return LlamaForCausalLM()


def criterion(cfg: dict):
    """The pretraining criterion: per-token cross entropy (no reduction) of ``[b, s]`` labels,
    the positive losses ``masked_select``-ed, their mean."""
    import paddle
    from paddle import nn

    class LlamaPretrainingCriterion(nn.Layer):
        def __init__(self):
            super().__init__()
            self.loss_func = nn.CrossEntropyLoss(reduction="none", ignore_index=-100)

        def forward(self, logits, labels):
            loss = self.loss_func(logits.astype("float32"), labels.unsqueeze(2))
            return paddle.mean(paddle.masked_select(loss, loss > 0).astype("float32"))

    return LlamaPretrainingCriterion()
