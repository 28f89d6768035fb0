"""Evaluate rule expressions (`where`, attribute values, `set`) against a program.

Values an expression sees: ops (`Operation`), values (`Value`), attribute values (int, float, str,
bool, tuples, `Symbol`, `Place`), types, meshes and dist attributes, lists, and `ABSENT` — what a
missing attribute, a `first` with no hit or an unknown group reads as. `ABSENT` is false, `x ?? d`
replaces it, field access and arithmetic carry it through, and comparisons with it are false (but
`!=`). The built-in functions are declared in `lang/builtins.BUILTINS` (arity, doc); their
implementations are here, registered against that table when this module is imported.
"""

from __future__ import annotations

import operator

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.lang.builtins import BUILTINS, implement
from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.rewrite.functions import REGISTRY
from rulepass.engine.rewrite.regions import RegionIndex
from rulepass.engine.rewrite.values import ABSENT, Absent, EvalError  # noqa: F401  (re-exported)
from rulepass.engine.ir.types import DistTensorType, ProcessMesh, VectorType, local_type


def normalize(x):
    """A hashable, comparable form: symbols become their text, lists and tuples tuples."""
    if isinstance(x, Symbol):
        return x.text
    if isinstance(x, (list, tuple)):
        return tuple(normalize(i) for i in x)
    return x


def equal(a, b) -> bool:
    """Rule-language equality: bools equal only bools, symbols equal their text, lists tuples;
    ops and values by identity."""
    kind = type(a)
    if kind is type(b) and kind is not list and kind is not tuple:
        # Two of one type (not a list): ops, values and ABSENT compare by identity with ==
        # too, symbols by text, the rest as `normalize` leaves them, so == is the answer. The
        # same object is equal to itself (skipping a field-by-field __eq__), but for a float:
        # NaN is not.
        return (a is b and kind is not float) or a == b
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, (Operation, Value)) or isinstance(b, (Operation, Value)):
        return a is b
    if a is ABSENT or b is ABSENT:
        return a is b
    return normalize(a) == normalize(b)


def as_value(x, span=None):
    """A value for `x`: an op means its only result."""
    if isinstance(x, Operation):
        if len(x.results) != 1:
            raise EvalError(f"{x.name} has {len(x.results)} results; name one as op#i", span)
        return x.results[0]
    return x


class Context:
    """What expressions read besides their variables: the program, the pass's params, the cache of
    printed positions and registered functions."""

    def __init__(self, program, params: dict, functions=None):
        self.program = program
        self.params = params
        self.functions = functions
        self._positions: dict | None = None
        self._positions_version = -1
        #: `in_region` answers (`rewrite/regions.py`); the driver reports changes to it
        self.regions = RegionIndex(program)

    def position(self, op: Operation) -> int:
        """0-based position of `op` in printed order (nested ops counted). The map is rebuilt
        only after ops were inserted or erased (`Program.structure_version`), not after
        attribute or operand changes."""
        version = self.program.structure_version
        if self._positions is None or self._positions_version != version:
            self._positions = {id(o): i for i, o in enumerate(self.program.walk())}
            self._positions_version = version
        return self._positions.get(id(op), -1)


def field(base, name: str, ctx: Context, span=None):
    """`base.name`: an op's attribute (`dist` is its dist attribute), a value's type or kwarg
    attribute, a member of a type, mesh or dist attribute; ABSENT when there is none."""
    if base is ABSENT:
        return ABSENT
    if isinstance(base, Operation):
        if name == "dist":
            return base.dist_attr if base.dist_attr is not None else ABSENT
        return base.attributes.get(name, ABSENT)
    if isinstance(base, Value):
        for key, value in base.kwarg_attrs or ():
            if key == name:
                return value
        if name == "type":
            return base.type
        if name == "name" and base.kwarg_name is not None:
            return base.kwarg_name
        if name == "index":
            return base.index
        return ABSENT
    if name == "local_shape" and hasattr(base, "local_shape"):
        rank = ctx.params.get("rank")
        if isinstance(base, DistTensorType) and rank is None:
            return ABSENT
        return base.local_shape(rank if rank is not None else 0)
    if attrs.has(type(base)) and not name.startswith("_"):
        try:
            value = getattr(base, name)
        except AttributeError:
            return ABSENT
        if callable(value):
            raise EvalError(f"{name} of {type(base).__name__} is not a field", span)
        return ABSENT if value is None else value
    raise EvalError(f"{describe(base)} has no field {name!r}", span)


def describe(x) -> str:
    """A short description of a value for messages."""
    if isinstance(x, Operation):
        return f"op {x.name}"
    if isinstance(x, Value):
        return "a value"
    from rulepass.engine.pir.printer import format_mesh_fields, format_type  # late: the printer is not needed here
    from rulepass.engine.ir.types import DenseTensorType, NullType

    if isinstance(x, (DenseTensorType, DistTensorType, VectorType, NullType)):
        return f"the type {format_type(x)}"  # as the program text writes it, not attrs' repr
    if isinstance(x, ProcessMesh):
        return f"the process mesh {format_mesh_fields(x)}"
    return f"{type(x).__name__} {x!r:.40}"


def contains(container, item, span=None) -> bool:
    """`item in container`: list membership, substring, rank in a process mesh."""
    if container is ABSENT or item is ABSENT:
        return False
    if isinstance(container, str):
        if not isinstance(item, (str, Symbol)):
            raise EvalError(f"`in` a string needs a string, got {describe(item)}", span)
        return normalize(item) in container
    if isinstance(container, ProcessMesh):
        return item in container
    if isinstance(container, (list, tuple)):
        kind = type(item)
        if kind is int or kind is str:
            # Items of the same plain type compare with ==; others (bools, symbols, floats)
            # through `equal`, so the answer is the general one.
            for x in container:
                if type(x) is kind:
                    if x == item:
                        return True
                elif equal(item, x):
                    return True
            return False
        return any(equal(item, x) for x in container)
    raise EvalError(f"`in` needs a list, a string or a process mesh, got {describe(container)}",
                    span)


ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
         "%": operator.mod}
ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def evaluate(expr, env: dict, ctx: Context):
    """The value of `expr` with variables from `env`. Raises EvalError."""
    handler = EVALUATORS.get(type(expr))
    if handler is None:
        raise EvalError(f"cannot evaluate {type(expr).__name__}", getattr(expr, "span", None))
    return handler(expr, env, ctx)


def _var(expr, env, ctx):
    try:
        return env[expr.name]
    except KeyError:
        raise EvalError(f"unbound variable {expr.name!r}", expr.span) from None


def _result_ref(expr, env, ctx):
    op = _var(expr, env, ctx)
    if not isinstance(op, Operation):
        raise EvalError(f"{expr.name} is not an op", expr.span)
    if expr.index >= len(op.results):
        raise EvalError(f"{op.name} has {len(op.results)} results, no #{expr.index}", expr.span)
    return op.results[expr.index]


def _arith(expr, env, ctx):
    left, right = evaluate(expr.left, env, ctx), evaluate(expr.right, env, ctx)
    if left is ABSENT or right is ABSENT:
        return ABSENT
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)) and expr.op == "+":
        return list(left) + list(right)
    try:
        return ARITH[expr.op](left, right)
    except (TypeError, ZeroDivisionError, OverflowError, MemoryError) as error:
        raise EvalError(f"cannot compute {describe(left)} {expr.op} {describe(right)}: {error}",
                        expr.span) from None


def _compare(expr, env, ctx):
    left, right = evaluate(expr.left, env, ctx), evaluate(expr.right, env, ctx)
    if expr.op == "==":
        return equal(left, right)
    if expr.op == "!=":
        return not equal(left, right)
    if left is ABSENT or right is ABSENT:
        return False
    try:
        return ORDER[expr.op](normalize(left), normalize(right))
    except TypeError:
        raise EvalError(f"cannot compare {describe(left)} {expr.op} {describe(right)}",
                        expr.span) from None


def _subscript(expr, env, ctx):
    base, index = evaluate(expr.base, env, ctx), evaluate(expr.index, env, ctx)
    if base is ABSENT or index is ABSENT:
        return ABSENT
    if isinstance(base, dict):
        return base.get(index, ABSENT)
    if not isinstance(base, (list, tuple, str)) or not isinstance(index, int):
        raise EvalError(f"cannot index {describe(base)} with {describe(index)}", expr.span)
    if -len(base) <= index < len(base):
        return base[index]
    return ABSENT


def _quantifier(expr, env, ctx):
    seq = evaluate(expr.seq, env, ctx)
    items = iterate(seq, expr.span)
    inner = dict(env)
    for item in items:
        inner[expr.var] = item
        hit = bool(evaluate(expr.body, inner, ctx))
        if expr.kind == "any" and hit:
            return True
        if expr.kind == "all" and not hit:
            return False
        if expr.kind == "first" and hit:
            return item
    return {"any": False, "all": True}.get(expr.kind, ABSENT)


def iterate(seq, span=None) -> list:
    """The items of a list (ABSENT is empty)."""
    if seq is ABSENT:
        return []
    if isinstance(seq, (list, tuple)):
        return list(seq)
    raise EvalError(f"expected a list, got {describe(seq)}", span)


def _call(expr, env, ctx):
    if expr.func == "has":
        return evaluate(expr.args[0], env, ctx) is not ABSENT
    args = [evaluate(a, env, ctx) for a in expr.args]
    builtin = BUILTINS.get(expr.func)
    if builtin is not None:
        return builtin.impl(ctx, expr.span, *args)
    if expr.func in REGISTRY and ctx.functions is not None:
        return ctx.functions.call(expr.func, args, expr.span)
    raise EvalError(f"unknown function {expr.func!r}", expr.span)


def _def_call(expr, env, ctx):
    # by value: the arguments, left to right, then the body with only the parameters bound
    args = [evaluate(a, env, ctx) for a in expr.args]
    return evaluate(expr.decl.body, dict(zip(expr.decl.params, args)), ctx)


EVALUATORS = {
    A.LetRef: lambda e, env, ctx: evaluate(e.value, env, ctx),
    A.DefCall: _def_call,
    A.Conditional: lambda e, env, ctx: evaluate(
        e.then if evaluate(e.cond, env, ctx) else e.orelse, env, ctx),
    A.Literal: lambda e, env, ctx: e.value,
    A.ListExpr: lambda e, env, ctx: [evaluate(i, env, ctx) for i in e.items],
    A.ParamRef: lambda e, env, ctx: ctx.params.get(e.name, ABSENT),
    A.Var: _var,
    A.ResultRef: _result_ref,
    A.Field: lambda e, env, ctx: field(evaluate(e.base, env, ctx), e.name, ctx, e.span),
    A.Subscript: _subscript,
    A.Call: _call,
    A.Quantifier: _quantifier,
    A.OrOp: lambda e, env, ctx: bool(evaluate(e.left, env, ctx)) or bool(
        evaluate(e.right, env, ctx)),
    A.AndOp: lambda e, env, ctx: bool(evaluate(e.left, env, ctx)) and bool(
        evaluate(e.right, env, ctx)),
    A.NotOp: lambda e, env, ctx: not evaluate(e.operand, env, ctx),
    A.Compare: _compare,
    A.InOp: lambda e, env, ctx: contains(evaluate(e.right, env, ctx),
                                         evaluate(e.left, env, ctx), e.span),
    A.NotInOp: lambda e, env, ctx: not contains(evaluate(e.right, env, ctx),
                                                evaluate(e.left, env, ctx), e.span),
    A.CoalesceOp: lambda e, env, ctx: _coalesce(evaluate(e.left, env, ctx), e.right, env, ctx),
    A.Arith: _arith,
    A.Negate: lambda e, env, ctx: negate(evaluate(e.operand, env, ctx), e.span),
}


def _coalesce(left, right, env, ctx):
    return evaluate(right, env, ctx) if left is ABSENT else left


def negate(value, span):
    """`-x`: absent stays absent; a number is negated; anything else is an EvalError at `span`."""
    if value is ABSENT:
        return ABSENT
    if type(value) not in (int, float):
        raise EvalError(f"cannot negate {describe(value)}", span)
    return -value


# ---- built-in functions -----------------------------------------------------------------------

def _need_op(x, name, span) -> Operation:
    if not isinstance(x, Operation):
        raise EvalError(f"{name}() takes an op, got {describe(x)}", span)
    return x


def _uses(ctx, span, x):
    if isinstance(x, Operation):
        return sum(r.num_uses for r in x.results)
    if isinstance(x, Value):
        return x.num_uses
    raise EvalError(f"uses() takes an op or a value, got {describe(x)}", span)


def _len(ctx, span, x):
    if x is ABSENT:
        return ABSENT
    if isinstance(x, (list, tuple, str)):
        return len(x)
    raise EvalError(f"len() takes a list or a string, got {describe(x)}", span)


def _type(ctx, span, x):
    if x is ABSENT:
        return ABSENT
    value = as_value(x, span)
    if not isinstance(value, Value):
        raise EvalError(f"type() takes a value or an op, got {describe(x)}", span)
    return value.type


def _producer(ctx, span, x):
    if isinstance(x, Operation):
        return x
    if x is ABSENT or x is None:
        return ABSENT
    if not isinstance(x, Value):
        raise EvalError(f"producer() takes a value, got {describe(x)}", span)
    return x.owner if x.owner is not None else ABSENT


def _users(ctx, span, x):
    if isinstance(x, Operation):
        seen = {}
        for result in x.results:
            for user in result.users():
                seen[id(user)] = user
        return sorted(seen.values(), key=lambda o: o.position_key())
    if isinstance(x, Value):
        return x.users()
    if x is ABSENT:
        return []
    raise EvalError(f"users() takes an op or a value, got {describe(x)}", span)


def _neighbour(attribute, name):
    def get(ctx, span, x):
        if x is ABSENT:
            return ABSENT
        other = getattr(_need_op(x, name, span), attribute)
        return other if other is not None else ABSENT
    return get




def _in_region(ctx, span, x, start, end):
    # constant time a question (rewrite/regions.py); an absent name is no region
    op = _need_op(x, "in_region", span)
    if start is ABSENT or end is ABSENT:
        return False
    if not isinstance(start, str) or not isinstance(end, str):
        raise EvalError(f"in_region() takes two op names (strings), got {describe(start)} and "
                        f"{describe(end)}", span)
    return ctx.regions.contains(op, start, end)


def _group_size(ctx, span, ring_id):
    group = ctx.program.group(ring_id) if isinstance(ring_id, int) else None
    return len(group) if group is not None else ABSENT


def _group_rank(ctx, span, ring_id, rank):
    group = ctx.program.group(ring_id) if isinstance(ring_id, int) else None
    if group is None or rank not in group:
        return ABSENT
    return group.index(rank)


def split_axis(op: Operation):
    """The axis a split op splits along: its `axis` attribute, or the `value` of the `pd_op.full`
    that produces its axis operand (operand 1, as Paddle's `split_with_num` takes it); ABSENT."""
    if "axis" in op.attributes:
        return op.attributes["axis"]
    if op.num_operands > 1:
        axis = op.operand(1)
        owner = axis.owner if axis is not None else None
        if owner is not None and "value" in owner.attributes:
            value = owner.attributes["value"]
            if isinstance(value, float) and value.is_integer():
                return int(value)
            return value
    return ABSENT


#: (type, rank) -> local type: dist_to_dense asks for the same few types at every op. The result
#: depends only on fields equality compares (a dense type has no mesh to carry dim_names).
_LOCAL_TYPES: dict = {}


def _local_type(ctx, span, x, rank):
    t = x if not isinstance(x, (Operation, Value)) else _type(ctx, span, x)
    if t is ABSENT or rank is ABSENT:
        return ABSENT
    if type(t) is not DistTensorType and type(t) is not VectorType:
        return local_type(t, rank)  # returned as it is
    key = (t, rank)
    try:
        found = _LOCAL_TYPES.get(key)
    except TypeError:  # an unhashable item: computed every time
        return local_type(t, rank)
    if found is None:
        if len(_LOCAL_TYPES) > 20_000:
            _LOCAL_TYPES.clear()
        found = _LOCAL_TYPES[key] = local_type(t, rank)
    return found


def _first(ctx, span, xs):
    items = iterate(xs, span)
    return items[0] if items else ABSENT


def _num(fn):
    def call(ctx, span, *args):
        if any(a is ABSENT for a in args):
            return ABSENT
        try:
            return fn(*args)
        except (TypeError, ValueError, OverflowError) as error:
            raise EvalError(str(error), span) from None
    return call


#: the implementations of `lang/builtins.BUILTINS`, `fn(ctx, span, *args)`
IMPLEMENTATIONS = {
    "uses": _uses,
    "len": _len,
    "type": _type,
    "index": lambda ctx, span, x: ctx.position(_need_op(x, "index", span)),
    "role": lambda ctx, span, x: _need_op(x, "role", span).op_role,
    "opname": lambda ctx, span, x: _need_op(x, "opname", span).name,
    "producer": _producer,
    "users": _users,
    "operands": lambda ctx, span, x: [v if v is not None else ABSENT
                                      for v in _need_op(x, "operands", span).operands],
    "results": lambda ctx, span, x: list(_need_op(x, "results", span).results),
    "prev": _neighbour("prev_op", "prev"),
    "next": _neighbour("next_op", "next"),
    "in_region": _in_region,
    "group_size": _group_size,
    "group_rank": _group_rank,
    "split_axis": lambda ctx, span, x: split_axis(_need_op(x, "split_axis", span)),
    "local_type": _local_type,
    "any": lambda ctx, span, xs: any(bool(x) for x in iterate(xs, span)),
    "all": lambda ctx, span, xs: all(bool(x) for x in iterate(xs, span)),
    "first": _first,
    "str": _num(lambda x: normalize(x) if isinstance(x, Symbol) else str(x)),
    "int": _num(int),
    "min": _num(lambda a, b=None: min(a) if b is None else min(a, b)),
    "max": _num(lambda a, b=None: max(a) if b is None else max(a, b)),
    "abs": _num(abs),
    "range": _num(lambda a, b=None: list(range(a)) if b is None else list(range(a, b))),
    "sum": _num(lambda xs: sum(xs)),
}
list(map(implement, IMPLEMENTATIONS, IMPLEMENTATIONS.values()))


def expr_text(expr) -> str:
    """The expression written back as rule text (for `explain` and messages)."""
    if isinstance(expr, A.Literal):
        if isinstance(expr.value, bool):
            return "true" if expr.value else "false"
        return f'"{expr.value}"' if isinstance(expr.value, str) else repr(expr.value)
    if isinstance(expr, A.ListExpr):
        return "[" + ", ".join(expr_text(i) for i in expr.items) + "]"
    if isinstance(expr, A.ParamRef):
        return f"${expr.name}"
    if isinstance(expr, (A.Var, A.LetRef)):
        return expr.name
    if isinstance(expr, A.ResultRef):
        return f"{expr.name}#{expr.index}"
    if isinstance(expr, A.Field):
        return f"{expr_text(expr.base)}.{expr.name}"
    if isinstance(expr, A.Subscript):
        return f"{expr_text(expr.base)}[{expr_text(expr.index)}]"
    if isinstance(expr, (A.Call, A.DefCall)):
        name = expr.func if isinstance(expr, A.Call) else expr.name
        return f"{name}(" + ", ".join(expr_text(a) for a in expr.args) + ")"
    if isinstance(expr, A.Quantifier):
        return f"{expr.kind}({expr.var} in {expr_text(expr.seq)}, {expr_text(expr.body)})"
    if isinstance(expr, A.NotOp):
        return f"not {expr_text(expr.operand)}"
    if isinstance(expr, A.Conditional):
        return (f"({expr_text(expr.then)} if {expr_text(expr.cond)} "
                f"else {expr_text(expr.orelse)})")
    if isinstance(expr, A.Negate):
        return f"-{expr_text(expr.operand)}"
    symbol = {A.OrOp: "or", A.AndOp: "and", A.InOp: "in", A.NotInOp: "not in",
              A.CoalesceOp: "??"}.get(type(expr)) or getattr(expr, "op", "?")
    return f"({expr_text(expr.left)} {symbol} {expr_text(expr.right)})"


def condition_text(expr) -> str:
    """`expr_text` without the parentheses around the whole expression."""
    text = expr_text(expr)
    if text.startswith("(") and text.endswith(")") and hasattr(expr, "left"):
        return text[1:-1]
    return text


def show(x) -> str:
    """A value as a short text for `explain`."""
    if isinstance(x, Operation):
        return x.name
    if isinstance(x, Value):
        return f"result {x.index} of {x.owner.name}" if x.owner is not None else "a block value"
    if isinstance(x, list):
        return "[" + ", ".join(show(i) for i in x[:6]) + (", ..." if len(x) > 6 else "") + "]"
    if isinstance(x, (Symbol, Place)):
        return str(x)
    return repr(x)
