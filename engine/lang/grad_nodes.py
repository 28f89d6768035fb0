"""The syntax tree of grad declarations (``grad <op pattern> { ... }`` in rules/grad.rw; evaluated
by engine/paddle/grad.py): frozen attrs classes, as the rest of the rule AST in :mod:`.nodes`."""

from __future__ import annotations

from typing import Any

import attrs

# `OpPattern` and `Span` below are nodes.py's classes; annotations are never evaluated here, and
# nodes.py re-exports these classes, so importing it back would make an import cycle.


@attrs.frozen
class GradDecl:
    """``grad <op pattern> [where e] { statements }``."""

    pattern: OpPattern
    where: Any
    body: tuple
    span: Span


@attrs.frozen
class GradContrib:
    """``grad x += expr``: ``expr`` is added to the grad of forward operand ``x``."""

    name: str
    value: Any
    span: Span
