"""Strings in `.rw` files take Python's escapes; a bad one is a located syntax error (newuser
report item 5: `ast.literal_eval` raised SyntaxError / ValueError tracebacks, and a lone surrogate
was accepted and then failed to print)."""

import pytest

from rulepass.cli import main
from rulepass.engine.errors import RuleSyntaxError
from rulepass.engine.lang.parse import parse_rules


def rules_with(string: str) -> str:
    """A one-rule file whose pattern compares attribute ``a`` with the string ``string``
    (written between the quotes as it is)."""
    return ('pass p {\n  rule r {\n    match { o = pd_op.add(x, x) {a: "' + string + '"} }\n'
            "    rewrite { erase o }\n  }\n}\n")


COLUMN = len('    match { o = pd_op.add(x, x) {a: "') + 1  # where the string's text starts


@pytest.mark.parametrize("string, offset, message", [
    ("\\x4", 0, r"bad escape `\\x4` in a string: \\x takes exactly 2 hex digits"),
    ("ab\\N{NOPE}", 2, r"bad escape `\\N\{NOPE\}` in a string: no character is named 'NOPE'"),
    ("\\u12", 0, r"bad escape `\\u12` in a string: \\u takes exactly 4 hex digits"),
    ("\\U00110000", 0, r"bad escape `\\U00110000` in a string: past U\+10FFFF"),
    ("x\\ud800", 1, r"lone surrogate U\+D800"),
    ("\\0", 0, r"may not hold a NUL character"),
    ("a\x00b", 1, r"may not hold a NUL character"),
    ("\\q", 0, r"bad escape `\\q` in a string; the escapes are"),
])
def test_a_bad_escape_is_a_located_syntax_error(string, offset, message):
    with pytest.raises(RuleSyntaxError, match=message) as info:
        parse_rules(rules_with(string), "e.rw")
    assert (info.value.file, info.value.line, info.value.col) == ("e.rw", 3, COLUMN + offset)
    assert str(info.value).startswith(f"e.rw:3:{COLUMN + offset}: ")


@pytest.mark.parametrize("string, value", [
    ("a\\nb\\t\\\\\\\"\\'", "a\nb\t\\\"'"),
    ("\\101\\x41\\u0041\\U00000041\\N{LATIN SMALL LETTER A}", "AAAAa"),
    ("\u00e9\\u00e9", "\u00e9\u00e9"),
])
def test_python_escapes_are_read(string, value):
    module = parse_rules(rules_with(string), "e.rw")
    pattern = module.items[0].rules[0].match.patterns[0]
    assert pattern.attrs[0].value.value.value == value


def test_a_nul_in_a_text_block_is_located():
    text = 'test t {\n  run p\n  input """\n  {\n  a\x00\n  }\n  """\n  expect unchanged\n}\n'
    with pytest.raises(RuleSyntaxError, match="NUL") as info:
        parse_rules(text, "e.rw")
    assert (info.value.line, info.value.col) == (5, 4)


def test_check_says_where_the_bad_escape_is(tmp_path, capsys):
    (tmp_path / "e.rw").write_text(rules_with("\\x4"))
    assert main(["check", str(tmp_path / "e.rw")]) == 1
    captured = capsys.readouterr()
    err = captured.out + captured.err
    assert f"e.rw:3:{COLUMN}: syntax error: bad escape `\\x4`" in err
    assert "Traceback" not in err


def test_a_raw_nul_is_shown_escaped_under_the_caret(tmp_path, capsys):
    # breaker 2 item 9: the message echoed the line with the raw NUL byte
    (tmp_path / "e.rw").write_text(rules_with("a\x00\x1bb"))
    assert main(["check", str(tmp_path / "e.rw")]) == 1
    captured = capsys.readouterr()
    err = captured.out + captured.err
    assert f"e.rw:3:{COLUMN + 1}: syntax error: a string may not hold a NUL character" in err
    assert "\x00" not in err and "\x1b" not in err
    lines = err.splitlines()
    shown = next(k for k, line in enumerate(lines) if 'a\\x00\\x1bb"' in line)
    caret = lines[shown + 1].index("^")
    assert lines[shown][caret:caret + 4] == "\\x00"
