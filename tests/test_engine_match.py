"""Patterns and expressions: every pattern form of the rule language, and the built-in
functions, each on a small program whose rewritten text is written out."""

from __future__ import annotations

import textwrap

import pytest

from rulepass.engine.api import load_rules_text
from rulepass.engine.rewrite.exprs import ABSENT, Context, evaluate
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.lang.nodes import PassDecl
from rulepass.engine.lang.parse import parse_rules

T = "tensor<4xf32>"


def program(*ops: str, header: str = "") -> str:
    """Program text from op lines (indented by the printer's 4 spaces)."""
    return header + "{\n" + "".join(f"    {op}\n" for op in ops) + "}\n"


def data(i: int, name: str = "x") -> str:
    return f'(%{i}) = "pd_op.data" () {{name:"{name}"}} : () -> {T}'


def unary(i: int, name: str, operand: int, attrs: str = "") -> str:
    return f'(%{i}) = "{name}" (%{operand}) {{{attrs}}} : ({T}) -> {T}'


def binary(i: int, name: str, a: int, b: int, attrs: str = "") -> str:
    return f'(%{i}) = "{name}" (%{a}, %{b}) {{{attrs}}} : ({T}, {T}) -> {T}'


def rewrite(rules: str, text: str, pass_name: str = "p", **params) -> str:
    """Run a pass from `rules` on program `text`; the printed result."""
    rule_set = load_rules_text(textwrap.dedent(rules))
    prog = parse_program(text)
    rule_set.run_pass(prog, pass_name, **params)
    return print_program(prog)


def test_op_alternatives_and_the_same_variable_twice():
    rules = """
    pass p {
      rule double { match { o = (pd_op.add | pd_op.add_)(x, x) }
        rewrite { s = pd_op.scale(x) {scale: 2.0} : type(o)  replace o with s  erase o } }
    }"""
    text = program(data(0), binary(1, "pd_op.add_", 0, 0), binary(2, "pd_op.add", 1, 0),
                   unary(3, "pd_op.relu", 2))
    assert rewrite(rules, text) == program(
        data(0), unary(1, "pd_op.scale", 0, "scale:2"), binary(2, "pd_op.add", 1, 0),
        unary(3, "pd_op.relu", 2))


def test_nested_producer_patterns_and_attribute_binding():
    rules = """
    pass p {
      # scale(scale(x, a), b) -> scale(x, a*b)
      rule fold { match { o = pd_op.scale(pd_op.scale(x) {scale: a}) {scale: b} }
        rewrite { s = pd_op.scale(x) {scale: a * b} : type(o)  replace o with s
                  erase o, producer(operands(o)[0]) } }
    }"""
    text = program(data(0), unary(1, "pd_op.scale", 0, "scale:2"),
                   unary(2, "pd_op.scale", 1, "scale:3"), unary(3, "pd_op.scale", 2, "scale:0.5"),
                   unary(4, "pd_op.relu", 3))
    assert rewrite(rules, text) == program(data(0), unary(1, "pd_op.scale", 0, "scale:3"),
                                           unary(2, "pd_op.relu", 1))


def test_rest_wildcard_and_result_index():
    rules = """
    pass p {
      rule second { match { sp = pd_op.split(x, ..)  u = pd_op.relu(sp#1) {tag: _} }
        rewrite { unset u.tag  set u.second = true } }
      rule first_of_many { match { c = pd_op.concat(_, ..) } where len(operands(c)) > 2 and has(c.mark)
        rewrite { set c.many = len(operands(c))  unset c.mark } }
    }"""
    split = f'(%1, %2) = "pd_op.split" (%0) {{}} : ({T}) -> {T}, {T}'
    text = program(data(0), split, unary(3, "pd_op.relu", 1, "tag:1"),
                   unary(4, "pd_op.relu", 2, "tag:1"),
                   f'(%5) = "pd_op.concat" (%3, %4, %0) {{mark:1}} : ({T}, {T}, {T}) -> {T}')
    assert rewrite(rules, text) == program(
        data(0), split, unary(3, "pd_op.relu", 1, "tag:1"),
        unary(4, "pd_op.relu", 2, "second:true"),
        f'(%5) = "pd_op.concat" (%3, %4, %0) {{many:3}} : ({T}, {T}, {T}) -> {T}')


def test_join_through_an_attribute_value():
    rules = """
    pass p {
      # each grad op takes the chunk of its forward op
      rule grad_chunk { match { f = * {op_id: k, chunk_id: c}  g = * {grad_of: k} }
        where g.chunk_id ?? -1 != c rewrite { set g.chunk_id = c } }
    }"""
    text = program(data(0), unary(1, "pd_op.relu", 0, "chunk_id:1,op_id:7"),
                   unary(2, "pd_op.scale", 1, "chunk_id:0,op_id:8"),
                   unary(3, "pd_op.scale_grad", 2, "grad_of:8"),
                   unary(4, "pd_op.relu_grad", 3, "grad_of:7"))
    assert rewrite(rules, text) == program(
        data(0), unary(1, "pd_op.relu", 0, "chunk_id:1,op_id:7"),
        unary(2, "pd_op.scale", 1, "chunk_id:0,op_id:8"),
        unary(3, "pd_op.scale_grad", 2, "chunk_id:0,grad_of:8"),
        unary(4, "pd_op.relu_grad", 3, "chunk_id:1,grad_of:7"))


def test_unconnected_patterns_pair_every_match():
    rules = """
    pass p {
      rule pair { match { a = pd_op.relu(_)  b = pd_op.tanh(_) } where not has(b.seen)
        rewrite { set b.seen = opname(a) } }
    }"""
    text = program(data(0), unary(1, "pd_op.tanh", 0), unary(2, "pd_op.relu", 0),
                   unary(3, "pd_op.tanh", 0))
    assert rewrite(rules, text) == program(
        data(0), unary(1, "pd_op.tanh", 0, 'seen:"pd_op.relu"'), unary(2, "pd_op.relu", 0),
        unary(3, "pd_op.tanh", 0, 'seen:"pd_op.relu"'))


REGION = [data(0), unary(1, "dist_op.dtensor_to_local", 0), unary(2, "pd_op.scale", 1),
          unary(3, "pd_op.relu", 2), unary(4, "dist_op.dtensor_from_local", 3),
          unary(5, "pd_op.scale", 4)]


def test_region_binds_the_ops_between():
    rules = """
    pass p {
      rule mark { match region t = dist_op.dtensor_to_local(_) .. f = dist_op.dtensor_from_local(_)
                  as body
        where not has(t.size) rewrite { set t.size = len(body)
                                        for o in body where opname(o) == "pd_op.scale" {
                                          set o.inside = true } } }
    }"""
    assert rewrite(rules, program(*REGION)) == program(
        data(0), unary(1, "dist_op.dtensor_to_local", 0, "size:2"),
        unary(2, "pd_op.scale", 1, "inside:true"), *REGION[3:])


def test_inside_matches_only_ops_within_a_region():
    rules = """
    pass p {
      rule mark { match { o = pd_op.scale(..) }
                  inside t = dist_op.dtensor_to_local(_) .. f = dist_op.dtensor_from_local(_)
        where not has(o.inside) rewrite { set o.inside = opname(f) } }
    }"""
    expected = list(REGION)
    expected[2] = unary(2, "pd_op.scale", 1, 'inside:"dist_op.dtensor_from_local"')
    assert rewrite(rules, program(*REGION)) == program(*expected)


def test_value_patterns_match_values_no_op_defines():
    rules = """
    pass p {
      rule keep { match value v where v.persistable ?? false and uses(v) == 0
        rewrite { pd_op.fetch(v) {name: v.name} } }
    }"""
    text = ('{\n    ^kw:\n        %kwarg_w {persistable:true}\n        %kwarg_b {persistable:true}\n'
            f'    (%0) = "pd_op.relu" (%kwarg_b) {{}} : ({T}) -> {T}\n}}\n')
    prog = parse_program(text)
    for value in prog.kwargs:
        value.set_type(prog.ops[0].results[0].type)
    rule_set = load_rules_text(textwrap.dedent(rules))
    rule_set.run_pass(prog, "p")
    out = print_program(prog)
    assert '() = "pd_op.fetch" (%kwarg_w) {name:"w"}' in out
    assert out.count("pd_op.fetch") == 1


def test_ops_in_nested_blocks_are_matched():
    text = (f'{{\n    {data(0)}\n    (%1) = "pd_op.full" () {{value:1}} : () -> tensor<b>\n'
            f'    (%2) = "pd_op.if" (%1) {{}} -> {T} {{\n'
            f'        {unary(3, "pd_op.relu", 0)}\n'
            f'        () = "cf.yield" (%3) {{}} : ({T}) -> \n'
            f'    }} else {{\n'
            f'        {unary(4, "pd_op.relu", 0)}\n'
            f'        () = "cf.yield" (%4) {{}} : ({T}) -> \n    }}\n}}\n')
    rules = "pass p { rule r { match { o = pd_op.relu(_) } where not has(o.k) " \
            "rewrite { set o.k = index(o) } } }"
    out = rewrite(rules, text)
    assert out.count("k:3") == 1 and out.count("k:5") == 1


def test_priority_decides_which_rule_applies_first():
    rules = """
    pass p {
      rule low { match { o = pd_op.relu(_) } where not has(o.by) rewrite { set o.by = "low" } }
      rule high priority 5 { match { o = pd_op.relu(_) } where not has(o.by)
        rewrite { set o.by = "high" } }
    }"""
    assert 'by:"high"' in rewrite(rules, program(data(0), unary(1, "pd_op.relu", 0)))


def evaluate_text(expr: str, text: str, **params):
    """Evaluate `expr` with `o` bound to the last op of program `text`."""
    module = parse_rules(f"pass p {{ rule r {{ match {{ o = * }} where {expr} rewrite {{ }} }} }}")
    where = module.of(PassDecl)[0].rules[0].where
    prog = parse_program(text)
    ops = list(prog.walk())
    return evaluate(where, {"o": ops[-1], "x": ops[0].results[0]}, Context(prog, params))


GROUPED = program(data(0), unary(1, "pd_op.all_reduce_", 0, "ring_id:12"),
                  unary(2, "pd_op.relu", 1, 'chunk_id:2,name:"r",op_role:1'),
                  header="process_group 12 : [3,5]\n")


@pytest.mark.parametrize("expr, value", [
    ("1 + 2 * 3 - 7 // 2 % 2", 6), ("[1, 2] + [3]", [1, 2, 3]), ('"ab" in "cabd"', True),
    ("2 in [1, 2]", True), ("3 not in [1, 2]", True), ("o.missing ?? 4", 4),
    ("o.missing", ABSENT), ("o.missing == 1", False), ("o.missing != 1", True),
    ("o.chunk_id", 2), ("o.name", "r"), ("has(o.name) and not has(o.nope)", True),
    ("role(o)", 1), ("opname(o)", "pd_op.relu"), ("index(o)", 2), ("uses(x)", 1),
    ("uses(o)", 0), ("len(users(x))", 1), ("opname(users(x)[0])", "pd_op.all_reduce_"),
    ("opname(producer(operands(o)[0]))", "pd_op.all_reduce_"), ("len(results(o))", 1),
    ("opname(prev(o))", "pd_op.all_reduce_"), ("next(o)", ABSENT),
    ("group_size(12)", 2), ("group_rank(12, 5)", 1), ("group_rank(12, 4)", ABSENT),
    ("group_size(13) ?? 0", 0), ("type(o).shape", (4,)), ("type(o).dtype", "float32"),
    ("any(u in users(x), opname(u) == \"pd_op.all_reduce_\")", True),
    ("all(v in [1, 2, 3], v > 0)", True), ("first(v in [1, 2, 3], v > 1)", 2),
    ("first(v in [1, 2, 3], v > 5) ?? -1", -1), ("$rank + 1", 4), ("[5, 6][1]", 6),
    ("[5, 6][9]", ABSENT), ("-o.chunk_id", -2), ("max(3, 4) + min([7, 2]) + abs(-1)", 7),
    ("str(o.chunk_id) + \"x\"", "2x"), ("range(3)", [0, 1, 2]),
    ("in_region(o, \"pd_op.data\", \"pd_op.nothing\")", False),
    ("o.dist", ABSENT), ("o.dist.mesh.process_ids", ABSENT),
])
def test_expressions_and_builtin_functions(expr, value):
    result = evaluate_text(expr, GROUPED, rank=3)
    if isinstance(value, tuple):
        assert tuple(result) == value
    else:
        assert result == value if value is not ABSENT else result is ABSENT


def test_dist_attributes_meshes_and_local_types():
    mesh_attr = ("op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],"
                 "process_ids:[0,1],dims_mappings:[0], placements:[Shard(dim=0)]},result(0):{"
                 "mesh_shape:[2],process_ids:[0,1],dims_mappings:[0], placements:[Shard(dim=0)]},"
                 "chunk_id:3}")
    dist = ("pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0], "
            "placements:[Shard(dim=0)]>")
    text = ('{\n    (%0) = "pd_op.data" () {name:"x"} : () -> ' + dist + "\n"
            f'    (%1) = "pd_op.relu" (%0) {{{mesh_attr}}} : ({dist}) -> {dist}\n}}\n')
    assert evaluate_text("o.dist.chunk_id", text) == 3
    assert tuple(evaluate_text("o.dist.mesh.process_ids", text)) == (0, 1)
    assert evaluate_text("1 in o.dist.mesh and 2 not in o.dist.mesh", text) is True
    assert tuple(evaluate_text("o.dist.results[0].dims_mapping", text)) == (0,)
    assert tuple(evaluate_text("local_type(o, 1).shape", text)) == (2,)
    assert tuple(evaluate_text("type(o).local_shape", text, rank=0)) == (2,)
    assert str(evaluate_text("type(o).placements[0]", text)) == "Shard(dim=0)"


def test_replace_leaves_the_replacement_reading_the_old_value():
    # `n = op(v)` then `replace v with n`: v's other readers move to n; n still reads v.
    rules = """
    pass p {
      rule wrap { match { o = pd_op.relu(x) } where not has(o.wrapped)
        rewrite { n = pd_op.assign(o) : type(o)  replace o with n  set o.wrapped = true } }
    }"""
    text = program(data(0), unary(1, "pd_op.relu", 0), unary(2, "pd_op.tanh", 1))
    assert rewrite(rules, text) == program(
        data(0), unary(1, "pd_op.relu", 0, "wrapped:true"), unary(2, "pd_op.assign", 1),
        unary(3, "pd_op.tanh", 2))
