"""engine/toml_text.py: TOML text with every refusal one located TomlError, decided by one scan
that skips strings and comments (a review: the nesting limit depended on the caller's stack, and
brackets or digits inside a string were counted)."""

import pytest

from rulepass.engine.toml_text import TomlError, parse_toml


def error_of(text: str) -> TomlError:
    with pytest.raises(TomlError) as caught:
        parse_toml(text)
    return caught.value


def test_nesting_is_refused_past_100_levels_wherever_it_is_called():
    assert parse_toml("x = " + "[" * 100 + "]" * 100)["x"]
    error = error_of("a = 1\nx = " + "[" * 101 + "]" * 101)
    assert (error.line, error.col) == (2, 105) and "more than 100 deep" in error.message

    def deep(k):  # the same text, called 700 frames down, gets the same answer
        return deep(k - 1) if k else parse_toml("x = " + "[" * 150 + "]" * 150)

    with pytest.raises(TomlError, match="more than 100 deep"):
        deep(700)


def test_brackets_digits_and_quotes_inside_strings_and_comments_do_not_count():
    text = ('s = "' + "[" * 150 + '\\" ' + "9" * 5000 + '"\n'
            "t = '''a # [[[\n" + "{" * 200 + "'''\n"
            "u = \"x\\\"[\" # " + "[" * 300 + "\n")
    parsed = parse_toml(text)
    assert parsed["s"].startswith("[[[") and parsed["u"] == 'x"['


def test_a_long_integer_is_located_at_its_first_digit_not_in_a_string():
    error = error_of('s = "' + "9" * 5000 + '"\nn = ' + "9" * 5000 + "\n")
    assert (error.line, error.col) == (2, 5) and "more than 4,300 digits" in error.message
    assert parse_toml("f = 0." + "1" * 5000)["f"] == pytest.approx(1 / 9)  # a float: read


def test_syntax_errors_keep_tomllibs_position():
    error = error_of("a = = 1")
    assert (error.line, error.col) == (1, 5) and str(error) == "Invalid value (at line 1, column 5)"
    assert error_of("a = [1,").line is None
