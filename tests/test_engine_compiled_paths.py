"""The compiled matcher tests and rewrite blocks do what the reference walk does.

The compiled paths (one generated function per plan step, `engine/rewrite/codegen/match.py`, and
one per rewrite block, `engine/rewrite/codegen/actions.py`) are switched off and on per rule set
(`load_rules(..., compiled=False)`, `RuleSet.with_compiled`); on the rule
files' test blocks, on every captured Paddle pair and on random rule sets over random programs,
both must give the same program text, the same trace, and the same error (message and place).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from rulepass.engine.api import load_rules, load_rules_text
from rulepass.engine.errors import RulepassError
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.rule_tests import run_tests
from rulepass.testing import programs, rule_sets

ROOT = Path(__file__).parent.parent
RULE_FILES = sorted((ROOT / "rules").glob("*.rw"))


def both_ways(rules, run):
    """`run(rules)` with the rule set walked, then compiled (`RuleSet.with_compiled`); the two
    results."""
    return [run(rules.with_compiled(compiled)) for compiled in (False, True)]


def outcome(rules, name: str, text: str, **params):
    """(program text, trace, None) or (program text, None, error text) of one pass run."""
    program = parse_program(text)
    try:
        result = rules.run_pass(program, name, **params)
    except RulepassError as error:
        return print_program(program), None, str(error)
    return print_program(program), [a.as_dict() for a in result.trace], None


def test_rule_test_blocks_agree():
    """Each test block's run: the same program, trace and error text (which the blocks'
    `expect error` only checks a part of)."""
    from rulepass.engine.rewrite.compiled import constant

    rules = load_rules(RULE_FILES)

    def run(rules):
        found = []
        for test in rules.tests:
            args = {arg.name: constant(arg.value, rules.sources) for arg in test.run.args}
            if test.run.name in rules.pipelines:
                continue  # a pipeline's passes are the passes run here one by one
            found.append(outcome(rules, test.run.name, test.input, **args))
        return found
    reference, fast = both_ways(rules, run)
    assert len(reference) > 30
    assert sum(error is not None for _, _, error in reference) >= 5
    assert fast == reference
    assert all(o.passed for o in run_tests(rules))


def test_captured_programs_agree():
    sys.path.insert(0, str(ROOT / "tests"))
    from test_passes_conformance import captured_pairs, groups_of, pass_params

    rules = load_rules([ROOT / "rules" / "paddle.rw"])

    def run(rules):
        found = []
        for case in captured_pairs():
            name, rank_dir, before, _ = case.values
            program = parse_program(before.read_text())
            program.process_groups = groups_of(rank_dir)
            result = rules.run_pass(program, name, **pass_params(name, rank_dir))
            program.process_groups = {}
            found.append((print_program(program), [a.as_dict() for a in result.trace]))
        return found
    reference, fast = both_ways(rules, run)
    assert fast == reference


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(program=programs(max_ops=10, regions=False), text=rule_sets())
def test_random_rule_sets_agree(program, text):
    rules = load_rules_text(text, "random.rw")
    source = print_program(program)
    reference, fast = both_ways(rules, lambda rules: outcome(rules, "random_pass", source))
    assert fast == reference


@pytest.mark.parametrize("rewrite,expected", [
    # a `for` body's binding stays in the body; the outer variable of the same name is unchanged
    ("for r in results(o) { n = pd_op.scale(r) {} : type(r) }\n"
     "      set o.seen = opname(o)", "seen:\"pd_op.relu\""),
    # a created op used by a later action of the same block
    ("n = pd_op.scale(x) {} : type(x)\n      set o.made = opname(n)", "made:\"pd_op.scale\""),
])
def test_scoping_of_bindings(rewrite, expected):
    rules = load_rules_text(
        "pass p sweep {\n  rule r {\n    match { o = pd_op.relu(x) }\n"
        f"    rewrite {{\n      {rewrite}\n    }}\n  }}\n}}\n", "p.rw")
    source = ("{\n    (%0) = \"pd_op.data\" () {name:\"x\",shape:[4]} : () -> tensor<4xf32>\n"
              "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>\n}\n")
    reference, fast = both_ways(rules, lambda rules: outcome(rules, "p", source))
    assert fast == reference
    assert reference[2] is None, reference[2]
    assert expected in reference[0]


DEEP_PROGRAM = ("{\n    (%0) = \"pd_op.data\" () {name:\"x\",shape:[4]} : () -> tensor<4xf32>\n"
                "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>\n}\n")


def test_an_expression_python_cannot_compile_falls_back_to_the_walk():
    """80 nested producer() calls are within the language's depth limit, but their Python
    translation nests deeper than Python's parser allows (200 parentheses): the engine evaluates
    them by the walk instead."""
    import rulepass.engine.rewrite.codegen.exprs as expr_compile

    chain = "producer(" * 80 + "o" + ")" * 80
    rules = load_rules_text(
        f"pass p sweep {{ rule r {{ match {{ o = pd_op.relu }} where not has(o.seen) "
        f"and opname({chain}) == \"pd_op.relu\" rewrite {{ set o.seen = 1 }} }} }}\n", "p.rw")
    term = rules.find_pass("p").rules[0].decl.where.right
    with pytest.raises(expr_compile.Unsupported):
        gen = expr_compile.SourceGen()
        gen.function(f"def f(env, ctx):\n    return {gen.expr(term, {})}\n", "f")
    reference, fast = both_ways(rules, lambda rules: outcome(rules, "p", DEEP_PROGRAM))
    assert fast == reference and reference[2] is None
    assert "seen:1" in reference[0]


def test_expressions_nest_at_most_100_deep():
    from rulepass.engine.errors import RuleCompileError, RuleSyntaxError

    chain = " ?? ".join(["o.nothing"] * 120) + " ?? 1"
    # a flat chain is too long where it passes the limit (newuser item 11), at parse time
    with pytest.raises(RuleSyntaxError, match=r"deep\.rw:1:\d+: .*expression too long: its "
                                              r"chain of `\?\?` operators passes 100 levels"):
        load_rules_text(f"pass p {{ rule r {{ match {{ o = pd_op.relu }} where ({chain}) == 2 "
                        "rewrite { set o.seen = 1 } } }\n", "deep.rw")
    chain = " ?? ".join(["o.nothing"] * 3000) + " ?? 1"
    with pytest.raises(RuleSyntaxError, match=r"deep\.rw:1:\d+: .*expression too long"):
        load_rules_text(f"pass p {{ rule r {{ match {{ o = pd_op.relu }} where ({chain}) == 2 "
                        "rewrite { set o.seen = 1 } } }\n", "deep.rw")


JOIN_PROGRAM = ("{\n    (%0) = \"t.a\" () {k:1} : () -> tensor<4xf32>\n"
                "    (%1) = \"t.b\" () {k:1.0} : () -> tensor<4xf32>\n}\n")


@pytest.mark.parametrize("rule,expected", [
    # an attribute variable bound twice holds the value seen last (1.0), as the walk's `bind`
    ("match { a = t.a {k: v}  b = t.b {k: v} } where not has(a.seen) "
     "rewrite { set a.seen = str(v) }", 'seen:"1.0"'),
])
def test_a_joined_attribute_variable_holds_the_value_seen_last(rule, expected):
    rules = load_rules_text(f"pass p sweep {{ rule r {{ {rule} }} }}\n", "p.rw")
    reference, fast = both_ways(rules, lambda rules: outcome(rules, "p", JOIN_PROGRAM))
    assert fast == reference and reference[2] is None
    assert expected in reference[0]


@pytest.mark.parametrize("value,message", [
    ("int(1e999)", "cannot convert float infinity"),
    ('"a" * 9000000000000000000', "cannot compute"),
    ("type(o)", "the type pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],"
                "dims_mappings:[-1], placements:[Replicate()]> cannot be an attribute value"),
    ("type(o).mesh", "the process mesh mesh_shape:[2],process_ids:[0,1] cannot be an attribute "
                     "value"),
])
def test_bad_attribute_values_are_rule_errors(value, message):
    rules = load_rules_text("pass p sweep { rule r { match { o = t.a } where not has(o.seen) "
                            f"rewrite {{ set o.seen = {value} }} }} }}\n", "p.rw")
    source = ("{\n    (%0) = \"t.a\" () {} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],"
              "process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]>\n}\n")
    reference, fast = both_ways(rules, lambda rules: outcome(rules, "p", source))
    assert fast == reference
    assert reference[2] is not None and message in reference[2]
    assert reference[0] == print_program(parse_program(source))  # left as it was


def test_plus_joins_a_list_and_an_attribute_array():
    rules = load_rules_text("pass p sweep { rule r { match { o = t.a } where not has(o.seen) "
                            "rewrite { set o.seen = [0] + o.l } } }\n", "p.rw")
    source = "{\n    (%0) = \"t.a\" () {l:[1,2]} : () -> tensor<4xf32>\n}\n"
    reference, fast = both_ways(rules, lambda rules: outcome(rules, "p", source))
    assert fast == reference and "seen:[0,1,2]" in reference[0]


def test_compiled_or_walked_is_chosen_per_rule_set():
    text = "pass p { rule r { match { o = pd_op.relu(x) } rewrite { replace o with x\n erase o } } }\n"
    walked = load_rules_text(text, "p.rw", compiled=False)
    fast = walked.with_compiled(True)
    assert (walked.compiled, fast.compiled, load_rules_text(text, "p.rw").compiled) == (False, True, True)
    assert fast.passes is walked.passes
    assert outcome(walked, "p", DEEP_PROGRAM) == outcome(fast, "p", DEEP_PROGRAM)


def test_walkers_dispatch_on_the_node_class():
    """Each walker's class-keyed table holds every node its methods handle."""
    from rulepass.engine.lang.check import CHILDREN
    from rulepass.engine.rewrite.actions import ACTIONS, Rewriter
    from rulepass.engine.rewrite.codegen.actions import ActionGen
    from rulepass.engine.rewrite.codegen.exprs import ScopedGen, SourceGen
    from rulepass.engine.rewrite.exprs import EVALUATORS

    assert {m.__name__ for m in ACTIONS.values()} == {n for n in vars(Rewriter) if n.startswith("do_")}
    assert {k.__name__ for k in ActionGen.ACTIONS} == {n[2:] for n in dir(ActionGen) if n.startswith("a_")}
    assert ScopedGen.EXPRESSIONS.keys() == SourceGen.EXPRESSIONS.keys()
    assert set(SourceGen.EXPRESSIONS) <= set(EVALUATORS) and set(CHILDREN) <= set(EVALUATORS)
