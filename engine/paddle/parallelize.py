"""A plan resolved against a serial program: layers, pipeline stages, meshes and placements.

Reimplements what Paddle 3.3.1's front end decides from a ``dist.parallelize`` config
(``python/paddle/distributed/auto_parallel/intermediate/``: ``pipeline_parallel.py`` for the
stages and global layers, ``tensor_parallel.py`` for the mp plan, ``parallel_base.py``
``_shard_all_param`` for the parameters, ``sharded_data_parallel.py`` for dp), over the serial
program's ``struct_name`` paths instead of a ``paddle.nn.Layer`` tree:

- a layer is a path of ``struct_name`` segments below the model's root (``GMyLinear_1/Linear``);
  its ops are those whose path starts with it;
- stages come from ``split_spec`` (the string/list forms divide the matching layers evenly, as
  Paddle divides ``"llama.layers"``; the dict form ends a stage after each named layer), and every
  op gets the stage of its position: ops before the first split are on stage 0, ops after the last
  on the last stage (``shared/spec/parallel-plan.md``);
- a parameter is on the stage of its first reader, placed as the mp plan says (Replicate else);
- ``pd_op.data`` inputs: the first on the first stage, the others on the last (Paddle's
  ``shard_dataloader`` with ``[first mesh, last mesh]``), Shard(0) along ``dp`` under a dp plan.

:func:`resolve` raises :class:`~rulepass.engine.paddle.plan.PlanError` for a layer pattern that
matches nothing and for more stages than layers. The structural rewrites (the hooks' reshards)
are in :mod:`rulepass.engine.paddle.parallelize_hooks`; the per-op rules in
``rules/parallelize.rw``.
"""

from __future__ import annotations

import re
import weakref

import attrs

from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.ir.types import ProcessMesh
from rulepass.engine.paddle.plan import Plan

NO_LAYER_OPS = {"builtin.parameter", "pd_op.data", "builtin.shadow_output"}


def submesh(shape, ids, dim_names, dim: str, index: int | None = None) -> ProcessMesh:
    """Paddle's ``ProcessMesh.get_mesh_with_dim(dim[, index])``: with ``index`` the slice at that
    position of ``dim`` (the other dimensions, in order); without, the mesh with ``dim`` moved
    first. Ids in row-major order of the result."""
    axis = list(dim_names).index(dim)
    order = [axis] + [a for a in range(len(shape)) if a != axis]
    strides = [1] * len(shape)
    for a in range(len(shape) - 2, -1, -1):
        strides[a] = strides[a + 1] * shape[a + 1]
    new_shape = [shape[a] for a in order]
    names = [dim_names[a] for a in order]

    def walk(level, offset):
        if level == len(order):
            return [ids[offset]]
        a = order[level]
        return [i for c in range(shape[a]) for i in walk(level + 1, offset + c * strides[a])]

    flat = walk(0, 0)
    if index is None:
        return ProcessMesh(new_shape, flat, tuple(names))
    per = len(flat) // shape[axis]
    # a 1-D mesh's slice is the one-rank mesh [1] (as Paddle prints a stage of a ["pp"] mesh)
    return ProcessMesh(new_shape[1:] or [1], flat[index * per:(index + 1) * per],
                       tuple(names[1:]) or (dim,))


def layer_path(op: Operation) -> tuple[str, tuple[str, ...]] | None:
    """``(root, segments)`` of the op's ``struct_name`` (``"/M/A/B/"`` -> ``("M", ("A", "B"))``),
    or None without one."""
    name = op.attributes.get("struct_name")
    if not isinstance(name, str):
        return None
    parts = [p for p in name.split("/") if p]
    if not parts:
        return None
    return parts[0], tuple(parts[1:])


def _matches_stem(path: str, stem: str) -> bool:
    """``GMyLinear_3`` matches stem ``GMyLinear`` (one path level: NAME, NAME_1, ...)."""
    parent, _, last = stem.rpartition("/")
    p_parent, _, p_last = path.rpartition("/")
    return parent == p_parent and re.fullmatch(re.escape(last) + r"(_\d+)?", p_last) is not None


def pattern_matches(pattern: str, path: str) -> bool:
    """An mp plan key against a layer path: whole path, ``*`` within one segment."""
    segs, parts = pattern.split("/"), path.split("/")
    if len(segs) != len(parts):
        return False
    return all(re.fullmatch(".*".join(re.escape(x) for x in s.split("*")), p)
               for s, p in zip(segs, parts))


def divide_evenly(n: int, k: int) -> list[int]:
    """Indices (0-based, into the matched layers) after which a stage ends: Paddle 3.3.1
    ``pipeline_parallel`` (``layers_per_rank`` when ``k`` divides ``n``, else
    ``divide_list_indices``: the first ``n % k`` stages one layer more)."""
    if n % k == 0:
        per = n // k
        return [i * per - 1 for i in range(1, k)]
    base, extra = divmod(n, k)
    out, current = [], -1
    for i in range(k - 1):
        current += base + (1 if i < extra else 0)
        out.append(current)
    return out


@attrs.define
class Resolved:
    """The plan applied to one program: meshes, op stages, layer extents, parameter placements."""

    plan: Plan
    root: str
    stage_meshes: list
    global_mesh: ProcessMesh
    pp_mesh: ProcessMesh | None
    op_stage: dict = attrs.field(factory=dict)          # id(op) -> stage
    layer_ops: dict = attrs.field(factory=dict)         # layer path -> [ops] in program order
    pipeline_layers: list = attrs.field(factory=list)   # matched split_spec layers, in order
    split_after: list = attrs.field(factory=list)       # layers ending a stage
    global_layers: list = attrs.field(factory=list)
    param_dims: dict = attrs.field(factory=dict)        # id(param op) -> dims_mapping
    # tied parameters read on another stage: (param op, layer, stage, dims_mapping there)
    shared_params: list = attrs.field(factory=list)
    reshard_dims: dict = attrs.field(factory=dict)      # id(hook reshard) -> its dims_mapping
    input_stage: dict = attrs.field(factory=dict)       # data name -> stage

    def mesh_of_stage(self, stage: int) -> ProcessMesh:
        """The mesh of a stage; ``-1`` names the global pp mesh."""
        return self.pp_mesh if stage == -1 else self.stage_meshes[stage]

    def stage_of(self, op: Operation) -> int:
        """The stage an op sits on by position (0 for an op added later)."""
        return self.op_stage.get(id(op), 0)


# program -> its Resolved plan, for the functions rules call (see functions_parallelize.py)
RESOLVED: "weakref.WeakKeyDictionary[Program, Resolved]" = weakref.WeakKeyDictionary()


def _layers(ops, root) -> dict:
    layers: dict = {}
    for op in ops:
        where = layer_path(op)
        if where is None or where[0] != root:
            continue
        segs = where[1]
        for n in range(1, len(segs) + 1):
            layers.setdefault("/".join(segs[:n]), []).append(op)
    return layers


def resolve(program: Program, plan: Plan) -> Resolved:
    """Resolve ``plan`` against the serial ``program`` (not changed); raises PlanError."""
    ops = list(program.block)
    roots = [w[0] for w in map(layer_path, ops) if w is not None]
    if not roots:
        raise plan.error("the serial program has no op with a struct_name: nothing to place "
                         "(print it from a run without distribution, see the spec)", "mesh")
    root = roots[0]
    shape, names = list(plan.mesh_shape), list(plan.dim_names)
    ids = list(range(len(_flat(shape))))
    global_mesh = ProcessMesh(shape, ids, tuple(names))
    if "pp" in names:
        pp = plan.degree("pp")
        stage_meshes = [submesh(shape, ids, names, "pp", i) for i in range(pp)]
        pp_mesh = submesh(shape, ids, names, "pp")
    else:
        stage_meshes, pp_mesh = [global_mesh], None
    res = Resolved(plan, root, stage_meshes, global_mesh, pp_mesh)
    res.layer_ops = _layers(ops, root)
    _resolve_stages(res, ops)
    _resolve_globals(res)
    _resolve_params(res, ops)
    _resolve_inputs(res, ops)
    RESOLVED[program] = res
    return res


def _flat(shape):
    n = 1
    for s in shape:
        n *= s
    return range(n)


def _resolve_stages(res: Resolved, ops) -> None:
    plan = res.plan
    stages = len(res.stage_meshes)
    if plan.split_spec is None:
        return
    layers = res.layer_ops
    known = ", ".join(sorted(layers)) or "none"
    if isinstance(plan.split_spec, dict):
        for layer in plan.split_spec:
            if layer not in layers:
                raise plan.error(f"split_spec layer '{layer}' matches no layer of the serial "
                                 f"program (layers: {known})", "pp", "split_spec", inner=layer)
        if len(plan.split_spec) != stages - 1:
            raise plan.error(f"split_spec ends {len(plan.split_spec)} stage(s) but the mesh has "
                             f"{stages} pp stages: name {stages - 1} layer(s)", "pp", "split_spec")
        res.split_after = list(plan.split_spec)
        # Paddle 3.3.1: with a dict every layer gets the pre-hook (pipeline_layers is None)
        res.pipeline_layers = []
    else:
        for stem in plan.split_spec:
            if not any(_matches_stem(p, stem) for p in layers):
                raise plan.error(f"split_spec '{stem}' matches no layer of the serial program "
                                 f"(layers: {known})", "pp", "split_spec", inner=stem)
        matched = [p for p in sorted(layers, key=lambda p: _position(layers[p][0]))
                   if any(_matches_stem(p, stem) for stem in plan.split_spec)]
        if len(matched) < stages:
            raise plan.error(f"more stages than layers: split_spec {list(plan.split_spec)} "
                             f"matches {len(matched)} layer(s) ({', '.join(matched)}) for "
                             f"{stages} pp stages", "pp", "split_spec")
        res.pipeline_layers = matched
        res.split_after = [matched[i] for i in divide_evenly(len(matched), stages)]
    last_of = {id(res.layer_ops[layer][-1]): layer for layer in res.split_after}
    order = [last_of.get(id(op)) for op in ops]
    ends = [layer for layer in order if layer is not None]
    if ends != res.split_after:
        raise plan.error(f"split_spec layers must end in program order: {res.split_after} end "
                         f"in the order {ends}", "pp", "split_spec")
    stage = 0
    for op, end in zip(ops, order):
        res.op_stage[id(op)] = stage
        if end is not None:
            stage += 1


def _position(op: Operation) -> tuple:
    return op.position_key()


def _resolve_globals(res: Resolved) -> None:
    plan = res.plan
    for layer in plan.global_spec:
        if layer not in res.layer_ops:
            known = ", ".join(sorted(res.layer_ops)) or "none"
            raise plan.error(f"global_spec layer '{layer}' matches no layer of the serial "
                             f"program (layers: {known})", "pp", "global_spec", inner=layer)
        res.global_layers.append(layer)
        # an output computed from no parameter or input is a dense tensor that Paddle's post-hook
        # `shard_tensor`s onto the global pp mesh: the ops making it run there
        # (with the dense ops feeding them; a constant feeding a placed op stays on its stage)
        members = {id(op) for op in res.layer_ops[layer]}
        dense: dict = {}
        for op in res.layer_ops[layer]:
            if op.name not in NO_LAYER_OPS and all(
                    v is None or (v.owner is not None and id(v.owner) in dense)
                    for v in op.operands):
                dense[id(op)] = op
        stack = [op for op in dense.values()
                 if any(id(u) not in members for r in op.results for u in r.users())]
        while stack:
            op = stack.pop()
            if res.op_stage.get(id(op)) == -1:
                continue
            res.op_stage[id(op)] = -1
            stack.extend(v.owner for v in op.operands if v is not None and id(v.owner) in dense)


def _param_role(op: Operation) -> str:
    """``weight`` or ``bias``: Paddle names a layer's weight ``*.w_N`` and its bias ``*.b_N``."""
    name = str(op.attributes.get("parameter_name", ""))
    if re.search(r"\.w_\d+$", name):
        return "weight"
    return "bias" if re.search(r"\.b_\d+$", name) else name.rsplit(".", 1)[-1]


def _reader_layers(res: Resolved, ops) -> dict:
    """id(param op) -> the layers whose ops read it, in program order. The first is the layer
    that owns it (a parameter belongs to the layer of its first reader); a later one holds it
    too (a tied weight: Paddle's ``share_param_list``)."""
    out: dict = {}
    for op in ops:
        where = layer_path(op)
        if where is None or where[0] != res.root:
            continue
        for v in op.operands:
            if v is not None and v.owner is not None and v.owner.name == "builtin.parameter":
                layers = out.setdefault(id(v.owner), [])
                path = "/".join(where[1])
                if path not in layers:
                    layers.append(path)
    return out


def _resolve_params(res: Resolved, ops) -> None:
    plan = res.plan
    params = [op for op in ops if op.name == "builtin.parameter"]
    for op in params:
        users = op.results[0].users()
        res.op_stage[id(op)] = res.stage_of(users[0]) if users else 0
        res.param_dims[id(op)] = (-1,) * len(op.results[0].type.shape)
    readers = _reader_layers(res, ops)
    by_layer: dict = {}  # layer -> {role: param op}, every layer holding the parameter
    for op in params:
        for layer in readers.get(id(op), []):
            by_layer.setdefault(layer, {})[_param_role(op)] = op
    shared_dims: dict = {}  # (id(param), layer) -> the placement that layer's plan gives it
    for key, entries in plan.mp_plan.items():
        written = key
        layer, _, attr = key.rpartition(".")
        only = None
        if attr in ("weight", "bias") and layer:
            key, only = layer, attr
        hits = [p for p in res.layer_ops if pattern_matches(key, p)]
        if not hits:
            known = ", ".join(sorted(res.layer_ops)) or "none"
            raise plan.error(f"mp plan key '{key if only is None else key + '.' + only}' "
                             f"matches no layer of the serial program (layers: {known})",
                             "mp", "plan", inner=written)
        for path in hits:
            for entry in entries:
                _apply_mp(res, path, by_layer.get(path, {}), entry, only, readers, shared_dims)
    if plan.sharding_level == 3:
        _shard_stage3(res, params)
    # a tied parameter read on another stage than its owner's: Paddle's
    # _process_share_weight_layer reshards it there, placed as that layer's plan says
    for op in params:
        layers = readers.get(id(op), [])
        for layer in layers[1:]:
            stage = res.stage_of(res.layer_ops[layer][0])
            if stage != res.stage_of(op):
                dims = shared_dims.get((id(op), layer), (-1,) * len(op.results[0].type.shape))
                res.shared_params.append((op, layer, stage, dims))


def _shard_stage3(res: Resolved, params: list) -> None:
    """ZeRO stage 3 (``dp_config`` ``sharding_level`` 3): Paddle 3.3.1's ``ShardingStage3``
    shards every parameter along one mesh axis, on its first tensor axis no other mesh axis
    shards. The mesh axis is 0 unless a parameter is already sharded there; then the last axis
    where that parameter is replicated (``_set_and_check_sharding_prop_from_param``, over the
    parameters in creation order: the reverse of the serial program's). Levels 1 and 2 shard only
    the optimizer's state: their forward program is level 0's."""
    axis = 0
    ordered = list(reversed(params))
    for op in ordered:
        dims = res.param_dims[id(op)]
        if axis in dims:
            replicated = [a for a in range(len(res.mesh_of_stage(res.stage_of(op)).shape))
                          if a not in dims]
            if replicated:
                axis = replicated[-1]
    for op in ordered:
        dims = list(res.param_dims[id(op)])
        if axis in dims or axis >= len(res.mesh_of_stage(res.stage_of(op)).shape):
            continue
        taken = [i for i, m in enumerate(dims) if m != -1]
        free = [i for i in range(len(dims)) if i not in taken[:1]]
        if free:
            dims[free[0]] = axis
            res.param_dims[id(op)] = tuple(dims)


def _apply_mp(res: Resolved, layer: str, params: dict, entry, only: str | None, readers: dict,
              shared_dims: dict) -> None:
    """ColWiseParallel: weight Shard(1) (a 1-D weight Shard(0)), bias Shard(0); RowWiseParallel:
    weight Shard(0) (Paddle 3.3.1 tensor_parallel.py; a ``.bias`` key of RowWiseParallel shards
    the weight, as Paddle's discards the bias and falls back to it). A parameter already placed
    keeps its placement (Paddle skips ``is_dist()`` parameters). A tied parameter (read by
    several layers) is placed by its owner's plan; another layer's plan gives the placement of
    its copy (``shared_dims``; the last plan wins, as Paddle's ``update`` of the placements)."""
    if entry.kind not in ("ColWiseParallel", "RowWiseParallel"):
        return
    roles = ["weight", "bias"] if entry.kind == "ColWiseParallel" else ["weight"]
    if only is not None and entry.kind == "ColWiseParallel":
        roles = [only]
    for role in roles:
        op = params.get(role)
        if op is None:
            continue
        owners = readers.get(id(op), [])
        shared = len(owners) > 1
        stage = res.stage_of(res.layer_ops[layer][0]) if shared else res.stage_of(op)
        mesh = res.mesh_of_stage(stage)
        mp = list(mesh.dim_names).index("mp")
        rank = len(op.results[0].type.shape)
        dims = [-1] * rank
        if entry.kind == "RowWiseParallel":
            if rank != 2:
                continue
            dims[0] = mp
        else:
            dims[1 if rank == 2 else 0] = mp
        if shared:
            shared_dims[(id(op), layer)] = tuple(dims)
            if owners[0] == layer:
                res.param_dims[id(op)] = tuple(dims)
        elif all(m == -1 for m in res.param_dims[id(op)]):
            res.param_dims[id(op)] = tuple(dims)


def _resolve_inputs(res: Resolved, ops) -> None:
    datas = [op for op in ops if op.name == "pd_op.data"]
    last = len(res.stage_meshes) - 1
    for i, op in enumerate(datas):
        name = str(op.attributes.get("name", ""))
        where = res.plan.inputs.get(name, "first" if i == 0 else "last")
        stage = 0 if where == "first" else last if where == "last" else int(where)
        if not 0 <= stage <= last:
            raise res.plan.error(f"input {name}: stage {stage} is not one of 0..{last}",
                                 "inputs", name)
        res.input_stage[name] = stage
        res.op_stage[id(op)] = stage
    for op in datas:
        name = str(op.attributes.get("name", ""))
        stage = res.input_stage[name]
        for user in op.results[0].users():
            if res.stage_of(user) not in (stage, -1):
                where = layer_path(user)
                struct = "/".join(where[1]) if where else "no layer"
                # Paddle fails there too: the op's mesh (its first operand's) must hold the others
                raise res.plan.error(
                    f"input {name} is on stage {stage} but {user.name} ({struct}) reads it on "
                    f"stage {res.stage_of(user)}: say where it goes, [inputs] {name} = "
                    f"{{ stage = {res.stage_of(user)} }} (the default puts the first input on "
                    "the first stage, the others on the last)", "inputs", name)
    for name in res.plan.inputs:
        if name not in res.input_stage:
            raise res.plan.error(f"[inputs] {name} names no pd_op.data of the serial program "
                                 f"(inputs: {', '.join(res.input_stage) or 'none'})",
                                 "inputs", name)
