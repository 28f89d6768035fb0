"""Paddle's text for global-mesh programs (PR #69628): a reshard onto a 1-D stage mesh prints
``placements:[Replicate(), Replicate()]`` with one dims_mapping entry (``dist.parallelize``'s
pipeline pre-hook hard-codes two placements). Both parsers read it, the printer writes it back
byte for byte, equality sees it (as Paddle's does), and ``verify`` warns about it."""

import pytest

from rulepass.engine.errors import ParseError
from rulepass.engine.ir.types import Replicate
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.pir.verify import verify

G = "pd_dist.tensor<8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]>"
S2 = ("pd_dist.tensor<8xf32, mesh_shape:[1],process_ids:[0],dims_mappings:[-1], "
      "placements:[Replicate(), Replicate()]>")
S1 = "pd_dist.tensor<8xf32, mesh_shape:[1],process_ids:[0],dims_mappings:[-1], placements:[Replicate()]>"

PROGRAM = f"""{{
    (%0) = "pd_op.full" () {{dtype:float32,op_dist_attr:{{mesh:{{shape:[2],process_ids:[0,1]}},result(0):{{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]}},chunk_id:-1}},op_role:0,place:Place(undefined:0),shape:[8],stop_gradient:[true],struct_name:"/Net/GlobalNet/",value:0.5}} : () -> {G}
    (%1) = "dist_op.reshard" (%0) {{op_dist_attr:{{mesh:{{shape:[2],process_ids:[0,1]}},operand(0):{{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]}},result(0):{{mesh_shape:[1],process_ids:[0],dims_mappings:[-1], placements:[Replicate(), Replicate()]}},chunk_id:-1}},op_role:0,stop_gradient:[true],struct_name:"/Net/"}} : ({G}) -> {S2}
    (%2) = "pd_op.relu" (%1) {{op_dist_attr:{{mesh:{{shape:[1],process_ids:[0]}},operand(0):{{mesh_shape:[1],process_ids:[0],dims_mappings:[-1], placements:[Replicate()]}},result(0):{{mesh_shape:[1],process_ids:[0],dims_mappings:[-1], placements:[Replicate()]}},chunk_id:-1}},op_role:0,stop_gradient:[true]}} : ({S2}) -> {S1}
}}
"""


@pytest.mark.parametrize("parse", [parse_program, parse_program_lark], ids=["fast", "lark"])
def test_two_placements_on_a_1d_mesh_reprint_byte_for_byte(parse):
    program = parse(PROGRAM)
    assert print_program(program) == PROGRAM
    reshard = list(program.block)[1]
    t = reshard.results[0].type
    assert t.placements == (Replicate(),)
    assert t.dist.printed_placements == (Replicate(), Replicate())
    # Paddle's equality sees the stored placements: the relu's operand entry differs from the value
    relu = list(program.block)[2]
    assert relu.dist_attr.operands[0] != t.dist
    assert relu.dist_attr.operands[0] == t.dist.normalized()


def test_both_parsers_give_one_answer():
    assert print_program(parse_program(PROGRAM)) == print_program(parse_program_lark(PROGRAM))
    assert parse_program(PROGRAM).block.ops[1].results[0].type == \
        parse_program_lark(PROGRAM).block.ops[1].results[0].type


def test_verify_warns_about_the_extra_placement():
    warnings = verify(parse_program(PROGRAM))
    assert len(warnings) == 1
    assert "dist_op.reshard: result 0's type lists 2 placements for a 1-D process mesh" in warnings[0]
    assert warnings[0].startswith("warning: ")


@pytest.mark.parametrize("parse", [parse_program, parse_program_lark], ids=["fast", "lark"])
def test_an_extra_placement_other_than_replicate_is_an_error(parse):
    text = PROGRAM.replace("placements:[Replicate(), Replicate()]}", "placements:[Replicate(), Shard(dim=0)]}")
    with pytest.raises(ParseError, match="placements"):
        parse(text)
