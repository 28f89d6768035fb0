"""Attribute values of ops, as Paddle 3.x prints them.

An attribute value is one of: ``bool``, ``int``, ``float``, ``str``, a ``tuple`` of values (an
array, printed ``[a,b]``), a :class:`Symbol` (a bare word such as the dtype ``float32`` or a layout
``NCHW``), a :class:`Place` (``Place(cpu)``), or an :class:`~rulepass.engine.ir.types.OperationDistAttr`
(the nested ``op_dist_attr:{...}``, kept on the op as ``op.dist_attr``).

Floats print the way C++'s ``std::ostream`` does by default (``%g``: ``1e-05``, ``0.5``, ``1``),
which is how Paddle writes them, so Paddle's text round-trips; a float that ``%g`` would round is
printed with Python's shortest exact form instead, so ``parse(print(p)) == p`` for any program.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Symbol:
    """A bare word attribute value: a dtype (``float32``), a layout (``NCHW``), an enum."""

    text: str

    def __str__(self) -> str:
        return self.text


@attrs.frozen
class Place:
    """A device place, printed ``Place(cpu)``, ``Place(gpu:0)``, ``Place(undefined:0)``."""

    text: str

    def __str__(self) -> str:
        return f"Place({self.text})"


def format_float(x: float) -> str:
    """Print a float as Paddle does (``%g``), falling back to the exact shortest form when ``%g``
    would lose digits. ``inf``/``nan`` print as C++ does (``inf``, ``-inf``, ``nan``)."""
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    text = "%g" % x
    if float(text) == x:
        return text
    return repr(x)


def format_string(s: str) -> str:
    """Quote a string attribute the way Paddle 3.3.1 prints it: every ``"`` as ``\\"``, every
    other character as it is (a backslash, a newline, a NUL, non-ASCII). A value ending in a
    backslash therefore prints as ``"...\\"``, which neither Paddle's lexer nor rulepass reads
    back (docs/deviations.md, "Strings ending in a backslash")."""
    return f'"{s.replace(chr(34), chr(92) + chr(34))}"' if '"' in s else f'"{s}"'


def unquote_string(body: str) -> str:
    """The value of a string attribute whose text between the quotes is ``body``: ``\\"`` is a
    ``"``, every other character (a lone backslash, a newline) stands for itself. Paddle's lexer
    (paddle/pir/src/core/parser/lexer.cc, ``Lexer::LexString``) reads strings so; the inverse of
    :func:`format_string`."""
    return body.replace('\\"', '"') if '\\"' in body else body


def format_value(v) -> str:
    """Print an attribute value (not ``op_dist_attr``, which :mod:`printer` handles)."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, str):
        return format_string(v)
    if isinstance(v, (tuple, list)):
        return "[" + ",".join(format_value(x) for x in v) + "]"
    if isinstance(v, (Symbol, Place)):
        return str(v)
    raise TypeError(f"cannot print attribute value {v!r} of type {type(v).__name__}")


def to_python(v):
    """An attribute value as plain Python for kernels: arrays become lists, symbols strings."""
    if isinstance(v, (tuple, list)):
        return [to_python(x) for x in v]
    if isinstance(v, Symbol):
        return v.text
    if isinstance(v, Place):
        return str(v)
    return v
