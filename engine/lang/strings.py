"""The value of a `"..."` string in a `.rw` file.

The rule language's strings take Python's escapes (docs/rule-language.md, "Expressions"):
``\\\\ \\' \\" \\a \\b \\f \\n \\r \\t \\v``, ``\\ooo`` (one to three octal digits),
``\\xhh``, ``\\N{name}``, ``\\uhhhh`` and ``\\Uhhhhhhhh``. Anything else after a backslash, an
escape cut short (``\\x4``, ``\\u12``), an unknown character name, a code point past U+10FFFF, a
lone surrogate (``\\ud800``: no UTF-8 text can hold it) and a NUL (written or escaped: Paddle's
strings are C strings in places) are a `RuleSyntaxError` at the escape, never Python's own error.
"""

from __future__ import annotations

import re
import unicodedata

from rulepass.engine.errors import RuleSyntaxError

_SIMPLE = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n",
           "r": "\r", "t": "\t", "v": "\v"}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}
_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|([xuU])([0-9A-Fa-f]*)|N\{([^}\n]*)\}|(N)|(.))")


def decode_string(raw: str, filename: str | None, line: int, column: int) -> str:
    """The value of the string token ``raw`` (``"..."``, quotes included, one line), which starts
    at ``line``:``column`` of ``filename``.

    Raises:
        RuleSyntaxError: at the bad escape or character (see the module docstring).
    """
    body = raw[1:-1]

    def fail(offset: int, message: str):
        raise RuleSyntaxError(message, filename, line, column + 1 + offset)

    out = []
    last = 0

    def plain(start: int, end: int) -> None:
        """Characters written as they are, ``body[start:end]``."""
        for offset in range(start, end):
            problem = _unwritable(body[offset])
            if problem:
                fail(offset, problem)
        out.append(body[start:end])

    def escaped(start: int, end: int, char: str) -> None:
        """The character the escape ``body[start:end]`` stands for."""
        problem = _unwritable(char)
        if problem:
            fail(start, f"{problem} (`{body[start:end]}`)")
        out.append(char)

    for m in _ESCAPE.finditer(body):
        plain(last, m.start())
        last = m.end()
        octal, kind, digits, name, bare_n, other = m.groups()
        text = m.group(0)
        if octal is not None:
            escaped(m.start(), last, chr(int(octal, 8)))
        elif kind is not None:
            width = _HEX_DIGITS[kind]
            if len(digits) < width:
                fail(m.start(), f"bad escape `{text}` in a string: \\{kind} takes exactly {width} "
                                "hex digits")
            last = m.start() + 2 + width
            code = int(digits[:width], 16)
            if code > 0x10FFFF:
                fail(m.start(), f"bad escape `{body[m.start():last]}` in a string: past U+10FFFF, "
                                "the last code point")
            escaped(m.start(), last, chr(code))
        elif name is not None:
            try:
                escaped(m.start(), last, unicodedata.lookup(name))
            except KeyError:
                fail(m.start(), f"bad escape `{text}` in a string: no character is named {name!r}")
        elif bare_n is not None:
            fail(m.start(), "bad escape `\\N` in a string: write \\N{NAME}")
        elif other in _SIMPLE:
            out.append(_SIMPLE[other])
        else:
            fail(m.start(), f"bad escape `{text}` in a string; the escapes are \\\\ \\\" \\' "
                            "\\n \\t \\r \\a \\b \\f \\v \\ooo \\xhh \\uhhhh \\Uhhhhhhhh \\N{name}")
    plain(last, len(body))
    return "".join(out)


def _unwritable(char: str) -> str | None:
    """Why the character ``char`` cannot be in a string of a program (NUL, a lone surrogate), or
    None."""
    if char == "\x00":
        return "a string may not hold a NUL character"
    if "\ud800" <= char <= "\udfff":
        return (f"a string may not hold the lone surrogate U+{ord(char):04X} (no UTF-8 text can "
                "hold it)")
    return None
