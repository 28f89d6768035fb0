"""Parse PIR program text (``shared/spec/program-format.md``) into a :class:`Program`: the fast path.

``grammar/pir.lark`` is the definition of the format and gives the syntax error messages; this
module is a line-oriented scanner that builds the same IR roughly 50× faster (Paddle programs of
25k ops of ~500 characters each). ``tests/test_pir_lark.py`` checks that both agree on every
captured program. Types, dist attributes and attribute values repeat a lot in real programs, so
each distinct text is parsed once and cached (the results are immutable).

Errors are :class:`~rulepass.engine.errors.ParseError` with file, line, column, the line and a caret.
"""

from __future__ import annotations

import re

from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.errors import ParseError
from rulepass.engine.ir.core import Block, Operation, Program, Value, make_kwarg
from rulepass.engine.ir.types import (
    ELEMENT_TYPES,
    NULL_TYPE,
    DenseTensorType,
    DistTensorType,
    OperationDistAttr,
    Partial,
    ProcessMesh,
    Replicate,
    Shard,
    TensorDistAttr,
    VectorType,
)


class _Fail(Exception):
    """Internal: a parse failure at character offset ``pos`` of the current text; ``semantic``
    when the text is well-formed but means nothing (the grammar would accept it)."""

    def __init__(self, message: str, pos: int, semantic: bool = False):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.semantic = semantic


class _SyntaxFailure(ParseError):
    """Internal: a syntax error found by the fast scanner. :func:`parse_program` then re-parses
    the text with the grammar, whose message says what was expected."""


_INT = re.compile(r"-?\d+")
_NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|-?inf|nan")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_TYPED_PREFIX = re.compile(r"\((?:pd_op|builtin|pir|paddle|Int32|Int64|Float|Double|Bool|String|"
                           r"Array|[A-Za-z_][A-Za-z0-9_.:]*)\)")


# --------------------------------------------------------------------------------------------
# Scanner over one string
# --------------------------------------------------------------------------------------------


class _Scan:
    __slots__ = ("s", "i")

    def __init__(self, s: str, i: int = 0):
        self.s = s
        self.i = i

    def peek(self, text: str) -> bool:
        return self.s.startswith(text, self.i)

    def eat(self, text: str) -> bool:
        if self.s.startswith(text, self.i):
            self.i += len(text)
            return True
        return False

    def expect(self, text: str, what: str | None = None) -> None:
        if not self.s.startswith(text, self.i):
            got = self.s[self.i:self.i + 12] or "end of line"
            raise _Fail(f"expected {what or repr(text)}, found {got!r}", self.i)
        self.i += len(text)

    def match(self, rx: re.Pattern, what: str) -> str:
        m = rx.match(self.s, self.i)
        if not m:
            got = self.s[self.i:self.i + 12] or "end of line"
            raise _Fail(f"expected {what}, found {got!r}", self.i)
        self.i = m.end()
        return m.group(0)

    def int_list(self) -> list[int]:
        self.expect("[")
        out = []
        if self.eat("]"):
            return out
        while True:
            out.append(int(self.match(_INT, "an integer")))
            if self.eat("]"):
                return out
            self.expect(",", "',' or ']'")


# --------------------------------------------------------------------------------------------
# Dist attributes and types
# --------------------------------------------------------------------------------------------


def _placement(sc: _Scan):
    if sc.eat("Shard(dim="):
        d = int(sc.match(_INT, "a tensor dimension"))
        sc.expect(")")
        return Shard(d)
    if sc.eat("Replicate()"):
        return Replicate()
    if sc.eat("Partial(reduce_type="):
        start = sc.i
        r = sc.match(_WORD, "a reduce type")
        sc.expect(")")
        try:
            return Partial(r)
        except ValueError as e:
            raise _Fail(str(e), start, semantic=True) from None
    raise _Fail("expected a placement: Shard(dim=N), Replicate() or Partial(reduce_type=R)", sc.i)


def _tensor_dist_attr(sc: _Scan) -> TensorDistAttr:
    start = sc.i
    sc.expect("mesh_shape:")
    shape = sc.int_list()
    sc.expect(",process_ids:")
    ids = sc.int_list()
    sc.expect(",dims_mappings:")
    dims_mapping = sc.int_list()
    partial = []
    placements = None
    while sc.peek(", partial(") or sc.peek(",partial("):
        sc.eat(", ") or sc.eat(",")
        sc.expect("partial(")
        m = int(sc.match(_INT, "a mesh dimension"))
        sc.expect(",")
        r = sc.match(_WORD, "a reduce type")
        sc.expect(")")
        partial.append((m, r))
    if sc.eat(", placements:["):
        placements = []
        if not sc.eat("]"):
            while True:
                placements.append(_placement(sc))
                if sc.eat("]"):
                    break
                sc.expect(", ", "', ' or ']'")
    try:
        mesh = ProcessMesh(shape, ids) if shape or ids else None
        return TensorDistAttr.parsed(mesh, dims_mapping, partial, placements)
    except ValueError as e:
        raise _Fail(str(e), start, semantic=True) from None


def _dist_item(sc: _Scan):
    """``{<tensor dist attr>}`` or ``{[a,b,...]}`` (a vector operand)."""
    if sc.eat("{<#AttrNull>}"):
        return None  # Paddle's printing of a null attribute (dtensor_to_local's dense result)
    sc.expect("{")
    if sc.eat("["):
        items = []
        if not sc.eat("]"):
            while True:
                items.append(_tensor_dist_attr(sc))
                if sc.eat("]"):
                    break
                sc.expect(",", "',' or ']'")
        sc.expect("}")
        return tuple(items)
    attr = _tensor_dist_attr(sc)
    sc.expect("}")
    return attr


def _op_dist_attr(sc: _Scan) -> OperationDistAttr:
    start = sc.i
    sc.expect("{mesh:{shape:")
    shape = sc.int_list()
    sc.expect(",process_ids:")
    ids = sc.int_list()
    sc.expect("}")
    operands, results = [], []
    chunk_id = -1
    while sc.eat(","):
        if sc.eat("operand("):
            k = int(sc.match(_INT, "an operand index"))
            sc.expect("):")
            if k != len(operands):
                raise _Fail(f"operand({k}) out of order (expected operand({len(operands)}))", sc.i,
                            semantic=True)
            operands.append(_dist_item(sc))
        elif sc.eat("result("):
            k = int(sc.match(_INT, "a result index"))
            sc.expect("):")
            if k != len(results):
                raise _Fail(f"result({k}) out of order (expected result({len(results)}))", sc.i,
                            semantic=True)
            results.append(_dist_item(sc))
        elif sc.eat("chunk_id:"):
            chunk_id = int(sc.match(_INT, "a chunk id"))
        else:
            raise _Fail("expected operand(i):, result(i): or chunk_id: in op_dist_attr", sc.i)
    sc.expect("}")
    try:
        return OperationDistAttr(ProcessMesh(shape, ids), operands, results, chunk_id)
    except ValueError as e:
        raise _Fail(str(e), start, semantic=True) from None


_type_cache: dict[str, object] = {}
_dist_attr_cache: dict[str, OperationDistAttr] = {}


def _shape_and_dtype(sc: _Scan):
    dims = []
    while True:
        m = _INT.match(sc.s, sc.i)
        if m and sc.s.startswith("x", m.end()):
            dims.append(int(m.group(0)))
            sc.i = m.end() + 1
            continue
        break
    start = sc.i
    m = re.compile(r"[a-z]+\d*").match(sc.s, sc.i)
    if not m or m.group(0) not in ELEMENT_TYPES:
        got = m.group(0) if m else sc.s[sc.i:sc.i + 8]
        raise _Fail(f"unknown element type {got!r}; expected one of "
                    + ", ".join(ELEMENT_TYPES), start)
    sc.i = m.end()
    return dims, ELEMENT_TYPES[m.group(0)]


def _type(sc: _Scan):
    start = sc.i
    if sc.eat("tensor<") or sc.eat("builtin.tensor<"):
        dims, dtype = _shape_and_dtype(sc)
        sc.expect(">")
        return DenseTensorType(dims, dtype)
    if sc.eat("pd_dist.tensor<"):
        dims, dtype = _shape_and_dtype(sc)
        sc.expect(", ")
        dist = _tensor_dist_attr(sc)
        sc.expect(">")
        try:
            return DistTensorType(dims, dtype, dist)
        except ValueError as e:
            raise _Fail(str(e), start, semantic=True) from None
    if sc.eat("vec["):
        items = []
        if not sc.eat("]"):
            while True:
                items.append(_type(sc))
                if sc.eat("]"):
                    break
                sc.expect(",", "',' or ']'")
        return VectorType(items)
    if sc.eat("<<NULL TYPE>>"):
        return NULL_TYPE
    got = _WORD.match(sc.s, sc.i)
    raise _Fail(f"unknown type {got.group(0) if got else sc.s[sc.i:sc.i + 12]!r}; expected "
                "tensor<...>, pd_dist.tensor<...>, vec[...] or <<NULL TYPE>>", start)


def _type_list(sc: _Scan, end: str | None) -> list:
    """Types separated by ', ' up to ``end`` (not consumed) or the end of text."""
    out = []
    if (end is not None and sc.peek(end)) or sc.i >= len(sc.s):
        return out
    while True:
        out.append(_type(sc))
        if sc.eat(", "):
            continue
        return out


# --------------------------------------------------------------------------------------------
# Attribute values
# --------------------------------------------------------------------------------------------


def _attr_value(sc: _Scan):
    s, i = sc.s, sc.i
    c = s[i] if i < len(s) else ""
    if c == "(":
        m = _TYPED_PREFIX.match(s, i)
        if m:  # older Paddle: (pd_op.DataType)float32, (Int32)36 — the prefix is dropped
            sc.i = m.end()
            return _attr_value(sc)
    if c == '"':
        m = _STRING.match(s, i)
        if not m:
            raise _Fail("unterminated string", i)
        sc.i = m.end()
        text = m.group(1)
        return text.replace('\\"', '"').replace("\\\\", "\\") if "\\" in text else text
    if c == "[":
        sc.i += 1
        items = []
        if sc.eat("]"):
            return ()
        while True:
            items.append(_attr_value(sc))
            if sc.eat("]"):
                return tuple(items)
            sc.expect(",", "',' or ']'")
    if c == "{":
        # Many ops share one op_dist_attr text (every parameter of a mesh, say) while the rest of
        # their attributes differ: parse it once, and share the object (the printer's cache of
        # dist attribute texts is keyed by object).
        end = _matching_brace(s, i)
        hit = _dist_attr_cache.get(s[i:end]) if end > 0 else None
        if hit is not None:
            sc.i = end
            return hit
        value = _op_dist_attr(sc)
        if end > 0 and sc.i == end:
            if len(_dist_attr_cache) > 10_000:
                _dist_attr_cache.clear()
            _dist_attr_cache[s[i:end]] = value
        return value
    if s.startswith("true", i) and not _is_word_char(s, i + 4):
        sc.i += 4
        return True
    if s.startswith("false", i) and not _is_word_char(s, i + 5):
        sc.i += 5
        return False
    if s.startswith("Place(", i):
        j = s.find(")", i)
        if j < 0:
            raise _Fail("unterminated Place(...)", i)
        sc.i = j + 1
        return Place(s[i + 6:j])
    if s.startswith("mesh_shape:", i):
        return _tensor_dist_attr(sc)
    m = _NUMBER.match(s, i)
    if m and not _is_word_char(s, m.end()):
        sc.i = m.end()
        text = m.group(0)
        if re.fullmatch(r"-?\d+", text):
            # `%g` prints the float -0.0 as "-0"; no integer prints so.
            return int(text) if text != "-0" else -0.0
        return float(text)
    m = _WORD.match(s, i)
    if m:
        sc.i = m.end()
        return Symbol(m.group(0))
    raise _Fail("expected an attribute value", i)


def _is_word_char(s: str, i: int) -> bool:
    return i < len(s) and (s[i].isalnum() or s[i] in "_.")


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.@]*")


# An attribute whose value is flat (a scalar, a string, a place, an array of scalars): most of
# them. Its value text is parsed once per distinct text (``[false]``, ``0``, ``float32`` repeat on
# every op) and shared; anything else takes the general path of _attr_value.
_FLAT_ITEM = re.compile(r'([A-Za-z_][A-Za-z0-9_.@]*):("(?:[^"\\]|\\.)*"|Place\([^()]*\)'
                        r'|\[[^\[\]{}"()]*\]|[^,{}\[\]"()]+)(?=[,}])')
_flat_value_cache: dict[str, object] = {}
_NOT_FLAT = object()


def _flat_value(text: str):
    """The value of a flat attribute text, or ``_NOT_FLAT`` when the general path must read it
    (it does not parse as a whole: the general path then reports the error)."""
    if text[0] == '"':
        body = text[1:-1]
        return body.replace('\\"', '"').replace("\\\\", "\\") if "\\" in body else body
    value = _flat_value_cache.get(text, _NOT_FLAT)
    if value is _NOT_FLAT:
        sc = _Scan(text)
        try:
            value = _attr_value(sc)
        except _Fail:
            return _NOT_FLAT
        if sc.i != len(text):
            return _NOT_FLAT
        if len(_flat_value_cache) > 100_000:  # distinct numbers can be many; stay bounded
            _flat_value_cache.clear()
        _flat_value_cache[text] = value
    return value


def _attr_dict(sc: _Scan) -> list[tuple[str, object]]:
    sc.expect("{", "'{' opening the attributes")
    items = []
    if sc.eat("}"):
        return items
    s = sc.s
    flat = _FLAT_ITEM.match
    while True:
        m = flat(s, sc.i)
        value = _flat_value(m.group(2)) if m is not None else _NOT_FLAT
        if value is not _NOT_FLAT:
            items.append((m.group(1), value))
            sc.i = m.end()
        else:
            key = sc.match(_KEY, "an attribute name")
            sc.expect(":", "':' after the attribute name")
            items.append((key, _attr_value(sc)))
        if sc.eat("}"):
            return items
        sc.expect(",", "',' or '}' in the attributes")


# --------------------------------------------------------------------------------------------
# Program
# --------------------------------------------------------------------------------------------

_RESULT_NAME = re.compile(r"%[A-Za-z0-9_.@]+|<<NULL VALUE>>")
_GROUP = re.compile(r"process_group\s+(-?\d+)\s*:\s*\[([\d,\s]*)\]\s*$")


class _ProgramParser:
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
            self.lineno, self.line = n, raw
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if done:
                raise self.error("text after the end of the program", len(raw) - len(raw.lstrip()),
                                 syntax=True)
            indent = len(raw) - len(raw.lstrip())
            if not stack:
                if stripped.startswith("process_group"):
                    m = _GROUP.match(stripped)
                    if not m:
                        raise self.error("malformed process group header; expected "
                                         "'process_group RING_ID : [r0,r1,...]'", indent,
                                         syntax=True)
                    ranks = tuple(int(x) for x in m.group(2).replace(" ", "").split(",") if x)
                    groups[int(m.group(1))] = ranks
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

    def parse_kwarg(self, stripped: str, indent: int, program: Program) -> None:
        sc = _Scan(stripped)
        try:
            name = sc.match(_RESULT_NAME, "a kwarg name")[len("%kwarg_"):]
            sc.expect(" ")
            attrs = _attr_dict(sc)
            if sc.i != len(stripped):
                raise _Fail("unexpected text after the kwarg's attributes", sc.i)
        except _Fail as f:
            raise self.error(f.message, indent + f.pos, syntax=not f.semantic) from None
        full = f"%kwarg_{name}"
        if full in self.values:
            raise self.error(f"{full} is defined twice", indent)
        v = make_kwarg(name, NULL_TYPE, attrs)
        self.values[full] = v
        program.add_kwarg(v)

    def parse_op(self, raw: str, indent: int) -> tuple[Operation, bool]:
        sc = _Scan(raw, indent)
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
                raise _Fail("unterminated op name", sc.i)
            name = raw[sc.i:j]
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z0-9_.]+", name):
                raise _Fail(f"malformed op name {name!r}; expected dialect.op", sc.i)
            sc.i = j + 1
            if sc.peek(" [id:"):
                close = raw.find("]", sc.i)
                if close < 0:
                    raise _Fail("unterminated [id:N]", sc.i)
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
                    body = _Scan(raw[:len(raw) - 2], sc.i)
                    result_types = self.type_list(body, None) if body.i < len(body.s) else []
                    sc.i = len(raw)
                    opens = True
                else:
                    result_types = self.type_list(sc, None)
            if sc.i != len(raw):
                if raw.endswith(" {") and sc.i == len(raw) - 2:
                    opens = True
                else:
                    raise _Fail("unexpected text after the result types", sc.i)
        except _Fail as f:
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

    def attributes(self, sc: _Scan) -> list:
        # The attribute text of one op is looked up whole first: real programs repeat it a lot.
        start = sc.i
        end = _matching_brace(sc.s, start)
        if end > 0:
            key = sc.s[start:end]
            hit = self.attr_cache.get(key)
            if hit is not None:
                sc.i = end
                return hit
        attrs = _attr_dict(sc)
        if end > 0 and sc.i == end:
            self.attr_cache[sc.s[start:end]] = attrs
        return attrs

    def type_list(self, sc: _Scan, end: str | None) -> list:
        s = sc.s
        stop = _type_list_end(s, sc.i) if end == ")" else len(s)
        key = s[sc.i:stop]
        hit = self.typelist_cache.get(key)
        if hit is not None:
            sc.i = stop
            return hit
        inner = _Scan(key)
        try:
            types = _type_list(inner, None)
        except _Fail as f:
            f.pos += sc.i  # inner positions count from the start of the type list
            raise
        if inner.i != len(key):
            raise _Fail("malformed type list", sc.i + inner.i)
        sc.i = stop
        self.typelist_cache[key] = types
        return types


_BRACE_OR_QUOTE = re.compile(r'[{}"]')
_NESTING = re.compile(r"[<\[(>\])]")


def _matching_brace(s: str, i: int) -> int:
    """Offset just past the ``}`` matching the ``{`` at ``i`` (strings skipped), or -1."""
    if i >= len(s) or s[i] != "{":
        return -1
    # Jump from brace to brace with a regex: a loop over every character is the parser's
    # slowest part on ~500-character op lines.
    depth = 0
    search = _BRACE_OR_QUOTE.search
    m = search(s, i)
    while m is not None:
        j = m.start()
        c = s[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j + 1
        else:
            string = _STRING.match(s, j)
            if string is None:
                return -1
            m = search(s, string.end())
            continue
        m = search(s, j + 1)
    return -1


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
    try:
        return _ProgramParser(text, filename).parse()
    except _SyntaxFailure as failure:
        known_good = failure.line - 1  # the lines before it parsed
    from rulepass.engine.pir.lark_parser import parse_program_lark  # imported late: lark is needed only here

    return parse_program_lark(text, filename, known_good=known_good)


def parse_type(text: str):
    """Parse one type, e.g. ``"tensor<4x8xf32>"``; ``ParseError`` if malformed."""
    try:
        return _type_cached(text)
    except _Fail as f:
        raise ParseError(f.message, col=f.pos + 1, source_line=text, line=1) from None


def _type_cached(text: str):
    t = _type_cache.get(text)
    if t is None:
        sc = _Scan(text)
        t = _type(sc)
        if sc.i != len(text):
            raise _Fail("unexpected text after the type", sc.i)
        _type_cache[text] = t
    return t


def parse_attribute_value(text: str):
    """Parse one attribute value as printed (``1e-05``, ``[1,2]``, ``"s"``, ``float32``...)."""
    sc = _Scan(text)
    try:
        v = _attr_value(sc)
        if sc.i != len(text):
            raise _Fail("unexpected text after the value", sc.i)
    except _Fail as f:
        raise ParseError(f.message, col=f.pos + 1, source_line=text, line=1) from None
    return v
