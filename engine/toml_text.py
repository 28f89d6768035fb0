"""TOML text (plans, example configs) read with the standard library's ``tomllib``, every refusal
one :class:`TomlError` with a line and column.

``tomllib.loads`` raises ``TOMLDecodeError`` for a syntax error, but two other inputs escape it as
Python's own errors: an integer literal longer than Python converts from text
(``sys.get_int_max_str_digits()``, 4,300 digits: a ``ValueError``), and arrays or inline tables
nested a few hundred deep (its recursive descent: a ``RecursionError``, sooner when the caller's
stack is deep). One scan of the text, strings and comments apart, refuses both first, located:
nesting past ``limits.MAX_NESTING`` (100, as every parser of rulepass) and the long integer.
"""

from __future__ import annotations

import re
import sys
import tomllib

from rulepass.engine.limits import MAX_NESTING, first_too_deep

_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


class TomlError(ValueError):
    """TOML text ``tomllib`` refuses: ``message``, and the 1-based ``line`` and ``col`` of the
    fault (None when tomllib names the end of the text). ``str()`` reads as tomllib's own
    errors do: ``message (at line L, column C)``."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None):
        self.message, self.line, self.col = message, line, col
        where = f" (at line {line}, column {col})" if line is not None else ""
        super().__init__(message + where)


def parse_toml(text: str) -> dict:
    """``tomllib.loads(text)``. Raises :class:`TomlError` for a syntax error (at tomllib's
    position), arrays or inline tables nested more than :data:`MAX_NESTING` deep (at the first
    bracket past it, strings and comments apart, whatever the caller's stack), and an integer
    literal of more digits than Python converts (at its first digit)."""
    deep, long_number = _scan(text)
    if deep is not None:
        raise TomlError(f"arrays or inline tables nest more than {MAX_NESTING} deep",
                        *_position(text, deep))
    if long_number is not None:
        raise TomlError(f"an integer literal of more than {sys.get_int_max_str_digits():,} "
                        "digits", *_position(text, long_number))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = _POSITION.search(message)
        if found is None:
            raise TomlError(message) from None
        raise TomlError(message[:found.start()], int(found[1]), int(found[2])) from None
    except (RecursionError, ValueError) as error:  # what the scan did not foresee
        raise TomlError(f"cannot be read: {type(error).__name__}: {error}") from None


#: What a scan of TOML text skips: multi-line basic and literal strings, basic strings (with
#: escapes) and literal strings, comments. Every alternative starts with a different character
#: or is anchored by its closing quotes, so the scan stays linear.
_SKIPPED = (r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""|\'\'\'[\s\S]*?\'\'\''
            r'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
#: Brackets outside strings and comments, for :func:`limits.first_too_deep`.
_BRACKETS = re.compile(_SKIPPED + r"|[\[\]{}]")
#: Digit runs (underscores allowed) outside strings and comments.
_DIGITS = re.compile(_SKIPPED + r"|[0-9][0-9_]*")


def _scan(text: str) -> tuple[int | None, int | None]:
    """(offset of the first ``[`` or ``{`` past :data:`MAX_NESTING` levels, offset of the first
    integer of more digits than Python converts), both outside strings and comments; None when
    there is none. The nesting is :func:`limits.first_too_deep`'s, as every parser of rulepass
    counts it."""
    deep = first_too_deep(text, MAX_NESTING, _BRACKETS)
    limit = sys.get_int_max_str_digits()
    if not limit:
        return deep, None
    for match in _DIGITS.finditer(text):
        start, end = match.span()
        if text[start].isdigit() and _long_integer(text, start, end, limit):
            return deep, start
    return deep, None


def _long_integer(text: str, start: int, end: int, limit: int) -> bool:
    """Whether the digit run ``text[start:end]`` is an integer of more than ``limit`` digits:
    not a part of a float (next to ``.``, ``e`` or ``E``), which Python converts whatever its
    length."""
    if (start and text[start - 1] in ".eE") or (end < len(text) and text[end] in ".eE"):
        return False
    return sum(c.isdigit() for c in text[start:end]) > limit


def _position(text: str, offset: int | None) -> tuple[int | None, int | None]:
    """1-based line and column of ``offset`` in ``text`` (None, None without one)."""
    if offset is None:
        return None, None
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
