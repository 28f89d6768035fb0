"""A matching plan compiled into one Python function.

`compile_plan(rule, plan, backrefs, join_keys)` returns `match(item, ctx, index)`, which finds
what `RuleMatcher.attempt` finds for a rule whose plan is a sequence of op patterns ("node"
steps: no region, no `inside`, not a value rule): the same candidates in the same order, the same
checks in the same order (names, an op matched twice, attributes, operands, links to bound
patterns, the `where` terms scheduled at each step), the same first match, the same errors. Each
step is a `for` loop over its candidates, nested in the previous step's, with the variables bound
so far held in Python locals; the `where` terms are inlined. `attempt` (with `bind`, `search`,
`candidates`) stays the reference, used in explain mode and for the other plans; the test suite
compares the two (tests/test_engine_compiled_paths.py).
"""

from __future__ import annotations

from rulepass.engine.rewrite.codegen.exprs import ScopedGen, Unsupported
import rulepass.engine.lang.nodes as A
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.rewrite.bindings import Match, linked, operand_at, users_of
from rulepass.engine.rewrite.index import hashable


def compile_plan(rule, plan, backrefs: dict, join_keys):
    """The function `(item, ctx, index) -> Match | None` for `plan`, or None when the plan has
    a step this compiler does not translate (the matcher then walks it)."""
    if rule.kind != "ops" or any(step[0] != "node" for step in plan.steps):
        return None
    try:
        return _PlanCompiler(rule, plan, backrefs, tuple(join_keys)).function()
    except Unsupported:
        return None


class _PlanCompiler:
    def __init__(self, rule, plan, backrefs, join_keys):
        self.rule, self.plan, self.backrefs, self.join_keys = rule, plan, backrefs, join_keys
        self.gen = ScopedGen()
        self.gen.globals.update(Operation=Operation, Value=Value, Match=Match, linked=linked,
                                operand_at=operand_at, users_of=users_of, hashable=hashable,
                                position_key=Operation.position_key)
        self.lines: list[str] = []
        self.scope: dict[str, str] = {}     # rule variable -> local
        self.order: list[str] = []          # rule variables in binding order (the env's order)
        self.node_locals: dict[int, str] = {}  # node index -> local, once bound
        self.value_vars: set[str] = set()   # variables bound to operand values

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def bind_var(self, name: str, local: str) -> None:
        self.scope[name] = local
        self.order.append(name)

    def function(self):
        rule, plan = self.rule, self.plan
        depth = 1
        for k, step in enumerate(plan.steps):
            node = rule.nodes[step[1]]
            local = f"n{node.index}"
            if k == 0:
                self.emit(depth, f"{local} = item")
                fail = "return None"
            else:
                self.emit(depth, f"for {local} in {self.candidates(node)}:")
                depth += 1
                fail = "continue"
            self.bind_node(node, local, depth, fail, first=(k == 0))
            terms = plan.checks[k]
            if terms:
                test = " and ".join(f"bool({self.gen.expr(t, self.scope)})" for t in terms)
                self.emit(depth, f"if not ({test}):")
                self.emit(depth + 1, fail)
        env = "{" + ", ".join(f"{name!r}: {self.scope[name]}" for name in self.order) + "}"
        ops = [self.node_locals[n.index] for n in rule.nodes]
        self.emit(depth, f"ops = [{', '.join(ops)}]")
        if len(ops) > 1:
            self.emit(depth, "ops.sort(key=position_key)")
        self.emit(depth, f"return Match({self.gen.const(rule)}, {env}, tuple(ops))")
        self.emit(1, "return None")
        source = "def _match(item, ctx, index):\n" + "\n".join(self.lines) + "\n"
        return self.gen.function(source, "_match")

    # ---- one pattern ----------------------------------------------------------------------------
    def bind_node(self, node, local: str, depth: int, fail: str, first: bool) -> None:
        """The checks of `RuleMatcher.bind` for `node` bound to `local`, in its order."""
        emit, const = self.emit, self.gen.const
        emit(depth, f"if type({local}) is not Operation:")
        emit(depth + 1, fail)
        if node.names is not None:
            emit(depth, f"if {local}.name not in {const(node.names)}:")
            emit(depth + 1, fail)
        if not first:
            bound = list(self.node_locals.values())
            if bound:
                emit(depth, "if " + " or ".join(f"{local} is {b}" for b in bound) + ":")
                emit(depth + 1, fail)
        self.node_locals[node.index] = local
        self.bind_var(node.var, local)
        if node.attrs:
            attributes = f"a{node.index}"
            emit(depth, f"{attributes} = {local}.attributes")
            for attr in node.attrs:
                key = repr(attr.key)
                emit(depth, f"if {key} not in {attributes}:")
                emit(depth + 1, fail)
                kind = type(attr.value)
                if kind is A.AttrEqual:
                    wanted = self.gen.expr(attr.value.value, self.scope)
                    emit(depth, f"if not equal({attributes}[{key}], {wanted}):")
                    emit(depth + 1, fail)
                elif kind is A.AttrBind:
                    name = attr.value.name
                    value = self.gen.temp()
                    emit(depth, f"{value} = {attributes}[{key}]")
                    if name in self.scope:
                        emit(depth, f"if not equal({self.scope[name]}, {value}):")
                        emit(depth + 1, fail)
                        # as `bind` does: the variable now holds the value seen last (equal,
                        # but maybe not the same: 1 and 1.0, a symbol and its text)
                        self.scope[name] = value
                    else:
                        self.bind_var(name, value)
        specs = node.operands
        if specs is not None:
            fixed = len(specs) - (1 if node.rest is not None else 0)
            count = f"{local}.num_operands"
            if node.rest is not None:
                emit(depth, f"if {count} < {fixed}:")
            else:
                emit(depth, f"if {count} != {fixed}:")
            emit(depth + 1, fail)
            node_const = const(node)
            for position, spec in enumerate(specs):
                if spec.kind in ("rest", "any"):
                    continue
                value = self.gen.temp()
                emit(depth, f"{value} = operand_at({local}, {node_const}, {position})")
                if spec.kind == "value":
                    emit(depth, f"if {value} is None:")
                    emit(depth + 1, fail)
                    if spec.name in self.scope:
                        emit(depth, f"if {self.scope[spec.name]} is not {value}:")
                        emit(depth + 1, fail)
                    else:
                        self.bind_var(spec.name, value)
                        self.value_vars.add(spec.name)
                else:
                    target = self.bound_node_local(spec.name)
                    if target is not None:
                        emit(depth, f"if not linked({value}, {target}, {const(spec)}):")
                        emit(depth + 1, fail)
        for parent, position in self.backrefs.get(node.index, ()):
            parent_node = self.rule.nodes[parent]
            parent_local = self.node_locals.get(parent)
            if parent_local is None or parent == node.index:
                if parent == node.index:
                    raise Unsupported("a pattern reading its own result")
                continue
            value = self.gen.temp()
            emit(depth, f"{value} = operand_at({parent_local}, {const(parent_node)}, {position})")
            emit(depth, f"if not linked({value}, {local}, "
                        f"{const(parent_node.operands[position])}):")
            emit(depth + 1, fail)

    def bound_node_local(self, name: str):
        """The local of the bound pattern whose variable is `name`, or None."""
        for node in self.rule.nodes:
            if node.var == name and node.index in self.node_locals:
                return self.node_locals[node.index]
        return None

    # ---- candidates -----------------------------------------------------------------------------
    def candidates(self, node) -> str:
        """`RuleMatcher.candidates` for `node`, decided now (what is bound at this step is
        known): a producer, users, an attribute index lookup, or every op of the names."""
        const = self.gen.const
        for parent, position in self.backrefs.get(node.index, ()):
            parent_local = self.node_locals.get(parent)
            if parent_local is not None:
                value = f"operand_at({parent_local}, {const(self.rule.nodes[parent])}, {position})"
                t = self.gen.temp()
                return (f"(([{t}.owner] if {t}.owner is not None else []) "
                        f"if ({t} := {value}) is not None else [])")
        for spec in node.operands or ():
            if spec.kind in ("op", "result", "nested"):
                target = self.bound_node_local(spec.name)
                if target is not None:
                    return f"users_of({target}.results)"
            if spec.kind == "value" and spec.name in self.value_vars:
                return f"{self.scope[spec.name]}.users()"
        for attr in node.attrs:
            name = getattr(attr.value, "name", None)
            if name is not None and name in self.scope and attr.key in self.join_keys:
                return (f"index.lookup(('attr', {attr.key!r}, "
                        f"hashable({self.scope[name]})))")
        return f"index.named({const(node.names)})"
