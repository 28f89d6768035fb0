"""pytest plugin: collects the test blocks of `.rw` rule files as pytest items.

Registered through the `pytest11` entry point, and opt-in: a project turns it on with the ini
option ``rulepass_rw_tests = true`` (``[tool.pytest.ini_options]`` of its pyproject.toml, or
``pytest -o rulepass_rw_tests=true``); then `pytest rules/` runs every `test name { ... }` block
of every `.rw` file there. Off by default, so installing rulepass does not make pytest collect
(and load, and run) the `.rw` files of every other project. A file that does not load (syntax or
meaning error) is one failing item that shows the error.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser):
    """The ini option that turns collecting `.rw` files on."""
    parser.addini("rulepass_rw_tests", type="bool", default=False,
                  help="collect the test blocks of .rw rule files (rulepass)")


def pytest_collect_file(parent, file_path):
    """Collect `.rw` files, when the project asked for it (``rulepass_rw_tests = true``)."""
    if file_path.suffix == ".rw" and parent.config.getini("rulepass_rw_tests"):
        return RuleFile.from_parent(parent, path=file_path)
    return None


#: Rule sets of the folders loaded so far in this session (None: the folder did not load).
_FOLDERS: dict = {}


def rule_set_for(path):
    """The rules a file's tests run against: its whole folder loaded together (as `rulepass
    check FOLDER` loads it, so a test may run a pass of a sibling file), or the file alone when
    the folder does not load (then only the broken file reports the error)."""
    from rulepass.engine.api import load_rules
    from rulepass.engine.errors import RulepassError

    folder = path.parent
    if folder not in _FOLDERS:
        try:
            _FOLDERS[folder] = load_rules([folder])
        except RulepassError:
            _FOLDERS[folder] = None
    rule_set = _FOLDERS[folder]
    return rule_set if rule_set is not None else load_rules([path])


class RuleFileError(Exception):
    """A test block failed or its file did not load; the message is shown as is."""


class RuleFile(pytest.File):
    """One `.rw` file: its test blocks are the items."""

    def collect(self):
        """Load the file (with its includes) and yield one item per test block defined in it."""
        from rulepass.engine.errors import RulepassError

        try:
            rule_set = rule_set_for(self.path)
        except RulepassError as error:
            yield RuleLoadItem.from_parent(self, name="load", error=error)
            return
        for test in rule_set.tests:
            if test.span.file == str(self.path):
                yield RuleTestItem.from_parent(self, name=test.name, rule_set=rule_set,
                                               test=test)


class RuleTestItem(pytest.Item):
    """One `test` block."""

    def __init__(self, *, rule_set, test, **kwargs):
        super().__init__(**kwargs)
        self.rule_set = rule_set
        self.test = test

    def runtest(self):
        """Run the block; raise RuleFileError with the reason when it fails."""
        from rulepass.engine.rule_tests import run_test

        outcome = run_test(self.rule_set, self.test)
        if not outcome.passed:
            raise RuleFileError(outcome.line_text())

    def repr_failure(self, excinfo):
        """The runner's message, not a Python traceback."""
        if isinstance(excinfo.value, RuleFileError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        """Where the test block is."""
        return self.path, self.test.span.line - 1, f"test {self.test.name}"


class RuleLoadItem(pytest.Item):
    """Stands for a `.rw` file that does not load: fails with the load error."""

    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        """Always fails: the file did not load."""
        raise RuleFileError(str(self.error))

    def repr_failure(self, excinfo):
        """The load error as the user would see it from `rulepass check`."""
        return str(excinfo.value)

    def reportinfo(self):
        """The file."""
        return self.path, 0, "load"
