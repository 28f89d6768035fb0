"""The rule language front end: the spec's example parses to the expected tree, every construct
of the contract parses, and malformed files give a RuleSyntaxError at the right line and column
with a message saying what was expected."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RulepassError, RuleSyntaxError
from rulepass.engine.lang.parse import parse_rules

SPEC_EXAMPLE = '''
# rules/sp_fusion.rw — all_reduce(sum) + split + slice(own piece) -> reduce_scatter.
# Source: Paddle auto_parallel_sequence_parallel_optimization.py (seed 004) and
# fuse_allreduce_split_to_reducescatter_pass.

pass sp_fusion(rank: int) {
  rule allreduce_split_slice {
    match {
      ar = pd_op.all_reduce_(x) {reduce_type: 0}          # 0 = SUM
      cp = pd_op.assign(ar)
      sp = pd_op.split_with_num(cp, _) {num: n}
      sl = builtin.slice(sp) {index: i}
    }
    where uses(ar) == 1 and uses(cp) == 1 and uses(sp) == 1
      and split_axis(sp) == 0 and n == group_size(ar.ring_id) and i == group_rank(ar.ring_id, $rank)
    rewrite {
      rs = pd_op.reduce_scatter(x) {ring_id: ar.ring_id, nranks: n} : type(sl)
      replace sl with rs
      erase sl, sp, cp, ar
    }
  }
}

pipeline paddle = complete_chunk_id, grad_chunk, prune_other_ranks, check_chunk_id,
                  dist_to_dense, drop_trivial_comm, sp_fusion

test fuses_own_piece {
  run sp_fusion(rank: 1)
  input  """ ...program text... """
  expect """ ...program text... """          # printed output compared exactly
}
test keeps_max_reduction { run sp_fusion(rank: 0)  input "..."  expect unchanged }
test rejects_cycle { run bad_pass  input "..."  expect error "did not converge" }
'''


def test_spec_example_parses_to_the_expected_tree():
    module = parse_rules(SPEC_EXAMPLE, "sp_fusion.rw")
    (sp_fusion,) = module.of(A.PassDecl)
    assert sp_fusion.name == "sp_fusion"
    assert sp_fusion.params == (A.Param("rank", "int", None, sp_fusion.params[0].span),)
    assert sp_fusion.strategy == "fixpoint"
    (rule,) = sp_fusion.rules
    assert rule.name == "allreduce_split_slice" and rule.priority == 0
    assert (rule.span.file, rule.span.line, rule.span.col) == ("sp_fusion.rw", 7, 3)
    patterns = rule.match.patterns
    assert [p.binding for p in patterns] == ["ar", "cp", "sp", "sl"]
    assert [p.ops for p in patterns] == [("pd_op.all_reduce_",), ("pd_op.assign",),
                                         ("pd_op.split_with_num",), ("builtin.slice",)]
    assert isinstance(patterns[2].operands[1], A.OperandAny)
    assert patterns[0].attrs[0].key == "reduce_type"
    assert patterns[0].attrs[0].value.value.value == 0
    assert patterns[2].attrs[0].value == A.AttrBind("n", patterns[2].attrs[0].value.span)
    create, replace, erase = rule.rewrite
    assert create.binding == "rs" and create.op_name == "pd_op.reduce_scatter"
    assert [a.key for a in create.attrs] == ["ring_id", "nranks"]
    assert isinstance(create.types[0], A.Call) and create.types[0].func == "type"
    assert isinstance(replace, A.ReplaceAction)
    assert [v.name for v in erase.items] == ["sl", "sp", "cp", "ar"]
    (pipeline,) = module.of(A.PipelineDecl)
    assert [e.name for e in pipeline.entries][-1] == "sp_fusion"
    assert len(pipeline.entries) == 7
    tests = module.of(A.TestDecl)
    assert [t.name for t in tests] == ["fuses_own_piece", "keeps_max_reduction", "rejects_cycle"]
    assert isinstance(tests[0].expect, A.ExpectText)
    assert tests[0].run.args[0].name == "rank"
    assert isinstance(tests[1].expect, A.ExpectUnchanged)
    assert tests[2].expect.text == "did not converge"


EVERY_CONSTRUCT = '''
include "other.rw"
pass full(a: int = -1, f: float = 0.5, b: bool = true, s: str = "x") sweep reverse {
  rule regions priority 3 {
    match region t = dist_op.dtensor_to_local(_) .. f = dist_op.dtensor_from_local(_) as body
    where any(o in body, opname(o) == "pd_op.scale") and all(o in body, has(o.op_role))
      and first(o in body, role(o) == 1) ?? 0 != 0 and len(body) % 2 == 0 and 7 // 2 - 1 * 3 < 4
    rewrite {
      for o in body where o.chunk_id ?? -1 == -1 {
        set o.chunk_id = 1
        set o.dist.chunk_id = $a
        unset o.dist
      }
      fail "stage has fewer layers than vpp"
    }
  }
  rule joins priority -2 {
    match {
      f = * {op_id: k}
      g = * {grad_of: k}
      h = (pd_op.add | pd_op.add_)(pd_op.full() {value: 1.0}, sp#1, ..) {axis: _}
      sp = pd_op.split(x, _)
    } inside t = dist_op.dtensor_to_local(_) .. e = dist_op.dtensor_from_local(_)
    where f.dist.mesh.process_ids[0] in [0, 1] and $rank_name not in "abc" and not x in f.dist.mesh
      and type(x).shape[0] >= 2 and $s == "x" or false
    rewrite {
      v = pd_op.scale(x) {scale: 2.0, bias: 0.0} : type(x)
      pd_op.send_v2(v) {peer: 1}
      replace h with v
      erase h, g
      set f.dist.mesh = g.dist.mesh
      unset f.name
      retype x : local_type(x, 0)
    }
  }
  rule values { match value v where uses(v) == 0 rewrite { retype v : type(v) } }
}
pipeline p = full, full(a: 2), other
'''


def test_every_construct_of_the_contract_parses():
    module = parse_rules(EVERY_CONSTRUCT.replace("$rank_name", '"b"'), "all.rw")
    (include,) = module.of(A.IncludeDecl)
    assert include.path == "other.rw"
    (full,) = module.of(A.PassDecl)
    assert full.strategy == "sweep_reverse"
    assert [p.type for p in full.params] == ["int", "float", "bool", "str"]
    assert full.params[0].default == A.Literal(-1, full.params[0].default.span)
    regions, joins, values = full.rules
    assert (regions.priority, joins.priority) == (3, -2)
    assert isinstance(regions.match, A.MatchRegion) and regions.match.body == "body"
    assert isinstance(regions.where, A.AndOp)
    loop = regions.rewrite[0]
    assert isinstance(loop, A.ForAction) and loop.var == "o" and loop.where is not None
    assert [type(a) for a in loop.body] == [A.SetAction, A.SetAction, A.UnsetAction]
    assert loop.body[1].path.names == ("dist", "chunk_id")
    assert isinstance(regions.rewrite[1], A.FailAction)
    match = joins.match
    assert isinstance(match, A.MatchOps) and match.inside is not None
    f, g, h, sp = match.patterns
    assert f.ops is None and h.ops == ("pd_op.add", "pd_op.add_")
    nested, result, rest = h.operands
    assert isinstance(nested, A.OpPattern) and nested.binding is None
    assert nested.operands == () and nested.attrs[0].key == "value"
    assert result == A.OperandResult("sp", 1, result.span)
    assert isinstance(rest, A.OperandRest)
    assert isinstance(h.attrs[0].value, A.AttrPresent)
    kinds = [type(a).__name__ for a in joins.rewrite]
    assert kinds == ["CreateOp", "CreateOp", "ReplaceAction", "EraseAction", "SetAction",
                     "UnsetAction", "RetypeAction"]
    assert joins.rewrite[1].binding is None
    assert isinstance(values.match, A.MatchValue) and values.match.name == "v"
    (pipeline,) = module.of(A.PipelineDecl)
    assert [(e.name, len(e.args)) for e in pipeline.entries] == [("full", 0), ("full", 1),
                                                                 ("other", 0)]


def test_quantifiers_become_quantifier_nodes_and_calls_stay_calls():
    module = parse_rules(EVERY_CONSTRUCT.replace("$rank_name", '"b"'), "all.rw")
    where = module.of(A.PassDecl)[0].rules[0].where
    found = []
    stack = [where]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Quantifier):
            found.append(node.kind)
        for name in ("left", "right", "operand"):
            if hasattr(node, name):
                stack.append(getattr(node, name))
    assert sorted(found) == ["all", "any", "first"]


def test_precedence_of_coalesce_comparison_and_boolean_operators():
    text = "pass p { rule r { match { o = a.b } where not o.k ?? 1 + 2 == 3 and true or false " \
           "rewrite { } } }"
    where = parse_rules(text).of(A.PassDecl)[0].rules[0].where
    assert isinstance(where, A.OrOp)
    conj = where.left
    assert isinstance(conj, A.AndOp) and isinstance(conj.left, A.NotOp)
    comparison = conj.left.operand
    assert isinstance(comparison, A.Compare) and comparison.op == "=="
    assert isinstance(comparison.left, A.CoalesceOp)
    assert isinstance(comparison.left.right, A.Arith)


def test_keywords_are_plain_names_where_no_keyword_fits():
    # `value`, `input`, `region` are keywords only where the grammar expects them.
    text = ("pass p { rule r { match { o = pd_op.full() {value: input} } where o.region == 1 "
            "rewrite { set o.value = input } } }")
    rule = parse_rules(text).of(A.PassDecl)[0].rules[0]
    assert rule.match.patterns[0].attrs[0].key == "value"
    assert rule.rewrite[0].path.names == ("value",)


def test_text_blocks_are_dedented_and_strings_unescaped():
    text = 'test t {\n  run p\n  input """\n    {\n        x\n    }\n  """\n' \
           '  expect error "say \\"hi\\""\n}\n'
    (test,) = parse_rules(text).of(A.TestDecl)
    assert test.input == "{\n    x\n}\n"
    assert test.expect.text == 'say "hi"'


def test_comments_are_ignored_but_result_references_are_not_comments():
    text = "# head\npass p { # c\n rule r { match { o = a.b(s#1) } # c2\n rewrite { } } }"
    rule = parse_rules(text).of(A.PassDecl)[0].rules[0]
    assert rule.match.patterns[0].operands[0] == A.OperandResult(
        "s", 1, rule.match.patterns[0].operands[0].span)


H = "pass p {\n  rule r {\n"

MALFORMED = [
    ('eq_in_where', H + "    match { o = a.b(x) }\n    where uses(o) = 1\n    rewrite { erase o }\n  }\n}\n",
     4, 19, 'use `==` to compare'),
    ('eq_in_where_field', H + "    match { o = a.b(x) }\n    where o.k = 1\n    rewrite { erase o }\n  }\n}\n",
     4, 15, 'use `==` to compare'),
    ('missing_rewrite', H + "    match { o = a.b(x) }\n    where uses(o) == 1\n  }\n}\n",
     5, 3, 'needs `rewrite'),
    ('missing_rewrite_nowhere', H + "    match { o = a.b(x) }\n  }\n}\n",
     4, 3, 'needs `rewrite'),
    ('missing_brace_eof', H + "    match { o = a.b(x) }\n    rewrite { erase o }\n  }\n",
     5, 3, "'}' is missing"),
    ('missing_brace_rewrite', H + "    match { o = a.b(x) }\n    rewrite { erase o \n  }\n}\n",
     6, 1, "'}' is missing"),
    ('unterminated_string', H + "    match { o = a.b(x) }\n    where o.name == \"abc\n    rewrite { erase o }\n  }\n}\n",
     4, 21, 'unterminated string'),
    ('bad_param_type', "pass p(rank: integer) {\n}\n",
     1, 17, 'param types are int, float, bool and str'),
    ('bad_param_type_literal', "pass p(rank: 1) {\n}\n",
     1, 14, 'param types are'),
    ('operands_without_comma', H + "    match { o = a.b(x y) }\n    rewrite { erase o }\n  }\n}\n",
     3, 23, "operands are separated by ','"),
    ('attr_with_equals', H + "    match { o = a.b(x) {k = 1} }\n    rewrite { erase o }\n  }\n}\n",
     3, 27, '`{key: value}`'),
    ('rule_at_top_level', "rule r {\n  match { o = a.b(x) }\n  rewrite { erase o }\n}\n",
     1, 1, 'rules live inside `pass'),
    ('double_ampersand', H + "    match { o = a.b(x) }\n    where uses(o) == 1 && uses(x) == 1\n    rewrite { erase o }\n  }\n}\n",
     4, 24, 'use `and` / `or`'),
    ('test_without_expect', "test t {\n  run p\n  input \"{}\"\n}\n",
     4, 1, 'expect takes'),
    ('replace_without_with', H + "    match { o = a.b(x) }\n    rewrite { replace o x }\n  }\n}\n",
     4, 25, '`replace` needs `with`'),
    ('priority_word', "pass p {\n  rule r priority high {\n  }\n}\n",
     2, 19, '`priority` takes an integer'),
    ('pipeline_positional_arg', "pipeline q = a(1)\n",
     1, 16, 'pipeline is `pipeline name ='),
    ('include_unquoted', "include other.rw\n",
     1, 9, 'quoted path'),
    ('region_without_as', H + "    match region t = a.b(_) .. f = a.c(_)\n    rewrite { erase t }\n  }\n}\n",
     4, 5, '`match region` is'),
    ('op_without_dialect', H + "    match { o = add(x) }\n    rewrite { erase o }\n  }\n}\n",
     3, 20, 'op names have a dialect'),
    ('unknown_action', H + "    match { o = a.b(x) }\n    rewrite { delete o }\n  }\n}\n",
     4, 22, 'a rewrite action is one of'),
    ('set_without_field', H + "    match { o = a.b(x) }\n    rewrite { set o = 1 }\n  }\n}\n",
     4, 21, '`set`/`unset` take a field'),
    ('where_before_match', H + "    where x == 1\n    rewrite { }\n  }\n}\n",
     3, 5, 'a rule starts with `match'),
    ('bang_not', H + "    match { o = a.b(x) }\n    where !has(o.k)\n    rewrite { erase o }\n  }\n}\n",
     4, 11, 'use `not` for negation'),
    ('single_quotes', H + "    match { o = a.b(x) }\n    where o.name == 'x'\n    rewrite { erase o }\n  }\n}\n",
     4, 21, 'double quotes'),
    ('pattern_without_binding_eq', H + "    match { o a.b(x) }\n    rewrite { erase o }\n  }\n}\n",
     3, 15, 'needs ` = `'),]


@pytest.mark.parametrize("name, text, line, col, message", MALFORMED,
                         ids=[case[0] for case in MALFORMED])
def test_malformed_rule_files_name_line_column_and_what_was_expected(name, text, line, col,
                                                                     message):
    with pytest.raises(RuleSyntaxError) as caught:
        parse_rules(text, "bad.rw")
    error = caught.value
    assert (error.file, error.line, error.col) == ("bad.rw", line, col)
    assert message in error.message
    shown = str(error)
    assert shown.startswith(f"bad.rw:{line}:{col}: syntax error: ")
    # The source line and a caret under the column.
    source_line = text.split("\n")[line - 1]
    block = shown.split("\n")
    assert block[1] == "    " + source_line
    assert block[2] == "    " + " " * (col - 1) + "^"


def test_syntax_errors_are_rulepass_errors_without_a_lark_traceback():
    with pytest.raises(RulepassError) as caught:
        parse_rules("pass p {", "x.rw")
    assert caught.value.__cause__ is None
    assert "lark" not in str(caught.value).lower()


TOKENS = ["pass", "rule", "match", "where", "rewrite", "{", "}", "(", ")", "o", "=", "==",
          "pd_op.relu", "x", ",", "..", "_", "erase", "set", "o.k", "1", '"s"', "test", "run",
          "input", "expect", "unchanged", "pipeline", "p", "#c\n", "\n", "region", "as", "..",
          "inside", "value", "for", "in", "sp#1", "$r", "??", "and", "not", "[", "]", ":", "*",
          "'", "&&", "!", '"open', "priority", "-", "sweep", "reverse", "include", "|"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=30))
def test_any_token_soup_parses_or_raises_a_rule_syntax_error(tokens):
    text = " ".join(tokens)
    try:
        parse_rules(text, "soup.rw")
    except RuleSyntaxError as error:
        assert error.line is not None and error.col is not None
        assert error.message
