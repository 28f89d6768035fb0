"""`in_region(o, start, end)` in constant time (engine/rewrite/regions.py): the index agrees with
the definition — `o` lies strictly between an op named start and the first op named end after it,
in its block — through random insertions and erasures reported as a pass reports them, and a
sweep that erases many regions while asking at every op makes the index once."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulepass.engine.rewrite.regions as regions
from rulepass.engine.api import load_rules_text
from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.ir.observer import Observer
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rewrite.regions import RegionIndex

NAMES = ["S", "E", "x", "y"]


def by_definition(op, start: str, end: str) -> bool:
    """Strictly after some op named `start` whose first `end` after it comes after `op`."""
    block_ops = op.block.ops
    position = block_ops.index(op)
    for i in range(position):
        if block_ops[i].name == start:
            first_end = next((j for j in range(i + 1, len(block_ops))
                              if block_ops[j].name == end), None)
            if first_end is not None and first_end > position:
                return True
    return False


class Forward(Observer):
    """Reports insertions and erasures to the index, as the driver's `Changes` does."""

    def __init__(self, index: RegionIndex):
        self.index = index

    def op_inserted(self, op) -> None:
        self.index.inserted(op)

    def op_erased(self, op) -> None:
        self.index.erased(op)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(NAMES), max_size=14), st.integers(0, 10 ** 6),
       st.booleans())
def test_index_agrees_with_the_definition_through_changes(names, seed, observed):
    rng = random.Random(seed)
    program = Program()
    for name in names:
        program.block.append(Operation.create(name))
    index = RegionIndex(program)
    index.observed = observed
    with program.observe(Forward(index) if observed else Observer()):
        for _ in range(12):
            for op in program.block.ops:
                assert index.contains(op, "S", "E") == by_definition(op, "S", "E"), \
                    ([o.name for o in program.block.ops], op.name)
            ops = program.block.ops
            if ops and rng.random() < 0.5:
                ops[rng.randrange(len(ops))].erase()
            else:
                new = Operation.create(rng.choice(NAMES))
                if ops:
                    program.block.insert_before(ops[rng.randrange(len(ops))], new) \
                        if rng.random() < 0.5 else program.block.append(new)
                else:
                    program.block.append(new)


def test_index_answers_the_builtin_examples():
    program = parse_program("""{
    (%0) = "pd_op.data" () {} : () -> tensor<4xf32>
    (%1) = "dist_op.dtensor_to_local" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.scale" (%1) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%3) = "dist_op.dtensor_from_local" (%2) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%4) = "pd_op.relu" (%3) {} : (tensor<4xf32>) -> tensor<4xf32>
}""")
    index = RegionIndex(program)
    answers = [index.contains(op, "dist_op.dtensor_to_local", "dist_op.dtensor_from_local")
               for op in program.block.ops]
    assert answers == [False, False, True, False, False]


def test_a_sweep_erasing_regions_makes_the_index_once(monkeypatch):
    """Every op asks `in_region`; half the regions are erased on the way; the block's index is
    made once and kept up to date from what the IR reports (no walk per question)."""
    made = []
    original = regions.BlockRuns.__init__

    def counting(self, block, markers):
        made.append(block)
        original(self, block, markers)

    monkeypatch.setattr(regions.BlockRuns, "__init__", counting)
    lines, value = [], 0
    for k in range(40):
        keep = "true" if k % 2 else "false"
        lines += [f'    (%{value + 1}) = "pd_op.t" (%{value}) {{keep:{keep}}} : (tensor<4xf32>) -> tensor<4xf32>',
                  f'    (%{value + 2}) = "pd_op.scale" (%{value + 1}) {{}} : (tensor<4xf32>) -> tensor<4xf32>',
                  f'    (%{value + 3}) = "pd_op.f" (%{value + 2}) {{}} : (tensor<4xf32>) -> tensor<4xf32>']
        value += 3
    text = "{\n" + '    (%0) = "pd_op.data" () {} : () -> tensor<4xf32>\n' + "\n".join(lines) + "\n}"
    rules = load_rules_text("""
pass drop sweep reverse {
  rule region priority 1 {
    match region t = pd_op.t(x) {keep: false} .. f = pd_op.f(_) as body
    rewrite { replace f with x
              erase f, body, t }
  }
  rule mark {
    match { o = * }
    where in_region(o, "pd_op.t", "pd_op.f") and not has(o.inside)
    rewrite { set o.inside = true }
  }
}""")
    program = parse_program(text)
    rules.run_pass(program, "drop")
    printed = print_program(program)
    assert printed.count("inside:true") == 20 and printed.count('"pd_op.t"') == 20
    assert len(made) == 1


@pytest.mark.parametrize("start, end", [("S", "S"), ("E", "S")])
def test_index_with_odd_marker_names(start, end):
    program = Program()
    for name in ["x", "S", "x", "E", "x", "S", "x"]:
        program.block.append(Operation.create(name))
    index = RegionIndex(program)
    for op in program.block.ops:
        assert index.contains(op, start, end) == by_definition(op, start, end)
