"""Meaning checks of rule files, all before any program is rewritten: unbound variables, unknown
params, wrong param types, unknown functions, wrong arity, passes defined twice (naming both
places), unknown passes in pipelines and tests."""

from __future__ import annotations

import pytest

from rulepass.engine.api import load_rules, load_rules_text
from rulepass.engine.errors import RuleCompileError
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rewrite.functions import function, unregister

OK_RULE = "rule r {{ match {{ o = pd_op.scale(x) {{scale: s}} }} {where} rewrite {{ {rewrite} }} }}"


def one_rule(where="", rewrite="set o.k = 1", params=""):
    """A pass `p` with one rule whose where/rewrite are given."""
    return f"pass p{params} {{\n  " + OK_RULE.format(where=where, rewrite=rewrite) + "\n}\n"


def compile_error(text: str) -> RuleCompileError:
    with pytest.raises(RuleCompileError) as caught:
        load_rules_text(text, "c.rw")
    return caught.value


@pytest.mark.parametrize("where, rewrite, params, message, at", [
    ("where y == 1", "set o.k = 1", "", "unbound variable 'y'", "y == 1"),
    ("", "set o.k = z", "", "unbound variable 'z'", "z }"),
    ("where $rnk == 1", "set o.k = 1", "(rank: int)", "unknown param $rnk", "$rnk"),
    ("where frobnicate(o)", "set o.k = 1", "", "unknown function 'frobnicate'", "frobnicate"),
    ("where uses(o, x) == 1", "set o.k = 1", "", "uses() takes 1 argument, got 2", "uses"),
    ("where group_rank(1) == 0", "set o.k = 1", "", "group_rank() takes 2 arguments, got 1",
     "group_rank"),
    ("", "set x.k = 1", "", "'x' is a value, not an op", "x.k"),
    ("", "set o.dist.process_ids = 1", "", "can only set o.key, o.dist", "o.dist"),
    ("", "v = pd_op.relu(x) : type(x) v = pd_op.relu(x) : type(x)", "", "'v' is already bound",
     "v = "),
    ("where any(q in operands(o), q == x) and q == x", "set o.k = 1", "",
     "unbound variable 'q'", "q == x"),
])
def test_meaning_errors_point_at_the_offending_text(where, rewrite, params, message, at):
    text = one_rule(where, rewrite, params)
    error = compile_error(text)
    assert message in error.message
    line = text.split("\n")[1]
    assert (error.file, error.line, error.col) == ("c.rw", 2, line.rfind(at) + 1)
    assert error.source_line == line and "^" in str(error)


def test_for_variables_are_scoped_to_their_loop():
    text = one_rule(rewrite="for u in users(o) { set u.k = 1 } set u.k = 2")
    assert "unbound variable 'u'" in compile_error(text).message


def test_param_default_of_the_wrong_type():
    error = compile_error('pass p(rank: int = "zero") { }')
    assert "expected an int for a int param" in error.message
    assert (error.line, error.col) == (1, 20)


def test_an_op_bound_twice_and_a_name_of_two_kinds():
    text = "pass p { rule r { match { o = a.b(x) o = a.c(x) } rewrite { erase o } } }"
    assert "bound to two ops" in compile_error(text).message
    text = "pass p { rule r { match { o = a.b(x) {k: x} } rewrite { erase o } } }"
    assert "bound as a value" in compile_error(text).message


def test_a_pass_defined_twice_names_both_places(tmp_path):
    (tmp_path / "a.rw").write_text("pass dup { }\n")
    (tmp_path / "b.rw").write_text("\n\npass dup { }\n")
    with pytest.raises(RuleCompileError) as caught:
        load_rules([tmp_path])
    message = str(caught.value)
    assert f"{tmp_path / 'a.rw'}:1:1" in message and f"{tmp_path / 'b.rw'}:3:1" in message
    assert "defined twice" in message


def test_unknown_pass_in_a_pipeline_and_in_a_test():
    error = compile_error("pass a { }\npipeline q = a, nope\n")
    assert "unknown pass 'nope'" in error.message and (error.line, error.col) == (2, 17)
    error = compile_error('pass a { }\ntest t { run nope input "{}" expect unchanged }\n')
    assert "unknown pass 'nope'" in error.message and error.line == 2


def test_pipeline_arguments_are_checked_against_the_pass_params():
    error = compile_error("pass a(rank: int) { }\npipeline q = a(rank: \"one\")\n")
    assert "expected an int" in error.message
    error = compile_error("pass a(rank: int) { }\npipeline q = a(rnk: 1)\n")
    assert "has no param 'rnk'" in error.message


def test_a_pipeline_that_contains_itself():
    error = compile_error("pass a { }\npipeline q = a, r\npipeline r = q\n")
    assert "contains itself" in error.message


def test_registered_functions_are_known_with_their_arity():
    @function("stage_of_test")
    def stage_of(program, op, default=0):
        return default

    try:
        load_rules_text(one_rule(where="where stage_of_test(o) == 0"))
        load_rules_text(one_rule(where="where stage_of_test(o, 1) == 1"))
        error = compile_error(one_rule(where="where stage_of_test() == 0"))
        assert "stage_of_test() takes 1 to 2 arguments, got 0" in error.message
    finally:
        unregister("stage_of_test")
    assert "unknown function" in compile_error(one_rule(where="where stage_of_test(o)")).message


def test_registering_a_builtin_name_is_refused():
    with pytest.raises(ValueError):
        function("uses")(lambda program, v: 0)


PROGRAM = """{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",shape:[4]} : () -> tensor<4xf32>
    (%1) = "pd_op.scale" (%0) {scale:1} : (tensor<4xf32>) -> tensor<4xf32>
}
"""


@pytest.mark.parametrize("params, message", [
    ({}, "needs param 'rank'"),
    ({"rank": "1"}, "expected an int"),
    ({"rank": 1, "extra": 2}, "has no param 'extra'"),
    ({"rank": True}, "expected an int"),
])
def test_missing_or_mistyped_params_fail_before_any_rewriting(params, message):
    rules = load_rules_text(one_rule(params="(rank: int)"))
    program = parse_program(PROGRAM)
    with pytest.raises(RuleCompileError) as caught:
        rules.run_pass(program, "p", **params)
    assert message in caught.value.message
    assert print_program(program) == PROGRAM


def test_command_line_params_are_converted_to_the_declared_type():
    # The where keeps the rule from matching again once applied (a no-op would be an error).
    rules = load_rules_text(one_rule(params="(rank: int, on: bool, f: float, s: str)",
                                     where="where o.k ?? -1 != $rank", rewrite="set o.k = $rank"))
    program = parse_program(PROGRAM)
    rules.run_pass(program, "p", param_strings=True, rank="3", on="true", f="1", s="x")
    assert "k:3" in print_program(program)
    with pytest.raises(RuleCompileError) as caught:
        rules.run_pass(parse_program(PROGRAM), "p", param_strings=True, rank="x", on="true",
                       f="1", s="x")
    assert "'x' is not an int" in caught.value.message


def test_includes_are_followed_relative_to_the_including_file(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.rw").write_text("pass base { }\n")
    (tmp_path / "main.rw").write_text('include "sub/base.rw"\npipeline both = base\n')
    rule_set = load_rules([tmp_path / "main.rw"])
    assert set(rule_set.passes) == {"base"} and set(rule_set.pipelines) == {"both"}
    (tmp_path / "broken.rw").write_text('\ninclude "missing.rw"\n')
    with pytest.raises(RuleCompileError) as caught:
        load_rules([tmp_path / "broken.rw"])
    assert "missing.rw does not exist" in caught.value.message
    assert (caught.value.line, caught.value.col) == (2, 1)
