"""A bad type text in a rule's `: type` names the rule's .rw line (issue 18: it said
`<input>:1:10`), in the compiled and the walked rule sets alike."""

import pytest

from rulepass.engine.api import load_rules_text
from rulepass.engine.errors import RewriteError
from rulepass.engine.pir.parse import parse_program

RULES = """pass t {
  rule r {
    match { o = pd_op.relu(x) }
    rewrite {
      y = pd_op.abs(x) : "tensor<4xfoo>"
      replace o with y
      erase o
    }
  }
}
"""

PROGRAM = """{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
"""


@pytest.mark.parametrize("compiled", [True, False])
def test_bad_type_text_names_the_rule_line(compiled):
    rules = load_rules_text(RULES, "t.rw", compiled=compiled)
    program = parse_program(PROGRAM)
    with pytest.raises(RewriteError) as info:
        rules.run_pass(program, "t")
    text = str(info.value)
    assert info.value.where.startswith("t.rw:5")
    assert "unknown element type 'foo'" in text and "<input>" not in text
