"""How deep a parsed `.rw` file nests, checked before its tree is turned into `rw_ast` nodes.

lark's LALR parser builds the tree without recursion, but the transformer, the checker and the
evaluator walk it recursively; a file nested thousands deep used to end in "the rules nest too
deeply to parse", with no place. :func:`check_nesting` walks the tree without recursion and
raises a located `RuleSyntaxError` where the nesting passes :data:`MAX_NESTING` levels (the limit
attribute values and expressions already have, ``engine/limits.py``). A long chain of one
operator (`1 + 1 + ... + 1`) is not written nested, but evaluates as one; it is reported as too
long, at the term where it passes the limit. Parentheses count: ``(x)`` is a level.

lark itself takes about 45 µs per bracket level and more than linear time past 100,000 (200,000
parentheses: 12.6 s), so :func:`check_bracket_depth` first scans the raw text (strings and
comments skipped) and refuses `(` and `[` nested more than :data:`MAX_BRACKET_DEPTH` deep —
depth no tree within the limit has, since every `(` or `[` but a few fixed ones (a pass's
params, an op pattern's operands) opens a level — located at that bracket, in linear time.
Text nested less deep than that is parsed (at most about 0.5 s) so that :func:`check_nesting`
names the exact place where the limit is passed.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from rulepass.engine.errors import RuleSyntaxError
from rulepass.engine.limits import MAX_NESTING, first_too_deep

#: Tree nodes that nest: expressions, op patterns, `for` loops (the rest are a fixed number of
#: levels around them).
NESTING = frozenset({
    "conditional", "or_op", "and_op", "not_op", "compare", "in_op", "not_in_op", "coalesce_op",
    "arith", "negate", "field", "subscript", "var", "result_ref", "call", "list_expr",
    "param_ref", "int_lit", "float_lit", "string_lit", "true_lit", "false_lit", "op_pattern",
    "for_action", "paren",
})

#: How deep `(` and `[` may nest in the raw text before lark reads it (far past the limit: text
#: nested up to this is parsed, and refused by :func:`check_nesting` at the exact level).
MAX_BRACKET_DEPTH = 10_000

#: What the bracket scan skips (comments, strings, text blocks) or counts.
_BRACKET_TOKENS = re.compile(r'#[^\n]*|"""[\s\S]*?"""|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[(\[]|[)\]]')


def check_bracket_depth(text: str, filename: str | None, limit: int = MAX_NESTING,
                        max_depth: int = MAX_BRACKET_DEPTH) -> None:
    """Raise where the raw text of a `.rw` file nests `(` and `[` more than ``max_depth`` deep
    (strings, text blocks and comments skipped), before lark reads it; the message says the
    rule language's ``limit``. Linear in the text.

    Raises:
        RuleSyntaxError: at the first bracket past that depth.
    """
    if text.count("(") + text.count("[") <= max_depth:
        return
    offset = first_too_deep(text, max_depth, _BRACKET_TOKENS)
    if offset is not None:
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise RuleSyntaxError(_too_deep_message(limit), filename, line, col)


#: Binary operators written one after another (`a + b + c`, `a ?? b ?? c`): a chain of them
#: nests in the tree, not in the text.
CHAINS = {"arith": "+ - * // %", "and_op": "and", "or_op": "or", "coalesce_op": "??",
          "conditional": "if ... else", "field": ".", "subscript": "[...]"}


def check_nesting(tree: Tree, filename: str | None, limit: int = MAX_NESTING) -> None:
    """Raise where ``tree`` (a parsed `.rw` file) nests more than ``limit`` levels of
    :data:`NESTING` nodes.

    Raises:
        RuleSyntaxError: at the first node (in reading order) past the limit; for a chain of one
            operator, at the term after its ``limit``-th operator.
    """
    stack = [(tree, 0, None)]  # (node, depth, (parent, its own link) or None)
    while stack:
        node, depth, link = stack.pop()
        if node.data in NESTING:
            depth += 1
            if depth > limit:
                raise _too_deep(node, depth, link, filename, limit)
        for child in reversed(node.children):
            if isinstance(child, Tree):
                stack.append((child, depth, (node, link)))


def _too_deep(node: Tree, depth: int, link, filename: str | None,
              limit: int) -> RuleSyntaxError:
    """The error for ``node``, the first node nested ``limit + 1`` deep (``depth``); ``link``: its
    parent and the parent's link."""
    chain = _chain_around(node, depth, link)
    if chain is not None:
        root, root_depth = chain
        if _left_nested(root):
            # `1 + 1 + ...`: the chain's first terms are its deepest. It starts ``root_depth``
            # levels deep and its first term is one below its innermost operator: operator
            # number ``limit - root_depth + 1`` in reading order is the first past the limit.
            # Report at the term after it.
            members, stack = [], [root]
            while stack:
                member = stack.pop()
                members.append(member)
                stack.extend(c for c in member.children
                             if isinstance(c, Tree) and c.data == root.data)
            terms = sorted((_position(m.children[-1]) for m in members), key=lambda p: p[:2])
            line, col = terms[max(0, min(limit - root_depth, len(terms) - 1))]
        else:
            line, col = _position(node)  # `a ?? b ?? ...`: the deepest term is the furthest
        return RuleSyntaxError(
            f"expression too long: its chain of `{CHAINS[root.data]}` operators passes "
            f"{limit} levels here (rulepass reads at most {limit} levels in one expression); "
            "split it with `let`", filename, line, col)
    line, col = _position(node)
    return RuleSyntaxError(_too_deep_message(limit), filename, line, col)


def _too_deep_message(limit: int) -> str:
    """The message for nesting past ``limit`` levels."""
    return (f"the rules nest more than {limit} levels deep here (patterns, lists, brackets or "
            f"operators); rulepass reads at most {limit}")


def _chain_around(node: Tree, depth: int, link) -> tuple[Tree, int] | None:
    """(outermost operator, its depth) of the chain of one operator that ``node`` (``depth``
    deep) sits in, when the path to it runs through a chain of over 10 operators; else None."""
    run_op, run, best, child = None, 0, None, node
    while link:
        parent = link[0]
        depth -= child.data in NESTING  # the parent's depth
        child = parent
        if parent.data in CHAINS and parent.data == run_op:
            run += 1
        else:
            run_op, run = parent.data, 1
        if parent.data in CHAINS and run > 10:
            best = (parent, depth)
        elif best is not None and parent.data != best[0].data:
            return best
        link = link[1]
    return best


def _left_nested(root: Tree) -> bool:
    """Whether the chain under ``root`` nests through its first operand (`(a + b) + c`)."""
    first = root.children[0] if root.children else None
    return isinstance(first, Tree) and first.data == root.data


def _position(node) -> tuple[int, int]:
    """(line, column) where the tree or token ``node`` starts."""
    if isinstance(node, Token):
        return node.line, node.column
    meta = node.meta
    if not getattr(meta, "empty", True):
        return meta.line, meta.column
    for child in node.children:
        if isinstance(child, (Tree, Token)):
            return _position(child)
    return 1, 1
