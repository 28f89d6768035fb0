"""``rulepass/micro_batches.py``: the micro-batch followed through the ops of a model, the shapes it
rescales, the constants it rewrites and the ops it refuses (issue: seed_pp4 captured with 2
micro-batches for 4 stages runs with --micro-batches 4)."""

from __future__ import annotations

import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.example import ExampleError
from rulepass.micro_batches import UNKNOWN, batch_positions, rebatch

DATA = ('(%0) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(undefined:0),shape:[2,4],'
        'stop_gradient:[true]} : () -> tensor<2x4xi64>')


def ints(n, values):
    return (f'(%{n}) = "pd_op.full_int_array" () {{dtype:int64,place:Place(cpu),'
            f'stop_gradient:[true],value:[{",".join(map(str, values))}]}} : () -> '
            f'tensor<{len(values)}xi64>')


def program(*lines):
    return parse_program("{\n" + "\n".join("    " + line for line in lines) + "\n}\n", "t.pir")


# An attention block of the seed LLaMA: embedding, heads by reshape [0, 0, 2, 4] and transpose,
# q @ k^T (both operands batched), softmax, back to [-1, 4, 8], a mean loss.
ATTENTION = [
    '(%1) = "builtin.parameter" () {parameter_name:"w",stop_gradient:[false]} : () -> tensor<16x8xf32>',
    DATA,
    '(%2) = "pd_op.embedding" (%0, %1) {padding_idx:-1,sparse:false,stop_gradient:[false]} : (tensor<2x4xi64>, tensor<16x8xf32>) -> tensor<2x4x8xf32>',
    ints(3, [0, 0, 2, 4]),
    '(%4) = "pd_op.reshape" (%2, %3) {stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<4xi64>) -> tensor<2x4x2x4xf32>',
    '(%5) = "pd_op.transpose" (%4) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x4x2x4xf32>) -> tensor<2x2x4x4xf32>',
    '(%6) = "pd_op.matmul" (%5, %5) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>',
    '(%7) = "pd_op.softmax" (%6) {axis:-1,stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>',
    '(%8) = "pd_op.transpose" (%7) {perm:[0,2,1,3],stop_gradient:[false]} : (tensor<2x2x4x4xf32>) -> tensor<2x4x2x4xf32>',
    ints(9, [-1, 4, 8]),
    '(%10) = "pd_op.reshape" (%8, %9) {stop_gradient:[false]} : (tensor<2x4x2x4xf32>, tensor<3xi64>) -> tensor<2x4x8xf32>',
    ints(11, []),
    '(%12) = "pd_op.mean" (%10, %11) {keepdim:false,stop_gradient:[false]} : (tensor<2x4x8xf32>, tensor<0xi64>) -> tensor<f32>',
]


def shapes(p):
    return [tuple(op.results[0].type.shape) for op in p.ops if op.results]


def test_the_batch_is_followed_through_attention():
    p = program(*ATTENTION)
    rebatch(p, 2, 1)
    assert shapes(p)[2:] == [(1, 4, 8), (4,), (1, 4, 2, 4), (1, 2, 4, 4), (1, 2, 4, 4),
                             (1, 2, 4, 4), (1, 4, 2, 4), (3,), (1, 4, 8), (0,), ()]
    assert tuple(p.ops[1].attr("shape")) == (1, 4)


def test_a_merged_batch_keeps_its_inner_factor_and_spelled_out_sizes_are_rewritten():
    p = program(
        '(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,4,8],stop_gradient:[true]} : () -> tensor<2x4x8xf32>',
        '(%1) = "pd_op.flatten" (%0) {start_axis:0,stop_axis:1,stop_gradient:[true]} : (tensor<2x4x8xf32>) -> tensor<8x8xf32>',
        ints(2, [2, 4, 8]),
        '(%3) = "pd_op.reshape" (%1, %2) {stop_gradient:[true]} : (tensor<8x8xf32>, tensor<3xi64>) -> tensor<2x4x8xf32>',
        '(%4) = "pd_op.reshape" (%3, %2) {stop_gradient:[true]} : (tensor<2x4x8xf32>, tensor<3xi64>) -> tensor<2x4x8xf32>',
    )
    rebatch(p, 2, 4)
    flat, first, second = (op for op in p.ops if op.name in ("pd_op.flatten", "pd_op.reshape"))
    assert tuple(flat.result.type.shape) == (16, 8)
    assert tuple(first.result.type.shape) == (4, 4, 8)
    assert tuple(second.result.type.shape) == (4, 4, 8)
    # the shared [2, 4, 8] was copied before being rewritten for each reader
    assert first.operand(1).owner.attr("value") == (4, 4, 8)
    assert second.operand(1).owner.attr("value") == (4, 4, 8)
    assert first.operand(1) is not second.operand(1)


@pytest.mark.parametrize("line, why", [
    ('(%2) = "pd_op.matmul" (%0, %1) {stop_gradient:[true],transpose_x:true,transpose_y:false} : (tensor<2x8xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>',
     "the micro-batch is in a contracted dim of x"),
    ('(%2) = "pd_op.add" (%0, %1) {stop_gradient:[true]} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>',
     "operand 1 is not computed from the inputs but has size 2"),
    ('(%2) = "pd_op.cumsum" (%0, %3) {stop_gradient:[true]} : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x8xf32>',
     "it works along the micro-batch dim"),
])
def test_what_cannot_be_followed_is_refused_naming_the_op(line, why):
    shaped = "tensor<2x3xf32>" if "transpose_x:true" in line else "tensor<2x8xf32>"
    p = program(
        '(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>',
        f'(%1) = "builtin.parameter" () {{parameter_name:"c",stop_gradient:[true]}} : () -> {shaped}',
        ints(3, [0]),
        line,
    )
    name = line.split('"')[1]
    with pytest.raises(ExampleError, match=f"{name}: {why}"):
        rebatch(p, 2, 4)


def test_batch_positions_leave_the_program_alone_and_mark_what_they_cannot_follow():
    p = program(*ATTENTION)
    before = shapes(p)
    positions = batch_positions(p, 2)
    assert shapes(p) == before
    ops = p.ops
    assert positions[ops[5].result] == (0, 1)   # after the transpose
    assert positions[ops[10].result] == (0, 1)  # [-1, 4, 8]
    assert ops[12].result not in positions      # the loss
    q = program(
        '(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>',
        '(%1) = "pd_op.logsumexp" (%0) {stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2xf32>',
        '(%2) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>',
    )
    positions = batch_positions(q, 2)
    assert positions[q.ops[1].result] == UNKNOWN and positions[q.ops[2].result] == UNKNOWN
