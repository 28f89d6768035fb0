"""The cases from public bug reports that issue 4 lists, each with its right value written out.

- grad_chunk: pp2 vpp2, layer 0's output read by layers 1 and 2 (a skip connection): the add_n
  summing both grads gets chunk 0, the chunk of the forward op whose output it accumulates.
- complete_chunk_id: 10 layers on pp4 vpp2 with stages holding [3, 3, 2, 2] layers; 6 layers on
  pp2 vpp2; a stage with fewer layers than vpp is an error.
- sp_fusion: an all_reduce(SUM) whose result also feeds a matmul is not fused and computes the
  same numbers; all_reduce(MAX) + split is not fused; a split on axis 1 of a [2, 4] sum over 2 ranks
  gives rank 0 columns 0-1 and rank 1 columns 2-3 (never rows); the fused form computes what the
  unfused one does.
- drop_trivial_comm then sp_fusion: all_reduce + split over a one-rank group (dp2, mp1): the
  collective disappears and values pass through.

Numbers are computed by running each rank's program with rulepass's executor on threads.
"""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.engine.api import load_rules
from rulepass.engine.errors import RewriteError
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from test_passes_vpp_layout import chain_program  # pytest puts tests/ on sys.path

from pathlib import Path

RULES = Path(__file__).parent.parent / "rules"  # paddle.rw includes every pass tested here


@pytest.fixture(scope="module")
def rules():
    return load_rules([RULES / "paddle.rw"])


def ops_named(program, name):
    return [op for op in program.walk() if op.name == name]


# ---- grad_chunk ---------------------------------------------------------------------------

SKIP_CONNECTION = """{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_dist_attr:{mesh:{shape:[1],process_ids:[0]},chunk_id:0},op_role:0,place:Place(undefined:0),shape:[4],stop_gradient:[false]} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},chunk_id:0},op_id:0,op_role:0,stop_gradient:[false],struct_name:"/Net/Layer/"} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {op_dist_attr:{mesh:{shape:[1],process_ids:[1]},chunk_id:0},op_id:1,op_role:0,stop_gradient:[false],struct_name:"/Net/Layer_1/"} : (tensor<4xf32>) -> tensor<4xf32>
    (%3) = "pd_op.add" (%2, %1) {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},chunk_id:1},op_id:2,op_role:0,stop_gradient:[false],struct_name:"/Net/Layer_2/"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%4) = "pd_op.full" () {dtype:float32,op_role:1,place:Place(cpu),shape:[4],stop_gradient:[true],value:1} : () -> tensor<4xf32>
    (%5, %6) = "pd_op.add_grad" (%2, %1, %4) {axis:-1,grad_of:2,op_dist_attr:{mesh:{shape:[1],process_ids:[0]},chunk_id:-1},op_role:1,stop_gradient:[false,false]} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
    (%7) = "pd_op.relu_grad" (%2, %5) {grad_of:1,op_dist_attr:{mesh:{shape:[1],process_ids:[1]},chunk_id:-1},op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    (%8) = "builtin.combine" (%7, %6) {grad_of:0,op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> vec[tensor<4xf32>,tensor<4xf32>]
    (%9) = "pd_op.add_n" (%8) {grad_of:0,op_dist_attr:{mesh:{shape:[1],process_ids:[0]},chunk_id:-1},op_role:1,stop_gradient:[false]} : (vec[tensor<4xf32>,tensor<4xf32>]) -> tensor<4xf32>
    (%10) = "pd_op.relu_grad" (%1, %9) {grad_of:0,op_dist_attr:{mesh:{shape:[1],process_ids:[0]},chunk_id:-1},op_role:1,stop_gradient:[false]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
}
"""


def test_skip_connection_add_n_gets_chunk_0(rules):
    program = parse_program(SKIP_CONNECTION)
    rules.run_pass(program, "grad_chunk")
    (add_n,) = ops_named(program, "pd_op.add_n")
    assert add_n.dist_attr.chunk_id == 0  # not 1, the chunk of layer 2 that reads layer 0 too
    chunks = {op.name + str(op.attributes["grad_of"]): op.dist_attr.chunk_id
              for op in program.walk() if "grad_of" in op.attributes and op.dist_attr}
    assert chunks == {"pd_op.add_grad2": 1, "pd_op.relu_grad1": 0, "pd_op.add_n0": 0,
                      "pd_op.relu_grad0": 0}


# ---- complete_chunk_id ------------------------------------------------------------------------

def layer_placements(program):
    return [(op.dist_attr.chunk_id, op.dist_attr.mesh.process_ids)
            for op in program.walk() if op.name == "pd_op.relu"]


def test_ten_layers_pp4_vpp2(rules):
    program = parse_program(chain_program([0, 0, 0, 1, 1, 1, 2, 2, 3, 3]))
    rules.run_pass(program, "complete_chunk_id", pp_degree=4, vpp_degree=2, seg_method="Block")
    # chunk 0 = L0-1 on stage 0, L2-3 on stage 1, L4 on stage 2, L5 on stage 3;
    # chunk 1 = L6, L7, L8, L9 on stages 0..3 (stage s is rank s here)
    assert layer_placements(program) == [
        (0, (0,)), (0, (0,)), (0, (1,)), (0, (1,)), (0, (2,)), (0, (3,)),
        (1, (0,)), (1, (1,)), (1, (2,)), (1, (3,))]
    # every value crossing stages goes through a reshard from the producer's mesh to the reader's
    for op in program.walk():
        if op.name == "pd_op.relu":
            (value,) = op.operands
            assert value.type.dist.mesh == op.dist_attr.mesh
    print_program(parse_program(print_program(program)))  # still parses


def test_six_layers_pp2_vpp2(rules):
    program = parse_program(chain_program([0, 0, 0, 1, 1, 1]))
    rules.run_pass(program, "complete_chunk_id", pp_degree=2, vpp_degree=2, seg_method="Block")
    # chunk 0 = L0-1 / L2-3, chunk 1 = L4 / L5
    assert layer_placements(program) == [(0, (0,)), (0, (0,)), (0, (1,)), (0, (1,)),
                                         (1, (0,)), (1, (1,))]


def test_stage_with_fewer_layers_than_vpp_is_an_error(rules):
    program = parse_program(chain_program([0, 1, 1]))
    before = print_program(program)
    with pytest.raises(RewriteError, match="pipeline stage 0 holds 1 layer"):
        rules.run_pass(program, "complete_chunk_id", pp_degree=2, vpp_degree=2,
                       seg_method="Block")
    assert print_program(program) == before  # a failed pass leaves its input as it was


# ---- sp_fusion: numbers ---------------------------------------------------------------------

def run_ranks_program(text: str, feeds_per_rank: list[dict]) -> list[dict]:
    """Run `text` (a dense program with a process-group header) on len(feeds_per_rank) ranks."""
    from rulepass.runtime.comm.local import run_ranks
    from rulepass.runtime.executor import Executor

    def body(comm):
        program = parse_program(text)
        executor = Executor(program, rank=comm.rank, communicator=comm)
        return executor.run(feeds=feeds_per_rank[comm.rank])

    return run_ranks(len(feeds_per_rank), body)


def sum_split_program(shape, axis, reduce_type=0, also_matmul=False, keep=1) -> str:
    rows, cols = shape
    piece = (rows // 2, cols) if axis == 0 else (rows, cols // 2)
    p = f"{piece[0]}x{piece[1]}xf32"
    t = f"{rows}x{cols}xf32"
    lines = [
        "process_group 12 : [0,1]",
        "{",
        f'    (%0) = "pd_op.data" () {{dtype:float32,name:"x",place:Place(undefined:0),shape:[{rows},{cols}],stop_gradient:[true]}} : () -> tensor<{t}>',
        f'    (%1) = "pd_op.all_reduce" (%0) {{op_role:0,reduce_type:{reduce_type},ring_id:12,stop_gradient:[true]}} : (tensor<{t}>) -> tensor<{t}>',
        f'    (%2) = "pd_op.full" () {{dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:{axis}}} : () -> tensor<1xi32>',
        f'    (%3) = "pd_op.split_with_num" (%1, %2) {{num:2,stop_gradient:[true]}} : (tensor<{t}>, tensor<1xi32>) -> vec[tensor<{p}>,tensor<{p}>]',
        f'    (%4, %5) = "builtin.split" (%3) {{stop_gradient:[true,true]}} : (vec[tensor<{p}>,tensor<{p}>]) -> tensor<{p}>, tensor<{p}>',
        f'    (%6) = "pd_op.relu" (%{4 + keep}) {{stop_gradient:[true]}} : (tensor<{p}>) -> tensor<{p}>',
        '    () = "builtin.shadow_output" (%6) {output_name:"piece"} : (tensor<' + p + '>) -> ',
    ]
    if also_matmul:
        lines.append(f'    (%7) = "pd_op.matmul" (%1, %0) {{stop_gradient:[true],transpose_x:false,transpose_y:true}} : (tensor<{t}>, tensor<{t}>) -> tensor<{rows}x{rows}xf32>')
        lines.append(f'    () = "builtin.shadow_output" (%7) {{output_name:"product"}} : (tensor<{rows}x{rows}xf32>) -> ')
    lines.append("}")
    return "\n".join(lines) + "\n"


def fuse(rules, text: str, rank: int) -> str:
    program = parse_program(text)
    rules.run_pass(program, "sp_fusion", rank=rank)
    return print_program(program)


def feeds(shape):
    rng = np.random.default_rng(4)
    return [{"x": rng.standard_normal(shape).astype("float32")} for _ in range(2)]


def test_fused_reduce_scatter_computes_the_same_numbers(rules):
    xs = feeds((4, 4))
    total = xs[0]["x"] + xs[1]["x"]
    for rank in (0, 1):
        program_text = sum_split_program((4, 4), axis=0, keep=rank)
        fused = fuse(rules, program_text, rank)
        assert "pd_op.reduce_scatter" in fused and "pd_op.all_reduce" not in fused
        out = run_ranks_program(fused, xs)[rank]["piece"]
        np.testing.assert_allclose(out, np.maximum(total[2 * rank:2 * rank + 2], 0), rtol=1e-6)
        unfused = run_ranks_program(program_text, xs)[rank]["piece"]
        np.testing.assert_allclose(out, unfused, rtol=1e-6)


def test_sum_also_read_by_matmul_is_not_fused_numbers_unchanged(rules):
    text = sum_split_program((4, 4), axis=0, also_matmul=True)
    assert fuse(rules, text, 1) == text
    xs = feeds((4, 4))
    total = xs[0]["x"] + xs[1]["x"]
    out = run_ranks_program(text, xs)
    np.testing.assert_allclose(out[1]["product"], total @ xs[1]["x"].T, rtol=1e-5)
    np.testing.assert_allclose(out[1]["piece"], np.maximum(total[2:4], 0), rtol=1e-6)


def test_max_reduction_is_not_fused(rules):
    text = sum_split_program((4, 4), axis=0, reduce_type=1)
    assert fuse(rules, text, 1) == text


def test_split_on_axis_1_gives_columns_never_rows(rules):
    xs = feeds((2, 4))
    total = xs[0]["x"] + xs[1]["x"]
    for rank in (0, 1):
        text = sum_split_program((2, 4), axis=1, keep=rank)
        after = fuse(rules, text, rank)
        assert after == text  # not fused: a reduce_scatter would scatter rows
        out = run_ranks_program(after, xs)[rank]["piece"]
        # rank 0 gets columns 0-1, rank 1 columns 2-3
        np.testing.assert_allclose(out, np.maximum(total[:, 2 * rank:2 * rank + 2], 0), rtol=1e-6)


def test_one_rank_group_collective_disappears(rules):
    text = """process_group 5 : [1]
{
    (%0) = "pd_op.data" () {chunk_id:-1,dtype:float32,name:"x",op_role:0,place:Place(undefined:0),shape:[4,4],stop_gradient:[true]} : () -> tensor<4x4xf32>
    (%1) = "pd_op.all_reduce" (%0) {chunk_id:-1,op_role:0,reduce_type:0,ring_id:5,stop_gradient:[true]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    (%2) = "pd_op.full" () {chunk_id:-1,dtype:int32,op_role:0,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi32>
    (%3) = "pd_op.split_with_num" (%1, %2) {chunk_id:-1,num:1,op_role:0,stop_gradient:[true]} : (tensor<4x4xf32>, tensor<1xi32>) -> vec[tensor<4x4xf32>]
    (%4) = "builtin.split" (%3) {stop_gradient:[true]} : (vec[tensor<4x4xf32>]) -> tensor<4x4xf32>
    () = "builtin.shadow_output" (%4) {output_name:"y"} : (tensor<4x4xf32>) -> 
}
"""
    program = parse_program(text)
    rules.run_pass(program, "drop_trivial_comm")
    rules.run_pass(program, "sp_fusion", rank=1)
    names = [op.name for op in program.walk()]
    assert "pd_op.all_reduce" not in names and "pd_op.reduce_scatter" not in names
    (split,) = ops_named(program, "pd_op.split_with_num")
    assert split.operand(0) is program.block.first.result  # the split reads x directly
    x = np.arange(16, dtype="float32").reshape(4, 4)
    from rulepass.runtime.executor import Executor

    out = Executor(program, rank=1).run(feeds={"x": x})
    np.testing.assert_array_equal(out["y"], x)  # values pass through
