"""Parse PIR program text (`docs/spec/program-format.md`) into a :class:`Program`: the fast path.

``grammar/pir.lark`` is the definition of the format and gives the syntax error messages; this
module is a line-oriented scanner that builds the same IR roughly 50× faster (Paddle programs of
25k ops of ~500 characters each). ``tests/test_pir_lark.py`` checks that both agree on every
captured program. Types, dist attributes and attribute values repeat a lot in real programs, so
each distinct text is parsed once and cached (the results are immutable).

Errors are :class:`~rulepass.engine.errors.ParseError` with file, line, column, the line and a caret.
"""
import gc
import re

from rulepass.engine.errors import ParseError
from rulepass.engine.limits import (MAX_REGION_NESTING, LimitExceeded, int64,
                                    region_nesting_message)
from rulepass.engine.ir.core import Block, Operation, Program, Value, make_kwarg
from rulepass.engine.ir.types import NULL_TYPE, OperationDistAttr
from rulepass.engine.pir.scan import (ScanFailure, Scanner, first_duplicate, group_item_column, group_problem, matching_brace, parse_attribute_value,  # noqa: F401
                                      parse_type, scan_attr_dict, scan_type_list)

class _SyntaxFailure(ParseError):
    """Internal: a syntax error found by the fast scanner. :func:`parse_program` then re-parses
    the text with the grammar, whose message says what was expected."""



_RESULT_NAME = re.compile(r"%[A-Za-z0-9_.@]+|<<NULL VALUE>>")
_HEADER_INT = re.compile(r"-?\d+")
# grammar/pir.lark's `process_group: "process_group" INT ":" INT_LIST _NL` (WS: spaces and tabs;
# INT_LIST: no empty item, no trailing comma); anything else is a syntax error, which the
# grammar then reports
_GROUP = re.compile(r"process_group[\t ]+(-?\d+)[\t ]*:[\t ]*"
                    r"\[([\t ]*(?:-?\d+(?:[\t ]*,[\t ]*-?\d+)*)?[\t ]*)\]$")


class ProgramParser:
    """One parse of a program text: ``ProgramParser(text, filename).parse()`` -> Program; raises
    ParseError (a syntax one makes :func:`parse_program` fall back to the grammar)."""

    def __init__(self, text: str, filename: str | None):
        self.text = text
        self.filename = filename
        self.values: dict[str, Value] = {}
        self.lineno = 0
        self.line = ""
        self.attr_cache: dict[str, tuple[list, int]] = {}
        self.typelist_cache: dict[str, list] = {}

    def error(self, message: str, col: int | None = None, syntax: bool = False) -> ParseError:
        kind = _SyntaxFailure if syntax else ParseError
        return kind(message, file=self.filename, line=self.lineno,
                    col=(col + 1) if col is not None else None, source_line=self.line)

    def parse(self) -> Program:
        lines = self.text.split("\n")
        groups: dict[int, tuple[int, ...]] = {}
        program = Program()
        # stack of (block, op owning the block or None)
        stack: list[tuple[Block, Operation | None]] = []
        in_kwargs = False
        done = False
        for n, raw in enumerate(lines, 1):
            if raw.endswith("\r"):  # a CRLF line end, which the grammar's _NL takes
                raw = raw[:-1]
            self.lineno, self.line = n, raw
            # Only spaces and tabs indent (grammar/pir.lark's WS); U+00A0 and other Unicode
            # spaces are text, which the grammar refuses.
            stripped = raw.strip(" \t")
            if not stripped or stripped.startswith("#"):
                continue
            if done:
                raise self.error("text after the end of the program",
                                 len(raw) - len(raw.lstrip(" \t")), syntax=True)
            indent = len(raw) - len(raw.lstrip(" \t"))
            if not stack:
                if stripped.startswith("process_group"):
                    m = _GROUP.match(stripped)
                    if not m:
                        raise self.error("malformed process group header; expected "
                                         "'process_group RING_ID : [r0,r1,...]'", indent,
                                         syntax=True)
                    ring_id = self.header_int(m, 1, indent)
                    ranks = tuple(self.header_int(r, 0, indent + m.start(2))
                                  for r in _HEADER_INT.finditer(m.group(2)))
                    problem = group_problem(ring_id, ranks, groups)
                    if problem:
                        raise self.error(problem[0],
                                         indent + group_item_column(stripped, problem[1]))
                    groups[ring_id] = ranks
                    continue
                if stripped != "{":
                    raise self.error("expected '{' opening the program", indent, syntax=True)
                stack.append((program.block, None))
                continue
            if stripped == "}":
                in_kwargs = False
                stack.pop()
                if not stack:
                    done = True
                continue
            if stripped == "} else {":
                block, owner = stack.pop()
                if owner is None:
                    raise self.error("'} else {' outside an op with regions", indent, syntax=True)
                nb = Block()
                owner.add_region(nb)
                stack.append((nb, owner))
                continue
            if stripped == "^kw:":
                in_kwargs = True
                continue
            if in_kwargs and stripped.startswith("%kwarg_"):
                self.parse_kwarg(stripped, indent, program)
                continue
            in_kwargs = False
            op, opens = self.parse_op(raw, indent)
            if opens and len(stack) > MAX_REGION_NESTING:  # stack[0]: the program's block
                raise self.error(region_nesting_message(), len(raw.rstrip(" \t")) - 1)
            stack[-1][0].append(op)
            if opens:
                nb = Block()
                op.add_region(nb)
                stack.append((nb, op))
        if not done:
            self.lineno, self.line = len(lines), lines[-1] if lines else ""
            raise self.error("unexpected end of text: a '}' is missing" if stack
                             else "empty program: expected '{'", syntax=True)
        program.process_groups = groups
        return program

    def header_int(self, m: re.Match, group: int, offset: int) -> int:
        """Group ``group`` of ``m`` (a match in a header line's text from column ``offset`` + 1)
        as an int64; a `ParseError` at the number when it is outside int64."""
        try:
            return int64(m.group(group))
        except LimitExceeded as e:
            raise self.error(e.message, offset + m.start(group)) from None

    def parse_kwarg(self, stripped: str, indent: int, program: Program) -> None:
        sc = Scanner(stripped)
        try:
            name = sc.match(_RESULT_NAME, "a kwarg name")[len("%kwarg_"):]
            sc.expect(" ")
            attrs = scan_attr_dict(sc)
            if sc.i != len(stripped):
                raise ScanFailure("unexpected text after the kwarg's attributes", sc.i)
        except ScanFailure as f:
            raise self.error(f.message, indent + f.pos, syntax=not f.semantic) from None
        full = f"%kwarg_{name}"
        duplicate = first_duplicate(attrs)
        if duplicate is not None:
            raise self.error(f"attribute {duplicate!r} is given twice", indent)
        if full in self.values:
            raise self.error(f"{full} is defined twice", indent)
        v = make_kwarg(name, NULL_TYPE, attrs)
        self.values[full] = v
        program.add_kwarg(v)

    def parse_op(self, raw: str, indent: int) -> tuple[Operation, bool]:
        sc = Scanner(raw, indent)
        try:
            # (results) =
            sc.expect("(", "'(' opening the result list")
            result_names = []
            if not sc.eat(")"):
                while True:
                    result_names.append((sc.i, sc.match(_RESULT_NAME, "a result name like %3")))
                    if sc.eat(")"):
                        break
                    sc.expect(", ", "', ' or ')' in the result list")
            sc.expect(' = "', "' = \"' before the op name")
            j = raw.find('"', sc.i)
            if j < 0:
                raise ScanFailure("unterminated op name", sc.i)
            name = raw[sc.i:j]
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z0-9_.]+", name):
                raise ScanFailure(f"malformed op name {name!r}; expected dialect.op", sc.i)
            sc.i = j + 1
            if sc.peek(" [id:"):
                close = raw.find("]", sc.i)
                if close < 0:
                    raise ScanFailure("unterminated [id:N]", sc.i)
                sc.i = close + 1
            # (operands)
            sc.expect(" (", "' (' opening the operand list")
            operand_names = []
            if not sc.eat(")"):
                while True:
                    operand_names.append((sc.i, sc.match(_RESULT_NAME, "an operand like %3")))
                    if sc.eat(")"):
                        break
                    sc.expect(", ", "', ' or ')' in the operand list")
            sc.expect(" ", "' ' before the attributes")
            attrs = self.attributes(sc)
            opens = False
            if sc.eat(" : ("):
                operand_types = self.type_list(sc, ")")
                sc.expect(")", "')' closing the operand types")
                sc.expect(" -> ", "' -> ' before the result types")
                result_types = self.type_list(sc, None)
            else:
                sc.expect(" -> ", "' : (' or ' -> ' after the attributes")
                operand_types = None
                if raw.endswith(" {"):
                    body = Scanner(raw[:len(raw) - 2], sc.i)
                    result_types = self.type_list(body, None) if body.i < len(body.s) else []
                    sc.i = len(raw)
                    opens = True
                else:
                    result_types = self.type_list(sc, None)
            if sc.i != len(raw):
                if raw.endswith(" {") and sc.i == len(raw) - 2:
                    opens = True
                else:
                    raise ScanFailure("unexpected text after the result types", sc.i)
        except ScanFailure as f:
            raise self.error(f.message, f.pos, syntax=not f.semantic) from None

        if len(result_types) != len(result_names):
            raise self.error(f"{len(result_names)} results named but {len(result_types)} result "
                             "types given", indent)
        if operand_types is not None and len(operand_types) != len(operand_names):
            raise self.error(f"{len(operand_names)} operands but {len(operand_types)} operand "
                             "types given", indent)
        operands = []
        for k, (pos, oname) in enumerate(operand_names):
            if oname == "<<NULL VALUE>>":
                operands.append(None)
                continue
            v = self.values.get(oname)
            if v is None:
                raise self.error(f"{oname} is used before it is defined", pos)
            if operand_types is not None and v.owner is None and v.type is NULL_TYPE:
                v.type = operand_types[k]  # a kwarg's type is known only from its uses
            if operand_types is not None and operand_types[k] != v.type:
                raise self.error(f"operand {k} ({oname}) is declared with a type that differs "
                                 "from the type of its definition", pos)
            operands.append(v)
        duplicate = first_duplicate(attrs)
        if duplicate is not None:
            raise self.error(f"attribute {duplicate!r} is given twice", indent)
        dist_attr = None
        attributes = {}
        for key, value in attrs:
            if key == "op_dist_attr":
                if not isinstance(value, OperationDistAttr):
                    raise self.error("op_dist_attr must be {mesh:{...},...}", indent)
                dist_attr = value
            else:
                attributes[key] = value
        op = Operation.create(name, operands, result_types, attributes, dist_attr)
        for (pos, rname), v in zip(result_names, op.results):
            if rname == "<<NULL VALUE>>":
                continue
            if rname in self.values:
                raise self.error(f"{rname} is defined twice", pos)
            self.values[rname] = v
        return op, opens

    def attributes(self, sc: Scanner) -> list:
        # The attribute text of one op is looked up whole first: real programs repeat it a lot.
        start = sc.i
        end = matching_brace(sc.s, start)
        if end > 0:
            key = sc.s[start:end]
            hit = self.attr_cache.get(key)
            if hit is not None:
                sc.i = end
                return hit
        attrs = scan_attr_dict(sc)
        if end > 0 and sc.i == end:
            self.attr_cache[sc.s[start:end]] = attrs
        return attrs

    def type_list(self, sc: Scanner, end: str | None) -> list:
        s = sc.s
        stop = _type_list_end(s, sc.i) if end == ")" else len(s)
        key = s[sc.i:stop]
        hit = self.typelist_cache.get(key)
        if hit is not None:
            sc.i = stop
            return hit
        inner = Scanner(key)
        try:
            types = scan_type_list(inner, None)
        except ScanFailure as f:
            f.pos += sc.i  # inner positions count from the start of the type list
            raise
        if inner.i != len(key):
            raise ScanFailure("malformed type list", sc.i + inner.i)
        sc.i = stop
        self.typelist_cache[key] = types
        return types


_NESTING = re.compile(r"[<\[(>\])]")


def _type_list_end(s: str, i: int) -> int:
    """Offset of the ``)`` closing an operand type list starting at ``i``."""
    depth = 0
    search = _NESTING.search
    m = search(s, i)
    while m is not None:
        j = m.start()
        if s[j] in "<[(":
            depth += 1
        elif depth == 0:
            return j
        else:
            depth -= 1
        m = search(s, j + 1)
    return len(s)


def parse_program(text: str, filename: str | None = None) -> Program:
    """Parse program text into a :class:`Program`.

    Raises :class:`~rulepass.engine.errors.ParseError` naming file, line and column (with the line
    and a caret) for malformed text, unknown types, wrong result counts, values used before their
    definition and values defined twice.

    Text the fast scanner finds malformed is parsed again with the grammar
    (:func:`~rulepass.engine.pir.lark_parser.parse_program_lark`), which defines the format: its message
    says what was expected, and text that only the grammar accepts (other spacing) still parses.
    """
    # A program is many long-lived objects made in one go: Python's cyclic collector would walk
    # all of them again at each of its full collections (four on a 25,000-op program, a fifth
    # of the parse); they are looked at once, when it next runs.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return ProgramParser(text, filename).parse()
    except _SyntaxFailure as failure:
        known_good = failure.line - 1  # the lines before it parsed
    finally:
        if collecting:
            gc.enable()
    from rulepass.engine.pir.lark_parser import parse_program_lark  # imported late: lark is needed only here

    return parse_program_lark(text, filename, known_good=known_good)
