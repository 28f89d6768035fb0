"""The scanner of the fast PIR parser (``engine/pir/parse.py``) and what it reads inside one
line: types, dist attributes, placements and attribute values. Each distinct type text is parsed
once and cached (types are immutable).

``ScanFailure`` is a failure at a character offset of the scanned text; the program parser turns
it into a :class:`~rulepass.engine.errors.ParseError` with file, line and column.
"""

from __future__ import annotations

import re

from rulepass.engine.ir.attributes import Place, Symbol, unquote_string
from rulepass.engine.errors import ParseError
from rulepass.engine.limits import (MAX_NESTING, STRING_PATTERN, LimitExceeded, int64,
                                    nesting_message)
from rulepass.engine.ir.core import Block, Operation, Program, Value, make_kwarg
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


class ScanFailure(Exception):
    """Internal: a parse failure at character offset ``pos`` of the current text; ``semantic``
    when the text is well-formed but means nothing (the grammar would accept it)."""

    def __init__(self, message: str, pos: int, semantic: bool = False):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.semantic = semantic



_INT = re.compile(r"-?\d+")
_NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|-?inf|nan")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_PLACE = re.compile(r"Place\([^()\n,{}\[\]]*\)")  # grammar/pir.lark's PLACE
# Paddle's string rule (`limits.STRING_PATTERN`: only `\"` is an escape), the loop unrolled
# (Friedl): `(?:[^"\\]|\\.)*` kept a backtracking frame per character (a 2 MB string took 300 MB
# and a second); this is linear in constant memory.
STRING = re.compile(STRING_PATTERN)
_TYPED_PREFIX = re.compile(r"\((?:pd_op|builtin|pir|paddle|Int32|Int64|Float|Double|Bool|String|"
                           r"Array|[A-Za-z_][A-Za-z0-9_.:]*)\)")


# --------------------------------------------------------------------------------------------
# Scanner over one string
# --------------------------------------------------------------------------------------------


class Scanner:
    """A position ``i`` in the string ``s``; the ``scan_*`` functions read from it and advance it."""

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
            raise ScanFailure(f"expected {what or repr(text)}, found {got!r}", self.i)
        self.i += len(text)

    def match(self, rx: re.Pattern, what: str) -> str:
        m = rx.match(self.s, self.i)
        if not m:
            got = self.s[self.i:self.i + 12] or "end of line"
            raise ScanFailure(f"expected {what}, found {got!r}", self.i)
        self.i = m.end()
        return m.group(0)

    def integer(self, what: str) -> int:
        """An integer literal (``-?[0-9]+``) that fits in int64 (``engine/limits.py``)."""
        start = self.i
        text = self.match(_INT, what)
        try:
            return int64(text)
        except LimitExceeded as e:
            raise ScanFailure(e.message, start, semantic=True) from None

    def int_list(self) -> list[int]:
        self.expect("[")
        out = []
        if self.eat("]"):
            return out
        while True:
            out.append(self.integer("an integer"))
            if self.eat("]"):
                return out
            self.expect(",", "',' or ']'")


# --------------------------------------------------------------------------------------------
# Dist attributes and types
# --------------------------------------------------------------------------------------------


def _placement(sc: Scanner):
    if sc.eat("Shard(dim="):
        d = sc.integer("a tensor dimension")
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
            raise ScanFailure(str(e), start, semantic=True) from None
    raise ScanFailure("expected a placement: Shard(dim=N), Replicate() or Partial(reduce_type=R)", sc.i)


def _tensor_dist_attr(sc: Scanner) -> TensorDistAttr:
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
        m = sc.integer("a mesh dimension")
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
        raise ScanFailure(str(e), start, semantic=True) from None


def _dist_item(sc: Scanner):
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


def _op_dist_attr(sc: Scanner) -> OperationDistAttr:
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
            k = sc.integer("an operand index")
            sc.expect("):")
            if k != len(operands):
                raise ScanFailure(f"operand({k}) out of order (expected operand({len(operands)}))", sc.i,
                            semantic=True)
            operands.append(_dist_item(sc))
        elif sc.eat("result("):
            k = sc.integer("a result index")
            sc.expect("):")
            if k != len(results):
                raise ScanFailure(f"result({k}) out of order (expected result({len(results)}))", sc.i,
                            semantic=True)
            results.append(_dist_item(sc))
        elif sc.eat("chunk_id:"):
            chunk_id = sc.integer("a chunk id")
        else:
            raise ScanFailure("expected operand(i):, result(i): or chunk_id: in op_dist_attr", sc.i)
    sc.expect("}")
    try:
        return OperationDistAttr(ProcessMesh(shape, ids), operands, results, chunk_id)
    except ValueError as e:
        raise ScanFailure(str(e), start, semantic=True) from None


_type_cache: dict[str, object] = {}
_dist_attr_cache: dict[str, OperationDistAttr] = {}


def _shape_and_dtype(sc: Scanner):
    dims = []
    while True:
        m = _INT.match(sc.s, sc.i)
        if m and sc.s.startswith("x", m.end()):
            dims.append(sc.integer("a dimension"))
            problem = dimension_problem(dims[-1])
            if problem:  # at the dimension, not at the type
                raise ScanFailure(problem, m.start(), semantic=True)
            sc.i = m.end() + 1
            continue
        break
    start = sc.i
    m = re.compile(r"[a-z]+\d*").match(sc.s, sc.i)
    if not m or m.group(0) not in ELEMENT_TYPES:
        got = m.group(0) if m else sc.s[sc.i:sc.i + 8]
        raise ScanFailure(f"unknown element type {got!r}; expected one of "
                    + ", ".join(ELEMENT_TYPES), start)
    sc.i = m.end()
    return dims, ELEMENT_TYPES[m.group(0)]


def scan_type(sc: Scanner, depth: int = 0):
    """One type at ``sc``; ``depth``: the ``vec[`` around it (at most MAX_NESTING)."""
    start = sc.i
    if sc.eat("tensor<") or sc.eat("builtin.tensor<"):
        dims, dtype = _shape_and_dtype(sc)
        sc.expect(">")
        try:
            return DenseTensorType(dims, dtype)
        except ValueError as e:
            raise ScanFailure(str(e), start, semantic=True) from None
    if sc.eat("pd_dist.tensor<"):
        dims, dtype = _shape_and_dtype(sc)
        sc.expect(", ")
        dist = _tensor_dist_attr(sc)
        sc.expect(">")
        try:
            return DistTensorType(dims, dtype, dist)
        except ValueError as e:
            raise ScanFailure(str(e), start, semantic=True) from None
    if sc.eat("vec["):
        if depth >= MAX_NESTING:
            raise ScanFailure(nesting_message("type"), start, semantic=True)
        items = []
        if not sc.eat("]"):
            while True:
                items.append(scan_type(sc, depth + 1))
                if sc.eat("]"):
                    break
                sc.expect(",", "',' or ']'")
        return VectorType(items)
    if sc.eat("<<NULL TYPE>>"):
        return NULL_TYPE
    got = _WORD.match(sc.s, sc.i)
    raise ScanFailure(f"unknown type {got.group(0) if got else sc.s[sc.i:sc.i + 12]!r}; expected "
                "tensor<...>, pd_dist.tensor<...>, vec[...] or <<NULL TYPE>>", start)


def scan_type_list(sc: Scanner, end: str | None) -> list:
    """Types separated by ', ' up to ``end`` (not consumed) or the end of text."""
    out = []
    if (end is not None and sc.peek(end)) or sc.i >= len(sc.s):
        return out
    while True:
        out.append(scan_type(sc))
        if sc.eat(", "):
            continue
        return out


# --------------------------------------------------------------------------------------------
# Attribute values
# --------------------------------------------------------------------------------------------


def scan_attr_value(sc: Scanner, depth: int = 0):
    """One attribute value at ``sc``; ``depth``: the arrays around it (at most MAX_NESTING)."""
    s, i = sc.s, sc.i
    c = s[i] if i < len(s) else ""
    if c == "(":
        m = _TYPED_PREFIX.match(s, i)
        if m:  # older Paddle: (pd_op.DataType)float32, (Int32)36 — the prefix is dropped
            sc.i = m.end()
            return scan_attr_value(sc, depth)
    if c == '"':
        m = STRING.match(s, i)
        if not m:
            raise ScanFailure("unterminated string", i)
        sc.i = m.end()
        return unquote_string(m.group(1))
    if c == "[":
        if depth >= MAX_NESTING:
            raise ScanFailure(nesting_message(), i, semantic=True)
        sc.i += 1
        items = []
        if sc.eat("]"):
            return ()
        while True:
            items.append(scan_attr_value(sc, depth + 1))
            if sc.eat("]"):
                return tuple(items)
            sc.expect(",", "',' or ']'")
    if c == "{":
        # Many ops share one op_dist_attr text (every parameter of a mesh, say) while the rest of
        # their attributes differ: parse it once, and share the object (the printer's cache of
        # dist attribute texts is keyed by object).
        end = matching_brace(s, i)
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
        m = _PLACE.match(s, i)
        if m is None:
            raise ScanFailure("malformed Place(...)", i)
        sc.i = m.end()
        return Place(s[i + 6:m.end() - 1])
    if s.startswith("mesh_shape:", i):
        return _tensor_dist_attr(sc)
    m = _NUMBER.match(s, i)
    if m and not _is_word_char(s, m.end()):
        sc.i = m.end()
        text = m.group(0)
        if re.fullmatch(r"-?\d+", text):
            # `%g` prints the float -0.0 as "-0"; no integer prints so.
            if text == "-0":
                return -0.0
            try:
                return int64(text)
            except LimitExceeded as e:
                raise ScanFailure(e.message, i, semantic=True) from None
        return float(text)
    m = _WORD.match(s, i)
    if m:
        sc.i = m.end()
        return Symbol(m.group(0))
    raise ScanFailure("expected an attribute value", i)


def _is_word_char(s: str, i: int) -> bool:
    return i < len(s) and (s[i].isalnum() or s[i] in "_.")


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.@]*")


# An attribute whose value is flat (a scalar, a string, a place, an array of scalars): most of
# them. Its value text is parsed once per distinct text (``[false]``, ``0``, ``float32`` repeat on
# every op) and shared; anything else takes the general path of scan_attr_value.
_FLAT_ITEM = re.compile(r'([A-Za-z_][A-Za-z0-9_.@]*):(' + STRING_PATTERN.replace("(", "(?:", 1)
                        + r'|Place\([^()]*\)|\[[^\[\]{}"()]*\]|[^,{}\[\]"()]+)(?=[,}])')
_flat_value_cache: dict[str, object] = {}
_NOT_FLAT = object()


def _flat_value(text: str):
    """The value of a flat attribute text, or ``_NOT_FLAT`` when the general path must read it
    (it does not parse as a whole: the general path then reports the error)."""
    if text[0] == '"':
        return unquote_string(text[1:-1])
    value = _flat_value_cache.get(text, _NOT_FLAT)
    if value is _NOT_FLAT:
        sc = Scanner(text)
        try:
            value = scan_attr_value(sc)
        except ScanFailure:
            return _NOT_FLAT
        if sc.i != len(text):
            return _NOT_FLAT
        if len(_flat_value_cache) > 100_000:  # distinct numbers can be many; stay bounded
            _flat_value_cache.clear()
        _flat_value_cache[text] = value
    return value


def first_duplicate(items) -> str | None:
    """The first attribute name that ``items`` ((name, value) pairs) gives twice, or None. Both
    parsers refuse such text: which value was meant is unknown (``{value:1,value:2}``)."""
    if len(items) < 2:
        return None
    seen = set()
    for key, _ in items:
        if key in seen:
            return key
        seen.add(key)
    return None


def group_problem(ring_id: int, ranks: tuple, seen) -> tuple[str, int | None] | None:
    """What is wrong with the header ``process_group ring_id : [ranks]`` after the ring ids
    ``seen``, or None; both parsers ask it, in this order (one format, one answer): a ring id
    negative, given twice, no ranks, a negative rank, a rank given twice. The answer is
    ``(message, where)``: ``where`` is -1 for the ring id, k for the k-th rank, None for the
    header as a whole (see :func:`group_item_column`)."""
    if ring_id < 0:
        return f"process_group {ring_id}: a ring id is >= 0", -1
    if ring_id in seen:
        return f"process_group {ring_id} is given twice", -1
    if not ranks:
        return f"process_group {ring_id} has no ranks", None
    for k, r in enumerate(ranks):
        if r < 0:
            return f"process_group {ring_id} has rank {r}; ranks are >= 0", k
    for k, r in enumerate(ranks):
        if r in ranks[:k]:
            return f"process_group {ring_id} lists rank {r} twice", k
    return None


def group_item_column(header: str, where: int | None) -> int:
    """The 0-based column, in ``header`` (the text of a well-formed process group header line
    from its ``process_group`` keyword on), of the ring id (``where`` -1) or of the k-th rank
    (``where`` k); 0 for None."""
    if where is None:
        return 0
    skip = len("process_group")
    numbers = list(_INT.finditer(header, skip))
    return numbers[where + 1].start() if where + 1 < len(numbers) else 0


def scan_attr_dict(sc: Scanner) -> list[tuple[str, object]]:
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
            items.append((key, scan_attr_value(sc)))
        if sc.eat("}"):
            return items
        sc.expect(",", "',' or '}' in the attributes")


# --------------------------------------------------------------------------------------------
# Program
# --------------------------------------------------------------------------------------------


def parse_type(text: str):
    """Parse one type, e.g. ``"tensor<4x8xf32>"``; ``ParseError`` if malformed."""
    try:
        return _type_cached(text)
    except ScanFailure as f:
        raise ParseError(f.message, col=f.pos + 1, source_line=text, line=1) from None


def _type_cached(text: str):
    t = _type_cache.get(text)
    if t is None:
        sc = Scanner(text)
        t = scan_type(sc)
        if sc.i != len(text):
            raise ScanFailure("unexpected text after the type", sc.i)
        _type_cache[text] = t
    return t


def parse_attribute_value(text: str):
    """Parse one attribute value as printed (``1e-05``, ``[1,2]``, ``"s"``, ``float32``...)."""
    sc = Scanner(text)
    try:
        v = scan_attr_value(sc)
        if sc.i != len(text):
            raise ScanFailure("unexpected text after the value", sc.i)
    except ScanFailure as f:
        raise ParseError(f.message, col=f.pos + 1, source_line=text, line=1) from None
    return v


_BRACE_OR_QUOTE = re.compile(r'[{}"]')


def matching_brace(s: str, i: int) -> int:
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
            string = STRING.match(s, j)
            if string is None:
                return -1
            m = search(s, string.end())
            continue
        m = search(s, j + 1)
    return -1
