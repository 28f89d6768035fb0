"""String attributes as Paddle 3.3.1 prints them (newuser report item 7).

Measured with /work/paddle-venv (``paddle.static.data(name=...)`` then ``print(program)``):
Paddle writes every ``"`` of a string attribute as ``\\"`` and every other character as it is:
a backslash, a tab, a newline, a carriage return, control characters, NUL, non-ASCII. Its lexer
(``Lexer::LexString``) reads ``\\"`` as a quote and anything else as itself. Both program
parsers read so, and the printer writes so: ``print(parse(text)) == text`` for Paddle's text."""

import pytest

from rulepass.engine.errors import ParseError
from rulepass.engine.ir.attributes import format_string
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program

PARSERS = [parse_program, parse_program_lark]

#: (value, how Paddle 3.3.1 printed it) for ``pd_op.data``'s ``name``.
PADDLE_PRINTED = [
    ("a\\q", '"a\\q"'),
    ('C:\\new\\x"y', '"C:\\new\\x\\"y"'),
    ('q"', '"q\\""'),
    ("tab\there", '"tab\there"'),
    ("nl\nx", '"nl\nx"'),
    ("cr\rx", '"cr\rx"'),
    ("bel\x07x", '"bel\x07x"'),
    ("nul\x00x", '"nul\x00x"'),
    ("e\u00e9", '"e\u00e9"'),
    ("emoji\U0001F600", '"emoji\U0001F600"'),
    ("del\x7fx", '"del\x7fx"'),
    ('bs\\"x', '"bs\\\\"x"'),
    ("uni\u2028x", '"uni\u2028x"'),
]


def data_op(n: int, printed: str) -> str:
    """One ``pd_op.data`` line as Paddle prints it, with ``name`` printed as ``printed``."""
    return (f'    (%{n}) = "pd_op.data" () {{dtype:float32,name:{printed},place:Place(undefined:0),'
            "shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>\n")


PADDLE_TEXT = "{\n" + "".join(data_op(n, p) for n, (_, p) in enumerate(PADDLE_PRINTED)) + "}\n"


@pytest.mark.parametrize("parse", PARSERS)
def test_paddle_printed_strings_round_trip_byte_for_byte(parse):
    program = parse(PADDLE_TEXT, "p.pir")
    assert [op.attr("name") for op in program.block.ops] == [v for v, _ in PADDLE_PRINTED]
    assert print_program(program) == PADDLE_TEXT


@pytest.mark.parametrize("value, printed", PADDLE_PRINTED)
def test_the_printer_escapes_only_the_quote(value, printed):
    assert format_string(value) == printed


@pytest.mark.parametrize("parse", PARSERS)
def test_two_backslashes_stay_two(parse):
    # The report: Paddle's `a\\b` (two backslashes) was read as one.
    program = parse("{\n" + data_op(0, '"a\\\\b"') + "}\n")
    assert program.block.ops[0].attr("name") == "a\\\\b"


@pytest.mark.parametrize("parse", PARSERS)
def test_a_value_ending_in_a_backslash_does_not_read_back(parse):
    # Paddle prints `end\` as "end\", and its own lexer then reads on past the closing quote;
    # so does rulepass, and says why (docs/deviations.md).
    text = "{\n" + data_op(0, format_string("end\\")) + "}\n"
    with pytest.raises(ParseError, match=r"p\.pir:2:\d+: .*unterminated string.* ending in a "
                                         "backslash") as info:
        parse(text, "p.pir")
    assert info.value.col == text.split("\n")[1].index('"end') + 1
