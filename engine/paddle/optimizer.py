"""The optimizer step and gradient merge, appended after :func:`append_backward`.

Mirrors what Paddle 3.3.1 builds for a static auto-parallel program (``Optimizer.minimize`` under
``paddle.distributed.to_static``, and ``python/paddle/distributed/passes/
auto_parallel_gradient_merge.py`` which pipelines force on), as its printed programs show:

- one ``pd_op.data`` named ``learning_rate_0`` (shape ``[]``, persistable) per parameter mesh,
  at the top of the program, in the order the meshes first appear among the parameters;
- for every trainable ``builtin.parameter`` with a grad, in program order, ``pd_op.sgd_(param, lr,
  grad, <<NULL VALUE>>)`` or ``pd_op.adamw_(...)``, ``op_role: 2``;
- with gradient merge over ``k > 1`` micro-batches: a persistent kwarg ``<param>@GRAD@MERGE``
  (zero at start) typed as the grad (a data-parallel grad stays Partial in it),
  ``pd_op.add_(merge, grad)`` right after the grad is made (``op_role: 1``, ``grad_merge_add``,
  the grad producer's placements), then before the update ``pd_op.scale_(merge, full(1/k))``
  (the average), which needs the parameter's placement: the partition step puts the reshard of
  the merged grad (the dp ``all_reduce``) before it, in the optimizer job, once per step, where
  Paddle's ``_pir_append_gradient_merge_backward_op`` moves it; after all updates the buffer is
  zeroed with ``pd_op.set_value_with_tensor_``.

AdamW's moments and beta powers are persistable ``builtin.parameter`` ops named as Paddle names
them (``<param>_moment1_0``, ``<param>_moment2_0``, ``<param>_beta1_pow_acc_0``,
``<param>_beta2_pow_acc_0``; Paddle 3.3.1 makes them persistable ``pd_op.data`` ops of its
startup program — the same state under the same names); :func:`optimizer_state_initial_values`
gives their starting values.
"""

from __future__ import annotations

import functools

from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.paddle.backward import dist_attr_of_type
from rulepass.engine.paddle.partition import needs_reshard
from rulepass.engine.ir.core import Operation, Program, Value, make_kwarg
from rulepass.engine.ir.types import (
    NULL_DIST,
    NULL_TYPE,
    DenseTensorType,
    DistTensorType,
    OperationDistAttr,
    TensorDistAttr,
)

OPTIMIZE_ROLE = 2
BACKWARD_ROLE = 1


@functools.lru_cache(maxsize=None)
def _scalar_type(like, shape=()):
    """A float32 tensor of ``shape`` on the mesh of ``like`` (replicated), or dense."""
    if isinstance(like, DistTensorType):
        return DistTensorType(shape, "float32", TensorDistAttr(like.mesh, (-1,) * len(shape)))
    return DenseTensorType(shape, "float32")


def _dist(program_op_mesh, operands, results, chunk_id=-1, required=None):
    """The op dist attribute: each operand's own entry unless ``required`` (index → attribute)
    says what the op needs (a grad must be placed as its parameter: a partial grad gets summed
    by the reshard the partition step inserts). Made once per combination of the mesh, the
    value types and the required entries, by identity (a model's parameters share a handful of
    type objects: 50 combinations at 1,024 layers), and shared by the ops of that combination;
    the cache keeps those objects alive, so that their ids stay theirs."""
    if program_op_mesh is None:
        return None
    types = tuple([v.type if v is not None else None for v in operands])
    key = (id(program_op_mesh), tuple(map(id, types)), tuple(map(id, results)), chunk_id,
           tuple([(i, id(a)) for i, a in required.items()]) if required else ())
    found = _DISTS.get(key)
    if found is not None:
        return found[-1]
    required = required or {}
    entries = (tuple([required.get(i, dist_attr_of_type(t) if t is not None else NULL_DIST)
                      for i, t in enumerate(types)]),
               tuple([dist_attr_of_type(t) for t in results]))  # a null type's is NULL_DIST
    made = OperationDistAttr(program_op_mesh, entries[0], entries[1], chunk_id)
    if len(_DISTS) > 100_000:
        _DISTS.clear()
    _DISTS[key] = (program_op_mesh, types, tuple(results), required, made)
    return made


#: ids of (mesh, operand types, result types, chunk, required entries) -> (those objects, kept
#: alive, and the dist attribute)
_DISTS: dict = {}


def trainable_parameters(program: Program) -> list[Operation]:
    """``builtin.parameter`` ops of the top block that are trainable, in program order."""
    out = []
    for op in program.block:
        if op.name != "builtin.parameter":
            continue
        trainable = op.attributes.get("trainable", (True,))
        sg = op.attributes.get("stop_gradient", (False,))
        if (trainable in ((True,), True)) and sg not in ((True,), True):
            out.append(op)
    return out


def _create(program: Program, name, operands, attributes, result_types, mesh,
            before: Operation | None = None, after: Operation | None = None,
            required=None) -> Operation:
    op = Operation.create(name, operands, result_types, attributes,
                          _dist(mesh, operands, result_types, required=required))
    if before is not None:
        program.block.insert_before(before, op)
    elif after is not None:
        program.block.insert_after(after, op)
    else:
        program.block.append(op)
    return op


def append_optimizer(program: Program, grads: dict, optimizer: str = "sgd",
                     micro_batches: int = 1, lr_name: str = "learning_rate_0",
                     hyper: dict | None = None, rank: int | None = None) -> list[Operation]:
    """Append the update of every trainable parameter that has a grad in ``grads`` (forward
    value → grad value, as :class:`~rulepass.engine.paddle.backward.BackwardResult` gives them).

    ``optimizer`` is ``"sgd"`` or ``"adamw"`` (``hyper``: beta1, beta2, epsilon, coeff).
    With ``rank``, only the parameters that rank updates get their ops (:func:`updated_on`):
    the others' would all sit on meshes without it, for ``prune_other_ranks`` to erase (the
    learning-rate data ops are made for every mesh still, so that the rank's program keeps
    Paddle's). Paddle builds every rank's updates and prunes them; building only the rank's
    gives the same program after pruning, with half the ops made (and erased) at pp2.
    Raises ``ValueError`` for another optimizer or ``micro_batches < 1``. Returns the ops made.
    """
    if optimizer not in ("sgd", "adamw"):
        raise ValueError(f"unknown optimizer {optimizer!r}; rulepass knows sgd and adamw")
    if micro_batches < 1:
        raise ValueError(f"micro_batches must be at least 1, got {micro_batches}")
    hyper = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "coeff": 0.01, **(hyper or {})}
    params = [p for p in trainable_parameters(program) if p.result in grads]
    made: list[Operation] = []
    updated = params if rank is None else [p for p in params if updated_on(p, grads, rank)]

    # Learning rate: one data op per parameter mesh, at the top.
    lr_by_mesh: dict = {}
    first = program.block.first
    meshes = []
    for p in params:
        mesh = p.result.type.mesh if isinstance(p.result.type, DistTensorType) else None
        if mesh not in meshes:
            meshes.append(mesh)
    for mesh in meshes:
        t = (DistTensorType((), "float32", TensorDistAttr(mesh, ())) if mesh is not None
             else DenseTensorType((), "float32"))
        op = _create(program, "pd_op.data", [], {
            "dtype": Symbol("float32"), "name": lr_name, "op_role": 0, "persistable": (True,),
            "place": Place("undefined:0"), "shape": (), "stop_gradient": (True,)}, [t], mesh,
            before=first)
        lr_by_mesh[mesh] = op.result
        made.append(op)

    merged: dict[Value, Value] = {}
    if micro_batches > 1:
        for p in updated:
            grad = grads[p.result]
            # The buffer has the grad's placement (Paddle's ``grad_type``): a data-parallel grad
            # stays partial while it accumulates, and the reshard that sums it is made before
            # the scale_ below, so it runs once per step rather than once per micro-batch.
            buffer = make_kwarg(f"{p.attributes.get('parameter_name')}@GRAD@MERGE",
                                grad.type, [("place", Place("cpu")), ("persistable", True)])
            program.add_kwarg(buffer, 0)  # Paddle lists the newest buffer first
            producer = grad.owner
            mesh = producer.dist_attr.mesh if producer.dist_attr is not None else None
            add = _create(program, "pd_op.add_", [buffer, grad], {
                "grad_merge_add": True, "op_role": BACKWARD_ROLE, "stop_gradient": (False,)},
                [grad.type], mesh, after=producer)
            if "chunk_id" in producer.attributes:
                add.set_attr("chunk_id", producer.attributes["chunk_id"])
            if add.dist_attr is not None and producer.dist_attr is not None:
                add.set_dist_attr(OperationDistAttr(add.dist_attr.mesh, add.dist_attr.operands,
                                                    add.dist_attr.results,
                                                    producer.dist_attr.chunk_id))
            merged[p.result] = buffer
            made.append(add)

    for p in updated:
        mesh = p.result.type.mesh if isinstance(p.result.type, DistTensorType) else None
        lr = lr_by_mesh[mesh]
        grad = grads[p.result]
        if micro_batches > 1:
            buffer = merged[p.result]
            factor = _create(program, "pd_op.full", [], {
                "dtype": Symbol("float32"), "op_role": OPTIMIZE_ROLE, "place": Place("cpu"),
                "shape": (1,), "stop_gradient": (True,), "value": 1.0 / micro_batches},
                [_scalar_type(p.result.type, (1,))], mesh)
            scaled = _create(program, "pd_op.scale_", [buffer, factor.result], {
                "bias": 0.0, "bias_after_scale": False, "op_role": OPTIMIZE_ROLE,
                "stop_gradient": (True,)}, [p.result.type], mesh, required=_as_param(p, 0))
            grad = scaled.result
            made += [factor, scaled]
        if optimizer == "sgd":
            update = _create(program, "pd_op.sgd_", [p.result, lr, grad, None], {
                "multi_precision": False, "op_role": OPTIMIZE_ROLE,
                "stop_gradient": (True, False)}, [p.result.type, NULL_TYPE], mesh,
                required=_as_param(p, 2))
        else:
            update = _adamw(program, p, lr, grad, mesh, hyper)
        made.append(update)

    if micro_batches > 1:
        for p in updated:
            mesh = p.result.type.mesh if isinstance(p.result.type, DistTensorType) else None
            zero = _create(program, "pd_op.full", [], {
                "dtype": Symbol("float32"), "op_role": OPTIMIZE_ROLE, "place": Place("cpu"),
                "shape": (1,), "stop_gradient": (True,), "value": 0.0},
                [_scalar_type(p.result.type, (1,))], mesh)
            bounds = [_create(program, "pd_op.full_int_array", [], {
                "dtype": Symbol("int64"), "op_role": OPTIMIZE_ROLE, "place": Place("cpu"),
                "stop_gradient": (True,), "value": ()},
                [_int_array_type(p.result.type)], mesh) for _ in range(3)]
            # in place: the result is the buffer, typed as it (Paddle types it as the parameter,
            # a local shape the buffer does not have when the grad is sharded otherwise)
            reset = _create(program, "pd_op.set_value_with_tensor_",
                            [merged[p.result], zero.result] + [b.result for b in bounds], {
                                "axes": (), "decrease_axes": (), "none_axes": (),
                                "op_role": OPTIMIZE_ROLE, "stop_gradient": (True,)},
                            [merged[p.result].type], mesh)
            made += [zero, *bounds, reset]
    return made


def _mesh_of(value: Value):
    t = value.type
    return t.mesh if isinstance(t, DistTensorType) else None


def updated_on(param: Operation, grads: dict, rank: int) -> bool:
    """Whether ``rank`` runs any op of ``param``'s update: true unless both the parameter and
    its grad (the grad's producer, where gradient merge adds it up) are dist tensors on meshes
    without ``rank``. A dense parameter is updated on every rank."""
    grad = grads[param.result]
    meshes = [_mesh_of(param.result), _mesh_of(grad)]
    producer = grad.owner
    if producer is not None and producer.dist_attr is not None:
        meshes.append(producer.dist_attr.mesh)
    return any(mesh is None or rank in mesh for mesh in meshes)


def update_reshards(program: Program, grads: dict) -> list[tuple]:
    """``(grad type, parameter type)`` for every trainable parameter with a grad in ``grads``,
    in program order, whose update reads its grad (or merged grad) in another placement on the
    same mesh: the reshards (a data-parallel grad's all_reduce) that the partition step
    inserts before the updates :func:`append_optimizer` makes, on every rank together. What
    ``create_process_groups`` numbers for the updates, whichever rank built them."""
    out = []
    for p in trainable_parameters(program):
        grad = grads.get(p.result)
        t = p.result.type
        if grad is not None and isinstance(t, DistTensorType) and needs_reshard(grad.type, t.dist):
            out.append((grad.type, DistTensorType(grad.type.shape, grad.type.dtype, t.dist)))
    return out


def _as_param(param: Operation, index: int) -> dict:
    """``{index: the parameter's dist attribute}``: operand ``index`` must be placed as the
    parameter (empty for a dense parameter)."""
    t = param.result.type
    return {index: t.dist} if isinstance(t, DistTensorType) else {}


@functools.lru_cache(maxsize=None)
def _int_array_type(like):
    if isinstance(like, DistTensorType):
        return DistTensorType((0,), "int64", TensorDistAttr(like.mesh, (-1,)))
    return DenseTensorType((0,), "int64")


def _state_parameter(program: Program, param: Operation, suffix: str, t) -> Value:
    name = f"{param.attributes.get('parameter_name')}_{suffix}"
    mesh = t.mesh if isinstance(t, DistTensorType) else None
    op = Operation.create("builtin.parameter", [], [t], {
        "op_role": 0, "parameter_name": name, "persistable": (True,),
        "stop_gradient": (True,), "trainable": (False,)}, _dist(mesh, [], [t]))
    program.block.insert_after(param, op)
    return op.result


def _adamw(program, p: Operation, lr, grad, mesh, hyper) -> Operation:
    """``adamw_`` as Paddle 3.3.1 builds it: 13 operands, beta1, beta2 and epsilon as
    ``pd_op.full`` tensors (operands 10-12), coeff / lr_ratio / with_decay as attributes."""
    t = p.result.type
    pow_type = _scalar_type(t, (1,))
    moment1 = _state_parameter(program, p, "moment1_0", t)
    moment2 = _state_parameter(program, p, "moment2_0", t)
    beta1_pow = _state_parameter(program, p, "beta1_pow_acc_0", pow_type)
    beta2_pow = _state_parameter(program, p, "beta2_pow_acc_0", pow_type)
    scalars = [_create(program, "pd_op.full", [], {
        "dtype": Symbol("float32"), "op_role": OPTIMIZE_ROLE, "place": Place("cpu"),
        "shape": (1,), "stop_gradient": (True,), "value": float(hyper[key])},
        [pow_type], mesh).result for key in ("beta1", "beta2", "epsilon")]
    return _create(program, "pd_op.adamw_",
                   [p.result, grad, lr, moment1, moment2, None, beta1_pow, beta2_pow, None, None,
                    *scalars],
                   {"amsgrad": False, "coeff": hyper["coeff"], "lazy_mode": False,
                    "lr_ratio": 1.0, "min_row_size_to_use_multithread": 1000,
                    "multi_precision": False, "op_role": OPTIMIZE_ROLE,
                    "use_global_beta_pow": False, "with_decay": True,
                    "stop_gradient": (False,) * 7},
                   [t, t, t, NULL_TYPE, pow_type, pow_type, NULL_TYPE], mesh,
                   required=_as_param(p, 1))


def optimizer_state_initial_values(program: Program, hyper: dict | None = None) -> dict:
    """Starting values of the optimizer state parameters :func:`append_optimizer` made, keyed
    by parameter name: ``(shape, fill value)`` — zeros for moments, beta1/beta2 for the powers."""
    hyper = {"beta1": 0.9, "beta2": 0.999, **(hyper or {})}
    out = {}
    for op in program.walk():
        if op.name != "builtin.parameter":
            continue
        name = str(op.attributes.get("parameter_name", ""))
        shape = tuple(getattr(op.result.type, "shape", ()))
        if name.endswith(("_moment1_0", "_moment2_0")):
            out[name] = (shape, 0.0)
        elif name.endswith("_beta1_pow_acc_0"):
            out[name] = (shape, hyper["beta1"])
        elif name.endswith("_beta2_pow_acc_0"):
            out[name] = (shape, hyper["beta2"])
    return out
