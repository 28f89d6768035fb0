"""The rule language's built-in functions: one table, name -> arity, doc and implementation.

The checker (`lang/check.py`, through `rewrite.functions.arity`), the tree-walking evaluator
(`rewrite/exprs.py`) and the compiled expressions (`rewrite/codegen/exprs.py`) all read `BUILTINS`.
The language sits below the engine (lang -> rewrite), so the table is declared here with each
function's arity and doc, and the engine fills in the implementations (`implement`, called by
`rewrite/exprs.py` when it is imported). `has` is a special form: it reads its argument's
expression, not its value, so it has no implementation; the evaluator and the codegen handle it
by name. `docs/rule-language.md` ("Built-in functions") is the user's copy of the docs below.
"""

from __future__ import annotations

from typing import Callable

import attrs


@attrs.define(eq=False)
class Builtin:
    """One built-in function of the rule language.

    `least`/`most` are the numbers of arguments a call may write (a wrong number is a load error);
    `doc` is what the call returns, as `docs/rule-language.md` says it; `special` marks a form the
    evaluator handles from its argument's expression (`has`), which has no `impl`. `impl` is the
    engine's implementation, `impl(ctx, span, *args)` (the evaluation context, the call's source
    span for errors, the argument values), set by `implement`; None until the engine is imported.
    """

    name: str
    least: int
    most: int
    doc: str
    special: bool = False
    impl: Callable | None = None

    @property
    def arity(self) -> tuple[int, int]:
        """(least, most) number of arguments."""
        return self.least, self.most


def _table(*rows) -> dict[str, Builtin]:
    return {row[0]: Builtin(*row) for row in rows}


#: Built-in functions by name. The two-argument `any`/`all`/`first` are quantifiers (their own
#: syntax), not calls of these.
BUILTINS: dict[str, Builtin] = _table(
    ("has", 1, 1, "whether the expression is not absent", True),
    ("uses", 1, 1, "how many times a value is read (an op: summed over its results)"),
    ("len", 1, 1, "length of a list or string"),
    ("type", 1, 1, "the type of a value (an op: of its only result)"),
    ("index", 1, 1, "0-based position of the op in printed order, nested ops counted"),
    ("role", 1, 1, "the op's `op_role` attribute, -1 when absent"),
    ("opname", 1, 1, "the op's name, such as \"pd_op.relu\""),
    ("producer", 1, 1, "the op defining a value; absent for block arguments and ^kw: values"),
    ("users", 1, 1, "the ops reading a value (an op: any of its results), once, in program order"),
    ("operands", 1, 1, "the op's operand values; null operands are absent"),
    ("results", 1, 1, "the op's result values"),
    ("prev", 1, 1, "the op before this one in its block; absent at the start"),
    ("next", 1, 1, "the op after this one in its block; absent at the end"),
    ("in_region", 3, 3, "whether the op lies strictly between an op named start and the first "
                        "op named end after it, in the same block"),
    ("group_size", 1, 1, "number of ranks in the process group, absent if unknown"),
    ("group_rank", 2, 2, "the position of a rank in the process group; absent if unknown"),
    ("split_axis", 1, 1, "the axis a split op splits along (its `axis` attribute, or the value "
                         "of the pd_op.full producing operand 1); absent otherwise"),
    ("local_type", 2, 2, "the dense type a rank holds for a value or type"),
    ("any", 1, 1, "whether some item of the list is true"),
    ("all", 1, 1, "whether every item of the list is true"),
    ("first", 1, 1, "the first item of the list, absent when empty"),
    # additions (docs/rule-language.md): small conversions rules need for attribute values
    ("str", 1, 1, "text; a bare word gives its text"),
    ("int", 1, 1, "an int (from a float, a bool, or numeric text)"),
    ("min", 1, 2, "the smaller of two, or the smallest item of a list"),
    ("max", 1, 2, "the larger of two, or the largest item of a list"),
    ("abs", 1, 1, "the absolute value"),
    ("range", 1, 2, "[0, ..., n-1] or [a, ..., b-1]"),
    ("sum", 1, 1, "the sum of a list"),
)


def implement(name: str, fn: Callable) -> None:
    """Set the implementation of the built-in `name` to `fn(ctx, span, *args)`.

    Raises KeyError for a name the table does not declare (a built-in is added to the table, with
    its arity and doc, first), and ValueError for the special form `has` or for a second, different
    implementation of one name.
    """
    builtin = BUILTINS[name]
    if builtin.special:
        raise ValueError(f"{name}() is a special form of the evaluator, not implemented by a function")
    if builtin.impl is not None and builtin.impl is not fn:
        raise ValueError(f"built-in {name}() is already implemented")
    builtin.impl = fn


def arity(name: str) -> tuple[int, int] | None:
    """(least, most) arguments of the built-in `name`; None when it is not a built-in."""
    builtin = BUILTINS.get(name)
    return builtin.arity if builtin is not None else None
