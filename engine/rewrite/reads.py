"""Which attribute changes can make a rule match at another op next to the changed one.

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

`join_keys_of(cpass)` is the other set the driver reads from a pass: the attribute keys its
rules join patterns on, which the op index files ops by.

What is left to the final full round, as before: a join's partner (`f = * {op_id: k}` with
`g = * {grad_of: k}` share no operand edge: the index, not adjacency, finds the partner) and the
ops of a region rule's body other than the one next to the bound. The result is still a fixpoint
(guarantee 1 of docs/rule-language.md); only when such a match becomes possible does it come one
round later than if its ops happened to be neighbours.
"""

from __future__ import annotations

import rulepass.engine.lang.nodes as A
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
