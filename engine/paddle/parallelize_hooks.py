"""The reshards Paddle's ``dist.parallelize`` hooks add to a traced program, as ops of a serial one.

Paddle 3.3.1 (``python/paddle/distributed/auto_parallel/intermediate/``) does not rewrite a
program: it registers forward hooks on layers, and each ``dist.reshard`` they call while the model
is traced becomes a ``dist_op.reshard`` in the program, with the ``struct_name`` of the layer that
called the hooked one. Over a serial program those hooks are:

- ``pipeline_parallel.forward_post_hook`` (a layer ending a stage, ``SplitPoint.END``): each output
  of the layer is resharded onto the next stage's mesh with its own placements, right after the
  layer's last op;
- ``process_global_mesh_layers`` post-hook (``global_spec``): each output of a global layer goes
  onto the global pp mesh, Replicate (``dist.reshard`` when it is a dist tensor; a dense one is
  ``shard_tensor``-ed, so the op making it runs on the global mesh and no reshard appears);
- its pre-hook on every pipeline layer: each argument not on the layer's stage mesh is resharded
  to it, Replicate, before the layer's first op (seed 003, PR #69628);
- ``parallel_base._process_share_weight_layer``'s pre-hook: a tied parameter (held by several
  layers) read by a layer on another stage than its owner's is resharded to that layer's stage
  mesh, placed as that layer's mp plan says (Replicate else);
- ``ColWiseParallel(gather_output=True)``'s post-hook ``c_concat``: the output made Replicate
  along ``mp`` on its own mesh;
- ``RowWiseParallel(is_input_parallel=False)``'s pre-hook ``c_split(split_type="mp")``: the first
  argument sharded along ``mp`` on its hidden axis (``Shard(2)``);
- the sequence-parallel markers' ``c_split`` / ``c_concat`` (with their transposes).

The reshards are made here with the types of their operands and two attributes saying where they
go (``plan_reshard``: ``"stage"``, ``"global"``, ``"share"``, ``"concat"``, ``"split"``,
``"split_mp"``;
``plan_target``: the stage, -1 for the
global mesh); ``rules/parallelize.rw`` types them once their operands are placed, and erases the
two attributes. The rule language has no action that rewires a value's uses inside one layer
only, so this step is Python, through the IR's journaled mutations.
"""

from __future__ import annotations

from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.paddle.parallelize import Resolved


def _struct_of_parent(res: Resolved, layer: str) -> str:
    parent = layer.rpartition("/")[0]
    return "/" + "/".join([res.root] + ([parent] if parent else [])) + "/"


def _stop_gradient(v: Value):
    owner = v.owner
    if owner is not None and owner.name == "pd_op.data":
        return (True,)  # the dist program's inputs stop gradients (rules/parallelize.rw)
    flags = owner.attributes.get("stop_gradient") if owner is not None else None
    if isinstance(flags, tuple) and len(flags) > v.index:
        return (flags[v.index],)
    return (False,)


class _Placer:
    """Inserts the reshards and tracks, structurally, which stage each value lives on."""

    def __init__(self, program: Program, res: Resolved):
        self.program, self.res = program, res
        self.tag: dict[int, int] = {}  # id(value) -> stage (-1: global pp mesh)

    def stage_of_value(self, v: Value) -> int:
        if id(v) in self.tag:
            return self.tag[id(v)]
        return self.res.stage_of(v.owner) if v.owner is not None else 0

    def transpose(self, v: Value, layer: str, anchor, after):
        """``pd_op.transpose(v) {perm: [1, 0, 2]}`` (Paddle's c_split / c_concat with
        ``need_transpose``: [b, s, h] <-> [s, b, h])."""
        from rulepass.engine.ir.types import DenseTensorType

        shape = list(v.type.shape)
        shape[0], shape[1] = shape[1], shape[0]
        attributes = {"perm": (1, 0, 2), "stop_gradient": _stop_gradient(v),
                      "struct_name": _struct_of_parent(self.res, layer)}
        op = Operation.create("pd_op.transpose", [v], [DenseTensorType(shape, v.type.dtype)],
                              attributes)
        if after:
            self.program.block.insert_after(anchor, op)
        else:
            self.program.block.insert_before(anchor, op)
        self.tag[id(op.results[0])] = self.stage_of_value(v)
        self.res.op_stage[id(op)] = self.stage_of_value(v)
        return op

    def reshard(self, v: Value, mode: str, target: int, layer: str, readers, anchor, after):
        attributes = {"plan_reshard": mode, "plan_target": target,
                      "stop_gradient": _stop_gradient(v),
                      "struct_name": _struct_of_parent(self.res, layer)}
        op = Operation.create("dist_op.reshard", [v], [v.type], attributes)
        if after:
            self.program.block.insert_after(anchor, op)
        else:
            self.program.block.insert_before(anchor, op)
        for reader in readers:
            for i, operand in enumerate(reader.operands):
                if operand is v:
                    reader.set_operand(i, op.results[0])
        self.tag[id(op.results[0])] = target
        self.res.op_stage[id(op)] = target if target >= 0 else self.stage_of_value(v)
        return op


def _outputs(ops: list, members: set) -> list[Value]:
    """Values made by ``ops`` and read by an op outside ``members``, in program order."""
    out = []
    for op in ops:
        for r in op.results:
            if any(id(u) not in members for u in r.users()):
                out.append(r)
    return out


def _arguments(ops: list, members: set) -> list[Value]:
    """Values read by ``ops`` and made outside them (parameters aside), in order of first use."""
    seen, out = set(), []
    for op in ops:
        for v in op.operands:
            if v is None or id(v) in seen or v.owner is None:
                continue
            if id(v.owner) in members or v.owner.name == "builtin.parameter":
                continue
            seen.add(id(v))
            out.append(v)
    return out


def _mp_hooks(res: Resolved) -> tuple[dict, dict]:
    """Layer -> the tp pre-hook and post-hook steps of its mp plan entries, in plan order:
    ``("concat", transpose)`` (c_concat: Replicate along mp, then [1,0,2] if ``transpose``) or
    ``("split", transpose)`` (c_split: [1,0,2] first if ``transpose``, then Shard along mp)."""
    from rulepass.engine.paddle.parallelize import pattern_matches

    pre: dict = {}
    post: dict = {}
    for key, entries in res.plan.mp_plan.items():
        layers = [p for p in res.layer_ops if pattern_matches(key, p)]
        for entry in entries:
            kind, t = entry.kind, entry.option("need_transpose", True)
            steps_pre, steps_post = [], []
            if kind == "ColWiseParallel" and entry.option("gather_output", False):
                steps_post.append(("concat", False))
            elif kind == "RowWiseParallel" and not entry.option("is_input_parallel", True):
                steps_pre.append(("split_mp", False))
            elif kind == "SequenceParallelBegin":
                steps_post.append(("split", t))
            elif kind == "SequenceParallelEnd":
                steps_pre.append(("concat", t))
            elif kind == "SequenceParallelEnable":
                steps_pre.append(("split", True))
                steps_post.append(("concat", True))
            elif kind == "SequenceParallelDisable":
                steps_pre.append(("concat", t))
                steps_post.append(("split", t))
            for layer in layers:
                pre.setdefault(layer, []).extend((*st, key, kind) for st in steps_pre)
                post.setdefault(layer, []).extend((*st, key, kind) for st in steps_post)
    return pre, post


def _check_tp_operand(res: Resolved, v: Value, step: str, key: str, kind: str, layer: str,
                      stage: int, what: str) -> None:
    """Paddle's ``c_split`` / ``c_concat`` (``tensor_parallel.py``) take a 3-D ``[batch, seq,
    hidden]`` tensor, and ``c_split`` looks the batch axis up along a ``"dp"`` mesh dimension;
    raises PlanError at the plan key otherwise (Paddle fails there too)."""
    shape = list(v.type.shape)
    helper = "c_concat" if step == "concat" else "c_split"
    names = list(res.mesh_of_stage(stage).dim_names or ())
    if step != "concat" and "dp" not in names:
        raise res.plan.error(f"{kind} on {layer}: Paddle's c_split needs a \"dp\" mesh dimension "
                             f"to find the batch axis (the mesh has {names}); add one of size 1",
                             "mp", "plan", inner=key)
    if len(shape) != 3:
        raise res.plan.error(f"{kind} on {layer}: Paddle's {helper} takes a 3-D [batch, seq, "
                             f"hidden] tensor, but the layer's {what} is {shape}",
                             "mp", "plan", inner=key)


def insert_hook_reshards(program: Program, res: Resolved) -> list[Operation]:
    """Insert the hooks' reshards (and the sequence-parallel transposes) into the serial
    ``program`` (in place); returns the ops made, in order. Needs
    :func:`~rulepass.engine.paddle.parallelize.resolve` first. Hooks run in Paddle's order of
    registration: the pipeline's, then the global-mesh ones, then the mp plan's."""
    placer = _Placer(program, res)
    members = {layer: {id(op) for op in ops} for layer, ops in res.layer_ops.items()}
    first_of: dict[int, list[str]] = {}
    last_of: dict[int, list[str]] = {}
    for layer, ops in res.layer_ops.items():
        first_of.setdefault(id(ops[0]), []).append(layer)
        last_of.setdefault(id(ops[-1]), []).append(layer)
    pre_hooked = set(res.pipeline_layers) if res.global_layers else set()
    mp_pre, mp_post = _mp_hooks(res)
    made: list[Operation] = []

    def chain(v, steps, layer, readers, anchor, after, stage):
        for step in steps:
            if step[0] == "transpose":
                anchor = placer.transpose(v, layer, anchor, after)
            else:
                anchor = placer.reshard(v, step[0], step[1], layer, [], anchor, after)
            made.append(anchor)
            after = True
            v = anchor.results[0]
        for reader in readers:
            for i, operand in enumerate(reader.operands):
                if operand is chain.source:
                    reader.set_operand(i, v)
        return anchor

    def tp_steps(kind, transpose, stage):
        if kind == "split_mp":  # RowWiseParallel(is_input_parallel=False): c_split "mp"
            return [("split_mp", stage)]
        if kind == "concat":
            return [("concat", stage)] + ([("transpose",)] if transpose else [])
        return ([("transpose",)] if transpose else []) + [("split", stage)]

    for op in list(program.block):
        for layer in sorted(first_of.get(id(op), []), key=lambda p: p.count("/")):
            stage = res.stage_of(op)
            args = _arguments(res.layer_ops[layer], members[layer])
            inside = lambda v: [u for u in v.users() if id(u) in members[layer]]  # noqa: E731
            if layer in pre_hooked:
                for v in args:
                    if placer.stage_of_value(v) != stage:
                        chain.source = v
                        chain(v, [("global", stage)], layer, inside(v), op, False, stage)
                args = _arguments(res.layer_ops[layer], members[layer])
            for kind, transpose, key, entry in mp_pre.get(layer, []):
                if args:  # Paddle's c_split / c_concat take the first argument only
                    v = args[0]
                    _check_tp_operand(res, v, kind, key, entry, layer, stage, "first argument")
                    chain.source = v
                    chain(v, tp_steps(kind, transpose, stage), layer, inside(v), op, False, stage)
                    args = _arguments(res.layer_ops[layer], members[layer])
            for param, holder, target, dims in res.shared_params:
                if holder == layer:  # _shard_all_param's pre-hook for a tied weight
                    v = param.results[0]
                    chain.source = v
                    made_op = chain(v, [("share", target)], layer, inside(v), op, False, target)
                    res.reshard_dims[id(made_op)] = dims
        anchor = op
        for layer in sorted(last_of.get(id(op), []), key=lambda p: -p.count("/")):
            hooked: list[Operation] = []  # this layer's post-hook reshards: a later hook gets
            # what an earlier one returned (Paddle chains forward post-hooks), so a split layer
            # in global_spec goes to the next stage, then onto the global mesh
            stage = res.stage_of(op)
            steps = []
            if layer in res.split_after:
                steps.append([("stage", stage + 1)])
            if layer in res.global_layers:
                steps.append([("global", -1)])
            checks = [None] * len(steps)
            for kind, transpose, key, entry in mp_post.get(layer, []):
                steps.append(tp_steps(kind, transpose, stage))
                checks.append((kind, key, entry))
            for hook, check in zip(steps, checks):
                outputs = _outputs(res.layer_ops[layer] + hooked,
                                   members[layer] | {id(m) for m in made})
                if check is not None:  # Paddle's c_split / c_concat take the first output only
                    outputs = outputs[:1]
                    for v in outputs:
                        _check_tp_operand(res, v, *check, layer, stage, "output")
                for v in outputs:
                    if hook[0][0] == "global" and placer.stage_of_value(v) == -1:
                        continue  # made on the global mesh already (a dense output)
                    readers = [u for u in v.users()
                               if id(u) not in members[layer] and u not in made]
                    chain.source = v
                    before = len(made)
                    anchor = chain(v, hook, layer, readers, anchor, True, stage)
                    hooked += made[before:]
    return made
