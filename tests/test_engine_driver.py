"""The engine's guarantees (spec "Semantics the engine guarantees"): fixpoint, no-op
applications rejected, termination, determinism, transactions, cost, trace and explain; and the
sweep strategies, pipelines and registered functions."""

from __future__ import annotations

import json
import textwrap

import pytest

from rulepass.engine.api import load_rules_text
from rulepass.engine.errors import RewriteError, RuleCompileError
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rewrite.functions import function, unregister

T = "tensor<4xf32>"


def chain(names, attrs=None) -> str:
    """data -> names[0] -> names[1] -> ... as program text; `attrs[i]` for op i+1."""
    lines = [f'    (%0) = "pd_op.data" () {{name:"x"}} : () -> {T}']
    for i, name in enumerate(names, start=1):
        extra = (attrs or {}).get(i, "")
        lines.append(f'    (%{i}) = "{name}" (%{i - 1}) {{{extra}}} : ({T}) -> {T}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def rules(text: str, name: str = "r.rw"):
    return load_rules_text(textwrap.dedent(text), name)


FOLD = """
pass fold {
  # scale(scale(x, a), b) -> scale(x, a*b)
  rule fold_scales { match { o = pd_op.scale(i) {scale: b}  i = pd_op.scale(x) {scale: a} }
    where uses(i) == 1
    rewrite { s = pd_op.scale(x) {scale: a * b} : type(o)  replace o with s  erase o, i } }
  # scale(x, 1) -> x
  rule drop_unit_scale { match { o = pd_op.scale(x) {scale: 1.0} }
    rewrite { replace o with x  erase o } }
}
"""


def test_fixpoint_no_rule_matches_when_the_pass_ends():
    rule_set = rules(FOLD)
    text = chain(["pd_op.scale"] * 6 + ["pd_op.relu"],
                 {1: "scale:2", 2: "scale:0.5", 3: "scale:4", 4: "scale:0.25", 5: "scale:3",
                  6: "scale:3"})
    program = parse_program(text)
    result = rule_set.run_pass(program, "fold")
    assert print_program(program) == chain(["pd_op.scale", "pd_op.relu"], {1: "scale:9"})
    assert sum(r.applied for r in result.stats.rules.values()) == 5
    again = rule_set.run_pass(program, "fold")
    assert again.trace == () and print_program(program) == chain(["pd_op.scale", "pd_op.relu"],
                                                                  {1: "scale:9"})


def test_a_rule_application_that_changes_nothing_is_an_error_naming_the_rule():
    rule_set = rules("""
    pass p {
      rule noop { match { o = pd_op.relu(x) } rewrite { set o.k = 1 } }
    }""", "noop.rw")
    text = chain(["pd_op.relu"])
    program = parse_program(text)
    with pytest.raises(RewriteError) as caught:
        rule_set.run_pass(program, "p")
    message = str(caught.value)
    assert message.startswith("noop.rw:3: rewrite error: in pass p, rule noop: ")
    assert "changed nothing" in message and "pd_op.relu" in message
    assert print_program(program) == text


CYCLE = """
pass flip {
  rule up { match { o = pd_op.scale(_) {scale: 1.0} } rewrite { set o.scale = 2.0 } }
  rule down { match { o = pd_op.scale(_) {scale: 2.0} } rewrite { set o.scale = 1.0 } }
}
pass grow {
  rule sprout { match { o = pd_op.relu(x) } where uses(o) == 0
    rewrite { pd_op.relu(o) : type(o) } }
}
"""


def test_a_cycle_fails_with_did_not_converge_naming_rules_and_ops():
    text = chain(["pd_op.relu", "pd_op.scale"], {2: "scale:1"})
    program = parse_program(text)
    with pytest.raises(RewriteError) as caught:
        rules(CYCLE, "cycle.rw").run_pass(program, "flip")
    message = str(caught.value)
    assert "did not converge" in message and "came back to an earlier state" in message
    assert "rule up at op 2 (pd_op.scale)" in message
    assert "rule down at op 2 (pd_op.scale)" in message
    assert message.startswith("cycle.rw:2:")
    assert print_program(program) == text


def test_a_growing_program_exhausts_the_budget():
    text = chain(["pd_op.relu"])
    program = parse_program(text)
    with pytest.raises(RewriteError) as caught:
        rules(CYCLE).run_pass(program, "grow")
    assert "did not converge: more than" in str(caught.value)
    assert "rule sprout at" in str(caught.value)
    assert print_program(program) == text


def test_same_program_rules_and_params_give_the_same_bytes_and_trace():
    rule_set = rules(FOLD)
    text = chain(["pd_op.scale", "pd_op.scale", "pd_op.relu", "pd_op.scale", "pd_op.scale"],
                 {1: "scale:2", 2: "scale:3", 4: "scale:1", 5: "scale:5"})
    outputs = set()
    traces = set()
    for _ in range(3):
        program = parse_program(text)
        result = rule_set.run_pass(program, "fold", trace_positions=True)
        outputs.add(print_program(program))
        traces.add("\n".join(a.json() for a in result.trace))
    assert len(outputs) == 1 and len(traces) == 1


def test_a_failed_pass_leaves_the_program_byte_identical():
    rule_set = rules("""
    pass p {
      rule rename priority 1 { match { o = pd_op.relu(x) } where not has(o.seen)
        rewrite { s = pd_op.scale(x) {scale: 2.0} : type(o)  set o.seen = true } }
      rule stop { match { o = pd_op.tanh(_) } rewrite { fail "tanh is not supported here" } }
    }""", "fail.rw")
    text = chain(["pd_op.relu", "pd_op.relu", "pd_op.tanh"])
    program = parse_program(text)
    with pytest.raises(RewriteError) as caught:
        rule_set.run_pass(program, "p")
    assert "tanh is not supported here" in str(caught.value)
    assert "fail.rw:5" in str(caught.value) and "rule stop" in str(caught.value)
    assert '"pd_op.tanh"' in str(caught.value)  # names the op
    assert print_program(program) == text


def test_erasing_a_value_still_used_outside_is_an_error_naming_the_rule():
    rule_set = rules("""
    pass p {
      rule bad { match { o = pd_op.relu(x) } rewrite { erase o } }
    }""", "erase.rw")
    text = chain(["pd_op.relu", "pd_op.tanh"])
    program = parse_program(text)
    with pytest.raises(RewriteError) as caught:
        rule_set.run_pass(program, "p")
    assert "erase.rw:3" in str(caught.value) and "rule bad" in str(caught.value)
    assert "still used by pd_op.tanh" in str(caught.value)
    assert print_program(program) == text


def test_cost_nothing_matching_tries_each_candidate_op_once():
    rule_set = rules(FOLD)
    n = 2000
    program = parse_program(chain(["pd_op.relu"] * n + ["pd_op.scale"], {n + 1: "scale:3"}))
    result = rule_set.run_pass(program, "fold")
    stats = {k[1]: v for k, v in result.stats.rules.items()}
    # Only the one scale op is a candidate root; the relus are never tried.
    assert stats["fold_scales"].tried == 1 and stats["drop_unit_scale"].tried == 1


def test_cost_after_a_rewrite_only_neighbours_are_revisited():
    rule_set = rules(FOLD)
    n = 3000
    attrs = {i: "scale:3" for i in range(1, n + 1)}
    attrs[n // 2] = "scale:1"
    program = parse_program(chain(["pd_op.scale"] * n, attrs))
    result = rule_set.run_pass(program, "fold")
    applied = sum(r.applied for r in result.stats.rules.values())
    tried = sum(r.tried for r in result.stats.rules.values())
    assert applied == n - 1 + 0  # n-1 folds would leave 1 op; the unit scale goes first
    assert tried < 6 * n


FAR = """
pass far {
  rule flag_tanh { match { o = pd_op.tanh } where not has(o.flag) rewrite { set o.flag = true } }
  # reads the flag of an op of its body, not next to its start: a match the worklist does not
  # see coming, which the confirming round finds
  rule close { match region t = pd_op.exp(_) .. f = pd_op.log(_) as body
    where any(o in body, has(o.flag)) and not has(t.closed)
    rewrite { set t.closed = true } }
}
"""


@pytest.mark.parametrize("compiled", [True, False])
def test_the_confirming_round_applies_what_it_finds_and_goes_on_in_order(compiled):
    region = ["pd_op.exp", "pd_op.relu", "pd_op.relu", "pd_op.tanh", "pd_op.relu", "pd_op.log"]
    program = parse_program(chain(region * 3 + ["pd_op.relu"]))
    rule_set = rules(FAR).with_compiled(compiled)
    result = rule_set.run_pass(program, "far")
    trace = [(a.rule, a.as_dict()["before"][0]["name"]) for a in result.trace]
    # the three flags in round one, then the three regions in the confirming round: its
    # first match at the first exp, then the ops after it visited in order
    assert trace == [("flag_tanh", "pd_op.tanh")] * 3 + [("close", "pd_op.exp")] * 3
    exps = [op for op in program.walk() if op.name == "pd_op.exp"]
    assert [op.attributes.get("closed") for op in exps] == [True, True, True]
    assert rule_set.run_pass(program, "far").trace == ()


def test_trace_lines_and_per_rule_stats():
    rule_set = rules(FOLD, "fold.rw")
    program = parse_program(chain(["pd_op.scale", "pd_op.scale"], {1: "scale:2", 2: "scale:3"}))
    result = rule_set.run_pass(program, "fold", trace_positions=True)
    (application,) = result.trace
    line = json.loads(application.json())
    assert line == {"pass": "fold", "rule": "fold_scales", "file": "fold.rw", "line": 4, "position": 2,
                    "before": [{"position": 1, "name": "pd_op.scale"},
                               {"position": 2, "name": "pd_op.scale"}],
                    "after": [{"position": 1, "name": "pd_op.scale"}]}
    stats = result.stats.rules[("fold", "fold_scales")]
    assert (stats.matched, stats.applied) == (1, 1) and stats.tried >= 1
    assert stats.seconds == 0  # the clock is read only when timing is asked for
    again = parse_program(chain(["pd_op.scale", "pd_op.scale"], {1: "scale:2", 2: "scale:3"}))
    timed = rule_set.run_pass(again, "fold", timing=True)
    assert timed.stats.rules[("fold", "fold_scales")].seconds > 0
    assert "fold.fold_scales" in result.stats.table()


def test_explain_names_the_first_failed_constraint():
    rule_set = rules(FOLD)
    program = parse_program(chain(["pd_op.scale", "pd_op.scale", "pd_op.relu"],
                                  {1: "scale:2", 2: "scale:3"}))
    program.ops[1].results[0]  # the first scale feeds the second and nothing else
    text = print_program(program)
    assert rule_set.explain(program, "fold_scales", 2).startswith(
        "op 2 (pd_op.scale): rule fold_scales matches")
    message = rule_set.explain(program, "drop_unit_scale", 2)
    assert "attribute scale is 3, not 1.0" in message
    assert "it starts from pd_op.scale" in rule_set.explain(program, "fold_scales", 3)
    two_users = parse_program(chain(["pd_op.scale", "pd_op.scale"], {1: "scale:2", 2: "scale:3"})
                              .replace("}\n", f'    (%3) = "pd_op.relu" (%1) {{}} : ({T}) -> {T}\n}}\n'))
    assert "where `uses(i) == 1` is false (with i = pd_op.scale)" in rule_set.explain(
        two_users, "fold_scales", 2)
    assert print_program(program) == text  # explain changes nothing


SWEEPS = """
pass forward sweep {
  # each relu records how many relus came before it (already rewritten ones count)
  rule number { match { o = pd_op.relu(x) } rewrite {
    set o.n = (producer(x).n ?? -1) + 1 } }
}
pass backward sweep reverse {
  rule number { match { o = pd_op.relu(x) } rewrite {
    set o.n = (first(u in users(o), true).n ?? -1) + 1 } }
}
pass once sweep {
  # a sweep visits each op once: the new relu is not visited, so this ends
  rule sprout { match { o = pd_op.relu(_) } rewrite { pd_op.relu(o) : type(o) } }
}
"""


def test_sweep_visits_each_op_once_in_program_order_or_reverse():
    rule_set = rules(SWEEPS)
    program = parse_program(chain(["pd_op.relu"] * 3))
    rule_set.run_pass(program, "forward")
    assert [op.attributes["n"] for op in program.ops[1:]] == [0, 1, 2]
    program = parse_program(chain(["pd_op.relu"] * 3))
    rule_set.run_pass(program, "backward")
    assert [op.attributes["n"] for op in program.ops[1:]] == [2, 1, 0]
    program = parse_program(chain(["pd_op.relu"] * 3))
    result = rule_set.run_pass(program, "once")
    assert len(result.trace) == 3 and len(program.ops) == 7


PIPELINE = """
pass tag(rank: int) {
  rule tag { match { o = pd_op.relu(_) } where not has(o.rank) rewrite { set o.rank = $rank } }
}
pass mark(label: str = "m") {
  rule mark { match { o = pd_op.relu(_) } where not has(o.label) rewrite { set o.label = $label } }
}
pass boom {
  rule boom { match { o = pd_op.relu(_) } rewrite { fail "boom" } }
}
pipeline both = tag, mark(label: "fixed")
pipeline broken = tag, boom
"""


def test_pipeline_params_reach_every_pass_declaring_them():
    rule_set = rules(PIPELINE)
    program = parse_program(chain(["pd_op.relu"]))
    result = rule_set.run_pipeline(program, "both", rank=3)
    assert program.ops[1].attributes == {"rank": 3, "label": "fixed"}
    assert [a.pass_name for a in result.trace] == ["tag", "mark"]
    with pytest.raises(RuleCompileError):
        rule_set.run_pipeline(parse_program(chain(["pd_op.relu"])), "both", rank=1, color=2)
    with pytest.raises(RuleCompileError):
        rule_set.run_pipeline(parse_program(chain(["pd_op.relu"])), "both")


def test_a_failing_pipeline_leaves_the_program_as_before_the_first_pass():
    text = chain(["pd_op.relu"])
    program = parse_program(text)
    with pytest.raises(RewriteError):
        rules(PIPELINE).run_pipeline(program, "broken", rank=0)
    assert print_program(program) == text


def test_registered_functions_see_the_program_as_the_pass_found_it_unless_live():
    calls = []

    @function("relus_at_start_t")
    def relus_at_start(program):
        calls.append(1)
        return sum(op.name == "pd_op.relu" for op in program.walk())

    @function("relus_now_t", live=True)
    def relus_now(program):
        return sum(op.name == "pd_op.relu" for op in program.walk())

    try:
        rule_set = rules("""
        pass p {
          rule r { match { o = pd_op.relu(x) } where not has(o.start)
            rewrite { set o.start = relus_at_start_t()  set o.now = relus_now_t()
                      pd_op.relu(o) {start: 0} : type(o) } }
        }""")
        program = parse_program(chain(["pd_op.relu"] * 2))
        rule_set.run_pass(program, "p")
    finally:
        unregister("relus_at_start_t")
        unregister("relus_now_t")
    tagged = [op.attributes for op in program.walk() if "now" in op.attributes]
    assert [t["start"] for t in tagged] == [2, 2]
    assert sorted(t["now"] for t in tagged) == [2, 3]
    assert len(calls) == 1  # computed once per pass


def test_an_expression_that_cannot_be_evaluated_names_the_rule_and_the_expression():
    rule_set = rules("""
    pass p {
      rule bad { match { o = pd_op.relu(x) }
        where o.name + 1 == 2
        rewrite { erase o } }
    }""", "eval.rw")
    text = chain(["pd_op.relu"]).replace("{}", '{name:"r"}', 1)
    program = parse_program(text)
    with pytest.raises(RewriteError) as caught:
        rule_set.run_pass(program, "p")
    message = str(caught.value)
    assert message.startswith("eval.rw:4:") and "rule bad" in message
    assert "cannot compute" in message
    assert print_program(program) == text


def test_a_failed_pass_restores_retyped_program_inputs():
    rule_set = rules("""
    pass p {
      rule widen { match value v where type(v).shape == [4] rewrite { retype v : "tensor<8xf32>" } }
      rule stop { match { o = pd_op.relu(x) } where type(x).shape == [8] rewrite { fail "stop" } }
    }""")
    text = ('{\n    ^kw:\n        %kwarg_w {persistable:true}\n'
            f'    (%0) = "pd_op.relu" (%kwarg_w) {{}} : ({T}) -> {T}\n}}\n')
    program = parse_program(text)
    program.kwargs[0].set_type(program.ops[0].results[0].type)
    before = print_program(program)
    with pytest.raises(RewriteError) as caught:
        rule_set.run_pass(program, "p")
    assert "stop" in str(caught.value)  # raised after the retype
    assert print_program(program) == before
    assert str(program.kwargs[0].type.shape) == "(4,)"


def test_non_live_functions_read_ops_in_the_program_as_the_pass_found_it():
    @function("start_index_t")
    def start_index(program, op):
        return [o for o in program.walk()].index(op)

    try:
        rule_set = rules("""
        pass p {
          rule drop priority 1 { match { o = pd_op.tanh(x) } rewrite { replace o with x  erase o } }
          rule pos { match { o = pd_op.relu(_) } where not has(o.pos)
            rewrite { set o.pos = start_index_t(o)  set o.now = index(o) } }
        }""")
        program = parse_program(chain(["pd_op.tanh", "pd_op.relu", "pd_op.relu"]))
        rule_set.run_pass(program, "p")
    finally:
        unregister("start_index_t")
    relus = [op.attributes for op in program.walk() if op.name == "pd_op.relu"]
    assert [(r["pos"], r["now"]) for r in relus] == [(2, 1), (3, 2)]
