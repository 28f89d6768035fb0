"""Random expression trees: the compiled translation (`expr_compile.compile_expression`) gives
what the reference walk (`exprs.evaluate`) gives — the same value, or the same EvalError with the
same span — and neither lets another Python exception escape.

Calls of `def`s (`DefCall`, with random bodies) are among the nodes. The trees are built directly as ASTs (so they reach shapes the rule checker would refuse, such
as unbound variables, wrong argument kinds and out-of-range result references), over variables
holding every kind of value an expression meets: ints, floats, NaN, bools, strings, symbols,
places, tuples, lists, absent, None, ops, values, dist attributes, meshes and types.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulepass.engine.rewrite.codegen.exprs as expr_compile
import rulepass.engine.lang.nodes as A
from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.rewrite.exprs import ABSENT, Context, EvalError, evaluate
from rulepass.engine.pir.parse import parse_program
from test_engine_compiled_exprs import same  # tests/ is on sys.path under pytest

DIST = ("pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], "
        "placements:[Replicate()]>")
PROGRAM = parse_program(f"""{{
    (%0) = "pd_op.data" () {{name:"x",k:1}} : () -> {DIST}
    (%1) = "pd_op.relu" (%0) {{op_dist_attr:{{mesh:{{shape:[1],process_ids:[0]}},chunk_id:0}},k:1,class:3}} : ({DIST}) -> tensor<4xf32>
    (%2, %3) = "pd_op.split2" (%1) {{}} : (tensor<4xf32>) -> tensor<2xf32>, tensor<2xf32>
    (%4) = "pd_op.add" (%2, %3) {{}} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
}}""")  # noqa: E501
OPS = list(PROGRAM.walk())
ENV = {"i": 1, "z": 0, "b": True, "f": 1.5, "nan": float("nan"), "s": "ab",
       "sym": Symbol("float32"), "t": (1, 2), "l": [1, Symbol("x"), "y"], "a": ABSENT,
       "o": OPS[1], "o2": OPS[2], "v": OPS[1].results[0], "d": OPS[1].dist_attr,
       "m": OPS[1].dist_attr.mesh, "ty": OPS[0].results[0].type, "dty": OPS[1].results[0].type,
       "e": [], "big": 10 ** 20, "pl": Place("cpu"), "neg": -3, "ls": [[1], (1,)],
       "none": None}
FIELDS = ["dist", "shape", "mesh", "class", "type", "index", "name", "chunk_id", "process_ids",
          "dim_names", "local_shape", "text", "k", "dims_mapping", "placements", "dim",
          "operands", "results", "owner", "dtype", "if", "missing", "partial", "__class__"]
UNARY = ["uses", "len", "type", "index", "role", "opname", "producer", "users", "operands",
         "results", "prev", "next", "split_axis", "any", "all", "first", "str", "int", "min",
         "max", "abs", "range", "sum", "group_size"]
BINARY = ["group_rank", "local_type", "min", "max", "range"]
_LINES = itertools.count(1)


def span() -> A.Span:
    """A distinct span per node, so that an error names exactly which node raised it."""
    line = next(_LINES)
    return A.Span("random.rw", line, line % 7 + 1)


LITERALS = st.one_of(st.integers(-3, 3), st.sampled_from([0.0, 1.0, 2.5, -1.0]), st.booleans(),
                     st.sampled_from(["", "a", "ab", "float32", "x", "1"]))
PLAIN = LITERALS.filter(lambda v: type(v) in (int, str))


def expressions(depth: int):
    """Random expression ASTs at most `depth` deep."""
    leaf = st.one_of(
        LITERALS.map(lambda v: A.Literal(v, span())),
        st.sampled_from(sorted(ENV)).map(lambda n: A.Var(n, span())),
        st.sampled_from(["rank", "k", "nope"]).map(lambda n: A.ParamRef(n, span())),
        st.tuples(st.sampled_from(["o", "o2", "v", "i"]), st.integers(0, 2)).map(
            lambda p: A.ResultRef(p[0], p[1], span())))
    if depth <= 0:
        return leaf
    sub = expressions(depth - 1)
    return st.one_of(
        leaf,
        st.lists(sub, max_size=3).map(lambda xs: A.ListExpr(tuple(xs), span())),
        st.lists(PLAIN.map(lambda v: A.Literal(v, span())), min_size=1, max_size=3).map(
            lambda xs: A.ListExpr(tuple(xs), span())),
        st.tuples(sub, st.sampled_from(FIELDS)).map(lambda p: A.Field(p[0], p[1], span())),
        st.tuples(sub, sub).map(lambda p: A.Subscript(p[0], p[1], span())),
        st.tuples(st.sampled_from(UNARY), sub).map(lambda p: A.Call(p[0], (p[1],), span())),
        st.tuples(st.sampled_from(BINARY), sub, sub).map(
            lambda p: A.Call(p[0], (p[1], p[2]), span())),
        sub.map(lambda x: A.Call("has", (x,), span())),
        st.tuples(st.sampled_from(["any", "all", "first"]), st.sampled_from(["q", "i", "o"]),
                  sub, sub).map(lambda p: A.Quantifier(p[0], p[1], p[2], p[3], span())),
        st.tuples(sub, sub).map(lambda p: A.OrOp(p[0], p[1], span())),
        st.tuples(sub, sub).map(lambda p: A.AndOp(p[0], p[1], span())),
        sub.map(lambda x: A.NotOp(x, span())),
        st.tuples(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), sub, sub).map(
            lambda p: A.Compare(p[0], p[1], p[2], span())),
        st.tuples(st.sampled_from(["==", "!="]), sub, PLAIN).map(
            lambda p: A.Compare(p[0], p[1], A.Literal(p[2], span()), span())),
        st.tuples(sub, sub).map(lambda p: A.InOp(p[0], p[1], span())),
        st.tuples(sub, sub).map(lambda p: A.NotInOp(p[0], p[1], span())),
        st.tuples(sub, sub).map(lambda p: A.CoalesceOp(p[0], p[1], span())),
        st.tuples(st.sampled_from(["+", "-", "*", "//", "%"]), sub, sub).map(
            lambda p: A.Arith(p[0], p[1], p[2], span())),
        sub.map(lambda x: A.Negate(x, span())),
        st.tuples(sub, sub, sub).map(def_call))


def def_call(parts) -> A.DefCall:
    """A call of a def whose parameters are the names of ENV: its body (`parts[0]`) reads them;
    the first two arguments are the other parts, the rest pass each name's own value."""
    body, first, second = parts
    names = tuple(sorted(ENV))
    args = (first, second) + tuple(A.Var(n, span()) for n in names[2:])
    return A.DefCall("d", args, A.DefDecl("d", names, body, span()), span())


def outcome(function, *args):
    """("value", v), ("error", message, span), or ("python", text) for any other exception."""
    try:
        return ("value", function(*args))
    except EvalError as error:
        return ("error", error.message, error.span)
    except Exception as error:  # noqa: BLE001 - what the test is looking for
        return ("python", f"{type(error).__name__}: {error}")


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(expressions(3))
def test_compiled_expressions_agree_with_the_walk(expr):
    agree(expr)


def agree(expr) -> None:
    """The compiled translation of `expr` gives what the walk gives (value or error)."""
    ctx = Context(PROGRAM, {"rank": 0, "k": 1})
    reference = outcome(evaluate, expr, dict(ENV), ctx)
    got = outcome(expr_compile.compile_expression(expr), dict(ENV), ctx)
    assert reference[0] != "python", reference
    assert got[0] == reference[0] and len(got) == len(reference), (reference, got)
    assert all(same(x, y) for x, y in zip(reference[1:], got[1:])), (reference, got)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.tuples(expressions(2), expressions(1), expressions(1)).map(def_call))
def test_compiled_def_calls_agree_with_the_walk(expr):
    """A def's body is written in place, its arguments evaluated first into temporaries (by
    value); the walk binds the parameters and evaluates the body."""
    agree(expr)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.tuples(expressions(2), expressions(1), expressions(1)).map(def_call))
def test_compiled_def_functions_agree_with_the_walk(expr):
    """The same with every def called as its own function (`INLINE_LIMIT` 0: the form a large
    body takes) instead of written in place."""
    saved = expr_compile.INLINE_LIMIT
    expr_compile.INLINE_LIMIT = 0
    try:
        agree(expr)
    finally:
        expr_compile.INLINE_LIMIT = saved
