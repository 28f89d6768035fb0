"""Random rule sets on random programs (rulepass.testing): the engine raises only its own errors,
a failed pass leaves the program exactly as it was, a successful one verifies, and a fixpoint
pass run again changes nothing."""

from hypothesis import HealthCheck, given, settings

from rulepass.engine.api import load_rules_text
from rulepass.engine.errors import RulepassError
from rulepass.engine.pir.printer import print_program
from rulepass.engine.pir.verify import verify
from rulepass.testing import programs, rule_sets


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(max_ops=10, regions=False), text=rule_sets())
def test_random_passes_succeed_cleanly_or_fail_cleanly(program, text):
    rules = load_rules_text(text, "random.rw")
    before = print_program(program)
    try:
        rules.run_pass(program, "random_pass")
    except RulepassError:
        assert print_program(program) == before
        return
    verify(program)
    if " sweep" not in text.splitlines()[0]:
        after = print_program(program)
        rules.run_pass(program, "random_pass")
        assert print_program(program) == after


def test_a_pass_that_erases_the_last_op_ends_cleanly():
    # Found by the property test: the round confirming the fixpoint was empty and the driver
    # popped from an empty worklist.
    from rulepass.engine.pir.parse import parse_program

    program = parse_program("{\n    ^kw:\n        %kwarg_x {persistable:true}\n"
                            '    (%0) = "pd_op.relu" (%kwarg_x) {} : (tensor<4xf32>) -> '
                            "tensor<4xf32>\n}\n")
    rules = load_rules_text("pass p { rule r { match { o = pd_op.relu(x) } "
                            "rewrite { replace o with x  erase o } } }\n", "p.rw")
    result = rules.run_pass(program, "p")
    assert len(result.trace) == 1 and program.num_ops() == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(max_ops=10, regions=False), text=rule_sets())
def test_dispatch_functions_do_what_the_matching_loop_does(program, text):
    """Each op name's generated dispatch function (codegen/dispatch.py) against the matcher's
    loop (run when per-rule time is asked for): the same program, trace, errors and counts."""
    rules = load_rules_text(text, "random.rw")
    outcomes = []
    for timing in (False, True):
        copy = program.clone()
        try:
            result = rules.run_pass(copy, "random_pass", timing=timing)
        except RulepassError as error:
            outcomes.append(("error", str(error), print_program(copy)))
            continue
        counts = sorted((key, r.tried, r.matched, r.applied)
                        for key, r in result.stats.rules.items())
        outcomes.append((print_program(copy), [a.json() for a in result.trace], counts))
    assert outcomes[0] == outcomes[1]
