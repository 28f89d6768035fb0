"""Limits every text parser of rulepass applies the same way (the fast and the lark program
parsers, the rule language): how deep an attribute value may nest and which integers a literal may
hold. Past them the input is a located error, never a ``RecursionError`` or Python's
int-string-conversion ``ValueError`` (issue 18).

- Nesting: an attribute array or a ``vec[...]`` type nests at most :data:`MAX_NESTING` deep, as
  rule expressions do (``lang/check.py``'s ``MAX_EXPRESSION_DEPTH``). Paddle's programs nest
  attributes 2 deep; the printer, the verifier and the rules walk values recursively.
- Regions: an op's regions (``pd_op.if``, ``pd_op.while``) nest at most :data:`MAX_REGION_NESTING`
  deep. Paddle's programs nest them a few levels; the printed text grows with the square of the
  depth (each level indents its lines), so 20,000 levels of 1.3 MB printed 2.4 GB.
- Meshes: a plan's process mesh holds at most :data:`MAX_MESH_RANKS` ranks.
- Integers: Paddle's integer attributes, dims and ids are int32 or int64 (``pir::Int64Attribute``);
  a literal outside int64 is an error rather than a value no program can carry.
"""

from __future__ import annotations

import re

#: How deep an attribute array (``[[...]]``) or a vector type (``vec[vec[...]]``) may nest.
MAX_NESTING = 100

#: How deep an op's regions may nest (a region inside an op inside a region ...).
MAX_REGION_NESTING = 100

#: The most ranks a process mesh a plan describes may hold (a plan's mesh is built rank by rank:
#: ``shape = [99999999999]`` ran out of memory). Paddle's largest jobs are far below it.
MAX_MESH_RANKS = 2**16

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class LimitExceeded(ValueError):
    """Text past one of the limits; ``message`` says which. Parsers turn it into their own
    located error (``ParseError``, ``RuleSyntaxError``) at the offending token."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def int64(text: str) -> int:
    """The integer written as ``text`` (``-?[0-9]+``), checked to fit in int64.

    Raises:
        LimitExceeded: the value is outside [-2**63, 2**63 - 1] (also for texts longer than
            Python's int-string limit, which are never converted).
    """
    digits = text[1:] if text[:1] in "-+" else text
    significant = digits.lstrip("0")
    if len(significant) <= 18:
        return int(text)
    if len(significant) == 19:
        value = int(text)
        if INT64_MIN <= value <= INT64_MAX:
            return value
    shown = text if len(text) <= 24 else f"{text[:12]}...{text[-6:]} ({len(digits)} digits)"
    raise LimitExceeded(f"integer {shown} is outside int64 (-2**63 .. 2**63-1)")


def nesting_message(what: str = "attribute value") -> str:
    """The message for a value nested deeper than :data:`MAX_NESTING`."""
    return (f"the {what} nests more than {MAX_NESTING} levels deep (brackets); "
            f"rulepass reads at most {MAX_NESTING}")


def region_nesting_message() -> str:
    """The message for an op whose region would nest deeper than :data:`MAX_REGION_NESTING`."""
    return (f"regions nest more than {MAX_REGION_NESTING} levels deep (an op with regions inside "
            f"a region ...); rulepass reads at most {MAX_REGION_NESTING}")


#: A string attribute as Paddle prints it (``ir.attributes.format_string``), the one string rule
#: of both program parsers: ``"``, characters in which ``\\"`` does not end the string, ``"``.
#: Newlines may occur. A backslash is never split from the quote after it, even when
#: backtracking; linear in the text (every alternative after the first character class starts
#: with a backslash, which the class excludes).
STRING_PATTERN = r'"([^"\\]*(?:\\(?:"|(?!"))[^"\\]*)*)"'

#: A program's brackets and its strings (Paddle's: only `\"` escapes, newlines may occur), which
#: :func:`first_too_deep` skips; a `"` that starts no string is skipped alone.
PROGRAM_BRACKETS = re.compile(STRING_PATTERN + r'|[\[\]{}]')
_DEPTH_STEP = {"[": 1, "{": 1, "(": 1, "]": -1, "}": -1, ")": -1}


def first_too_deep(text: str, limit: int = MAX_NESTING,
                   tokens: re.Pattern = PROGRAM_BRACKETS) -> int | None:
    """Offset in ``text`` of the first opening bracket that opens level ``limit + 1`` (levels
    counted across the whole text), or None. ``tokens`` finds the brackets counted and the text
    skipped (a string, a comment): each of its matches is one bracket character (``[ { (`` open,
    ``] } )`` close) or a longer text, skipped; default :data:`PROGRAM_BRACKETS` (``[`` ``{``,
    Paddle's strings skipped). Linear in ``len(text)``; for the parsers that would otherwise
    recurse into the value (lark's tree transformer, the rule language's transformer)."""
    depth = 0
    step_of = _DEPTH_STEP.get
    for m in tokens.finditer(text):
        step = step_of(m.group())
        if step == 1:
            depth += 1
            if depth > limit:
                return m.start()
        elif step == -1:
            depth = max(0, depth - 1)
    return None
