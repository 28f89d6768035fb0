"""rulepass.engine: the IR, the program text parser and printer, the verifier, the rule engine.

``rulepass.engine.function`` registers a Python function that rules may call (see
:mod:`rulepass.engine.rw_functions`).
"""

from .rw_functions import function  # noqa: F401
