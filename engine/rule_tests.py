"""Run the `test` blocks of `.rw` files: parse the input program, run the pass or pipeline, and
compare the printed output exactly (a failure shows a unified diff), or check that given lines
appear in it in order (`expect contains`, as filecheck's CHECK lines), that it is unchanged, or
that the run fails with a message containing the expected text.

Used by `rulepass check` and by the pytest plugin (`rulepass/pytest_plugin.py`).
"""

from __future__ import annotations

import difflib

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RulepassError


@attrs.frozen
class TestOutcome:
    """The result of one test block: `passed`, and when not, `message` says why."""

    __test__ = False  # not a pytest test class

    name: str
    file: str | None
    line: int
    passed: bool
    message: str = ""

    def line_text(self) -> str:
        """`file:line: test NAME: PASSED|FAILED` plus the reason on the next lines."""
        status = "passed" if self.passed else "FAILED"
        head = f"{self.file or '<rules>'}:{self.line}: test {self.name}: {status}"
        return head if self.passed else f"{head}\n{self.message}"


def expected_text(text: str) -> str:
    """A text block as a program text: trailing blank lines dropped, one final newline."""
    return text.rstrip("\n").rstrip() + "\n" if text.strip() else ""


def strip_line_ends(text: str) -> str:
    """`text` without trailing spaces on its lines."""
    return "\n".join(line.rstrip() for line in text.split("\n"))


def diff(expected: str, actual: str) -> str:
    """A unified diff, expected first."""
    lines = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "expected",
                                 "actual", lineterm="")
    return "\n".join(lines)


def missing_line(expected: str, actual: str) -> str | None:
    """The first non-blank line of ``expected`` (leading and trailing spaces ignored) that is not
    part of a line of ``actual`` after the line that matched the one before it, with what it
    followed; None when every line is found in order (filecheck's CHECK semantics)."""
    lines = actual.split("\n")
    at, previous = 0, None
    for want in (line.strip() for line in expected.split("\n")):
        if not want:
            continue
        found = next((i for i in range(at, len(lines)) if want in lines[i]), None)
        if found is None:
            where = (f"after the line matching {previous!r} (output line {at})" if previous
                     else "anywhere in the output")
            return f"expected line {want!r} not found {where}"
        at, previous = found + 1, want
    return None


def run_test(rule_set, test: A.TestDecl) -> TestOutcome:
    """Run one test block against `rule_set` (an `api.RuleSet`)."""
    from rulepass.engine.pir.parse import parse_program
    from rulepass.engine.pir.printer import print_program
    from rulepass.engine.rewrite.compiled import constant

    where = dict(name=test.name, file=test.span.file, line=test.span.line)
    try:
        program = parse_program(test.input, f"{test.span.file}:{test.span.line} (test input)")
        before = print_program(program)
        args = {arg.name: constant(arg.value, rule_set.sources) for arg in test.run.args}
        rule_set.run(program, test.run.name, **args)
        actual = print_program(program)
    except RulepassError as error:
        if isinstance(test.expect, A.ExpectError):
            if test.expect.text in str(error):
                return TestOutcome(passed=True, **where)
            return TestOutcome(passed=False, message=f"expected an error containing "
                               f"{test.expect.text!r}, got:\n{error}", **where)
        return TestOutcome(passed=False, message=f"unexpected error:\n{error}", **where)
    if isinstance(test.expect, A.ExpectError):
        return TestOutcome(passed=False, message=f"expected an error containing "
                           f"{test.expect.text!r}, but the run succeeded:\n{actual}", **where)
    if isinstance(test.expect, A.ExpectUnchanged):
        if actual == before:
            return TestOutcome(passed=True, **where)
        return TestOutcome(passed=False, message="expected the program unchanged:\n"
                           + diff(before, actual), **where)
    if isinstance(test.expect, A.ExpectContains):
        missing = missing_line(test.expect.text, actual)
        if missing is None:
            return TestOutcome(passed=True, **where)
        return TestOutcome(passed=False, message=f"{missing}; the output:\n{actual}", **where)
    expected = expected_text(test.expect.text)
    # Paddle prints `-> ` with a trailing space after an op without results; editors strip
    # trailing spaces from rule files, so lines compare without them.
    if strip_line_ends(actual) == strip_line_ends(expected):
        return TestOutcome(passed=True, **where)
    return TestOutcome(passed=False, message="output differs:\n"
                       + diff(strip_line_ends(expected), strip_line_ends(actual)), **where)


def run_tests(rule_set, tests=None) -> list[TestOutcome]:
    """Run `tests` (default: every test block of the rule set), in file order."""
    return [run_test(rule_set, test) for test in (rule_set.tests if tests is None else tests)]


def summary(outcomes: list[TestOutcome]) -> str:
    """`N passed, M failed`."""
    passed = sum(o.passed for o in outcomes)
    return f"{passed} passed, {len(outcomes) - passed} failed"


@attrs.frozen
class CheckReport:
    """What `rulepass check` reports: lint `warnings`, load `errors` and test `outcomes`."""

    warnings: tuple
    errors: tuple
    outcomes: tuple

    @property
    def failed(self) -> int:
        """Failed tests plus files that did not load."""
        return len(self.errors) + sum(not o.passed for o in self.outcomes)

    def lines(self) -> list[str]:
        """One entry per failure or load error (each may span lines), then `N passed, M
        failed`."""
        out = list(self.errors)
        out.extend(o.line_text() for o in self.outcomes if not o.passed)
        passed = sum(o.passed for o in self.outcomes)
        out.append(f"{passed} passed, {self.failed} failed")
        return out


def check(paths) -> CheckReport:
    """Load the rule files of `paths` together (files or folders), lint them and run every test
    block. A load error is reported (not raised) and counts as one failure."""
    from rulepass.engine.api import load_rules
    from rulepass.engine.lang.lint import lint

    try:
        rule_set = load_rules(paths)
    except RulepassError as error:
        return CheckReport((), (str(error),), ())
    warnings = tuple(str(w) for w in lint(rule_set))
    return CheckReport(warnings, (), tuple(run_tests(rule_set)))
