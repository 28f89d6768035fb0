"""Find where a rule matches: rules indexed by root op name, patterns joined through use lists
and an index on attribute values, regions, `inside` and value patterns.

A rule is tried at an op with each of its patterns that accepts the op's name as the root; the
other patterns are reached from bound ones — the producer of an operand, the users of a result,
ops with the same attribute value (`ProgramIndex`) — and only unconnected ones are scanned. Each
`where` term is tested as soon as its variables are bound. The same code, in explain mode, records
the first constraint that failed.

Outside explain mode a plan runs compiled (`match_compile.py`: the patterns as nested loops, the
`where` terms inlined; a one-pattern plan as one test of its op), with the walk below as the
reference the tests compare it with (`load_rules(..., compiled=False)` selects the walk).
"""

from __future__ import annotations

from time import perf_counter

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RewriteError
from rulepass.engine.rewrite.codegen.exprs import compiled
from rulepass.engine.rewrite.exprs import (ABSENT, Context, EvalError, condition_text, equal,
                                           evaluate, expr_text, show)
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.rewrite.plan import Plan, cached_plan
from rulepass.engine.rewrite.codegen.dispatch import compile_dispatch, distinct_rules
from rulepass.engine.pir.printer import print_op
from rulepass.engine.rewrite.compiled import CompiledPass, CompiledRule, PatternNode
from rulepass.engine.rewrite.index import ProgramIndex, hashable
from rulepass.engine.rewrite.bindings import Match, linked, operand_at, users_of  # noqa: F401


class RuleMatcher:
    """Matches the rules of one pass against one program."""

    def __init__(self, cpass: CompiledPass, ctx: Context, index: ProgramIndex,
                 compiled: bool = True, rules: list | None = None):
        # `compiled`: run the generated plan functions and test `where` terms by one function per
        # plan step; False walks the patterns and tests terms one by one (the reference).
        # `rules`: the pass's rules to try, in its order (default: all of them)
        self.compiled = compiled
        self.cpass = cpass
        self.rules = list(cpass.rules) if rules is None else rules
        self.ctx = ctx
        self.index = index
        self.plans: dict[tuple, Plan] = {}
        self.roots_by_name: dict[str, list] = {}
        self.value_rules = [r for r in self.rules if r.kind == "value"]
        self.backrefs: dict[int, dict[int, list]] = {}
        self.explaining: list | None = None
        self.records_of, self.records = None, {}
        self.entries_by_name: dict[str, list] = {}
        #: op name -> (dispatch function, records) (`codegen/dispatch.py`)
        self.dispatchers: dict[str, tuple] = {}
        #: whether each attempt's time is added to its rule's `seconds` (the loop, not dispatch)
        self.timing = False
        for rule in self.rules:
            refs: dict[int, list] = {}
            by_var = {node.var: node.index for node in rule.nodes}
            for node in rule.nodes:
                for position, spec in enumerate(node.operands or ()):
                    if spec.kind in ("op", "result", "nested") and spec.name in by_var:
                        refs.setdefault(by_var[spec.name], []).append((node.index, position))
            self.backrefs[id(rule)] = refs

    # ---- roots --------------------------------------------------------------------------------
    def roots(self, rule: CompiledRule) -> list[int]:
        """The nodes a rule may be tried from."""
        if rule.kind == "region":
            return [n.index for n in rule.nodes if n.role == "start" and n.parent is None]
        return [n.index for n in rule.nodes if n.role == "match"]

    def rules_for(self, name: str) -> list:
        """(rule, root node, attribute keys the root requires, plan) for each rule root that
        accepts op name `name`, in trying order."""
        pairs = self.roots_by_name.get(name)
        if pairs is None:
            pairs = []
            for rule in self.rules:
                for root in self.roots(rule):
                    node = rule.nodes[root]
                    if node.names is None or name in node.names:
                        pairs.append((rule, root, tuple(attr.key for attr in node.attrs),
                                      self.plan(rule, root)))
            self.roots_by_name[name] = pairs
        return pairs

    # ---- plans ----------------------------------------------------------------------------------
    def plan(self, rule: CompiledRule, root: int | None) -> Plan:
        """The plan of `rule` from `root` (`match_plan.make_plan`), made once."""
        key = (id(rule), root)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = cached_plan(rule, root, self.backrefs[id(rule)],
                                                  self.index.join_keys)
        return found

    # ---- matching -----------------------------------------------------------------------------
    def fail(self, depth: int, message) -> None:
        """Record why a candidate failed (explain mode only); the deepest failure wins.
        `message` is a function giving the text, so matching pays nothing for messages."""
        if self.explaining is not None:
            self.explaining.append((depth, message()))

    def attempt(self, rule: CompiledRule, root: int | None, item,
                plan: Plan | None = None) -> Match | None:
        """The first match of `rule` with root node `root` bound to `item` (an op, or a value for
        a value rule), or None. `plan` is `self.plan(rule, root)` when the caller has it."""
        if plan is None:
            plan = self.plan(rule, root)
        simple = plan.simple
        if simple is not None and self.explaining is None and isinstance(item, Operation):
            # What bind + checks_pass + search do for one bare pattern whose names the caller
            # checked (first_at only tries roots that accept the op's name).
            if plan.simple_test is not None and self.compiled:
                if not plan.simple_test(item, self.ctx):
                    return None
                return Match(rule, {simple: item}, (item,))
            env = {simple: item}
            if not self.checks_pass(plan, 0, env):
                return None
            return Match(rule, env, (item,))
        if plan.compiled_match is not None and self.compiled and self.explaining is None:
            return plan.compiled_match(item, self.ctx, self.index)
        if rule.kind == "value":
            env = {rule.value_var: item}
        else:
            env = self.bind(rule, rule.nodes[root], item, {}, 0)
            if env is None:
                return None
        if not self.checks_pass(plan, 0, env):
            return None
        if len(plan.steps) == 1:
            found_all = (env,)  # one pattern, already bound and checked: no search to run
        else:
            found_all = self.search(rule, plan, env, 1)
        for found in found_all:
            ops = [found[n.var] for n in rule.nodes if isinstance(found.get(n.var), Operation)]
            if len(ops) > 1:
                ops.sort(key=Operation.position_key)
            return Match(rule, found, tuple(ops))
        return None

    def checks_pass(self, plan: Plan, step: int, env: dict) -> bool:
        """Test the where terms scheduled after `step`."""
        ctx = self.ctx
        if self.explaining is None and self.compiled:
            return plan.step_tests[step](env, ctx)
        for term, test in plan.tests[step]:
            if not test(env, ctx):
                if self.explaining is not None:
                    self.fail(step + 1, lambda: f"where `{condition_text(term)}` is false"
                              + self.bindings_text(term, env))
                return False
        return True

    def bindings_text(self, term, env) -> str:
        """` (with a = ..., b = ...)` for the variables a where term reads, then the value of
        each call of a `def` in it (`chunk(a) = 2`), outside quantifiers."""
        from rulepass.engine.lang.check import children, free_vars

        names = sorted(v for v in free_vars(term) if v in env)
        shown = [f"{n} = {show(env[n])}" for n in names]
        stack = [term]
        while stack:
            node = stack.pop()
            if isinstance(node, A.DefCall) and free_vars(node) <= set(env):
                try:
                    value = show(evaluate(node, env, self.ctx))
                except EvalError as error:
                    value = f"error: {error.message}"
                shown.append(f"{expr_text(node)} = {value}")
            if not isinstance(node, A.Quantifier):
                stack.extend(reversed(children(node)))
        return " (with " + ", ".join(shown) + ")" if shown else ""

    def search(self, rule: CompiledRule, plan: Plan, env: dict, k: int):
        """Depth-first over the remaining steps (depth = number of patterns, not program size)."""
        if k == len(plan.steps):
            yield env
            return
        step = plan.steps[k]
        if step[0] == "node":
            node = rule.nodes[step[1]]
            expanded = (self.bind(rule, node, op, env, k)
                        for op in self.candidates(rule, node, env))
        elif step[0] == "region":
            expanded = self.region(rule, env, k)
        else:
            expanded = self.inside(rule, env, k)
        for new in expanded:
            if new is not None and self.checks_pass(plan, k, new):
                yield from self.search(rule, plan, new, k + 1)

    def candidates(self, rule: CompiledRule, node: PatternNode, env: dict) -> list:
        """Ops that may match `node`, found from what is bound: a producer, users, an attribute
        index lookup, or (unconnected) every op of the right name."""
        for parent, position in self.backrefs[id(rule)].get(node.index, ()):
            parent_node = rule.nodes[parent]
            if parent_node.var in env:
                value = operand_at(env[parent_node.var], parent_node, position)
                return [value.owner] if value is not None and value.owner is not None else []
        for position, spec in enumerate(node.operands or ()):
            if spec.kind in ("op", "result", "nested") and isinstance(env.get(spec.name),
                                                                     Operation):
                target = env[spec.name]
                return users_of([r for r in target.results])
            if spec.kind == "value" and isinstance(env.get(spec.name), Value):
                return env[spec.name].users()
        for attr in node.attrs:
            name = getattr(attr.value, "name", None)
            if name is not None and name in env and attr.key in self.index.join_keys:
                return self.index.lookup(("attr", attr.key, hashable(env[name])))
        return self.index.named(node.names)

    def bind(self, rule: CompiledRule, node: PatternNode, op, env: dict, depth: int):
        """`env` extended with `node` bound to `op`, or None when `op` does not fit."""
        # Messages are only made in explain mode; matching pays nothing for them.
        where = _Where(node) if self.explaining is not None else None
        if not isinstance(op, Operation):
            self.fail(depth, lambda: f"{where} needs an op")
            return None
        if node.names is not None and op.name not in node.names:
            self.fail(depth, lambda: f"{where}: the op is {op.name}")
            return None
        if env:
            for other in rule.nodes:
                if env.get(other.var) is op:
                    self.fail(depth, lambda: f"{where}: {op.name} is already matched by "
                              f"`{other.var}`")
                    return None
        new = dict(env)
        new[node.var] = op
        attributes = op.attributes
        for attr in node.attrs:
            present = attr.key in attributes
            value = attributes.get(attr.key)
            kind = type(attr.value)
            if not present:
                self.fail(depth, lambda: f"{where}: {op.name} has no attribute {attr.key!r}")
                return None
            if kind is A.AttrEqual:
                wanted = compiled(attr.value.value)(new, self.ctx)
                if not equal(value, wanted):
                    self.fail(depth, lambda: f"{where}: attribute {attr.key} is {show(value)}, "
                              f"not {show(wanted)}")
                    return None
            elif kind is A.AttrBind:
                name = attr.value.name
                if name in new and not equal(new[name], value):
                    self.fail(depth, lambda: f"{where}: attribute {attr.key} is {show(value)}, but "
                              f"{name} = {show(new[name])}")
                    return None
                new[name] = value
        specs = node.operands
        if specs is not None:
            count = op.num_operands
            fixed = len(specs) - (1 if node.rest is not None else 0)
            if count < fixed or (node.rest is None and count != fixed):
                self.fail(depth, lambda: f"{where}: {op.name} has {count} operands, the pattern "
                          f"{'at least ' if node.rest is not None else ''}{fixed}")
                return None
            for position, spec in enumerate(specs):
                if spec.kind in ("rest", "any"):
                    continue
                value = operand_at(op, node, position)
                if spec.kind == "value":
                    if value is None:
                        self.fail(depth, lambda: f"{where}: operand {position} is a null value")
                        return None
                    bound = new.get(spec.name)
                    if bound is None:
                        new[spec.name] = value
                    elif bound is not value:
                        self.fail(depth, lambda: f"{where}: operand {position} is not the value "
                                  f"`{spec.name}` bound earlier")
                        return None
                elif isinstance(new.get(spec.name), Operation):
                    if not linked(value, new[spec.name], spec):
                        self.fail(depth, lambda: f"{where}: operand {position} does not come from "
                                  f"`{spec.name}`")
                        return None
        for parent, position in self.backrefs[id(rule)].get(node.index, ()):
            parent_node = rule.nodes[parent]
            parent_op = new.get(parent_node.var)
            if isinstance(parent_op, Operation):
                value = operand_at(parent_op, parent_node, position)
                if not linked(value, op, parent_node.operands[position]):
                    self.fail(depth, lambda: f"{where}: {op.name} does not produce operand "
                              f"{position} of `{parent_node.var}`")
                    return None
        return new

    def bound_node(self, rule: CompiledRule, role: str) -> PatternNode:
        """The top-level start or end pattern of a region or `inside`."""
        return next(n for n in rule.nodes if n.role == role and n.parent is None)

    def region(self, rule: CompiledRule, env: dict, depth: int):
        """`t .. f as body`: the first op after `t` in its block matching `f`'s pattern."""
        start = env[self.bound_node(rule, "start").var]
        end = self.bound_node(rule, "end")
        body = []
        current = start.next_op
        while current is not None:
            found = self.bind(rule, end, current, env, depth)
            if found is not None:
                found[rule.body_var] = body
                yield found
                return
            body.append(current)
            current = current.next_op
        self.fail(depth, lambda: f"no op after {start.name} matches `{pattern_text(end)}`")

    def inside(self, rule: CompiledRule, env: dict, depth: int):
        """`inside t .. f`: the region around the first matched op; every matched op within it."""
        start, end = self.bound_node(rule, "start"), self.bound_node(rule, "end")
        matched = [env[n.var] for n in rule.nodes if n.role == "match" and n.var in env]
        matched.sort(key=Operation.position_key)
        first = matched[0]
        saved, self.explaining = self.explaining, None  # probing ops is not a failure to report
        try:
            opener, current = None, first.prev_op
            while current is not None:
                if self.bind(rule, end, current, env, depth) is not None:
                    break
                opener = self.bind(rule, start, current, env, depth)
                if opener is not None:
                    break
                current = current.prev_op
            closer, current = None, first.next_op
            if opener is not None:
                while current is not None:
                    closer = self.bind(rule, end, current, opener, depth)
                    if closer is not None:
                        break
                    current = current.next_op
        finally:
            self.explaining = saved
        if opener is None or closer is None:
            self.fail(depth, lambda: f"{first.name} is not inside a `{pattern_text(start)}` .. "
                      f"`{pattern_text(end)}` region")
            return
        t, f = closer[start.var], closer[end.var]
        for op in matched:
            if op.block is not t.block or not (t.is_before(op) and op.is_before(f)):
                self.fail(depth, lambda: f"{op.name} is not in the same region as {first.name}")
                return
        yield closer

    # ---- entry points -------------------------------------------------------------------------
    def first_at(self, item, stats) -> Match | None:
        """The first match of any rule at `item` (an op or a value), trying rules by priority.
        Outside explain mode (and when `compiled`) a plan's compiled form runs, through the
        op name's dispatch function unless per-rule time is asked for (`timing`); else
        `attempt`."""
        if stats is not self.records_of:
            self.records_for(stats)
        if self.compiled and not self.timing and self.explaining is None \
                and type(item) is Operation:
            function = self.dispatch_function(item.name)
            return function(item) if function is not None else None
        if isinstance(item, Value):
            entries, attributes = self.value_entries(), None
        else:
            entries = self.entries_by_name.get(item.name)
            if entries is None:
                entries = self.entries_by_name[item.name] = self.entries(
                    self.rules_for(item.name))
            attributes = item.attributes
        fast = self.compiled and self.explaining is None
        ctx, index = self.ctx, self.index
        last = None
        # one clock reading per attempt: each attempt's time runs from the previous reading
        start = perf_counter()
        for rule, record, required, root, plan, simple_test, var, compiled_match in entries:
            if rule is not last:
                record.tried += 1
                last = rule
            if required:
                # The root pattern names attributes the op lacks: `bind` would refuse it first.
                for key in required:
                    if key not in attributes:
                        break
                else:
                    required = ()
                if required:
                    continue
            try:
                if fast and simple_test is not None:  # attempt()'s first case, inline
                    found = Match(rule, {var: item}, (item,)) if simple_test(item, ctx) else None
                elif fast and compiled_match is not None:
                    found = compiled_match(item, ctx, index)
                else:
                    found = self.attempt(rule, root, item, plan)
            except EvalError as error:
                raise self.eval_error(rule, error, item) from None
            now = perf_counter()
            record.seconds += now - start
            start = now
            if found is not None:
                record.matched += 1
                return found
        return None

    def dispatch_function(self, name: str):
        """The dispatch function `(op) -> Match | None` of the rules tried at op name `name`
        (`codegen/dispatch.py`), made once per name; None when no rule starts at that name.
        Its counts reach the stats at `flush_counts`."""
        found = self.dispatchers.get(name, _UNMADE)
        if found is _UNMADE:
            found = self.dispatchers[name] = self.dispatcher(name)
        return found[0] if found is not None else None

    def dispatcher(self, name: str) -> tuple | None:
        """(dispatch function, its Counts, stats records) of the rules tried at op name
        `name`, or None when there are none."""
        pairs = self.rules_for(name)
        if not pairs:
            return None
        records = []
        for rule in distinct_rules(pairs):
            record = self.records.get(id(rule))
            if record is None:
                record = self.records[id(rule)] = self.records_of.rule(rule)
            records.append(record)
        function, counts = compile_dispatch(pairs, self.attempt, self.eval_error, self.ctx,
                                            self.index, self.backrefs, self.index.join_keys)
        return function, counts, records

    def flush_counts(self) -> None:
        """Add what the dispatch functions counted (tries and matches) to the stats records."""
        for found in self.dispatchers.values():
            if found is not None:
                found[1].flush(found[2])

    def entries(self, pairs) -> list:
        """(rule, root, required attributes, plan) `pairs` with what `first_at` reads of each
        taken out once: (rule, its stats record, required attributes, root, plan, the simple
        plan's test and variable, the compiled plan)."""
        found = []
        for rule, root, required, plan in pairs:
            record = self.records.get(id(rule))
            if record is None:
                record = self.records[id(rule)] = self.records_of.rule(rule)
            found.append((rule, record, required, root, plan,
                          getattr(plan, "simple_test", None), getattr(plan, "simple", None),
                          getattr(plan, "compiled_match", None)))
        return found

    def value_entries(self) -> list:
        """`entries` of the value rules (a value has no name to index them by)."""
        found = self.entries_by_name.get(None)
        if found is None:
            found = self.entries_by_name[None] = self.entries(
                [(rule, None, (), None) for rule in self.value_rules])
        return found

    def records_for(self, stats) -> dict:
        """id(rule) -> `stats`' record of it, filled as rules are tried (the hot loop of
        `first_at` reads it instead of calling `stats.rule`)."""
        if self.records_of is not None:
            self.flush_counts()
        self.records_of, self.records = stats, {}
        self.entries_by_name = {}
        self.dispatchers = {}
        return self.records

    def eval_error(self, rule: CompiledRule, error: EvalError, item) -> RewriteError:
        """A `where` that could not be evaluated, as a RewriteError naming the rule."""
        span = error.span or rule.decl.span
        shown = print_op(item) if isinstance(item, Operation) else "a value"
        return RewriteError(error.message, span.file, span.line, span.col, None,
                            "  at op: " + shown, rule=rule.name, pass_name=rule.pass_name)

    def explain(self, rule: CompiledRule, item) -> str:
        """Why `rule` does or does not match at `item`: the first failed constraint of the
        attempt that got furthest, or the bindings of the match."""
        if rule.kind == "value":
            roots = [None] if isinstance(item, Value) else []
        else:
            roots = [r for r in self.roots(rule)
                     if rule.nodes[r].names is None or getattr(item, "name", None)
                     in rule.nodes[r].names]
        if not roots:
            wanted = sorted({name for r in self.roots(rule) for name in
                             (rule.nodes[r].names or ["any op"])}) if rule.kind != "value" \
                else ["a value no op defines"]
            return (f"rule {rule.name} does not match: it starts from {', '.join(wanted)}, "
                    f"and this is {getattr(item, 'name', 'a value')}")
        failures: list = []
        self.explaining = failures
        try:
            for root in roots:
                found = self.attempt(rule, root, item)
                if found is not None:
                    shown = ", ".join(f"{k} = {show(v)}" for k, v in found.env.items()
                                      if not k.startswith("%") and v is not ABSENT)
                    return f"rule {rule.name} matches ({shown})"
        finally:
            self.explaining = None
        depth = max(d for d, _ in failures) if failures else 0
        reason = next((m for d, m in failures if d == depth), "no candidate ops")
        return f"rule {rule.name} does not match: {reason}"


_UNMADE = object()


class _Where:
    """`pattern `...`` for messages, formatted only when a message is (explain mode)."""

    __slots__ = ("node",)

    def __init__(self, node: PatternNode):
        self.node = node

    def __str__(self) -> str:
        return f"pattern `{pattern_text(self.node)}`"


def pattern_text(node: PatternNode) -> str:
    """A short text of a pattern for messages: `ar = pd_op.all_reduce_(..)`."""
    names = " | ".join(sorted(node.names)) if node.names is not None else "*"
    if node.names is not None and len(node.names) > 1:
        names = f"({names})"
    head = f"{node.var} = " if not node.var.startswith("%") else ""
    return f"{head}{names}{'(..)' if node.operands is not None else ''}"
