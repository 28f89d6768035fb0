"""What bench/engine.py and its yardsticks (``yardstick_xdsl.py``, ``yardstick_tinygrad.py``)
share: the workload's process groups and rank, and the 44 decoy rules, as a table each port
writes in its own library's idiom."""

#: Ring ids: the tensor-parallel group of ranks 0 and 1, and a one-rank group.
TP_RING, SOLO_RING = 12, 7
GROUPS = {TP_RING: (0, 1), SOLO_RING: (0,)}
RANK = 0

#: Op names the workload never has: a decoy ``o = NAME(x) {op_role: r} where uses(o) > 0 and
#: r == 0`` on each.
ABSENT_OPS = ["pd_op.conv2d", "pd_op.flash_attn", "pd_op.embedding", "pd_op.dropout",
              "pd_op.layer_norm", "pd_op.relu", "pd_op.tanh", "pd_op.sigmoid", "pd_op.reshape",
              "pd_op.concat", "pd_op.c_identity", "pd_op.broadcast", "pd_op.send_v2",
              "pd_op.recv_v2", "pd_op.cast", "pd_op.fused_gemm_epilogue", "pd_op.squeeze",
              "pd_op.unsqueeze", "pd_op.where", "pd_op.pow", "pd_op.exp", "pd_op.adamw_"]

#: Decoys on op names the workload has, false there: (pattern, where, root op name).
PRESENT = [
    ("pd_op.matmul {transpose_x: true}", "true", "pd_op.matmul"),
    ("pd_op.matmul {transpose_y: true}", "true", "pd_op.matmul"),
    ("pd_op.matmul(pd_op.transpose(_), _)", "true", "pd_op.matmul"),
    ("pd_op.matmul", "uses(o) > 1000", "pd_op.matmul"),
    ("pd_op.add(x, x)", "true", "pd_op.add"),
    ("pd_op.add", "has(o.decoy)", "pd_op.add"),
    ("pd_op.all_reduce {reduce_type: 1}", "true", "pd_op.all_reduce"),
    ("pd_op.all_reduce {ring_id: 99}", "true", "pd_op.all_reduce"),
    ("pd_op.softmax {axis: 0}", "true", "pd_op.softmax"),
    ("pd_op.gelu", "has(o.decoy)", "pd_op.gelu"),
    ("pd_op.scale {scale: 2.0}", "true", "pd_op.scale"),
    ("pd_op.transpose {perm: [0, 1]}", "true", "pd_op.transpose"),
    ("pd_op.rms_norm", "uses(o) == 0", "pd_op.rms_norm"),
    ('builtin.parameter {parameter_name: "none"}', "true", "builtin.parameter"),
    ("pd_op.split_with_num {num: 3}", "true", "pd_op.split_with_num"),
    ("builtin.slice {index: 5}", "true", "builtin.slice"),
    ("pd_op.all_gather {nranks: 8}", "true", "pd_op.all_gather"),
    ("pd_op.matmul_grad", "has(o.decoy)", "pd_op.matmul_grad"),
    ("pd_op.add_grad", "len(operands(o)) > 5", "pd_op.add_grad"),
    ("pd_op.sgd_ {op_role: 0}", "true", "pd_op.sgd_"),
    ("pd_op.add_n", "has(o.decoy)", "pd_op.add_n"),
    ("dist_op.dtensor_to_local", "has(o.decoy)", "dist_op.dtensor_to_local"),
]
