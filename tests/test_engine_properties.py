"""Property tests of the engine on generated programs (DAGs whose operands are drawn from earlier
values): a rewrite keeps what the program computes (checked by running both on a small
interpreter), the result verifies, a fixpoint rewritten again does not change, and the output is
the same bytes every time."""

from __future__ import annotations

import textwrap

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepass.engine.api import load_rules_text
from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.pir.verify import verify

RULES = load_rules_text(textwrap.dedent("""
pass simplify {
  # scale(scale(x, a), b) -> scale(x, a*b) when the inner scale has no other user
  rule fold_scales { match { o = pd_op.scale(i) {scale: b}  i = pd_op.scale(x) {scale: a} }
    where uses(i) == 1
    rewrite { s = pd_op.scale(x) {scale: a * b} : type(o)  replace o with s  erase o, i } }
  # scale(x, 1) -> x
  rule drop_unit_scale priority 1 { match { o = pd_op.scale(x) {scale: 1.0} }
    rewrite { replace o with x  erase o } }
  # x + x -> scale(x, 2)
  rule double { match { o = pd_op.add(x, x) }
    rewrite { s = pd_op.scale(x) {scale: 2.0} : type(o)  replace o with s  erase o } }
  # relu(relu(x)) -> relu(x)
  rule relu_idempotent { match { o = pd_op.relu(i)  i = pd_op.relu(_) }
    rewrite { replace o with i  erase o } }
  # an op nobody reads (but data and fetch) goes
  rule dead { match { o = (pd_op.scale | pd_op.relu | pd_op.add)(..) } where uses(o) == 0
    rewrite { erase o } }
}
pass number sweep {
  # sweep: each op once, in program order
  rule number { match { o = * } where not has(o.seen) rewrite { set o.seen = index(o) } }
}
"""))

KERNELS = {
    "pd_op.scale": lambda op, x: x * op.attributes["scale"],
    "pd_op.relu": lambda op, x: np.maximum(x, 0.0),
    "pd_op.add": lambda op, x, y: x + y,
}


def interpret(program) -> dict:
    """What each `pd_op.fetch` receives, by its name."""
    values, fetched = {}, {}
    for op in program.walk():
        args = [values[v] for v in op.operands]
        if op.name == "pd_op.data":
            seed = sum(map(ord, op.attributes["name"]))
            values[op.results[0]] = np.random.default_rng(seed).normal(size=4)
        elif op.name == "pd_op.fetch":
            fetched[op.attributes["name"]] = args[0]
        else:
            values[op.results[0]] = KERNELS[op.name](op, *args)
    return fetched


@st.composite
def programs(draw):
    """A random DAG of data/scale/relu/add ops, then a fetch of some values."""
    builder = Builder()
    t = tensor((4,))
    values = [builder.op("pd_op.data", [], {"name": f"x{i}"}, [t]).result
              for i in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["pd_op.scale", "pd_op.relu", "pd_op.add"]))
        pick = st.integers(0, len(values) - 1)
        if kind == "pd_op.scale":
            scale = draw(st.sampled_from([0.5, 1.0, 2.0, 3.0]))
            op = builder.op(kind, [values[draw(pick)]], {"scale": scale}, [t])
        elif kind == "pd_op.relu":
            op = builder.op(kind, [values[draw(pick)]], {}, [t])
        else:
            a = draw(pick)
            b = a if draw(st.booleans()) else draw(pick)
            op = builder.op(kind, [values[a], values[b]], {}, [t])
        values.append(op.result)
    fetched = draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=4, unique=True))
    for k in fetched:
        builder.op("pd_op.fetch", [values[k]], {"name": f"out{k}"}, [])
    return print_program(builder.program)


@settings(max_examples=60, deadline=None)
@given(programs())
def test_rewriting_keeps_results_verifies_and_is_a_fixpoint(text):
    before = parse_program(text)
    expected = interpret(before)
    program = parse_program(text)
    RULES.run_pass(program, "simplify")
    verify(program)
    actual = interpret(program)
    assert actual.keys() == expected.keys()
    for name in expected:
        np.testing.assert_allclose(actual[name], expected[name], rtol=1e-12)
    printed = print_program(program)
    again = RULES.run_pass(program, "simplify")
    assert again.trace == () and print_program(program) == printed
    assert print_program(parse_program(printed)) == printed


@settings(max_examples=30, deadline=None)
@given(programs())
def test_the_same_input_gives_the_same_bytes(text):
    outputs = set()
    for _ in range(2):
        program = parse_program(text)
        result = RULES.run_pass(program, "simplify", trace_positions=True)
        outputs.add((print_program(program), tuple(a.json() for a in result.trace)))
    assert len(outputs) == 1


@settings(max_examples=30, deadline=None)
@given(programs())
def test_a_sweep_visits_every_op_exactly_once(text):
    program = parse_program(text)
    count = sum(1 for _ in program.walk())
    result = RULES.run_pass(program, "number")
    assert len(result.trace) == count
    assert [op.attributes["seen"] for op in program.walk()] == list(range(count))
