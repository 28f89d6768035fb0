"""Which attribute changes send the fixpoint driver to the changed op's neighbours
(engine/rewrite/reads.py), and what the driver does with it."""

from __future__ import annotations

import pytest

from test_engine_driver import chain, rules
from rulepass.engine.ir.core import Operation
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rewrite.functions import function, unregister
from rulepass.engine.rewrite.reads import neighbour_keys


def keys(body: str, params: str = ""):
    """neighbour_keys of `pass p(params) { body }`."""
    return neighbour_keys(rules(f"pass p{params} {{\n{body}\n}}").find_pass("p"))


def test_one_op_rules_read_nothing_across_ops():
    assert keys("""
      rule a { match { o = pd_op.relu {scale: s} } where has(o.tag) and s > 0 and uses(o) == 1
               rewrite { set o.tag2 = 1 } }
      rule b { match { o = pd_op.tanh(x) } where type(x) == type(o) and not has(o.seen)
               rewrite { set o.seen = 1 } }""") == frozenset()


def test_a_pattern_of_linked_ops_reads_their_attributes_across_ops():
    found = keys("""
      rule a { match { o = pd_op.scale(i) {scale: b}  i = pd_op.relu(x) {mode: m} }
               where i.extra == 1 and not has(o.done) rewrite { set o.done = 1 } }""")
    assert found == {"scale", "mode", "extra", "done"}


def test_a_join_reads_its_partner_through_the_index_not_across_an_edge():
    assert keys("""
      rule a { match { f = * {op_id: k, chunk_id: c}  g = * {grad_of: k} }
               where (g.chunk_id ?? -1) != c rewrite { set g.chunk_id = c } }""") == frozenset()


def test_fields_of_ops_a_function_returns_and_of_bound_names_count():
    assert keys("""
      rule a { match { o = pd_op.relu(x) } where producer(x).chunk_id == 1 and role(o) == 0
               and any(u in users(o), has(u.mark)) rewrite { set o.t = 1 } }""") == {
        "chunk_id", "mark"}  # role(o) reads o itself
    # a quantifier's name hides the pattern op of the same name
    assert keys("""
      rule a { match { o = pd_op.relu(x) } where any(o in users(x), has(o.mark))
               rewrite { set o.t = 1 } }""") == {"mark"}
    assert keys("""
      rule a { match { o = pd_op.relu(x) } where role(producer(x)) == 0 and has(o.dist)
               rewrite { set o.t = 1 } }""") == {"op_role"}


def test_lets_and_defs_count():
    assert keys("""
      rule a { match { o = pd_op.relu(x) } let p = producer(x) where p.tag == 1
               rewrite { set o.t = 1 } }""") == {"tag"}
    found = neighbour_keys(rules("""
      def tagged(v) = v.tag == 1
      pass p { rule a { match { o = pd_op.relu } where tagged(o) rewrite { set o.t = 1 } } }
    """).find_pass("p"))
    assert found == {"tag"}  # a def's body counts every field, whatever it is given


@pytest.fixture
def peek():
    function("peek_tag", live=True)(lambda program, op: op.attributes.get("tag", 0))
    function("tags_now", live=True)(lambda program: sum("tag" in o.attributes for o in program.walk()))
    function("const_tag")(lambda program, k: k)
    yield
    for name in ("peek_tag", "tags_now", "const_tag"):
        unregister(name)


def test_a_registered_function_given_the_program_may_read_any_key(peek):
    assert keys("""
      rule a { match { o = pd_op.relu(x) } where peek_tag(o) == 0 rewrite { set o.t = 1 } }""") is None
    # a live one reads the program as it is now, arguments or not
    assert keys("""
      rule a { match { o = pd_op.relu(x) } where tags_now() == 0 rewrite { set o.t = 1 } }""") is None
    # one that is not live, given constants, is answered before the pass changes anything
    assert keys("""
      rule a { match { o = pd_op.relu(x) } where const_tag($k) == 0 and not has(o.t)
               rewrite { set o.t = 1 } }""", "(k: int = 0)") == frozenset()


def test_value_rules_may_read_any_key():
    assert keys("""
      rule a { match value v where uses(v) == 0 rewrite { fail "unused" } }""") is None


# ---- the driver -------------------------------------------------------------------------------

TAG_AND_LOOK = """
pass p {
  rule tag { match { o = pd_op.relu } where not has(o.t) rewrite { set o.t = 1 } }
  rule look { match { o = pd_op.tanh } where has(o.never) rewrite { set o.seen = 1 } }
}"""


def test_an_attribute_no_rule_reads_across_ops_sends_the_driver_to_the_op_alone():
    n = 200
    program = parse_program(chain(["pd_op.relu", "pd_op.tanh"] * n))
    result = rules(TAG_AND_LOOK).run_pass(program, "p")
    stats = {k[1]: v for k, v in result.stats.rules.items()}
    assert stats["tag"].applied == n
    # each tanh: the first round only; tagging the relu before it (its producer and
    # neighbour) sends no one back to it, and the confirming round tries neither rule: the
    # worklist follows all they read (`reads.followed`)
    assert stats["look"].tried == n


def test_an_attribute_read_across_an_edge_sends_the_driver_to_the_neighbours():
    # `look` reads the `t` of the relu reading each tanh; `look`'s own `seen` no rule reads
    # across ops
    text = TAG_AND_LOOK.replace("has(o.never)", "any(u in users(o), has(u.t)) and not has(o.seen)")
    n = 50
    program = parse_program(chain(["pd_op.tanh", "pd_op.relu"] * n))
    result = rules(text).run_pass(program, "p")
    stats = {k[1]: v for k, v in result.stats.rules.items()}
    assert stats["look"].applied == n and stats["tag"].applied == n
    assert print_program(program).count("seen:1") == n
    # each relu is tried when first visited and again after it is tagged (the confirming
    # round tries only `look`, which reads users): tagging it sent the driver back to the
    # tanh before it, in the same round, and setting that tanh's `seen` sent it nowhere. (Left
    # to the next full round, the looks would need a third round: 4n tries; revisiting the
    # neighbours of every change, 4n - 1.)
    assert stats["tag"].tried == 2 * n
    # each tanh: first visited, after the relu reading it is tagged, after its own `seen`, and
    # in the confirming round
    assert stats["look"].tried == 4 * n


def fan(n: int) -> str:
    """n pd_op.scale ops (scale 1) all reading one pd_op.data."""
    lines = ['    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>']
    lines += [f'    (%{i}) = "pd_op.scale" (%0) {{bias:0,scale:1}} : (tensor<4xf32>) -> '
              'tensor<4xf32>' for i in range(1, n + 1)]
    return "{\n" + "\n".join(lines) + "\n}\n"


FOLD_AND_ONLY = """
pass p {
  rule fold_unit_scale { match { s = pd_op.scale(x) {scale: 1} } rewrite { erase s } }
  rule only_reader { match { r = pd_op.relu(x) } where uses(x) == 1 and not has(r.only)
                     rewrite { set r.only = 1 } }
}
"""


def test_erasing_the_readers_of_one_value_costs_linear_work(monkeypatch):
    # an outside trial: each erase sent the driver to the neighbours of the data op, whose
    # readers it walked all (Operation.adjacent, filtering the queued ones): 20,000 readers
    # took 23 s, 100,000 never ended. Counted here: the uses those walks go through.
    walked = [0]
    adjacent = Operation.adjacent

    def counting(op, *args):
        walked[0] += sum(r.num_uses for r in op.results)
        return adjacent(op, *args)

    monkeypatch.setattr(Operation, "adjacent", counting)
    for n in (200, 800):
        walked[0] = 0
        program = parse_program(fan(n))
        result = rules(FOLD_AND_ONLY).run_pass(program, "p")
        stats = {k[1]: v for k, v in result.stats.rules.items()}
        assert stats["fold_unit_scale"].applied == n and program.num_ops() == 1
        # each scale is tried once: the first round (the confirming round sees none left)
        assert stats["fold_unit_scale"].tried == n
        assert walked[0] <= 4 * n  # was n * n / 2


def test_a_reader_of_a_value_others_stop_reading_is_not_revisited_each_time():
    # a relu reads x before 50 scales that go: the single-use rule matches it once x has one
    # reader left; it is tried in the first round, once x is left to it, after its own change,
    # and in the confirming round (before, every erase sent the driver back to it: 54 tries)
    n = 50
    text = fan(n).replace('(%1) = "pd_op.scale" (%0) {bias:0,scale:1}',
                          '(%1) = "pd_op.relu" (%0) {}')
    program = parse_program(text)
    result = rules(FOLD_AND_ONLY).run_pass(program, "p")
    stats = {k[1]: v for k, v in result.stats.rules.items()}
    assert stats["fold_unit_scale"].applied == n - 1
    assert stats["only_reader"].applied == 1 and "only:1" in print_program(program)
    assert stats["only_reader"].tried == 4
