"""The additions of docs/spec/rule-language.md ("Additions"): `let`, `def`, `a if c else b`,
`has()` of any expression, `replace a with b in o`, `erase` of a value.

Each construct runs both ways, walked (the reference, `compiled=False`) and compiled (the
generated Python), and the two must print the same program and raise the same error; each error
path is a load error at file:line:col or a rewrite error naming the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepass.engine.api import load_rules, load_rules_text
from rulepass.engine.errors import RuleCompileError, RulepassError
from rulepass.engine.lang.parse import parse_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rewrite.codegen.exprs import compile_expression
from rulepass.engine.rewrite.exprs import Context, evaluate

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = """{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.tanh" (%1) {} : (tensor<4xf32>) -> tensor<4xf32>
    () = "builtin.shadow_output" (%2) {output_name:"y"} : (tensor<4xf32>) -> 
}"""


def run_both(text: str, pass_name: str, program: str = PROGRAM, **params):
    """(printed program, error text or None) walked and compiled; asserts the two agree and
    returns the compiled one."""
    results = []
    for compiled in (False, True):
        rules = load_rules_text(text, "t.rw", compiled=compiled)
        parsed = parse_program(program)
        try:
            rules.run_pass(parsed, pass_name, **params)
            error = None
        except RulepassError as caught:
            error = str(caught)
        results.append((print_program(parsed), error))
    assert results[0] == results[1]
    return results[1]


def expression(text: str):
    """The expression of `where` in a one-rule pass (parsed, not checked)."""
    module = parse_rules(f"pass p {{ rule r {{ match {{ o = * }} where {text} rewrite {{ }} }} }}")
    return module.items[0].rules[0].where


def both_values(text: str, env: dict | None = None):
    """`evaluate` and the compiled function on an expression; asserts they agree."""
    expr = expression(text)
    ctx = Context(parse_program(PROGRAM), {})
    walked = evaluate(expr, dict(env or {}), ctx)
    fast = compile_expression(expr)(dict(env or {}), ctx)
    assert walked == fast and type(walked) is type(fast)
    return walked


def load_error(text: str) -> RuleCompileError:
    with pytest.raises(RuleCompileError) as caught:
        load_rules_text(text, "e.rw")
    return caught.value


def test_example_file_passes_walked_and_compiled():
    from rulepass.engine.rule_tests import run_tests

    for compiled in (False, True):
        rules = load_rules([ROOT / "docs/examples/additions.rw"], compiled=compiled)
        results = run_tests(rules)
        assert results and all(r.passed for r in results), [r for r in results if not r.passed]


# ---- a if cond else b -----------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("1 if true else 2", 1),
    ("1 if false else 2", 2),
    ("1 if o.missing else 2", 2),                       # absent is false
    ("1 if false else 2 if true else 3", 2),            # right-associative, as in Python
    ("1 if false or true else 2", 1),                   # looser than `or`
    ("o.missing ?? 5 if true else 6", 5),               # looser than `??`
    ("(1 if true else 2) + 10", 11),
    ("[1 if 2 > 1 else 0, 3]", [1, 3]),
])
def test_conditional_values_and_precedence(text, value):
    op = parse_program(PROGRAM).block.first
    assert both_values(text, {"o": op}) == value


def test_conditional_evaluates_only_the_chosen_branch():
    # the other branch would be an error (`-` of a string)
    assert both_values('1 if true else -"x"') == 1
    assert both_values('-"x" if false else 2') == 2


def test_conditional_explain_text():
    from rulepass.engine.rewrite.exprs import expr_text

    assert expr_text(expression("a if b > 1 else c")) == "(a if (b > 1) else c)"


# ---- has(any expression) --------------------------------------------------------------------

def test_has_takes_any_expression():
    program = parse_program(PROGRAM)
    first, second = program.block.ops[:2]
    for op, expected in ((first, False), (second, True)):
        assert both_values("has(prev(o))", {"o": op}) is expected
    value = program.block.first.results[0]
    assert both_values("has(producer(v))", {"v": value}) is True
    assert both_values("has(first(x in [1, 2], x > 5))") is False
    assert both_values("has(1)") is True


def test_has_of_any_expression_in_a_rule():
    text = """pass p { rule r { match { o = pd_op.relu } where has(producer(operands(o)[0]))
      and not has(o.seen) rewrite { set o.seen = true } } }"""
    printed, error = run_both(text, "p")
    assert error is None and '"pd_op.relu" (%0) {seen:true}' in printed


# ---- let ------------------------------------------------------------------------------------

LET_RULES = """pass p {
  rule r {
    match { o = pd_op.relu(x) }
    let n = uses(x)
    let twice = n * 2
    let all_users = users(x)
    where not has(o.before) and twice == 2 and any(u in all_users, opname(u) == "pd_op.relu")
    rewrite {
      t = pd_op.tanh(x) : type(x)
      let now = uses(x)
      set o.before = n
      set o.after = now
      for u in all_users { let name = opname(u) set u.seen = name }
    }
  }
}"""


def test_let_values_are_taken_on_the_program_as_matched():
    printed, error = run_both(LET_RULES, "p")
    assert error is None
    # the rule's lets before the rewrite (x read once, by o); the rewrite's let after `t`
    assert '"pd_op.relu" (%0) {after:2,before:1,seen:"pd_op.relu"}' in printed


def test_let_does_not_capture_a_quantifier_variable():
    text = """pass p { rule r { match { o = pd_op.relu(x) } let k = uses(x)
      where not has(o.k) and any(x in [1, 2], x == k) rewrite { set o.k = k } } }"""
    printed, error = run_both(text, "p")
    assert error is None and "{k:1}" in printed


def test_let_absent_binds_as_absent():
    text = """pass p { rule r { match { o = pd_op.relu } let m = o.missing
      where not has(m) and not has(o.k) rewrite { set o.k = m ?? 7 } } }"""
    printed, error = run_both(text, "p")
    assert error is None and "{k:7}" in printed


def test_let_error_names_the_rule():
    text = """pass p { rule r { match { o = pd_op.relu } let bad = -"text"
      rewrite { set o.k = 1 } } }"""
    printed, error = run_both(text, "p")
    assert "cannot negate" in error and "rule r" in error and printed == print_program(
        parse_program(PROGRAM))


def test_explain_shows_the_let_name():
    rules = load_rules_text("""pass p { rule r { match { o = pd_op.relu(x) } let n = uses(x)
      where n > 5 rewrite { set o.k = n } } }""", "t.rw")
    text = rules.explain(parse_program(PROGRAM), "r", 1)
    assert "n > 5" in text, text


@pytest.mark.parametrize("rule, message, at", [
    ("match { o = pd_op.relu(x) } let x = 1 rewrite { set o.k = x }",
     "'x' is already bound", "let x"),
    ("match { o = pd_op.relu } let a = b let b = 1 rewrite { set o.k = a }",
     "unbound variable 'b'", "b let"),
    ("match { o = pd_op.relu } let a = 1 let a = 2 rewrite { set o.k = a }",
     "'a' is already bound", "let a = 2"),
    ("match { o = pd_op.relu } rewrite { let o = 1 }", "'o' is already bound", "let o"),
    ("match { o = pd_op.relu } rewrite { for u in users(o) { let n = 1 } set o.k = n }",
     "unbound variable 'n'", "n }"),
])
def test_let_errors_point_at_the_text(rule, message, at):
    text = f"pass p {{ rule r {{ {rule} }} }}"
    error = load_error(text)
    assert message in error.message
    assert (error.file, error.line, error.col) == ("e.rw", 1, text.rfind(at) + 1)


def test_lint_warns_about_an_unused_let():
    from rulepass.engine.lang.lint import lint

    rules = load_rules_text("""pass p { rule r { match { o = pd_op.relu } let unused = 1
      let used = 2 rewrite { let inner = 3 set o.k = used } } }
    test t { run p input "{}" expect unchanged }""", "w.rw")
    shown = [str(w) for w in lint(rules)]
    assert any("let 'unused' is never read" in w for w in shown), shown
    assert any("let 'inner' is never read" in w for w in shown), shown
    assert not any("'used'" in w for w in shown), shown
