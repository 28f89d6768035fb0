"""Load `.rw` files and check their meaning; compile each rule to the pattern nodes `match` uses.

`load_modules(paths)` parses files (following `include`s), `build_rule_set` checks everything that
can be checked before a program is seen — unbound variables, unknown params and functions, wrong
arity, param types, passes or pipelines defined twice (naming both places), unknown passes in
pipelines and tests — and raises `RuleCompileError` with file:line:col, the line and a caret.
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RuleCompileError
from rulepass.engine.files import FileError, check_input, read_text
from rulepass.engine.lang.check import check_pass, check_value_type, constant  # noqa: F401
from rulepass.engine.lang.defs import Defs
from rulepass.engine.rewrite.functions import arity
from rulepass.engine.lang.cache import parse_rules_cached


class Sources:
    """The text of every loaded file, so errors can show the offending line; `included_at`:
    file -> the `include` (span) that brought it in, for the files no path named directly."""

    def __init__(self):
        self.texts: dict[str, list[str]] = {}
        self.included_at: dict[str, A.Span] = {}

    def add(self, file: str, text: str) -> None:
        """Remember `file`'s text."""
        self.texts[file] = text.split("\n")

    def line(self, span: A.Span) -> str | None:
        """The source line of `span`, or None when unknown."""
        lines = self.texts.get(span.file or "")
        if lines is None or not 0 < span.line <= len(lines):
            return None
        return lines[span.line - 1]

    def error(self, span: A.Span, message: str) -> RuleCompileError:
        """A `RuleCompileError` at `span`."""
        return RuleCompileError(message, span.file, span.line, span.col, self.line(span))


@attrs.frozen
class PatternNode:
    """One op pattern of a rule, flattened out of nesting.

    `var` is its binding (generated as `%pN` when unnamed); `names` the op names it accepts (None
    for `*`); `operands` a tuple of `OperandSpec`, or None for any operands; `rest` the index of
    `..` in `operands` or None; `attrs` the `AttrPattern`s; `parent` (node index, operand index)
    when nested inside another pattern's operand list; `role` is "match", "start" or "end" (the
    bounds of a region or `inside`).
    """

    index: int
    var: str
    names: frozenset | None
    operands: tuple | None
    rest: int | None
    attrs: tuple
    parent: tuple | None
    role: str
    decl: A.OpPattern


@attrs.frozen
class OperandSpec:
    """One operand of a pattern: `kind` is "value" (a value variable `name`), "op" (the only
    result of the op variable `name`), "result" (result `index` of op variable `name`), "any"
    (`_`) or "nested" (the value's defining op is pattern node `index`)."""

    kind: str
    name: str | None = None
    index: int = 0


@attrs.frozen
class CompiledRule:
    """A rule ready to match: its declaration, flattened pattern nodes and where-conjuncts.

    `kind` is "ops", "region" or "value"; `conjuncts` are the top-level `and` terms of `where`,
    each with the variables it reads, so the matcher tests each as soon as it can.
    `op_vars`/`value_vars`/`attr_vars` classify the match's variables.
    """

    decl: A.RuleDecl
    pass_name: str
    order: int
    kind: str
    nodes: tuple
    conjuncts: tuple
    op_vars: frozenset
    value_vars: frozenset
    attr_vars: frozenset
    body_var: str | None
    value_var: str | None

    @property
    def name(self) -> str:
        """The rule's name."""
        return self.decl.name

    @property
    def file(self) -> str | None:
        """The file declaring the rule."""
        return self.decl.span.file

    @property
    def line(self) -> int:
        """The line of the rule's `rule` keyword."""
        return self.decl.span.line

    @property
    def priority(self) -> int:
        """Higher is tried first."""
        return self.decl.priority

    def sort_key(self) -> tuple:
        """Priority (highest first), then declaration order."""
        return (-self.decl.priority, self.order)


@attrs.frozen
class CompiledPass:
    """A pass: its declaration, params and rules in the order they are tried."""

    decl: A.PassDecl
    rules: tuple

    @property
    def name(self) -> str:
        """The pass's name."""
        return self.decl.name

    @property
    def strategy(self) -> str:
        """"fixpoint", "sweep" or "sweep_reverse"."""
        return self.decl.strategy

    @property
    def params(self) -> dict:
        """Param name → `Param` declaration."""
        return {p.name: p for p in self.decl.params}


def _not_a_rule_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a rule file (a folder, a device, a FIFO that would wait for
    a writer for ever, a dangling symbolic link or a link loop), or None (a regular file;
    :func:`read_text` says what else is wrong); "missing" when there is nothing at ``path``."""
    if not os.path.lexists(path):
        return "missing"
    try:
        check_input(path, "rule file")
    except FileError as e:
        return e.message
    return None


def load_modules(paths, sources: Sources) -> list[A.Module]:
    """Parse the `.rw` files named by `paths` (files, or folders: their `*.rw` files in name
    order), following `include`s relative to the including file; each file is read once.

    Raises RuleSyntaxError for a file that does not parse, RuleCompileError for a missing file.
    """
    modules: list[A.Module] = []
    seen: set[str] = set()
    pending: list[tuple[Path, A.Span | None]] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found = sorted(path.glob("*.rw"))
            if not found:  # a folder of no rules checks nothing: say so, never "0 passed"
                raise RuleCompileError(f"{path}: no .rw rule files in this folder")
            pending.extend((p, None) for p in found)
        else:
            pending.append((path, None))
    # A work list, not recursion: include chains may be long.
    pending.reverse()
    while pending:
        path, included_at = pending.pop()
        key = os.path.realpath(path)  # never raises: a symlink loop fails at the stat below
        if key in seen:
            continue
        seen.add(key)
        problem = _not_a_rule_file(path)
        if problem is not None:
            if included_at is None:
                raise RuleCompileError(f"no such rule file: {path}" if problem == "missing"
                                       else f"{path}: {problem}")
            raise sources.error(included_at, f"included file {path} does not exist"
                                if problem == "missing" else f"included file {path}: {problem}")
        text = read_text(path, "rule file")
        sources.add(str(path), text)
        if included_at is not None:
            sources.included_at[str(path)] = included_at
        module = parse_rules_cached(text, str(path))
        modules.append(module)
        includes = [(path.parent / inc.path, inc.span) for inc in module.of(A.IncludeDecl)]
        pending.extend(reversed(includes))
    return modules


def build_rule_set(modules: list[A.Module], sources: Sources):
    """Check `modules` together and compile their passes.

    Returns (passes, pipelines, tests, defs): dicts name → `CompiledPass`, name →
    `PipelineDecl`, a list of `TestDecl`s, and the files' `Defs`. Raises RuleCompileError for
    the first problem found.
    """
    passes: dict[str, CompiledPass] = {}
    pipelines: dict[str, A.PipelineDecl] = {}
    defined: dict[str, A.Span] = {}
    tests: list[A.TestDecl] = []
    defs = Defs(modules, sources, arity)
    for module in modules:
        for item in module.items:
            if isinstance(item, (A.PassDecl, A.PipelineDecl)):
                if item.name in defined:
                    first = defined[item.name]
                    raise sources.error(item.span, f"{item.name!r} is defined twice: at {first} "
                                        f"and at {item.span}; rename one of them")
                defined[item.name] = item.span
            if isinstance(item, A.PassDecl):
                passes[item.name] = compile_pass(item, sources, defs)
            elif isinstance(item, A.PipelineDecl):
                pipelines[item.name] = item
            elif isinstance(item, A.TestDecl):
                tests.append(item)
    for pipeline in pipelines.values():
        check_pipeline(pipeline, passes, pipelines, sources)
    for test in tests:
        check_run(test.run, passes, pipelines, sources)
    return passes, pipelines, tests, defs


def check_pipeline(pipeline: A.PipelineDecl, passes, pipelines, sources: Sources) -> None:
    """Every entry names a known pass or pipeline, with declared and well-typed params; a pipeline
    may not contain itself."""
    for entry in pipeline.entries:
        check_run(entry, passes, pipelines, sources)
    # Cycles through nested pipelines would never end; look for one without recursion.
    stack = [(pipeline.name, (pipeline.name,))]
    while stack:
        name, chain = stack.pop()
        for entry in pipelines[name].entries:
            if entry.name in chain:
                raise sources.error(pipeline.span, "pipeline contains itself: "
                                    + " -> ".join(chain + (entry.name,)))
            if entry.name in pipelines:
                stack.append((entry.name, chain + (entry.name,)))


def check_run(entry, passes, pipelines, sources: Sources) -> None:
    """A pipeline entry or a test's `run`: the pass or pipeline exists and its args are params it
    declares, of the declared type."""
    if entry.name in pipelines:
        if entry.args:
            # A pipeline hands its params to the passes declaring them; check one exists.
            declared = pipeline_params(entry.name, passes, pipelines)
            for arg in entry.args:
                if arg.name not in declared:
                    raise sources.error(arg.span, f"no pass of pipeline {entry.name!r} declares "
                                        f"a param {arg.name!r}")
                check_value_type(declared[arg.name], constant(arg.value, sources), arg.span,
                                 sources)
        return
    compiled = passes.get(entry.name)
    if compiled is None:
        known = ", ".join(sorted(passes)) or "none"
        raise sources.error(entry.span, f"unknown pass {entry.name!r} (passes: {known})")
    params = compiled.params
    for arg in entry.args:
        if arg.name not in params:
            raise sources.error(arg.span, f"pass {entry.name!r} has no param {arg.name!r} "
                                f"(params: {', '.join(params) or 'none'})")
        check_value_type(params[arg.name].type, constant(arg.value, sources), arg.span, sources)


def pipeline_params(name: str, passes, pipelines) -> dict:
    """Param name → type over every pass a pipeline (transitively) runs."""
    out: dict[str, str] = {}
    stack, seen = [name], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        for entry in pipelines[current].entries:
            if entry.name in pipelines:
                stack.append(entry.name)
            elif entry.name in passes:
                for param in passes[entry.name].decl.params:
                    out.setdefault(param.name, param.type)
    return out


def compile_pass(decl: A.PassDecl, sources: Sources, defs: Defs | None = None) -> CompiledPass:
    """Check a pass and compile its rules (in priority order); with `defs`, calls of the defs
    visible in the pass's file are resolved to them (`DefCall`)."""
    if defs is not None:
        roots = check_pass(decl, sources, arity, defs.lookup_in(decl.span.file))
        decl = defs.resolve(decl, decl.span.file, roots)
    else:
        check_pass(decl, sources, arity)
    rules = [compile_rule(rule, decl.name, order) for order, rule in enumerate(decl.rules)]
    rules.sort(key=CompiledRule.sort_key)
    return CompiledPass(decl, tuple(rules))


def compile_rule(rule: A.RuleDecl, pass_name: str, order: int) -> CompiledRule:
    """Flatten the rule's patterns into nodes and split its `where` into conjuncts."""
    from rulepass.engine.lang.check import free_vars, pattern_var_kinds

    nodes: list[PatternNode] = []
    kinds = pattern_var_kinds(rule)
    op_vars = frozenset(k for k, v in kinds.items() if v == "op")

    def add(pattern: A.OpPattern, parent, role) -> int:
        index = len(nodes)
        nodes.append(None)  # reserve the slot so children get later indices
        var = pattern.binding or f"%p{index}"
        specs = None
        rest = None
        if pattern.operands is not None:
            specs = []
            for position, operand in enumerate(pattern.operands):
                if isinstance(operand, A.OperandRest):
                    rest = position
                    specs.append(OperandSpec("rest"))
                elif isinstance(operand, A.OperandAny):
                    specs.append(OperandSpec("any"))
                elif isinstance(operand, A.OperandVar):
                    kind = "op" if operand.name in op_vars else "value"
                    specs.append(OperandSpec(kind, operand.name))
                elif isinstance(operand, A.OperandResult):
                    specs.append(OperandSpec("result", operand.name, operand.index))
                else:
                    child = add(operand, (index, position), role)
                    specs.append(OperandSpec("nested", nodes[child].var, child))
            specs = tuple(specs)
        nodes[index] = PatternNode(index, var, frozenset(pattern.ops) if pattern.ops else None,
                                   specs, rest, pattern.attrs, parent, role, pattern)
        return index

    match = rule.match
    body_var = value_var = None
    if isinstance(match, A.MatchOps):
        kind = "ops"
        for pattern in match.patterns:
            add(pattern, None, "match")
        if match.inside is not None:
            add(match.inside.start, None, "start")
            add(match.inside.end, None, "end")
    elif isinstance(match, A.MatchRegion):
        kind = "region"
        add(match.bounds.start, None, "start")
        add(match.bounds.end, None, "end")
        body_var = match.body
    else:
        kind = "value"
        value_var = match.name
    conjuncts = []
    from rulepass.engine.lang.check import expand_lets

    terms = [expand_lets(rule.where, rule.lets)] if rule.where is not None else []
    # Flatten `a and b and c` (left-nested) into its terms, keeping their order.
    flat = []
    while terms:
        term = terms.pop()
        if isinstance(term, A.AndOp):
            terms.append(term.right)
            terms.append(term.left)
        else:
            flat.append(term)
    for term in flat:
        conjuncts.append((term, frozenset(free_vars(term))))
    return CompiledRule(
        rule, pass_name, order, kind, tuple(nodes), tuple(conjuncts), op_vars,
        frozenset(k for k, v in kinds.items() if v == "value"),
        frozenset(k for k, v in kinds.items() if v == "attr"), body_var, value_var)
