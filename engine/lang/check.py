"""Meaning checks of one pass: variables bound before use, params declared and well typed,
functions known and called with the right number of arguments, `set` targets that exist.

Runs before any program is seen; every problem is a `RuleCompileError` at the offending text.
"""

from __future__ import annotations

import attrs

import rulepass.engine.lang.nodes as A

#: `set`/`unset` paths below an op variable that mean something besides a plain attribute.
DIST_PATHS = {("dist",), ("dist", "chunk_id"), ("dist", "mesh")}

PARAM_TYPES = {"int": "an int", "float": "a float", "bool": "a bool (true/false)", "str": "a string"}


def check_value_type(type_name: str, value, span: A.Span, sources) -> None:
    """RuleCompileError unless `value` fits a param of type `type_name`."""
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
        "str": isinstance(value, str),
    }.get(type_name, False)
    if not ok:
        raise sources.error(span, f"expected {PARAM_TYPES.get(type_name, type_name)} for a "
                            f"{type_name} param, got {value!r}")


def pattern_var_kinds(rule: A.RuleDecl, sources=None) -> dict[str, str]:
    """Variables a rule's match binds → "op", "value", "attr", "ops" (a region body).

    With `sources`, raises RuleCompileError for an op bound twice or a name bound as two kinds.
    """
    kinds: dict[str, str] = {}
    spans: dict[str, A.Span] = {}
    patterns: list[A.OpPattern] = A.match_patterns(rule.match)
    match = rule.match
    # Op bindings first, so an operand naming an op is known to mean its result.
    stack = list(reversed(patterns))
    flat = []
    while stack:
        pattern = stack.pop()
        flat.append(pattern)
        for operand in reversed(pattern.operands or ()):
            if isinstance(operand, A.OpPattern):
                stack.append(operand)

    def bind(name: str, kind: str, span: A.Span) -> None:
        previous = kinds.get(name)
        if previous is None:
            kinds[name] = kind
            spans[name] = span
            return
        if sources is None or (previous == kind and kind != "op"):
            return  # the same value or attribute value twice: a join
        if previous == "op" and kind == "value":
            return  # an operand naming a bound op means its only result
        if previous == kind == "op":
            raise sources.error(span, f"{name!r} is bound to two ops (first at {spans[name]}); "
                                "use another name")
        raise sources.error(span, f"{name!r} is bound as {kind_words(previous)} at "
                            f"{spans[name]} and as {kind_words(kind)} here; use two names")

    for pattern in flat:
        if pattern.binding is not None:
            bind(pattern.binding, "op", pattern.span)
    if isinstance(match, A.MatchRegion):
        bind(match.body, "ops", match.span)
    if isinstance(match, A.MatchValue):
        bind(match.name, "value", match.span)
    for pattern in flat:
        for operand in pattern.operands or ():
            if isinstance(operand, A.OperandVar):
                bind(operand.name, "value", operand.span)
        for attr in pattern.attrs:
            if isinstance(attr.value, A.AttrBind):
                bind(attr.value.name, "attr", attr.value.span)
    return kinds


def free_vars(expr) -> set[str]:
    """Variables an expression reads (quantifier variables excluded); no recursion limit issue
    for deep `and` chains because it walks with a stack."""
    out: set[str] = set()
    stack = [(expr, frozenset())]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, A.Var) and node.name not in bound:
            out.add(node.name)
        elif isinstance(node, A.ResultRef) and node.name not in bound:
            out.add(node.name)
        elif isinstance(node, A.Quantifier):
            stack.append((node.seq, bound))
            stack.append((node.body, bound | {node.var}))
        else:
            for child in children(node):
                stack.append((child, bound))
    return out


#: How deep an expression may nest. The engine evaluates expressions recursively (the reference
#: walk) or as Python source (compiled), and both have limits far above anything a rule needs.
MAX_EXPRESSION_DEPTH = 100


def _binary(node) -> list:
    return [node.left, node.right]


def _unary(node) -> list:
    return [node.operand]


#: Expression node class -> its sub-expressions (the one dispatch of the expression walkers
#: here; a new expression node adds its entry, a leaf needs none).
CHILDREN = {
    **dict.fromkeys((A.OrOp, A.AndOp, A.Compare, A.InOp, A.NotInOp, A.CoalesceOp, A.Arith), _binary),
    A.NotOp: _unary, A.Negate: _unary,
    A.Field: lambda node: [node.base],
    A.Subscript: lambda node: [node.base, node.index],
    A.Call: lambda node: list(node.args),
    A.ListExpr: lambda node: list(node.items),
    A.Quantifier: lambda node: [node.seq, node.body],
    A.Conditional: lambda node: [node.cond, node.then, node.orelse],
    A.LetRef: lambda node: [node.value],
    # a def's body reads its own parameters, not the caller's variables: only the arguments
    A.DefCall: lambda node: list(node.args),
}


def children(node) -> list:
    """Sub-expressions of an expression node (`CHILDREN`; none for a leaf)."""
    found = CHILDREN.get(type(node))
    return found(node) if found is not None else []


class PassChecker:
    """Checks one pass; `sources` turns spans into errors."""

    def __init__(self, decl: A.PassDecl, sources, arity, lookup=None):
        self.arity = arity
        self.decl = decl
        self.sources = sources
        self.params = {p.name: p for p in decl.params}
        #: `lookup(name, span)`: the def a call of `name` resolves to in this file, or None
        #: (`lang/defs.py` `Defs.lookup`; None: no defs)
        self.lookup = lookup
        #: ids of the checked expressions (a `where`, a let's value, an action's expression)
        #: holding a call of a def: what `Defs.resolve` has to rewrite
        self.def_roots: set[int] = set()

    def error(self, span: A.Span, message: str):
        """A RuleCompileError at `span`."""
        return self.sources.error(span, message)

    def check(self) -> None:
        """Check params, then every rule."""
        seen: dict[str, A.Span] = {}
        for param in self.decl.params:
            if param.name in seen:
                raise self.error(param.span, f"param {param.name!r} is declared twice")
            seen[param.name] = param.span
            if param.default is not None:
                check_value_type(param.type, constant(param.default, self.sources),
                                 param.default.span, self.sources)
        rules: dict[str, A.Span] = {}
        for rule in self.decl.rules:
            if rule.name in rules:
                raise self.error(rule.span, f"rule {rule.name!r} is defined twice in pass "
                                 f"{self.decl.name!r} (first at {rules[rule.name]})")
            rules[rule.name] = rule.span
            self.check_rule(rule)

    def check_rule(self, rule: A.RuleDecl) -> None:
        """Patterns, where, rewrite."""
        kinds = pattern_var_kinds(rule, self.sources)
        self.check_patterns(rule, kinds)
        scope = dict(kinds)
        let_depths: dict[str, int] = {}
        for let in rule.lets:
            self.check_let(let, scope)
            # `where` reads each let written out (`expand_lets`): a chain of lets nests as deep
            depth = let_depths[let.name] = expanded_depth(let.value, lets=let_depths)
            if depth > MAX_EXPRESSION_DEPTH:
                raise self.error(let.span, f"let {let.name!r} nests {depth} levels deep once "
                                 "the lets it reads are written out; rulepass reads at most "
                                 f"{MAX_EXPRESSION_DEPTH} (read fewer lets in a chain)")
        if rule.where is not None:
            self.check_expr(rule.where, scope)
        self.check_actions(rule.rewrite, scope)

    def check_patterns(self, rule: A.RuleDecl, kinds: dict) -> None:
        """`..` at most once per operand list, `sp#1` names an op, attribute constants."""
        stack = A.match_patterns(rule.match)
        while stack:
            pattern = stack.pop()
            operands = pattern.operands or ()
            if sum(isinstance(o, A.OperandRest) for o in operands) > 1:
                raise self.error(pattern.span, "`..` may appear once in an operand list")
            for operand in operands:
                if isinstance(operand, A.OpPattern):
                    stack.append(operand)
                elif isinstance(operand, A.OperandResult) and kinds.get(operand.name) != "op":
                    raise self.error(operand.span, f"{operand.name}#{operand.index}: "
                                     f"{operand.name!r} is not an op bound by this match")
            for attr in pattern.attrs:
                if isinstance(attr.value, A.AttrEqual):
                    self.check_constant(attr.value.value)

    def check_constant(self, expr) -> None:
        """Attribute values in patterns are literals, lists of them or params."""
        if isinstance(expr, A.ParamRef):
            self.check_expr(expr, {})
        elif isinstance(expr, A.ListExpr):
            for item in expr.items:
                self.check_constant(item)
        elif not isinstance(expr, A.Literal):
            raise self.error(expr.span, "an attribute value in a pattern must be a literal or a "
                             "$param; to compare with an expression bind it (`{key: k}`) and "
                             "test `k` in `where`")

    def check_expr(self, expr, scope: dict) -> None:
        """Variables bound, params declared, functions known with the right arity, nesting at
        most MAX_EXPRESSION_DEPTH deep."""
        stack = [(expr, scope, 1)]
        while stack:
            node, current, depth = stack.pop()
            if depth > MAX_EXPRESSION_DEPTH:
                raise self.error(node.span, f"expression nested more than "
                                 f"{MAX_EXPRESSION_DEPTH} deep; split it over several "
                                 "terms or rules")
            if isinstance(node, A.Var):
                if node.name not in current:
                    bound = ", ".join(sorted(k for k in current if not k.startswith("%")))
                    raise self.error(node.span, f"unbound variable {node.name!r} "
                                     f"(bound here: {bound or 'nothing'})")
            elif isinstance(node, A.ResultRef):
                if current.get(node.name) not in ("op", "any"):
                    raise self.error(node.span, f"{node.name}#{node.index}: {node.name!r} is "
                                     "not a bound op")
            elif isinstance(node, A.ParamRef):
                self.check_param(node.name, node.span)
            elif isinstance(node, A.Quantifier):
                stack.append((node.seq, current, depth + 1))
                stack.append((node.body, {**current, node.var: "any"}, depth + 1))
                continue
            elif isinstance(node, A.Call):
                if self.check_call(node) is not None:
                    self.def_roots.add(id(expr))
            for child in children(node):
                stack.append((child, current, depth + 1))

    def check_param(self, name: str, span: A.Span, through: str = "") -> None:
        """`$name` is a param of the pass (`through`: the def whose body reads it)."""
        if name not in self.params:
            declared = ", ".join(f"${p}" for p in self.params) or "none"
            raise self.error(span, f"unknown param ${name} of pass {self.decl.name!r}"
                             f"{through} (declared: {declared})")

    def check_call(self, call: A.Call):
        """Known function (a def of this file or an included one first, then a built-in or
        registered function), right number of arguments; a def's `$params` are the pass's.
        Returns the def called (`defs.DefInfo`), or None."""
        found = self.lookup(call.func, call.span) if self.lookup is not None else None
        if found is not None:
            bounds = (len(found.params), len(found.params))
            for name in found.reads:
                self.check_param(name, call.span, f", read by def {call.func!r} "
                                 f"({found.decl.span})")
        else:
            bounds = self.arity(call.func)
        if bounds is None:
            raise self.error(call.span, f"unknown function {call.func!r}; built-ins are "
                             "listed in the rule-language reference, `def`s must be in this file "
                             "or an included one, others must be registered with "
                             "rulepass.engine.rewrite.functions.function before loading rules")
        least, most = bounds
        count = len(call.args)
        if count < least or (most is not None and count > most):
            want = str(least) if least == most else (
                f"{least} or more" if most is None else f"{least} to {most}")
            raise self.error(call.span, f"{call.func}() takes {want} argument"
                             f"{'' if want == '1' else 's'}, got {count}")
        return found

    def check_let(self, let: A.LetDecl, scope: dict) -> None:
        """`let name = value`: the value reads what is bound so far; the name is new."""
        self.check_expr(let.value, scope)
        if let.name in scope:
            raise self.error(let.span, f"{let.name!r} is already bound; a let names a new "
                             "value (use another name)")
        scope[let.name] = "any"

    def check_actions(self, actions, scope: dict) -> None:
        """Rewrite actions in order; created ops are in scope after their creation."""
        for action in actions:
            if isinstance(action, A.LetDecl):
                self.check_let(action, scope)
            elif isinstance(action, A.CreateOp):
                for expr in action.operands + action.types:
                    self.check_expr(expr, scope)
                for attr in action.attrs:
                    self.check_expr(attr.value, scope)
                if action.binding is not None:
                    if action.binding in scope:
                        raise self.error(action.span, f"{action.binding!r} is already bound; "
                                         "name the new op differently")
                    scope[action.binding] = "op"
            elif isinstance(action, A.ReplaceAction):
                self.check_expr(action.target, scope)
                self.check_expr(action.replacement, scope)
                if action.readers is not None:
                    self.check_expr(action.readers, scope)
            elif isinstance(action, A.EraseAction):
                for item in action.items:
                    self.check_expr(item, scope)
            elif isinstance(action, (A.SetAction, A.UnsetAction)):
                self.check_path(action.path, scope, isinstance(action, A.SetAction))
                if isinstance(action, A.SetAction):
                    self.check_expr(action.value, scope)
            elif isinstance(action, A.RetypeAction):
                self.check_expr(action.value, scope)
                self.check_expr(action.type, scope)
            elif isinstance(action, A.ForAction):
                self.check_expr(action.seq, scope)
                inner = {**scope, action.var: "any"}
                if action.where is not None:
                    self.check_expr(action.where, inner)
                self.check_actions(action.body, inner)
            elif isinstance(action, A.FailAction):
                self.check_expr(action.message, scope)

    def check_path(self, path: A.FieldPath, scope: dict, is_set: bool) -> None:
        """`o.key`, `o.dist`, `o.dist.chunk_id`, `o.dist.mesh` of a bound op."""
        kind = scope.get(path.var)
        if kind is None:
            raise self.error(path.span, f"unbound variable {path.var!r}")
        if kind not in ("op", "any"):
            raise self.error(path.span, f"{path.var!r} is {kind_words(kind)}, not an op; "
                             "`set`/`unset` change an op's attributes")
        names = path.names
        if len(names) == 1 or names in DIST_PATHS:
            if not is_set and names == ("dist", "mesh"):
                raise self.error(path.span, "an op dist attribute always has a mesh; "
                                 "`unset o.dist` removes the whole attribute")
            return
        raise self.error(path.span, "can only set o.key, o.dist, o.dist.chunk_id or "
                         f"o.dist.mesh, not {path.var}.{'.'.join(names)}")


def kind_words(kind: str) -> str:
    """How a variable kind reads in a message."""
    return {"value": "a value", "attr": "an attribute value", "ops": "a list of ops",
            "op": "an op"}.get(kind, kind)


def check_pass(decl: A.PassDecl, sources, arity, lookup=None) -> set[int]:
    """Check one pass; raises RuleCompileError. `arity(name)` is the (least, most) number of
    arguments of function `name`, None if there is none (the rewrite engine's registry,
    `rewrite.functions.arity`, passed in because the language sits below the engine);
    `lookup(name, span)` the def a call resolves to in the pass's file (`defs.Defs.lookup`).
    Returns the ids of the expressions that call a def (`PassChecker.def_roots`)."""
    checker = PassChecker(decl, sources, arity, lookup)
    checker.check()
    return checker.def_roots


def constant(expr, sources):
    """The value of a constant expression (literals, lists, negation); RuleCompileError if it
    reads a variable, param or function."""
    if isinstance(expr, A.Literal):
        return expr.value
    if isinstance(expr, A.ListExpr):
        return [constant(item, sources) for item in expr.items]
    if isinstance(expr, A.Negate):
        value = constant(expr.operand, sources)
        if type(value) in (int, float):
            return -value
    raise sources.error(expr.span, "expected a constant (a number, string, true/false or list)")


def expanded_depth(expr, defs: dict | None = None, lets: dict | None = None) -> int:
    """How deep `expr` nests with each def it calls and each let it reads written out, as the
    matcher's walkers see it (`expand_lets` puts a let's value where its name is; every walker
    follows a `DefCall` into its def's body): a `DefCall` adds its def's depth (`defs`: id of
    the resolved def -> depth), a `Var` naming a let the let's (`lets`: name -> depth). Linear in
    `expr`."""
    defs = defs or {}
    lets = lets or {}
    deepest = 0
    stack = [(expr, 1, frozenset())]
    while stack:
        node, level, hidden = stack.pop()
        extra = 0
        if isinstance(node, A.DefCall):
            extra = defs.get(id(node.decl), 0)
        elif isinstance(node, A.Var) and node.name in lets and node.name not in hidden:
            extra = lets[node.name]
        deepest = max(deepest, level + extra)
        if isinstance(node, A.Quantifier):  # its variable hides a let of the same name
            stack.append((node.seq, level + 1, hidden))
            stack.append((node.body, level + 1, hidden | {node.var}))
        else:
            stack.extend((child, level + 1, hidden) for child in children(node))
    return deepest


def expand_lets(expr, lets: tuple):
    """`expr` (a rule's `where`) with each `let` name replaced by a `LetRef` holding the let's
    expression (itself expanded), so that the matcher can test each term as soon as the pattern
    variables it needs are bound. A quantifier whose variable would capture a variable of a let's
    expression is renamed (`x%1`), so the expansion means what the names meant."""
    if not lets:
        return expr
    mapping: dict = {}
    for let in lets:
        mapping[let.name] = A.LetRef(let.name, _substitute(let.value, mapping), let.span)
    return _substitute(expr, mapping)


def _substitute(node, mapping: dict):
    """`node` with `Var`s named in `mapping` replaced (capture-avoiding; recursion is bounded by
    MAX_EXPRESSION_DEPTH, checked before)."""
    if isinstance(node, A.Var):
        return mapping.get(node.name, node)
    if isinstance(node, A.Quantifier):
        inner = {k: v for k, v in mapping.items() if k != node.var}
        var = node.var
        if any(var in free_vars(v) for v in inner.values()):
            var = f"{node.var}%{len(mapping)}"
            inner[node.var] = A.Var(var, node.span)
        return A.Quantifier(node.kind, var, _substitute(node.seq, mapping),
                            _substitute(node.body, inner), node.span)
    if isinstance(node, A.LetRef) or type(node) not in CHILDREN:
        return node
    changes = {}
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        if isinstance(value, tuple):
            new = tuple(_substitute(item, mapping) for item in value)
            if all(a is b for a, b in zip(new, value)):
                continue
        elif attrs.has(type(value)) and not isinstance(value, A.Span):
            new = _substitute(value, mapping)
            if new is value:
                continue
        else:
            continue
        changes[field.name] = new
    return attrs.evolve(node, **changes) if changes else node
