"""`process_group` header lines (newuser report item 14): a negative ring id is an error, text
after a header says so at its place, a number outside int64 is reported at the number; both
parsers give one answer."""

import pytest

from rulepass.engine.errors import ParseError
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program


@pytest.mark.parametrize("header, message, col", [
    ("process_group -1 : [0]", r"process_group -1: a ring id is >= 0", 1),
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
