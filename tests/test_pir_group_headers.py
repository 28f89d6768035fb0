"""`process_group` header lines (newuser report item 14): a negative ring id is an error, text
after a header says so at its place, a number outside int64 is reported at the number; both
parsers give one answer."""

import pytest

from rulepass.engine.errors import ParseError
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program


@pytest.mark.parametrize("header, message, col", [
    ("process_group -1 : [0]", r"process_group -1: a ring id is >= 0", 15),
    ("  process_group 0 : [0,1] extra", r"text after a process group header, which is "
     r"`process_group RING_ID : \[r0,r1,...\]` alone on its line: .*found 'extra'", 27),
    ("process_group 0 : [0, 99999999999999999999]", r"integer 99999999999999999999 is outside "
     "int64", 23),
    ("process_group 0 : [1,2,-99999999999999999999 ]", r"integer -99999999999999999999 is outside "
     "int64", 24),
    ("process_group 99999999999999999999 : [0]", r"integer 99999999999999999999 is outside int64",
     15),
])
@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
def test_a_bad_header_is_located(parse, header, message, col):
    with pytest.raises(ParseError, match=message) as info:
        parse(header + "\n{\n}\n", "p.pir")
    assert (info.value.line, info.value.col) == (1, col)


@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
def test_ring_id_zero_is_fine(parse):
    assert parse("process_group 0 : [0,1]\n{\n}\n").process_groups == {0: (0, 1)}


@pytest.mark.parametrize("header, message, col", [
    # breaker 2 item 8: the fast parser took a trailing comma, the grammar does not
    ("process_group 0 : [0,1,]", r"expected a list of integers like \[0,1\]", 19),
    ("process_group 0 : [,0]", r"expected a list of integers like \[0,1\]", 19),
    ("process_group 0 : [0 1]", r"expected a list of integers like \[0,1\]", 19),
    # breaker 2 item 9: located at the number at fault, not at the line's start
    ("process_group -1 : [0]", r"process_group -1: a ring id is >= 0", 15),
    ("  process_group 3 : [0, -2]", r"process_group 3 has rank -2; ranks are >= 0", 25),
    ("process_group 0 : [0,1,1]", r"process_group 0 lists rank 1 twice", 24),
    ("process_group 0 : [0]\nprocess_group  0 : [1]", r"process_group 0 is given twice", 16),
])
@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
def test_both_parsers_refuse_a_header_alike(parse, header, message, col):
    with pytest.raises(ParseError, match=message) as info:
        parse(header + "\n{\n}\n", "p.pir")
    assert (info.value.line, info.value.col) == (header.count("\n") + 1, col)


_OP = ('    (%0) = "pd_op.full" () {shape:[2,3]} : () -> '
       'pd_dist.tensor<2x3xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>\n')


@pytest.mark.parametrize("old, new", [
    ("shape:[2,3]", "shape:[2,3,]"),  # an attribute array
    ("mesh_shape:[2]", "mesh_shape:[2,]"),  # a dist attribute's integer list
    ("process_ids:[0,1]", "process_ids:[0,1,]"),
    ("dims_mappings:[-1,-1]", "dims_mappings:[-1,-1,]"),
])
@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
def test_no_list_takes_a_trailing_comma(parse, old, new):
    parse("{\n" + _OP + "}\n")  # as written: fine
    with pytest.raises(ParseError) as info:
        parse("{\n" + _OP.replace(old, new) + "}\n")
    assert info.value.line == 2
