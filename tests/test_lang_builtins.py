"""One table of built-in functions (`lang/builtins.BUILTINS`): arity, doc and implementation,
read by the checker, the evaluator and the codegen alike."""

from __future__ import annotations

import inspect

import pytest

from rulepass.engine.lang.builtins import BUILTINS, Builtin, implement
import rulepass.engine.rewrite.exprs  # noqa: F401  (registers the implementations)
from rulepass.engine.rewrite.functions import arity, function


def test_every_builtin_has_a_doc_and_an_implementation_taking_its_arity():
    for name, builtin in BUILTINS.items():
        assert builtin.name == name and builtin.doc
        if builtin.special:
            assert builtin.impl is None
            continue
        params = list(inspect.signature(builtin.impl).parameters.values())[2:]  # ctx, span
        if any(p.kind == p.VAR_POSITIONAL for p in params):
            continue
        required = sum(p.default is p.empty for p in params)
        assert (required, len(params)) == builtin.arity, name


def test_the_checker_reads_the_table():
    for name, builtin in BUILTINS.items():
        assert arity(name) == (builtin.least, builtin.most)
    assert arity("no_such_function") is None


def test_implement_refuses_unknown_special_and_second_implementations():
    with pytest.raises(KeyError):
        implement("no_such_builtin", lambda ctx, span, x: x)
    with pytest.raises(ValueError, match="special form"):
        implement("has", lambda ctx, span, x: x)
    with pytest.raises(ValueError, match="already implemented"):
        implement("len", lambda ctx, span, x: 0)
    # the same function again is accepted (a module imported twice)
    implement("len", BUILTINS["len"].impl)


def test_a_registered_function_cannot_take_a_builtin_name():
    with pytest.raises(ValueError, match="built-in"):
        function("len")(lambda program, x: 0)


def test_walk_and_compiled_call_the_same_implementation(monkeypatch):
    """Replacing a table entry's implementation changes what both evaluators compute."""
    from rulepass.engine.api import load_rules_text
    from rulepass.engine.pir.parse import parse_program
    from rulepass.engine.pir.printer import print_program

    calls = []
    original = BUILTINS["abs"].impl

    def counted(ctx, span, x):
        calls.append(x)
        return original(ctx, span, x)

    monkeypatch.setattr(BUILTINS["abs"], "impl", counted)
    rules = load_rules_text("pass p sweep { rule r { match { o = pd_op.relu(x) } "
                            "rewrite { set o.tag = abs(0 - 3) } } }\n", "p.rw")
    source = ("{\n    (%0) = \"pd_op.data\" () {name:\"x\",shape:[4]} : () -> tensor<4xf32>\n"
              "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>\n}\n")
    for compiled in (True, False):
        calls.clear()
        program = parse_program(source)
        rules.with_compiled(compiled).run_pass(program, "p")
        assert calls == [-3], compiled
        assert "tag:3" in print_program(program)


def test_builtin_repr_names_it():
    assert "len" in repr(Builtin("len", 1, 1, "length"))
