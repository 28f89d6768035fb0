"""rulepass: declarative compiler passes for distributed training programs (Paddle PIR).

The installed package maps ``rulepass.engine``, ``rulepass.runtime``, ``rulepass.grammar`` and
``rulepass.rules`` onto the top-level folders ``engine/``, ``runtime/``, ``grammar/`` and
``rules/`` of the source tree.
"""

import os as _os

# In a source checkout (running from the repository root without installing) the subpackages are
# siblings of this folder, not children: let the import system find them there.
_here = _os.path.dirname(_os.path.abspath(__file__))
_root = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "engine")) and _os.path.isfile(
    _os.path.join(_root, "engine", "__init__.py")
):
    __path__.append(_root)  # noqa: F821 - __path__ is defined for packages

__version__ = "0.1.0"

from rulepass.engine.api import RuleSet, RunResult, load_rules, load_rules_text  # noqa: E402
from rulepass.engine.errors import (  # noqa: E402
    ParseError,
    RewriteError,
    RuleCompileError,
    RuleSyntaxError,
    RulepassError,
    RuntimeFailure,
    VerifyError,
)
from rulepass.engine.ir.core import Block, Operation, Program, Value  # noqa: E402
from rulepass.engine.pir.parse import parse_program  # noqa: E402
from rulepass.engine.pir.printer import print_program  # noqa: E402
from rulepass.engine.rewrite.functions import function  # noqa: E402
from rulepass.engine.pir.verify import verify  # noqa: E402

__all__ = [
    "Block", "Operation", "ParseError", "Program", "RewriteError", "RuleCompileError",
    "RuleSet", "RuleSyntaxError", "RulepassError", "RunResult", "RuntimeFailure", "Value",
    "VerifyError", "function", "load_rules", "load_rules_text", "parse_program",
    "print_program", "verify",
]
