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
