"""Parse `.rw` rule text into the syntax tree of `rw_ast`.

`parse_rules(text, filename)` returns a `Module`; a syntax error raises `RuleSyntaxError` with
file:line:col, the source line, a caret and what was expected. Meaning (unbound variables, unknown
functions, ...) is checked later, in `rw_compile`.
"""

from __future__ import annotations

import functools
import re
import importlib.resources
import textwrap

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken,
                             VisitError)

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RuleSyntaxError, match_label, odd_character
from rulepass.engine.limits import LimitExceeded, int64
from rulepass.engine.lang.nesting import check_bracket_depth, check_nesting
from rulepass.engine.lang.strings import decode_string
from rulepass.engine.lang.syntax_errors import EXAMPLES, describe_expected

QUANTIFIERS = ("any", "all", "first")


@functools.lru_cache(maxsize=1)
def rule_parser() -> Lark:
    """The LALR parser of `grammar/rw.lark` (built once)."""
    package_file = importlib.resources.files("rulepass.grammar") / "__init__.py"
    # cache=True: the LALR tables are built once per grammar text and reused by later processes,
    # which halves the command line's start-up.
    return Lark.open("rw.lark", rel_to=str(package_file), parser="lalr",
                     propagate_positions=True, maybe_placeholders=True, cache=True)


def program_text(token: Token, filename: str | None = None) -> str:
    """The text of a string token. `\"\"\"...\"\"\"` blocks are dedented and lose the newline right
    after the opening quotes, so an indented program reads as written; `"..."` strings take
    Python's escapes (`lang/strings.py`).

    Raises:
        RuleSyntaxError: a bad escape, a NUL or a lone surrogate, at its place in ``filename``.
    """
    raw = str(token)
    if raw.startswith('"""'):
        nul = raw.find("\x00")
        if nul >= 0:
            line = token.line + raw.count("\n", 0, nul)
            col = nul - raw.rfind("\n", 0, nul) if "\n" in raw[:nul] else token.column + nul
            raise RuleSyntaxError("a string may not hold a NUL character", filename, line, col)
        body = raw[3:-3]
        if body.startswith("\n"):
            body = body[1:]
        body = textwrap.dedent(body)
        # The closing quotes usually sit on their own indented line.
        lines = body.split("\n")
        if lines and lines[-1].strip() == "":
            lines[-1] = ""
        return "\n".join(lines)
    return decode_string(raw, filename, token.line, token.column)


@v_args(meta=True)
class RuleTreeBuilder(Transformer):
    """Turns the lark tree of one file into `rw_ast` nodes; one method per grammar rule."""

    def __init__(self, filename: str | None):
        super().__init__(visit_tokens=False)
        self.filename = filename

    def span(self, meta, *children) -> A.Span:
        """The span of a tree node; empty nodes fall back to their first token child."""
        if not getattr(meta, "empty", True):
            return A.Span(self.filename, meta.line, meta.column)
        for child in children:
            if isinstance(child, Token) and child.line is not None:
                return A.Span(self.filename, child.line, child.column)
            if hasattr(child, "span"):
                return child.span
        return A.Span(self.filename, 1, 1)

    def tok(self, token: Token) -> A.Span:
        """The span of a token."""
        return A.Span(self.filename, token.line, token.column)

    def integer(self, token: Token, text: str | None = None, negative: bool = False) -> int:
        """The integer literal ``token`` (or ``text`` inside it), which must fit in int64
        (``engine/limits.py``); a located `RuleSyntaxError` otherwise."""
        digits = str(token) if text is None else text
        try:
            return int64("-" + digits if negative else digits)
        except LimitExceeded as e:
            raise RuleSyntaxError(e.message, self.filename, token.line, token.column) from None

    # ---- file and top level ---------------------------------------------------------------
    def start(self, meta, items):
        return A.Module(tuple(items), self.filename, A.Span(self.filename, 1, 1))

    def include_decl(self, meta, c):
        """Grammar rule `include_decl`."""
        return A.IncludeDecl(program_text(c[0], self.filename), self.span(meta))

    def def_decl(self, meta, c):
        """Grammar rule `def_decl`: name, parameter names (a placeholder when none), body."""
        name, *params, body = c
        return A.DefDecl(str(name), tuple(str(p) for p in params if p is not None), body,
                         self.span(meta))

    def pipeline_decl(self, meta, c):
        """Grammar rule `pipeline_decl`."""
        return A.PipelineDecl(str(c[0]), tuple(c[1:]), self.span(meta))

    def pipeline_entry(self, meta, c):
        """Grammar rule `pipeline_entry`."""
        return A.PipelineEntry(str(c[0]), tuple(x for x in c[1:] if x is not None),
                               self.span(meta, *c))

    def named_arg(self, meta, c):
        """Grammar rule `named_arg`."""
        return A.NamedArg(str(c[0]), c[1], self.span(meta))

    def pass_decl(self, meta, c):
        """Grammar rule `pass_decl`."""
        name, params, strategy, *rules = c
        return A.PassDecl(str(name), params or (), strategy or "fixpoint", tuple(rules),
                          self.span(meta))

    def param_list(self, meta, c):
        """Grammar rule `param_list`."""
        return tuple(p for p in c if p is not None)

    def param(self, meta, c):
        """Grammar rule `param`."""
        return A.Param(str(c[0]), str(c[1]), c[2], self.span(meta))

    def strategy(self, meta, c):
        """Grammar rule `strategy`."""
        return "sweep_reverse" if c[1] is not None else "sweep"

    def rule_decl(self, meta, c):
        """Grammar rule `rule_decl`."""
        name, priority, match, *lets, where, rewrite = c
        return A.RuleDecl(str(name), priority or 0, match, where, rewrite, self.span(meta),
                          tuple(lets))

    def let_decl(self, meta, c):
        """Grammar rule `let_decl`."""
        return A.LetDecl(str(c[0]), c[1], self.span(meta))

    def priority(self, meta, c):
        """Grammar rule `priority`."""
        return c[0]

    def signed_int(self, meta, c):
        """Grammar rule `signed_int`."""
        return self.integer(c[1], negative=c[0] is not None)

    # ---- patterns ---------------------------------------------------------------------------
    def match_ops(self, meta, c):
        """Grammar rule `match_ops`."""
        *patterns, inside = c
        return A.MatchOps(tuple(patterns), inside, self.span(meta))

    def inside_clause(self, meta, c):
        """Grammar rule `inside_clause`."""
        return c[0]

    def match_region(self, meta, c):
        """Grammar rule `match_region`."""
        return A.MatchRegion(c[0], str(c[1]), self.span(meta))

    def region_bounds(self, meta, c):
        """Grammar rule `region_bounds`."""
        return A.RegionBounds(c[0], c[1], self.span(meta))

    def match_value(self, meta, c):
        """Grammar rule `match_value`."""
        return A.MatchValue(str(c[0]), self.span(meta))

    def op_pattern(self, meta, c):
        """Grammar rule `op_pattern`."""
        binding, ops, operands, attrs = c
        return A.OpPattern(str(binding) if binding is not None else None, ops, operands,
                           attrs or (), self.span(meta))

    def op_name(self, meta, c):
        """Grammar rule `op_name`."""
        return (".".join(str(t) for t in c),)

    def any_op(self, meta, c):
        """Grammar rule `any_op`."""
        return None

    def op_alternatives(self, meta, c):
        """Grammar rule `op_alternatives`."""
        return tuple(name for names in c for name in names)

    def operand_list(self, meta, c):
        """Grammar rule `operand_list`."""
        return tuple(x for x in c if x is not None)

    def operand_var(self, meta, c):
        """Grammar rule `operand_var`."""
        return A.OperandVar(str(c[0]), self.tok(c[0]))

    def operand_result(self, meta, c):
        """Grammar rule `operand_result`."""
        name, index = str(c[0]).split("#")
        return A.OperandResult(name, self.integer(c[0], index), self.tok(c[0]))

    def operand_any(self, meta, c):
        """Grammar rule `operand_any`."""
        return A.OperandAny(self.span(meta))

    def operand_rest(self, meta, c):
        """Grammar rule `operand_rest`."""
        return A.OperandRest(self.span(meta))

    def attr_patterns(self, meta, c):
        """Grammar rule `attr_patterns`."""
        return tuple(x for x in c if x is not None)

    def attr_pattern(self, meta, c):
        """Grammar rule `attr_pattern`."""
        return A.AttrPattern(str(c[0]), c[1], self.span(meta))

    def attr_bind(self, meta, c):
        """Grammar rule `attr_bind`."""
        return A.AttrBind(str(c[0]), self.tok(c[0]))

    def attr_present(self, meta, c):
        """Grammar rule `attr_present`."""
        return A.AttrPresent(self.span(meta))

    def attr_equal(self, meta, c):
        """Grammar rule `attr_equal`."""
        return A.AttrEqual(c[0], self.span(meta, *c))

    def neg_literal(self, meta, c):
        """Grammar rule `neg_literal`."""
        token = c[0]
        value = -float(token) if token.type == "FLOAT" else self.integer(token, negative=True)
        return A.Literal(value, self.span(meta))

    def where_clause(self, meta, c):
        """Grammar rule `where_clause`."""
        return c[0]

    # ---- grad definitions (engine/paddle/grad.py) -------------------------------------------------
    def grad_decl(self, meta, c):
        """Grammar rule `grad_decl`."""
        pattern, where, *body = c
        return A.GradDecl(pattern, where, tuple(body), self.span(meta))

    def grad_contrib(self, meta, c):
        """Grammar rule `grad_contrib`."""

        return A.GradContrib(str(c[0]), c[1], self.span(meta))

    # ---- rewrites ---------------------------------------------------------------------------
    def rewrite_clause(self, meta, c):
        """Grammar rule `rewrite_clause`."""
        return tuple(c)

    def create_op(self, meta, c):
        """Grammar rule `create_op`."""
        # Placeholders keep the shape fixed: binding, op name, operands..., attrs, types.
        binding, (op_name,), *operands, attrs, types = c
        operands = tuple(x for x in operands if x is not None)
        return A.CreateOp(str(binding) if binding is not None else None, op_name, operands,
                          attrs or (), tuple(types or ()), self.span(meta))

    def attr_exprs(self, meta, c):
        """Grammar rule `attr_exprs`."""
        return tuple(x for x in c if x is not None)

    def attr_expr(self, meta, c):
        """Grammar rule `attr_expr`."""
        return A.AttrExpr(str(c[0]), c[1], self.span(meta))

    def type_list(self, meta, c):
        """Grammar rule `type_list`."""
        return tuple(c)

    def replace_action(self, meta, c):
        """Grammar rule `replace_action`; `in o1, o2` reads as `in [o1, o2]`."""
        readers = [x for x in c[2:] if x is not None]
        if len(readers) > 1:
            readers = [A.ListExpr(tuple(readers), readers[0].span)]
        return A.ReplaceAction(c[0], c[1], self.span(meta), readers[0] if readers else None)

    def erase_action(self, meta, c):
        """Grammar rule `erase_action`."""
        return A.EraseAction(tuple(c), self.span(meta))

    def set_action(self, meta, c):
        """Grammar rule `set_action`."""
        return A.SetAction(c[0], c[1], self.span(meta))

    def unset_action(self, meta, c):
        """Grammar rule `unset_action`."""
        return A.UnsetAction(c[0], self.span(meta))

    def field_path(self, meta, c):
        """Grammar rule `field_path`."""
        return A.FieldPath(str(c[0]), tuple(str(t) for t in c[1:]), self.span(meta))

    def retype_action(self, meta, c):
        """Grammar rule `retype_action`."""
        return A.RetypeAction(c[0], c[1], self.span(meta))

    def for_action(self, meta, c):
        """Grammar rule `for_action`."""
        var, seq, where, *body = c
        return A.ForAction(str(var), seq, where, tuple(body), self.span(meta))

    def fail_action(self, meta, c):
        """Grammar rule `fail_action`."""
        return A.FailAction(c[0], self.span(meta))

    # ---- expressions ------------------------------------------------------------------------
    def conditional(self, meta, c):
        """Grammar rule `conditional`: `then if cond else orelse`."""
        return A.Conditional(c[0], c[1], c[2], self.span(meta))

    def or_op(self, meta, c):
        """Grammar rule `or_op`."""
        return A.OrOp(c[0], c[1], self.span(meta))

    def and_op(self, meta, c):
        """Grammar rule `and_op`."""
        return A.AndOp(c[0], c[1], self.span(meta))

    def not_op(self, meta, c):
        """Grammar rule `not_op`."""
        return A.NotOp(c[0], self.span(meta))

    def compare(self, meta, c):
        """Grammar rule `compare`."""
        return A.Compare(str(c[1]), c[0], c[2], self.span(meta))

    def in_op(self, meta, c):
        """Grammar rule `in_op`."""
        return A.InOp(c[0], c[1], self.span(meta))

    def not_in_op(self, meta, c):
        """Grammar rule `not_in_op`."""
        return A.NotInOp(c[0], c[1], self.span(meta))

    def coalesce_op(self, meta, c):
        """Grammar rule `coalesce_op`."""
        return A.CoalesceOp(c[0], c[1], self.span(meta))

    def arith(self, meta, c):
        """Grammar rule `arith`."""
        return A.Arith(str(c[1]), c[0], c[2], self.span(meta))

    def negate(self, meta, c):
        """Grammar rule `negate`."""
        if isinstance(c[0], A.Literal) and type(c[0].value) in (int, float):
            return A.Literal(-c[0].value, self.span(meta))  # `-1` is a literal, not an operation
        return A.Negate(c[0], self.span(meta))

    def field(self, meta, c):
        """Grammar rule `field`."""
        return A.Field(c[0], str(c[1]), self.span(meta))

    def subscript(self, meta, c):
        """Grammar rule `subscript`."""
        return A.Subscript(c[0], c[1], self.span(meta))

    def var(self, meta, c):
        """Grammar rule `var`."""
        return A.Var(str(c[0]), self.tok(c[0]))

    def result_ref(self, meta, c):
        """Grammar rule `result_ref`."""
        name, index = str(c[0]).split("#")
        return A.ResultRef(name, int(index), self.tok(c[0]))

    def call(self, meta, c):
        """Grammar rule `call`."""
        func, *args = c
        args = [a for a in args if a is not None]
        span = self.span(meta)
        # `any(x in xs, e)`: the grammar cannot tell it from a call, so it is recognised here.
        if (str(func) in QUANTIFIERS and len(args) == 2 and isinstance(args[0], A.InOp)
                and isinstance(args[0].left, A.Var)):
            return A.Quantifier(str(func), args[0].left.name, args[0].right, args[1], span)
        return A.Call(str(func), tuple(args), span)

    def paren(self, meta, c):
        """Grammar rule `paren`: `(expr)` is the expression (kept in the tree only so that
        parentheses count toward the nesting limit)."""
        return c[0]

    def list_expr(self, meta, c):
        """Grammar rule `list_expr`."""
        return A.ListExpr(tuple(x for x in c if x is not None), self.span(meta))

    def param_ref(self, meta, c):
        """Grammar rule `param_ref`."""
        return A.ParamRef(str(c[0])[1:], self.tok(c[0]))

    def int_lit(self, meta, c):
        """Grammar rule `int_lit`."""
        return A.Literal(self.integer(c[0]), self.tok(c[0]))

    def float_lit(self, meta, c):
        """Grammar rule `float_lit`."""
        return A.Literal(float(c[0]), self.tok(c[0]))

    def string_lit(self, meta, c):
        """Grammar rule `string_lit`."""
        return A.Literal(program_text(c[0], self.filename), self.tok(c[0]))

    def true_lit(self, meta, c):
        """Grammar rule `true_lit`."""
        return A.Literal(True, self.span(meta))

    def false_lit(self, meta, c):
        """Grammar rule `false_lit`."""
        return A.Literal(False, self.span(meta))

    # ---- tests ------------------------------------------------------------------------------
    def test_decl(self, meta, c):
        """Grammar rule `test_decl`."""
        name, run, text, expect = c
        return A.TestDecl(str(name), run, program_text(text, self.filename), expect,
                          self.span(meta))

    def run_clause(self, meta, c):
        """Grammar rule `run_clause`."""
        return A.RunClause(str(c[0]), tuple(x for x in c[1:] if x is not None), self.span(meta))

    def expect_text(self, meta, c):
        """Grammar rule `expect_text`."""
        return A.ExpectText(program_text(c[0], self.filename), self.span(meta))

    def expect_contains(self, meta, c):
        """Grammar rule `expect_contains`."""
        return A.ExpectContains(program_text(c[0], self.filename), self.span(meta))

    def expect_unchanged(self, meta, c):
        """Grammar rule `expect_unchanged`."""
        return A.ExpectUnchanged(self.span(meta))

    def expect_error(self, meta, c):
        """Grammar rule `expect_error`."""
        return A.ExpectError(program_text(c[0], self.filename), self.span(meta))


def parse_rules(text: str, filename: str | None = None) -> A.Module:
    """Parse one `.rw` file's text into a `Module`.

    Raises:
        RuleSyntaxError: with file:line:col, the source line, a caret and what was expected.
    """
    parser = rule_parser()
    try:
        check_bracket_depth(text, filename)
        tree = parser.parse(text)
        check_nesting(tree, filename)
        return RuleTreeBuilder(filename).transform(tree)
    except UnexpectedInput as error:
        raise syntax_error(error, text, filename) from None
    except RuleSyntaxError as error:
        lines = text.split("\n")
        if error.line and error.line <= len(lines):
            error.source_line = lines[error.line - 1]
        raise RuleSyntaxError(error.message, error.file, error.line, error.col,
                              error.source_line) from None
    except (RecursionError, VisitError) as error:
        if isinstance(error, VisitError) and isinstance(error.orig_exc, RuleSyntaxError):
            located = error.orig_exc
            lines = text.split("\n")
            if located.line and located.line <= len(lines):
                located.source_line = lines[located.line - 1]
            raise RuleSyntaxError(located.message, located.file, located.line, located.col,
                                  located.source_line) from None
        if isinstance(error, VisitError) and not isinstance(error.orig_exc, RecursionError):
            raise
        # lark builds and transforms the tree recursively: a file nested thousands deep
        raise RuleSyntaxError("the rules nest too deeply to parse (an expression nested "
                              "hundreds of levels deep?)", filename) from None


def syntax_error(error: UnexpectedInput, text: str, filename: str | None) -> RuleSyntaxError:
    """A `RuleSyntaxError` for lark's `error`: a labelled explanation for the common mistakes
    (from `rw_syntax_errors.EXAMPLES`), else the list of what would have been accepted."""
    lines = text.split("\n")
    line, col = error.line, error.column
    if isinstance(error, UnexpectedEOF) or line is None or line < 1:
        # Point just past the last non-blank character.
        line = len(lines)
        while line > 1 and not lines[line - 1].strip():
            line -= 1
        col = len(lines[line - 1].rstrip()) + 1
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    message = explain(error, text)
    return RuleSyntaxError(message, filename, line, col, source)


#: Characters the rule language uses in one place each (`|` of alternatives, `?`, `$`): met
#: anywhere else they are the mistake, whatever came before.
_STRAY = set("|&~^$@#`;\\?!")

_UNQUOTED_TYPE = re.compile(r':\s*((?:pd_dist\.)?tensor<[^\n"]*?>|vec\[[^\n"]*\])')


def _unquoted_type(text: str, pos: int) -> str | None:
    """The type text written without quotes after a `:` on the line of ``pos``, when the error
    at ``pos`` falls inside it (``: tensor<4xf32>`` parses as a comparison), else None."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start:end if end >= 0 else len(text)]
    for m in _UNQUOTED_TYPE.finditer(line):
        if m.start(1) <= pos - start <= m.end(1):
            return m.group(1)
    return None


def explain(error: UnexpectedInput, text: str) -> str:
    """What went wrong, in the rule language's own terms."""
    if isinstance(error, UnexpectedCharacters):
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        if char == '"':
            return "unterminated string: a string opened here has no closing '\"' on this line " \
                   "(use \"\"\"...\"\"\" for text over several lines)"
        if char in "&|" and text[error.pos_in_stream:error.pos_in_stream + 2] in ("&&", "||"):
            return "use `and` / `or` in expressions, not `&&` / `||`"
        if char == "!":
            return "use `not` for negation (`!=` is the only operator with `!`)"
        if char == "'":
            return "strings use double quotes: \"...\""
        odd = odd_character(char)
        if odd:
            return odd
        # The parser state's labels describe what came before; the character is what is wrong.
        allowed = describe_expected(error.allowed, rule_parser())
        return f"unexpected character {char!r}; expected {allowed}"
    token = getattr(error, "token", None)
    expected = getattr(error, "expected", None) or set()
    if isinstance(error, UnexpectedToken) and token is not None:
        if str(token) == "=" and "COMPARE_OP" in expected:
            return "use `==` to compare in an expression; `=` binds a pattern or assigns in `set`"
        typed = _unquoted_type(text, token.start_pos or 0)
        if typed:
            return (f"a type in a rule is a string: write `: \"{typed}\"` (the text of a type, "
                    "as programs print it)")
        if str(token) in _STRAY:
            # a character the language uses rarely, where it does not fit (`has|o.same`): the
            # parser state's labels describe what came before it, not the character
            return (f"unexpected character {str(token)!r}; expected "
                    f"{describe_expected(expected, rule_parser())}")
    label = match_label(error, rule_parser().parse, EXAMPLES, use_accepts=True)
    if label:
        return label
    if isinstance(error, UnexpectedEOF) or (token is not None and token.type == "$END"):
        return f"unexpected end of file; expected {describe_expected(expected, rule_parser())} " \
               "(is a closing '}' missing?)"
    return f"unexpected {token!s:.40}; expected {describe_expected(expected, rule_parser())}"
