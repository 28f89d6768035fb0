"""What a pass run records: one trace entry per rule application, and per-rule counts and time.

A trace entry (`Application`) is what `--trace FILE` writes as one JSON line: `pass`, `rule`,
`file`, `line`, `position` (the anchor op's position in the program as it stood just before the
application; null for an application anchored at a value, or when positions were not asked for)
and `before`/`after`, the ops the application matched and left, each as
`{"position": k, "name": "pd_op.add"}` (position in printed order, -1 when not computed).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import json
import os
import time
from pathlib import Path

import attrs


@attrs.define
class RuleStats:
    """Counts for one rule: `tried` (attempts at an op), `matched`, `applied`, and `seconds`
    spent matching."""

    rule: str
    file: str | None
    line: int
    tried: int = 0
    matched: int = 0
    applied: int = 0
    seconds: float = 0.0

    @contextlib.contextmanager
    def timer(self):
        """Adds the time spent in the `with` block to `seconds`."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds += time.perf_counter() - start

    def as_dict(self) -> dict:
        """The counts as a JSON-ready dict."""
        return attrs.asdict(self)


class PassStats:
    """Per-rule statistics of one or more pass runs, keyed by (pass, rule)."""

    def __init__(self):
        self.rules: dict[tuple, RuleStats] = {}
        self.by_rule: dict[int, RuleStats] = {}
        self._keep: list = []  # the rules whose ids key `by_rule`, kept alive

    def rule(self, rule) -> RuleStats:
        """The record of a compiled rule (created on first use)."""
        record = self.by_rule.get(id(rule))
        if record is not None:
            return record
        key = (rule.pass_name, rule.name)
        record = self.rules.get(key)
        self._keep.append(rule)
        if record is not None:
            self.by_rule[id(rule)] = record  # a fast path for the matcher's hot loop
            return record
        record = RuleStats(f"{rule.pass_name}.{rule.name}", rule.file, rule.line)
        self.rules[key] = record
        self.by_rule[id(rule)] = record
        return record

    def merge(self, other: "PassStats") -> None:
        """Add `other`'s counts to these."""
        for key, record in other.rules.items():
            mine = self.rules.get(key)
            if mine is None:
                self.rules[key] = attrs.evolve(record)
            else:
                mine.tried += record.tried
                mine.matched += record.matched
                mine.applied += record.applied
                mine.seconds += record.seconds

    def table(self) -> str:
        """A text table: rule, tried, matched, applied, milliseconds."""
        lines = [f"{'rule':40} {'tried':>8} {'matched':>8} {'applied':>8} {'ms':>9}"]
        for record in self.rules.values():
            lines.append(f"{record.rule:40} {record.tried:8d} {record.matched:8d} "
                         f"{record.applied:8d} {record.seconds * 1000:9.2f}")
        return "\n".join(lines)


@attrs.define(hash=True)
class Application:
    """One rule application: pass, rule, where the rule is, ops before and after. (Read-only by
    convention: not frozen, because one is made at every application and a frozen class takes
    three times as long to make.)"""

    pass_name: str
    rule: str
    file: str | None
    line: int
    before: tuple
    after: tuple
    #: the anchor op's position before the application (the latest matched op), when known
    position: int | None = None

    def as_dict(self) -> dict:
        """The JSON-ready form (keys `pass`, `rule`, `file`, `line`, `position`, `before`,
        `after`)."""
        return {
            "pass": self.pass_name,
            "rule": self.rule,
            "file": display_path(self.file),
            "line": self.line,
            "position": self.position,
            "before": [{"position": p, "name": n} for p, n in self.before],
            "after": [{"position": p, "name": n} for p, n in self.after],
        }

    def json(self) -> str:
        """One JSON line (keys sorted, so traces of equal runs are byte-identical): exactly
        `json.dumps(self.as_dict(), sort_keys=True)`, with what one rule's entries share
        written once."""
        key = (self.pass_name, self.rule, self.file, self.line)
        middle = _JSON_PARTS.get(key)
        if middle is None:
            if len(_JSON_PARTS) > 10_000:
                _JSON_PARTS.clear()
            middle = _JSON_PARTS[key] = (
                f', "file": {json.dumps(display_path(self.file))}, "line": '
                f'{json.dumps(self.line)}, "pass": {json.dumps(self.pass_name)}, "position": ',
                f', "rule": {json.dumps(self.rule)}}}')
        position = "null" if self.position is None else json.dumps(self.position)
        return ('{"after": ' + _ops_json(self.after) + ', "before": ' + _ops_json(self.before)
                + middle[0] + position + middle[1])

    def summary(self) -> str:
        """`rule at op (position)` for messages."""
        ops = ", ".join(f"{n}@{p}" if p >= 0 else n for p, n in self.before)
        return f"{self.rule} at {ops or 'no op'}"


#: (pass, rule, file, line) -> the JSON text around an entry's position (`Application.json`)
_JSON_PARTS: dict = {}
#: op name -> its JSON string
_NAMES: dict = {}


def _outlived(op, index: int, erased: dict) -> bool:
    """Whether `op` was still in the program after application `index`: neither it nor an op
    holding it was erased by then."""
    while op is not None:
        when = erased.get(op)
        if when is not None and when <= index:
            return False
        block = op.block
        op = block.parent_op if block is not None else None
    return True


def _ops_json(ops: tuple) -> str:
    """`[{"name": ..., "position": ...}, ...]` as `json.dumps` writes the list of dicts."""
    if not ops:
        return "[]"
    parts = []
    for position, name in ops:
        text = _NAMES.get(name)
        if text is None:
            text = _NAMES[name] = json.dumps(name)
        parts.append('{"name": ' + text + ', "position": '
                     + (str(position) if type(position) is int else json.dumps(position)) + "}")
    return "[" + ", ".join(parts) + "]"


def applications(pass_name: str, entries: list, erased: dict | None = None) -> list[Application]:
    """`entries` (a driver's record: `Application`s, or tuples made cheaply at each application:
    (rule, file, line, the ops matched) — the ops after are those of them still in the program,
    `erased` telling the index of the entry whose application erased an op —, or (rule, file,
    line, names of the ops before, names of the ops after[, their positions before, their
    positions after])) as `Application`s of pass `pass_name`, in place."""
    for i, entry in enumerate(entries):
        if type(entry) is tuple:
            if len(entry) == 4:
                rule, file, line, ops = entry
                before = tuple([(-1, op.name) for op in ops])
                after = tuple([(-1, op.name) for op in ops if _outlived(op, i, erased)])
                entries[i] = Application(pass_name, rule, file, line, before,
                                         before if len(after) == len(before) else after)
            elif len(entry) == 5:
                rule, file, line, before, after = entry
                before_pairs = tuple([(-1, name) for name in before])
                entries[i] = Application(
                    pass_name, rule, file, line, before_pairs,
                    before_pairs if after is before else tuple([(-1, name) for name in after]))
            else:
                rule, file, line, before, after, at_before, at_after = entry
                entries[i] = Application(pass_name, rule, file, line,
                                         tuple(zip(at_before, before)),
                                         tuple(zip(at_after, after)),
                                         at_before[-1] if at_before else None)
    return entries


@functools.lru_cache(maxsize=1)
def _roots() -> tuple:
    # the project (the folder holding the installed rules/), then the working folder
    return (Path(str(importlib.resources.files("rulepass.rules"))).parent.resolve(),)


def display_path(file: str | None) -> str | None:
    """`file` as a trace shows it: an installed rule file relative to the project
    (`rules/sp_fusion.rw`), a user's file relative to the working folder when it is under it,
    else as it was named."""
    if file is None or not os.path.isabs(file):
        return file
    return _display_path(file, os.getcwd())


@functools.lru_cache(maxsize=1024)
def _display_path(file: str, cwd: str) -> str:
    """`display_path` of an absolute path with the working folder `cwd` (memoised)."""
    path = Path(file)
    for root in _roots() + (Path(cwd),):
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return file


def write_trace(applications, path) -> None:
    """Write `applications` as JSON lines to `path`, atomically (a failed write leaves the old
    file); :class:`~rulepass.engine.files.FileError` naming the path when it cannot."""
    from rulepass.engine.files import write_text

    write_text(path, "".join(application.json() + "\n" for application in applications))
