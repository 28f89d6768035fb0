"""One format, one answer (issue 18): text both program parsers refuse alike — duplicate
attribute keys and process groups, a group of no ranks, negative sizes, U+00A0 indentation,
`Place({)` — and `check` of a folder without rules."""

import pytest

from rulepass.cli.main import main
from rulepass.engine.errors import ParseError
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program

OP = '    (%0) = "pd_op.full" () {attrs} : () -> {type}\n'


def program(attrs="{value:1}", type_="tensor<1xf32>", header="", extra=""):
    return header + "{\n" + OP.format(attrs=attrs, type=type_) + extra + "}\n"


CASES = {
    "duplicate attribute": (program("{value:1,value:2}"), "2:5", "attribute 'value' is given twice"),
    "duplicate kwarg attribute": (program(extra="    ^kw:\n    %kwarg_x {a:1,a:2}\n"), "4:5",
                                  "attribute 'a' is given twice"),
    "duplicate group": (program(header="process_group 0 : [0,1]\nprocess_group 0 : [0]\n"),
                        "2:15", "process_group 0 is given twice"),
    "group of no ranks": (program(header="process_group 0 : []\n"), "1:1",
                          "process_group 0 has no ranks"),
    # at the dimension (breaker item 18: a type string's error said "at column 1")
    # breaker item 20: both passed verify and print
    "rank given twice": (program(header="process_group 0 : [1,1]\n"), "1:22",
                         "process_group 0 lists rank 1 twice"),
    "negative rank": (program(header="process_group 0 : [-1]\n"), "1:20",
                      "process_group 0 has rank -1; ranks are >= 0"),
    "negative size": (program(type_="tensor<-5xf32>"), "2:53", "dimension -5"),
    "negative dist size": (program(type_="pd_dist.tensor<-2xf32, mesh_shape:[2],process_ids:"
                                         "[0,1],dims_mappings:[-1]>"), "2:61", "dimension -2"),
    "no-break space indent": (program().replace("    (%0)", "\u00a0   (%0)"), "2:1", "expected"),
    "Place with a brace": (program("{place:Place({)}"), "2:40", "expected"),
}


@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
@pytest.mark.parametrize("case", sorted(CASES))
def test_both_parsers_refuse(parse, case):
    text, where, message = CASES[case]
    with pytest.raises(ParseError, match=message) as info:
        parse(text, "p.pir")
    assert info.value.where == f"p.pir:{where}"


@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
def test_what_both_accept(parse):
    parse(program(type_="tensor<-1x0xf32>", header="process_group 0 : [0,1]\n"
                                                 "process_group 1 : [0]\n"))
    parse(program("{place:Place(gpu:0)}"))
    parse(program().replace("\n", "\r\n"))


def test_check_of_a_folder_without_rules(tmp_path, capsys):
    assert main(["check", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "no .rw rule files" in captured.out + captured.err
    assert "0 passed, 0 failed" not in captured.out
