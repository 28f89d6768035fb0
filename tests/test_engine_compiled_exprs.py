"""The engine's fast paths compute what the reference code computes.

- Differential: every rule expression the engine evaluates while running the rule files' test
  blocks, the captured Paddle programs and the whole chain on a small pipeline MLP is evaluated
  by both the compiled closure (`engine/rewrite/codegen/exprs.py`) and the tree-walking `exprs.evaluate`;
  the values (or the errors, with their spans) must be the same.
- `equal` / `contains` fast paths for ints and strings agree with the general rules.
- Prepared registered functions (`prepare=`) and constant-argument calls need no program copy.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import rulepass.engine.rewrite.actions as actions
import rulepass.engine.rewrite.codegen.exprs as expr_compile
import rulepass.engine.rewrite.match as match
import rulepass.engine.lang.nodes as A
from rulepass.engine.api import load_rules, load_rules_text
from rulepass.engine.ir.attributes import Symbol
from rulepass.engine.errors import RulepassError
from rulepass.engine.rewrite.exprs import ABSENT, Context, EvalError, contains, equal, evaluate
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.lang.check import children
from rulepass.engine.rewrite.functions import REGISTRY, function, unregister
from rulepass.engine.rule_tests import run_tests

ROOT = Path(__file__).parent.parent
RULE_FILES = sorted((ROOT / "rules").glob("*.rw"))
DATA = ROOT / "tests" / "data" / "paddle"


def outcome(function, *args):
    """("value", v) or ("error", message, span) of a call."""
    try:
        return ("value", function(*args))
    except EvalError as error:
        return ("error", error.message, error.span)


def same(a, b) -> bool:
    """Equal results: the same object, or equal values of the same type (lists item by item)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (Operation, Value)):
        return False
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


class Checker:
    """Wraps `compiled` so that each evaluation is also done by `evaluate` and compared."""

    def __init__(self):
        self.original = expr_compile.compiled
        self.checked = 0
        self.kinds: set = set()
        self.mismatches: list = []

    def __call__(self, expr):
        fast = self.original(expr)

        def both(env, ctx):
            reference = outcome(evaluate, expr, dict(env), ctx)
            got = outcome(fast, env, ctx)
            self.checked += 1
            stack = [expr]
            while stack:  # the node kinds evaluated, nested ones (and defs' bodies) included
                node = stack.pop()
                self.kinds.add(type(node).__name__)
                stack.extend(children(node))
                if isinstance(node, A.DefCall):
                    stack.append(node.decl.body)
            if got[0] != reference[0] or not all(same(x, y) for x, y in
                                                 zip(got[1:], reference[1:])):
                self.mismatches.append((expr, reference, got))
            if got[0] == "error":
                raise EvalError(got[1], got[2])
            return got[1]
        return both


@pytest.fixture
def checker(monkeypatch):
    check = Checker()
    monkeypatch.setattr(match, "compiled", check)
    monkeypatch.setattr(actions, "compiled", check)
    # the rule sets below are loaded walked (compiled=False): term by term, action by action,
    # every expression goes through `compiled`
    return check


def test_compiled_expressions_agree_on_rule_test_blocks(checker):
    rules = load_rules(RULE_FILES, compiled=False)
    outcomes = run_tests(rules)
    assert outcomes and all(o.passed for o in outcomes), [o.message for o in outcomes
                                                          if not o.passed][:2]
    assert checker.checked > 1000
    assert not checker.mismatches, checker.mismatches[:3]


def test_compiled_expressions_agree_on_captured_programs(checker):
    sys.path.insert(0, str(ROOT / "tests"))
    from test_passes_conformance import captured_pairs, groups_of, pass_params

    rules = load_rules([ROOT / "rules" / "paddle.rw"], compiled=False)
    for case in captured_pairs():
        name, rank_dir, before, after = case.values
        program = parse_program(before.read_text())
        program.process_groups = groups_of(rank_dir)
        rules.run_pass(program, name, **pass_params(name, rank_dir))
        program.process_groups = {}
        assert print_program(program) == after.read_text(), f"{name} on {before}"
    assert not checker.mismatches, checker.mismatches[:3]


def test_compiled_expressions_agree_on_the_chain(checker):
    sys.path.insert(0, str(ROOT / "bench"))
    from mlp_program import pipeline_mlp

    from rulepass.chain import compile_rank

    rules = load_rules([], installed=True, compiled=False)
    for rank in (0, 1):
        compile_rank(parse_program(pipeline_mlp(4)), rules, rank, pp=2, vpp=2,
                     seg_method="MyLinear", micro_batches=2)
    assert checker.checked > 1000
    # The node kinds the rule files use are all covered.
    assert {"Call", "Field", "Compare", "AndOp", "InOp", "NotInOp", "CoalesceOp",
            "Quantifier", "Var", "ParamRef", "Literal", "ListExpr", "DefCall"} <= checker.kinds
    assert not checker.mismatches, checker.mismatches[:3]


SPAN = A.Span(None, 1, 1)


def lit(value):
    return A.Literal(value, SPAN)


@pytest.mark.parametrize("expr", [
    A.InOp(lit("a"), A.ListExpr((lit("a"), lit("b")), SPAN), SPAN),
    A.NotInOp(A.Var("s", SPAN), A.ListExpr((lit("x"), lit("y")), SPAN), SPAN),
    A.InOp(A.Var("s", SPAN), A.ListExpr((lit("x"), lit("y")), SPAN), SPAN),
    A.InOp(A.Var("n", SPAN), A.ListExpr((lit(1), lit(True)), SPAN), SPAN),
    A.InOp(A.Var("t", SPAN), A.ListExpr((lit(1), lit(2)), SPAN), SPAN),
    A.Compare("==", A.Var("n", SPAN), lit(1.0), SPAN),
    A.Compare("<", A.Var("n", SPAN), lit("x"), SPAN),
    A.Field(A.Var("m", SPAN), "shape", SPAN),
    A.Field(A.Var("m", SPAN), "nothing", SPAN),
    A.Field(A.Var("n", SPAN), "shape", SPAN),
    A.Field(A.Var("missing", SPAN), "shape", SPAN),
    A.Arith("+", A.Var("n", SPAN), lit("x"), SPAN),
    A.Call("nobody_registered_this", (lit(1),), SPAN),
    A.Quantifier("first", "i", A.ListExpr((lit(1), lit(2)), SPAN),
                 A.Compare(">", A.Var("i", SPAN), lit(1), SPAN), SPAN),
    A.CoalesceOp(A.Field(A.Var("m", SPAN), "dim_names", SPAN), lit("none"), SPAN),
    A.Negate(A.Var("n", SPAN), SPAN),
    A.Negate(lit("x"), SPAN),
    A.ResultRef("n", 0, SPAN),
    A.Subscript(A.ListExpr((lit(1), lit(2)), SPAN), lit(5), SPAN),
    A.Subscript(A.Var("n", SPAN), lit(0), SPAN),
])
def test_compiled_matches_evaluate_on_edge_cases(expr):
    from rulepass.engine.ir.types import ProcessMesh

    env = {"s": Symbol("x"), "n": 1, "t": True, "m": ProcessMesh((2,), (0, 1))}
    ctx = Context(parse_program("{\n}"), {})
    reference = outcome(evaluate, expr, dict(env), ctx)
    got = outcome(expr_compile.compiled(expr), env, ctx)
    assert got[0] == reference[0] and all(same(x, y) for x, y in zip(got[1:], reference[1:]))


@pytest.mark.parametrize("a,b,expected", [
    (1, 1, True), (1, 2, False), ("a", "a", True), ("a", "b", False),
    (1, True, False), (True, 1, False), (1, 1.0, True), ("a", Symbol("a"), True),
    (Symbol("a"), "a", True), ((1, 2), [1, 2], True), (ABSENT, ABSENT, True), (1, ABSENT, False),
])
def test_equal_fast_path_keeps_the_rules(a, b, expected):
    assert equal(a, b) is expected


@pytest.mark.parametrize("container,item,expected", [
    ([1, 2], 2, True), ([True], 1, False), ([1.0], 1, True), ([Symbol("x")], "x", True),
    (["x", "y"], "y", True), (["x"], "z", False), ([(1,)], 1, False), ([], 1, False),
    (["1"], 1, False),
])
def test_contains_fast_path_keeps_the_rules(container, item, expected):
    assert contains(container, item) is expected
    assert contains(tuple(container), item) is expected


PROGRAM = """{
    (%0) = "pd_op.full" () {value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {} : (tensor<4xf32>) -> tensor<4xf32>
}"""


def test_prepared_function_reads_the_program_as_found_without_a_copy():
    """`prepare=` runs once per pass on the program before any change; no copy is made."""
    prepared = []

    def relus(program):
        prepared.append(1)
        return {id(op) for op in program.walk() if op.name == "pd_op.relu"}

    @function("test_was_relu", prepare=relus)
    def was_relu(table, op):
        return id(op) in table

    try:
        rules = load_rules_text("""
pass mark {
  rule mark_relu {
    match { o = * }
    where test_was_relu(o) and not has(o.seen)
    rewrite { set o.seen = 1 }
  }
}
""")
        program = parse_program(PROGRAM)
        rules.run_pass(program, "mark")
        text = print_program(program)
        assert text.count("seen:1") == 2
        assert prepared == [1]
    finally:
        unregister("test_was_relu")


def test_prepared_function_answers_absent_for_an_op_made_during_the_pass():
    """The table describes the program as the pass found it, which had no such op: absent, and
    the function is not called (docs/rule-language.md, proposal 1)."""
    calls = []

    @function("test_prepared_count", prepare=lambda program: 0)
    def prepared_count(table, op):
        calls.append(op.name)
        return table

    try:
        rules = load_rules_text("""
pass grow {
  rule add_scale {
    match { o = pd_op.relu(x) }
    where not has(o.done)
    rewrite {
      n = pd_op.scale(x) : type(x)
      set n.count = test_prepared_count(n) ?? -1
      set o.done = test_prepared_count(o)
    }
  }
}
""")
        program = parse_program(PROGRAM)
        rules.run_pass(program, "grow")
        text = print_program(program)
        assert "count:-1" in text and "done:0" in text
        assert set(calls) == {"pd_op.relu"}
    finally:
        unregister("test_prepared_count")


def test_constant_calls_need_no_copy(monkeypatch):
    """A pass whose non-live calls all have constant arguments answers them before its first
    change and copies nothing; the answer is the program as the pass found it."""
    import rulepass.engine.rewrite.functions as rw_functions

    snapshots = []
    monkeypatch.setattr(rw_functions.FunctionCalls, "snapshot",
                        lambda self: snapshots.append(1) or None)

    @function("test_count_relu")
    def count_relu(program):
        return sum(1 for op in program.walk() if op.name == "pd_op.relu")

    try:
        rules = load_rules_text("""
pass erase_relu_count {
  rule drop {
    match { o = pd_op.relu(x) }
    rewrite {
      set o.relus = test_count_relu()
      replace o with x
      erase o
    }
  }
  rule note {
    match { o = pd_op.full }
    where not has(o.relus)
    rewrite { set o.relus = test_count_relu() }
  }
}
""")
        program = parse_program(PROGRAM)
        rules.run_pass(program, "erase_relu_count")
        assert "relus:2" in print_program(program)  # counted before the relus went
        assert snapshots == []
        assert "test_count_relu" in REGISTRY
    finally:
        unregister("test_count_relu")


def test_index_lists_follow_changes():
    """The index hands out sorted lists it keeps; filing or unfiling an op renews them."""
    from rulepass.engine.rewrite.index import ProgramIndex

    program = parse_program(PROGRAM)
    index = ProgramIndex(program, set())
    relus = index.named({"pd_op.relu"})
    assert [op.name for op in relus] == ["pd_op.relu", "pd_op.relu"]
    assert index.named({"pd_op.relu"}) is relus  # kept while nothing changes
    first = program.ops[0]
    made = Operation.create("pd_op.relu", [first.results[0]], [first.results[0].type])
    program.block.insert_before(program.ops[1], made)
    index.refresh(made, True)
    renewed = index.named({"pd_op.relu"})
    assert renewed[0] is made and len(renewed) == 3
    assert index.lookup(("name", "pd_op.relu")) == renewed
    made.erase()
    index.refresh(made, False)
    assert index.named({"pd_op.relu"}) == relus
    assert index.lookup(("name", "pd_op.relu")) == relus


def test_local_type_memo_gives_what_local_type_gives():
    from rulepass.engine.rewrite.exprs import BUILTINS
    from rulepass.engine.pir.parse import parse_type
    from rulepass.engine.ir.types import DenseTensorType, VectorType, local_type

    dist = parse_type("pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],"
                      "dims_mappings:[0,-1]>")
    dense = DenseTensorType((4, 8), "float32")
    for t in (dist, VectorType((dist, dense))):
        for rank in (0, 1, 5):
            first = BUILTINS["local_type"].impl(None, None, t, rank)
            assert first == local_type(t, rank)
            assert BUILTINS["local_type"].impl(None, None, t, rank) == first
    assert BUILTINS["local_type"].impl(None, None, dense, 0) is dense
