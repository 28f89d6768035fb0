"""The one error hierarchy of rulepass.

Every error says what is wrong and where: `file:line:col`, the source line and a caret for text
(rule files, program files); the op and a few printed lines around it for programs; the rule name and
its `file:line` for rewrites. The CLI prints `str(error)` and exits 1, so the message must stand alone.

    RulepassError            base; `.message`, `.where` ("file:line:col" or "" when unknown)
    +-- ParseError           program text (`.pir`) that does not parse
    +-- RuleSyntaxError      a `.rw` file that does not parse
    +-- RuleCompileError     a `.rw` file that parses but means nothing (unbound variable, ...)
    +-- VerifyError          a program that parses but breaks an invariant
    +-- RewriteError         a pass that failed while rewriting (names the rule)
    +-- RuntimeFailure       the runtime (executor, collectives) failed
"""

from __future__ import annotations


def format_where(file: str | None, line: int | None, col: int | None) -> str:
    """`file:line:col` with whatever parts are known ("" when none are); `<input>` for no file."""
    if line is None:
        return file or ""
    text = f"{file or '<input>'}:{line}"
    if col is not None:
        text += f":{col}"
    return text


#: The most characters of a source line an error shows: a longer line (a 20 KB line of nested
#: brackets, a 20 MB string attribute) is clipped to a window around the column.
SHOWN_LINE_WIDTH = 120


def _shown(ch: str) -> str:
    """``ch`` as a source line in a message shows it: C0 controls but tab, and DEL, escaped."""
    return f"\\x{ord(ch):02x}" if (ch < " " and ch != "\t") or ch == "\x7f" else ch


def caret_block(source_line: str | None, col: int | None) -> str:
    """The source line indented by 4, and under it a caret at 1-based column `col`.

    Tabs before the column are kept so the caret lines up in a terminal. A line longer than
    :data:`SHOWN_LINE_WIDTH` is clipped to that many characters around the column, with ``...``
    where text was left out (the message's ``line:col`` still counts in the whole line). Control
    characters other than tab (a NUL, a CR, ESC, DEL) are shown escaped, ``\\x00``, with the caret
    moved along: the raw byte would reach the terminal.
    """
    if source_line is None:
        return ""
    line = source_line.rstrip("\n")
    at = col - 1 if col is not None and col >= 1 else 0
    if len(line) > SHOWN_LINE_WIDTH:
        start = max(0, min(at - SHOWN_LINE_WIDTH // 2, len(line) - SHOWN_LINE_WIDTH))
        stop = start + SHOWN_LINE_WIDTH
        prefix = "..." if start > 0 else ""
        line = prefix + line[start:stop] + ("..." if stop < len(source_line.rstrip("\n")) else "")
        at = len(prefix) + at - start
    text = "    " + "".join(_shown(ch) for ch in line)
    if col is not None and col >= 1:
        pad = "".join(ch if ch == "\t" else " " * len(_shown(ch)) for ch in line[:at])
        text += "\n    " + pad + "^"
    return text


def odd_character(ch: str) -> str | None:
    """A message for a character that looks like nothing or like a space but is not one the
    formats take (both parsers' syntax errors use it): a non-ASCII space such as U+00A0 (which
    editors and web pages put in indentation), an invisible format character (U+200B, a byte
    order mark), a control character; None for any other character."""
    import unicodedata

    if not ch or ch in " \t\n\r" or ch.isascii() and ch.isprintable():
        return None
    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    named = f"{code} ({name})" if name else code
    category = unicodedata.category(ch)
    if category in ("Zs", "Zl", "Zp"):
        return f"a non-ASCII space {named}: indent and separate with ASCII spaces"
    if category in ("Cf", "Cc", "Cn", "Co"):
        return f"an invisible character {named}: delete it"
    return None


def program_context(lines: list[str], index: int, radius: int = 2) -> str:
    """Printed program lines `index-radius .. index+radius`, the line at `index` marked with `>`.

    `lines` are the printed program's lines; `index` is 0-based. Used by the IR verifier and the
    driver to show an op in its surroundings.
    """
    if not lines:
        return ""
    index = max(0, min(index, len(lines) - 1))
    start, stop = max(0, index - radius), min(len(lines), index + radius + 1)
    out = []
    for i in range(start, stop):
        mark = ">" if i == index else " "
        out.append(f"  {mark} {i + 1:5d} | {lines[i]}")
    return "\n".join(out)


class RulepassError(Exception):
    """Base of all rulepass errors.

    Args:
        message: what is wrong and, where it helps, what to do.
        file, line, col: where (1-based line and column); any may be None.
        source_line: the text of that line, shown with a caret under `col`.
        context: extra text shown below (printed program lines around an op, a rule's trace).
    """

    kind = "error"

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 col: int | None = None, source_line: str | None = None,
                 context: str | None = None):
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.source_line = source_line
        self.context = context
        super().__init__(self.format())

    @property
    def where(self) -> str:
        """`file:line:col` of the error, or "" when unknown."""
        return format_where(self.file, self.line, self.col)

    def headline(self) -> str:
        """The first line: `where: kind: message`."""
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}{self.kind}: {self.message}"

    def format(self) -> str:
        """The whole report: headline, source line with caret, then context."""
        parts = [self.headline()]
        block = caret_block(self.source_line, self.col)
        if block:
            parts.append(block)
        if self.context:
            parts.append(self.context)
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.format()


class ParseError(RulepassError):
    """Program text (`.pir`) that does not parse."""

    kind = "parse error"


class RuleSyntaxError(RulepassError):
    """A `.rw` rule file that does not parse; the message says what was expected."""

    kind = "syntax error"


class RuleCompileError(RulepassError):
    """A `.rw` file that parses but is wrong in meaning: unbound variable, unknown param or
    function, wrong arity, a pass defined twice, an unknown pass in a pipeline."""

    kind = "rule error"


class VerifyError(RulepassError):
    """A program that breaks an invariant (def before use, use lists, counts); `context` holds the
    printed lines around the op (see `program_context`)."""

    kind = "verify error"


class RewriteError(RulepassError):
    """A pass that failed while rewriting: a `fail` action, a no-op application, no convergence, an
    erased value still in use. Names the rule and its `file:line` (given as `file`/`line`).

    Args:
        rule: the rule's name (None when the failure is the pass's, such as non-convergence).
        pass_name: the pass's name.
    """

    kind = "rewrite error"

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 col: int | None = None, source_line: str | None = None,
                 context: str | None = None, *, rule: str | None = None,
                 pass_name: str | None = None):
        self.rule = rule
        self.pass_name = pass_name
        super().__init__(message, file, line, col, source_line, context)

    def headline(self) -> str:
        """`file:line: rewrite error: in pass P, rule R: message`."""
        prefix = f"{self.where}: " if self.where else ""
        who = []
        if self.pass_name:
            who.append(f"pass {self.pass_name}")
        if self.rule:
            who.append(f"rule {self.rule}")
        scope = f"in {', '.join(who)}: " if who else ""
        return f"{prefix}{self.kind}: {scope}{self.message}"


class RuntimeFailure(RulepassError):
    """The runtime failed: a kernel, a collective, a schedule or a result check."""

    kind = "runtime error"


def describe_expected(names, parser, friendly: dict, keyword_quotes: str = "'") -> str:
    """A readable list of what a lark ``parser`` would have accepted next: each terminal name in
    ``names`` by its ``friendly`` description, else its literal text in quotes (keywords — words
    of letters — in ``keyword_quotes``), sorted, at most 8, joined with "or"."""
    words = []
    for name in sorted(names or ()):
        if name in friendly:
            words.append(friendly[name])
            continue
        try:
            value = parser.get_terminal(name).pattern.value
        except KeyError:
            words.append(name)
            continue
        quote = keyword_quotes if value.isalpha() else "'"
        words.append(f"{quote}{value}{quote}")
    words = sorted(set(words))
    if not words:
        return "something else"
    if len(words) > 8:
        return ", ".join(words[:8]) + ", ..."
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def match_label(error, parse, examples, **options):
    """lark's ``error.match_examples(parse, examples, **options)``: the label of the example
    mistake that fails in the same parser state as ``error``, or None.

    lark 1.3.1 formats a debug line with ``%d`` on the parser state when an example shares the
    state but not the accepted tokens (``use_accepts=True``) and raises ``TypeError``; the
    examples are then matched on the state alone, and a second failure means no label."""
    try:
        return error.match_examples(parse, examples, **options)
    except TypeError:
        options["use_accepts"] = False
        try:
            return error.match_examples(parse, examples, **options)
        except TypeError:
            return None
