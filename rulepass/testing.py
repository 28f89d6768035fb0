"""Test helpers for rule authors: :func:`assert_pass_preserves` (translation validation of a pass
on an example), and the hypothesis strategies of :mod:`rulepass.strategies` — random well-formed
programs (:func:`programs`), meshes, dist attributes, types, attribute values, random rule sets —
re-exported under the same names.

The strategies need hypothesis (the ``test`` extra); this module does not: it imports
:mod:`rulepass.strategies` only when one of its names is asked for, and then says how to install
hypothesis if it is missing (issue 18: ``import rulepass.testing`` raised ModuleNotFoundError
without it). Example::

    from hypothesis import given
    from rulepass.testing import programs
    from rulepass.engine.pir.printer import print_program
    from rulepass.engine.pir.parse import parse_program

    @given(programs(max_ops=10, dist=True))
    def test_round_trip(program):
        text = print_program(program)
        assert print_program(parse_program(text)) == text
"""

from __future__ import annotations

#: The names of :mod:`rulepass.strategies` this module re-exports.
STRATEGIES = ("DTYPES", "OP_REGISTRY", "OpBuilder", "RULE_OPS", "Scope", "attribute_values",
              "dist_attrs", "meshes", "op_dist_attrs", "programs", "rule_sets", "shapes", "types")

__all__ = ["assert_pass_preserves", *STRATEGIES]


def __getattr__(name: str):
    """A strategy of :mod:`rulepass.strategies`, imported on first use.

    Raises:
        ImportError: hypothesis is not installed (naming the extra that installs it).
        AttributeError: no such name.
    """
    if name not in STRATEGIES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        import rulepass.strategies as strategies
    except ModuleNotFoundError as e:
        if e.name != "hypothesis":
            raise
        raise ImportError(f"rulepass.testing.{name} is a hypothesis strategy and hypothesis is "
                          "not installed: pip install 'rulepass[test]' (assert_pass_preserves "
                          "needs no hypothesis)") from None
    return getattr(strategies, name)


def __dir__():
    return sorted(__all__)


def assert_pass_preserves(example, pass_name: str, *, seeds=(0,), min_applied: int = 1,
                          **options) -> list:
    """Test helper: translation validation (:mod:`rulepass.validate`) of ``pass_name`` on
    ``example`` (an Example or its folder) with random inputs from each of ``seeds``. Raises
    AssertionError with the validation's one-line message when the pass changes what the
    program computes, or when it applied fewer than ``min_applied`` times (a validation of a
    pass that never ran would prove nothing). ``options`` as for ``validate_passes`` (``rules``,
    ``extra`` for a user pass, ``steps``). Returns the validations."""
    from rulepass.example import Example, load_example
    from rulepass.validate import validate_pass

    loaded = example if isinstance(example, Example) else load_example(example)
    found = []
    for seed in seeds:
        v = validate_pass(loaded, pass_name, seed=seed, **options)
        if v.applied < min_applied:
            raise AssertionError(f"{pass_name} applied {v.applied} times on {v.example}; the "
                                 "validation would prove nothing (pick a program it rewrites)")
        if not v.ok:
            raise AssertionError(v.message())
        found.append(v)
    return found
