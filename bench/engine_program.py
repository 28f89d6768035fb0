"""The workload of bench/engine.py: a synthetic tensor- and sequence-parallel training program
for rank 0 of about N ops (:func:`build_program`, 40 ops per layer; see bench/engine.py's
docstring for its ops), and the counts that say what a pass did to it (:func:`summary_rulepass`),
comparable across the engine and its yardsticks."""

from __future__ import annotations

from rulepass.engine.ir.attributes import Symbol
from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.ir.core import Program
from rulepass.engine.ir.types import VectorType
from workload import GROUPS, RANK, SOLO_RING, TP_RING

#: Sequence length (split across the 2 tensor-parallel ranks) and hidden size of the workload.
S, H = 8, 16
OPS_PER_LAYER = 40
#: Ops outside the layers (data, lr, loss, grad seed, output).
FIXED_OPS = 5
#: Rewrites the pass makes per layer (1 fusion, 3 erasures, 1 drop, 1 region, 1 gelu, 11 grads).
REWRITES_PER_LAYER = 18


def layers_for(ops: int) -> int:
    """Layers giving about ``ops`` ops (at least 1)."""
    return max(1, (ops - FIXED_OPS) // OPS_PER_LAYER)


def build_program(ops: int) -> Program:
    """The synthetic training program of about ``ops`` ops (see the module docstring)."""
    layers = layers_for(ops)
    program = Program(process_groups=GROUPS)
    b = Builder(program)
    t_sh, t_s4h, t_hs, t_ss = tensor((S, H)), tensor((S, 4 * H)), tensor((H, S)), tensor((S, S))
    t_w1, t_w2, t_half = tensor((H, 4 * H)), tensor((4 * H, H)), tensor((S // 2, H))
    t_vec, t_one = VectorType((t_half, t_half)), tensor((1,))
    t_axis, t_shape = tensor((1,), "int32"), tensor((2,), "int64")
    f32 = Symbol("float32")
    next_id = [0]

    def fwd(name, operands, attrs, types, layer):
        next_id[0] += 1
        attrs = {**attrs, "op_id": next_id[0], "chunk_id": layer % 4, "op_role": 0}
        return b.op(name, operands, attrs, types), next_id[0]

    x = b.op("pd_op.data", [], {"dtype": f32, "name": "x", "shape": [S, H]}, [t_sh]).result
    lr = b.op("pd_op.full", [], {"dtype": f32, "shape": [1], "value": 0.01}, [t_one]).result
    saved = []
    h = x
    for layer in range(layers):
        w1 = b.op("builtin.parameter", [], {"parameter_name": f"l{layer}.w1"}, [t_w1]).result
        w2 = b.op("builtin.parameter", [], {"parameter_name": f"l{layer}.w2"}, [t_w2]).result
        n, id_n = fwd("pd_op.rms_norm", [h], {"epsilon": 1e-6}, [t_sh], layer)
        m1, id_m1 = fwd("pd_op.matmul", [n.result, w1],
                        {"transpose_x": False, "transpose_y": False}, [t_s4h], layer)
        t = b.op("dist_op.dtensor_to_local", [m1.result], {"op_role": 0}, [t_s4h])
        g, id_g = fwd("pd_op.gelu", [t.result], {"approximate": False}, [t_s4h], layer)
        s, id_s = fwd("pd_op.scale", [g.result], {"bias": 0.0, "scale": 1.0}, [t_s4h], layer)
        fl = b.op("dist_op.dtensor_from_local", [s.result], {"op_role": 0}, [t_s4h])
        m2, id_m2 = fwd("pd_op.matmul", [fl.result, w2],
                        {"transpose_x": False, "transpose_y": False}, [t_sh], layer)
        ar = b.op("pd_op.all_reduce", [m2.result],
                  {"op_role": 0, "reduce_type": 0, "ring_id": TP_RING, "chunk_id": layer % 4},
                  [t_sh])
        axis = b.op("pd_op.full", [], {"dtype": Symbol("int32"), "shape": [1], "value": 0},
                    [t_axis])
        sp = b.op("pd_op.split_with_num", [ar.result, axis.result], {"num": 2}, [t_vec])
        sl = b.op("builtin.slice", [sp.result], {"index": RANK}, [t_half])
        ag = b.op("pd_op.all_gather", [sl.result], {"nranks": 2, "ring_id": TP_RING}, [t_sh])
        r, id_r = fwd("pd_op.add", [h, ag.result], {}, [t_sh], layer)
        one = b.op("pd_op.all_reduce", [r.result],
                   {"op_role": 0, "reduce_type": 0, "ring_id": SOLO_RING}, [t_sh])
        b.op("pd_op.shape", [r.result], {}, [t_shape])
        b.op("pd_op.full_int_array", [], {"dtype": Symbol("int64"), "value": [S, H]}, [t_shape])
        tr, id_tr = fwd("pd_op.transpose", [one.result], {"perm": [1, 0]}, [t_hs], layer)
        att, id_att = fwd("pd_op.matmul", [one.result, tr.result],
                          {"transpose_x": False, "transpose_y": False}, [t_ss], layer)
        sm, id_sm = fwd("pd_op.softmax", [att.result], {"axis": -1}, [t_ss], layer)
        o, id_o = fwd("pd_op.matmul", [sm.result, one.result],
                      {"transpose_x": False, "transpose_y": False}, [t_sh], layer)
        h2, id_h2 = fwd("pd_op.add", [one.result, o.result], {}, [t_sh], layer)
        ids = (id_n, id_m1, id_g, id_s, id_m2, id_r, id_tr, id_att, id_sm, id_o, id_h2)
        saved.append((w1, w2, n, t, g, s, fl, r, one, ag, tr, sm, h, o, ids))
        h = h2.result
    loss = b.op("pd_op.mean", [h], {"keepdim": False, "op_role": 0}, [tensor(())])
    gh = b.op("pd_op.full", [], {"dtype": f32, "shape": [S, H], "value": 1.0, "op_role": 1},
              [t_sh]).result

    def bwd(name, operands, grad_of, types, extra=None):
        attrs = {"op_role": 1, **(extra or {})}
        if grad_of is not None:
            attrs["grad_of"] = grad_of
        return b.op(name, operands, attrs, types)

    for w1, w2, n, t, g, s, fl, r, one, ag, tr, sm, h_in, o, ids in reversed(saved):
        id_n, id_m1, id_g, id_s, id_m2, id_r, id_tr, id_att, id_sm, id_o, id_h2 = ids
        a1 = bwd("pd_op.add_grad", [one.result, o.result, gh], id_h2, [t_sh, t_sh])
        m_o = bwd("pd_op.matmul_grad", [sm.result, one.result, a1.results[1]], id_o, [t_ss, t_sh])
        d_sm = bwd("pd_op.softmax_grad", [sm.result, m_o.results[0]], id_sm, [t_ss])
        m_att = bwd("pd_op.matmul_grad", [one.result, tr.result, d_sm.result], id_att,
                    [t_sh, t_hs])
        d_tr = bwd("pd_op.transpose", [m_att.results[1]], id_tr, [t_sh], {"perm": [1, 0]})
        comb = bwd("builtin.combine", [a1.results[0], m_o.results[1], m_att.results[0],
                                       d_tr.result], None, [VectorType((t_sh,) * 4)])
        d_one = bwd("pd_op.add_n", [comb.result], None, [t_sh])
        a2 = bwd("pd_op.add_grad", [h_in, ag.result, d_one.result], id_r, [t_sh, t_sh])
        m2g = bwd("pd_op.matmul_grad", [fl.result, w2, a2.results[1]], id_m2, [t_s4h, t_w2])
        d_s = bwd("pd_op.scale", [m2g.results[0]], id_s, [t_s4h], {"bias": 0.0, "scale": 1.0})
        d_g = bwd("pd_op.gelu_grad", [t.result, d_s.result], id_g, [t_s4h],
                  {"approximate": False})
        m1g = bwd("pd_op.matmul_grad", [n.result, w1, d_g.result], id_m1, [t_sh, t_w1])
        d_n = bwd("pd_op.all_reduce", [m1g.results[0]], None, [t_sh],
                  {"reduce_type": 0, "ring_id": TP_RING})
        d_h = bwd("pd_op.rms_norm_grad", [h_in, d_n.result], id_n, [t_sh])
        gh = bwd("pd_op.add", [a2.results[0], d_h.result], None, [t_sh]).result
        b.op("pd_op.sgd_", [w1, lr, m1g.results[1]], {"op_role": 2}, [t_w1])
        b.op("pd_op.sgd_", [w2, lr, m2g.results[1]], {"op_role": 2}, [t_w2])
    b.op("builtin.shadow_output", [loss.result], {"output_name": "loss"}, [])
    return program


def summary_rulepass(program: Program) -> dict:
    """Counts that say what the pass did, comparable across the three engines."""
    out = {"ops": 0, "reduce_scatter": 0, "all_reduce": 0, "local": 0, "grad_chunk": 0,
           "tanh_gelu": 0}
    for op in program.walk():
        a = op.attributes
        out["ops"] += 1
        out["reduce_scatter"] += op.name == "pd_op.reduce_scatter"
        out["all_reduce"] += op.name == "pd_op.all_reduce"
        out["local"] += a.get("local") is True
        out["grad_chunk"] += "grad_of" in a and "chunk_id" in a
        out["tanh_gelu"] += op.name == "pd_op.gelu" and a.get("approximate") is True
    return out
