"""The syntax tree of the rule language: frozen attrs classes, one per rule of `grammar/rw.lark`.

Class names are the grammar's rule names (or `-> alias`es) in CamelCase: `pass_decl` -> `PassDecl`,
`op_pattern` -> `OpPattern`, `coalesce_op` -> `CoalesceOp`. Every node carries `span`, where it
starts in its file. The tree only records what was written; meaning is checked in `rw_compile`.
"""

from __future__ import annotations

from typing import Any, Union

import attrs

frozen = attrs.frozen(slots=True, eq=True, hash=True)


@frozen
class Span:
    """Where a node starts: file name (or None), 1-based line and column."""

    file: str | None
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file or '<input>'}:{self.line}:{self.col}"


# ---- expressions ------------------------------------------------------------------------------

@frozen
class Literal:
    """An int, float, string or bool literal; `value` is the Python value."""

    value: Any
    span: Span


@frozen
class ListExpr:
    """`[a, b, ...]`."""

    items: tuple
    span: Span


@frozen
class ParamRef:
    """`$name`: a pass param."""

    name: str
    span: Span


@frozen
class Var:
    """A variable bound by a pattern, a `for`, a quantifier or a created op."""

    name: str
    span: Span


@frozen
class ResultRef:
    """`sp#1`: result `index` of the op bound to `name`."""

    name: str
    index: int
    span: Span


@frozen
class Field:
    """`base.name`: an attribute of an op (`o.ring_id`), or a member (`o.dist.mesh`, `t.shape`)."""

    base: Any
    name: str
    span: Span


@frozen
class Subscript:
    """`base[index]`."""

    base: Any
    index: Any
    span: Span


@frozen
class Call:
    """`func(args...)`: a built-in or a Python-registered function."""

    func: str
    args: tuple
    span: Span


@frozen
class Quantifier:
    """`any(var in seq, body)`, `all(...)` or `first(...)`; `kind` is the function's name."""

    kind: str
    var: str
    seq: Any
    body: Any
    span: Span


@frozen
class OrOp:
    """`left or right` (short-circuit)."""

    left: Any
    right: Any
    span: Span


@frozen
class AndOp:
    """`left and right` (short-circuit)."""

    left: Any
    right: Any
    span: Span


@frozen
class NotOp:
    """`not operand`."""

    operand: Any
    span: Span


@frozen
class Compare:
    """`left op right`, `op` one of `== != < <= > >=`."""

    op: str
    left: Any
    right: Any
    span: Span


@frozen
class InOp:
    """`left in right`: list membership, substring, or rank in a process mesh."""

    left: Any
    right: Any
    span: Span


@frozen
class NotInOp:
    """`left not in right`."""

    left: Any
    right: Any
    span: Span


@frozen
class CoalesceOp:
    """`left ?? right`: `right` when `left` is absent."""

    left: Any
    right: Any
    span: Span


@frozen
class Arith:
    """`left op right`, `op` one of `+ - * // %`."""

    op: str
    left: Any
    right: Any
    span: Span


@frozen
class Negate:
    """`-operand`."""

    operand: Any
    span: Span


@frozen
class Conditional:
    """`then if cond else orelse`: only the chosen branch is evaluated."""

    then: Any
    cond: Any
    orelse: Any
    span: Span


@frozen
class LetRef:
    """A `let` name read in a rule's `where`: the matcher tests the term with the let's
    expression in its place (`value`), and messages show the name."""

    name: str
    value: Any
    span: Span


Expr = Union[LetRef, Conditional, Literal, ListExpr, ParamRef, Var, ResultRef, Field, Subscript, Call, Quantifier,
             OrOp, AndOp, NotOp, Compare, InOp, NotInOp, CoalesceOp, Arith, Negate]


# ---- patterns ---------------------------------------------------------------------------------

@frozen
class OperandVar:
    """An operand bound to a variable (the same variable twice is the same value)."""

    name: str
    span: Span


@frozen
class OperandResult:
    """An operand that must be result `index` of the op bound to `name` (`sp#1`)."""

    name: str
    index: int
    span: Span


@frozen
class OperandAny:
    """`_`: any one operand."""

    span: Span


@frozen
class OperandRest:
    """`..`: any number of remaining operands."""

    span: Span


@frozen
class AttrBind:
    """`{key: var}`: binds (or joins on) the attribute's value."""

    name: str
    span: Span


@frozen
class AttrPresent:
    """`{key: _}`: the attribute must be present."""

    span: Span


@frozen
class AttrEqual:
    """`{key: literal}`: the attribute must equal the value of `value` (a constant expression)."""

    value: Any
    span: Span


@frozen
class AttrPattern:
    """One `key: ...` of an op pattern's attribute list."""

    key: str
    value: Union[AttrBind, AttrPresent, AttrEqual]
    span: Span


@frozen
class OpPattern:
    """`binding = ops(operands) {attrs}`.

    `ops` is a tuple of op names, or None for `*`; `operands` is None when the list is left out
    (any operands); `binding` is None for an unnamed (nested) pattern.
    """

    binding: str | None
    ops: tuple | None
    operands: tuple | None
    attrs: tuple
    span: Span


@frozen
class RegionBounds:
    """`start .. end`: the two boundary patterns of a region."""

    start: OpPattern
    end: OpPattern
    span: Span


@frozen
class MatchOps:
    """`match { patterns } [inside start .. end]`."""

    patterns: tuple
    inside: RegionBounds | None
    span: Span


@frozen
class MatchRegion:
    """`match region start .. end as body`."""

    bounds: RegionBounds
    body: str
    span: Span


@frozen
class MatchValue:
    """`match value v`: values no op defines (block arguments, `^kw:` values)."""

    name: str
    span: Span


# ---- rewrites ---------------------------------------------------------------------------------

@frozen
class AttrExpr:
    """One `key: expr` of a created op's attributes."""

    key: str
    value: Any
    span: Span


@frozen
class CreateOp:
    """`[binding =] dialect.op(operands) {attrs} [: types]`."""

    binding: str | None
    op_name: str
    operands: tuple
    attrs: tuple
    types: tuple
    span: Span


@frozen
class ReplaceAction:
    """`replace target with replacement [in readers]` (ops or values; `readers`, an op or a list
    of ops, limits the change to their uses; None: every use)."""

    target: Any
    replacement: Any
    span: Span
    readers: Any = None


@frozen
class EraseAction:
    """`erase a, b, body`: removes the listed ops (and op lists) together."""

    items: tuple
    span: Span


@frozen
class FieldPath:
    """`var.name.name...`: the target of `set` and `unset`."""

    var: str
    names: tuple
    span: Span


@frozen
class SetAction:
    """`set path = value`."""

    path: FieldPath
    value: Any
    span: Span


@frozen
class UnsetAction:
    """`unset path`."""

    path: FieldPath
    span: Span


@frozen
class RetypeAction:
    """`retype value : type`."""

    value: Any
    type: Any
    span: Span


@frozen
class ForAction:
    """`for var in seq [where cond] { body }`."""

    var: str
    seq: Any
    where: Any
    body: tuple
    span: Span


@frozen
class FailAction:
    """`fail "message"`: stops the pass with this message, naming the op."""

    message: Any
    span: Span


@frozen
class LetDecl:
    """`let name = value`: between a rule's match and its `where`/`rewrite`, or an action of a
    rewrite (visible to the actions after it)."""

    name: str
    value: Any
    span: Span


Action = Union[LetDecl, CreateOp, ReplaceAction, EraseAction, SetAction, UnsetAction, RetypeAction,
               ForAction, FailAction]


# ---- passes, pipelines, tests -----------------------------------------------------------------

@frozen
class RuleDecl:
    """`rule name [priority N] { match ... [where e] rewrite { ... } }`."""

    name: str
    priority: int
    match: Union[MatchOps, MatchRegion, MatchValue]
    where: Any
    rewrite: tuple
    span: Span
    #: the `let` lines between the match and `where` (or `rewrite`), in order
    lets: tuple = ()


@frozen
class Param:
    """`name: type [= default]`; `type` is one of int, float, bool, str."""

    name: str
    type: str
    default: Any
    span: Span


@frozen
class PassDecl:
    """`pass name(params) [sweep [reverse]] { rules }`; `strategy` is "fixpoint", "sweep" or
    "sweep_reverse"."""

    name: str
    params: tuple
    strategy: str
    rules: tuple
    span: Span


@frozen
class NamedArg:
    """`name: expr` in a pipeline entry or a test's `run`."""

    name: str
    value: Any
    span: Span


@frozen
class PipelineEntry:
    """One pass (or pipeline) of a pipeline, with its params."""

    name: str
    args: tuple
    span: Span


@frozen
class PipelineDecl:
    """`pipeline name = entry, entry, ...`."""

    name: str
    entries: tuple
    span: Span


@frozen
class IncludeDecl:
    """`include "path"` (relative to the including file)."""

    path: str
    span: Span


@frozen
class RunClause:
    """`run name(args)` of a test block."""

    name: str
    args: tuple
    span: Span


@frozen
class ExpectText:
    """`expect` followed by a program text block: the printed output, compared exactly."""

    text: str
    span: Span


@frozen
class ExpectContains:
    """`expect contains` followed by a text block: its non-blank lines must each appear in the
    printed output (as part of a line, leading and trailing spaces ignored), in this order."""

    text: str
    span: Span


@frozen
class ExpectUnchanged:
    """`expect unchanged`: the output prints as the input does."""

    span: Span


@frozen
class ExpectError:
    """`expect error "text"`: the pass fails with a message containing `text`."""

    text: str
    span: Span


@frozen
class TestDecl:
    """`test name { run ... input ... expect ... }`."""

    __test__ = False  # keeps pytest from collecting this class as a test

    name: str
    run: RunClause
    input: str
    expect: Union[ExpectText, ExpectContains, ExpectUnchanged, ExpectError]
    span: Span


@frozen
class Module:
    """One parsed `.rw` file: its passes, pipelines, includes and tests in file order."""

    items: tuple
    file: str | None
    span: Span

    def of(self, kind: type) -> list:
        """The items of one class, in file order (`module.of(PassDecl)`)."""
        return [item for item in self.items if isinstance(item, kind)]


def match_patterns(match) -> list:
    """The top-level op patterns of a rule's ``match`` clause: its patterns and the bounds of an
    ``inside`` region, or a region match's two bounds (none for a value match)."""
    if isinstance(match, MatchOps):
        out = list(match.patterns)
        if match.inside is not None:
            out += [match.inside.start, match.inside.end]
        return out
    if isinstance(match, MatchRegion):
        return [match.bounds.start, match.bounds.end]
    return []


from .grad_nodes import GradContrib, GradDecl  # noqa: E402,F401  (grad declarations: rules/grad.rw)
from .def_nodes import DefCall, DefDecl  # noqa: E402,F401  (named expressions: lang/defs.py)
