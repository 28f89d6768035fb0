"""How a rule is matched from one of its patterns: the plan the matcher follows.

`make_plan` orders the patterns breadth first from the root (each later pattern reached through a
bound neighbour: an operand's producer, a result's users, a shared attribute value; unconnected
ones scanned by name), schedules each `where` term right after the step that binds its last
variable, and compiles what the matcher runs: one test per step (`compile_conjunction`), a
one-pattern plan's test of its op, and the whole plan as nested loops (`match_compile.py`).
"""

from __future__ import annotations

from rulepass.engine.rewrite.codegen.exprs import compile_conjunction, compiled
from rulepass.engine.rewrite.codegen.match import compile_plan
from rulepass.engine.rewrite.compiled import CompiledRule


class Plan:
    """How to match a rule from one root: `steps` ("node", i) / ("region",) / ("inside",) /
    ("value",) in order, and the `where` terms to test after each step (`checks`). Its compiled
    forms are made when first asked for (an op name's dispatch function inlines most plans and
    never asks): `tests`, (term, compiled function) pairs, what the reference walk and explain
    mode run; `step_tests`, one function per step testing all its terms; `simple_test`, for a
    simple plan, `(op, ctx) -> bool`; `compiled_match`, the whole plan compiled."""

    __slots__ = ("root", "steps", "checks", "simple", "rule", "backrefs", "join_keys", "_made")

    def __init__(self, root: int, steps: tuple, checks: tuple, simple: str | None, rule,
                 backrefs: dict, join_keys):
        self.root = root
        self.steps = steps
        self.checks = checks
        #: The variable of the only pattern when binding it is all there is to do (one op
        #: pattern, no operands, no attributes): the matcher then only tests the `where` terms.
        self.simple = simple
        self.rule, self.backrefs, self.join_keys = rule, backrefs, join_keys
        self._made: dict = {}

    def _lazy(self, name: str, make):
        made = self._made
        if name not in made:
            made[name] = make()
        return made[name]

    @property
    def tests(self) -> tuple:
        """For each step, (term, compiled function) pairs."""
        return self._lazy("tests", lambda: tuple(tuple((term, compiled(term)) for term in terms)
                                                 for terms in self.checks))

    @property
    def step_tests(self) -> tuple:
        """For each step, one function testing all its terms (`compile_conjunction`)."""
        return self._lazy("step_tests", lambda: tuple(compile_conjunction(terms)
                                                      for terms in self.checks))

    @property
    def simple_test(self):
        """For a simple plan, `(op, ctx) -> bool` testing every term with the op in a local
        (None when a term cannot be compiled so, or the plan is not simple)."""
        return self._lazy("simple_test", lambda: compile_conjunction(self.checks[0], self.simple)
                          if self.simple is not None else None)

    @property
    def compiled_match(self):
        """`(item, ctx, index) -> Match | None`, the whole plan compiled (`codegen/match.py`),
        or None where it has steps the compiler does not translate, or is simple."""
        return self._lazy("compiled_match", lambda: None if self.simple is not None else
                          compile_plan(self.rule, self, self.backrefs, self.join_keys))


#: (id(rule), root, join keys) -> (rule, plan): plans are made once per rule set, not per run
_PLANS: dict[tuple, tuple] = {}
PLAN_CACHE_LIMIT = 20_000


def cached_plan(rule: CompiledRule, root: int | None, backrefs: dict, join_keys) -> Plan:
    """`make_plan`, memoised by the rule's identity, the root and the join keys (a pass run
    again — the chain, each rank, each test — compiles nothing again). `backrefs` follows from
    the rule."""
    key = (id(rule), root, tuple(sorted(join_keys)))
    found = _PLANS.get(key)
    if found is not None and found[0] is rule:
        return found[1]
    if len(_PLANS) > PLAN_CACHE_LIMIT:
        _PLANS.clear()
    plan = make_plan(rule, root, backrefs, join_keys)
    _PLANS[key] = (rule, plan)
    return plan


def make_plan(rule: CompiledRule, root: int | None, backrefs: dict, join_keys) -> Plan:
    """How to match `rule` from pattern `root`: the step order (breadth first over connected
    patterns), the `where` terms scheduled after each step, and their compiled forms.
    `backrefs` and `join_keys` are the matcher's (see `RuleMatcher`)."""
    steps: list[tuple] = []
    if rule.kind == "value":
        steps.append(("value",))
    else:
        neighbours = adjacency(rule)
        bounds = [n.index for n in rule.nodes if n.role != "match" and n.parent is None]
        visited: set[int] = set()

        def visit_from(start: int) -> None:
            # Breadth first, so each pattern is reached through an already bound neighbour.
            queue = [start]
            visited.add(start)
            steps.append(("node", start))
            while queue:
                current = queue.pop(0)
                for other in neighbours[current]:
                    if other not in visited and other not in bounds:
                        visited.add(other)
                        steps.append(("node", other))
                        queue.append(other)

        visit_from(root)
        for node in rule.nodes:
            if node.index not in visited and node.role == "match":
                visit_from(node.index)  # an unconnected pattern: scanned by name
        if rule.kind == "region":
            steps.append(("region",))
        elif bounds:
            steps.append(("inside",))
        visited.update(bounds)
        for node in rule.nodes:
            if node.index not in visited:
                visit_from(node.index)
    checks = schedule(rule, steps)
    simple = None
    if rule.kind == "ops" and len(rule.nodes) == 1 and len(steps) == 1:
        node = rule.nodes[0]
        if node.operands is None and not node.attrs and node.parent is None:
            simple = node.var
    return Plan(root if root is not None else -1, tuple(steps), checks, simple, rule, backrefs,
                tuple(join_keys))

def adjacency(rule: CompiledRule) -> dict[int, list[int]]:
    """Pattern nodes connected by nesting, shared values or shared attribute variables."""
    links: dict[int, set] = {n.index: set() for n in rule.nodes}
    by_var = {n.var: n.index for n in rule.nodes}
    owners: dict[str, set] = {}
    for node in rule.nodes:
        if node.parent is not None:
            links[node.index].add(node.parent[0])
            links[node.parent[0]].add(node.index)
        for spec in node.operands or ():
            if spec.kind in ("op", "result", "nested") and spec.name in by_var:
                links[node.index].add(by_var[spec.name])
                links[by_var[spec.name]].add(node.index)
            elif spec.kind == "value":
                owners.setdefault(spec.name, set()).add(node.index)
        for attr in node.attrs:
            if hasattr(attr.value, "name"):
                owners.setdefault("attr:" + attr.value.name, set()).add(node.index)
    for group in owners.values():
        for a in group:
            links[a].update(group - {a})
    return {k: sorted(v) for k, v in links.items()}

def schedule(rule: CompiledRule, steps: list) -> tuple:
    """For each step, the where terms whose variables are all bound by then."""
    bound: set[str] = set()
    pending = list(rule.conjuncts)
    checks = []
    for step in steps:
        if step[0] == "value":
            bound.add(rule.value_var)
        elif step[0] == "node":
            node = rule.nodes[step[1]]
            bound.add(node.var)
            bound.update(s.name for s in node.operands or () if s.kind == "value")
            bound.update(a.value.name for a in node.attrs if hasattr(a.value, "name"))
        else:
            for node in rule.nodes:
                if node.role != "match" and node.parent is None:
                    bound.add(node.var)
                    bound.update(s.name for s in node.operands or () if s.kind == "value")
                    bound.update(a.value.name for a in node.attrs if hasattr(a.value, "name"))
            if rule.body_var:
                bound.add(rule.body_var)
        ready = [c for c in pending if c[1] <= bound]
        pending = [c for c in pending if not c[1] <= bound]
        checks.append(tuple(c[0] for c in ready))
    if pending and checks:
        checks[-1] = checks[-1] + tuple(c[0] for c in pending)
    return tuple(checks)
