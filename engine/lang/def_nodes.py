"""The syntax tree of named expressions (``def name(a, b) = expr`` at the top level of a file;
resolved and checked by :mod:`.defs`): frozen attrs classes, as the rest of the rule AST in
:mod:`.nodes`, which re-exports them."""

from __future__ import annotations

from typing import Any

import attrs

# `Span` below is nodes.py's class; annotations are never evaluated here, and nodes.py re-exports
# these classes, so importing it back would make an import cycle.
frozen = attrs.frozen(slots=True, eq=True, hash=True)


@frozen
class DefDecl:
    """``def name(params...) = body``: a named expression of its file and the files including it.

    ``params`` are the parameter names, in order; ``body`` reads only them (and quantifier
    variables, and pass params ``$p`` of the pass that calls it)."""

    name: str
    params: tuple
    body: Any
    span: Span


@frozen
class DefCall:
    """A call of a ``def``, as the loader resolves a ``Call`` whose name is a visible def:
    ``args`` are the call's argument expressions and ``decl`` the def (its body resolved too).
    Evaluated by value: the arguments first, left to right, then the body with each parameter
    bound to its argument's value (an absent argument binds as absent)."""

    name: str
    args: tuple
    decl: DefDecl
    span: Span
