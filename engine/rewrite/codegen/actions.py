"""A rule's `rewrite` block compiled into one Python function.

`compiled_rewrite(rule)` returns `run(rewriter, env)`, which does what `Rewriter.actions` does
when it walks the block — the same actions in the same order, the same expression values, the
same errors with the same spans — with the rule's variables in Python locals: no action dispatch,
no copy of the variables for each `for` iteration, no call per variable or literal. The IR is
changed only through the `Rewriter`'s value-level methods (`create`, `replace`, `erase`, `set`,
`unset`, `retype`), which keep the outcome (what changed, what to revisit) as the walk does.
The walk (`Rewriter.actions`) stays the reference; the test suite runs the rule files' tests, the
captured programs and random rule sets through this path, and tests/test_engine_compiled_exprs.py
compares the two on each rule of the rule files.

Memoised per rule declaration (by identity, the declaration kept alive with its function).
"""

from __future__ import annotations

import rulepass.engine.lang.nodes as A
from rulepass.engine.rewrite.codegen.exprs import SourceGen, Unsupported, node_table

#: id(rewrite tuple) -> (tuple, function)
_CACHE: dict[int, tuple] = {}
CACHE_LIMIT = 20_000


def compiled_rewrite(actions: tuple):
    """The function `(rewriter, env) -> None` carrying out `actions` (memoised); None when an
    action has no translation (the caller then walks the block)."""
    found = _CACHE.get(id(actions))
    if found is not None and found[0] is actions:
        return found[1]
    try:
        function = _compile(actions)
    except Unsupported:
        function = None
    if len(_CACHE) > CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[id(actions)] = (actions, function)
    return function


def _compile(actions: tuple):
    gen = ActionGen()
    body: list[str] = []
    scope: dict[str, str] = {}
    gen.block(actions, scope, body, 0)
    prologue = [f"{local} = env[{name!r}]" for name, local in gen.loaded.items()]
    lines = prologue + body or ["pass"]
    return gen.guarded_function("def _rewrite(rw, env):\n    ctx = rw.ctx", lines, "_rewrite")


class ActionGen(SourceGen):
    """Statement text for actions; match variables are loaded into locals once."""

    def __init__(self):
        super().__init__()
        self.loaded: dict[str, str] = {}  # match variable -> local, in order of first use
        self._top_scope: dict | None = None

    def x_Var(self, e, scope):
        local = scope.get(e.name)
        if local is not None:
            return local
        # a variable of the match: read from env once, at the start (the checker guarantees
        # every variable a rewrite reads is bound)
        self.var_spans.setdefault(e.name, e.span)
        local = self.loaded.get(e.name)
        if local is None:
            local = self.loaded[e.name] = f"m_{len(self.loaded)}"
        return local

    def var(self, name: str, span, scope: dict) -> str:
        """The Python name of rule variable `name`."""
        return self.x_Var(A.Var(name, span), scope)

    def block(self, actions, scope: dict, out: list, depth: int) -> None:
        """Append the statements of `actions` (indented `depth` levels) to `out`."""
        for action in actions:
            method = self.ACTIONS.get(type(action))
            if method is None:
                raise Unsupported(f"no translation for {type(action).__name__}")
            method(self, action, scope, out, "    " * depth, depth)

    def a_LetDecl(self, action, scope, out, pad, depth):
        local = self.temp()
        out.append(f"{pad}{local} = {self.expr(action.value, scope)}")
        scope[action.name] = local  # the actions after it (in this block) read the local

    def a_CreateOp(self, action, scope, out, pad, depth):
        operands = ", ".join(self.expr(e, scope) for e in action.operands)
        types = ", ".join(self.expr(e, scope) for e in action.types)
        values = ", ".join(self.expr(a.value, scope) for a in action.attrs)
        call = f"rw.create({self.const(action)}, [{operands}], [{types}], [{values}])"
        if action.binding is None:
            out.append(pad + call)
            return
        local = self.temp()
        out.append(f"{pad}{local} = {call}")
        scope[action.binding] = local  # later actions of this block (and nested ones) see it

    def a_ReplaceAction(self, action, scope, out, pad, depth):
        readers = "None" if action.readers is None else self.expr(action.readers, scope)
        out.append(f"{pad}rw.replace({self.expr(action.target, scope)}, "
                   f"{self.expr(action.replacement, scope)}, {self.const(action.span)}, {readers})")

    def a_EraseAction(self, action, scope, out, pad, depth):
        items = ", ".join(self.expr(e, scope) for e in action.items)
        out.append(f"{pad}rw.erase([{items}], {self.const(action)})")

    def a_SetAction(self, action, scope, out, pad, depth):
        path = action.path
        target = self.var(path.var, path.span, scope)
        names = path.names
        if names[0] != "dist" and names != ("op_dist_attr",):
            # a plain attribute: the value as an attribute value, then the IR's set_attr
            # (which leaves an equal value of the same type alone, as `Rewriter.set` does)
            op, value = self.temp(), self.temp()
            out.append(f"{pad}{op} = {target} if type({target}) is Operation else "
                       f"rw.checked_op({target}, {self.const(path)})")
            out.append(f"{pad}{value} = {self.expr(action.value, scope)}")
            # an int, string, bool or float is an attribute value as it is
            out.append(f"{pad}if type({value}) in _SCALARS:")
            out.append(f"{pad}    {op}.set_attr({names[0]!r}, {value})")
            out.append(f"{pad}else:")
            out.append(f"{pad}    rw.set_attr({op}, {names[0]!r}, {value}, "
                       f"{self.const(action.span)})")
            return
        out.append(f"{pad}rw.set(rw.checked_op({target}, {self.const(path)}), "
                   f"{self.const(action)}, {self.expr(action.value, scope)})")

    def a_UnsetAction(self, action, scope, out, pad, depth):
        path = action.path
        target = self.var(path.var, path.span, scope)
        out.append(f"{pad}rw.unset(rw.checked_op({target}, {self.const(path)}), "
                   f"{self.const(action)})")

    def a_RetypeAction(self, action, scope, out, pad, depth):
        out.append(f"{pad}rw.retype({self.expr(action.value, scope)}, {self.const(action)}, "
                   f"{self.expr(action.type, scope)})")

    def a_FailAction(self, action, scope, out, pad, depth):
        out.append(f"{pad}raise rw.error(str({self.expr(action.message, scope)}), "
                   f"{self.const(action.span)})")

    def a_ForAction(self, action, scope, out, pad, depth):
        item = self.temp()
        if isinstance(action.seq, A.ListExpr) and len(action.seq.items) == 1:
            # `for x in [e] where c { ... }` (the rules' one-shot conditional): `e` bound and `c`
            # tested without building and walking a one-item list
            out.append(f"{pad}{item} = {self.expr(action.seq.items[0], scope)}")
            inner = {**scope, action.var: item}
            test = self.expr(action.where, inner) if action.where is not None else "True"
            out.append(f"{pad}if {test}:")
            start = len(out)
            self.block(action.body, inner, out, depth + 1)
            if len(out) == start:
                out.append(f"{pad}    pass")
            return
        seq = self.expr(action.seq, scope)
        out.append(f"{pad}for {item} in iterate({seq}, {self.const(action.seq.span)}):")
        inner = {**scope, action.var: item}  # bindings made in the body stay in the body
        if action.where is not None:
            out.append(f"{pad}    if not {self.expr(action.where, inner)}:")
            out.append(f"{pad}        continue")
        start = len(out)
        self.block(action.body, inner, out, depth + 1)
        if len(out) == start:
            out.append(f"{pad}    pass")


#: Action node class -> the `a_<NodeClass>` method translating it (`block` dispatches on it).
ActionGen.ACTIONS = node_table(ActionGen, "a_")
