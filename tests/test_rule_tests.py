"""Rule test blocks as rule authors expect from filecheck/lit: `expect contains` (lines in
order) beside the exact form, and a failing exact test shows a unified diff."""

from __future__ import annotations

from rulepass.engine.api import load_rules_text
from rulepass.engine.rule_tests import missing_line, run_tests

PASS = '''
pass tag_relu {
  rule tag { match { r = pd_op.relu(x) } where not has(r.tagged) rewrite { set r.tagged = true } }
}
'''
PROGRAM = '''"""
    {
        (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
        (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
        () = "builtin.shadow_output" (%1) {output_name:"y"} : (tensor<4xf32>) ->
    }
  """'''


def outcome(expect: str):
    text = PASS + f"test t {{\n  run tag_relu\n  input {PROGRAM}\n  {expect}\n}}\n"
    (result,) = run_tests(load_rules_text(text, "t.rw"))
    return result


def test_contains_passes_when_the_lines_appear_in_order():
    assert outcome('expect contains """\n  "pd_op.data"\n  "pd_op.relu" (%0) {tagged:true}\n"""').passed


def test_contains_fails_on_lines_out_of_order_naming_the_line():
    result = outcome('expect contains """\n  "pd_op.relu"\n  "pd_op.data"\n"""')
    assert not result.passed
    assert "expected line '\"pd_op.data\"' not found after the line matching" in result.message


def test_contains_fails_on_a_missing_line():
    result = outcome('expect contains """\n  {tagged:false}\n"""')
    assert not result.passed and "not found anywhere in the output" in result.message


def test_failing_exact_test_shows_a_unified_diff():
    result = outcome(f"expect {PROGRAM}")  # the input itself: the pass added an attribute
    assert not result.passed
    assert "--- expected" in result.message and "+++ actual" in result.message
    assert '+    (%1) = "pd_op.relu" (%0) {tagged:true}' in result.message
    changed = [line for line in result.message.splitlines()
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed and all("relu" in line for line in changed)  # trailing spaces are no change


def test_missing_line_ignores_blank_lines_and_surrounding_spaces():
    assert missing_line("\n   a  \n\n b\n", "xa\nyy\nb") is None
    assert missing_line("b\na", "a\nb") is not None
