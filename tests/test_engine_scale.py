"""The engine on large programs: a 50,000-op linear chain (no RecursionError, linear cost) and
deeply nested blocks."""

from __future__ import annotations

import sys
import textwrap
import time

import pytest

from rulepass.engine.api import load_rules_text
from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.ir.core import Block, Operation
from rulepass.engine.pir.printer import print_program

RULES = textwrap.dedent("""
pass fold {
  # scale(scale(x, a), b) -> scale(x, a*b)
  rule fold_scales { match { o = pd_op.scale(i) {scale: b}  i = pd_op.scale(x) {scale: a} }
    where uses(i) == 1
    rewrite { s = pd_op.scale(x) {scale: a * b} : type(o)  replace o with s  erase o, i } }
}
pass mark {
  rule mark { match { o = pd_op.scale(x) } where not has(o.seen) rewrite { set o.seen = true } }
}
pass nothing {
  rule never { match { o = pd_op.scale(pd_op.relu(x)) {scale: 7.0} } rewrite { erase o } }
}
""")

N = 50_000


def linear_chain(n: int):
    """data -> scale -> scale -> ... (n scales), built through the IR API."""
    builder = Builder()
    t = tensor((4,))
    value = builder.op("pd_op.data", [], {"name": "x"}, [t]).result
    for _ in range(n):
        value = builder.op("pd_op.scale", [value], {"scale": 1.0}, [t]).result
    return builder.program


@pytest.mark.slow
def test_a_50000_op_chain_runs_to_fixpoint_without_recursion_error():
    rule_set = load_rules_text(RULES)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # nothing may recurse over the program's length
    try:
        program = linear_chain(N)
        start = time.perf_counter()
        rule_set.run_pass(program, "nothing")
        nothing = time.perf_counter() - start
        rule_set.run_pass(program, "mark")
        result = rule_set.run_pass(program, "fold")
    finally:
        sys.setrecursionlimit(limit)
    assert len(program.ops) == 2
    assert sum(r.applied for r in result.stats.rules.values()) == N - 1
    assert nothing < 10
    assert print_program(program).count("pd_op.scale") == 1


def _nest(depth: int):
    """``depth`` pd_op.if ops each nested in the one before, with a scale at the bottom."""
    builder = Builder()
    t = tensor((4,))
    x = builder.op("pd_op.data", [], {"name": "x"}, [t]).result
    block = builder.program.block
    for _ in range(depth):
        op = Operation.create("pd_op.if", [], [])
        block.append(op)
        inner = Block()
        op.add_region(inner)
        block = inner
    block.append(Operation.create("pd_op.scale", [x], [t], {"scale": 1.0}))
    return builder.program


def test_deeply_nested_blocks_are_matched_without_recursion():
    program = _nest(3000)
    rule_set = load_rules_text(RULES)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        rule_set.run_pass(program, "mark")
    finally:
        sys.setrecursionlimit(limit)
    (scale,) = [op for op in program.walk() if op.name == "pd_op.scale"]
    assert scale.attributes["seen"] is True


def _lines_run(fn) -> int:
    """Python lines executed by ``fn()`` (a count, not a time: the same on any machine)."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("pass_name", ["mark", "nothing"])
def test_a_pass_over_nested_blocks_is_linear_in_their_depth(pass_name):
    # breaker item 17: each op's "is it still in the program" walked up its parents, so a pass
    # over 6,000 nested blocks took 11 s (20,000: > 120 s); the block now knows its program
    rule_set = load_rules_text(RULES)
    costs = []
    for depth in (400, 1600):
        program = _nest(depth)
        costs.append(_lines_run(lambda: rule_set.run_pass(program, pass_name)))
    assert costs[1] < 5 * costs[0], costs  # x4 the depth: x4 the work, not x16


def test_every_block_knows_its_program_as_ops_move():
    from rulepass.engine.ir.core import Program

    program = _nest(3)
    outer = program.block.ops[1]  # the first pd_op.if
    nested = [op for op in outer.walk()]
    assert all(op.block.program is program for op in nested)
    with program.transaction():
        outer.erase()
        assert all(op.block is None or op.block.program is None for op in nested)
        other = Program()
        other.block.append(outer)
        assert all(op.block.program is other for op in nested)
        outer.erase()
        program.block.append(outer)
    assert all(op.block.program is program for op in nested)
    # an op built with its regions full, then linked, and a failed transaction's undo
    region = Block()
    region.append(Operation.create("pd_op.relu", [], []))
    made = Operation.create("pd_op.if", [], [], regions=[region])
    assert region.program is None
    try:
        with program.transaction():
            program.block.append(made)
            assert region.program is program
            raise RuntimeError("undo")
    except RuntimeError:
        pass
    assert made.block is None and region.program is None
