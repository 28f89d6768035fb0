"""The rules a pass tries at one op name, merged into one generated function.

`compile_dispatch(entries)` returns `dispatch(item, ctx, index, records)`, which does what the
matcher's loop in `RuleMatcher.first_at` does for the entries of one op name — in trying order,
each rule's `tried` counted once, the attributes its root pattern requires tested first (an
attribute several rules require is tested once, outside them: the first level of a decision tree
below the op name), then its compiled test or match, the first match returned with its rule's
`matched` counted — without the loop, the tuple unpacking and the clock readings (per-rule
time is kept only when asked for: the matcher then runs its loop). A rule whose plan has no
compiled form is tried through `attempt(rule, root, item, plan)`. An `EvalError` is raised as
the matcher's `eval_error` of the rule that raised it. `records` holds the stats record of each
distinct rule, in order of first appearance.

Memoised by the entries' rules and plans (identity), so a pass run again — the chain, each
rank, each test — reuses the function.
"""

from __future__ import annotations

from rulepass.engine.rewrite.bindings import Match
from rulepass.engine.rewrite.codegen.exprs import SourceGen
from rulepass.engine.rewrite.values import EvalError

_CACHE: dict[tuple, tuple] = {}
CACHE_LIMIT = 20_000


def compile_dispatch(entries: list, attempt, eval_error):
    """The dispatch function of `entries` ((rule, root, required attribute keys, plan) in trying
    order). `attempt(rule, root, item, plan)` and `eval_error(rule, error, item)` are the
    matcher's (bound methods: the function is made per matcher from the cached code)."""
    key = tuple((id(rule), root, id(plan)) for rule, root, _, plan in entries)
    found = _CACHE.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], entries)):
        if len(_CACHE) > CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = (list(entries), _source(entries))
    source, constants = found[1]
    namespace = dict(constants, attempt=attempt, eval_error=eval_error, EvalError=EvalError,
                     Match=Match)
    exec(source, namespace)  # noqa: S102 - text generated here from the rules' plans
    return namespace["_dispatch"]


def distinct_rules(entries: list) -> list:
    """The rules of `entries`, each once, in order of first appearance (the order of the
    `records` the dispatch function is given)."""
    rules: list = []
    for rule, _, _, _ in entries:
        if not any(r is rule for r in rules):
            rules.append(rule)
    return rules


def _source(entries: list) -> tuple:
    """(code object, constants) of the dispatch function."""
    gen = SourceGen()
    lines = ["def _dispatch(item, ctx, index, records):",
             "    attributes = item.attributes",
             "    current = None",
             "    try:"]
    rules = distinct_rules(entries)
    pad = "        "
    # attribute keys every rule from here on requires are tested once, before them
    shared = None
    for _, _, required, _ in entries:
        shared = set(required) if shared is None else shared & set(required)
    if shared:
        test = " and ".join(f"{key!r} in attributes" for key in sorted(shared))
        lines.append(f"{pad}if not ({test}):")
        # every rule still counts one attempt, as the loop counts it
        for k in range(len(distinct_rules(entries))):
            lines.append(f"{pad}    records[{k}].tried += 1")
        lines.append(f"{pad}    return None")
    last = None
    for rule, root, required, plan in entries:
        if rule is not last:
            k = next(i for i, r in enumerate(rules) if r is rule)
            lines.append(f"{pad}record = records[{k}]")
            lines.append(f"{pad}record.tried += 1")
            lines.append(f"{pad}current = {gen.const(rule)}")
            last = rule
        own = [key for key in required if not shared or key not in shared]
        inner = pad
        if own:
            lines.append(f"{pad}if " + " and ".join(f"{key!r} in attributes" for key in own) + ":")
            inner = pad + "    "
        simple_test = getattr(plan, "simple_test", None)
        compiled_match = getattr(plan, "compiled_match", None)
        if simple_test is not None:
            lines.append(f"{inner}if {gen.const(simple_test)}(item, ctx):")
            lines.append(f"{inner}    record.matched += 1")
            lines.append(f"{inner}    return Match(current, {{{plan.simple!r}: item}}, (item,))")
        else:
            call = (f"{gen.const(compiled_match)}(item, ctx, index)" if compiled_match is not None
                    else f"attempt(current, {root!r}, item, {gen.const(plan)})")
            lines.append(f"{inner}found = {call}")
            lines.append(f"{inner}if found is not None:")
            lines.append(f"{inner}    record.matched += 1")
            lines.append(f"{inner}    return found")
    lines.append(f"{pad}return None")
    lines.append("    except EvalError as error:")
    lines.append("        raise eval_error(current, error, item) from None")
    code = compile("\n".join(lines) + "\n", "<rule dispatch>", "exec")
    constants = {k: v for k, v in gen.globals.items() if k.startswith("K")}
    return code, constants
