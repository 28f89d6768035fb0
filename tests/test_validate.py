"""Translation validation (issue 15): every shipped pass, run on the simulated ranks with random
inputs, computes what the program computed before it (rulepass.validate)."""

from pathlib import Path

import pytest

from rulepass.example import load_example
from rulepass.testing import assert_pass_preserves
from rulepass.validate import random_example, validate_passes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
WRONG = str(ROOT / "tests" / "data" / "selfcheck" / "wrong_pass.rw")

# Each shipped pass on an example where it rewrites something; one after-world per example.
# (drop_trivial_comm rewrites nothing in the examples: no collective there runs on one rank;
# its .rw tests cover it. dist_to_global is the reference itself: test_run compares it with
# Paddle's losses.)
PASSES = {
    "mp2": ["partition", "lower_reshard", "dist_to_dense"],
    "mp2_sp": ["sp_fusion"],
    "pp2_fthenb": ["lower_pipeline_reshard", "prune_other_ranks"],
    "pp2_vpp2_localmap": ["complete_chunk_id", "grad_chunk", "check_chunk_id"],
}


@pytest.mark.parametrize("name", sorted(PASSES))
def test_shipped_passes_preserve_the_program_on_random_inputs(name):
    for v in validate_passes(load_example(EXAMPLES / name), PASSES[name], seed=3):
        assert v.applied > 0, v.message()
        assert v.ok, v.message()


def test_a_wrong_user_pass_fails_validation_naming_it():
    with pytest.raises(AssertionError, match="loose_epsilon on mp2_sp .*changes what the "
                                             "program computes.*rank 1.*pd_op.layer_norm"):
        assert_pass_preserves(EXAMPLES / "mp2_sp", "loose_epsilon", rules=(WRONG,),
                              extra=(("loose_epsilon", "dist_to_dense"),))


def test_the_helper_refuses_a_pass_that_never_applied():
    with pytest.raises(AssertionError, match="applied 0 times"):
        assert_pass_preserves(EXAMPLES / "mp2", "sp_fusion")


def test_random_inputs_keep_shapes_and_drop_paddle_results():
    example = load_example(EXAMPLES / "mp2")
    drawn = random_example(example, 1)
    assert drawn.reference_losses is None and drawn.final_params == {}
    for name, array in example.params.items():
        assert drawn.params[name].shape == array.shape and drawn.params[name].dtype == array.dtype
        assert not (drawn.params[name] == array).all()
    assert random_example(example, 1).params.keys() == drawn.params.keys()


def test_the_test_helpers_import_without_hypothesis():
    # breaker item 23: `import rulepass.testing` raised ModuleNotFoundError without the test extra
    import subprocess
    import sys

    code = ("import sys; sys.modules['hypothesis'] = None\n"
            "import rulepass.testing as t\n"
            "assert callable(t.assert_pass_preserves)\n"
            "try:\n    t.programs\nexcept ImportError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "hypothesis is not installed: pip install 'rulepass[test]'" in r.stdout
    from rulepass.testing import programs, rule_sets  # with hypothesis: the strategies

    assert programs is not None and rule_sets is not None
