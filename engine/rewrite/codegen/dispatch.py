"""The rules a pass tries at one op name, merged into one generated function.

`compile_dispatch(entries, ...)` returns `dispatch(item)` (with a `Counts` of its calls and
matches), which does what the matcher's loop in `RuleMatcher.first_at` does for the entries of
one op name — in trying order, the first match returned — as one decision tree below the op
name: the attributes every rule requires are tested once, first; then each rule in turn, with
the attributes its root requires, then its plan inlined (`codegen/match.py` `PlanEmitter`: the
patterns as nested loops, the `where` terms as Python expressions; a one-pattern rule as one
test of the op), all in one Python function with the bound variables in locals — no call per
rule, no tuple unpacking, no clock readings (per-rule time is kept only when asked for: the
matcher then runs its loop). A rule whose plan has no compiled form is tried through
`attempt(rule, root, item, plan)`. An `EvalError` is raised as the matcher's `eval_error` of the
rule that raised it.

Per-rule counts cost one increment per call: the function counts its calls and each rule's
matches (`Counts`); since it stops at the first match, a rule was tried at every call where no
rule before it matched, which `Counts.flush` adds to the rules' stats records.

Memoised by the entries' rules and plans (identity), so a pass run again — the chain, each
rank, each test — reuses the generated code.
"""

from __future__ import annotations

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.rewrite.bindings import Match
from rulepass.engine.rewrite.codegen.code_cache import compile_cached
from rulepass.engine.rewrite.codegen.exprs import Unsupported
from rulepass.engine.rewrite.codegen.match import JoinBuckets, PlanEmitter, PlanGen, compilable
from rulepass.engine.rewrite.values import EvalError

_CACHE: dict[tuple, tuple] = {}
CACHE_LIMIT = 20_000


class Counts:
    """What a dispatch function counted: `calls[0]` (its calls) and `matched[k]` (matches of
    its k-th distinct rule, `distinct_rules` order)."""

    __slots__ = ("calls", "matched", "rules")

    def __init__(self, rules: list):
        self.rules = rules
        self.calls = [0]
        self.matched = [0] * len(rules)

    def flush(self, records: list) -> None:
        """Add the counts to `records` (the rules' stats records, in `rules` order) and start
        again from zero: each rule was tried at every call where no earlier rule matched."""
        calls = self.calls[0]
        before = 0
        for k, record in enumerate(records):
            record.tried += calls - before
            record.matched += self.matched[k]
            before += self.matched[k]
            self.matched[k] = 0
        self.calls[0] = 0


def compile_dispatch(entries: list, attempt, eval_error, ctx, index, backrefs: dict,
                     join_keys) -> tuple:
    """(dispatch function, Counts) of `entries` ((rule, root, required attribute keys, plan) in
    trying order). `attempt(rule, root, item, plan)` and `eval_error(rule, error, item)` are the
    matcher's (bound methods), `ctx` and `index` its context and op index, `backrefs` id(rule)
    -> the rule's back references and `join_keys` the pass's (for the inlined plans): the
    function is made per matcher from the cached code."""
    key = tuple((id(rule), root, id(plan)) for rule, root, _, plan in entries)
    found = _CACHE.get(key)
    if found is None or any(a[0] is not b[0] or a[3] is not b[3]
                            for a, b in zip(found[0], entries)):
        if len(_CACHE) > CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = (list(entries), _source(entries, backrefs, join_keys))
    source, constants = found[1]
    counts = Counts(distinct_rules(entries))
    namespace = dict(constants, attempt=attempt, eval_error=eval_error, EvalError=EvalError,
                     Match=Match, ctx=ctx, index=index, C=counts.calls, M=counts.matched)
    for name, value in constants.items():
        if type(value) is JoinBuckets:  # the join key's buckets in this matcher's index
            namespace[name] = index.buckets(value.key)
    exec(source, namespace)  # noqa: S102 - text generated here from the rules' plans
    # out of its own globals: the function and the matcher it refers to are then freed by
    # reference counting when the pass ends, not left in a cycle for the collector
    return namespace.pop("_dispatch"), counts


def distinct_rules(entries: list) -> list:
    """The rules of `entries`, each once, in order of first appearance (the order of the
    `records` the dispatch function is given)."""
    rules: list = []
    for rule, _, _, _ in entries:
        if not any(r is rule for r in rules):
            rules.append(rule)
    return rules


def _source(entries: list, backrefs: dict, join_keys) -> tuple:
    """(code object, constants) of the dispatch function: the rules inlined, or, where Python
    refuses that text (an expression nested deeper than its parser allows), each rule called
    through its own compiled function."""
    try:
        return _text(entries, backrefs, join_keys, inline=True)
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError):
        return _text(entries, backrefs, join_keys, inline=False)


def _text(entries: list, backrefs: dict, join_keys, inline: bool) -> tuple:
    """`_source`, with the rules' plans inlined or not."""
    gen = PlanGen()
    gen.item_attributes = "attributes"
    gen.join_buckets = {}  # bound to this matcher's index when the function is made
    lines = ["def _dispatch(item):",
             "    C[0] += 1",
             "    current = None",
             "    try:",
             "        attributes = item.attributes"]
    rules = distinct_rules(entries)
    pad = "        "
    # attribute keys every rule from here on requires are tested once, before them
    shared = None
    for _, _, required, _ in entries:
        shared = set(required) if shared is None else shared & set(required)
    if shared:
        test = " and ".join(f"{key!r} in attributes" for key in sorted(shared))
        lines.append(f"{pad}if not ({test}):")
        lines.append(f"{pad}    return None")
    last = None
    leads = [_lead(entry, shared) if inline else None for entry in entries]
    group_pad = None  # the indent of the rules under a shared first term, while in a group
    for n, (rule, root, required, plan) in enumerate(entries):
        k = next(i for i, r in enumerate(rules) if r is rule)
        if group_pad is not None and leads[n] != leads[n - 1]:
            pad, group_pad, last = group_pad, None, None  # the group ends
        if (group_pad is None and leads[n] is not None and n + 1 < len(entries)
                and leads[n + 1] == leads[n]):
            # consecutive one-op rules whose `where` starts with the same term: it is computed
            # once (pure, on the same op), and when false none of them is tried further
            try:
                gen.op_locals.add("item")
                first = gen.test(plan.checks[0][0], {plan.simple: 'item'})
            except Unsupported:
                leads[n] = None
            else:
                lines.append(f"{pad}current = {gen.const(rule)}")
                lines.append(f"{pad}if {first}:")
                group_pad, pad, last = pad, pad + "    ", rule
        if rule is not last:
            lines.append(f"{pad}current = {gen.const(rule)}")
            last = rule
        own = [key for key in required if not shared or key not in shared]
        has = " and ".join(f"{key!r} in attributes" for key in own)
        success = [f"M[{k}] += 1", "return {match}"]
        if group_pad is not None:
            lines += _simple(gen, rule, root, plan, has, k, pad, inline, skip_first=True)
        elif plan.simple is not None and (inline or plan.simple_test is not None):
            lines += _simple(gen, rule, root, plan, has, k, pad, inline)
        elif inline and compilable(rule, plan):
            lines += _inlined(gen, rule, root, plan, has, k, pad, backrefs[id(rule)], join_keys)
        elif inline and rule.kind != "value":
            lines += _guarded(gen, rule, root, plan, has, k, pad, backrefs[id(rule)], join_keys)
        else:
            call = (f"{gen.const(plan.compiled_match)}(item, ctx, index)"
                    if plan.compiled_match is not None
                    else f"attempt(current, {root!r}, item, {gen.const(plan)})")
            inner = pad
            if has:
                lines.append(f"{pad}if {has}:")
                inner = pad + "    "
            lines.append(f"{inner}found = {call}")
            lines.append(f"{inner}if found is not None:")
            lines += [f"{inner}    " + s.format(match="found") for s in success]
    if group_pad is not None:
        pad = group_pad
    lines.append(f"{pad}return None")
    lines.append("    except EvalError as error:")
    lines.append("        raise eval_error(current, error, item) from None")
    code = compile_cached("\n".join(lines) + "\n", "<rule dispatch>")
    constants = {k: v for k, v in gen.globals.items() if k not in ("ctx", "index")}
    return code, constants


def _lead(entry, shared) -> tuple | None:
    """What the first `where` term of a one-op rule computes (`_shape`, with the variable it
    binds the op to), when the rule is tested by that term and the rest alone (`_simple`, no
    attribute test of its own); None for any other rule."""
    rule, root, required, plan = entry
    if plan.simple is None or not plan.checks or not plan.checks[0]:
        return None
    if any(not shared or key not in shared for key in required):
        return None
    term = plan.checks[0][0]
    if isinstance(term, A.Literal):
        return None
    return (plan.simple, _shape(term))


def _shape(node):
    """A syntax tree's structure, spans apart: equal shapes compute the same value in the same
    scope (literals compared with their types: ``1`` is not ``true``)."""
    if isinstance(node, (tuple, list)):
        return tuple(_shape(item) for item in node)
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(_shape(getattr(node, f.name))
                                              for f in attrs.fields(type(node)) if f.name != "span")
    return (type(node).__name__, node)


def _simple(gen: PlanGen, rule, root, plan, has: str, k: int, pad: str, inline: bool,
            skip_first: bool = False) -> list:
    """A one-pattern rule with no operands or attributes: its `where` terms on the item (or
    its compiled test called, when not `inline`, or the walk when there is none); with
    `skip_first`, its first term is left out (tested once for a group of rules, `_text`)."""
    var = plan.simple
    match = f"Match(current, {{{var!r}: item}}, (item,))"
    try:
        if not inline:
            raise Unsupported("not inlined")
        gen.op_locals.add("item")
        terms = [gen.test(term, {var: 'item'})
                 for term in plan.checks[0][1 if skip_first else 0:]
                 if not (isinstance(term, A.Literal) and term.value is True)]
        test = " and ".join(([has] if has else []) + terms) or "True"
    except Unsupported:
        if plan.simple_test is None:  # a term reads more than the op: the matcher walks it
            call = f"attempt(current, {root!r}, item, {gen.const(plan)})"
            inner = pad + ("    " if has else "")
            return ([f"{pad}if {has}:"] if has else []) + [
                f"{inner}found = {call}", f"{inner}if found is not None:",
                f"{inner}    M[{k}] += 1", f"{inner}    return found"]
        test = " and ".join(([has] if has else []) + [f"{gen.const(plan.simple_test)}(item, ctx)"])
    return [f"{pad}if {test}:", f"{pad}    M[{k}] += 1", f"{pad}    return {match}"]


def _guarded(gen: PlanGen, rule, root, plan, has: str, k: int, pad: str, backrefs: dict,
             join_keys) -> list:
    """A rule the matcher walks (`inside`): the root pattern's checks and the `where` terms
    after it inlined first, so that `attempt` (which makes the same checks again) runs only at
    ops where they hold."""
    call = f"attempt(current, {root!r}, item, {gen.const(plan)})"
    lines: list[str] = [f"{pad}while True:"]
    if has:
        lines += [f"{pad}    if not ({has}):", f"{pad}        break"]
    try:
        emitter = PlanEmitter(rule, plan, backrefs, tuple(join_keys), gen, lines)
        emitter.emit_guard(len(pad) // 4 + 1, "item", "break")
    except Unsupported:
        lines = lines[:1] + ([f"{pad}    if not ({has}):", f"{pad}        break"] if has else [])
    lines += [f"{pad}    found = {call}", f"{pad}    if found is not None:",
              f"{pad}        M[{k}] += 1", f"{pad}        return found", f"{pad}    break"]
    return lines


def _inlined(gen: PlanGen, rule, root, plan, has: str, k: int, pad: str, backrefs: dict,
             join_keys) -> list:
    """A rule's compiled plan inlined: `while True:` around it, so that the root failing is
    `break` (to the next rule) and a later pattern failing is `continue` (its loop)."""
    lines: list[str] = []
    depth = len(pad) // 4
    try:
        emitter = PlanEmitter(rule, plan, backrefs, tuple(join_keys), gen, lines)
        # no `has` test: the root's own checks test the same keys (`required` is its attribute
        # keys), and fail as soon; none of them can raise first, as a pattern's attribute
        # values are literals and params (`lang/check.py`)
        lines.append(f"{pad}while True:")
        emitter.emit(depth + 1, "item", "break",
                     lambda d, env, ops: [f"M[{k}] += 1",
                                          f"return Match(current, {env}, {ops})"],
                     root_is_op=True)
        lines.append(f"{pad}    break")
    except Unsupported:
        inner = pad
        lines = []
        if has:
            lines.append(f"{pad}if {has}:")
            inner = pad + "    "
        call = (f"{gen.const(plan.compiled_match)}(item, ctx, index)"
                if plan.compiled_match is not None
                else f"attempt(current, {root!r}, item, {gen.const(plan)})")
        lines += [f"{inner}found = {call}", f"{inner}if found is not None:",
                  f"{inner}    M[{k}] += 1", f"{inner}    return found"]
    return lines
