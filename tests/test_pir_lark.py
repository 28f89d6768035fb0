"""The grammar (``grammar/pir.lark`` through ``parse_program_lark``) and the fast scanner
(``parse_program``) build the same program: differential on every captured Paddle program and on
hand-written programs using what Paddle's dumps here do not (regions, headers, comments, older
typed values)."""

import hashlib
import re
from pathlib import Path

import pytest

from rulepass.engine.pir.lark_parser import parse_program_lark, program_parser
from rulepass.engine.pir.parse import ProgramParser, parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import ELEMENT_TYPES, DenseTensorType, Partial, Shard

CORPUS = Path(__file__).parent / "data" / "paddle"


def distinct_corpus_files() -> list[Path]:
    """The ``.pir`` files under ``tests/data/paddle`` (globbed at collection), one per distinct
    text: ranks and pass stages repeat whole programs, and the grammar is ~20x slower than the fast
    scanner, so each text is compared once, under the name of its first file."""
    seen = {}
    for path in sorted(CORPUS.glob("**/*.pir")):
        seen.setdefault(hashlib.sha1(path.read_bytes()).digest(), path)
    return list(seen.values())


def fast_only(text):
    """The fast scanner alone, without its fallback to the grammar."""
    return ProgramParser(text, None).parse()


@pytest.mark.parametrize("path", distinct_corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_grammar_and_fast_parser_agree_on_corpus(path):
    text = path.read_text()
    assert print_program(parse_program_lark(text, str(path))) == print_program(fast_only(text))


REGION_PROGRAM = """\
process_group 12 : [0,1]
process_group 13 : [0,2]
{
    ^kw:
        %kwarg_linear_0.w_0@GRAD {persistable:true,place:Place(cpu)}
    (%0) = "pd_op.data" () {dtype:bool,name:"c",place:Place(undefined:0),shape:[1],stop_gradient:[true]} : () -> tensor<1xb>
    (%1) = "pd_op.full" () {dtype:float32,shape:[4,8],value:0.5} : () -> tensor<4x8xf32>
    (%2) = "pd_op.if" (%0) {stop_gradient:[true]} -> tensor<-1x8xf32> {
        (%3) = "pd_op.scale" (%1, <<NULL VALUE>>) {bias:0,scale:1e-05} : (tensor<4x8xf32>, <<NULL TYPE>>) -> tensor<-1x8xf32>
        () = "cf.yield" (%3) {} : (tensor<-1x8xf32>) -> 
    } else {
        (%4) = "pd_op.if" (%0) {} -> tensor<-1x8xf32> {
            () = "cf.yield" (%1) {} : (tensor<4x8xf32>) -> 
        }
        () = "cf.yield" (%4) {} : (tensor<-1x8xf32>) -> 
    }
    (%5) = "builtin.combine" (%1, %kwarg_linear_0.w_0@GRAD) {} : (tensor<4x8xf32>, tensor<8x16xf32>) -> vec[tensor<4x8xf32>,tensor<8x16xf32>]
    (%6, %7) = "builtin.split" (%5) {} : (vec[tensor<4x8xf32>,tensor<8x16xf32>]) -> tensor<4x8xf32>, tensor<8x16xf32>
    () = "pd_op.send_v2" (%6) {dynamic_shape:false,peer:1,ring_id:12,use_calc_stream:true} : (tensor<4x8xf32>) -> 
    (%8) = "pd_op.c_allreduce_sum" (%2) {op_dist_attr:{mesh:{shape:[2,2],process_ids:[0,1,2,3]},operand(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[-1,1], partial(0,SUM), placements:[Partial(reduce_type=SUM), Shard(dim=1)]},result(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[-1,1], placements:[Replicate(), Shard(dim=1)]},chunk_id:3},ring_id:13} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%9) = "dist_op.dtensor_to_local" (%8) {grad_dist_attr:mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1], placements:[Replicate()],op_dist_attr:{mesh:{shape:[1],process_ids:[0]},operand(0):{mesh_shape:[1],process_ids:[0],dims_mappings:[-1,-1], placements:[Replicate()]},result(0):{<#AttrNull>},chunk_id:-1}} : (tensor<-1x8xf32>) -> tensor<-1x8xf32>
    (%10) = "pd_op.split_with_num" (%9) {num:2,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[],process_ids:[],dims_mappings:[]},result(0):{[mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1],mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], placements:[Shard(dim=0)]]},chunk_id:-1},s:"a \\"quoted\\" \\\\ string",x:-inf,y:nan,z:[]} : (tensor<-1x8xf32>) -> vec[tensor<-1x8xf32>,tensor<-1x8xf32>]
}
"""


def test_region_program_round_trips_through_both_parsers():
    fast = fast_only(REGION_PROGRAM)
    assert print_program(fast) == REGION_PROGRAM
    assert print_program(parse_program_lark(REGION_PROGRAM)) == REGION_PROGRAM
    if_op = fast.ops[2]
    assert if_op.name == "pd_op.if" and len(if_op.regions) == 2
    assert [op.name for op in if_op.regions[1].ops] == ["pd_op.if", "cf.yield"]
    assert fast.process_groups == {12: (0, 1), 13: (0, 2)}
    assert fast.kwargs[0].type == DenseTensorType((8, 16), "float32")  # typed by its use
    allreduce = fast.ops[6].dist_attr
    assert allreduce.chunk_id == 3
    assert allreduce.operands[0].placements == (Partial("SUM"), Shard(1))


OLDER_DUMP = """\
# a hand-written program in the 2024 form
{
    # typed values, builtin.tensor and an op id
    (%0) = "pd_op.full" [id:7] () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(gpu:0),shape:(pd_op.IntArray)[4096,1],value:(Float)0} : () -> builtin.tensor<4096x1xbf16>

    () = "pd_op.c_allreduce_sum_" (%0) {ring_id:(Int32)36} : (builtin.tensor<4096x1xbf16>) -> 
}
# end
"""

OLDER_DUMP_PRINTED = """\
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(gpu:0),shape:[4096,1],value:0} : () -> tensor<4096x1xbf16>
    () = "pd_op.c_allreduce_sum_" (%0) {ring_id:36} : (tensor<4096x1xbf16>) -> 
}
"""


def test_older_typed_form_comments_and_op_ids():
    assert print_program(fast_only(OLDER_DUMP)) == OLDER_DUMP_PRINTED
    assert print_program(parse_program_lark(OLDER_DUMP)) == OLDER_DUMP_PRINTED


def test_grammar_accepts_other_spacing_and_parse_program_falls_back_to_it():
    spaced = REGION_PROGRAM.replace(" = ", "=").replace(", ", " , ").replace("{}", "{ }")
    with pytest.raises(Exception):
        fast_only(spaced)
    assert print_program(parse_program(spaced)) == REGION_PROGRAM


def test_grammar_element_types_are_the_ir_element_types():
    pattern = program_parser().get_terminal("ELEMENT").pattern.value
    names = re.search(r"\(\?:([^)]*)\)", pattern).group(1).split("|")
    assert sorted(names) == sorted(ELEMENT_TYPES)


def test_negative_zero_stays_a_float():
    # Found by test_pir_hypothesis: `%g` prints the float -0.0 as "-0", which read back as the
    # integer 0 and printed "0".
    text = '{\n    (%0) = "pd_op.full" () {value:-0,zero:0} : () -> tensor<f32>\n}\n'
    for parse in (fast_only, parse_program_lark):
        program = parse(text)
        value = program.ops[0].attributes["value"]
        assert isinstance(value, float) and str(value) == "-0.0"
        assert program.ops[0].attributes["zero"] == 0
        assert isinstance(program.ops[0].attributes["zero"], int)
        assert print_program(program) == text
