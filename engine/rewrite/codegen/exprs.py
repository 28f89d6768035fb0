"""Rule expressions compiled once into Python functions, for the matcher's and rewriter's hot loops.

`compiled(expr)` returns a function `(env, ctx) -> value` that computes exactly what
`exprs.evaluate(expr, env, ctx)` computes — the same values, the same `ABSENT` propagation, the same
`EvalError`s with the same spans, the same order of evaluation. `evaluate` stays the reference;
tests compare the two on every expression of the rule files (tests/test_engine_compiled_exprs.py).

The expression is translated into the text of one Python expression and compiled with `compile`:
variables, literals, params, `and`/`or`/`not`, `??` and `has()` become plain Python and cost no
call; the rest calls the small helpers below, which hold the rule language's semantics. The
rewriter's compiler (`actions_compile.py`) uses the same `SourceGen` with variables held in Python
locals instead of the `env` dict.

Compilation is memoised per AST node (by identity; the node is kept alive with its function), so a
rule's `where` terms are compiled the first time they are tested and never again.
"""

from __future__ import annotations

import itertools
import keyword

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.rewrite.exprs import (ABSENT, ARITH, BUILTINS, EvalError, negate, contains, describe, equal,
                    evaluate, field, iterate, normalize, ORDER)
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.lang.check import children
from rulepass.engine.rewrite.codegen.code_cache import compile_cached
from rulepass.engine.rewrite.functions import FAILURES, REGISTRY

#: id(node) -> (node, function); the node is kept so that its id is not reused.
_CACHE: dict[int, tuple] = {}
CACHE_LIMIT = 100_000


def compiled(expr):
    """The function `(env, ctx) -> value` computing `expr` (memoised per node)."""
    found = _CACHE.get(id(expr))
    if found is not None and found[0] is expr:
        return found[1]
    function = compile_expression(expr)
    if len(_CACHE) > CACHE_LIMIT:
        _CACHE.clear()  # rule sets loaded and dropped many times over (property tests)
    _CACHE[id(expr)] = (expr, function)
    return function


def evaluate_compiled(expr, env: dict, ctx):
    """`exprs.evaluate` through the compiled function."""
    return compiled(expr)(env, ctx)


def compile_expression(expr):
    """A new function `(env, ctx) -> value` for `expr` (not memoised; use `compiled`)."""
    gen = SourceGen()
    try:
        return gen.guarded_function("def _expression(env, ctx):",
                                    [f"return {gen.expr(expr, {})}"], "_expression")
    except Unsupported:
        # evaluate reports what it cannot evaluate itself, with the node's span
        return lambda env, ctx: evaluate(expr, env, ctx)


class Unsupported(Exception):
    """A node the compiler has no translation for (evaluate reports it too)."""


def node_table(cls, prefix: str) -> dict:
    """{AST node class: method} for the methods of `cls` named `prefix` + a node class name of
    `lang.nodes` (subclass methods win, as attribute lookup would)."""
    table = {}
    for name in dir(cls):
        if name.startswith(prefix) and isinstance(getattr(A, name[len(prefix):], None), type):
            table[getattr(A, name[len(prefix):])] = getattr(cls, name)
    return table


class SourceGen:
    """Translates expressions into Python expression text. `scope` maps rule variables to the
    Python names holding them; others are read from `env`. Constants (spans, literal values,
    builtins) become names in the generated code's globals."""

    #: AST node class -> the method translating it (`x_<NodeClass>`), made once per class (a
    #: subclass's own `x_` methods override): `expr` dispatches on the node's class.
    EXPRESSIONS: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.EXPRESSIONS = node_table(cls, "x_")

    def __init__(self):
        self._ids = itertools.count()  # per generator: a rule's text is the same in any process
        self.globals: dict = dict(HELPERS)
        self.var_spans: dict[str, A.Span] = {}
        self._consts: dict = {}

    # ---- bookkeeping ----------------------------------------------------------------------------
    def const(self, value) -> str:
        """A global name holding `value` (one per distinct object)."""
        key = id(value)
        found = self._consts.get(key)
        if found is not None and found[1] is value:
            return found[0]
        name = f"K{len(self._consts)}"
        self._consts[key] = (name, value)
        self.globals[name] = value
        return name

    def temp(self) -> str:
        """A fresh Python name for a temporary."""
        return f"t{next(self._ids)}"

    def function(self, source: str, name: str):
        """Compile `source` (defining function `name`) with this generator's globals; raises
        Unsupported when Python refuses it (an expression nested deeper than its parser
        allows), so that the caller falls back to the reference walk."""
        try:
            code = compile_cached(source, f"<rule expression {name}>")
        except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError) as error:
            raise Unsupported(f"Python cannot compile the translation: {error}") from None
        namespace = dict(self.globals)
        exec(code, namespace)  # noqa: S102 - text generated here from a checked rule AST
        return namespace[name]

    def guarded_function(self, head: str, lines: list, name: str):
        """`function` of `head` (a `def ...(..., env, ...)` line) with `lines` (indented one
        level) as its body, run so that a variable missing from `env` raises the EvalError of
        an unbound variable, at its span, as the walk does."""
        spans = self.const(self.var_spans)
        source = "\n".join([
            head,
            "    try:",
            *["        " + line for line in lines],
            "    except KeyError as error:",
            f"        unbound = _unbound(error, env, {spans})",
            "        if unbound is None:",
            "            raise",
            "        raise unbound from None",
            ""])
        return self.function(source, name)

    # ---- translation ----------------------------------------------------------------------------
    def expr(self, e, scope: dict) -> str:
        """Python expression text computing `e`."""
        method = self.EXPRESSIONS.get(type(e))
        if method is None:
            raise Unsupported(f"cannot evaluate {type(e).__name__}")
        return method(self, e, scope)

    def x_Literal(self, e, scope):
        value = e.value
        if type(value) in (int, str, bool) or value is None:
            return repr(value)
        return self.const(value)

    def x_ListExpr(self, e, scope):
        if all(isinstance(i, A.Literal) for i in e.items):
            return f"list({self.const([i.value for i in e.items])})"  # a fresh list each time
        return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]"

    def x_ParamRef(self, e, scope):
        return f"ctx.params.get({e.name!r}, ABSENT)"

    def x_Var(self, e, scope):
        local = scope.get(e.name)
        if local is not None:
            return local
        self.var_spans.setdefault(e.name, e.span)
        return f"env[{e.name!r}]"

    def x_ResultRef(self, e, scope):
        base = self.x_Var(A.Var(e.name, e.span), scope)
        return f"_result_ref({base}, {e.name!r}, {e.index}, {self.const(e.span)})"

    def x_Field(self, e, scope):
        base = self.expr(e.base, scope)
        t = self.temp()
        if e.name == "dist":
            return (f"(({t}.dist_attr if {t}.dist_attr is not None else ABSENT) "
                    f"if type({t} := {base}) is Operation "
                    f"else field({t}, 'dist', ctx, {self.const(e.span)}))")
        general = f"_attribute_field({t}, {e.name!r}, ctx, {self.const(e.span)})"
        classes = _classes_with_field(e.name)
        if classes and e.name.isidentifier() and not keyword.iskeyword(e.name):
            # a plain field of one of the engine's frozen classes (a mesh, a dist attribute,
            # a type), read directly: what _attribute_field does for them
            v = self.temp()
            general = (f"(({v} if ({v} := {t}.{e.name}) is not None else ABSENT) "
                       f"if type({t}) in {self.const(classes)} else {general})")
        return (f"({t}.attributes.get({e.name!r}, ABSENT) if type({t} := {base}) is Operation "
                f"else {general})")

    def x_Subscript(self, e, scope):
        return (f"_subscript({self.expr(e.base, scope)}, {self.expr(e.index, scope)}, "
                f"{self.const(e.span)})")

    def x_Call(self, e, scope):
        args = [self.expr(a, scope) for a in e.args]
        if e.func == "has":
            # through a name: `1 is not ABSENT` is a SyntaxWarning when the argument is a literal
            return f"(({self.temp()} := {args[0]}) is not ABSENT)"
        span = self.const(e.span)
        builtin = BUILTINS.get(e.func)
        if builtin is not None:
            call = f"{self.const(builtin.impl)}(ctx, {span}, {{}})"
            fast = _INLINE.get(e.func) if len(args) == 1 else None
            if fast is None:
                return call.format(", ".join(args))
            # the common case in Python, anything else through the builtin (same answer)
            t = self.temp()
            test, value = fast
            return (f"({value.format(t=t)} if {test.format(t=t, x=args[0])} "
                    f"else {call.format(t)})")
        registered = REGISTRY.get(e.func)
        if registered is not None and registered.live:
            # the function as registered now; `_live` checks it still is at every call
            return (f"_live({self.const(registered)}, ctx, {e.func!r}, {span}"
                    + "".join(f", {a}" for a in args) + ")")
        return f"_registered(ctx, {e.func!r}, [{', '.join(args)}], {span})"

    def x_Quantifier(self, e, scope):
        var = self.temp()
        body = self.expr(e.body, {**scope, e.var: var})
        helper = {"any": "_any", "all": "_all", "first": "_first"}.get(e.kind)
        if helper is None:
            raise Unsupported(f"unknown quantifier {e.kind!r}")
        return f"{helper}({self.expr(e.seq, scope)}, {self.const(e.span)}, lambda {var}: {body})"

    def x_DefCall(self, e, scope):
        # by value, as the walk does: the arguments left to right, then the body. A small body is
        # written in place, its parameters held in temporaries (no call); a large one is its own
        # function, made once per def
        if inlined_size(e.decl) > INLINE_LIMIT:
            args = "".join(f", {self.expr(a, scope)}" for a in e.args)
            return f"{self.const(def_function(e.decl))}(ctx{args})"
        names, parts = [], []
        for arg in e.args:
            text = self.expr(arg, scope)
            if type(arg) in _PLAIN_ARGUMENTS:
                names.append(text)  # a variable, param or literal: read where the body reads it
            else:
                names.append(self.temp())
                parts.append(f"({names[-1]} := {text})")
        parts.append(self.expr(e.decl.body, dict(zip(e.decl.params, names))))
        return f"({', '.join(parts)},)[-1]" if len(parts) > 1 else parts[0]

    def x_LetRef(self, e, scope):
        return self.expr(e.value, scope)

    def x_Conditional(self, e, scope):
        # Python's own conditional: only the chosen branch runs, the condition as a truth value
        return (f"({self.expr(e.then, scope)} if {self.expr(e.cond, scope)} "
                f"else {self.expr(e.orelse, scope)})")

    def x_OrOp(self, e, scope):
        return f"(bool({self.expr(e.left, scope)}) or bool({self.expr(e.right, scope)}))"

    def x_AndOp(self, e, scope):
        return f"(bool({self.expr(e.left, scope)}) and bool({self.expr(e.right, scope)}))"

    def x_NotOp(self, e, scope):
        return f"(not {self.expr(e.operand, scope)})"

    def x_Compare(self, e, scope):
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op in ("==", "!="):
            literal = e.right.value if isinstance(e.right, A.Literal) else None
            t = self.temp()
            if type(literal) in (int, str):
                # against an int or string literal: a value of the same type compares with ==
                test = (f"(({t} == {right}) if type({t} := {left}) is {type(literal).__name__} "
                        f"else equal({t}, {right}))")
            else:
                # two scalars of one type (int, str, bool, float) are equal exactly when ==
                u = self.temp()
                test = (f"(({t} == {u}) if type({t} := {left}) is type({u} := {right}) "
                        f"and type({t}) in _SCALARS else equal({t}, {u}))")
            return test if e.op == "==" else f"(not {test})"
        tail = f", {right}, {self.const(e.span)})"
        literal = e.right.value if isinstance(e.right, A.Literal) else None
        if type(literal) in (int, float):
            # against a number literal: an int or float compares directly (what _order does)
            t = self.temp()
            return (f"(({t} {e.op} {right}) if type({t} := {left}) is int or type({t}) is float "
                    f"else _order({e.op!r}, {t}" + tail + ")")
        return f"_order({e.op!r}, {left}" + tail

    def _membership(self, e, scope):
        left = self.expr(e.left, scope)
        items = e.right.items if isinstance(e.right, A.ListExpr) else None
        if items and all(isinstance(i, A.Literal) and type(i.value) in (int, str) for i in items):
            # a list of int and string literals: a set, asked directly for an int or a string
            plain = self.const(frozenset(i.value for i in items))
            values = self.const([i.value for i in items])
            return f"_in_plain({left}, {plain}, {values}, {self.const(e.span)})"
        # the container is evaluated first, as evaluate does
        return f"_contains_rl({self.expr(e.right, scope)}, {left}, {self.const(e.span)})"

    def x_InOp(self, e, scope):
        return self._membership(e, scope)

    def x_NotInOp(self, e, scope):
        return f"(not {self._membership(e, scope)})"

    def x_CoalesceOp(self, e, scope):
        t = self.temp()
        return (f"({self.expr(e.right, scope)} if ({t} := {self.expr(e.left, scope)}) is ABSENT "
                f"else {t})")

    def x_Arith(self, e, scope):
        return (f"_arith({e.op!r}, {self.expr(e.left, scope)}, {self.expr(e.right, scope)}, "
                f"{self.const(e.span)})")

    def x_Negate(self, e, scope):
        return f"negate({self.expr(e.operand, scope)}, {self.const(e.span)})"


#: Arguments a def's body written in place reads as they are: reading them costs nothing and
#: cannot fail (the checker binds every variable), so evaluating them first changes nothing.
_PLAIN_ARGUMENTS = (A.Var, A.ParamRef, A.Literal)

#: builtin -> (test, value): when `test` holds for the argument (bound to {t}), `value` is what
#: the builtin returns for it, computed inline; otherwise the builtin is called.
_INLINE = {
    "opname": ("type({t} := {x}) is Operation", "{t}.name"),
    "role": ("type({t} := {x}) is Operation", "{t}.op_role"),
    "producer": ("(type({t} := {x}) is Value and {t}.owner is not None)", "{t}.owner"),
    "type": ("type({t} := {x}) is Value", "{t}.type"),
    "results": ("type({t} := {x}) is Operation", "list({t}.results)"),
    "prev": ("(type({t} := {x}) is Operation and {t}.prev_op is not None)", "{t}.prev_op"),
    "next": ("(type({t} := {x}) is Operation and {t}.next_op is not None)", "{t}.next_op"),
    "operands": ("type({t} := {x}) is Operation",
                 "[_v if _v is not None else ABSENT for _v in {t}._operands]"),
    "len": ("type({t} := {x}) in (list, tuple, str)", "len({t})"),
    "uses": ("type({t} := {x}) is Operation", "_op_uses({t})"),
    "range": ("type({t} := {x}) is int", "list(range({t}))"),
}


# ---- helpers the generated code calls (the semantics of exprs.evaluate) ------------------------

def _unbound(error: KeyError, env: dict, spans: dict):
    """The EvalError for a variable missing from `env`, or None when the KeyError is another."""
    name = error.args[0] if error.args else None
    if isinstance(name, str) and name in spans and name not in env:
        return EvalError(f"unbound variable {name!r}", spans[name])
    return None


def _result_ref(op, name, index, span):
    if not isinstance(op, Operation):
        raise EvalError(f"{name} is not an op", span)
    if index >= len(op.results):
        raise EvalError(f"{op.name} has {len(op.results)} results, no #{index}", span)
    return op.results[index]


#: type -> the names of its attrs fields (read directly; anything else goes through `field`).
_PLAIN_FIELDS: dict = {}
#: field name -> the engine's value classes having it as a plain field (`_classes_with_field`).
_WITH_FIELD: dict = {}


def _classes_with_field(name: str) -> frozenset:
    """The frozen classes of engine.types and engine.attributes with a plain field `name`
    (whose values are data, never callables)."""
    found = _WITH_FIELD.get(name)
    if found is None:
        import rulepass.engine.ir.attributes as attributes
        import rulepass.engine.ir.types as types

        classes = [c for module in (types, attributes) for c in vars(module).values()
                   if isinstance(c, type) and c.__module__ == module.__name__ and attrs.has(c)]
        found = _WITH_FIELD[name] = frozenset(c for c in classes if name in _plain_fields(c))
    return found


def _plain_fields(kind) -> frozenset:
    """The attrs field names of `kind` that `exprs.field` reads with getattr (not `local_shape`,
    nothing private); empty for types `field` treats otherwise (ops, values, ABSENT)."""
    if not attrs.has(kind) or kind is Operation:
        return frozenset()
    return frozenset(f.name for f in attrs.fields(kind)
                     if not f.name.startswith("_") and f.name != "local_shape")


def _attribute_field(base, name, ctx, span):
    """`base.name` for anything but an op (`field`, with attrs fields read directly)."""
    kind = type(base)
    plain = _PLAIN_FIELDS.get(kind)
    if plain is None:
        plain = _PLAIN_FIELDS[kind] = _plain_fields(kind)
    if name in plain:
        value = getattr(base, name)
        if not callable(value):
            return ABSENT if value is None else value
    return field(base, name, ctx, span)


def _subscript(base, index, span):
    if base is ABSENT or index is ABSENT:
        return ABSENT
    if isinstance(base, dict):
        return base.get(index, ABSENT)
    if not isinstance(base, (list, tuple, str)) or not isinstance(index, int):
        raise EvalError(f"cannot index {describe(base)} with {describe(index)}", span)
    if -len(base) <= index < len(base):
        return base[index]
    return ABSENT


def _registered(ctx, func, values, span):
    if func in REGISTRY and ctx.functions is not None:
        return ctx.functions.call(func, values, span)
    raise EvalError(f"unknown function {func!r}", span)


def _live(registered, ctx, func, span, *values):
    """`FunctionCalls.call` of a live function, without its dispatch: the function is the one
    registered under `func` when the expression was compiled (else the general path)."""
    functions = ctx.functions
    if functions is None or REGISTRY.get(func) is not registered:
        return _registered(ctx, func, list(values), span)
    try:
        result = registered.fn(functions.program, *values)
    except FAILURES as error:
        raise EvalError(f"{func}() failed: {type(error).__name__}: {error}", span) from None
    return ABSENT if result is None else result


def _op_uses(op) -> int:
    """`uses(op)`: the uses of all its results."""
    results = op.results
    if len(results) == 1:
        return results[0].num_uses
    return sum(r.num_uses for r in results)


def _any(seq, span, body):
    for item in iterate(seq, span):
        if body(item):
            return True
    return False


def _all(seq, span, body):
    for item in iterate(seq, span):
        if not body(item):
            return False
    return True


def _first(seq, span, body):
    for item in iterate(seq, span):
        if body(item):
            return item
    return ABSENT


def _order(op, a, b, span):
    if a is ABSENT or b is ABSENT:
        return False
    try:
        return ORDER[op](normalize(a), normalize(b))
    except TypeError:
        raise EvalError(f"cannot compare {describe(a)} {op} {describe(b)}", span) from None


def _in_plain(item, plain, values, span):
    kind = type(item)
    if kind is str or kind is int:
        return item in plain
    return contains(list(values), item, span)


def _arith(op, a, b, span):
    if a is ABSENT or b is ABSENT:
        return ABSENT
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and op == "+":
        return list(a) + list(b)
    try:
        return ARITH[op](a, b)
    except (TypeError, ZeroDivisionError, OverflowError, MemoryError) as error:
        raise EvalError(f"cannot compute {describe(a)} {op} {describe(b)}: {error}",
                        span) from None


#: Types whose values, when both sides have the type, are `equal` exactly when they are ==.
_SCALARS = frozenset({int, str, bool, float})

#: The names generated code may use besides its constants.
HELPERS = dict(_SCALARS=_SCALARS, 
    ABSENT=ABSENT, Operation=Operation, Value=Value, EvalError=EvalError, equal=equal, field=field,
    iterate=iterate, negate=negate, _unbound=_unbound, _result_ref=_result_ref,
    _attribute_field=_attribute_field, _subscript=_subscript, _registered=_registered,
    _live=_live, _op_uses=_op_uses,
    _any=_any, _all=_all, _first=_first, _order=_order, _in_plain=_in_plain,
    _contains_rl=contains, _arith=_arith,
)


class ScopedGen(SourceGen):
    """A SourceGen whose variables must all be in the scope (no `env`): a variable outside it
    is unsupported (the caller falls back to the walk)."""

    def x_Var(self, e, scope):
        local = scope.get(e.name)
        if local is None:
            raise Unsupported(f"variable {e.name!r} is not in scope")
        return local


#: id(DefDecl) -> (decl, function): each def's body compiled once
_DEFS: dict[int, tuple] = {}
#: A def whose body, with the defs it calls written in place, has more nodes than this is called
#: as a function instead (a def calling another twice, that one another twice, ... would double
#: the written code at each level).
INLINE_LIMIT = 200
_SIZES: dict[int, tuple] = {}


def inlined_size(decl) -> int:
    """The number of nodes of `decl`'s body with every def it calls written in place (memoised;
    defs do not recurse, so this ends)."""
    found = _SIZES.get(id(decl))
    if found is not None and found[0] is decl:
        return found[1]
    size, stack = 0, [decl.body]
    while stack:
        node = stack.pop()
        size += 1
        if isinstance(node, A.DefCall):
            size += inlined_size(node.decl)
        if isinstance(node, A.Quantifier):
            stack.extend((node.seq, node.body))
        else:
            stack.extend(children(node))
        if size > INLINE_LIMIT:
            break
    if len(_SIZES) > CACHE_LIMIT:
        _SIZES.clear()
    _SIZES[id(decl)] = (decl, size)
    return size


def def_function(decl):
    """The function `(ctx, *args) -> value` computing def `decl`'s body with its parameters bound
    to `args` (memoised per declaration); the walk when Python cannot compile the translation."""
    found = _DEFS.get(id(decl))
    if found is not None and found[0] is decl:
        return found[1]
    gen = ScopedGen()
    names = [f"a{i}" for i in range(len(decl.params))]
    head = f"def _def(ctx{''.join(', ' + n for n in names)}):"
    try:
        function = gen.function(f"{head}\n    return {gen.expr(decl.body, dict(zip(decl.params, names)))}\n",
                                "_def")
    except Unsupported:
        def function(ctx, *args):
            return evaluate(decl.body, dict(zip(decl.params, args)), ctx)
    if len(_DEFS) > CACHE_LIMIT:
        _DEFS.clear()
    _DEFS[id(decl)] = (decl, function)
    return function


def compile_conjunction(terms: tuple, var: str | None = None):
    """One function testing `terms` in order as the matcher does (`bool` of each, stopping at
    the first false one): `(env, ctx) -> bool`, or, with `var`, `(item, ctx) -> bool` where
    the terms read no variable but `var`, bound to `item` (None when they read another, or
    cannot be translated; without `var` such terms are tested one by one)."""
    if var is None:
        gen = SourceGen()
        scope: dict = {}
        head = "def _test(env, ctx):"
    else:
        gen = ScopedGen()
        scope = {var: "item"}
        head = "def _test(item, ctx):"
    try:
        parts = [f"bool({gen.expr(term, scope)})" for term in terms]
        body = " and ".join(parts) if parts else "True"
        if var is not None:
            return gen.function(f"{head}\n    return {body}\n", "_test")
        return gen.guarded_function(head, [f"return {body}"], "_test")
    except Unsupported:
        if var is not None:
            return None
        tests = tuple(compiled(term) for term in terms)  # term by term, as the walk does

        def term_by_term(env, ctx):
            return all(test(env, ctx) for test in tests)
        return term_by_term



SourceGen.EXPRESSIONS = node_table(SourceGen, "x_")
