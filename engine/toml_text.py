"""TOML text (plans, example configs) read with the standard library's ``tomllib``, every refusal
one :class:`TomlError` with a line and column.

``tomllib.loads`` raises ``TOMLDecodeError`` for a syntax error, but two other inputs escape it as
Python's own errors: an integer literal longer than Python converts from text
(``sys.get_int_max_str_digits()``, 4,300 digits: a ``ValueError``), and arrays or inline tables
nested a few hundred deep (its recursive descent: a ``RecursionError``). Both are located here
by scanning the text, so a hostile plan is one line like any other mistake.
"""

from __future__ import annotations

import re
import sys
import tomllib

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
    position), an integer literal of more digits than Python converts (at its first digit), and
    arrays or inline tables nested deeper than tomllib can follow (at the first bracket past
    100 levels)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = _POSITION.search(message)
        if found is None:
            raise TomlError(message) from None
        raise TomlError(message[:found.start()], int(found[1]), int(found[2])) from None
    except RecursionError:
        line, col = _position(text, _deep_bracket(text, 100))
        raise TomlError("arrays or inline tables nest too deep (more than 100 levels)",
                        line, col) from None
    except ValueError as error:  # Python's int-from-text digit limit, through tomllib
        limit = sys.get_int_max_str_digits()
        number = re.search(r"\d[\d_]{%d,}" % limit, text) if limit else None
        if number is None:
            raise TomlError(str(error)) from None
        raise TomlError(f"an integer literal of more than {limit:,} digits",
                        *_position(text, number.start())) from None


def _deep_bracket(text: str, depth: int) -> int | None:
    """The offset of the first ``[`` or ``{`` that opens level ``depth + 1`` (brackets inside
    strings counted too: a best guess for the message, never a judgement)."""
    level = 0
    for offset, char in enumerate(text):
        if char in "[{":
            level += 1
            if level > depth:
                return offset
        elif char in "]}":
            level = max(level - 1, 0)
    return None


def _position(text: str, offset: int | None) -> tuple[int | None, int | None]:
    """1-based line and column of ``offset`` in ``text`` (None, None without one)."""
    if offset is None:
        return None, None
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
