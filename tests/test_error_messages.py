"""Messages that named the wrong thing (breaker item 18 of issue 18): each is one located line
that says what is wrong at the place it points to."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from rulepass.cli.main import main
from rulepass.engine.errors import ParseError, RuleSyntaxError, odd_character
from rulepass.engine.lang.parse import parse_rules
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAM = '{\n    (%0) = "pd_op.full" () {value:1} : () -> tensor<1xf32>\n}\n'


@pytest.mark.parametrize("parse", [parse_program, parse_program_lark])
def test_a_no_break_space_indent_is_named(parse):
    # it said "a '}' is missing ... expected '(' ... found '('"
    with pytest.raises(ParseError) as info:
        parse(PROGRAM.replace("    (%0)", "\u00a0\u00a0\u00a0\u00a0(%0)"), "p.pir")
    assert info.value.where == "p.pir:2:1"
    assert info.value.message.startswith("a non-ASCII space U+00A0 (NO-BREAK SPACE)")


@pytest.mark.parametrize("char, what", [("\u00a0", "a non-ASCII space U+00A0"),
                                        ("\u200b", "an invisible character U+200B"),
                                        ("\ufeff", "an invisible character U+FEFF"),
                                        ("\x07", "an invisible character U+0007")])
def test_odd_characters_in_a_rule_file(char, what):
    with pytest.raises(RuleSyntaxError) as info:
        parse_rules(f"pass p {{\n  {char}rule r {{ match {{ o = pd_op.relu(x) }} "
                    "rewrite { erase o } }\n}\n", "r.rw")
    assert info.value.where == "r.rw:2:3" and info.value.message.startswith(what)
    assert odd_character("a") is None and odd_character(" ") is None
    assert odd_character("é") is None  # a letter is no odd character (names are ASCII anyway)


def test_a_stray_character_is_named_not_a_missing_brace():
    text = ("pass p(axis: int = -1) { rule r { match { o = pd_op.add(x, x) } "
            "where not has|o.same)")
    with pytest.raises(RuleSyntaxError) as info:
        parse_rules(text, "t.rw")
    assert info.value.where == "t.rw:1:78"
    assert info.value.message.startswith("unexpected character '|'")


def test_an_unquoted_type_in_a_rule_says_types_are_strings():
    text = ("pass p {\n  rule r {\n    match { o = pd_op.relu(x) }\n    rewrite {\n"
            "      y = pd_op.abs(x) : tensor<4xq32>\n      replace o with y\n      erase o\n"
            "    }\n  }\n}\n")
    with pytest.raises(RuleSyntaxError) as info:
        parse_rules(text, "t.rw")
    assert 'a type in a rule is a string: write `: "tensor<4xq32>"`' in info.value.message


def test_a_bad_dimension_in_a_type_string_points_at_it(tmp_path, capsys):
    # it said "at column 1 of the text"
    (tmp_path / "p.pir").write_text(
        '{\n    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>\n'
        '    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>\n}\n')
    (tmp_path / "r.rw").write_text(
        'pass p {\n  rule r {\n    match { o = pd_op.relu(x) }\n'
        '    rewrite { y = pd_op.abs(x) : "tensor<-7xf32>"  replace o with y  erase o }\n'
        '  }\n}\n')
    assert main(["rewrite", str(tmp_path / "p.pir"), "--pass", "p", "--rules",
                 str(tmp_path / "r.rw")]) == 1
    err = capsys.readouterr().err
    assert "dimension -7 of a tensor shape" in err and "(at column 8 of the text)" in err
    with pytest.raises(ParseError) as info:
        parse_program(PROGRAM.replace("tensor<1xf32>", "tensor<-7xf32>"), "p.pir")
    assert info.value.where == "p.pir:2:53"  # the -7, not the type's start (46)


def test_a_missing_data_array_names_data_npz_and_the_key(tmp_path, capsys):
    # it said "runtime error: rank 0 ... <input>:8"
    example = tmp_path / "mp2"
    shutil.copytree(EXAMPLES / "mp2", example)
    arrays = dict(np.load(example / "data.npz"))
    arrays.pop("label0")
    np.savez(example / "data.npz", **arrays)
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{example / 'data.npz'}: ") and "'label0'" in err
    assert "runtime error" not in err and len(err.strip().splitlines()) == 1
