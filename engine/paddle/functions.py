"""Python functions the Paddle passes (`rules/*.rw`) call where a rule cannot say it.

The one real computation here is the VPP layer layout of `complete_chunk_id`: which layers the
program holds, which pipeline stage each sits on, and how Paddle deals them out to virtual
chunks. It reads the whole program and is computed once per pass (:func:`vpp_layout`, a plain
function tested on its own). The rest are small constructors the rule language has no syntax for:
a type or dist attribute moved to another process mesh, the dist attribute of a new reshard.

Source: Paddle 3.3.1 ``python/paddle/distributed/auto_parallel/static/pir_pass.py``
(``complete_chunk_id``, ``_get_seg_struct_names``, ``_analyze_use_custom_mesh``,
``_set_process_mesh_and_chunk_id``) and ``static/utils.py`` (``get_sub_process_mesh_by_program``,
``get_pp_stage_by_process_mesh``); ``dist_op.reshard``'s builder (``MergeMeshes``) in
``paddle/fluid/pir/dialect/distributed/ir/dist_op.cc``.
"""

from __future__ import annotations

import re
import weakref

import attrs

from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.rewrite.functions import function
from rulepass.engine.ir.types import DistTensorType, OperationDistAttr, ProcessMesh, TensorDistAttr, VectorType
from .stages import stage_meshes, stage_of_mesh, stage_partition

#: Ops without a dist attribute of their own that Paddle skips when setting meshes
#: (``mix_to_dist_pass.dist_skip_op_list``).
DIST_SKIP_OPS = frozenset({
    "builtin.combine", "builtin.split", "cf.yield", "cf.tuple_push", "cf.tuple_pop",
    "cf.stack_create", "pd_op.pylayer",
})


class VppLayoutError(ValueError):
    """A program or configuration the VPP layout cannot serve (Paddle raises or asserts)."""


def segment_of(op: Operation, seg_method: str) -> str | None:
    """The layer name of `op` for `seg_method`, or None.

    The name is the part of the op's `struct_name` (e.g. ``"/PipelineMLP/MyLinear_2/Linear/"``)
    from the first case-insensitive match of the regular expression `seg_method` up to the next
    ``/`` (``"MyLinear_2"``). Ops without `struct_name` read as ``"/"``.
    Source: Paddle ``pir_pass._extract_seg_method``.
    """
    struct_name = op.attributes.get("struct_name", "/")
    if not isinstance(struct_name, str):
        return None
    found = re.compile(seg_method, re.IGNORECASE).search(struct_name)
    if found is None:
        return None
    return struct_name[found.start():].split("/")[0]


@attrs.frozen
class OpPlacement:
    """Where the layout puts one op of the top block.

    `chunk` is its virtual chunk id; `mesh` the process mesh of its pipeline stage; `moves` is True
    when the op belongs to a layer and the layer order allows rewriting meshes (Paddle's
    ``non_use_custom_mesh & is_seg_op``), so its mesh becomes `mesh`; `kind` is "op", "reshard"
    (left for the reshard rules), "to_local", "local" (strictly inside a
    ``dtensor_to_local`` .. ``dtensor_from_local`` region: only the `chunk_id` attribute is set)
    or "from_local".
    """

    chunk: int
    mesh: ProcessMesh
    moves: bool
    kind: str


@attrs.frozen
class VppLayout:
    """The VPP layout of a program.

    `layers` are the layer names in program order; `layer_stage[i]` the pipeline stage layer i was
    written for and `layer_chunk[i]` / `layer_new_stage[i]` where the layout puts it; `stage_meshes`
    the process mesh of each stage; `reorder` whether meshes are rewritten (stages never decrease
    along the layers); `ops` maps each top-block op to its :class:`OpPlacement` (ops the layout
    does not cover are absent).
    """

    layers: tuple
    layer_stage: tuple
    layer_chunk: tuple
    layer_new_stage: tuple
    stage_meshes: tuple
    reorder: bool
    ops: dict = attrs.field(eq=False, repr=False)

    def placement(self, op: Operation) -> OpPlacement | None:
        """The op's placement, or None when the layout does not cover it."""
        return self.ops.get(op)


def _world_size(meshes) -> int:
    ids = {pid for mesh in meshes for pid in mesh.process_ids}
    return max(ids) + 1 if ids else 1


def deal_layers(layer_stages, pp_degree: int, vpp_degree: int,
                v_shape: bool = False) -> tuple[list[int], list[int]]:
    """Deal layers to virtual chunks as Paddle does; returns (chunk id, new stage) per layer.

    `layer_stages[i]` is the stage layer i was written for; only the count of layers per stage
    matters. Each stage gives its layers round robin to its virtual chunks (layer k of a stage goes
    to virtual chunk k % vpp), which fixes how many layers each chunk holds; chunk c (0 ..
    pp*vpp-1) runs on stage c % pp with chunk_id c // pp, and the chunks take consecutive layers in
    the order c = 0, 1, 2, ... So with 10 layers on stages holding [3, 3, 2, 2] and pp4 vpp2:
    chunk_id 0 = layers 0-1 (stage 0), 2-3 (stage 1), 4 (stage 2), 5 (stage 3); chunk_id 1 =
    layers 6, 7, 8, 9 on stages 0..3.

    `v_shape` (ZBVPP): odd chunk ids run the stages backwards (chunk c on stage pp-1 - c % pp).
    Raises VppLayoutError when a stage holds fewer layers than `vpp_degree`.
    Source: Paddle ``pir_pass.complete_chunk_id`` step 3; the V from old-IR ``completion.py``
    (``seg_pp_stage.reverse()`` for ZBVPP; 3.3.1's PIR pass rejects ZBVPP).
    """
    per_stage = [0] * pp_degree
    for stage in layer_stages:
        if not 0 <= stage < pp_degree:
            raise VppLayoutError(f"a layer sits on pipeline stage {stage}, outside 0..{pp_degree - 1}")
        per_stage[stage] += 1
    short = [s for s, n in enumerate(per_stage) if n < vpp_degree]
    if short:
        s = short[0]
        raise VppLayoutError(
            f"pipeline stage {s} holds {per_stage[s]} layer(s) but vpp_degree is {vpp_degree}: "
            f"every stage needs at least vpp_degree layers so that each virtual chunk gets one "
            f"(layers per stage: {per_stage})")
    num_chunks = pp_degree * vpp_degree

    chunk_layers = [0] * num_chunks
    for stage in range(pp_degree):
        for k in range(per_stage[stage]):
            chunk_id = k % vpp_degree  # stage s is the (s or pp-1-s)-th of its chunk's run
            chunk_layers[chunk_id * pp_degree + _chunk_stage(chunk_id * pp_degree + stage,
                                                             pp_degree, v_shape)] += 1
    chunks, stages = [], []
    for c in range(num_chunks):
        chunks.extend([c // pp_degree] * chunk_layers[c])
        stages.extend([_chunk_stage(c, pp_degree, v_shape)] * chunk_layers[c])
    return chunks, stages


def _chunk_stage(c: int, pp_degree: int, v_shape: bool) -> int:
    """The stage of virtual chunk c: c % pp, counted from the last stage for odd chunk ids (V)."""
    upward = not v_shape or (c // pp_degree) % 2 == 0
    return c % pp_degree if upward else pp_degree - 1 - c % pp_degree


def check_vpp_config(pp_degree: int, vpp_degree: int, seg_method: str) -> None:
    """Raise VppLayoutError for a configuration Paddle rejects (pp < 2 with vpp > 1; vpp > 1
    without a seg_method). Source: Paddle ``pir_pass.complete_chunk_id``."""
    if pp_degree < 2 and vpp_degree > 1:
        raise VppLayoutError(
            f"VPP needs pipeline parallelism: vpp_degree is {vpp_degree} but pp_degree is "
            f"{pp_degree} (VPP schedule mode only can be set in pipeline mode)")
    if vpp_degree > 1 and not seg_method:
        raise VppLayoutError(
            "VPP needs a seg_method (the layer class name in struct_name, e.g. \"DecoderLayer\") "
            "to find the layers")


def vpp_layout(program: Program, pp_degree: int, vpp_degree: int, seg_method: str,
               v_shape: bool = False) -> VppLayout | None:
    """The VPP layout of `program`'s top block, or None when there is nothing to do (vpp < 2).

    Layers are found by `seg_method` in `struct_name` (:func:`segment_of`); ops before the second
    layer (the prologue: parameters, data) join the first layer and ops after the last layer's
    first op (the epilogue: loss) join the last. Each op of a layer's span gets that layer's chunk
    and stage mesh (:func:`deal_layers`); meshes are rewritten (`moves`) only for ops of a layer,
    and only when the stages of the layers' ops never decrease along the program.

    Raises VppLayoutError (a ValueError) for: pp < 2 with vpp > 1; no seg_method; an op with a dist
    attribute but no layer, other than a reshard, between the first and last layer op; a layer
    whose ops sit on different meshes; a stage with fewer layers than vpp; too few stage meshes.
    Source: Paddle ``pir_pass.complete_chunk_id`` steps 1-4.
    """
    check_vpp_config(pp_degree, vpp_degree, seg_method)
    if vpp_degree < 2:
        return None
    ops = program.block.ops
    names = [segment_of(op, seg_method) for op in ops]
    seg_indices = [i for i, n in enumerate(names) if n]
    if not seg_indices:
        raise VppLayoutError(f"no op's struct_name matches seg_method {seg_method!r}: no layers "
                             "to deal to virtual chunks")
    # Ops strictly inside a dtensor_to_local .. dtensor_from_local region keep the mesh they were
    # written with (only their chunk_id attribute is set), so a program this pass has already
    # laid out may hold stale meshes there: they are not asked for the layer's mesh or stage.
    inner: set[int] = set()
    opened = None
    for i, op in enumerate(ops):
        if op.name == "dist_op.dtensor_to_local":
            opened = i
        elif op.name == "dist_op.dtensor_from_local":
            inner.update(range(opened + 1, i) if opened is not None else ())
            opened = None

    layers: list[str] = []
    layer_mesh: dict[str, ProcessMesh] = {}
    for i in range(seg_indices[0], seg_indices[-1] + 1):
        op = ops[i]
        if op.dist_attr is None or i in inner:
            continue
        name = names[i]
        if name:
            if name not in layer_mesh:
                layers.append(name)
            elif layer_mesh[name] != op.dist_attr.mesh:
                raise VppLayoutError(f"the ops of layer {name!r} sit on different process meshes "
                                     f"({list(layer_mesh[name].process_ids)} and "
                                     f"{list(op.dist_attr.mesh.process_ids)})")
            layer_mesh[name] = op.dist_attr.mesh
        elif op.name != "dist_op.reshard":
            struct = op.attributes.get("struct_name", "")
            raise VppLayoutError(
                f"op {op.name} (position {i}, struct_name {struct!r}) lies between layers but "
                f"its struct_name has no {seg_method!r}; only reshards may (Paddle 3.3.1 raises "
                "too, e.g. for a global_spec layer computed from a middle layer's output)")
    meshes = stage_meshes(program)
    world = _world_size(meshes)
    # the stages of a mesh whose pp dimension is not the outermost one (docs/deviations.md)
    partition = stage_partition(meshes, pp_degree)

    # Stage order: the layer ops' stages must never decrease for meshes to be rewritten.
    reorder, last = True, -1
    for i, op in enumerate(ops):
        if names[i] and op.dist_attr is not None and i not in inner:
            stage = stage_of_mesh(op.dist_attr.mesh, pp_degree, world, partition)
            if stage is None:
                continue
            if stage < last:
                reorder = False
                break
            last = stage

    # Layer starts and the stage of each layer, as Paddle walks them. A reshard of no layer is
    # skipped: Paddle's walk counts one that sits on a single stage mesh inside a layer's ops as
    # a layer of its own (none is there in Paddle's input, but this pass puts tensor-parallel
    # ones there, so its own output would not lay out again).
    starts = [0]
    layer_stages: list[int] = []
    last_name = None
    for i, op in enumerate(ops):
        if len(starts) == len(layers):
            break
        name = names[i]
        if op.name == "dist_op.reshard" and name is None:
            continue
        if op.dist_attr is not None and name != last_name and i not in inner:
            stage = stage_of_mesh(op.dist_attr.mesh, pp_degree, world, partition)
            if stage is not None:
                layer_stages.append(stage)
            last_name = name
        if name == layers[len(starts)]:
            starts.append(i)
    starts.append(len(ops))
    chunk_of_layer, stage_of_layer = deal_layers(layer_stages, pp_degree, vpp_degree, v_shape)
    if len(chunk_of_layer) != len(layers):
        raise VppLayoutError(f"found {len(layers)} layers but {len(chunk_of_layer)} layer stage "
                             "changes; an op between layers sits on a stage mesh")
    if len(meshes) < pp_degree:
        raise VppLayoutError(f"pp_degree is {pp_degree} but the program has {len(meshes)} stage "
                             f"meshes: {[list(m.process_ids) for m in meshes]}")

    loss_moves = v_shape and vpp_degree % 2 == 0
    placements: dict = {}
    for layer in range(len(layers)):
        chunk = chunk_of_layer[layer]
        mesh = meshes[stage_of_layer[layer]]
        begin, end = starts[layer], starts[layer + 1]
        i = begin
        while i < end:
            op = ops[i]
            # ZBVPP with an even vpp computes the loss on stage 0, where the V ends: the ops after
            # the last layer move there too (old-IR completion.py, step 5)
            moves = reorder and (names[i] is not None or (loss_moves and i > seg_indices[-1]))
            if op.name == "dist_op.dtensor_to_local":
                j = i + 1
                while j < len(ops) and ops[j].name != "dist_op.dtensor_from_local":
                    j += 1
                if j == len(ops):
                    raise VppLayoutError(f"dist_op.dtensor_to_local at position {i} has no "
                                         "dist_op.dtensor_from_local after it")
                placements[op] = OpPlacement(chunk, mesh, moves, "to_local")
                for k in range(i + 1, j):
                    placements[ops[k]] = OpPlacement(chunk, mesh, False, "local")
                # Paddle decides the boundary ops' mesh rewrite once, from dtensor_to_local.
                placements[ops[j]] = OpPlacement(chunk, mesh, moves, "from_local")
                i = j + 1
                continue
            kind = "reshard" if op.name == "dist_op.reshard" else "op"
            placements[op] = OpPlacement(chunk, mesh, moves, kind)
            i += 1
    return VppLayout(tuple(layers), tuple(layer_stages), tuple(chunk_of_layer),
                     tuple(stage_of_layer), tuple(meshes), reorder, placements)


# ---- dist attribute constructors ---------------------------------------------------------------

#: (object, field, new value, its mesh's dim names) -> the evolved object: complete_chunk_id moves
#: the same few dist attributes and types to the same stage meshes thousands of times.
_EVOLVED: dict = {}


def _evolved(obj, field: str, value):
    """`attrs.evolve(obj, **{field: value})`, memoised (the classes are frozen; a mesh's
    dim_names, which equality ignores, are part of the key so they are kept exactly)."""
    mesh = value if isinstance(value, ProcessMesh) else getattr(value, "mesh", None)
    key = (obj, field, value, getattr(mesh, "dim_names", None))
    found = _EVOLVED.get(key)
    if found is None:
        if len(_EVOLVED) > 20_000:
            _EVOLVED.clear()
        found = _EVOLVED[key] = attrs.evolve(obj, **{field: value})
    return found


def move_tensor_attr(d, old: ProcessMesh | None, new: ProcessMesh):
    """A tensor dist attribute (or a tuple of them, or None) with every entry on `old` moved to
    `new`; `old` None moves every entry. Source: Paddle ``copy_dist_attr_with_new_member``."""
    if d is None:
        return None
    if isinstance(d, tuple):
        return tuple(move_tensor_attr(x, old, new) for x in d)
    if d.mesh is None or (old is not None and d.mesh != old):
        return d
    return _evolved(d, "mesh", new)


def move_type(t, old: ProcessMesh | None, new: ProcessMesh):
    """Type `t` with its dist parts on `old` (any mesh when `old` is None) moved to `new`; vectors
    item by item; dense types unchanged. Source: Paddle ``set_var_process_mesh``."""
    if isinstance(t, DistTensorType):
        moved = move_tensor_attr(t.dist, old, new)
        return t if moved is t.dist else _evolved(t, "dist", moved)
    if isinstance(t, VectorType):
        return VectorType(tuple(move_type(i, old, new) for i in t.items))
    return t


def merge_meshes(a: ProcessMesh, b: ProcessMesh) -> ProcessMesh:
    """The mesh of a reshard from `a` to `b`: `a` when equal, else the sorted union of their ranks
    as a 1-D mesh. Source: Paddle ``MergeMeshes`` (``dist_op.cc``)."""
    if a == b:
        return a
    ids = sorted(set(a.process_ids) | set(b.process_ids))
    return ProcessMesh((len(ids),), tuple(ids))


@function("moved_type", live=True)
def moved_type(program: Program, t, old, new):
    """Rule function `moved_type(type, old_mesh, new_mesh)`: :func:`move_type`; `old_mesh` "any"
    moves every dist part."""
    return move_type(t, None if old == "any" else old, new)


@function("first_mesh", live=True)
def first_mesh(program: Program, values):
    """Rule function `first_mesh(values)`: the process mesh of the first value (or vector item)
    of dist type, absent when none is. Source: Paddle ``get_var_process_mesh``, as
    ``_set_process_mesh_and_chunk_id`` uses it for ops without a dist attribute of their own."""
    from rulepass.engine.rewrite.exprs import ABSENT

    for value in values:
        t = getattr(value, "type", None)
        items = t.items if isinstance(t, VectorType) else (t,)
        for item in items:
            if isinstance(item, DistTensorType):
                return item.dist.mesh
    return ABSENT


@function("moved_dist", live=True)
def moved_dist(program: Program, op: Operation, new: ProcessMesh, chunk: int, inputs: bool,
               outputs: bool) -> OperationDistAttr:
    """Rule function `moved_dist(op, mesh, chunk, inputs, outputs)`: the op's dist attribute with
    its chunk set to `chunk` and, when `inputs` (`outputs`), the operand (result) entries on the op's
    mesh moved to `mesh`; the op's own mesh becomes `mesh` when either is set.
    Source: Paddle ``_set_process_mesh_and_chunk_id``."""
    d = op.dist_attr
    # keyed by identity (the objects are kept in the entry, so their ids stay theirs): equal
    # meshes may differ in dim_names, which equality ignores but the printer shows
    key = (id(d), id(new), chunk, inputs, outputs)
    entry = _MOVED_DISTS.get(key)
    if entry is not None and entry[0] is d and entry[1] is new:
        return entry[2]
    old = d.mesh
    operands = tuple(move_tensor_attr(x, old, new) for x in d.operands) if inputs else d.operands
    results = tuple(move_tensor_attr(x, old, new) for x in d.results) if outputs else d.results
    mesh = new if (inputs or outputs) else old
    if len(_MOVED_DISTS) > 20_000:
        _MOVED_DISTS.clear()
    found = OperationDistAttr(mesh, operands, results, chunk)
    _MOVED_DISTS[key] = (d, new, found)
    return found


#: moved_dist's answers: the layers of a model share a few dist attributes (frozen objects), each
#: moved to the same stage meshes.
_MOVED_DISTS: dict = {}


@function("origin_dist", live=True)
def origin_dist(program: Program, op: Operation, new: ProcessMesh) -> OperationDistAttr:
    """Rule function `origin_dist(op, mesh)`: a `pd_op.data` / `builtin.parameter` dist attribute
    moved to `mesh` (result 0 too) with chunk 0. Source: Paddle
    ``set_var_origin_op_process_mesh``."""
    d = op.dist_attr
    results = list(d.results)
    if results and isinstance(results[0], TensorDistAttr) and results[0].mesh is not None:
        results[0] = attrs.evolve(results[0], mesh=new)
    return OperationDistAttr(new, d.operands, tuple(results), 0)


@function("reshard_dist", live=True)
def reshard_dist(program: Program, source, target) -> OperationDistAttr:
    """Rule function `reshard_dist(source_type, target_type)`: the dist attribute Paddle's
    ``dist_op.reshard`` builder gives a reshard between two dist types (merged mesh, chunk -1)."""
    return OperationDistAttr(merge_meshes(source.dist.mesh, target.dist.mesh), (source.dist,),
                             (target.dist,), -1)


# ---- the layout, as rule functions ---------------------------------------------------------
#
# The layout must be computed on the program as the pass finds it, yet the rules also ask about
# reshards they have just made (which the layout does not cover). A non-live rule function refuses
# ops made during the pass, so these are live: `vpp_start`, called by the pass's first rule at the
# first op of the top block (a sweep visits it first, before anything is rewritten), computes the
# layout and keeps it with the program; the others read it, and an op it does not cover (one made
# during the pass) has no placement.

_LAYOUTS: "weakref.WeakKeyDictionary[Program, tuple]" = weakref.WeakKeyDictionary()


@function("vpp_start", live=True)
def vpp_start(program: Program, op: Operation, pp: int, vpp: int, seg: str,
              v_shape: bool = False) -> str:
    """Rule function `vpp_start(op, pp, vpp, seg_method[, v_shape])`: at the top block's first op,
    compute the VPP layout of the program as it is now (`v_shape`: ZBVPP's V, see
    :func:`deal_layers`) and keep it for the other `vpp_*` functions; returns "" when the layout
    can be computed, else the reason (:class:`VppLayoutError`'s message). At any other op it
    returns the kept answer without recomputing."""
    key = (pp, vpp, seg, bool(v_shape))
    if op.block is program.block and op.prev_op is None:
        try:
            _LAYOUTS[program] = (key, vpp_layout(program, pp, vpp, seg, bool(v_shape)), "")
        except VppLayoutError as error:
            _LAYOUTS[program] = (key, None, str(error))
        _LAST[0] = _LAST[1] = None  # the kept layout changed
    kept = _LAYOUTS.get(program)
    return kept[2] if kept is not None and kept[0] == key else ""


#: (weak reference to the program, its layout): the rules ask for the placement of ops of one
#: program many times in a row; a WeakKeyDictionary lookup makes a new weak reference each time.
_LAST: list = [None, None]


def _placement(program, op) -> OpPlacement | None:
    last = _LAST[0]
    if last is not None and last() is program:
        layout = _LAST[1]
    else:
        kept = _LAYOUTS.get(program)
        layout = kept[1] if kept is not None else None
        _LAST[0], _LAST[1] = weakref.ref(program), layout
    return layout.placement(op) if layout is not None else None


def current_layout(program: Program) -> VppLayout | None:
    """The layout `vpp_start` kept for `program` (None before it ran or when it failed)."""
    kept = _LAYOUTS.get(program)
    return kept[1] if kept is not None else None


@function("vpp_chunk", live=True)
def vpp_chunk(program: Program, op: Operation):
    """Rule function `vpp_chunk(op)`: the virtual chunk the layout `vpp_start` computed gives
    `op`, absent (None) when the layout does not cover it."""
    place = _placement(program, op)
    return place.chunk if place is not None else None


@function("vpp_mesh", live=True)
def vpp_mesh(program: Program, op: Operation):
    """Rule function `vpp_mesh(op)`: the process mesh of the stage the layout puts `op` on, absent
    when the layout does not cover it."""
    place = _placement(program, op)
    return place.mesh if place is not None else None


@function("vpp_moves", live=True)
def vpp_moves(program: Program, op: Operation) -> bool:
    """Rule function `vpp_moves(op)`: whether `op`'s mesh is rewritten to its stage mesh (a layer
    op, and the layers' stages never decrease)."""
    place = _placement(program, op)
    return place is not None and place.moves


@function("vpp_kind", live=True)
def vpp_kind(program: Program, op: Operation) -> str:
    """Rule function `vpp_kind(op)`: "op", "reshard", "to_local", "local", "from_local", or ""
    when the layout does not cover `op` (see :class:`OpPlacement`)."""
    place = _placement(program, op)
    return place.kind if place is not None else ""


@function("vpp_dist", live=True)
def vpp_dist(program: Program, op: Operation):
    """Rule function `vpp_dist(op)`: the dist attribute the layout gives `op` (absent when the
    layout does not cover it): `moved_dist(op, vpp_mesh(op), vpp_chunk(op), moves and not a
    dtensor_from_local, moves and not a dtensor_to_local)` with `moves` = `vpp_moves(op)`, read
    from the op's placement once (complete_chunk_id asks it twice for every op of the program:
    five rule-function calls each when written out in the rule). Source: Paddle
    ``_set_process_mesh_and_chunk_id``."""
    place = _placement(program, op)
    if place is None:
        return None
    moves = place.moves
    return moved_dist(program, op, place.mesh, place.chunk,
                      moves and op.name != "dist_op.dtensor_from_local",
                      moves and op.name != "dist_op.dtensor_to_local")


@function("wanted_type", live=True)
def wanted_type(program: Program, op: Operation, index: int):
    """Rule function `wanted_type(op, i)`: the dist type operand `i` of `op` must have for the op's
    dist attribute (the value's shape and dtype, the attribute's entry), or "" when the entry is
    null or a vector, or the value is not a dist tensor. Source: Paddle
    ``pir_pass.apply_partition_pass`` (``reshard_single_value``)."""
    value = op.operand(index)
    d = op.dist_attr
    if value is None or d is None or index >= len(d.operands):
        return ""
    entry = d.operands[index]
    if not isinstance(entry, TensorDistAttr) or entry.mesh is None:
        return ""
    if not isinstance(value.type, DistTensorType):
        return ""
    return _evolved(value.type, "dist", entry)


@function("next_chunk", live=True)
def next_chunk(program: Program, op: Operation) -> int:
    """Rule function `next_chunk(op)`: the dist-attribute chunk_id of the first op after `op` in
    its block that has one set (not -1), or -1. An unbounded look-ahead, which Paddle's
    ``pass_utils.infer_chunk_id`` lacks (it looks two ops ahead, so a ``recv_v2`` followed by a
    ``full`` and a ``builtin.combine`` before the first op with a chunk gets none); see
    docs/deviations.md."""
    nxt = op.next_op
    while nxt is not None:
        d = nxt.dist_attr
        if d is not None and d.chunk_id != -1:
            return d.chunk_id
        nxt = nxt.next_op
    return -1


@function("prev_chunk", live=True)
def prev_chunk(program: Program, op: Operation) -> int:
    """Rule function `prev_chunk(op)`: the dist-attribute chunk_id of the last op before `op` in
    its block that has one set (not -1), or -1: check_chunk_id's last resort for an op after
    which nothing has a chunk (the sum of a parameter's grads from two readers, at the end of the
    backward); Paddle gives up. See docs/deviations.md."""
    prv = op.prev_op
    while prv is not None:
        d = prv.dist_attr
        if d is not None and d.chunk_id != -1:
            return d.chunk_id
        prv = prv.prev_op
    return -1

