"""The VPP layer layout of complete_chunk_id (engine/paddle/functions.py), tested on its own.

Cases from issue 4: 10 layers on pp4 with stages holding [3, 3, 2, 2] layers and vpp 2; 6 layers
(3 + 3) on pp2 vpp2; a stage with fewer layers than vpp is an error. Plus the captured VPP
programs and Paddle's configuration errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepass.engine.paddle.functions import (
    VppLayoutError,
    deal_layers,
    segment_of,
    stage_meshes,
    vpp_layout,
)
from rulepass.engine.ir.core import Operation
from rulepass.engine.pir.parse import parse_program

DATA = Path(__file__).parent / "data" / "paddle"


def mesh_text(rank: int) -> str:
    return f"mesh_shape:[1],process_ids:[{rank}],dims_mappings:[-1], placements:[Replicate()]"


def chain_program(layer_stages: list[int], layer_class: str = "Block") -> str:
    """A forward program: a data op on stage 0, then one relu per layer on its stage's mesh
    (stage s = rank s), with a reshard wherever the stage changes."""
    def dist_type(rank):
        return f"pd_dist.tensor<4xf32, {mesh_text(rank)}>"

    lines = ["{"]
    lines.append(
        f'    (%0) = "pd_op.data" () {{dtype:float32,name:"x",op_dist_attr:{{mesh:{{shape:[1],'
        f'process_ids:[0]}},result(0):{{{mesh_text(0)}}},chunk_id:-1}},op_role:0,'
        f'place:Place(undefined:0),shape:[4],stop_gradient:[true]}} : () -> {dist_type(0)}')
    value, stage, n = 0, 0, 1
    for i, s in enumerate(layer_stages):
        if s != stage:
            lines.append(
                f'    (%{n}) = "dist_op.reshard" (%{value}) {{op_dist_attr:{{mesh:{{shape:[2],'
                f'process_ids:[{min(s, stage)},{max(s, stage)}]}},operand(0):{{{mesh_text(stage)}}},'
                f'result(0):{{{mesh_text(s)}}},chunk_id:-1}},op_role:0,stop_gradient:[true]}} : '
                f'({dist_type(stage)}) -> {dist_type(s)}')
            value, stage, n = n, s, n + 1
        name = layer_class if i == 0 else f"{layer_class}_{i}"
        lines.append(
            f'    (%{n}) = "pd_op.relu" (%{value}) {{op_dist_attr:{{mesh:{{shape:[1],'
            f'process_ids:[{s}]}},operand(0):{{{mesh_text(s)}}},result(0):{{{mesh_text(s)}}},'
            f'chunk_id:-1}},op_role:0,stop_gradient:[true],struct_name:"/Net/{name}/"}} : '
            f'({dist_type(s)}) -> {dist_type(s)}')
        value, n = n, n + 1
    lines.append("}")
    return "\n".join(lines) + "\n"


def layer_ops(program) -> list[Operation]:
    return [op for op in program.block if op.name == "pd_op.relu"]


def test_ten_layers_pp4_vpp2_stages_3_3_2_2():
    program = parse_program(chain_program([0, 0, 0, 1, 1, 1, 2, 2, 3, 3]))
    layout = vpp_layout(program, 4, 2, "Block")
    # chunk 0 = L0-1 on stage 0, L2-3 on stage 1, L4 on stage 2, L5 on stage 3;
    # chunk 1 = L6, L7, L8, L9 on stages 0..3.
    assert layout.layer_chunk == (0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
    assert layout.layer_new_stage == (0, 0, 1, 1, 2, 3, 0, 1, 2, 3)
    assert layout.layer_stage == (0, 0, 0, 1, 1, 1, 2, 2, 3, 3)
    placed = [(layout.placement(op).chunk, layout.placement(op).mesh.process_ids)
              for op in layer_ops(program)]
    assert placed == [(0, (0,)), (0, (0,)), (0, (1,)), (0, (1,)), (0, (2,)), (0, (3,)),
                      (1, (0,)), (1, (1,)), (1, (2,)), (1, (3,))]
    assert layout.reorder


def test_six_layers_pp2_vpp2():
    program = parse_program(chain_program([0, 0, 0, 1, 1, 1]))
    layout = vpp_layout(program, 2, 2, "Block")
    # chunk 0 = L0-1 / L2-3, chunk 1 = L4 / L5.
    assert layout.layer_chunk == (0, 0, 0, 0, 1, 1)
    assert layout.layer_new_stage == (0, 0, 1, 1, 0, 1)
    # the data op (prologue) joins the first layer: chunk 0, stage 0, not moved
    data = program.block.first
    assert layout.placement(data).chunk == 0 and not layout.placement(data).moves
    # the reshard between L2 and L3 is left to the reshard rules
    reshard = next(op for op in program.block if op.name == "dist_op.reshard")
    assert layout.placement(reshard).kind == "reshard"


def test_deal_layers_directly():
    assert deal_layers([0, 0, 0, 1, 1, 1, 2, 2, 3, 3], 4, 2) == (
        [0, 0, 0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 2, 3, 0, 1, 2, 3])
    assert deal_layers([0, 0, 1, 1], 2, 2) == ([0, 0, 1, 1], [0, 1, 0, 1])


def test_stage_with_too_few_layers_is_an_error():
    program = parse_program(chain_program([0, 1, 1]))
    with pytest.raises(VppLayoutError, match="pipeline stage 0 holds 1 layer\\(s\\) but "
                                             "vpp_degree is 2"):
        vpp_layout(program, 2, 2, "Block")
    with pytest.raises(VppLayoutError, match="stage 1 holds 1"):
        deal_layers([0, 0, 1], 2, 2)


def test_paddle_configuration_errors():
    program = parse_program(chain_program([0, 0, 1, 1]))
    with pytest.raises(VppLayoutError, match="VPP needs pipeline parallelism"):
        vpp_layout(program, 1, 2, "Block")
    with pytest.raises(VppLayoutError, match="needs a seg_method"):
        vpp_layout(program, 2, 2, "")
    with pytest.raises(VppLayoutError, match="no op's struct_name matches"):
        vpp_layout(program, 2, 2, "Decoder")
    assert vpp_layout(program, 2, 1, "Block") is None


def test_decreasing_stages_keep_their_meshes():
    # layers written for stages 1, 1, 0, 0: Paddle keeps the user's meshes (no reorder)
    program = parse_program(chain_program([1, 1, 0, 0]))
    layout = vpp_layout(program, 2, 2, "Block")
    assert not layout.reorder
    assert not any(layout.placement(op).moves for op in layer_ops(program))


def test_segment_of_follows_paddle():
    op = Operation.create("pd_op.relu", attributes={"struct_name": "/PipelineMLP/MyLinear_2/Linear/"})
    assert segment_of(op, "MyLinear") == "MyLinear_2"
    assert segment_of(op, "mylinear") == "MyLinear_2"  # case-insensitive, as Paddle
    assert segment_of(op, "Decoder") is None
    assert segment_of(Operation.create("pd_op.relu"), "MyLinear") is None


@pytest.mark.parametrize("config", ["pp2_vpp2", "pp2_vpp2_localmap"])
def test_captured_programs(config):
    program = parse_program((DATA / config / "rank0" / "01_before_complete_chunk_id.pir").read_text())
    layout = vpp_layout(program, 2, 2, "MyLinear")
    assert layout.layers == ("MyLinear", "MyLinear_1", "MyLinear_2", "MyLinear_3")
    assert layout.layer_stage == (0, 0, 1, 1)
    assert layout.layer_chunk == (0, 0, 1, 1)
    assert layout.layer_new_stage == (0, 1, 0, 1)
    assert [m.process_ids for m in stage_meshes(program)] == [(0,), (1,)]
    kinds = {layout.placement(op).kind for op in program.block}
    assert kinds == ({"op", "reshard", "to_local", "local", "from_local"}
                     if config.endswith("localmap") else {"op", "reshard"})
