"""The values every part of the rewrite engine shares: `ABSENT` (what a missing attribute, a
`first` with no hit or an unknown group reads as; see docs/rule-language.md "Absent") and
`EvalError` (an expression that cannot be evaluated). Below both the evaluator
(`rewrite/exprs.py`) and the function registry (`rewrite/functions.py`), which both raise and
return them.
"""

from __future__ import annotations

import rulepass.engine.lang.nodes as A


class Absent:
    """The one absent value (`ABSENT`): false, printed `absent`."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "absent"


ABSENT = Absent()


class EvalError(Exception):
    """An expression that cannot be evaluated (wrong operand types, an op with several results
    used as a value); `span` is where. The driver turns it into a RewriteError naming the rule."""

    def __init__(self, message: str, span: A.Span | None):
        super().__init__(message)
        self.message = message
        self.span = span
