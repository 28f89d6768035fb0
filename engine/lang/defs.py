"""Named expressions: `def name(a, b) = expr` at the top level of a `.rw` file.

A def is visible in its own file and in every file that includes that file (includes followed
transitively). A call `name(x, y)` resolves, in the file where it is written, to that file's own
def of the name, else to the one def of that name among the files it includes; two different
included defs of one name make the call an error naming both. A def wins over a built-in or
registered function of the same name (the linter warns). Its body reads only its parameters (and
quantifier variables); it may call built-ins, registered functions and other visible defs, and read
`$params`, which every pass calling it (directly or through other defs) must declare.

Recursion, direct or through other defs, is an error at load time at the call that closes the
cycle. `Defs.resolve` then replaces each call of a def in a pass by a `DefCall` holding the def
(its body resolved the same way), which the tree walk (`rewrite/exprs.py`) and the generated code
(`rewrite/codegen/exprs.py`) evaluate by value: arguments first, then the body.
"""

from __future__ import annotations

import functools
from pathlib import Path

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.lang.builtins import BUILTINS
from rulepass.engine.lang.check import (CHILDREN, MAX_EXPRESSION_DEPTH, PassChecker, children,
                                        expanded_depth)


@attrs.frozen
class DefInfo:
    """A def as calls see it: its declaration and the `$params` its body reads (through the defs
    it calls too; empty until `Defs.prepare` has collected them)."""

    decl: A.DefDecl
    reads: frozenset = frozenset()

    @property
    def params(self) -> tuple:
        """The parameter names, in order."""
        return self.decl.params


@functools.lru_cache(maxsize=4096)
def file_key(file: str | None) -> str:
    """The key of a loaded file: its resolved path ("" for text without a file)."""
    return str(Path(file).resolve()) if file else ""


#: node class -> the names of its fields that may hold a call (`_node_fields`)
_FIELDS: dict[type, tuple] = {}
#: Nodes that hold no call: leaves, patterns (their attribute values are constants), spans, and
#: what is resolved already.
_NO_CALLS = (A.Literal, A.Var, A.ParamRef, A.ResultRef, A.Span, A.OpPattern, A.MatchOps,
             A.MatchRegion, A.MatchValue, A.Param, A.FieldPath, A.DefCall, A.DefDecl)


def _node_fields(kind: type) -> tuple:
    """The fields of node class `kind` to look into for calls (none for `_NO_CALLS` and for
    anything that is not a node)."""
    if kind in _NO_CALLS or not attrs.has(kind):
        return ()
    return tuple(f.name for f in attrs.fields(kind) if f.name != "span")


class DefChecker(PassChecker):
    """Checks a def's body: its variables are its parameters, functions are known with the right
    number of arguments; `$params` are collected (the calling passes check them)."""

    def __init__(self, decl: A.DefDecl, sources, arity, lookup):
        self.arity = arity
        self.decl = decl
        self.sources = sources
        self.params = {}
        self.lookup = lookup
        self.def_roots: set[int] = set()
        self.reads: set[str] = set()

    def check_param(self, name: str, span: A.Span, through: str = "") -> None:
        self.reads.add(name)

    def check_call(self, call: A.Call) -> DefInfo | None:
        """As the pass checker's, but a def's `$params` are left to its callers and a call of
        the def itself is left to the recursion check (which names the whole cycle)."""
        found = self.lookup(call.func, call.span)
        if found is not None and found.decl is not self.decl:
            if len(call.args) != len(found.params):
                count = len(found.params)
                raise self.error(call.span, f"{call.func}() takes {count} argument"
                                 f"{'' if count == 1 else 's'}, got {len(call.args)}")
            return found
        if found is not None:
            return found
        return super().check_call(call)

    def check_def(self) -> None:
        """Parameters distinct, body well formed."""
        seen: set[str] = set()
        for name in self.decl.params:
            if name in seen:
                raise self.error(self.decl.span, f"def {self.decl.name!r} lists parameter "
                                 f"{name!r} twice")
            seen.add(name)
        self.check_expr(self.decl.body, dict.fromkeys(self.decl.params, "any"))


class Defs:
    """The defs of a set of loaded files (`modules`, parsed `Module`s): checked, free of
    recursion, and resolvable from each file. `arity(name)` is the built-in or registered
    function's (least, most) arguments, None if there is none (`rewrite.functions.arity`).

    Raises RuleCompileError (through `sources.error`) for a def defined twice in one file, a
    parameter listed twice, an unbound variable or unknown function in a body, and recursion."""

    def __init__(self, modules, sources, arity):
        self.sources = sources
        self.arity = arity
        #: file key -> {name: DefDecl} written in that file
        self.own: dict[str, dict[str, A.DefDecl]] = {}
        #: file key -> the file keys it includes
        self.includes: dict[str, list[str]] = {}
        #: file key -> {name: [DefDecl, ...]} visible there (own first), made when asked
        self._visible: dict[str, dict[str, list]] = {}
        #: id(DefDecl) -> DefInfo, and the resolved declarations, made by `prepare`
        self.info: dict[int, DefInfo] = {}
        self.resolved: dict[int, A.DefDecl] = {}
        self.order: list[A.DefDecl] = []  # every def, in file order
        for module in modules:
            key = file_key(module.file)
            own = self.own.setdefault(key, {})
            base = Path(module.file).parent if module.file else Path()
            self.includes[key] = [file_key(str(base / inc.path))
                                  for inc in module.of(A.IncludeDecl)]
            for decl in module.of(A.DefDecl):
                if decl.name in own:
                    raise sources.error(decl.span, f"def {decl.name!r} is defined twice in "
                                        f"this file (first at {own[decl.name].span})")
                own[decl.name] = decl
                self.order.append(decl)
        self.prepare()

    # ---- visibility ---------------------------------------------------------------------------
    def visible(self, key: str) -> dict[str, list]:
        """name -> the defs of that name visible in file `key` (its own alone when it has one)."""
        found = self._visible.get(key)
        if found is not None:
            return found
        found = {name: [decl] for name, decl in self.own.get(key, {}).items()}
        seen, stack = {key}, list(reversed(self.includes.get(key, [])))
        while stack:
            other = stack.pop()
            if other in seen:
                continue
            seen.add(other)
            for name, decl in self.own.get(other, {}).items():
                decls = found.setdefault(name, [])
                if decls and decls[0] is self.own.get(key, {}).get(name):
                    continue  # the file's own def wins
                if not any(d is decl for d in decls):
                    decls.append(decl)
            stack.extend(reversed(self.includes.get(other, [])))
        self._visible[key] = found
        return found

    def find(self, file: str | None, name: str, span: A.Span) -> A.DefDecl | None:
        """The def a call of `name` written in `file` resolves to, or None; RuleCompileError at
        `span` when two included files define it."""
        decls = self.visible(file_key(file)).get(name)
        if not decls:
            return None
        if len(decls) > 1:
            places = " and ".join(str(d.span) for d in decls)
            raise self.sources.error(span, f"def {name!r} is defined in two included files "
                                     f"({places}); rename one of them")
        return decls[0]

    def lookup_in(self, file: str | None):
        """`lookup(name, span) -> DefInfo | None` for calls written in `file` (what the checker
        takes)."""
        def lookup(name: str, span: A.Span):
            decl = self.find(file, name, span)
            if decl is None:
                return None
            return self.info.get(id(decl)) or DefInfo(decl)
        return lookup

    # ---- checks and resolution ----------------------------------------------------------------
    def prepare(self) -> None:
        """Check every body, refuse recursion, then resolve the bodies callees first and collect
        the `$params` each def reads (its callees' included)."""
        reads: dict[int, set] = {}
        depths: dict[int, int] = {}  # id(resolved def) -> its body's depth, calls written out
        for decl in self.order:
            checker = DefChecker(decl, self.sources, self.arity, self.lookup_in(decl.span.file))
            checker.check_def()
            reads[id(decl)] = checker.reads
        callees = {id(decl): self.calls_of(decl) for decl in self.order}
        for decl in self.topological(callees):
            for callee, _ in callees[id(decl)]:
                reads[id(decl)] |= reads[id(callee)]
            body = self.resolve(decl.body, decl.span.file)
            resolved = self.resolved[id(decl)] = attrs.evolve(decl, body=body)
            self.info[id(decl)] = DefInfo(decl, frozenset(reads[id(decl)]))
            depth = depths[id(resolved)] = expanded_depth(body, defs=depths)
            if depth > MAX_EXPRESSION_DEPTH:
                raise self.sources.error(decl.span, f"def {decl.name!r} nests {depth} levels "
                                         "deep once the defs it calls are written out; "
                                         f"rulepass reads at most {MAX_EXPRESSION_DEPTH} "
                                         "(split it into defs that call fewer others in a chain)")

    def calls_of(self, decl: A.DefDecl) -> list:
        """(callee DefDecl, call span) of each call of a def in `decl`'s body."""
        out = []
        stack = [decl.body]
        while stack:
            node = stack.pop()
            if isinstance(node, A.Call):
                callee = self.find(decl.span.file, node.func, node.span)
                if callee is not None:
                    out.append((callee, node.span))
            if isinstance(node, A.Quantifier):
                stack.extend((node.seq, node.body))
            else:
                stack.extend(children(node))
        return out

    def topological(self, callees: dict) -> list:
        """The defs, each after every def it calls; RuleCompileError at the call closing a cycle,
        naming the cycle."""
        by_id = {id(d): d for d in self.order}
        state: dict[int, int] = {}  # 1: on the current path, 2: done
        out: list = []
        for root in self.order:
            if state.get(id(root)):
                continue
            path = [(root, iter(callees[id(root)]))]
            state[id(root)] = 1
            while path:
                decl, pending = path[-1]
                step = next(pending, None)
                if step is None:
                    path.pop()
                    state[id(decl)] = 2
                    out.append(decl)
                    continue
                callee, span = step
                if state.get(id(callee)) == 1:
                    names = [d.name for d, _ in path]
                    cycle = names[names.index(callee.name):] + [callee.name]
                    what = "calls itself" if len(cycle) == 2 else "is recursive: " + \
                        " -> ".join(cycle)
                    raise self.sources.error(span, f"def {callee.name!r} {what}; a def may not "
                                             "call itself, directly or through other defs")
                if not state.get(id(callee)):
                    state[id(callee)] = 1
                    path.append((by_id[id(callee)], iter(callees[id(callee)])))
        return out

    def resolve(self, node, file: str | None, roots: set | None = None):
        """`node` (an expression, an action, a rule or a pass) with every call of a def visible
        in `file` replaced by a `DefCall` of the resolved def; unchanged parts are kept as they
        are (the same objects). With `roots` (the checker's `def_roots`), only those expressions
        are looked into (none: nothing is walked)."""
        if not self.visible(file_key(file)) or roots is not None and not roots:
            return node
        return self._resolve(node, file, roots)

    def _resolve(self, node, file: str | None, roots):
        kind = type(node)
        if kind is tuple:
            new = tuple([self._resolve(item, file, roots) for item in node])
            return node if all(a is b for a, b in zip(new, node)) else new
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = _node_fields(kind)
        if not names:
            return node
        if roots is not None and kind in CHILDREN:  # an expression the checker saw
            if id(node) not in roots:
                return node
            roots = None  # inside it: everything
        changes = {}
        for name in names:
            value = getattr(node, name)
            new = self._resolve(value, file, roots)
            if new is not value:
                changes[name] = new
        if kind is A.Call:
            decl = self.find(file, node.func, node.span)
            if decl is not None:
                args = changes.get("args", node.args)
                return A.DefCall(node.func, args, self.resolved[id(decl)], node.span)
        return attrs.evolve(node, **changes) if changes else node

    def shadowing(self) -> list:
        """(def, "built-in" | "registered function") for each def named like a function it
        hides (the linter warns)."""
        out = []
        for decl in self.order:
            if decl.name in BUILTINS:
                out.append((decl, "built-in"))
            elif self.arity(decl.name) is not None:
                out.append((decl, "registered function"))
        return out

