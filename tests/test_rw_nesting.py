"""Rule files nested past the limit (newuser report item 11): a located syntax error where the
nesting passes 100 levels, and a flat chain of one operator reported as too long, at the term
after its 101st operator, not as "nested" without a place."""

import pytest

from rulepass.engine.errors import RuleSyntaxError
from rulepass.engine.lang.parse import parse_rules

HEAD = "pass p { rule r { match { o = pd_op.add(x, y) } where "
TAIL = " rewrite { erase o } } }\n"


def located(text: str, match: str) -> tuple[int, int]:
    """(line, column) of the RuleSyntaxError that parsing ``text`` raises."""
    with pytest.raises(RuleSyntaxError, match=match) as info:
        parse_rules(text, "deep.rw")
    assert info.value.file == "deep.rw" and info.value.source_line
    return info.value.line, info.value.col


@pytest.mark.parametrize("op", ["+", "*", "and", "or", "??"])
def test_a_long_flat_chain_is_too_long_at_its_101st_operator(op):
    terms = ["1"] * 3000
    text = HEAD + f" {op} ".join(terms) + " == 2" + TAIL
    line, col = located(text, r"expression too long: its chain of `.*` operators passes 100 "
                              "levels here")
    # `==` is level 1 (it binds looser than `+ * ??`, tighter than `and or`), the chain's
    # operators the levels after it, its first term one below the last: for `+` the 99th
    # operator is the first past the limit; the error is at the term after it.
    # `??` nests to the right: its 99th operator's first term is the first node past the limit.
    first_past = {"and": 100, "or": 100, "??": 98}.get(op, 99)
    step = len(f"1 {op} ")
    assert (line, col) == (1, len(HEAD) + 1 + first_past * step)


def test_a_chain_just_under_the_limit_parses_and_one_more_does_not():
    parse_rules(HEAD + " + ".join(["1"] * 99) + " == 99" + TAIL, "deep.rw")
    located(HEAD + " + ".join(["1"] * 100) + " == 100" + TAIL, "expression too long")


def test_a_deep_term_of_a_short_sum_is_located_at_itself():
    text = HEAD + "1 + " + "-" * 200 + "x == 1" + TAIL
    # `==` level 1, `+` 2, the 98th `-` level 100, the 99th past the limit
    assert located(text, "nest more than 100 levels") == (1, len(HEAD) + 1 + 4 + 98)


def test_deep_patterns_are_located_where_they_pass_the_limit():
    depth = 5000
    text = ("pass p { rule r { match { o = " + "pd_op.add(x, " * depth + "y" + ")" * depth
            + " } rewrite { erase o } } }\n")
    line, col = located(text, "the rules nest more than 100 levels deep here")
    start = len("pass p { rule r { match { o = ") + 1
    assert (line, col) == (1, start + 100 * len("pd_op.add(x, "))


def test_deep_lists_are_located_where_they_pass_the_limit():
    value = "[" * 5000 + "1" + "]" * 5000
    text = f"pass p {{ rule r {{ match {{ o = pd_op.add(x, y) {{a: {value}}} }} " + TAIL.lstrip()
    prefix = text.index("[")
    line, col = located(text, "the rules nest more than 100 levels deep here")
    # the op pattern is level 1, its attribute's lists levels 2..: the 100th '[' is past the limit
    assert (line, col) == (1, prefix + 1 + 99)


def test_a_deep_not_is_located():
    line, col = located(HEAD + "not " * 5000 + "true" + TAIL, "nest more than 100 levels")
    assert (line, col) == (1, len(HEAD) + 1 + 100 * 4)


def test_parentheses_count_toward_the_limit():
    # breaker 2 item 9: `((...x == y...))` was not counted, however deep
    parse_rules(HEAD + "(" * 98 + "x == y" + ")" * 98 + TAIL, "deep.rw")  # 98 + `==` + `x`: 100
    line, col = located(HEAD + "(" * 99 + "x == y" + ")" * 99 + TAIL, "nest more than 100 levels")
    assert (line, col) == (1, len(HEAD) + 1 + 99)  # `x`, the 101st level


def test_brackets_past_the_scan_depth_are_refused_before_lark_reads_them():
    # breaker 2 item 9: 200,000 parentheses took 12.6 s in lark; the raw text's scan refuses
    # them at the first bracket past MAX_BRACKET_DEPTH
    from rulepass.engine.lang.nesting import MAX_BRACKET_DEPTH

    n = MAX_BRACKET_DEPTH + 5000
    line, col = located(HEAD + "\n" + "(" * n + "x == y" + ")" * n + TAIL,
                        "nest more than 100 levels")
    assert (line, col) == (2, MAX_BRACKET_DEPTH + 1)


def test_the_scan_skips_brackets_in_strings_text_blocks_and_comments():
    from rulepass.engine.lang.nesting import MAX_BRACKET_DEPTH, check_bracket_depth

    many = "(" * (MAX_BRACKET_DEPTH + 1)
    check_bracket_depth(f'pass p {{ # {many}\n  rule r {{ match {{ o = pd_op.add(x, y) '
                        f'{{a: "{many}\\"{many}"}} }} rewrite {{ erase o }} }} }}\n'
                        f'test t {{ run p input """\n{many}\n""" expect unchanged }}\n', "s.rw")
    with pytest.raises(RuleSyntaxError) as info:
        check_bracket_depth(f'# a comment\n[{many}', "s.rw")
    assert (info.value.line, info.value.col) == (2, MAX_BRACKET_DEPTH + 1)
