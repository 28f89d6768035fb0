"""`rulepass check`'s engine side: lint warnings, test block outcomes and the summary line, and
the pytest plugin collecting `.rw` test blocks."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from rulepass.engine.api import load_rules_text
from rulepass.engine.lang.lint import lint
from rulepass.engine.rule_tests import check

PROGRAM = '''
    {
        (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
        (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    }
'''

RULES = textwrap.dedent('''
    pass tag {
      # mark each relu once
      rule tag { match { o = pd_op.relu(x) } where not has(o.tagged) rewrite { set o.tagged = true } }
    }
    test tags {
      run tag
      input """''' + PROGRAM + '''"""
      expect """
        {
            (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
            (%1) = "pd_op.relu" (%0) {tagged:true} : (tensor<4xf32>) -> tensor<4xf32>
        }
      """
    }
    test wrong_expectation { run tag input """''' + PROGRAM + '''""" expect unchanged }
    test wrong_error { run tag input """''' + PROGRAM + '''""" expect error "boom" }
''')


def test_check_runs_test_blocks_and_summarises(tmp_path):
    (tmp_path / "tag.rw").write_text(RULES)
    report = check([tmp_path])
    assert [o.passed for o in report.outcomes] == [True, False, False]
    lines = report.lines()
    assert lines[-1] == "1 passed, 2 failed"
    assert "test wrong_expectation: FAILED" in lines[0] and "+" in lines[0]
    assert "expected an error containing 'boom'" in lines[1]
    assert any("'x' is bound but never read" in w for w in report.warnings)


def test_check_reports_a_file_that_does_not_load(tmp_path):
    (tmp_path / "bad.rw").write_text("pass p {\n")
    report = check([tmp_path])
    assert report.failed == 1 and "syntax error" in report.errors[0]
    assert report.lines()[-1] == "0 passed, 1 failed"


def test_lint_warns_about_unconnected_patterns_empty_rewrites_and_untested_passes():
    rule_set = load_rules_text(textwrap.dedent("""
    pass p {
      rule pairs { match { a = pd_op.relu(_)  b = pd_op.tanh(_) } rewrite { erase a } }
      rule nothing { match { a = pd_op.relu(_) } rewrite { } }
      rule joined { match { a = pd_op.relu(x)  b = pd_op.tanh(x) } rewrite { erase a, b } }
    }"""), "l.rw")
    shown = [str(w) for w in lint(rule_set)]
    assert "l.rw:2: warning: pass p has no test block" in shown
    assert any(w.startswith("l.rw:3: warning: rule pairs: patterns a / b share no") for w in shown)
    assert any(w.startswith("l.rw:4: warning: rule nothing: empty rewrite") for w in shown)
    assert not any("rule joined" in w for w in shown)


def run_pytest_on_rules(folder, ini: str) -> subprocess.CompletedProcess:
    """pytest run in a fresh process on ``folder``/tag.rw (RULES) beside a pytest.ini of ``ini``."""
    (folder / "tag.rw").write_text(RULES)
    (folder / "pytest.ini").write_text(ini)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(folder / "tag.rw")], capture_output=True, text=True, cwd=folder)


def test_the_pytest_plugin_collects_rw_test_blocks(tmp_path):
    # The plugin is registered through the pytest11 entry point; a project turns it on.
    run = run_pytest_on_rules(tmp_path, "[pytest]\nrulepass_rw_tests = true\n")
    assert "1 passed, 2 failed" in run.stdout.replace("2 failed, 1 passed", "1 passed, 2 failed")
    assert "test wrong_expectation: FAILED" in run.stdout
    assert "Traceback" not in run.stdout


def test_the_pytest_plugin_is_off_unless_the_project_asks(tmp_path):
    # breaker item 4: installing rulepass made pytest collect every *.rw of every project
    run = run_pytest_on_rules(tmp_path, "[pytest]\n")
    assert run.returncode in (4, 5), run.stdout  # nothing collected
    assert "no tests ran" in run.stdout


def test_an_op_binding_read_as_another_patterns_operand_is_not_unused(tmp_path):
    (tmp_path / "join.rw").write_text(
        "pass p {\n  rule unit_scale {\n    match { f = pd_op.full() {value: 1}\n"
        "            s = pd_op.scale(x, f) {bias: 0} }\n"
        "    rewrite { replace s with x  erase s }\n  }\n}\n")
    report = check([tmp_path])
    assert not any("never read" in w for w in report.warnings), report.warnings
