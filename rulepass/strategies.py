"""Hypothesis strategies for random well-formed programs, for rule authors' property tests
(hypothesis is the ``test`` extra: ``pip install 'rulepass[test]'``; :mod:`rulepass.testing`
re-exports these names and imports this module only when one is asked for).

A generated program is a DAG: each op reads values defined before it (in its block or, inside a
``pd_op.if`` region, in the blocks around it), so it always parses, prints and verifies. Ops come
from :data:`OP_REGISTRY`, a table of op builders (elementwise, matmul, reshape, split into a vector
plus ``builtin.split``, ``builtin.combine``, collectives with a ``ring_id`` from the program's
process groups, ``send_v2``); with ``dist=True`` every tensor is a ``pd_dist.tensor`` over a random
process mesh of up to 4 ranks, with random dims_mappings, partial mesh dims and placements, and ops
may carry an ``op_dist_attr``.

Example (a property every pass should have: rewriting keeps the program printable and parseable)::

    from hypothesis import given
    from rulepass.testing import programs
    from rulepass.engine.pir.printer import print_program
    from rulepass.engine.pir.parse import parse_program

    @given(programs(max_ops=10, dist=True))
    def test_round_trip(program):
        text = print_program(program)
        assert print_program(parse_program(text)) == text

The smaller strategies compose the same way: :func:`meshes`, :func:`dist_attrs` (for a mesh and a
tensor rank), :func:`types`, :func:`attribute_values`.
"""

from __future__ import annotations

import math
from typing import Callable

import attrs
from hypothesis import strategies as st

from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.ir.core import Block, Operation, Program, make_kwarg
from rulepass.engine.ir.types import (
    NULL_TYPE,
    REDUCE_TYPES,
    DenseTensorType,
    DistTensorType,
    OperationDistAttr,
    ProcessMesh,
    TensorDistAttr,
    VectorType,
)

#: dtypes generated programs use (a subset of ``ELEMENT_TYPES`` values).
DTYPES = ("float32", "float16", "bfloat16", "float64", "int32", "int64", "bool")


# --------------------------------------------------------------------------------------------
# Meshes, dist attributes, types
# --------------------------------------------------------------------------------------------


@st.composite
def meshes(draw, max_ranks: int = 4) -> ProcessMesh:
    """A :class:`ProcessMesh` of 1 or 2 dims holding at most ``max_ranks`` distinct ranks drawn
    from 0..7, in random order (``shape`` like ``(2,)`` or ``(2, 2)``)."""
    ndim = draw(st.integers(1, 2))
    shape = []
    for _ in range(ndim):
        room = max_ranks // max(1, math.prod(shape))
        shape.append(draw(st.integers(1, max(1, room))))
    count = math.prod(shape)
    ids = draw(st.permutations(range(8)))[:count]
    return ProcessMesh(shape, ids)


@st.composite
def dist_attrs(draw, mesh: ProcessMesh, rank: int) -> TensorDistAttr:
    """A valid :class:`TensorDistAttr` for a tensor of ``rank`` dims over ``mesh``: each tensor dim
    sharded over a distinct mesh dim or replicated, some unsharded mesh dims partial, placements
    shown or not (as Paddle prints both), sometimes with an extra ``Replicate()`` printed."""
    free = list(range(mesh.ndim))
    dims_mapping = []
    for _ in range(rank):
        choice = draw(st.sampled_from([-1] + free))
        if choice >= 0:
            free.remove(choice)
        dims_mapping.append(choice)
    partial = []
    for mesh_dim in free:
        if draw(st.booleans()) and draw(st.booleans()):
            partial.append((mesh_dim, draw(st.sampled_from(REDUCE_TYPES))))
    shown = draw(st.booleans())
    # now and then Paddle's extra Replicate() entries (a 1-D stage mesh printed with two)
    extra = draw(st.sampled_from([0, 0, 0, 1])) if shown else 0
    return TensorDistAttr(mesh, dims_mapping, partial, show_placements=shown,
                          extra_replicates=extra)


def shapes(max_rank: int = 3) -> st.SearchStrategy[tuple[int, ...]]:
    """Tensor shapes of rank 0..``max_rank``, dims 1..8 or -1 (dynamic)."""
    dim = st.one_of(st.integers(1, 8), st.just(-1))
    return st.lists(dim, min_size=0, max_size=max_rank).map(tuple)


@st.composite
def types(draw, mesh: ProcessMesh | None = None, shape=None, dtype=None):
    """A tensor type: ``tensor<...>``, or with ``mesh`` a ``pd_dist.tensor<...>`` over it.
    ``shape`` and ``dtype`` fix those parts (else drawn)."""
    shape = draw(shapes()) if shape is None else tuple(shape)
    dtype = draw(st.sampled_from(DTYPES)) if dtype is None else dtype
    if mesh is None:
        return DenseTensorType(shape, dtype)
    return DistTensorType(shape, dtype, draw(dist_attrs(mesh, len(shape))))


def attribute_values() -> st.SearchStrategy:
    """Attribute values as Paddle prints them: bools, ints, floats (``%g``-printable or not,
    ``inf``, ``nan``), strings (quotes and backslashes included), dtype symbols, places, and
    arrays of those; no string ends in a backslash (it does not read back)."""
    scalar = st.one_of(
        st.booleans(),
        st.integers(-(2 ** 40), 2 ** 40),
        st.floats(allow_nan=True, allow_infinity=True),
        # not ending in a backslash: Paddle prints such a value as `"...\"`, which no lexer reads
        # back (docs/deviations.md, "Strings ending in a backslash")
        st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8).filter(
            lambda s: not s.endswith("\\")),
        st.sampled_from([Symbol("float32"), Symbol("int64"), Symbol("NCHW"), Symbol("bool")]),
        st.sampled_from([Place("cpu"), Place("gpu:0"), Place("undefined:0")]),
    )
    return st.one_of(scalar, st.lists(scalar, max_size=3).map(tuple))


_ATTR_KEYS = ("dtype", "name", "op_role", "place", "shape", "stop_gradient", "struct_name",
              "value", "chunk_id", "axis", "grad_of", "op_id")


# --------------------------------------------------------------------------------------------
# The op table
# --------------------------------------------------------------------------------------------


@attrs.define
class Scope:
    """What an op builder may read: the values visible at the insertion point (newest last),
    the program's mesh (``None`` for dense programs) and process groups."""

    values: list
    mesh: ProcessMesh | None
    groups: dict


def _shape(t):
    return t.shape if isinstance(t, (DenseTensorType, DistTensorType)) else None


def _tensors(scope: Scope, pred: Callable = lambda t: True) -> list:
    return [v for v in scope.values if _shape(v.type) is not None and pred(v.type)]


def _result(draw, scope: Scope, shape, dtype):
    return draw(types(scope.mesh, shape=shape, dtype=dtype))


@attrs.frozen
class OpBuilder:
    """One entry of :data:`OP_REGISTRY`: ``build(draw, scope)`` returns ``(operands, result
    types, attributes)`` for a new op, or ``None`` when no visible value fits its operands."""

    name: str
    build: Callable


def _source(name):
    def build(draw, scope):
        t = draw(types(scope.mesh))
        return [], [t], {"dtype": Symbol(t.dtype), "shape": tuple(max(d, 1) for d in t.shape)}
    return OpBuilder(name, build)


def _unary(name):
    def build(draw, scope):
        xs = _tensors(scope)
        if not xs:
            return None
        x = draw(st.sampled_from(xs))
        return [x], [_result(draw, scope, x.type.shape, x.type.dtype)], {}
    return OpBuilder(name, build)


def _binary(name):
    def build(draw, scope):
        xs = _tensors(scope)
        if not xs:
            return None
        x = draw(st.sampled_from(xs))
        ys = _tensors(scope, lambda t: t.shape == x.type.shape and t.dtype == x.type.dtype)
        y = draw(st.sampled_from(ys))
        return [x, y], [_result(draw, scope, x.type.shape, x.type.dtype)], {}
    return OpBuilder(name, build)


def _matmul(draw, scope):
    xs = _tensors(scope, lambda t: len(t.shape) == 2)
    if not xs:
        return None
    x = draw(st.sampled_from(xs))
    m, k = x.type.shape
    ys = _tensors(scope, lambda t: len(t.shape) == 2 and t.shape[0] == k
                  and t.dtype == x.type.dtype)
    if not ys:
        return None
    y = draw(st.sampled_from(ys))
    attributes = {"transpose_x": False, "transpose_y": False}
    return [x, y], [_result(draw, scope, (m, y.type.shape[1]), x.type.dtype)], attributes


def _reshape(draw, scope):
    xs = _tensors(scope, lambda t: all(d > 0 for d in t.shape))
    if not xs:
        return None
    x = draw(st.sampled_from(xs))
    shape = (math.prod(x.type.shape),) if draw(st.booleans()) else tuple(reversed(x.type.shape))
    return [x], [_result(draw, scope, shape, x.type.dtype)], {"shape": shape}


def _split(draw, scope):
    xs = _tensors(scope, lambda t: len(t.shape) >= 1 and t.shape[0] > 0 and t.shape[0] % 2 == 0)
    if not xs:
        return None
    x = draw(st.sampled_from(xs))
    piece = (x.type.shape[0] // 2,) + tuple(x.type.shape[1:])
    items = [_result(draw, scope, piece, x.type.dtype) for _ in range(2)]
    return [x], [VectorType(items)], {"num": 2, "axis": 0}


def _unpack(draw, scope):
    vs = [v for v in scope.values if isinstance(v.type, VectorType)]
    if not vs:
        return None
    v = draw(st.sampled_from(vs))
    return [v], list(v.type.items), {}


def _combine(draw, scope):
    xs = _tensors(scope)
    if not xs:
        return None
    picked = draw(st.lists(st.sampled_from(xs), min_size=1, max_size=3))
    return picked, [VectorType([x.type for x in picked])], {}


def _collective(name):
    def build(draw, scope):
        xs = _tensors(scope)
        if not xs or not scope.groups:
            return None
        x = draw(st.sampled_from(xs))
        ring_id = draw(st.sampled_from(sorted(scope.groups)))
        attributes = {"ring_id": ring_id, "use_calc_stream": True}
        return [x], [_result(draw, scope, x.type.shape, x.type.dtype)], attributes
    return OpBuilder(name, build)


def _send(draw, scope):
    xs = _tensors(scope)
    if not xs or not scope.groups:
        return None
    x = draw(st.sampled_from(xs))
    ring_id = draw(st.sampled_from(sorted(scope.groups)))
    return [x], [], {"peer": draw(st.integers(0, 3)), "ring_id": ring_id}


def _scale_with_null(draw, scope):
    xs = _tensors(scope)
    if not xs:
        return None
    x = draw(st.sampled_from(xs))
    attributes = {"bias": 0.0, "scale": draw(st.floats(-4, 4, allow_nan=False))}
    return [x, None], [_result(draw, scope, x.type.shape, x.type.dtype)], attributes


#: Op builders by op name; programs draw from these (and ``pd_op.if`` when regions are on).
OP_REGISTRY: dict[str, OpBuilder] = {b.name: b for b in [
    _source("pd_op.data"),
    _source("pd_op.full"),
    _unary("pd_op.relu"),
    _unary("pd_op.exp"),
    _binary("pd_op.add"),
    _binary("pd_op.multiply"),
    OpBuilder("pd_op.matmul", _matmul),
    OpBuilder("pd_op.reshape", _reshape),
    OpBuilder("pd_op.split_with_num", _split),
    OpBuilder("builtin.split", _unpack),
    OpBuilder("builtin.combine", _combine),
    _collective("pd_op.all_reduce"),
    _collective("pd_op.c_allreduce_sum"),
    OpBuilder("pd_op.send_v2", _send),
    OpBuilder("pd_op.scale", _scale_with_null),
]}


# --------------------------------------------------------------------------------------------
# Ops and programs
# --------------------------------------------------------------------------------------------


def _dist_item(draw, mesh, t):
    if isinstance(t, DistTensorType):
        # Usually in step with the value's type, as Paddle keeps them; sometimes not.
        return t.dist if draw(st.integers(0, 3)) else draw(dist_attrs(mesh, len(t.shape)))
    if isinstance(t, VectorType):
        return tuple(_dist_item(draw, mesh, i) for i in t.items)
    return None  # printed {<#AttrNull>}


@st.composite
def op_dist_attrs(draw, mesh: ProcessMesh, operand_types, result_types) -> OperationDistAttr:
    """An :class:`OperationDistAttr` over ``mesh`` with one entry per operand and result type
    (a tuple for a vector, ``None`` for a dense or null type; mostly the type's own dist
    attribute) and a chunk_id in -1..3."""
    return OperationDistAttr(
        mesh,
        [_dist_item(draw, mesh, t) for t in operand_types],
        [_dist_item(draw, mesh, t) for t in result_types],
        draw(st.integers(-1, 3)),
    )


def _attributes(draw) -> dict:
    keys = draw(st.lists(st.sampled_from(_ATTR_KEYS), max_size=3, unique=True))
    return {k: draw(attribute_values()) for k in keys}


def _new_op(draw, scope: Scope, name, operands, result_types, attributes) -> Operation:
    attributes = {**_attributes(draw), **attributes}
    dist_attr = None
    if scope.mesh is not None and draw(st.booleans()):
        operand_types = [v.type if v is not None else NULL_TYPE for v in operands]
        dist_attr = draw(op_dist_attrs(scope.mesh, operand_types, result_types))
    return Operation.create(name, operands, result_types, attributes, dist_attr)


def _fill_block(draw, block: Block, scope: Scope, count: int, depth: int, regions: bool) -> None:
    names = list(OP_REGISTRY)  # sources first: the simplest program is one pd_op.data
    for _ in range(count):
        if regions and depth < 2 and _tensors(scope) and draw(st.integers(0, 9)) == 9:
            block.append(_if_op(draw, scope, depth))
            continue
        # The first op that fits, starting from a drawn one (the sources always fit).
        start = draw(st.integers(0, len(names) - 1))
        for name in names[start:] + names[:start]:
            built = OP_REGISTRY[name].build(draw, scope)
            if built is not None:
                break
        operands, result_types, attributes = built
        op = _new_op(draw, scope, name, operands, result_types, attributes)
        block.append(op)
        scope.values.extend(op.results)


def _if_op(draw, scope: Scope, depth: int) -> Operation:
    """``pd_op.if`` on a bool value, yielding in each region a value of one outer value's type."""
    conditions = _tensors(scope, lambda t: t.dtype == "bool")
    if conditions:
        condition = draw(st.sampled_from(conditions))
    else:
        condition = None  # <<NULL VALUE>>: the op is still well-formed text
    model = draw(st.sampled_from(_tensors(scope)))
    op = Operation.create("pd_op.if", [condition], [model.type],
                          {"stop_gradient": (True,)})
    for _ in range(2):
        inner = Scope(list(scope.values), scope.mesh, scope.groups)
        block = Block()
        _fill_block(draw, block, inner, draw(st.integers(0, 3)), depth + 1, True)
        same = _tensors(inner, lambda t: t == model.type)
        block.append(Operation.create("cf.yield", [draw(st.sampled_from(same))], []))
        op.add_region(block)
    return op


@st.composite
def programs(draw, max_ops: int = 12, dist: bool | None = None, regions: bool = True,
             kwargs: bool = True) -> Program:
    """A random well-formed :class:`Program` of up to ``max_ops`` top-level ops.

    ``dist``: ``True`` for dist types over one random mesh (and some ``op_dist_attr``), ``False``
    for dense types only, ``None`` to draw. ``regions``: allow ``pd_op.if`` with two regions
    (nested up to depth 2). ``kwargs``: allow ``^kw:`` values (typed by their first use, as the
    parser types them). The program has 0–2 process groups over ranks 0..3, which the collectives'
    ``ring_id`` attributes name.
    """
    if dist is None:
        dist = draw(st.booleans())
    mesh = draw(meshes()) if dist else None
    group_ids = draw(st.lists(st.integers(0, 40), max_size=2, unique=True))
    groups = {g: tuple(draw(st.permutations(range(4)))[:draw(st.integers(1, 4))])
              for g in group_ids}
    program = Program(process_groups=groups)
    scope = Scope([], mesh, groups)
    if kwargs:
        for k in range(draw(st.integers(0, 2))):
            # A kwarg's type is only printed where it is used; give it the type the parser will.
            kw = make_kwarg(f"w{k}.dist@GRAD", draw(types(mesh)),
                            [("persistable", True), ("place", Place("cpu"))])
            program.add_kwarg(kw)
            scope.values.append(kw)
    _fill_block(draw, program.block, scope, draw(st.integers(1, max_ops)), 0, regions)
    return program


# --------------------------------------------------------------------------------------------
# Random rule sets
# --------------------------------------------------------------------------------------------

#: Op names the rule templates match (ops :func:`programs` makes).
RULE_OPS = ("pd_op.relu", "pd_op.relu", "pd_op.data", "pd_op.exp", "pd_op.scale", "pd_op.add",
            "pd_op.multiply", "pd_op.matmul", "pd_op.full", "builtin.combine")

_UNARY = ("pd_op.relu", "pd_op.exp")


def _rule_text(draw, k: int) -> str:
    """One random rule (named ``r<k>``) from a few templates that cover the engine's actions:
    set / unset attributes (guarded or ping-pong), forward an op's operand, erase a dead op,
    create an op, fail; and its joins: a nested pattern, two patterns sharing a value or an
    attribute value, a pattern reading another's result."""
    op = draw(st.sampled_from(RULE_OPS))
    unary = draw(st.sampled_from(_UNARY))
    prio = draw(st.integers(0, 3))
    key = draw(st.sampled_from(("t0", "t0", "t1")))  # mostly one key, so rules meet
    value = draw(st.sampled_from(("1", "2", '"x"', "true", "index(o)", "uses(o)")))
    templates = [
        f"rule r{k} priority {prio} {{ match {{ o = {op} }} where not has(o.{key}) "
        f"rewrite {{ set o.{key} = {value} }} }}",
        f"rule r{k} priority {prio} {{ match {{ o = {op} {{{key}: _}} }} "
        f"rewrite {{ unset o.{key} }} }}",
        f"rule r{k} priority {prio} {{ match {{ o = {unary}(x) }} where type(x) == type(o) "
        f"rewrite {{ replace o with x  erase o }} }}",
        f"rule r{k} priority {prio} {{ match {{ o = ({unary} | pd_op.scale)(..) }} "
        f"where uses(o) == 0 rewrite {{ erase o }} }}",
        f"rule r{k} priority {prio} {{ match {{ o = {unary}(x) }} where not has(o.wrapped) "
        f"rewrite {{ n = pd_op.assign(x) {{}} : type(x)  set o.wrapped = true }} }}",
        f"rule r{k} priority {prio} {{ match {{ o = {op} {{{key}: _}} }} "
        f'rewrite {{ fail "r{k} refuses {op}" }} }}',
        f"rule r{k} priority {prio} {{ match {{ o = {unary}({op}(..)) }} where not has(o.{key}) "
        f"rewrite {{ set o.{key} = {value} }} }}",
        f"rule r{k} priority {prio} {{ match {{ p = *  o = {unary}(p) }} "
        f"where not has(o.{key}) rewrite {{ set o.{key} = index(p) }} }}",
        f"rule r{k} priority {prio} {{ match {{ o = *(x, ..)  u = {op}(x, ..) }} "
        f"where not has(u.{key}) rewrite {{ set u.{key} = index(o) }} }}",
        f"rule r{k} priority {prio} {{ match {{ a = * {{{key}: v}}  b = * {{{key}: v}} }} "
        f"where index(a) < index(b) rewrite {{ unset b.{key} }} }}",
    ]
    return draw(st.sampled_from(templates))


@st.composite
def rule_sets(draw, max_rules: int = 5, name: str = "random_pass") -> str:
    """The text of a ``.rw`` file with one pass ``name`` of 1..``max_rules`` random rules, run
    to fixpoint or as a ``sweep`` / ``sweep reverse``. Such a pass may succeed, or fail with the
    engine's own errors (a ``fail``, a cycle that does not converge): a property test checks that
    nothing else escapes and that a failure leaves the program unchanged.

    Example::

        @given(programs(max_ops=8), rule_sets())
        def test_passes_fail_cleanly(program, text):
            rules = load_rules_text(text)
            before = print_program(program)
            try:
                rules.run_pass(program, "random_pass")
            except RulepassError:
                assert print_program(program) == before
    """
    strategy = draw(st.sampled_from(("", " sweep", " sweep reverse")))
    rules = [_rule_text(draw, k) for k in range(draw(st.integers(1, max_rules)))]
    return f"pass {name}{strategy} {{\n  " + "\n  ".join(rules) + "\n}\n"
