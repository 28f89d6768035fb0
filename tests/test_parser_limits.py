"""engine/limits.py: nesting and integer limits the fast and the lark program parsers and the
rule parser share (issue 18: RecursionError, int-string ValueError, a crash in lark's syntax-error
explainer)."""

import pytest

from rulepass.cli.main import main
from rulepass.engine.errors import ParseError, RuleSyntaxError
from rulepass.engine.lang.parse import parse_rules
from rulepass.engine.limits import INT64_MAX, INT64_MIN, MAX_NESTING, LimitExceeded, int64
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program

PARSERS = [parse_program, parse_program_lark]


def program(attr="1", result_type="tensor<1xf32>"):
    return ('{\n    (%0) = "pd_op.full" () {value:' + attr + '} : () -> ' + result_type
            + '\n}\n')


def nested(depth):
    return "[" * depth + "1" + "]" * depth


@pytest.mark.parametrize("parse", PARSERS)
def test_attribute_nesting_limit(parse):
    parse(program(nested(MAX_NESTING)))
    for depth in (MAX_NESTING + 1, 900, 10_000):
        with pytest.raises(ParseError, match="nests more than 100 levels") as info:
            parse(program(nested(depth)), "p.pir")
        # both parsers name the bracket that opens level 101
        assert info.value.where == f"p.pir:2:{34 + MAX_NESTING + 1}"


@pytest.mark.parametrize("parse", PARSERS)
def test_vector_type_nesting_limit(parse):
    parse(program(result_type="vec[" * MAX_NESTING + "tensor<1xf32>" + "]" * MAX_NESTING))
    for depth in (MAX_NESTING + 1, 10_000):
        with pytest.raises(ParseError, match="nests more than 100 levels"):
            parse(program(result_type="vec[" * depth + "tensor<1xf32>" + "]" * depth))


def test_deep_program_is_one_line_from_print_and_verify(tmp_path, capsys):
    # 700 deep used to pass verify and crash the printer; 10,000 crashed the parser.
    for depth in (700, 10_000):
        f = tmp_path / "deep.pir"
        f.write_text(program(nested(depth)))
        for command in ("print", "verify"):
            assert main([command, str(f)]) == 1
            err = capsys.readouterr().err
            assert err.startswith(f"{f}:2:135: parse error:") and "Traceback" not in err


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("text", [str(INT64_MAX + 1), str(INT64_MIN - 1), "9" * 30, "9" * 5000])
def test_integers_outside_int64_are_located(parse, text):
    with pytest.raises(ParseError, match="outside int64") as info:
        parse(program(text), "p.pir")
    assert info.value.where == "p.pir:2:35"


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("where", [
    lambda n: program(result_type=f"tensor<{n}x1xf32>"),
    lambda n: f"process_group {n} : [0,1]\n" + program(),
    lambda n: f"process_group 0 : [0,{n}]\n" + program(),
])
def test_integers_outside_int64_elsewhere(parse, where):
    with pytest.raises(ParseError, match="outside int64"):
        parse(where("9" * 5000))


@pytest.mark.parametrize("parse", PARSERS)
def test_int64_bounds_parse(parse):
    for text in (str(INT64_MAX), str(INT64_MIN), "0" * 30 + "7"):
        assert parse(program(text)).block.ops[0].attributes["value"] == int(text)


def test_int64():
    assert int64("-9223372036854775808") == INT64_MIN
    with pytest.raises(LimitExceeded, match=r"\(5000 digits\)"):
        int64("1" * 5000)


RULE = "pass p(axis: int = {n}) {{ rule r {{ match {{ o = pd_op.add(x, x) }} where o.k == {m} " \
       "rewrite {{ erase o }} }} }}"


@pytest.mark.parametrize("n, m, col", [("9" * 5000, "1", 20), ("1", "9" * 30, 77),
                                       ("-9223372036854775809", "1", 21)])
def test_rule_integers_outside_int64(n, m, col):
    with pytest.raises(RuleSyntaxError, match="outside int64") as info:
        parse_rules(RULE.format(n=n, m=m), "r.rw")
    assert info.value.where == f"r.rw:1:{col}"


def test_rule_int64_bounds():
    # an expression's `-` applies to the literal after it, which must itself fit
    parse_rules(RULE.format(n="-9223372036854775807", m=str(INT64_MAX)))


def test_truncated_rule_file_explained(tmp_path, capsys):
    # lark 1.3.1's match_examples(use_accepts=True) raised a TypeError on this text
    f = tmp_path / "t.rw"
    f.write_text("pass p(axis: int = -1) { rule r { match { o = pd_op.add(x, x) } where not "
                 "has|o.same)")
    assert main(["check", str(f)]) == 1
    captured = capsys.readouterr()
    assert f"{f}:1:" in captured.out + captured.err and "Traceback" not in captured.err


# Breaker item 17: a 2 MB string attribute took 365 MB to parse (20 MB: 3.4 GB): the string
# regex `(?:[^"\\]|\\.)*` keeps a backtracking frame per character. Memory, not time: a peak
# within a small multiple of the text is what a linear parser with constant overhead gives.

def _peak_bytes(fn):
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("parse", PARSERS)
def test_a_long_string_attribute_parses_in_memory_linear_in_it(parse):
    size = 2_000_000
    text = program('"' + "a" * size + '"')
    parse(program('"warm the parser up"'))
    assert _peak_bytes(lambda: parse(text)) < 10 * size


def test_a_long_rule_string_parses_in_memory_linear_in_it():
    size = 1_000_000
    text = ('test t {\n  run p\n  input """\n' + "a" * size + '\n"""\n  expect "' + "b" * size
            + '"\n}\n')
    parse_rules("pass p { }\n")
    assert _peak_bytes(lambda: parse_rules(text, "t.rw")) < 20 * size


def test_an_error_on_a_long_line_shows_a_window_around_the_column():
    # breaker item 18: a 10,000-deep nesting error echoed the whole 20 KB line
    with pytest.raises(ParseError) as info:
        parse_program(program(nested(10_000)), "p.pir")
    shown = str(info.value).splitlines()
    assert len(shown) == 3 and all(len(line) < 140 for line in shown)
    source, caret = shown[1], shown[2]
    column = int(info.value.where.rsplit(":", 1)[1])
    assert caret.index("^") < len(source) and source.startswith("    ...")
    # the caret stands under the character at the error's column
    assert source[caret.index("^")] == program(nested(10_000)).splitlines()[1][column - 1]


def regions(depth, else_at=None):
    """A program of ``depth`` pd_op.if ops each nested in the region of the one before."""
    lines = ["{"]
    for level in range(depth):
        lines.append("    " * (level + 1) + '() = "pd_op.if" () {} -> {')
    for level in reversed(range(depth)):
        if level == else_at:
            lines += ["    " * (level + 1) + "} else {"]
        lines.append("    " * (level + 1) + "}")
    return "\n".join(lines + ["}", ""])


@pytest.mark.parametrize("parse", PARSERS)
def test_region_nesting_limit(parse):
    # new-user item 3: 20,000 nested regions (1.3 MB) printed 2.4 GB and took 7 GB of memory
    from rulepass.engine.limits import MAX_REGION_NESTING

    assert MAX_REGION_NESTING == 100
    parse(regions(MAX_REGION_NESTING, else_at=50))
    for depth in (MAX_REGION_NESTING + 1, 20_000):
        with pytest.raises(ParseError, match="regions nest more than 100 levels") as info:
            parse(regions(depth), "r.pir")
        line = 2 + MAX_REGION_NESTING  # the op that would open region level 101
        column = len(regions(depth).split("\n")[line - 1])  # its closing '{'
        assert info.value.where == f"r.pir:{line}:{column}"


def test_deep_regions_are_one_line_from_the_cli(tmp_path, capsys):
    f = tmp_path / "deep.pir"
    f.write_text(regions(20_000))
    for command in ("print", "verify"):
        assert main([command, str(f)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"{f}:102:") and "regions nest more than 100" in err
