"""Properties of the Paddle passes on generated programs (rulepass.testing.programs).

- dist_to_dense leaves no dist type and no op_dist_attr anywhere (VerifyDenseBlock's check);
- running a pass twice equals running it once (dist_to_dense, prune_other_ranks,
  drop_trivial_comm, sp_fusion);
- a pass that fails leaves its input exactly as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulepass.engine.api import load_rules
from rulepass.engine.errors import RulepassError
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import is_dist
from rulepass.testing import programs

RULES = load_rules([Path(__file__).parent.parent / "rules" / "paddle.rw"])
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def run(name: str, text: str, **params) -> str:
    program = parse_program(text)
    RULES.run_pass(program, name, **params)
    return print_program(program)


@SETTINGS
@given(programs(max_ops=12, dist=True), st.integers(0, 3))
def test_dist_to_dense_leaves_nothing_distributed(program, rank):
    text = print_program(program)
    try:
        RULES.run_pass(program, "dist_to_dense", rank=rank)
    except RulepassError:
        assert print_program(program) == text  # a failed pass changes nothing
        assume(False)
    for op in program.walk():
        assert op.dist_attr is None, op.name
        assert not any(is_dist(r.type) for r in op.results), op.name
        assert "chunk_id" in op.attributes
    assert not any(is_dist(v.type) for v in program.kwargs)


@SETTINGS
@pytest.mark.parametrize("name", ["dist_to_dense", "prune_other_ranks", "drop_trivial_comm",
                                  "sp_fusion"])
@given(program=programs(max_ops=12), rank=st.integers(0, 3))
def test_pass_twice_equals_once(name, program, rank):
    params = {"rank": rank} if name != "drop_trivial_comm" else {}
    text = print_program(program)
    try:
        once = run(name, text, **params)
    except RulepassError:
        assume(False)
    assert run(name, once, **params) == once
