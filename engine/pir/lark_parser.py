"""Parse program text with the grammar that defines the format (``grammar/pir.lark``).

:func:`parse_program_lark` builds the same IR as the fast scanner in :mod:`.pir_parse`, through a
small lark transformer. It is the reference for what the format is, and the error path: when the
fast scanner meets a syntax error, :func:`~rulepass.engine.pir.parse.parse_program` re-parses the
text here so the user gets the grammar's account of what was expected (labelled by lark's
``match_examples`` from :mod:`.pir_syntax_errors`). About 20× slower than the fast path on
dist programs (docs/performance.md).

Meaning is checked as the fast scanner checks it, with the same messages: a value used before its
definition or defined twice, result/operand counts against the types, dims_mappings against mesh and
rank, placements against dims_mappings, op_dist_attr entries in order.
"""

from __future__ import annotations

import functools
import importlib.resources
import re

from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from rulepass.engine.ir.attributes import Place, Symbol, unquote_string
from rulepass.engine.errors import ParseError, match_label, odd_character
from rulepass.engine.errors import describe_expected as _describe_expected
from rulepass.engine.ir.core import Block, Operation, Program, make_kwarg
from rulepass.engine.limits import (MAX_NESTING, MAX_REGION_NESTING, LimitExceeded,
                                    first_too_deep, int64, nesting_message,
                                    region_nesting_message)
from rulepass.engine.pir.scan import first_duplicate, group_item_column, group_problem
from rulepass.engine.ir.types import (
    ELEMENT_TYPES,
    NULL_TYPE,
    DenseTensorType,
    DistTensorType,
    OperationDistAttr,
    dimension_problem,
    Partial,
    ProcessMesh,
    Replicate,
    Shard,
    TensorDistAttr,
    VectorType,
)


@functools.lru_cache(maxsize=1)
def program_parser() -> Lark:
    """The LALR parser of ``grammar/pir.lark`` (built once, with positions)."""
    package_file = importlib.resources.files("rulepass.grammar") / "__init__.py"
    return Lark.open("pir.lark", rel_to=str(package_file), parser="lalr",
                     propagate_positions=True)


_INTEGER = re.compile(r"-?\d+")
_PARTIAL = re.compile(r"(-?\d+)[\t ]*,[\t ]*([A-Za-z_][A-Za-z0-9_]*)")


class _Semantic(Exception):
    """Internal: a meaning error at (line, column) found while building the IR."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


class _Position:
    """A 1-based line and column, for :func:`_at`."""

    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


def _at(meta_or_token, message: str) -> _Semantic:
    return _Semantic(message, meta_or_token.line, meta_or_token.column)


def _int64(token, text: str) -> int:
    """``text`` (part of ``token``) as an int64, or a meaning error at the token."""
    try:
        return int64(text)
    except LimitExceeded as e:
        raise _at(token, e.message) from None


class ProgramBuilder(Transformer):
    """Turns the lark tree of one program into the IR; one method per grammar rule or terminal.

    Children are transformed left to right before their parent, so ops are built in program order
    and a region op's header (its results) is registered before the ops of its regions.
    """

    def __init__(self, lines: list[str] | None = None):
        """``lines``: the program's text by line (to locate a process group header's fault)."""
        super().__init__(visit_tokens=True)
        self.lines = lines
        self.defined: dict[str, object] = {}
        self.program_kwargs: list = []
        self.groups: set[int] = set()  # ring ids of the process_group lines read so far
        self.depths: dict[int, int] = {}  # id of a nested attribute array -> its depth
        self.kept: list = []

    # ---- terminals -------------------------------------------------------------------------
    def INT(self, t):
        return _int64(t, str(t))

    def DIM(self, t):
        value = _int64(t, str(t)[:-1])
        problem = dimension_problem(value)
        if problem:  # at the dimension, as the fast parser
            raise _at(t, problem)
        return value

    def ELEMENT(self, t):
        return ELEMENT_TYPES[str(t)]

    def NUMBER(self, t):
        text = str(t)
        if re.fullmatch(r"-?\d+", text):
            # `%g` prints the float -0.0 as "-0"; no integer prints so.
            return _int64(t, text) if text != "-0" else -0.0
        return float(text)

    def STRING(self, t):
        return unquote_string(str(t)[1:-1])

    def TRUE(self, t):
        return True

    def FALSE(self, t):
        return False

    def PLACE(self, t):
        return Place(str(t)[6:-1])

    def NULL_TYPE(self, t):
        return NULL_TYPE

    def ATTR_NULL(self, t):
        return None

    # ---- types -----------------------------------------------------------------------------
    @v_args(meta=True)
    def tensor_type(self, meta, c):
        try:
            return DenseTensorType(c[:-1], c[-1])
        except ValueError as e:
            raise _at(meta, str(e)) from None

    @v_args(meta=True)
    def dist_type(self, meta, c):
        try:
            return DistTensorType(c[:-2], c[-2], c[-1])
        except ValueError as e:
            raise _at(meta, str(e)) from None

    @v_args(meta=True)
    def vec_type(self, meta, c):
        depth = self.nesting(meta, c, VectorType, "type")
        value = VectorType(c)
        if depth > 1:
            self.depths[id(value)] = depth
            self.kept.append(value)
        return value

    def type_list(self, c):
        return c

    # ---- dist attributes -------------------------------------------------------------------
    def INT_LIST(self, t):
        # an integer outside int64 is reported at itself, not at the '[' (one line: no newline)
        return [_int64(_Position(t.line, t.column + m.start()), m.group())
                for m in _INTEGER.finditer(t)]

    def PARTIAL(self, t):
        m = _PARTIAL.search(t)
        return (_int64(t, m.group(1)), m.group(2))

    def PLACEMENT(self, t):
        text = re.sub(r"[\t ]", "", str(t))
        if text.startswith("Shard"):
            return Shard(_int64(t, text[len("Shard(dim="):-1]))
        if text.startswith("Replicate"):
            return Replicate()
        try:
            return Partial(text[len("Partial(reduce_type="):-1])
        except ValueError as e:
            raise _at(t, str(e)) from None

    def OPERAND_KEY(self, t):
        # An entry out of order is reported where its attribute starts, as the fast parser does.
        return (_int64(t, _INTEGER.search(t).group(0)), _Position(t.end_line, t.end_column))

    RESULT_KEY = OPERAND_KEY

    def placements(self, c):
        return ("placements", c)

    @v_args(meta=True)
    def tensor_dist_attr(self, meta, c):
        shape, ids, dims_mapping, *rest = c
        placements = None
        if rest and isinstance(rest[-1], tuple) and rest[-1][0] == "placements":
            placements = rest.pop()[1]
        partial = rest
        try:
            mesh = ProcessMesh(shape, ids) if shape or ids else None
            return TensorDistAttr.parsed(mesh, dims_mapping, partial, placements)
        except ValueError as e:
            raise _at(meta, str(e)) from None

    def dist_vector(self, c):
        return tuple(c)

    def operand_dist(self, c):
        (index, where), item = c
        return ("operand", index, item, where)

    def result_dist(self, c):
        (index, where), item = c
        return ("result", index, item, where)

    def chunk_id(self, c):
        return ("chunk_id", c[0], None, None)

    @v_args(meta=True)
    def op_dist_attr(self, meta, c):
        shape, ids, *members = c
        entries = {"operand": [], "result": []}
        chunk_id = -1
        for kind, index, item, where in members:
            if kind == "chunk_id":
                chunk_id = index
                continue
            done = entries[kind]
            if index != len(done):
                raise _at(where, f"{kind}({index}) out of order (expected {kind}({len(done)}))")
            done.append(item)
        try:
            return OperationDistAttr(ProcessMesh(shape, ids), entries["operand"],
                                     entries["result"], chunk_id)
        except ValueError as e:
            raise _at(meta, str(e)) from None

    # ---- attributes ------------------------------------------------------------------------
    def WORD(self, t):
        return Symbol(str(t))

    def nesting(self, meta, items, kind, what: str) -> int:
        """The depth of a value of ``kind`` (a tuple or a VectorType) made of ``items``, which
        were built before it; a meaning error past MAX_NESTING (as the fast parser)."""
        depth = 1 + max((self.depths.get(id(x), 1) for x in items if isinstance(x, kind)),
                        default=0)
        if depth > MAX_NESTING:
            raise _at(meta, nesting_message(what))
        return depth

    @v_args(meta=True)
    def array(self, meta, c):
        depth = self.nesting(meta, c, tuple, "attribute value")
        value = tuple(c)
        if depth > 1:
            self.depths[id(value)] = depth
            self.kept.append(value)  # keeps the id unique while the program is built
        return value

    def attr(self, c):
        return (str(c[0]), c[1])

    def attrs(self, c):
        return c

    def attr_dict(self, c):
        return c[0]

    # ---- ops and blocks --------------------------------------------------------------------
    def values(self, c):
        return c

    def value_list(self, c):
        return c[0]

    @v_args(meta=True)
    def kwarg(self, meta, c):
        name, attrs = str(c[0]), c[1]
        duplicate = first_duplicate(attrs)
        if duplicate is not None:
            raise _at(meta, f"attribute {duplicate!r} is given twice")
        if name in self.defined:
            raise _at(meta, f"{name} is defined twice")
        v = make_kwarg(name[len("%kwarg_"):], NULL_TYPE, attrs)
        self.defined[name] = v
        self.program_kwargs.append(v)
        return v

    def kwargs(self, c):
        return None

    def _build(self, meta, results, name, operands, attrs, operand_types, result_types):
        if len(result_types) != len(results):
            raise _at(meta, f"{len(results)} results named but {len(result_types)} result "
                      "types given")
        if operand_types is not None and len(operand_types) != len(operands):
            raise _at(meta, f"{len(operands)} operands but {len(operand_types)} operand "
                      "types given")
        values = []
        for k, token in enumerate(operands):
            if token.type == "NULL_VALUE":
                values.append(None)
                continue
            v = self.defined.get(str(token))
            if v is None:
                raise _at(token, f"{token} is used before it is defined")
            if operand_types is not None and v.owner is None and v.type is NULL_TYPE:
                v.type = operand_types[k]  # a kwarg's type is known only from its uses
            if operand_types is not None and operand_types[k] != v.type:
                raise _at(token, f"operand {k} ({token}) is declared with a type that differs "
                          "from the type of its definition")
            values.append(v)
        duplicate = first_duplicate(attrs)
        if duplicate is not None:
            raise _at(meta, f"attribute {duplicate!r} is given twice")
        dist_attr = None
        attributes = {}
        for key, value in attrs:
            if key == "op_dist_attr":
                if not isinstance(value, OperationDistAttr):
                    raise _at(meta, "op_dist_attr must be {mesh:{...},...}")
                dist_attr = value
            else:
                attributes[key] = value
        op = Operation.create(str(name)[1:-1], values, result_types, attributes, dist_attr)
        for token, v in zip(results, op.results):
            if token.type == "NULL_VALUE":
                continue
            if str(token) in self.defined:
                raise _at(token, f"{token} is defined twice")
            self.defined[str(token)] = v
        return op

    @v_args(meta=True)
    def op(self, meta, c):
        results, name, operands, attrs, operand_types, result_types = c
        return self._build(meta, results, name, operands, attrs, operand_types, result_types)

    @v_args(meta=True)
    def region_header(self, meta, c):
        results, name, operands, attrs, result_types = c
        return self._build(meta, results, name, operands, attrs, None, result_types)

    def region_op(self, c):
        op, *blocks = c
        for block in blocks:
            op.add_region(block)
        return op

    def block(self, c):
        block = Block()
        for op in c:
            if op is not None:
                block.append(op)
        return block

    @v_args(meta=True)
    def process_group(self, meta, c):
        problem = group_problem(c[0], tuple(c[1]), self.groups)
        if problem:
            header = self.lines[meta.line - 1][meta.column - 1:] if self.lines else ""
            raise _Semantic(problem[0], meta.line,
                            meta.column + group_item_column(header, problem[1]))
        self.groups.add(c[0])
        return (c[0], tuple(c[1]))

    def start(self, c):
        program = Program()
        for item in c:
            if isinstance(item, tuple):
                program.process_groups[item[0]] = item[1]
            elif item is not None:
                program.block.append(item)
        for kw in self.program_kwargs:
            program.add_kwarg(kw)
        return program


def structure_only(lines: list[str], known_good: int) -> str:
    """The text with the op and kwarg lines among the first ``known_good`` lines emptied (an op
    line that opens regions becomes a minimal one), so that the grammar checks only their nesting;
    line numbers are kept."""
    out = []
    for n, line in enumerate(lines):
        stripped = line.strip()
        if n < known_good and (stripped.startswith("(") or stripped.startswith("%")):
            out.append('() = "x.y" () {} -> {' if stripped.endswith("{") else "")
        else:
            out.append(line)
    return "\n".join(out)


def _check_nesting(lines: list[str], filename: str | None) -> None:
    """lark transforms the tree recursively: a line nested past MAX_NESTING, or an op whose
    regions would nest past MAX_REGION_NESTING, is refused before it can exhaust Python's stack.
    An attribute array sits inside its op's ``{attributes}``, so the bracket that opens line level
    MAX_NESTING + 2 is the one the fast parser names; for regions, the ``{`` ending the op's line,
    as the fast parser."""
    depth = 0  # blocks open: the program's, then each region's
    for n, line in enumerate(lines, 1):
        stripped = line.strip(" \t\r")
        if stripped == "}":
            depth = max(0, depth - 1)
        elif stripped.endswith("{") and stripped != "} else {" and not stripped.startswith("#"):
            if depth > MAX_REGION_NESTING:
                raise ParseError(region_nesting_message(), file=filename, line=n,
                                 col=len(line.rstrip(" \t\r")), source_line=line.rstrip("\r"))
            depth += 1
        if line.count("[") + line.count("{") <= MAX_NESTING + 1:
            continue
        offset = first_too_deep(line, MAX_NESTING + 1)
        if offset is not None:
            raise ParseError(nesting_message(), file=filename, line=n, col=offset + 1,
                             source_line=line)


def parse_program_lark(text: str, filename: str | None = None, known_good: int = 0) -> Program:
    """Parse program text with ``grammar/pir.lark`` into a :class:`~rulepass.engine.ir.core.Program`.

    Builds the same IR as :func:`~rulepass.engine.pir.parse.parse_program`. Raises
    :class:`~rulepass.engine.errors.ParseError` with file, line, column, the line and a caret:
    for syntax errors the message names the mistake and what was expected there; for errors of
    meaning it is the fast parser's message.

    ``known_good``: the fast parser read lines 1..``known_good`` without fault. The grammar then
    first checks the text with those op lines emptied (:func:`structure_only`): a syntax error on
    line 20,000 is reported in the time the grammar takes to read the nesting and that line, not
    the 20,000 lines before it (about 1,000 ops/s). Only text the grammar accepts is read whole.
    """
    lines = text.split("\n")
    _check_nesting(lines, filename)
    if known_good > 0:
        try:
            program_parser().parse(structure_only(lines, known_good))
        except UnexpectedInput as e:
            raise syntax_error(e, text, filename) from None
    try:
        tree = program_parser().parse(text)
    except UnexpectedInput as e:
        raise syntax_error(e, text, filename) from None
    try:
        return ProgramBuilder(lines).transform(tree)
    except VisitError as e:
        orig = e.orig_exc
        if isinstance(orig, _Semantic):
            raise ParseError(orig.message, file=filename, line=orig.line, col=orig.column,
                             source_line=lines[orig.line - 1]) from None
        raise


# --------------------------------------------------------------------------------------------
# Syntax error messages
# --------------------------------------------------------------------------------------------

# How lark's terminal names read to a user.
FRIENDLY = {
    "INT": "an integer",
    "DIM": "a dimension like '4x'",
    "ELEMENT": "an element type (" + ", ".join(ELEMENT_TYPES) + ")",
    "NUMBER": "a number",
    "STRING": "a string",
    "WORD": "a word",
    "KEY": "an attribute name",
    "PLACE": "a place like Place(cpu)",
    "VALUE_NAME": "a value like %3",
    "KWARG_NAME": "a kwarg like %kwarg_x",
    "NULL_VALUE": "<<NULL VALUE>>",
    "NULL_TYPE": "<<NULL TYPE>>",
    "OP_NAME": 'a quoted op name like "pd_op.add"',
    "ATTR_NULL": "{<#AttrNull>}",
    "TRUE": "true",
    "FALSE": "false",
    "_NL": "the end of the line",
    "$END": "the end of the text",
    "<END-OF-FILE>": "the end of the text",
    "_TENSOR_OPEN": "tensor<",
    "_PARTIAL_OPEN": "', partial('",
    "_PLACEMENTS_OPEN": "', placements:['",
    "_TYPED_PREFIX": "a typed prefix like (Int32)",
    "_OP_ID": "[id:N]",
    "INT_LIST": "a list of integers like [0,1]",
    "_MESH_SHAPE": "a dist attribute (mesh_shape:[..],...)",
    "_PROCESS_IDS": "',process_ids:'",
    "_DIMS_MAPPINGS": "',dims_mappings:'",
    "PARTIAL": "', partial(m,SUM)'",
    "PLACEMENT": "a placement like Shard(dim=0)",
    "_OP_DIST_OPEN": "an op_dist_attr ({mesh:{shape:[..],...})",
    "OPERAND_KEY": "',operand(i):'",
    "RESULT_KEY": "',result(i):'",
    "_CHUNK_KEY": "',chunk_id:'",
}


def describe_expected(names) -> str:
    """A readable list of what the parser would have accepted, such as "',' or '}'"."""
    return _describe_expected(names, program_parser(), FRIENDLY)


_FOUND = re.compile(r"[^\s,(){}\[\]<>]+|\S")


def _found_at(line: str, col: int) -> str:
    """What the text holds at 1-based ``col``, for "found ..." (a word, a sign or end of line)."""
    rest = line[col - 1:] if col >= 1 else ""
    m = _FOUND.search(rest)
    if not m or m.start() > 0 and not rest[:m.start()].isspace():
        return "end of line"
    return repr(m.group(0)[:24])


class _TopState(int):
    """A parser state that equals any other with the same LALR state number (an ``int``, as
    lark's debug logging formats it with ``%d``)."""

    def __new__(cls, state):
        return super().__new__(cls, state.position)

    def __eq__(self, other) -> bool:
        return int(self) == getattr(other, "position", other)

    __hash__ = int.__hash__


def syntax_error(e: UnexpectedInput, text: str, filename: str | None) -> ParseError:
    """Turn lark's exception into a :class:`ParseError`: where, the line with a caret, which
    mistake it looks like (``match_examples`` over :data:`~.pir_syntax_errors.EXAMPLES`) and what
    the grammar expected there."""
    from rulepass.engine.pir.syntax_errors import EXAMPLES, describe_characters

    lines = text.split("\n")
    parser = program_parser()
    example_label = None
    if e.state is not None:
        # lark compares whole parser states, stack depth included; an example program is
        # shallower than a real one (no header lines, no enclosing regions), so compare the
        # LALR state only.
        e.state = _TopState(e.state)
        example_label = match_label(e, parser.parse, EXAMPLES, token_type_match_fallback=True,
                                    use_accepts=True)

    # The most specific account first: what the text at the caret is (an unknown type, an
    # unterminated string), then where the text stops, then the state's labelled examples.
    label = None
    if isinstance(e, UnexpectedCharacters):
        line_no, col = e.line, e.column
        line = lines[line_no - 1]
        expected = set(e.allowed or ())
        found = _found_at(line, col)
        label = (odd_character(line[col - 1:col])
                 or describe_characters(expected, line, col, lexer_error=True))
    else:
        token = e.token if isinstance(e, UnexpectedToken) else None
        expected = set(e.expected or ())
        if token is None or token.type == "$END":
            # Point after the last text: that is where something is missing.
            line_no = len(lines)
            while line_no > 1 and not lines[line_no - 1].strip():
                line_no -= 1
            line = lines[line_no - 1]
            col = len(line.rstrip()) + 1
            found = "the end of the text"
            if "RBRACE" in expected:
                label = "a '}' is missing: the text ends inside a block"
            elif not text.strip():
                label = "empty program"
            else:
                label = "the text ends early"
        elif token.type == "_NL":
            line_no, col = token.line, token.column
            line = lines[line_no - 1]
            found = "end of line"
            label = "the line ends too early"
        else:
            line_no, col = token.line, token.column
            line = lines[line_no - 1]
            found = repr(str(token)[:24])
            label = describe_characters(expected, line, col, lexer_error=False)
            if expected <= {"$END", "<END-OF-FILE>", "_NL"}:
                label = "text after the end of the program (the '}' that closes it is above)"
                if line.lstrip(" \t").startswith("process_group") and expected == {"_NL"}:
                    label = ("text after a process group header, which is "
                             "`process_group RING_ID : [r0,r1,...]` alone on its line")
                if token.type == "ELSE":
                    label = "'} else {' outside an op with regions"
    label = label or example_label
    if label and "expected" in label:
        message = label
    else:
        what = f"expected {describe_expected(expected)}, found {found}"
        message = f"{label}: {what}" if label else what
    return ParseError(message, file=filename, line=line_no, col=col, source_line=line)
