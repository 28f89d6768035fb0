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


# ---- def ------------------------------------------------------------------------------------

DEF_RULES = """
def chunk_of(v) = producer(v).chunk_id ?? (producer(v).dist.chunk_id ?? -1)
def twice(v) = chunk_of(v) * 2
def nonzero(xs) = first(x in xs, x != 0)
def on_rank(o) = $rank in [0, 1] and opname(o) == "pd_op.relu"
def missing(o) = has(o.no_such_attribute)
def later(v) = earlier(v) + 1
def earlier(v) = chunk_of(v)
pass p(rank: int = 0) {
  rule r {
    match { o = pd_op.relu(x) }
    let c = chunk_of(x)
    where not has(o.k) and on_rank(o) and not missing(o)
    rewrite { set o.k = [c, twice(x), later(x), nonzero([0, c, 5])] }
  }
}
"""


def test_def_walked_and_compiled():
    program = PROGRAM.replace('{name:"x"}', '{chunk_id:3,name:"x"}')
    printed, error = run_both(DEF_RULES, "p", program)
    assert error is None and '"pd_op.relu" (%0) {k:[3,6,4,3]}' in printed, printed


def test_def_argument_absent_binds_as_absent():
    text = """def or_seven(a) = a ?? 7
    def present(a) = has(a)
    pass p { rule r { match { o = pd_op.relu } where not has(o.k)
      rewrite { set o.k = [or_seven(o.missing), present(o.missing), present(o)] } } }"""
    printed, error = run_both(text, "p")
    assert error is None and "{k:[7,false,true]}" in printed


def test_def_is_visible_in_including_files_only(tmp_path):
    (tmp_path / "lib.rw").write_text("def double(x) = x * 2\n")
    (tmp_path / "user.rw").write_text('include "lib.rw"\npass p { rule r { match { o = pd_op.relu }'
                                      ' where not has(o.k) rewrite { set o.k = double(21) } } }\n')
    (tmp_path / "outsider.rw").write_text("pass q { rule r { match { o = pd_op.relu } where "
                                          "not has(o.k) rewrite { set o.k = double(1) } } }\n")
    rules = load_rules([tmp_path / "user.rw"])
    program = parse_program(PROGRAM)
    rules.run_pass(program, "p")
    assert "{k:42}" in print_program(program)
    with pytest.raises(RuleCompileError, match="unknown function 'double'") as caught:
        load_rules([tmp_path / "user.rw", tmp_path / "outsider.rw"])
    assert caught.value.file.endswith("outsider.rw")


def test_def_in_the_file_wins_over_an_included_one(tmp_path):
    (tmp_path / "lib.rw").write_text("def k() = 1\n")
    (tmp_path / "user.rw").write_text('include "lib.rw"\ndef k() = 2\npass p { rule r { match '
                                      '{ o = pd_op.relu } where not has(o.k) rewrite '
                                      '{ set o.k = k() } } }\n')
    program = parse_program(PROGRAM)
    load_rules([tmp_path / "user.rw"]).run_pass(program, "p")
    assert "{k:2}" in print_program(program)


def test_def_hides_a_built_in_and_the_linter_says_so():
    from rulepass.engine.lang.lint import lint

    text = """def len(x) = 99
    def dtype_attr(x) = x
    pass p { rule r { match { o = pd_op.relu } where not has(o.k) rewrite { set o.k = len([1]) } } }
    test t { run p input "{}" expect unchanged }"""
    printed, error = run_both(text, "p")
    assert error is None and "{k:99}" in printed
    shown = [str(w) for w in lint(load_rules_text(text, "w.rw"))]
    assert any("w.rw:1: warning: def 'len' hides the built-in" in w for w in shown), shown
    assert any("w.rw:2: warning: def 'dtype_attr' hides the registered function" in w
               for w in shown), shown


@pytest.mark.parametrize("text, message, line, col", [
    ("def f(x) = f(x)", "def 'f' calls itself", 1, 12),
    ("def f(x) = g(x) + 1\ndef g(y) = h(y)\ndef h(z) = f(z)",
     "def 'f' is recursive: f -> g -> h -> f", 3, 12),
    ("def f(x) = y", "unbound variable 'y' (bound here: x)", 1, 12),
    ("def f(x, x) = x", "lists parameter 'x' twice", 1, 1),
    ("def f(x) = x\ndef f(y) = y", "def 'f' is defined twice in this file", 2, 1),
    ("def f(x) = nofn(x)", "unknown function 'nofn'", 1, 12),
    ("def f(x) = g(x, 1)\ndef g(a) = a", "g() takes 1 argument, got 2", 1, 12),
    ("def f(x) = x + $rank\npass p { rule r { match { o = * } where f(o) == 1 rewrite "
     "{ set o.k = 1 } } }", "unknown param $rank of pass 'p', read by def 'f'", 2, 41),
    ("def f(x) = x\npass p { rule r { match { o = * } where f(o, 1) == 1 rewrite "
     "{ set o.k = 1 } } }", "f() takes 1 argument, got 2", 2, 41),
])
def test_def_errors_point_at_the_text(text, message, line, col):
    error = load_error(text)
    assert message in error.message, error.message
    assert (error.file, error.line, error.col) == ("e.rw", line, col)


def test_a_chain_of_defs_or_lets_nests_no_deeper_than_an_expression():
    # every walker follows a def into its body and reads a let written out in `where`: a chain
    # of 3,000 defs (or lets) was a RecursionError in the code generator; now a located error at
    # the def (let) where the chain passes the expression limit of 100 levels
    defs = "\n".join([f"def d{i}(o) = d{i + 1}(o)" for i in range(3000)] + ["def d3000(o) = 1"])
    error = load_error(defs + "\npass p { rule r { match { o = * } where d0(o) == 1 "
                       "rewrite { set o.k = 1 } } }")
    assert "def 'd2900' nests 101 levels deep once the defs it calls are written out" in \
        error.message, error.message
    assert (error.file, error.line, error.col) == ("e.rw", 2901, 1)
    lets = "\n".join(["let a0 = 1"] + [f"let a{i} = a{i - 1} + 1" for i in range(1, 3000)])
    error = load_error("pass p { rule r { match { o = * }\n" + lets
                       + "\nwhere a2999 > 0 rewrite { set o.k = 1 } } }")
    assert "let 'a50' nests 101 levels deep once the lets it reads are written out" in \
        error.message, error.message
    assert (error.file, error.line) == ("e.rw", 52)
    # a chain just within the limit runs, walked and compiled alike, read from deep inside where
    defs = "\n".join([f"def d{i}(o) = d{i + 1}(o)" for i in range(97)] + ["def d97(o) = 1"])
    lets = "\n".join(["let a0 = d0(o) == 1"] + [f"let a{i} = not a{i - 1}" for i in range(1, 48)])
    text = (defs + "\npass p { rule r { match { o = pd_op.relu }\n" + lets + "\nwhere "
            + "not " * 94 + "(not a47) and not has(o.k) rewrite { set o.k = 1 } } }")
    printed, error = run_both(text, "p")
    assert error is None and "{k:1}" in printed


def test_def_defined_in_two_included_files_is_an_error_at_the_call(tmp_path):
    (tmp_path / "a.rw").write_text("def k() = 1\n")
    (tmp_path / "b.rw").write_text("def k() = 2\n")
    (tmp_path / "user.rw").write_text('include "a.rw"\ninclude "b.rw"\npass p { rule r { match '
                                      '{ o = pd_op.relu } rewrite { set o.k = k() } } }\n')
    with pytest.raises(RuleCompileError, match="def 'k' is defined in two included files") as c:
        load_rules([tmp_path / "user.rw"])
    assert (Path(c.value.file).name, c.value.line) == ("user.rw", 3)


def test_def_error_at_run_names_the_def_body():
    text = """def bad(x) = -x
    pass p { rule r { match { o = pd_op.relu } where not has(o.k) rewrite { set o.k = bad("s") } } }"""
    printed, error = run_both(text, "p")
    assert "t.rw:1:" in error and "cannot negate" in error and "rule r" in error


def test_explain_shows_the_value_of_each_def_call():
    rules = load_rules_text("""def uses_of(v) = uses(v)
    pass p { rule r { match { o = pd_op.relu(x) } where uses_of(x) > 5 rewrite { set o.k = 1 } } }""",
                            "t.rw")
    text = rules.explain(parse_program(PROGRAM), "r", 1)
    assert "where `uses_of(x) > 5` is false" in text and "uses_of(x) = 1" in text, text


def test_registered_calls_inside_a_def_are_the_pass_calls():
    from rulepass.engine.rewrite.driver import called_functions

    rules = load_rules_text("""def mesh_of(t) = replicated(t, 0)
    pass p { rule r { match { o = pd_op.relu(x) } where has(mesh_of(type(x))) rewrite
      { set o.k = 1 } } }""", "t.rw")
    assert called_functions(rules.find_pass("p")) == {"replicated"}


# ---- replace ... in o1, o2 ------------------------------------------------------------------

def test_replace_in_several_readers():
    program = """{
        (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
        (%1) = "pd_op.data" () {name:"y"} : () -> tensor<4xf32>
        (%2) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
        (%3) = "pd_op.tanh" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
        (%4) = "pd_op.exp" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    }"""
    text = """pass p { rule r { match { a = pd_op.relu(x) b = pd_op.tanh(x) y = pd_op.data {name: "y"} }
      where producer(x).name == "x" rewrite { replace x with y in a, [b] } } }"""
    printed, error = run_both(text, "p", program)
    assert error is None
    assert '"pd_op.relu" (%1)' in printed and '"pd_op.tanh" (%1)' in printed
    assert '"pd_op.exp" (%0)' in printed


# ---- erase of a ^kw: value ------------------------------------------------------------------

KWARGS = """{
    ^kw:
        %kwarg_a {persistable:true}
        %kwarg_b {persistable:true}
        %kwarg_c {persistable:true}
    (%0) = "pd_op.relu" (%kwarg_a) {rank:9} : (tensor<4xf32>) -> tensor<4xf32>
    (%1) = "pd_op.relu" (%kwarg_b) {rank:0} : (tensor<4xf32>) -> tensor<4xf32>
}"""

ERASE_RULES = """pass prune sweep reverse {
  rule other_rank_op priority 1 { match { o = * } where o.rank == 9 rewrite { erase o } }
  rule unused_kwarg { match value v where uses(v) == 0 and has(v.name) rewrite { erase v } }
}
pass prune_fixpoint {
  rule other_rank_op priority 1 { match { o = * } where o.rank == 9 rewrite { erase o } }
  rule unused_kwarg { match value v where uses(v) == 0 and has(v.name) rewrite { erase v, v } }
}
pass erase_read { rule r { match value v rewrite { erase v } } }
pass erase_with_reader { rule r { match { o = pd_op.relu(v) } where o.rank == 9
  rewrite { erase o, v } } }
pass erase_result { rule r { match { o = pd_op.relu } rewrite { erase results(o)[0] } } }
"""


@pytest.mark.parametrize("pass_name", ["prune", "prune_fixpoint"])
def test_erase_unused_kwargs_after_their_readers(pass_name):
    printed, error = run_both(ERASE_RULES, pass_name, KWARGS)
    assert error is None
    assert "%kwarg_a" not in printed and "%kwarg_c" not in printed
    assert '"pd_op.relu" (%kwarg_b) {rank:0}' in printed


def test_erase_a_kwarg_with_its_only_reader():
    printed, error = run_both(ERASE_RULES, "erase_with_reader", KWARGS)
    assert error is None and "%kwarg_a" not in printed and "%kwarg_c" in printed


def test_erase_a_kwarg_still_read_names_the_rule_and_the_op():
    printed, error = run_both(ERASE_RULES, "erase_read", KWARGS)
    assert printed == print_program(parse_program(KWARGS))  # the pass left its input as it was
    assert "rule r: cannot erase ^kw: value %kwarg_a: it is still read by pd_op.relu" in error
    assert 'used by: (%0) = "pd_op.relu" (%kwarg_a)' in error


def test_erase_of_an_op_result_is_refused():
    printed, error = run_both(ERASE_RULES, "erase_result", KWARGS)
    assert "erase takes ops, lists of ops or ^kw: values, got a value" in error


# ---- non-live functions and ops made during the pass ------------------------------------------

def test_non_live_function_answers_absent_for_an_op_made_during_the_pass():
    from rulepass.engine.rewrite.functions import function, unregister

    seen = []

    @function("test_name_then")
    def name_then(program, op):
        seen.append(op.name)
        return op.name

    try:
        text = """pass p { rule r { match { o = pd_op.relu(x) } where not has(o.done) rewrite {
          n = pd_op.scale(x) : type(x)
          set n.was = test_name_then(n) ?? "absent"
          set o.done = test_name_then(o) } } }"""
        printed, error = run_both(text, "p")
        assert error is None and 'was:"absent"' in printed and 'done:"pd_op.relu"' in printed
        assert set(seen) == {"pd_op.relu"}  # never called with the new op
    finally:
        unregister("test_name_then")


def test_replace_in_something_else_than_ops_is_an_error_naming_the_rule():
    program = """{
        (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
        (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
        (%2) = "pd_op.tanh" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    }"""
    text = """pass p { rule r { match { a = pd_op.relu(x) b = pd_op.tanh(x) }
      where not has(a.k) rewrite { replace x with b in a, 3 } } }"""
    printed, error = run_both(text, "p", program)
    assert "rule r: replace ... in takes ops and lists of ops, got int 3" in error
    assert printed == print_program(parse_program(program))


def test_in_region_takes_op_names():
    text = """pass p { rule r { match { o = pd_op.relu } where in_region(o, 1, "pd_op.tanh")
      rewrite { set o.k = 1 } } }"""
    printed, error = run_both(text, "p")
    assert "in_region() takes two op names (strings), got int 1 and" in error
    text = text.replace("in_region(o, 1,", "not has(o.k) and not in_region(o, o.missing,")
    printed, error = run_both(text, "p")
    assert error is None and "{k:1}" in printed  # an absent name is no region


def test_def_in_a_grad_block(tmp_path):
    from rulepass.engine.api import installed_rules
    from rulepass.engine.paddle.backward import append_backward
    from rulepass.engine.paddle.grad import load_grad_definitions

    path = tmp_path / "grads.rw"
    path.write_text("""def doubled(a) = a * 2
grad f = pd_op.my_scale(x) {factor: a} => {
  g = pd_op.scale(grad(f)) {scale: doubled(a), bias: 0.0} : type(x)
  grad x += g
}
""")
    defs = load_grad_definitions([installed_rules() / "grad.rw", path])
    program = parse_program('''{
    (%0) = "builtin.parameter" () {parameter_name:"w",stop_gradient:[false]} : () -> tensor<4xf32>
    (%1) = "pd_op.my_scale" (%0) {factor:3,stop_gradient:[false]} : (tensor<4xf32>) -> tensor<4xf32>
    () = "builtin.shadow_output" (%1) {output_name:"loss"} : (tensor<4xf32>) ->
}''')
    append_backward(program, defs)
    assert '"pd_op.scale" (%3) {bias:0,grad_of:0,op_role:1,scale:6,' in print_program(program)
