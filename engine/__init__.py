"""rulepass.engine: the IR, the program text parser and printer, the verifier, the rule engine.

Packages (imports point one way: errors -> ir -> pir -> lang -> rewrite -> api -> paddle; see
docs/architecture.md): `ir/` (IR, types, attributes, builder), `pir/` (program text parsers,
printer, verifier), `lang/` (rule language: AST, parser, checks, lint), `rewrite/` (expressions,
function registry, compiled rules, index, matcher, actions, driver, trace, `codegen/`), `api.py`
(rule sets), `rule_tests.py` (the `test` blocks of rule files), `paddle/` (what only Paddle's
passes need: grad definitions, backward, optimizer, partition, SPMD duals, Paddle functions).

``rulepass.engine.function`` registers a Python function that rules may call (see
:mod:`rulepass.engine.rewrite.functions`).

The flat module names of rulepass 0.1 (`rulepass.engine.pir_parse`, `rulepass.engine.exprs`, ...)
keep working: `LEGACY_MODULES` maps each to its module in the packages, and `LegacyFinder`
(a `sys.meta_path` finder) imports the new module under the old name, so both names are the
same module object (attributes, monkeypatching and `isinstance` agree). `rulepass.engine.ir`, the
old IR module, is now the package `ir/`, which re-exports the IR classes of `ir/core.py`.
"""

import importlib
import importlib.abc
import importlib.util
import sys

from rulepass.engine.rewrite.functions import function  # noqa: F401

#: old flat module name (under rulepass.engine) -> its module today.
LEGACY_MODULES = {
    "types": "ir.types", "attributes": "ir.attributes", "builder": "ir.builder",
    "verify": "pir.verify", "pir_parse": "pir.parse", "pir_lark": "pir.lark_parser",
    "printer": "pir.printer", "pir_syntax_errors": "pir.syntax_errors",
    "rw_ast": "lang.nodes", "rw_parse": "lang.parse", "rw_check": "lang.check", "rw_lint": "lang.lint",
    "rw_syntax_errors": "lang.syntax_errors", "rw_tests": "rule_tests",
    "exprs": "rewrite.exprs", "rw_functions": "rewrite.functions", "rw_compile": "rewrite.compiled",
    "rw_index": "rewrite.index", "match": "rewrite.match", "match_plan": "rewrite.plan",
    "actions": "rewrite.actions", "driver": "rewrite.driver", "rw_trace": "rewrite.trace",
    "expr_compile": "rewrite.codegen.exprs", "match_compile": "rewrite.codegen.match",
    "actions_compile": "rewrite.codegen.actions",
    "rw_grad": "paddle.grad", "backward": "paddle.backward", "optimizer": "paddle.optimizer",
    "partition": "paddle.partition", "spmd": "paddle.spmd", "functions_paddle": "paddle.functions",
    "functions_dist": "paddle.functions_dist", "functions_reshard": "paddle.functions_reshard",
}


class LegacyFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `rulepass.engine.<old name>` for every key of `LEGACY_MODULES`; loading it imports
    the new module and returns that very module object (nothing is executed twice)."""

    PREFIX = __name__ + "."

    def find_spec(self, fullname, path=None, target=None):
        """A spec for a legacy name, None for every other name (other finders handle those)."""
        if fullname.startswith(self.PREFIX) and fullname[len(self.PREFIX):] in LEGACY_MODULES:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        """The new module itself; the import system then stores it under the old name too."""
        return importlib.import_module(self.PREFIX + LEGACY_MODULES[spec.name[len(self.PREFIX):]])

    def exec_module(self, module):
        """Nothing to run: the new module was executed when it was imported."""


if not any(isinstance(finder, LegacyFinder) for finder in sys.meta_path):
    sys.meta_path.append(LegacyFinder())
