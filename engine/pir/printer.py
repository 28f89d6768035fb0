"""Print a :class:`~rulepass.engine.ir.core.Program` in Paddle 3.x's PIR text (see
`docs/spec/program-format.md`), byte for byte as Paddle's ``IrPrinter`` writes it
(``paddle/pir/src/core/ir_printer.cc``, ``dist_dialect.cc``), plus our process-group header.

Value names are assigned here, in order of definition: results ``%0, %1, ...``; kwargs
``%kwarg_<name>``. Nothing about names is stored in the IR.
"""

from __future__ import annotations

import bisect

from rulepass.engine.ir.attributes import Place, Symbol, format_float, format_string, format_value
from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.ir.types import (
    DTYPE_TO_ELEMENT,
    DenseTensorType,
    DistTensorType,
    NullType,
    OperationDistAttr,
    TensorDistAttr,
    VectorType,
)

INDENT = "    "

_type_cache: dict = {}


def format_mesh_fields(mesh) -> str:
    """``mesh_shape:[2],process_ids:[0,1]``."""
    if mesh is None:
        return "mesh_shape:[],process_ids:[]"
    return (f"mesh_shape:[{','.join(map(str, mesh.shape))}],"
            f"process_ids:[{','.join(map(str, mesh.process_ids))}]")


def format_tensor_dist_attr(d: TensorDistAttr) -> str:
    """``mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], partial(0,SUM), placements:[...]``."""
    out = format_mesh_fields(d.mesh) + f",dims_mappings:[{','.join(map(str, d.dims_mapping))}]"
    if d.partial:
        out += ", " + ",".join(f"partial({m},{r})" for m, r in d.partial)
    if d.show_placements:
        out += ", placements:[" + ", ".join(str(p) for p in d.placements) + "]"
    return out


def _format_operand_dist(x) -> str:
    if x is None:
        return "{<#AttrNull>}"
    if isinstance(x, tuple):
        return "{[" + ",".join(format_tensor_dist_attr(i) for i in x) + "]}"
    return "{" + format_tensor_dist_attr(x) + "}"


def format_op_dist_attr(d: OperationDistAttr) -> str:
    """``{mesh:{shape:[2],process_ids:[0,1]},operand(0):{...},result(0):{...},chunk_id:-1}``."""
    parts = ["{mesh:{shape:[" + ",".join(map(str, d.mesh.shape)) + "],process_ids:["
             + ",".join(map(str, d.mesh.process_ids)) + "]}"]
    for i, x in enumerate(d.operands):
        parts.append(f"operand({i}):" + _format_operand_dist(x))
    for i, x in enumerate(d.results):
        parts.append(f"result({i}):" + _format_operand_dist(x))
    parts.append(f"chunk_id:{d.chunk_id}")
    return ",".join(parts) + "}"


def format_type(t) -> str:
    """Print one type: ``tensor<4x8xf32>``, ``pd_dist.tensor<...>``, ``vec[...]``,
    ``<<NULL TYPE>>``."""
    try:
        return _type_cache[t]
    except KeyError:
        pass
    if isinstance(t, DenseTensorType):
        s = "tensor<" + "".join(f"{d}x" for d in t.shape) + DTYPE_TO_ELEMENT[t.dtype] + ">"
    elif isinstance(t, DistTensorType):
        s = ("pd_dist.tensor<" + "".join(f"{d}x" for d in t.shape) + DTYPE_TO_ELEMENT[t.dtype]
             + ", " + format_tensor_dist_attr(t.dist) + ">")
    elif isinstance(t, VectorType):
        s = "vec[" + ",".join(format_type(i) for i in t.items) + "]"
    elif isinstance(t, NullType) or t is None:
        s = "<<NULL TYPE>>"
    else:
        raise TypeError(f"cannot print type {t!r}")
    _type_cache[t] = s
    return s


def format_attr_value(key: str, v) -> str:
    """Print one attribute value, nested dist attributes included."""
    if isinstance(v, OperationDistAttr):
        return format_op_dist_attr(v)
    if isinstance(v, TensorDistAttr):
        return format_tensor_dist_attr(v)
    return format_value(v)


class Namer:
    """Assigns printed names to values in order of first definition; also holds this print's
    cache of op dist attribute texts (programs repeat a few of them on thousands of ops)."""

    def __init__(self):
        self.names: dict[Value, str] = {}
        self.next_id = 0
        # Keyed by id(): the objects are alive (held by the ops) while one program prints, and
        # the parser shares one object among equal types and dist attributes, so this avoids
        # hashing nested attrs classes, which costs more than looking them up.
        self.dist_texts: dict[int, str] = {}
        self.type_texts: dict[int, str] = {}

    def define(self, v: Value) -> str:
        if v.kwarg_name is not None:
            name = f"%kwarg_{v.kwarg_name}"
        else:
            name = f"%{self.next_id}"
            self.next_id += 1
        self.names[v] = name
        return name

    def name(self, v: Value | None) -> str:
        if v is None:
            return "<<NULL VALUE>>"
        try:
            return self.names[v]
        except KeyError:
            # A value read before it is defined (an unverified program): name it now so the
            # text still shows the problem instead of failing to print.
            return self.define(v)


def _format_fast(v) -> str:
    """:func:`format_attr_value` for the common value types, by a type lookup instead of a chain
    of ``isinstance`` tests (the printer's hot path)."""
    t = type(v)
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return str(v)
    if t is str:
        return format_string(v)
    if t is tuple:
        return "[" + ",".join([_format_fast(x) for x in v]) + "]"
    if t is float:
        return format_float(v)
    if t is Symbol:
        return v.text
    if t is Place:
        return f"Place({v.text})"
    return format_attr_value("", v)


def format_attributes(op: Operation, namer: "Namer | None" = None) -> str:
    """``{a:1,b:"x",op_dist_attr:{...}}`` with keys sorted as Paddle sorts them."""
    attributes = op.attributes
    dist_attr = op.dist_attr
    if dist_attr is None:
        return "{" + ",".join([f"{k}:{_format_fast(attributes[k])}"
                               for k in sorted(attributes)]) + "}"
    cache = namer.dist_texts if namer is not None else {}
    dist_text = cache.get(id(dist_attr))
    if dist_text is None:
        dist_text = cache[id(dist_attr)] = format_op_dist_attr(dist_attr)
    keys = sorted(attributes)
    if "op_dist_attr" not in attributes:
        bisect.insort(keys, "op_dist_attr")
    return "{" + ",".join([
        "op_dist_attr:" + dist_text if k == "op_dist_attr" else f"{k}:{_format_fast(attributes[k])}"
        for k in keys
    ]) + "}"


def _type_text(t, cache: dict) -> str:
    text = cache.get(id(t))
    if text is None:
        text = cache[id(t)] = format_type(t)
    return text


def format_op_header(op: Operation, namer: Namer) -> str:
    """The op's line without indentation (for ops with regions: up to the opening ``{``)."""
    names = namer.names
    operand_values = op._operands
    operand_names = []
    for v in operand_values:
        if v is None:
            operand_names.append("<<NULL VALUE>>")
        else:
            name = names.get(v)
            operand_names.append(name if name is not None else namer.name(v))
    operands = ", ".join(operand_names)
    results = ", ".join([namer.define(r) for r in op.results])
    type_texts = namer.type_texts
    result_types = ", ".join([_type_text(r.type, type_texts) for r in op.results])
    attrs = format_attributes(op, namer)
    if op.regions:
        return f'({results}) = "{op.name}" ({operands}) {attrs} -> {result_types} {{'
    operand_types = ", ".join([
        _type_text(v.type, type_texts) if v is not None else "<<NULL TYPE>>"
        for v in operand_values
    ])
    return (f'({results}) = "{op.name}" ({operands}) {attrs} : ({operand_types}) -> '
            f"{result_types}")


def _format_kwargs(program: Program, namer: Namer, out: list[str]) -> None:
    if not program.kwargs:
        return
    out.append(INDENT + "^kw:")
    for kw in program.kwargs:
        name = namer.define(kw)
        attrs = ",".join(f"{k}:{format_attr_value(k, v)}" for k, v in kw.kwarg_attrs or [])
        out.append(INDENT * 2 + f"{name} {{{attrs}}}")


def print_program(program: Program) -> str:
    """The program as text: an optional ``process_group`` header, then ``{ ... }`` and a newline.

    Nested blocks are printed without recursion, so deeply nested programs print too.
    """
    out: list[str] = []
    for ring_id in sorted(program.process_groups):
        ranks = program.process_groups[ring_id]
        out.append(f"process_group {ring_id} : [{','.join(map(str, ranks))}]")
    out.append("{")
    namer = Namer()
    _format_kwargs(program, namer, out)
    # Explicit stack of (op iterator, depth) so nesting depth never hits Python's recursion limit.
    stack = [(iter(program.block), 1, None)]
    while stack:
        it, depth, owner = stack[-1]
        op = next(it, None)
        if op is None:
            stack.pop()
            if owner is not None:
                region_op, region_index = owner
                pad = INDENT * (depth - 1)
                if region_index + 1 < len(region_op.regions):
                    out.append(pad + "} else {")
                    stack.append((iter(region_op.regions[region_index + 1]), depth,
                                  (region_op, region_index + 1)))
                else:
                    out.append(pad + "}")
            continue
        out.append(INDENT * depth + format_op_header(op, namer))
        if op.regions:
            stack.append((iter(op.regions[0]), depth + 1, (op, 0)))
    out.append("}")
    return "\n".join(out) + "\n"


def print_op(op: Operation) -> str:
    """One op's line with fresh names (for messages)."""
    namer = Namer()
    return format_op_header(op, namer)
