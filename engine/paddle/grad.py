"""``grad`` definitions: the gradient of a forward op, declared in ``.rw`` files as data.

Syntax (an addition to the rule language, recorded in ``docs/rule-language.md``)::

    # d(x·y): one matmul_grad gives both input grads.
    grad f = pd_op.matmul(x, y) {transpose_x: tx, transpose_y: ty} => {
      g = pd_op.matmul_grad(x, y, grad(f)) {transpose_x: tx, transpose_y: ty} : type(x), type(y)
      grad x += g#0
      grad y += g#1
    }

The head is an ordinary op pattern (op name or alternatives, operand variables, ``_``, ``..``,
attribute equality / binding / presence) with an optional ``where``. The body creates grad ops
(``v = dialect.op(args) {attrs} : types`` — the types are expressions, usually ``type(x)``) and
says what each forward operand's grad receives (``grad x += expr``). ``grad(v)`` reads the summed
grad of a forward value (``f`` alone means its only result, ``f#1`` result 1; absent when the value
got none). A null operand (``<<NULL VALUE>>``) binds as absent: ``type(absent)`` is
``<<NULL TYPE>>`` and an absent operand is passed on as a null value.

:func:`compile_grad` turns a parsed :class:`GradDecl` into a :class:`GradDefinition` that
:func:`rulepass.engine.paddle.backward.append_backward` calls.
"""

from __future__ import annotations

from typing import Any

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RewriteError, RuleCompileError
from rulepass.engine.rewrite.actions import as_type
from rulepass.engine.rewrite.codegen.exprs import compiled
from rulepass.engine.rewrite.exprs import ABSENT, EVALUATORS, Context, EvalError, as_value, equal, evaluate
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.rewrite.compiled import Sources
from rulepass.engine.rewrite.functions import FunctionCalls, arity
from rulepass.engine.ir.types import NULL_TYPE
from rulepass.engine.lang.defs import Defs
from rulepass.engine.lang.nodes import DefDecl, GradContrib, GradDecl  # noqa: F401  (re-exported)


@attrs.frozen
class GradOf:
    """``grad(v)`` inside a grad body: the summed grad of forward value ``v``."""

    value: Any
    span: A.Span


def _eval_grad_of(expr: GradOf, env: dict, ctx) -> Any:
    target = as_value(evaluate(expr.value, env, ctx), expr.span)
    if target is ABSENT:
        return ABSENT
    if not isinstance(target, Value):
        raise EvalError("grad() takes a forward value or op", expr.span)
    g = env["$emitter"].grad(target)
    return ABSENT if g is None else g


EVALUATORS[GradOf] = _eval_grad_of


def _rewrite_grad_calls(expr):
    """Replace ``grad(e)`` calls by :class:`GradOf` nodes, everywhere inside ``expr``."""
    if isinstance(expr, A.Call) and expr.func == "grad":
        if len(expr.args) != 1:
            raise RuleCompileError(f"grad() takes one value, got {len(expr.args)}",
                                   file=expr.span.file, line=expr.span.line, col=expr.span.col)
        return GradOf(_rewrite_grad_calls(expr.args[0]), expr.span)
    if attrs.has(type(expr)):
        changes = {}
        for f in attrs.fields(type(expr)):
            v = getattr(expr, f.name)
            if isinstance(v, tuple):
                nv = tuple(_rewrite_grad_calls(i) for i in v)
            elif attrs.has(type(v)):
                nv = _rewrite_grad_calls(v)
            else:
                continue
            if nv is not v:
                changes[f.name] = nv
        return attrs.evolve(expr, **changes) if changes else expr
    return expr


class GradDefinition:
    """A compiled ``grad`` block: ``match(op)`` binds the head pattern, ``emit`` builds the grad
    ops through a :class:`~rulepass.engine.paddle.backward.GradEmitter`."""

    def __init__(self, decl: GradDecl, file: str | None):
        pattern = decl.pattern
        self.decl = decl
        self.file = file
        self.line = decl.span.line
        self.op_names = pattern.ops
        self.binding = pattern.binding
        self.operands = pattern.operands
        self.attr_patterns = pattern.attrs
        self.where = _rewrite_grad_calls(decl.where) if decl.where is not None else None
        self.body = tuple(_rewrite_grad_calls(s) for s in decl.body)
        self.operand_names = {o.name for o in (self.operands or ()) if isinstance(o, A.OperandVar)}
        for k, o in enumerate(self.operands or ()):
            last = k == len(self.operands) - 1
            if not isinstance(o, (A.OperandVar, A.OperandAny, A.OperandRest)) or (
                    isinstance(o, A.OperandRest) and not last):
                raise RuleCompileError(
                    "a grad pattern's operands are variables, `_`, and a final `..` (no nested "
                    "patterns or op#i)", file=o.span.file, line=o.span.line, col=o.span.col)
        for s in self.body:
            if isinstance(s, GradContrib) and s.name not in self.operand_names:
                raise RuleCompileError(
                    f"grad {s.name} += ...: {s.name!r} is not an operand variable of the pattern "
                    f"(operands: {', '.join(sorted(self.operand_names)) or 'none'})",
                    file=s.span.file, line=s.span.line, col=s.span.col)

    def __repr__(self) -> str:
        return f"<grad {'|'.join(self.op_names or ('*',))} at {self.file}:{self.line}>"

    def match(self, op: Operation) -> dict | None:
        """Bindings of the head pattern on ``op``, or ``None``."""
        env: dict = {}
        if self.binding:
            env[self.binding] = op
        if self.operands is not None:
            ops = list(op.operands)
            patterns = list(self.operands)
            rest = bool(patterns) and isinstance(patterns[-1], A.OperandRest)
            if rest:
                patterns = patterns[:-1]
            if len(ops) < len(patterns) or (not rest and len(ops) != len(patterns)):
                return None
            for p, v in zip(patterns, ops):
                v = ABSENT if v is None else v
                if isinstance(p, A.OperandVar):
                    if p.name in env and env[p.name] is not v:
                        return None
                    env[p.name] = v
                elif isinstance(p, A.OperandAny):
                    continue
                else:
                    raise RuleCompileError("grad patterns take operand variables, `_` and `..`",
                                           file=p.span.file, line=p.span.line, col=p.span.col)
        for ap in self.attr_patterns:
            present = ap.key in op.attributes
            value = op.attributes.get(ap.key)
            if isinstance(ap.value, A.AttrPresent):
                if not present:
                    return None
            elif isinstance(ap.value, A.AttrBind):
                if not present:
                    return None
                if ap.value.name in env and not equal(env[ap.value.name], value):
                    return None
                env[ap.value.name] = value
            else:
                if not present or not equal(compiled(ap.value.value)({}, Context(None, {})),
                                            value):
                    return None
        if self.where is not None:
            if not compiled(self.where)(env, Context(op.program, {})):
                return None
        return env

    def emit(self, emitter, op: Operation, bindings: dict) -> None:
        """Run the body: create the grad ops, record the contributions."""
        env = dict(bindings)
        env["$emitter"] = emitter
        # Registered functions run on the program as it stands (append_backward is no pass).
        ctx = Context(op.program, {}, FunctionCalls(op.program, ()))
        try:
            for s in self.body:
                if isinstance(s, GradContrib):
                    target = env[s.name]
                    value = as_value(compiled(s.value)(env, ctx), s.span)
                    if target is not ABSENT and value is not ABSENT:
                        emitter.contribute(target, value)
                    continue
                operands = []
                for a in s.operands:
                    v = as_value(compiled(a)(env, ctx), a.span)
                    operands.append(None if v is ABSENT else v)
                attributes = {}
                for ae in s.attrs:
                    v = compiled(ae.value)(env, ctx)
                    if v is not ABSENT:
                        attributes[ae.key] = tuple(v) if isinstance(v, list) else v
                types = []
                for t in s.types:
                    tv = compiled(t)(env, ctx)
                    types.append(NULL_TYPE if tv is ABSENT else as_type(tv, t.span))
                created = emitter.create(s.op_name, operands, attributes, types)
                if s.binding:
                    env[s.binding] = created
        except EvalError as e:
            raise RewriteError(f"grad of {op.name}: {e.message}", file=self.file,
                               line=e.span.line if e.span else self.line,
                               col=e.span.col if e.span else None) from None


def compile_grad(decl: GradDecl, file: str | None) -> GradDefinition:
    """Check and compile one ``grad`` block (``RuleCompileError`` for a contribution to a name
    that is not an operand, or a malformed ``grad()`` call)."""
    return GradDefinition(decl, file)


def grad_definitions(module) -> list[GradDefinition]:
    """The compiled ``grad`` blocks of a parsed module, in file order; calls of the module's
    ``def``s resolved (``lang/defs.py``; ``RuleCompileError`` for a bad def)."""
    decls = [item for item in module.items if isinstance(item, GradDecl)]
    if module.of(DefDecl):
        defs = Defs([module], Sources(), arity)
        decls = [defs.resolve(decl, module.file) for decl in decls]
    return [compile_grad(decl, module.file) for decl in decls]


#: (text, name) of the installed grad.rw -> its compiled definitions (immutable once made):
#: the chain compiles one program per rank, and parsing grad.rw took 0.1 s each time.
_INSTALLED: dict = {}


def load_grad_definitions(paths=None) -> list[GradDefinition]:
    """Parse and compile the ``grad`` blocks of ``.rw`` files (default: the installed
    ``rules/grad.rw``, parsed once per process for a given text: later calls return a new list
    of the same definitions). Later files come first, so a user's definition overrides ours."""
    from importlib import resources

    from rulepass.engine.api import import_function_modules
    from rulepass.engine.lang.parse import parse_rules

    import_function_modules()  # grad bodies may call the shipped functions (with_dist, ...)

    if paths is None:
        ref = resources.files("rulepass.rules").joinpath("grad.rw")
        key = (ref.read_text(), "rules/grad.rw")
        found = _INSTALLED.get(key)
        if found is None:
            found = _INSTALLED[key] = grad_definitions(parse_rules(*key))
            if len(_INSTALLED) > 1:  # an older text of the file: no longer read
                for old in [k for k in _INSTALLED if k != key]:
                    del _INSTALLED[old]
        return list(found)
    from rulepass.engine.files import read_text

    texts = [(read_text(p, "rule file"), str(p)) for p in paths]
    out: list[GradDefinition] = []
    for text, name in reversed(texts):
        out.extend(grad_definitions(parse_rules(text, name)))
    return out
