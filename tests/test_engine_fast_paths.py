"""What makes the engine fast must not change what it does (issue 16): the per-op-name dispatch
with the rules inlined, the index that keeps ops under an old attribute value, the trace kept
as records until read (or not at all), the worklist marks, the garbage a pass leaves, the plans'
compiled forms made only when asked, and the chain's passes copying no program. Structural
checks, not timings (those live in bench/ and docs/performance.md)."""

from __future__ import annotations

import gc
import json
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_engine_driver import FOLD  # the scale-folding pass the driver tests run too
from rulepass.engine.api import load_rules, load_rules_text
from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.ir.core import Block, Operation, Program
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rewrite.trace import Application

ROOT = Path(__file__).parent.parent
T = "tensor<4xf32>"


def both_ways(rules, run):
    """`run(rules)` walked, then compiled."""
    return [run(rules.with_compiled(compiled)) for compiled in (False, True)]


def small_chain():
    sys.path.insert(0, str(ROOT / "bench"))
    from mlp_program import pipeline_mlp

    from rulepass.chain import compile_rank

    rules = load_rules([], installed=True)
    forward = parse_program(pipeline_mlp(8))  # kept: a program dropped is cyclic garbage
    return lambda **kw: compile_rank(forward, rules, 0, pp=2, vpp=2, seg_method="MyLinear",
                                     micro_batches=2, **kw)


def test_the_chain_copies_no_program(monkeypatch):
    """Every rule function a chain pass calls with ops or values reads its arguments only (it
    is registered live): no pass copies the program to answer one (partition and
    lower_pipeline_reshard did, with op_dist)."""
    from rulepass.engine.rewrite.functions import FunctionCalls

    copied = []
    monkeypatch.setattr(FunctionCalls, "snapshot", lambda self: copied.append(self.program))
    small_chain()()
    assert copied == []


def test_a_chain_leaves_no_cyclic_garbage():
    """Erased ops are freed by reference counting (their results forget them when the pass
    commits), and the drivers' dispatch functions are no cycle either: the collector finds
    nothing of the IR to free after a whole chain."""
    run = small_chain()
    run()  # rules compiled, caches filled
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        compiled = run(trace=False)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = [type(o).__name__ for o in gc.garbage
                 if type(o).__name__ in ("Operation", "Value", "Driver", "RuleMatcher")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert compiled.program.num_ops() > 100
    assert found == []


def test_an_erased_op_keeps_its_results_owner_until_the_outermost_commit():
    builder = Builder()
    t = tensor((4,))
    x = builder.op("pd_op.data", [], {"name": "x"}, [t]).result
    relu = builder.op("pd_op.relu", [x], {}, [t])
    program = builder.program
    with program.transaction():
        with program.transaction():
            relu.erase()
        assert relu.result.owner is relu  # an outer transaction may still undo it
    assert relu.result.owner is None
    # undone, an erased op is whole again
    other = Builder(program)
    y = program.ops[0].result
    tanh = other.op("pd_op.tanh", [y], {}, [t])
    with pytest.raises(RuntimeError):
        with program.transaction():
            tanh.erase()
            raise RuntimeError("undo")
    assert tanh.result.owner is tanh and tanh.block is program.block


def test_an_op_an_inner_undo_put_back_keeps_its_results_owner_at_the_outer_commit():
    builder = Builder()
    t = tensor((4,))
    x = builder.op("pd_op.data", [], {"name": "x"}, [t]).result
    relu = builder.op("pd_op.relu", [x], {}, [t])
    tanh = builder.op("pd_op.tanh", [x], {}, [t])
    program = builder.program

    def erase_undone(op):  # erased in an inner transaction that fails: put back
        with pytest.raises(RuntimeError):
            with program.transaction():
                op.erase()
                raise RuntimeError("undo")

    with program.transaction():
        erase_undone(relu)
        tanh.erase()
    assert relu.result.owner is relu and relu.block is program.block
    assert tanh.result.owner is None
    # erased, put back by an undo, erased again: freed at the commit that keeps it erased
    with program.transaction():
        erase_undone(relu)
        relu.erase()
    assert relu.result.owner is None and relu.block is None


def scales(values) -> str:
    lines = [f'    (%0) = "pd_op.data" () {{name:"x"}} : () -> {T}']
    for i, v in enumerate(values, start=1):
        lines.append(f'    (%{i}) = "pd_op.scale" (%{i - 1}) {{scale:{v}}} : ({T}) -> {T}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def test_the_trace_is_made_when_read_and_not_at_all_when_not_asked():
    rule_set = load_rules_text(FOLD, "fold.rw")
    text = scales([2, 0.5, 4, 1.0, 3])
    eager = rule_set.run_pass(parse_program(text), "fold", trace_positions=True)
    lazy = rule_set.run_pass(parse_program(text), "fold")
    off = rule_set.run_pass(parse_program(text), "fold", trace=False)
    assert off.trace == () and off.applied == lazy.applied == eager.applied
    assert sum(lazy.applied.values()) == len(eager.trace) == 4
    # the same entries, positions apart
    assert [(a.rule, [n for _, n in a.before], [n for _, n in a.after]) for a in lazy.trace] == \
        [(a.rule, [n for _, n in a.before], [n for _, n in a.after]) for a in eager.trace]
    assert all(p == -1 for a in lazy.trace for p, _ in a.before)
    assert all(p >= 0 for a in eager.trace for p, _ in a.before)
    assert [a.position for a in eager.trace] == [a.before[-1][0] for a in eager.trace]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 10**12), st.text(max_size=6)), max_size=3),
       st.lists(st.tuples(st.integers(-1, 9), st.text(max_size=6)), max_size=3),
       st.one_of(st.none(), st.integers(-1, 99)), st.text(max_size=5),
       st.one_of(st.none(), st.just("rel/x.rw"), st.just(str(ROOT / "rules" / "x.rw"))))
def test_a_trace_line_is_what_json_dumps_writes(before, after, position, rule, file):
    application = Application("p", rule, file, 3, tuple(before), tuple(after), position)
    assert application.json() == json.dumps(application.as_dict(), sort_keys=True)


JOIN = """
pass join {
  # g's ref moves from 1 to 2 after the index filed it under 1; g2 leaves for good
  rule move priority 5 { match { g = t.g {ref: 1} } where has(g.move)
    rewrite { set g.ref = 2  unset g.move  set g.ready = true } }
  rule kill priority 5 { match { g = t.g {ref: 5} } where has(g.kill)
    rewrite { set g.ref = 6  erase g } }
  # a join through a stale entry (f id 1 with g, f id 5 with g2) would set a wrong `seen`
  rule copy { match { f = t.f {id: k}  g = t.g {ref: k} } where has(g.ready) and (g.seen ?? 0) != k
    rewrite { set g.seen = k } }
}
"""


def join_program() -> str:
    return ("{\n"
            f'    (%0) = "t.f" () {{id:1}} : () -> {T}\n'
            f'    (%1) = "t.f" () {{id:5}} : () -> {T}\n'
            f'    (%2) = "t.f" () {{id:2}} : () -> {T}\n'
            f'    (%3) = "t.g" () {{move:true,ref:1}} : () -> {T}\n'
            f'    (%4) = "t.g" () {{kill:true,ready:true,ref:5}} : () -> {T}\n'
            "}\n")


def test_an_index_holding_ops_under_old_values_finds_what_the_walk_finds():
    """Ops move between attribute values and get erased while a join runs: the index keeps
    them under the values they had too, and the matcher must never join through those."""
    rule_set = load_rules_text(JOIN, "join.rw")

    def run(rules):
        program = parse_program(join_program())
        trace = [a.as_dict() for a in rules.run_pass(program, "join").trace]
        return print_program(program), trace

    reference, fast = both_ways(rule_set, run)
    assert fast == reference
    text, trace = reference
    assert '"t.g" () {ready:true,ref:2,seen:2}' in text and "ref:6" not in text
    assert [a["rule"] for a in trace] == ["copy", "move", "kill", "copy"]


def test_the_dispatch_counts_what_the_loop_counts():
    """Tries and matches of each rule, counted per call and per match by the dispatch
    functions, equal the per-rule counts of the matcher's loop (run when time is asked for)."""
    rule_set = load_rules_text(FOLD, "fold.rw")
    counts = []
    for timing in (False, True):
        result = rule_set.run_pass(parse_program(scales([2, 0.5, 1.0, 4, 1.0, 3])), "fold",
                                   timing=timing)
        counts.append({k: (r.tried, r.matched, r.applied) for k, r in result.stats.rules.items()})
    assert counts[0] == counts[1]
    assert counts[0][("fold", "fold_scales")][1] >= 1 and counts[0][("fold", "drop_unit_scale")][0] >= 1


def test_inlined_dispatch_makes_no_plan_function():
    """Plans inlined into a dispatch function never compile their own forms."""
    rule_set = load_rules_text(FOLD, "fold.rw")
    cpass = rule_set.find_pass("fold")
    from rulepass.engine.rewrite.driver import Driver

    program = parse_program(scales([2, 0.5]))
    driver = Driver(program, cpass, {})
    with program.transaction():
        driver.run()
    plans = list(driver.matcher.plans.values())
    assert plans and all(not plan._made for plan in plans)
    assert plans[0].compiled_match is not None  # made when asked for


def nested_program() -> Program:
    builder = Builder()
    t = tensor((4,))
    x = builder.op("pd_op.data", [], {"name": "x"}, [t]).result
    inner = Block()
    inner.append(Operation.create("cf.yield", [x], []))
    builder.program.block.append(Operation.create("pd_op.if", [x], [t], regions=[inner]))
    builder.op("pd_op.relu", [x], {}, [t])
    return builder.program


def test_op_list_is_the_walk_and_adjacent_filters_marks():
    program = nested_program()
    assert program.op_list() == list(program.walk())
    assert [op.name for op in program.op_list()] == ["pd_op.data", "pd_op.if", "cf.yield",
                                                     "pd_op.relu"]
    data, branch, leaf, relu = program.op_list()
    assert set(data.adjacent()) == {branch, relu, leaf}
    assert leaf.adjacent() == [data, branch]  # its producer, and the op holding its block
    token = object()
    branch.mark = token
    assert branch not in data.adjacent(token) and leaf.adjacent(token) == [data]
    branch.mark = None


LATER = """
pass later {
  # matches two ops, erases one of them: only the other outlives the application
  rule drop_reader priority 2 { match { o = t.a(x)  p = t.b(o) } where has(p.drop)
    rewrite { replace p with o  erase p } }
  # matches two ops and erases neither; a later application erases one of them
  rule tag priority 1 { match { o = t.a(x)  q = t.c(o) } where not has(q.tagged)
    rewrite { set q.tagged = true } }
  rule sweep_c { match { q = t.c(y) } where has(q.tagged) and uses(q) == 0 rewrite { erase q } }
}
"""


def test_lazy_trace_records_say_which_ops_outlived_each_application():
    """The trace kept as the matched ops (no op made) says an op outlived an application when
    it was erased by a later one, and not when that application erased it: what the trace
    with positions, made eagerly, says."""
    rule_set = load_rules_text(LATER, "later.rw")
    text = ("{\n"
            f'    (%0) = "pd_op.data" () {{name:"x"}} : () -> {T}\n'
            f'    (%1) = "t.a" (%0) {{}} : ({T}) -> {T}\n'
            f'    (%2) = "t.b" (%1) {{drop:true}} : ({T}) -> {T}\n'
            f'    (%3) = "t.c" (%1) {{}} : ({T}) -> {T}\n'
            "}\n")
    lazy = rule_set.run_pass(parse_program(text), "later").trace
    eager = rule_set.run_pass(parse_program(text), "later", trace_positions=True).trace
    names = [(a.rule, [n for _, n in a.before], [n for _, n in a.after]) for a in lazy]
    assert names == [(a.rule, [n for _, n in a.before], [n for _, n in a.after]) for a in eager]
    assert names == [("drop_reader", ["t.a", "t.b"], ["t.a"]),
                     ("tag", ["t.a", "t.c"], ["t.a", "t.c"]),
                     ("sweep_c", ["t.c"], [])]


SHARED_FIRST_TERM = """
pass tag sweep {
  rule a { match { o = * } where o.k == 1 and o.j == 1  rewrite { set o.tag = "a" } }
  rule b { match { o = * } where o.k == 1 and o.j == 2  rewrite { set o.tag = "b" } }
  rule c { match { o = * } where o.k == 1               rewrite { set o.tag = "c" } }
  rule d { match { o = * } where o.k == true            rewrite { set o.tag = "d" } }
  rule e { match { o = * } where o.k + 1 == 3           rewrite { set o.tag = "e" } }
  rule f { match { o = * } where o.k + 1 == 3 and o.j == 9 rewrite { set o.tag = "f" } }
}
"""


def tagged_program(pairs) -> str:
    lines = [f'    (%{i}) = "t.op" () {{j:{j},k:{k}}} : () -> {T}' for i, (k, j) in enumerate(pairs)]
    return "{\n" + "\n".join(lines) + "\n}\n"


@given(st.lists(st.tuples(st.sampled_from(["1", "2", "true", "false"]),
                          st.sampled_from(["1", "2", "3", "9"])), min_size=1, max_size=12))
@settings(max_examples=40, deadline=None)
def test_rules_sharing_a_first_term_match_as_the_walk(pairs):
    """Consecutive one-op rules whose `where` starts with the same term test it once in the
    dispatch function (a, b, c share `o.k == 1`; e, f share `o.k + 1 == 3`; d's `true` is
    another literal): every op gets the tag the walk gives it."""
    rule_set = load_rules_text(SHARED_FIRST_TERM, "tag.rw")
    text = tagged_program(pairs)
    walked, compiled = both_ways(rule_set, lambda rules: print_program(
        rules.run_pass(parse_program(text), "tag").program))
    assert walked == compiled


def test_a_shared_first_term_is_computed_once(monkeypatch):
    """The dispatch function of `SHARED_FIRST_TERM` reads `k` once for a, b and c, once for
    e and f, and once for d: three times, not six."""
    from rulepass.engine.rewrite.codegen import dispatch

    sources = []
    real = dispatch.compile_cached
    monkeypatch.setattr(dispatch, "compile_cached",
                        lambda source, name: sources.append(source) or real(source, name))
    monkeypatch.setattr(dispatch, "_CACHE", {})
    rule_set = load_rules_text(SHARED_FIRST_TERM, "tag.rw")
    rule_set.run_pass(parse_program(tagged_program([("1", "2")])), "tag")
    assert len(sources) == 1 and sources[0].count("'k'") == 3


def test_an_error_in_a_shared_first_term_names_the_first_rule():
    rule_set = load_rules_text(SHARED_FIRST_TERM, "tag.rw")
    text = '{\n    (%0) = "t.op" () {j:1,k:"s"} : () -> tensor<4xf32>\n}\n'
    messages = []
    for compiled in (False, True):
        with pytest.raises(Exception) as error:
            rule_set.with_compiled(compiled).run_pass(parse_program(text), "tag")
        messages.append(str(error.value))
    assert messages[0] == messages[1] and "rule e" in messages[0]


def test_the_chain_leaves_what_it_made_to_the_oldest_generation():
    """After a chain the young generations hold nothing it made (no young collection walks the
    new program), and objects the host process froze stay frozen."""
    run = small_chain()
    run()
    gc.collect()
    compiled = run(trace=False)
    assert gc.get_count()[0] < 100 and gc.get_count()[1] == 0
    assert compiled.program.num_ops() > 100
    gc.freeze()  # a host that keeps its objects out of the collector's way
    try:
        frozen = gc.get_freeze_count()
        run(trace=False)
        assert frozen > 1000 and gc.get_freeze_count() > frozen - 100  # a few may have died
    finally:
        gc.unfreeze()


ONE_ITEM_FOR = """
pass once sweep {
  rule tag {
    match { o = t.op }
    where not has(o.done)
    rewrite {
      for k in [o.k] where k == 1 { set o.one = true }
      for k in [o.missing] { set o.absent_bound = true }
      for k in [o.missing] where k == 1 { set o.never = true }
      for j in [o.j] where j != 9 {
        let twice = j * 2
        for t in [twice] where t > 2 { set o.big = twice }
      }
      for k in [1] { }
      set o.done = true
    }
  }
}
"""


@given(st.lists(st.tuples(st.sampled_from(["1", "2", "true"]),
                          st.sampled_from(["1", "2", "3", "9"])), min_size=1, max_size=8))
@settings(max_examples=30, deadline=None)
def test_a_one_item_for_runs_as_the_walk(pairs):
    """`for x in [e] where c { ... }` is compiled to a binding and an `if` (no list built):
    the same program as the walk, an absent item bound as absent, lets kept inside."""
    rule_set = load_rules_text(ONE_ITEM_FOR, "once.rw")
    text = tagged_program(pairs)
    walked, compiled = both_ways(rule_set, lambda rules: print_program(
        rules.run_pass(parse_program(text), "once").program))
    assert walked == compiled and "absent_bound:true" in compiled and "never" not in compiled
