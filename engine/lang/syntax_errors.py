"""Labelled examples of the common mistakes in `.rw` files, for lark's `match_examples`.

Each label is the message a user sees; each example is a small file that fails in the same parser
state as the mistake it names. `describe_expected` turns lark's terminal names into the words a user
typed (`'{'`, `rewrite`, a name).
"""

from __future__ import annotations

from rulepass.engine.errors import describe_expected as _describe_expected

RULE_HEAD = "pass p {\n rule r {\n"

EXAMPLES: dict[str, list[str]] = {
    "a '}' is missing: every `pass`, `rule`, `match` and `rewrite` block must be closed": [
        "pass p {",
        "pass p { rule r { match { o = a.b(x) } rewrite { erase o } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { erase o }",
        "pass p { rule r { match { o = a.b(x) } rewrite { erase o",
        "pass p { rule r { match { o = a.b(x) } rewrite {",
        "pass p { rule r { match { o = a.b(x) }",
        "pass p { rule r { match { o = a.b(x)",
        "pass p { rule r { match { o = a.b(x) } where f(o)",
        "pass p { rule r { match { o = a.b(x) } where o.k",
        "pass p { rule r { match { o = a.b(x) } where 1",
    ],
    "a rule needs `rewrite { ... }` after its `match` (and `where`) clause": [
        RULE_HEAD + "match { o = a.b(x) } }",
        RULE_HEAD + "match { o = a.b(x) } where f(o) }",
        RULE_HEAD + "match { o = a.b(x) } where o.k }",
        RULE_HEAD + "match { o = a.b(x) } where x }",
        RULE_HEAD + "match { o = a.b(x) } where 1 }",
        RULE_HEAD + "match { o = a.b(x) } where true }",
        RULE_HEAD + "match { o = a.b(x) } where \"s\" }",
        RULE_HEAD + "match { o = a.b(x) } where $p }",
        RULE_HEAD + "match { o = a.b(x) } where xs[0] }",
        RULE_HEAD + "match { o = a.b(x) } where [1] }",
        RULE_HEAD + "match { o = a.b(x) } where (x) }",
        RULE_HEAD + "match { o = a.b(x) } where s#1 }",
        RULE_HEAD + "match region t = a.b .. f = a.c as body }",
        RULE_HEAD + "match value v }",
        RULE_HEAD + "match { o = a.b(x) } { erase o } }",
        RULE_HEAD + "match { o = a.b(x) } erase o }",
    ],
    "a rule starts with `match { ... }`, `match region ...` or `match value ...`": [
        RULE_HEAD + "where x rewrite { } }",
        RULE_HEAD + "rewrite { } }",
        RULE_HEAD + "o = a.b(x) }",
        RULE_HEAD + "}",
    ],
    "param types are int, float, bool and str (`pass p(rank: int, name: str = \"x\")`)": [
        "pass p(rank: integer) {}",
        "pass p(rank: 1) {}",
        "pass p(rank: \"int\") {}",
        "pass p(rank) {}",
    ],
    "an op pattern is `name = dialect.op(operands) {attributes}`; a bare name here needs ` = `": [
        "pass p { rule r { match { o a.b(x) } rewrite { } } }",
        "pass p { rule r { match { o } rewrite { } } }",
    ],
    "op names have a dialect: `dialect.op` (such as `pd_op.add`), `*` or `(pd_op.add | pd_op.add_)`": [
        "pass p { rule r { match { o = add(x) } rewrite { } } }",
        "pass p { rule r { match { o = add } rewrite { } } }",
        "pass p { rule r { match { o = add {k: 1} } rewrite { } } }",
        "pass p { rule r { match { o = a.b } rewrite { v = add(x) } } }",
    ],
    "operands are separated by ',' (`pd_op.add(x, y)`)": [
        "pass p { rule r { match { o = a.b(x y) } rewrite { } } }",
        "pass p { rule r { match { o = a.b(_ y) } rewrite { } } }",
        "pass p { rule r { match { o = a.b(s#1 y) } rewrite { } } }",
    ],
    "attributes are written `{key: value}` with ':' (not '=')": [
        "pass p { rule r { match { o = a.b(x) {k = 1} } rewrite { } } }",
        "pass p { rule r { match { o = a.b(x) {k} } rewrite { } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { v = a.c(x) {k = 1} } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { v = a.c(x) {k} } } }",
    ],
    "only `pass`, `pipeline`, `include` and `test` may appear at the top level of a file; "
    "rules live inside `pass name { ... }`": [
        "rule r { }",
        "match { }",
        "foo",
        "pass p { } }",
        "pipeline q = a b",
    ],
    "inside a pass only `rule name { ... }` may appear": [
        "pass p { match { } }",
        "pass p { r { } }",
        "pass p { pass q { } }",
    ],
    "a rewrite action is one of: `v = dialect.op(...)`, `replace a with b`, `erase a, b`, "
    "`set o.key = e`, `unset o.key`, `retype v : t`, `for x in xs { ... }`, `fail \"...\"`": [
        "pass p { rule r { match { o = a.b(x) } rewrite { delete o } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { o.k = 1 } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { 1 } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { erase o o } } }",
    ],
    "`replace` needs `with`: `replace a with b`": [
        "pass p { rule r { match { o = a.b(x) } rewrite { replace o x } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { replace o.k x } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { replace o, x } } }",
    ],
    "`set`/`unset` take a field of a bound op: `set o.key = expr`, `set o.dist.chunk_id = expr`": [
        "pass p { rule r { match { o = a.b(x) } rewrite { set o = 1 } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { unset o } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { set o.k 1 } } }",
        "pass p { rule r { match { o = a.b(x) } rewrite { set o.k == 1 } } }",
    ],
    "`priority` takes an integer: `rule name priority 2 { ... }`": [
        "pass p { rule r priority high { } }",
        "pass p { rule r priority { } }",
        "pass p { rule r priority 1.5 { } }",
    ],
    "a test is `test name { run pass(args) input \"\"\"...\"\"\" expect ... }`; expect takes "
    "`\"\"\"program\"\"\"`, `contains \"\"\"lines\"\"\"`, `unchanged` or `error \"text\"`": [
        "test t { run p input \"x\" }",
        "test t { run p input \"x\" expect }",
        "test t { run p input \"x\" expect nothing }",
        "test t { run p expect unchanged }",
        "test t { input \"x\" expect unchanged }",
        "test t { run p input x expect unchanged }",
        "test t { run p(1) input \"x\" expect unchanged }",
    ],
    "`match region` is `match region t = A(..) .. f = B(..) as body`": [
        "pass p { rule r { match region t = a.b(_) .. f = a.c(_) rewrite { } } }",
        "pass p { rule r { match region t = a.b(_) f = a.c(_) as body rewrite { } } }",
        "pass p { rule r { match region t = a.b(_) .. f = a.c(_) as rewrite { } } }",
    ],
    "a pipeline is `pipeline name = pass, pass(param: value), ...`": [
        "pipeline q a, b",
        "pipeline q = ",
        "pipeline q = a(1)",
        "pipeline q = a(k = 1)",
        "pipeline q = a,",
    ],
    "`include` takes a quoted path: `include \"other.rw\"`": [
        "include other.rw",
        "include other",
    ],
}

# How lark's terminal names read to a user.
FRIENDLY = {
    "NAME": "a name",
    "INT": "an integer",
    "FLOAT": "a number",
    "STRING": "a string",
    "LONG_STRING": "a \"\"\"text block\"\"\"",
    "RESULT_REF": "a result such as `sp#1`",
    "PARAM_REF": "a param such as `$rank`",
    "PARAM_TYPE": "a param type (int, float, bool, str)",
    "COMPARE_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "$END": "the end of the file",
    "SWEEP": "`sweep`",
    "REVERSE": "`reverse`",
    "MINUS": "'-'",
}


def describe_expected(names, parser) -> str:
    """A readable list of what `parser` (the rule grammar's lark parser, `lang.parse.rule_parser()`)
    would have accepted, such as "'}' or `rule`"."""
    return _describe_expected(names, parser, FRIENDLY, keyword_quotes="`")
