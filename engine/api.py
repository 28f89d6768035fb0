"""The rule engine's entry points: load rule files, run passes and pipelines, explain a rule.

    rules = load_rules(["rules/"])
    result = rules.run_pass(program, "sp_fusion", rank=1)       # changes program in place
    result = rules.run_pipeline(program, "paddle", rank=0)
    print(rules.explain(program, "allreduce_split_slice", 7, rank=1))

A run returns `RunResult(program, trace, stats)`; a failure raises a `RulepassError` subclass and
leaves the program exactly as it was.
"""

from __future__ import annotations

import importlib
import importlib.resources
import re
from pathlib import Path

import rulepass.engine.lang.nodes as A
from rulepass.engine.rewrite.driver import Driver, run_pass
from rulepass.engine.errors import RuleCompileError, RulepassError
from rulepass.engine.ir.core import Program
from rulepass.engine.lang.check import check_value_type
from rulepass.engine.rewrite.compiled import CompiledPass, Sources, build_rule_set, constant, load_modules
from rulepass.engine.rewrite.functions import check_params
from rulepass.engine.rewrite.trace import PassStats, applications


class RunResult:
    """The outcome of a pass or pipeline: the program (changed in place), the applications in
    order (`trace`, a tuple of `Application`s), and per-rule statistics (`stats`).

    `trace` is given as a tuple, or as the drivers that ran (their records are taken, and made
    into `Application`s when `trace` is first read, so a caller that never reads it pays
    nothing for it); `applied` counts the applications per rule without reading it (and also
    when the passes recorded no trace)."""

    __slots__ = ("program", "stats", "_trace", "_records", "_counts")

    def __init__(self, program: Program, trace, stats: PassStats):
        self.program = program
        self.stats = stats
        counts: dict = {}
        if isinstance(trace, tuple):
            self._trace, self._records = trace, None
            for application in trace:
                counts[application.rule] = counts.get(application.rule, 0) + 1
        else:  # (pass name, entries, erased ops) of each driver: not the drivers
            self._trace = None
            self._records = [(driver.pass_name, driver.applications, driver.erased)
                             for driver in trace]
            for driver in trace:
                for rule, count in driver.counts.items():
                    counts[rule] = counts.get(rule, 0) + count
        self._counts = counts

    @property
    def trace(self) -> tuple:
        """The applications in order."""
        if self._trace is None:
            self._trace = tuple(a for name, entries, erased in self._records
                                for a in applications(name, entries, erased))
            self._records = None
        return self._trace

    @property
    def applied(self) -> dict:
        """Rule name -> applications, in the order rules first applied."""
        return dict(self._counts)

    def __repr__(self) -> str:
        return f"RunResult({sum(self._counts.values())} applications)"


#: Modules registering the Python functions the installed rules call (`rw_functions.function`);
#: imported before any rule file is loaded, since unknown functions are load-time errors.
FUNCTION_MODULES = ("rulepass.engine.paddle.functions", "rulepass.engine.paddle.functions_dist",
                    "rulepass.engine.paddle.param_checks",
                    "rulepass.engine.paddle.functions_reshard",
                    "rulepass.engine.paddle.functions_global",
                    "rulepass.engine.paddle.vpp_global",
                    "rulepass.engine.paddle.functions_parallelize")


def import_function_modules() -> None:
    """Import the modules of `FUNCTION_MODULES` (once; Python caches imports)."""
    for name in FUNCTION_MODULES:
        importlib.import_module(name)


def installed_rules() -> Path:
    """The folder of the installed `rules/` (the package `rulepass.rules`)."""
    return Path(str(importlib.resources.files("rulepass.rules")))


def convert_param(text: str, type_name: str):
    """A command-line param value (`-p rank=1`) converted to the declared type.

    Raises RuleCompileError naming the type when it does not convert."""
    try:
        if type_name == "int":
            return int(text)
        if type_name == "float":
            return float(text)
        if type_name == "bool":
            lowered = text.lower()
            if lowered in ("true", "1", "yes"):
                return True
            if lowered in ("false", "0", "no"):
                return False
            raise ValueError(text)
        return text
    except ValueError:
        raise RuleCompileError(f"param value {text!r} is not {'a' if type_name != 'int' else 'an'}"
                               f" {type_name}") from None


class RuleSet:
    """Loaded and checked rule files: passes, pipelines and test blocks by name."""

    def __init__(self, passes: dict, pipelines: dict, tests: list, sources: Sources,
                 compiled: bool = True, defs=None):
        #: generated Python for matching and rewriting (False: the reference tree walks)
        self.compiled = compiled
        #: the loaded files' `def`s (`lang.defs.Defs`; None when made without them)
        self.defs = defs
        self.passes: dict[str, CompiledPass] = passes
        self.pipelines: dict[str, A.PipelineDecl] = pipelines
        self.tests: list[A.TestDecl] = tests
        self.sources = sources

    def with_compiled(self, compiled: bool) -> RuleSet:
        """The same passes, pipelines and tests run compiled or walked (shared, not copied):
        how tests compare the generated code with the tree walks it must agree with."""
        return RuleSet(self.passes, self.pipelines, self.tests, self.sources, compiled,
                       self.defs)

    # ---- params -------------------------------------------------------------------------------
    def resolve_params(self, cpass: CompiledPass, given: dict, strings: bool = False) -> dict:
        """The pass's params: `given` checked against the declarations, defaults filled in.

        With `strings`, values are text to convert (the CLI's `-p`). Raises RuleCompileError for
        an unknown, missing or mistyped param, before anything is rewritten."""
        declared = cpass.params
        decl = cpass.decl
        for name in given:
            if name not in declared:
                raise self.sources.error(decl.span, f"pass {cpass.name!r} has no param {name!r} "
                                         f"(params: {', '.join(declared) or 'none'})")
        params = {}
        for name, param in declared.items():
            if name in given:
                value = given[name]
                if strings and isinstance(value, str):
                    value = convert_param(value, param.type)
                check_value_type(param.type, value, decl.span, self.sources)
                if param.type == "float":
                    value = float(value)
                params[name] = value
            elif param.default is not None:
                params[name] = constant(param.default, self.sources)
            else:
                raise self.sources.error(param.span, f"pass {cpass.name!r} needs param "
                                         f"{name!r} ({param.type}); give it as {name}=...")
        return params

    def find_pass(self, name: str) -> CompiledPass:
        """The pass `name`; RuleCompileError listing the known ones."""
        cpass = self.passes.get(name)
        if cpass is None:
            known = ", ".join(sorted(self.passes)) or "none"
            raise RuleCompileError(f"unknown pass {name!r} (passes: {known})")
        return cpass

    # ---- running ------------------------------------------------------------------------------
    def run_pass(self, program: Program, name: str, *, trace_positions: bool = False,
                 param_strings: bool = False, timing: bool = False,
                 provenance: dict | None = None, trace: bool = True, **params) -> RunResult:
        """Run pass `name` on `program` (in place). Raises RulepassError; on error the program
        is unchanged. `trace_positions`: the trace holds the ops' positions (else -1);
        `timing`: the stats hold each rule's matching time (else 0); `provenance`: a dict
        receiving op -> (pass, rule, file, line) of the latest application that matched or
        created the op (see `driver.run_pass`); `trace`: False records no trace (the result's
        `trace` is empty; `applied` still counts)."""
        cpass = self.find_pass(name)
        resolved = self.resolve_params(cpass, params, param_strings)
        check_params(program, cpass.name, resolved)
        driver = run_pass(program, cpass, resolved, trace_positions, self.compiled, timing,
                          provenance, trace)
        return RunResult(program, [driver], driver.stats)

    def pipeline_steps(self, name: str, params: dict, strings: bool = False) -> list:
        """(pass, params) for each pass a pipeline runs, nested pipelines expanded. Pipeline
        params reach every pass declaring them; an entry's own arguments take precedence."""
        pipeline = self.pipelines.get(name)
        if pipeline is None:
            known = ", ".join(sorted(self.pipelines)) or "none"
            raise RuleCompileError(f"unknown pipeline {name!r} (pipelines: {known})")
        steps = []
        used: set[str] = set()
        stack = [(entry, {}) for entry in reversed(pipeline.entries)]
        while stack:
            entry, inherited = stack.pop()
            own = {arg.name: constant(arg.value, self.sources) for arg in entry.args}
            if entry.name in self.pipelines:
                merged = {**inherited, **own}
                stack.extend((e, merged) for e in reversed(self.pipelines[entry.name].entries))
                continue
            cpass = self.find_pass(entry.name)
            chosen = {k: v for k, v in params.items() if k in cpass.params}
            used.update(chosen)
            chosen.update({k: v for k, v in inherited.items() if k in cpass.params})
            chosen.update(own)
            steps.append((cpass, self.resolve_params(cpass, chosen, strings)))
        unused = set(params) - used
        if unused:
            raise RuleCompileError(f"no pass of pipeline {name!r} declares param(s) "
                                   f"{', '.join(sorted(unused))}")
        return steps

    def check_steps(self, program: Program, steps: list) -> None:
        """The registered param checks (`functions.param_check`) of every (pass, params) of
        ``steps`` on ``program`` as it is before the first runs (a rank the program's meshes do
        not hold, a degree below 1). Raises RewriteError naming the pass and the param."""
        for cpass, resolved in steps:
            check_params(program, cpass.name, resolved)

    def run_pipeline(self, program: Program, name: str, *, trace_positions: bool = False,
                     param_strings: bool = False, timing: bool = False,
                     **params) -> RunResult:
        """Run pipeline `name` on `program` (in place); all params are checked before the first
        pass runs, and if any pass fails the program is left as it was before the pipeline."""
        steps = self.pipeline_steps(name, params, param_strings)
        self.check_steps(program, steps)
        drivers: list = []
        stats = PassStats()
        with program.transaction():
            for cpass, resolved in steps:
                driver = run_pass(program, cpass, resolved, trace_positions, self.compiled,
                                  timing)
                drivers.append(driver)
                stats.merge(driver.stats)
        return RunResult(program, drivers, stats)

    def run(self, program: Program, name: str, **kwargs) -> RunResult:
        """Run a pass or a pipeline, whichever `name` is."""
        if name in self.pipelines:
            return self.run_pipeline(program, name, **kwargs)
        return self.run_pass(program, name, **kwargs)

    # ---- explain ------------------------------------------------------------------------------
    def find_rule(self, rule_name: str, pass_name: str | None = None):
        """(pass, rule) for a rule name, optionally within one pass ("pass.rule" also works)."""
        if pass_name is None and "." in rule_name:
            pass_name, rule_name = rule_name.split(".", 1)
        found = [(p, r) for p in self.passes.values() if pass_name in (None, p.name)
                 for r in p.rules if r.name == rule_name]
        if not found:
            raise RuleCompileError(f"unknown rule {rule_name!r}"
                                   + (f" in pass {pass_name!r}" if pass_name else ""))
        if len(found) > 1:
            raise RuleCompileError(f"rule {rule_name!r} is in several passes ("
                                   + ", ".join(p.name for p, _ in found)
                                   + "); write PASS.RULE")
        return found[0]

    def explain(self, program: Program, rule_name: str, position: int,
                pass_name: str | None = None, param_strings: bool = False, **params) -> str:
        """Which constraint of the rule first failed at the op at `position` (0-based, printed
        order, nested ops counted), or that it matches. Does not change the program."""
        cpass, rule = self.find_rule(rule_name, pass_name)
        given = {k: v for k, v in params.items() if k in cpass.params}
        resolved = self.resolve_params(cpass, given, param_strings)
        ops = list(program.walk())
        if not 0 <= position < len(ops):
            held = (f"{len(ops)} op{'s' if len(ops) != 1 else ''} (positions 0 to "
                    f"{len(ops) - 1})" if ops else "no ops")
            raise RuleCompileError(f"no op at position {position}: the program has {held}")
        driver = Driver(program, cpass, resolved, compiled=self.compiled)
        op = ops[position]
        return f"op {position} ({op.name}): " + driver.matcher.explain(rule, op)


def load_rules(paths, installed: bool = False, compiled: bool = True,
               needed=None) -> RuleSet:
    """Load and check rule files (files or folders of `.rw` files; `include`s followed), plus
    the installed `rules/` when `installed`. Raises RuleSyntaxError or RuleCompileError.

    `compiled`: the rule set matches and rewrites through generated Python (the fast path);
    False runs the tree walks that define what the generated code must compute.

    `needed`: (kind, name) pairs, kind "pass" or "pipeline" (`rulepass rewrite --pass NAME`):
    the caller uses only these. When nothing but the installed rules is loaded, only the
    installed files declaring them and what those include are then loaded and checked
    (`installed_subset`), not every installed pass: a command running one pass does not pay
    for the other fifteen files. Whenever that subset fails (a name it does not declare, any
    error in its files) the whole rule set is loaded, so what is reported is exactly what it
    would be without `needed`."""
    import_function_modules()
    if needed and installed and not paths:
        subset = installed_subset(list(needed), compiled)
        if subset is not None:
            return subset
    paths = [Path(p) for p in paths]
    if installed:
        paths.insert(0, installed_rules())
    sources = Sources()
    modules = load_modules(paths, sources)
    passes, pipelines, tests, defs = build_rule_set(modules, sources)
    return RuleSet(passes, pipelines, tests, sources, compiled, defs)


#: a `pass NAME` or `pipeline NAME` declaration at the start of a line (comments start with #)
_DECLARATION = re.compile(r"^[ \t]*(pass|pipeline)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)


def installed_subset(needed: list, compiled: bool = True) -> RuleSet | None:
    """The rule set of the installed files declaring the (kind, name) pairs of `needed`, with
    what they include, or None when that cannot stand in for the whole installed set: a name
    declared by no installed file or by more than one, a file that cannot be read, or any
    error loading or checking the subset (the caller then loads everything and reports what
    that reports). The files are found by their `pass NAME` / `pipeline NAME` lines and loaded
    in the installed folder's order; the subset must then declare every needed name as the
    kind asked for, so a line that only looks like a declaration changes nothing."""
    folder = installed_rules()
    try:
        files = sorted(folder.glob("*.rw"))
        declared = {path: {(m.group(1), m.group(2)) for m in
                           _DECLARATION.finditer(path.read_text(encoding="utf-8"))}
                    for path in files}
    except (OSError, UnicodeError):
        return None
    chosen = set()
    for kind, name in needed:
        found = [path for path in files if (kind, name) in declared[path]]
        if len(found) != 1:
            return None
        chosen.add(found[0])
    sources = Sources()
    try:
        modules = load_modules([path for path in files if path in chosen], sources)
        passes, pipelines, tests, defs = build_rule_set(modules, sources)
    except RulepassError:
        return None
    for kind, name in needed:
        if name not in (passes if kind == "pass" else pipelines):
            return None
    return RuleSet(passes, pipelines, tests, sources, compiled, defs)


def load_rules_text(text: str, filename: str = "<rules>", compiled: bool = True) -> RuleSet:
    """Load rules from text (tests and tools). `include`s are resolved against the current
    folder; `compiled` as for `load_rules`."""
    from rulepass.engine.lang.parse import parse_rules

    import_function_modules()
    sources = Sources()
    sources.add(filename, text)
    module = parse_rules(text, filename)
    modules = [module]
    includes = [Path(inc.path) for inc in module.of(A.IncludeDecl)]
    if includes:
        modules.extend(load_modules(includes, sources))
    passes, pipelines, tests, defs = build_rule_set(modules, sources)
    return RuleSet(passes, pipelines, tests, sources, compiled, defs)
