"""Warnings about rule files that load but are likely wrong or slow (`rulepass check` prints them).

- patterns of one rule that share no value or attribute variable: every pair is tried, so the
  cost is the product of their matches;
- an empty `rewrite` block: every application would be a no-op, which is an error;
- a pattern variable bound once and never read (write `_`);
- a pass with no test block in its file;
- a `let` whose name nothing after it reads;
- a `def` named like a built-in or registered function, which it hides in its file and the files
  including it.
"""

from __future__ import annotations

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.lang.check import free_vars


@attrs.frozen
class LintWarning:
    """One warning at `file:line`."""

    file: str | None
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file or '<rules>'}:{self.line}: warning: {self.message}"


def unconnected_groups(rule) -> list[list[str]]:
    """The groups of a rule's top-level match patterns that share no variable, each as the
    pattern names; one group means all are connected. `rule` is a compiled rule
    (`rewrite.compiled.CompiledRule`, read through its `nodes`: the language does not import the
    engine above it)."""
    nodes = [n for n in rule.nodes if n.role == "match"]
    variables: dict[int, set] = {}
    for node in nodes:
        names = {node.var}
        names.update(s.name for s in node.operands or () if s.name)
        names.update("attr:" + a.value.name for a in node.attrs if hasattr(a.value, "name"))
        if node.parent is not None:
            names.add(rule.nodes[node.parent[0]].var)
        variables[node.index] = names
    groups: list[tuple[set, list]] = []
    for node in nodes:
        merged_names, merged_members = set(variables[node.index]), [node]
        rest = []
        for names, members in groups:
            if names & merged_names:
                merged_names |= names
                merged_members = members + merged_members
            else:
                rest.append((names, members))
        groups = rest + [(merged_names, merged_members)]
    return [[n.var for n in members if n.parent is None] for _, members in groups]


def unused_variables(rule: A.RuleDecl) -> list[str]:
    """Pattern variables bound once and read nowhere else."""
    counts: dict[str, int] = {}
    bindings: set[str] = set()
    stack = A.match_patterns(rule.match)
    while stack:
        pattern = stack.pop()
        if pattern.binding:  # `f = pd_op.full()` then `pd_op.scale(x, f)` reads f: a join
            bindings.add(pattern.binding)
        for operand in pattern.operands or ():
            if isinstance(operand, A.OpPattern):
                stack.append(operand)
            elif isinstance(operand, (A.OperandVar, A.OperandResult)):
                counts[operand.name] = counts.get(operand.name, 0) + 1
        for attr in pattern.attrs:
            if isinstance(attr.value, A.AttrBind):
                counts[attr.value.name] = counts.get(attr.value.name, 0) + 1
    read = action_reads(rule.rewrite)
    if rule.where is not None:
        read |= free_vars(rule.where)
    for let in rule.lets:
        read |= free_vars(let.value)
    return sorted(name for name, count in counts.items()
                  if count + (name in bindings) == 1 and name not in read)


def action_reads(actions) -> set[str]:
    """Variables the rewrite actions read."""
    read: set[str] = set()
    stack = list(actions)
    while stack:
        action = stack.pop()
        exprs: tuple = ()
        if isinstance(action, A.LetDecl):
            exprs = (action.value,)
        elif isinstance(action, A.CreateOp):
            exprs = action.operands + action.types + tuple(a.value for a in action.attrs)
        elif isinstance(action, A.ReplaceAction):
            exprs = (action.target, action.replacement) + (
                (action.readers,) if action.readers is not None else ())
        elif isinstance(action, A.EraseAction):
            exprs = action.items
        elif isinstance(action, (A.SetAction, A.UnsetAction)):
            read.add(action.path.var)
            exprs = (action.value,) if isinstance(action, A.SetAction) else ()
        elif isinstance(action, A.RetypeAction):
            exprs = (action.value, action.type)
        elif isinstance(action, A.ForAction):
            exprs = (action.seq,) + ((action.where,) if action.where is not None else ())
            stack.extend(action.body)
        elif isinstance(action, A.FailAction):
            exprs = (action.message,)
        for expr in exprs:
            read |= free_vars(expr)
    return read


def unused_lets(rule: A.RuleDecl) -> list[A.LetDecl]:
    """The `let`s of a rule (after its match or in its rewrite) whose name nothing after them
    reads (a later let, `where`, an action)."""
    unused = []
    lets = list(rule.lets)
    for position, let in enumerate(lets):
        read = action_reads(rule.rewrite)
        read |= free_vars(rule.where) if rule.where is not None else set()
        for later in lets[position + 1:]:
            read |= free_vars(later.value)
        if let.name not in read:
            unused.append(let)
    stack = [tuple(rule.rewrite)]
    while stack:
        actions = stack.pop()
        for position, action in enumerate(actions):
            if isinstance(action, A.ForAction):
                stack.append(tuple(action.body))
            elif isinstance(action, A.LetDecl) and \
                    action.name not in action_reads(actions[position + 1:]):
                unused.append(action)
    return unused


def lint(rule_set) -> list[LintWarning]:
    """Warnings for every pass of `rule_set` (an `api.RuleSet`), in file order."""
    warnings: list[LintWarning] = []
    tested = {test.run.name for test in rule_set.tests}
    tested |= {entry.name for name in tested if name in rule_set.pipelines
               for entry in rule_set.pipelines[name].entries}
    defs = getattr(rule_set, "defs", None)
    for decl, kind in (defs.shadowing() if defs is not None else ()):
        warnings.append(LintWarning(decl.span.file, decl.span.line,
                                    f"def {decl.name!r} hides the {kind} of that name (in this "
                                    "file and the files including it); rename the def"))
    for cpass in rule_set.passes.values():
        decl = cpass.decl
        if cpass.name not in tested:
            warnings.append(LintWarning(decl.span.file, decl.span.line,
                                        f"pass {cpass.name} has no test block"))
        for rule in sorted(cpass.rules, key=lambda r: r.order):
            where = (rule.file, rule.line)
            groups = unconnected_groups(rule)
            if len(groups) > 1:
                shown = " / ".join(", ".join(g) for g in groups)
                warnings.append(LintWarning(*where, f"rule {rule.name}: patterns {shown} share "
                                            "no value or attribute variable; every combination "
                                            "is tried (the cost is the product)"))
            if not rule.decl.rewrite:
                warnings.append(LintWarning(*where, f"rule {rule.name}: empty rewrite block; "
                                            "every application would change nothing (an error)"))
            for let in unused_lets(rule.decl):
                warnings.append(LintWarning(let.span.file, let.span.line,
                                            f"rule {rule.name}: let {let.name!r} is never read"))
            for name in unused_variables(rule.decl):
                warnings.append(LintWarning(*where, f"rule {rule.name}: {name!r} is bound but "
                                            "never read (write `_`)"))
    return warnings
