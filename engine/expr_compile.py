"""Rule expressions compiled once into Python closures, for the matcher's and rewriter's hot loops.

`compiled(expr)` returns a function `(env, ctx) -> value` that computes exactly what
`exprs.evaluate(expr, env, ctx)` computes — the same values, the same `ABSENT` propagation, the same
`EvalError`s with the same spans, the same order of evaluation — without walking the tree and
dispatching on node types at every call. `evaluate` stays the reference; tests compare the two on
every expression of the rule files (tests/test_engine_compiled_exprs.py).

Compilation is memoised per AST node (by identity; the node is kept alive with its closure), so a
rule's `where` terms are compiled the first time they are tested and never again.
"""

from __future__ import annotations

import attrs

from . import rw_ast as A
from .exprs import (ABSENT, ARITH, BUILTINS, EvalError, _negate, contains, describe, equal,
                    field, iterate, normalize, ORDER)
from .ir import Operation
from .rw_functions import REGISTRY

#: id(node) -> (node, closure); the node is kept so that its id is not reused.
_CACHE: dict[int, tuple] = {}
CACHE_LIMIT = 100_000


def compiled(expr):
    """The closure `(env, ctx) -> value` computing `expr` (memoised per node)."""
    found = _CACHE.get(id(expr))
    if found is not None and found[0] is expr:
        return found[1]
    compiler = COMPILERS.get(type(expr))
    if compiler is None:
        span = getattr(expr, "span", None)
        message = f"cannot evaluate {type(expr).__name__}"

        def fail(env, ctx):
            raise EvalError(message, span)
        function = fail
    else:
        function = compiler(expr)
    if len(_CACHE) > CACHE_LIMIT:
        _CACHE.clear()  # rule sets loaded and dropped many times over (property tests)
    _CACHE[id(expr)] = (expr, function)
    return function


def evaluate_compiled(expr, env: dict, ctx):
    """`exprs.evaluate` through the compiled closure."""
    return compiled(expr)(env, ctx)


# ---- one compiler per node type -----------------------------------------------------------------

def _literal(e):
    value = e.value
    return lambda env, ctx: value


def _list(e):
    if all(isinstance(i, A.Literal) for i in e.items):
        values = [i.value for i in e.items]
        return lambda env, ctx: list(values)  # a fresh list each time, as evaluate makes
    items = tuple(compiled(i) for i in e.items)
    return lambda env, ctx: [f(env, ctx) for f in items]


def _param(e):
    name = e.name
    return lambda env, ctx: ctx.params.get(name, ABSENT)


def _var(e):
    name, span = e.name, e.span

    def var(env, ctx):
        try:
            return env[name]
        except KeyError:
            raise EvalError(f"unbound variable {name!r}", span) from None
    return var


def _result_ref(e):
    get, name, index, span = _var(e), e.name, e.index, e.span

    def result_ref(env, ctx):
        op = get(env, ctx)
        if not isinstance(op, Operation):
            raise EvalError(f"{name} is not an op", span)
        if index >= len(op.results):
            raise EvalError(f"{op.name} has {len(op.results)} results, no #{index}", span)
        return op.results[index]
    return result_ref


def _field(e):
    base, name, span = compiled(e.base), e.name, e.span
    if name == "dist":
        def dist_field(env, ctx):
            b = base(env, ctx)
            if type(b) is Operation:
                d = b.dist_attr
                return d if d is not None else ABSENT
            return field(b, name, ctx, span)
        return dist_field

    def attribute_field(env, ctx):
        b = base(env, ctx)
        kind = type(b)
        if kind is Operation:
            return b.attributes.get(name, ABSENT)
        plain = _PLAIN_FIELDS.get(kind)
        if plain is None:
            plain = _PLAIN_FIELDS[kind] = _plain_fields(kind)
        if name in plain:
            value = getattr(b, name)
            if not callable(value):
                return ABSENT if value is None else value
        return field(b, name, ctx, span)
    return attribute_field


#: type -> the names of its attrs fields (read directly; anything else goes through `field`).
_PLAIN_FIELDS: dict = {}


def _plain_fields(kind) -> frozenset:
    """The attrs field names of `kind` that `exprs.field` reads with getattr (not `local_shape`,
    nothing private); empty for types `field` treats otherwise (ops, values, ABSENT)."""
    if not attrs.has(kind) or kind is Operation:
        return frozenset()
    return frozenset(f.name for f in attrs.fields(kind)
                     if not f.name.startswith("_") and f.name != "local_shape")


def _subscript(e):
    base, index, span = compiled(e.base), compiled(e.index), e.span

    def subscript(env, ctx):
        b, i = base(env, ctx), index(env, ctx)
        if b is ABSENT or i is ABSENT:
            return ABSENT
        if isinstance(b, dict):
            return b.get(i, ABSENT)
        if not isinstance(b, (list, tuple, str)) or not isinstance(i, int):
            raise EvalError(f"cannot index {describe(b)} with {describe(i)}", span)
        if -len(b) <= i < len(b):
            return b[i]
        return ABSENT
    return subscript


def _call(e):
    func, span = e.func, e.span
    args = tuple(compiled(a) for a in e.args)
    if func == "has":
        first = args[0]
        return lambda env, ctx: first(env, ctx) is not ABSENT
    builtin = BUILTINS.get(func)
    if builtin is not None:
        if len(args) == 1:
            only = args[0]
            return lambda env, ctx: builtin(ctx, span, only(env, ctx))
        return lambda env, ctx: builtin(ctx, span, *[a(env, ctx) for a in args])

    def registered(env, ctx):
        values = [a(env, ctx) for a in args]
        if func in REGISTRY and ctx.functions is not None:
            return ctx.functions.call(func, values, span)
        raise EvalError(f"unknown function {func!r}", span)
    return registered


def _quantifier(e):
    seq, body, kind, var, span = compiled(e.seq), compiled(e.body), e.kind, e.var, e.span
    done = {"any": False, "all": True}.get(kind, ABSENT)

    def quantifier(env, ctx):
        items = iterate(seq(env, ctx), span)
        inner = dict(env)
        for item in items:
            inner[var] = item
            hit = bool(body(inner, ctx))
            if kind == "any" and hit:
                return True
            if kind == "all" and not hit:
                return False
            if kind == "first" and hit:
                return item
        return done
    return quantifier


def _or(e):
    left, right = compiled(e.left), compiled(e.right)
    return lambda env, ctx: bool(left(env, ctx)) or bool(right(env, ctx))


def _and(e):
    left, right = compiled(e.left), compiled(e.right)
    return lambda env, ctx: bool(left(env, ctx)) and bool(right(env, ctx))


def _not(e):
    operand = compiled(e.operand)
    return lambda env, ctx: not operand(env, ctx)


def _compare(e):
    left, right, op, span = compiled(e.left), compiled(e.right), e.op, e.span
    if op == "==":
        return lambda env, ctx: equal(left(env, ctx), right(env, ctx))
    if op == "!=":
        return lambda env, ctx: not equal(left(env, ctx), right(env, ctx))
    order = ORDER[op]

    def compare(env, ctx):
        a, b = left(env, ctx), right(env, ctx)
        if a is ABSENT or b is ABSENT:
            return False
        try:
            return order(normalize(a), normalize(b))
        except TypeError:
            raise EvalError(f"cannot compare {describe(a)} {op} {describe(b)}", span) from None
    return compare


def _membership(e):
    """`x in c`; a list of int and string literals is kept as a set, asked directly for an int
    or a string (an int never equals a string; a bool, float or symbol still goes through
    `contains`, so the answer is the same)."""
    left, span = compiled(e.left), e.span
    items = e.right.items if isinstance(e.right, A.ListExpr) else None
    if items and all(isinstance(i, A.Literal) and type(i.value) in (int, str) for i in items):
        plain = frozenset(i.value for i in items)
        right = compiled(e.right)  # literals only: evaluating it first or not changes nothing

        def in_texts(env, ctx):
            item = left(env, ctx)
            kind = type(item)
            if kind is str or kind is int:
                return item in plain
            return contains(right(env, ctx), item, span)
        return in_texts
    right = compiled(e.right)
    return lambda env, ctx: contains(right(env, ctx), left(env, ctx), span)


def _in(e):
    return _membership(e)


def _not_in(e):
    inner = _membership(e)
    return lambda env, ctx: not inner(env, ctx)


def _coalesce(e):
    left, right = compiled(e.left), compiled(e.right)

    def coalesce(env, ctx):
        value = left(env, ctx)
        return right(env, ctx) if value is ABSENT else value
    return coalesce


def _arith(e):
    left, right, op, span = compiled(e.left), compiled(e.right), e.op, e.span
    compute = ARITH[op]

    def arith(env, ctx):
        a, b = left(env, ctx), right(env, ctx)
        if a is ABSENT or b is ABSENT:
            return ABSENT
        if isinstance(a, tuple) and isinstance(b, (list, tuple)) and op == "+":
            return list(a) + list(b)
        try:
            return compute(a, b)
        except (TypeError, ZeroDivisionError) as error:
            raise EvalError(f"cannot compute {describe(a)} {op} {describe(b)}: {error}",
                            span) from None
    return arith


def _negate_node(e):
    operand, span = compiled(e.operand), e.span
    return lambda env, ctx: _negate(operand(env, ctx), span)


COMPILERS = {
    A.Literal: _literal,
    A.ListExpr: _list,
    A.ParamRef: _param,
    A.Var: _var,
    A.ResultRef: _result_ref,
    A.Field: _field,
    A.Subscript: _subscript,
    A.Call: _call,
    A.Quantifier: _quantifier,
    A.OrOp: _or,
    A.AndOp: _and,
    A.NotOp: _not,
    A.Compare: _compare,
    A.InOp: _in,
    A.NotInOp: _not_in,
    A.CoalesceOp: _coalesce,
    A.Arith: _arith,
    A.Negate: _negate_node,
}
