"""A matching plan compiled into Python: one function, or lines inlined in an op name's dispatch.

`compile_plan(rule, plan, backrefs, join_keys)` returns `match(item, ctx, index)`, which finds
what `RuleMatcher.attempt` finds for a rule whose plan is a sequence of op patterns ("node"
steps, and the "region" step of a `match region`; not `inside`, not a value rule): the same
candidates in the same order, the same checks in the same order (names, an op matched twice,
attributes, operands, links to bound patterns, the `where` terms scheduled at each step), the
same first match, the same errors. Each step is a `for` loop over its candidates, nested in the
previous step's, with the variables bound so far held in Python locals; the `where` terms are
inlined. A region step scans forward from its start op to the first op its end pattern accepts,
collecting the body. `PlanEmitter` writes the same lines into a caller's function (the dispatch
function of `codegen/dispatch.py` inlines every rule of an op name this way).

`attempt` (with `bind`, `search`, `candidates`) stays the reference, used in explain mode and for
the other plans; the test suite compares the two (tests/test_engine_compiled_paths.py).
"""

from __future__ import annotations

import attrs

from rulepass.engine.rewrite.codegen.exprs import ScopedGen, Unsupported
import rulepass.engine.lang.nodes as A
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.rewrite.bindings import Match, linked, operand_at, users_of
from rulepass.engine.rewrite.exprs import equal
from rulepass.engine.rewrite.index import hashable

#: Python's limit on statically nested blocks is 20; a plan nesting deeper is walked instead.
MAX_LOOPS = 16


def compile_plan(rule, plan, backrefs: dict, join_keys):
    """The function `(item, ctx, index) -> Match | None` for `plan`, or None when the plan has
    a step this compiler does not translate (the matcher then walks it)."""
    if not compilable(rule, plan):
        return None
    gen = PlanGen()
    lines: list[str] = []
    try:
        emitter = PlanEmitter(rule, plan, backrefs, tuple(join_keys), gen, lines)
        emitter.emit(1, "item", "return None", lambda depth, env, ops: [
            f"return Match({gen.const(rule)}, {env}, {ops})"], root_is_op=False)
        lines.append("    return None")
        source = "def _match(item, ctx, index):\n" + "\n".join(lines) + "\n"
        return gen.function(source, "_match")
    except Unsupported:
        return None


def compilable(rule, plan) -> bool:
    """Whether `PlanEmitter` translates `plan`: op patterns and at most one region step, no
    `inside`, not a value rule, not nested too deep."""
    if rule.kind == "value":
        return False
    kinds = [step[0] for step in plan.steps]
    if any(k not in ("node", "region") for k in kinds) or kinds.count("region") > 1:
        return False
    return len(kinds) <= MAX_LOOPS


#: "No such attribute" in generated code (attributes never hold it).
_NO = object()
#: Types whose equal values of the same type are `equal` exactly when they are `==`.
_SCALARS = frozenset({int, str, bool, float})
#: Element types `normalize` leaves as they are (and that a literal list may hold here).
_PLAIN = frozenset({int, str, bool, float})


def _equal_plain_list(value, wanted: tuple, as_list: list) -> bool:
    """`equal(value, as_list)` for a list of int, string and float literals (`wanted`, the
    same items as a tuple): an attribute list (a tuple) equal to it item by item is equal; one
    that is not, and holds only items `normalize` leaves alone, is not; anything else is
    decided by `equal`."""
    if type(value) is tuple or type(value) is list:  # (an op made in Python may hold a list)
        if value == wanted or value == as_list:
            return True
        if len(value) != len(wanted):
            return False
        for item in value:
            if type(item) not in _PLAIN:
                return equal(value, as_list)
        return False
    return equal(value, as_list)


#: built-in -> its value for an op held in local {x} (what `exprs` computes for an op)
_OF_OP = {
    "opname": "{x}.name",
    "role": "{x}.op_role",
    "uses": "_op_uses({x})",
    "results": "list({x}.results)",
    "operands": "[_v if _v is not None else ABSENT for _v in {x}._operands]",
}


@attrs.frozen
class JoinBuckets:
    """In a generated function's constants: the index buckets of join key `key`
    (`ProgramIndex.buckets`), bound when the function is made for a matcher."""

    key: str


class PlanGen(ScopedGen):
    """The generator of match code: a ScopedGen that knows which locals hold ops (the bound
    patterns), so a field of one reads its attributes without testing its type."""

    def __init__(self):
        super().__init__()
        self.op_locals: set[str] = set()
        #: the local holding `item.attributes`, where the generated function keeps one
        self.item_attributes: str | None = None
        #: join key -> the global name of its index buckets, which the code reads directly
        #: (`JoinBuckets` placeholders its maker replaces with `ProgramIndex.buckets`); None:
        #: the code asks `index.with_attr` (a function shared by every run, whatever its index)
        self.join_buckets: dict | None = None
        self.globals.update(_NO=_NO, _SCALARS=_SCALARS, _equal_plain_list=_equal_plain_list)

    def test(self, e, scope: dict) -> str:
        """Python expression text whose truth is `e`'s, for a test (an `if`, the `and` of a
        `where`'s terms): what `bool(expr(e))` answers, without the `bool` calls `and`, `or`
        and `not` need only when their value is kept."""
        kind = type(e)
        if kind is A.AndOp:
            return f"({self.test(e.left, scope)} and {self.test(e.right, scope)})"
        if kind is A.OrOp:
            return f"({self.test(e.left, scope)} or {self.test(e.right, scope)})"
        if kind is A.NotOp:
            return f"(not {self.test(e.operand, scope)})"
        return self.expr(e, scope)

    def x_Call(self, e, scope):
        # a built-in of one bound op: its answer read directly (what the built-in gives an op)
        template = _OF_OP.get(e.func)
        if template is not None and len(e.args) == 1 and isinstance(e.args[0], A.Var) \
                and scope.get(e.args[0].name) in self.op_locals:
            local = scope[e.args[0].name]
            if e.func == "uses":  # one result (most ops): its use count read in place
                r = self.temp()
                return (f"({r}[0]._num_uses if len({r} := {local}.results) == 1 "
                        f"else _op_uses({local}))")
            return template.format(x=local)
        return super().x_Call(e, scope)

    def x_Field(self, e, scope):
        base = e.base
        if isinstance(base, A.Var) and scope.get(base.name) in self.op_locals:
            local = scope[base.name]
            if e.name == "dist":
                t = self.temp()
                return f"({t} if ({t} := {local}.dist_attr) is not None else ABSENT)"
            if local == "item" and self.item_attributes is not None:
                return f"{self.item_attributes}.get({e.name!r}, ABSENT)"
            return f"{local}.attributes.get({e.name!r}, ABSENT)"
        return super().x_Field(e, scope)


class PlanEmitter:
    """Writes the lines matching one plan into `lines` (see the module docstring)."""

    def __init__(self, rule, plan, backrefs, join_keys, gen: PlanGen, lines: list):
        self.rule, self.plan, self.backrefs, self.join_keys = rule, plan, backrefs, join_keys
        self.gen = gen
        gen.globals.update(Operation=Operation, Value=Value, Match=Match, linked=linked,
                           operand_at=operand_at, users_of=users_of, hashable=hashable,
                           position_key=Operation.position_key)
        self.lines = lines
        self.scope: dict[str, str] = {}     # rule variable -> local
        self.order: list[str] = []          # rule variables in binding order (the env's order)
        self.node_locals: dict[int, str] = {}  # node index -> local, once bound
        self.value_vars: set[str] = set()   # variables bound to operand values
        self.prefix = f"r{gen.temp()}_"     # locals of this plan, apart from other plans'

    def emit_line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def bind_var(self, name: str, local: str) -> None:
        self.scope[name] = local
        self.order.append(name)

    def emit(self, depth: int, root: str, top_fail: str, success, root_is_op: bool) -> int:
        """Lines matching the plan with its root bound to the local `root`, from indentation
        `depth`; `top_fail` leaves the plan when the root does not fit; `success(depth, env
        text, ops text)` gives the lines run at a match. `root_is_op`: the root is known to be
        an op (the dispatch function's item). Returns the depth of the innermost step."""
        rule, plan = self.rule, self.plan
        fail = top_fail
        for k, step in enumerate(plan.steps):
            if step[0] == "region":
                depth = self.region(depth, fail)  # fails as the step around it fails
            else:
                node = rule.nodes[step[1]]
                local = f"{self.prefix}n{node.index}"
                if k == 0:
                    self.emit_line(depth, f"{local} = {root}")
                    fail = top_fail
                else:
                    self.emit_line(depth, f"for {local} in {self.candidates(node)}:")
                    depth += 1
                    fail = "continue"
                # a later step's candidates are ops (`candidates`): only their name is tested
                self.bind_node(node, local, depth, fail, first=(k == 0),
                               checked=(k == 0 and root_is_op), is_op=k > 0)
            terms = [t for t in plan.checks[k]
                     if not (isinstance(t, A.Literal) and t.value is True)]  # `where true`
            if terms:
                test = " and ".join(self.gen.test(t, self.scope) for t in terms)
                self.emit_line(depth, f"if not ({test}):")
                self.emit_line(depth + 1, fail)
        env = "{" + ", ".join(f"{name!r}: {self.scope[name]}" for name in self.order) + "}"
        ops = [self.node_locals[n.index] for n in rule.nodes]
        if len(ops) == 2:
            first, second = ops
            ops_text = (f"(({first}, {second}) if {first}.is_before({second}) "
                        f"else ({second}, {first}))")
        elif len(ops) > 2:
            sorted_ops = self.gen.temp()
            self.emit_line(depth, f"{sorted_ops} = [{', '.join(ops)}]")
            self.emit_line(depth, f"{sorted_ops}.sort(key=position_key)")
            ops_text = f"tuple({sorted_ops})"
        else:
            ops_text = f"({ops[0]},)"
        for line in success(depth, env, ops_text):
            self.emit_line(depth, line)
        return depth

    def emit_guard(self, depth: int, root: str, fail: str) -> None:
        """The root pattern's checks and the `where` terms scheduled after it (the plan's first
        step), with the root in local `root` (an op whose name the pattern accepts): lines
        that run `fail` when the plan cannot match at this op, before the matcher walks the
        rest of it (an `inside` rule, say)."""
        step = self.plan.steps[0]
        if step[0] != "node":
            raise Unsupported("the plan does not start at a pattern")
        node = self.rule.nodes[step[1]]
        local = f"{self.prefix}n{node.index}"
        self.emit_line(depth, f"{local} = {root}")
        self.bind_node(node, local, depth, fail, first=True, checked=True)
        terms = [t for t in self.plan.checks[0]
                 if not (isinstance(t, A.Literal) and t.value is True)]
        if terms:
            test = " and ".join(self.gen.test(t, self.scope) for t in terms)
            self.emit_line(depth, f"if not ({test}):")
            self.emit_line(depth + 1, fail)

    # ---- one pattern ----------------------------------------------------------------------------
    def bind_node(self, node, local: str, depth: int, fail: str, first: bool,
                  checked: bool = False, is_op: bool = False) -> None:
        """The checks of `RuleMatcher.bind` for `node` bound to `local`, in its order.
        `checked`: `local` is the dispatch function's item, an op whose name the node accepts
        (its attributes are that function's local `attributes`);
        `is_op`: `local` is an op (a candidate), its name not yet tested."""
        emit, const = self.emit_line, self.gen.const
        if not checked and not is_op:
            emit(depth, f"if type({local}) is not Operation:")
            emit(depth + 1, fail)
        if node.names is not None and not checked:
            if len(node.names) == 1:
                emit(depth, f"if {local}.name != {next(iter(node.names))!r}:")
            else:
                emit(depth, f"if {local}.name not in {const(node.names)}:")
            emit(depth + 1, fail)
        if not first:
            bound = list(self.node_locals.values())
            if bound:
                emit(depth, "if " + " or ".join(f"{local} is {b}" for b in bound) + ":")
                emit(depth + 1, fail)
        self.node_locals[node.index] = local
        self.gen.op_locals.add(local)
        self.bind_var(node.var, local)
        if node.attrs:
            if checked:
                attributes = "attributes"  # the dispatch function's item's, read once there
            else:
                attributes = f"{self.prefix}a{node.index}"
                emit(depth, f"{attributes} = {local}.attributes")
            for attr in node.attrs:
                key = repr(attr.key)
                kind = type(attr.value)
                if kind is A.AttrEqual:
                    value = self.gen.temp()
                    wanted = attr.value.value
                    items = wanted.items if isinstance(wanted, A.ListExpr) else None
                    if items and all(isinstance(i, A.Literal) and type(i.value) in
                                     (int, str, float) for i in items):
                        plain = tuple(i.value for i in items)
                        emit(depth, f"if ({value} := {attributes}.get({key}, _NO)) is _NO or "
                                    f"not _equal_plain_list({value}, {const(plain)}, "
                                    f"{const(list(plain))}):")
                    elif isinstance(wanted, A.Literal) and type(wanted.value) is bool:
                        # equal(v, True) holds for True alone (a bool equals only bools)
                        emit(depth, f"if {attributes}.get({key}, _NO) is not {wanted.value!r}:")
                    elif isinstance(wanted, A.Literal) and type(wanted.value) in (int, str):
                        # against an int or string literal: the same-typed value compares with
                        # ==, anything else through equal (what equal answers)
                        literal = repr(wanted.value)
                        emit(depth, f"if ({value} := {attributes}.get({key}, _NO)) is _NO or "
                                    f"not (({value} == {literal}) if type({value}) is "
                                    f"{type(wanted.value).__name__} "
                                    f"else equal({value}, {literal})):")
                    else:
                        emit(depth, f"if {key} not in {attributes}:")
                        emit(depth + 1, fail)
                        text = self.gen.expr(wanted, self.scope)
                        emit(depth, f"if not equal({attributes}[{key}], {text}):")
                    emit(depth + 1, fail)
                elif kind is A.AttrBind:
                    name = attr.value.name
                    value = self.gen.temp()
                    emit(depth, f"if ({value} := {attributes}.get({key}, _NO)) is _NO:")
                    emit(depth + 1, fail)
                    if name in self.scope:
                        bound = self.scope[name]
                        emit(depth, f"if not (({bound} == {value}) if type({bound}) is "
                                    f"type({value}) and type({value}) in _SCALARS "
                                    f"else equal({bound}, {value})):")
                        emit(depth + 1, fail)
                        # as `bind` does: the variable now holds the value seen last (equal,
                        # but maybe not the same: 1 and 1.0, a symbol and its text)
                        self.scope[name] = value
                    else:
                        self.bind_var(name, value)
                else:
                    emit(depth, f"if {key} not in {attributes}:")
                    emit(depth + 1, fail)
        specs = node.operands
        if specs is not None:
            fixed = len(specs) - (1 if node.rest is not None else 0)
            operands = f"{self.prefix}o{node.index}"
            # the op's own list, not the copy `operands` makes: the match only reads it
            emit(depth, f"{operands} = {local}._operands")
            if node.rest is not None:
                emit(depth, f"if len({operands}) < {fixed}:")
            else:
                emit(depth, f"if len({operands}) != {fixed}:")
            emit(depth + 1, fail)
            for position, spec in enumerate(specs):
                if spec.kind in ("rest", "any"):
                    continue
                value = self.gen.temp()
                emit(depth, f"{value} = {self.operand(operands, node, position)}")
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
            emit(depth, f"{value} = {self.operand_of(parent_node, parent_local, position)}")
            emit(depth, f"if not linked({value}, {local}, "
                        f"{const(parent_node.operands[position])}):")
            emit(depth + 1, fail)

    def operand(self, operands: str, node, position: int) -> str:
        """`operand_at(op, node, position)` on the op's operand list `operands`, whose length
        the pattern has checked (so an index before `..` is in range)."""
        if node.rest is not None and position > node.rest:
            return f"{operands}[{position - len(node.operands)}]"
        return f"{operands}[{position}]"

    def operand_of(self, node, local: str, position: int) -> str:
        """`operand_at(op, node, position)` of the bound pattern `node` (held in `local`):
        read from its operand list, which `bind_node` checked, when there is one."""
        if node.operands is not None and node.index in self.node_locals:
            return self.operand(f"{self.prefix}o{node.index}", node, position)
        return f"operand_at({local}, {self.gen.const(node)}, {position})"

    def bound_node_local(self, name: str):
        """The local of the bound pattern whose variable is `name`, or None."""
        for node in self.rule.nodes:
            if node.var == name and node.index in self.node_locals:
                return self.node_locals[node.index]
        return None

    # ---- a region ---------------------------------------------------------------------------------
    def region(self, depth: int, fail: str) -> int:
        """`t .. f as body` (`RuleMatcher.region`): the first op after the start op in its block
        that the end pattern accepts, the ops between them the body. Returns the depth after."""
        rule = self.rule
        start = next(n for n in rule.nodes if n.role == "start" and n.parent is None)
        end = next(n for n in rule.nodes if n.role == "end" and n.parent is None)
        start_local = self.node_locals.get(start.index)
        if start_local is None:
            raise Unsupported("a region whose start is not bound")
        body, current = f"{self.prefix}body", f"{self.prefix}cur"
        local = f"{self.prefix}n{end.index}"
        self.emit_line(depth, f"{body} = []")
        self.emit_line(depth, f"{current} = {start_local}.next_op")
        # a while loop: an op the end pattern refuses joins the body (`continue`); the loop's
        # `else` (no op accepted) is the region's failure
        self.emit_line(depth, f"while {current} is not None:")
        inner = depth + 1
        self.emit_line(inner, f"{local} = {current}")
        self.emit_line(inner, f"{current} = {local}.next_op")
        self.bind_node(end, local, inner, f"{body}.append({local}); continue", first=False,
                       is_op=True)
        self.emit_line(inner, "break")
        self.emit_line(depth, "else:")
        self.emit_line(depth + 1, fail)
        if rule.body_var:
            self.bind_var(rule.body_var, body)
        return depth

    def join_candidates(self, key: str, value: str) -> str:
        """The ops filed under `key` = the local `value`: `index.with_attr`, or where the
        generated function holds the key's buckets (`PlanGen.join_buckets`), the one op of a
        bucket read from them inline (most values are one op's: an op_id) and
        `with_attr` only for a bucket of several (which it orders)."""
        gen = self.gen
        if gen.join_buckets is None:
            return f"index.with_attr({key!r}, {value})"
        name = gen.join_buckets.get(key)
        if name is None:
            name = gen.join_buckets[key] = f"JB{len(gen.join_buckets)}"
            gen.globals[name] = JoinBuckets(key)
        b = gen.temp()
        found = (f"{name}.get({value} if type({value}) is int or type({value}) is str "
                 f"else hashable({value}))")
        return (f"(() if ({b} := {found}) is None else ({b},) if type({b}) is Operation "
                f"else index.with_attr({key!r}, {value}))")

    # ---- candidates -----------------------------------------------------------------------------
    def candidates(self, node) -> str:
        """`RuleMatcher.candidates` for `node`, decided now (what is bound at this step is
        known): a producer, users, an attribute index lookup, or every op of the names; each
        candidate is an op (`bind_node` tests its name, not its type)."""
        const = self.gen.const
        for parent, position in self.backrefs.get(node.index, ()):
            parent_local = self.node_locals.get(parent)
            if parent_local is not None:
                value = self.operand_of(self.rule.nodes[parent], parent_local, position)
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
                return self.join_candidates(attr.key, self.scope[name])
        return f"index.named({const(node.names)})"
