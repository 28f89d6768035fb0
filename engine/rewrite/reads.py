"""What a pass's rules read, as far as the fixpoint driver needs to know it.

After an application the fixpoint driver revisits the ops it touched and, for a structural change
(an op inserted or erased, an operand replaced, a value retyped), their neighbours too: the
producers of their operands, the readers of their results and the ops beside them. A change of
attributes alone reaches a neighbour's match only through a rule that reads an op's attributes
across an operand edge — a pattern of two or more ops (`sp = pd_op.split_with_num(ar, _)` reads
`ar`'s `{reduce_type: 0}`), an attribute of an op a function returned (`producer(x).chunk_id`) —
or through a registered function, whose reads the engine cannot see. `neighbour_keys(cpass)` is
the set of attribute keys the pass's rules read that way, or None when a registered function (or
a value rule) may read any; the driver revisits the neighbours of an op whose attribute changed
only when its key is in that set. MLIR's greedy driver, likewise, puts only a modified op back
on its worklist (`GreedyPatternRewriteDriver::notifyOperationModified`).

`join_keys_of(cpass)` is the set the op index files ops by: the attribute keys the rules join
patterns on.

`confirm_rules(cpass)` are the rules the final full round (the one that finds the fixpoint) must
try: those the worklist does not follow (`followed`). A rule is tried from each of its pattern
ops, so a join's partner (`f = * {op_id: k}` with `g = * {grad_of: k}`), changed, finds the match
itself; what no revisit reaches — the ops of a region rule's body, a position, the readers of a
reader — is the final round's. The result is a fixpoint either way (guarantee 1 of
docs/rule-language.md).
"""

from __future__ import annotations

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.rewrite.compiled import CompiledPass
from rulepass.engine.lang.builtins import BUILTINS
from rulepass.engine.lang.check import children
from rulepass.engine.rewrite.functions import REGISTRY

#: Built-ins that read an attribute of the op they are given (`role(o)` is `o.op_role`), or of a
#: neighbour of it (`split_axis` reads the `value` of the `pd_op.full` producing operand 1).
_BUILTIN_KEYS = {"role": ("op_role",), "split_axis": ("axis", "value")}

#: The attribute names a `.dist` field reads (`set o.dist = ...` reports `op_dist_attr`).
_DIST = ("dist", "op_dist_attr")


class _Opaque(Exception):
    """A read the analysis cannot bound (a registered function, a value rule)."""


def neighbour_keys(cpass) -> frozenset | None:
    """The attribute keys whose change at one op can change whether a rule of `cpass` (a
    `CompiledPass`) matches at a neighbouring op; None when any key may (a rule calls a
    registered function, or matches a value). Over-approximates: every field name read through
    anything but a lone pattern op counts, whether or not it names an attribute."""
    keys: set[str] = set()
    try:
        for rule in cpass.rules:
            _rule_keys(rule, keys)
    except _Opaque:
        return None
    return frozenset(keys)


def _rule_keys(rule, keys: set) -> None:
    """Add the keys `rule` reads across ops to `keys`; raises _Opaque."""
    if rule.kind == "value":
        raise _Opaque
    nodes = rule.nodes
    linked = _linked_nodes(nodes) if rule.kind == "ops" else {n.index for n in nodes}
    for node in nodes:
        if node.role != "match":  # a region's or `inside`'s bounds: kept conservative
            linked.add(node.index)
        if node.index in linked:
            keys.update(attr.key for attr in node.attrs)
    # a field of a lone pattern op reads that op only, which is revisited itself
    lone = frozenset(n.var for n in nodes if n.index not in linked)
    decl = rule.decl
    for let in decl.lets:
        _expr_keys(let.value, lone, keys, set())
    if decl.where is not None:
        _expr_keys(decl.where, lone, keys, set())


def _linked_nodes(nodes) -> set:
    """Indices of the pattern nodes joined to another node by an operand edge (one reads the
    other's result, or is nested in its operand list)."""
    by_var = {node.var: node.index for node in nodes}
    linked: set[int] = set()
    for node in nodes:
        if node.parent is not None:
            linked.update((node.index, node.parent[0]))
        for spec in node.operands or ():
            other = None
            if spec.kind in ("op", "result"):
                other = by_var.get(spec.name)
            elif spec.kind == "nested":
                other = spec.index
            if other is not None and other != node.index:
                linked.update((node.index, other))
    return linked


def _expr_keys(expr, lone: frozenset, keys: set, seen_defs: set) -> None:
    """Add the field names `expr` reads through anything but a lone pattern op (the names in
    `lone`) to `keys`; a `def`'s body counts every field it reads. Raises _Opaque at a call of
    a live registered function, or of one given an argument other than a literal or a param."""
    if isinstance(expr, A.Field):
        base = expr.base
        if not (isinstance(base, A.Var) and base.name in lone):
            keys.update(_DIST if expr.name in _DIST else (expr.name,))
    elif isinstance(expr, A.Quantifier):
        # the bound name hides a pattern op of the same name in the body
        _expr_keys(expr.seq, lone, keys, seen_defs)
        _expr_keys(expr.body, lone - {expr.var}, keys, seen_defs)
        return
    elif isinstance(expr, A.Call):
        args = expr.args
        if expr.func in BUILTINS:
            if not (expr.func == "role" and isinstance(args[0], A.Var) and args[0].name in lone):
                keys.update(_BUILTIN_KEYS.get(expr.func, ()))
        else:
            registered = REGISTRY.get(expr.func)
            # one given only literals and params, not live, is answered before the pass
            # changes anything; any other may read any op
            if registered is None or registered.live or not all(
                    isinstance(arg, (A.Literal, A.ParamRef)) for arg in args):
                raise _Opaque
    elif isinstance(expr, A.DefCall) and id(expr.decl) not in seen_defs:
        seen_defs.add(id(expr.decl))
        _expr_keys(expr.decl.body, frozenset(), keys, seen_defs)
    for child in children(expr):
        _expr_keys(child, lone, keys, seen_defs)


#: Built-ins whose answer depends on their arguments alone (an op's own name, attributes,
#: operands and result types, a value's type, plain data): `type(x)` of a value read by a
#: pattern op changes only through a retype, which revisits its readers.
_PURE = frozenset({"has", "len", "str", "int", "min", "max", "abs", "range", "sum", "any", "all",
                   "first", "type", "local_type"})
#: Built-ins that read the op they are given: followed when it is an op of the pattern.
_OF_OP = frozenset({"role", "opname", "operands", "results", "uses"})
#: Built-ins that read the program's process groups, which only a registered function adds.
_GROUPS = frozenset({"group_size", "group_rank"})


def followed(rule, groups_fixed: bool) -> bool:
    """Whether the fixpoint's worklist follows every read of `rule` (a `CompiledRule`), so that
    once the worklist is empty the rule matches nowhere and the final full round need not try
    it. It does for an `ops` rule without `inside` whose lets and `where` read only the ops its
    patterns bind (names, attributes, dist attributes, operands, result types, use counts), the
    types of the values those ops read, attribute values, params and literals, and, with
    `groups_fixed` (nothing in the pass adds a process group), group sizes and ranks; a rule of
    several ops must also have a `where` that cannot fail (`_cannot_fail`, below).

    Why: every pattern op is a root the rule is tried from (`RuleMatcher.roots`), and every
    change to what the rule reads of an op sends the driver back to that op (`Changes`: an
    attribute set, an operand replaced, a value retyped, a reader added or gone). When the
    worklist is empty each op was visited after its last change; of the ops of a match, the one
    visited last saw them all as they are at the end, and its dispatch, trying the rule from
    it, would have matched. Anything else the rule may read (a producer, users, a neighbour in
    the block, a region's body, a position, a registered function, a `def`, a quantifier) sends
    the rule to the final round."""
    decl = rule.decl
    if rule.kind != "ops" or not isinstance(decl.match, A.MatchOps) or decl.match.inside:
        return False
    ops = frozenset(rule.op_vars)
    try:
        for let in decl.lets:
            _own_reads(let.value, ops, groups_fixed)
        if decl.where is not None:
            _own_reads(decl.where, ops, groups_fixed)
    except _Opaque:
        return False
    # A rule of one op tests its `where` on that op alone, the same way each time. A rule of
    # several tests each term as soon as its ops are bound, in an order that depends on the op
    # it starts from: a term that can fail (`b.z // a.w`) may be reached from one op and cut
    # short by a false term from another, so the round of every rule would meet the error the
    # worklist did not. Only a `where` that cannot fail leaves it the same.
    if len(rule.nodes) > 1 and decl.where is not None:
        return _cannot_fail(decl.where, ops, frozenset(rule.value_vars))
    return True


def _cannot_fail(expr, ops: frozenset, values: frozenset) -> bool:
    """Whether evaluating `expr` never raises an EvalError: equality, `and`/`or`/`not`, `??`,
    `has`, conditionals and lists over names, literals, params, the fields of ops and values
    (`ops`, `values`: their variables; a field of anything else may not exist), the use
    counts of ops and values, the roles and names of ops, and group sizes and ranks."""
    kind = type(expr)
    if kind in (A.Literal, A.ParamRef, A.Var):
        return True  # (not `o#i`: an op may have fewer results)
    if kind is A.Field:
        return type(expr.base) is A.Var and (expr.base.name in ops or expr.base.name in values)
    if kind is A.Compare:
        if expr.op not in ("==", "!="):
            return False  # an order between two kinds of value fails
    elif kind is A.Call:
        func, args = expr.func, expr.args
        if func in ("uses", "role", "opname"):
            arg = args[0]
            takes = ops | values if func == "uses" else ops
            return type(arg) is A.Var and arg.name in takes
        if func not in ("has", "group_size", "group_rank"):
            return False
    elif kind not in (A.OrOp, A.AndOp, A.NotOp, A.CoalesceOp, A.Conditional, A.ListExpr,
                      A.LetRef):
        return False
    return all(_cannot_fail(child, ops, values) for child in children(expr))


def _own_reads(expr, ops: frozenset, groups_fixed: bool) -> None:
    """Return when `expr` reads only what `followed` allows (`ops`: the pattern's op
    variables); raises _Opaque otherwise."""
    kind = type(expr)
    if kind in (A.Literal, A.ParamRef, A.Var):
        return  # a variable of the match: a pattern op, a value one reads, an attribute value
    if kind is A.ResultRef:
        if expr.name not in ops:
            raise _Opaque
        return
    if kind is A.Call:
        func = expr.func
        if func in _OF_OP:
            arg = expr.args[0]
            if not (type(arg) in (A.Var, A.ResultRef) and arg.name in ops):
                raise _Opaque
            return
        if func not in _PURE and not (groups_fixed and func in _GROUPS):
            raise _Opaque  # a read of other ops, a position, or a registered function
    elif kind in (A.Quantifier, A.DefCall) or kind not in _CHILD_KINDS:
        raise _Opaque
    # (a field is read of what its base gives, and the reads above reach no op but the
    # pattern's: `type(x).shape`, `o.chunk_id`)
    for child in children(expr):
        _own_reads(child, ops, groups_fixed)


#: The expression nodes `_own_reads` looks into (the rest are leaves or refused).
_CHILD_KINDS = frozenset({A.OrOp, A.AndOp, A.NotOp, A.Compare, A.InOp, A.NotInOp, A.CoalesceOp,
                         A.Arith, A.Negate, A.Field, A.Subscript, A.ListExpr, A.Conditional,
                         A.LetRef})


def confirm_rules(cpass) -> list:
    """The rules of `cpass` the fixpoint's final full round must try, in their order: those
    the worklist does not follow (`followed`); empty when it follows them all, and the round
    is skipped."""
    groups_fixed = not registered_calls(cpass)  # (only a registered function adds a group)
    return [rule for rule in cpass.rules if not followed(rule, groups_fixed)]


def join_keys_of(cpass) -> set[str]:
    """The attribute keys the pass's rules join patterns on: a key bound to a variable that
    another pattern of the rule binds from an attribute too (`f = * {op_id: k}` with
    `g = * {grad_of: k}`: op_id and grad_of). The index files ops by these; an attribute
    bound in one pattern only (`{chunk_id: c}` read by `where`) is never looked up."""
    keys: set[str] = set()
    for rule in cpass.rules:
        nodes_of: dict[str, set] = {}
        for node in rule.nodes:
            for attr in node.attrs:
                if isinstance(attr.value, A.AttrBind):
                    nodes_of.setdefault(attr.value.name, set()).add(node.index)
        for node in rule.nodes:
            for attr in node.attrs:
                if isinstance(attr.value, A.AttrBind) and len(nodes_of[attr.value.name]) > 1:
                    keys.add(attr.key)
    return keys


#: id(pass) -> (pass, its registered calls): a pass's rules are walked once, not at every run
_CALLS: dict[int, tuple] = {}


def registered_calls(cpass: CompiledPass) -> list:
    """The calls of registered functions in a pass's rules (`where`, lets, rewrite actions and
    pattern attribute values), each call node once (found once per pass: memoised)."""
    found = _CALLS.get(id(cpass))
    if found is None or found[0] is not cpass:
        if len(_CALLS) > 10_000:
            _CALLS.clear()
        found = _CALLS[id(cpass)] = (cpass, find_calls(cpass))
    # the registry is read now: a function may be registered or dropped between runs
    return [call for call in found[1] if call.func in REGISTRY]


def find_calls(cpass: CompiledPass) -> list:
    """The calls of named functions in a pass's rules, each call node once: a walk of every
    field of the rules' declarations (patterns, lets, `where`, every action and its parts:
    a `replace ... in` list's expression too), a `def`'s body as part of each call of it."""
    calls: dict = {}
    stack: list = [rule.decl for rule in cpass.rules]
    # Each node once: a list's items are both `items` and `children` of it, and without this
    # nested lists were pushed 2^depth times.
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node)
        if kind is tuple or kind is list:
            stack.extend(node)
            continue
        if kind is A.Call:
            calls[id(node)] = node
        if kind is A.Span or not attrs.has(kind):
            continue  # a leaf: a name, a number, a place in the file
        for field in attrs.fields(kind):
            value = getattr(node, field.name)
            if value is not None and not isinstance(value, (str, int, float)):
                stack.append(value)
    return list(calls.values())
