"""The IR (programs, blocks, ops, values: `core.py`), its types and attributes, and a builder
(errors -> ir).

The IR classes are re-exported here because `rulepass.engine.ir` was the module of the IR in
rulepass 0.1 (`from rulepass.engine.ir import Program` keeps working); modules inside the engine
import `rulepass.engine.ir.core` directly, never this package.
"""

from rulepass.engine.ir.core import Block, Operation, Program, Use, Value, make_kwarg  # noqa: F401
