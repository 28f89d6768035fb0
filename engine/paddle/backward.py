"""``append_backward``: grad ops for a forward program, from grad definitions declared as data.

Reimplements what ``paddle.autograd.ir_backward.append_backward`` (Paddle 3.3.1) builds, in one
linear pass (Paddle rebuilds its op list for every forward op, which grows as layers^2.5):

1. The loss is the value ``builtin.shadow_output`` writes under an ``output_name`` containing
   ``loss`` (or the one given). Its grad is ``pd_op.full`` (shape [1], value 1) and
   ``pd_op.full_like(loss, full)``, linked to the loss's producer.
2. A value *needs a grad* when it depends on a trainable value: a result whose op prints
   ``stop_gradient:[..false..]`` for it (Paddle computes that attribute from the inputs), and a
   ``builtin.parameter`` with ``stop_gradient:[false]``. Ops on no path from such a value to the
   loss get no grad ops.
3. Forward ops are visited in reverse. A result with several grad contributions gets them summed by
   ``builtin.combine`` + ``pd_op.add_n`` (in contribution order) just before the producer's grad
   ops. The grad definition of the op (``grad`` blocks of ``rules/grad.rw``) creates its grad ops.
   Grad results that feed a value needing no grad become ``<<NULL TYPE>>``, as Paddle prints them.
4. Every created op gets ``op_role: 1``, ``grad_of: <the forward op's op_id>`` (forward ops get a
   unique ``op_id``), ``stop_gradient`` per result, and — when the forward op has a dist attribute —
   an op dist attribute on the forward op's mesh whose entries are the dist attributes of its
   operand and (declared) result types — unless some of those types are dense (the ops at the
   edge of a local region), which get none.

Grad definitions are objects with ``op_names`` (tuple of op names, or ``None`` for any) and
``match(op) -> bindings | None`` / ``emit(emitter, op, bindings)``; :mod:`rw_grad` compiles them
from ``grad`` blocks.
"""

from __future__ import annotations

import attrs

import rulepass.engine.paddle.spmd as spmd
from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.errors import RewriteError
from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.ir.types import (
    NULL_DIST,
    NULL_TYPE,
    DenseTensorType,
    DistTensorType,
    OperationDistAttr,
    ProcessMesh,
    TensorDistAttr,
    VectorType,
)

GRAD_ROLE = 1


def needs_grad_of_result(op: Operation, index: int, operand_needs: bool) -> bool:
    """Whether result ``index`` of ``op`` needs a grad (see the module docstring)."""
    sg = op.attributes.get("stop_gradient")
    if isinstance(sg, tuple) and index < len(sg) and isinstance(sg[index], bool):
        if op.name == "builtin.parameter":
            return not sg[index]
        return (not sg[index]) and operand_needs
    return operand_needs


def find_loss(program: Program) -> Value:
    """The loss value: the operand of ``builtin.shadow_output`` named like ``loss``; else the
    first shadow_output's operand. ``RewriteError`` when there is none."""
    outputs = [op for op in program.block if op.name == "builtin.shadow_output" and op.operands]
    for op in outputs:
        if "loss" in str(op.attributes.get("output_name", "")):
            return op.operand(0)
    if outputs:
        return outputs[0].operand(0)
    raise RewriteError("append_backward: no loss found (no builtin.shadow_output in the "
                       "program); pass the loss value explicitly")


def dist_attr_of_type(t) -> TensorDistAttr | tuple | None:
    """The dist attribute an op dist attribute lists for a value of type ``t``."""
    if isinstance(t, DistTensorType):
        return t.dist
    if isinstance(t, VectorType):
        return tuple(dist_attr_of_type(i) or NULL_DIST for i in t.items)
    return NULL_DIST


def merge_meshes(a: ProcessMesh, b: ProcessMesh) -> ProcessMesh:
    """A one-dimensional mesh over the union of two meshes' ranks (sorted), as Paddle gives the
    backward reshard between two pipeline stages."""
    ids = sorted(set(a.process_ids) | set(b.process_ids))
    return ProcessMesh([len(ids)], ids)


@attrs.define
class BackwardResult:
    """What :func:`append_backward` made: ``grads`` maps each forward value that got a grad to it
    (parameters included); ``grad_ops`` lists the created ops in order."""

    loss: Value
    grads: dict
    grad_ops: list


class GradEmitter:
    """The interface grad definitions build with, for one forward op at a time."""

    def __init__(self, program: Program, needs: set, op_ids: dict):
        self.program = program
        self.needs = needs
        self.op_ids = op_ids
        self.contributions: dict[Value, list[Value]] = {}
        self.summed: dict[Value, Value | None] = {}
        self.created: list[Operation] = []
        self.forward_op: Operation | None = None
        self._contributed_now: list[tuple[Value, Value]] = []
        self._averaged: dict = {}

    # -- used by grad definitions -------------------------------------------------------------
    def grad(self, value: Value | None) -> Value | None:
        """The (summed) grad of forward value ``value``, or ``None`` when it has none. The grad
        of a ``Partial(AVG)`` result of the current forward op comes divided by the group size
        (:func:`spmd.average_factor`), made once."""
        if value is None:
            return None
        g = self.summed.get(value)
        fwd = self.forward_op
        if g is None or fwd is None or fwd.dist_attr is None or value.owner is not fwd:
            return g
        entry = fwd.dist_attr.results[value.index] if value.index < len(
            fwd.dist_attr.results) else None
        factor = spmd.average_factor(entry) if isinstance(entry, TensorDistAttr) else 1
        if factor == 1:
            return g
        key = (id(fwd), value.index)
        if key not in self._averaged:
            t = g.type
            one = (DistTensorType((1,), t.dtype, TensorDistAttr(t.mesh, (-1,)))
                   if isinstance(t, DistTensorType) else DenseTensorType((1,), t.dtype))
            full = self.create("pd_op.full", [], {
                "dtype": Symbol(t.dtype), "place": Place("cpu"), "shape": (1,),
                "stop_gradient": (True,), "value": 1.0 / factor}, [one])
            scaled = self.create("pd_op.scale", [g, full.result], {
                "bias": 0.0, "bias_after_scale": True}, [t])
            self._averaged[key] = scaled.result
        return self._averaged[key]

    def _required_entry(self, v: Value | None):
        """The dist attribute a grad op requires of operand ``v``: what the forward op read or
        wrote it with, the dual for the grad of a forward result, else ``v``'s own."""
        if v is None:
            return NULL_DIST
        fwd = self.forward_op
        d = fwd.dist_attr if fwd is not None else None
        if d is not None:
            for i, fv in enumerate(fwd._operands):
                if fv is v and i < len(d.operands) and isinstance(d.operands[i], TensorDistAttr):
                    return d.operands[i]
            for j, r in enumerate(fwd.results):
                if j >= len(d.results) or not isinstance(d.results[j], TensorDistAttr):
                    continue
                if r is v:
                    return d.results[j]
                if self.summed.get(r) is v or self._averaged.get((id(fwd), j)) is v:
                    return spmd.dual_of_result(d.results[j])
        return dist_attr_of_type(v.type)

    def create(self, name: str, operands, attributes: dict, result_types,
               mesh: ProcessMesh | None = None) -> Operation:
        """Create grad op ``name`` at the end of the program, linked to the current forward op.
        Its op dist attribute (when the forward op has one and every value is a dist tensor)
        lists what it requires of each operand (:meth:`_required_entry`) and its result types;
        its mesh is the forward op's unless ``mesh`` is given."""
        fwd = self.forward_op
        attributes = dict(attributes)
        attributes.setdefault("op_role", GRAD_ROLE)
        if fwd is not None and fwd in self.op_ids:
            attributes["grad_of"] = self.op_ids[fwd]
        attributes.setdefault("stop_gradient", tuple(False for _ in result_types))
        dist = None
        # An op dist attribute describes dist values: ops crossing into or out of a local region
        # (dense on one side) get none, as Paddle builds them.
        all_dist = all(isinstance(t, (DistTensorType, VectorType)) or t == NULL_TYPE
                       for t in [v.type for v in operands if v is not None] + list(result_types))
        if fwd is not None and fwd.dist_attr is not None and all_dist:
            mesh = mesh if mesh is not None else fwd.dist_attr.mesh
            if name == "dist_op.reshard" and operands and result_types:
                src, dst = operands[0].type, result_types[0]
                if isinstance(src, DistTensorType) and isinstance(dst, DistTensorType) \
                        and src.mesh != dst.mesh:
                    mesh = merge_meshes(src.mesh, dst.mesh)
            dist = OperationDistAttr(
                mesh,
                [self._required_entry(v) for v in operands],
                [dist_attr_of_type(t) for t in result_types],
                -1,
            )
        op = Operation.create(name, list(operands), list(result_types), attributes, dist)
        self.program.block.append(op)
        self.created.append(op)
        return op

    def contribute(self, value: Value | None, grad: Value | None) -> None:
        """Add ``grad`` to the grad of forward value ``value`` (ignored when either is null)."""
        if value is None or grad is None:
            return
        self._contributed_now.append((value, grad))

    # -- used by the driver -------------------------------------------------------------------
    def _commit(self) -> None:
        for value, grad in self._contributed_now:
            if value in self.needs:
                self.contributions.setdefault(value, []).append(grad)
            elif grad.owner is not None and grad.owner in self.created and not grad.num_uses:
                # Paddle prints the grad of an input that needs none as a null result.
                grad.set_type(NULL_TYPE)
        self._contributed_now = []

    def _same_placement(self, value: Value, grads: list, mesh) -> list:
        """``grads`` as ``add_n`` may sum them: when their placements differ (a Partial(SUM)
        grad from a column-parallel matmul meeting a Replicate one from a residual), each one
        not placed as ``value`` itself is resharded to ``value``'s placement (no partial) first;
        summing them as typed would treat a partial piece as the whole."""
        if len({_placement(g.type) for g in grads}) == 1 or not isinstance(
                value.type, DistTensorType) or not all(isinstance(g.type, DistTensorType)
                                                       for g in grads):
            return grads
        out = []
        for g in grads:
            target = DistTensorType(g.type.shape, g.type.dtype,
                                    TensorDistAttr(value.type.mesh, value.type.dims_mapping))
            if _placement(g.type) != _placement(target):
                g = self.create("dist_op.reshard", [g], {}, [target], mesh).result
            out.append(g)
        return out

    def _sum(self, value: Value, producer: Operation) -> Value | None:
        grads = self.contributions.pop(value, [])
        if not grads:
            return None
        if len(grads) == 1:
            return grads[0]
        self.forward_op = producer
        # the sum lives where the value does: a reshard's result sits on its target mesh, not on
        # the merged mesh of the reshard op (which would keep the sum on ranks without its grads)
        mesh = value.type.mesh if isinstance(value.type, DistTensorType) else None
        grads = self._same_placement(value, grads, mesh)
        combine = self.create("builtin.combine", grads, {},
                              [VectorType([g.type for g in grads])], mesh)
        add_n = self.create("pd_op.add_n", [combine.result], {}, [grads[0].type], mesh)
        return add_n.result


def _placement(t):
    return (t.mesh, t.dist.dims_mapping, t.dist.partial) if isinstance(t, DistTensorType) else t


def append_backward(program: Program, grad_defs, loss: Value | None = None) -> BackwardResult:
    """Append the backward of ``program`` (in place) and return what was made.

    Raises :class:`RewriteError` naming the op when a forward op on the path to the loss has no
    grad definition.
    """
    loss = loss if loss is not None else find_loss(program)
    forward = [op for op in program.block]
    loss_op = loss.owner
    if loss_op is None:
        raise RewriteError("append_backward: the loss is not produced by an op")

    # 1. which values need grads (forward), which ops reach the loss (backward).
    needs: set[Value] = set()
    for op in forward:
        operand_needs = any(v is not None and v in needs for v in op._operands)
        for i, r in enumerate(op.results):
            if needs_grad_of_result(op, i, operand_needs):
                needs.add(r)
    reaches: set[Operation] = set()
    live: set[Value] = {loss}
    for op in reversed(forward):
        if any(r in live for r in op.results) and any(r in needs for r in op.results):
            reaches.add(op)
            for v in op._operands:
                if v is not None:
                    live.add(v)
    needs &= live
    # Ops that get grad ops: on the path, with an operand needing a grad (not leaves such as
    # builtin.parameter, whose grads are only summed).
    differentiated = {op for op in reaches if any(v in needs for v in op._operands if v)}

    # 2. op ids for the forward ops that get grad ops.
    op_ids = {op: i for i, op in enumerate(o for o in forward if o in differentiated)}
    for op, i in op_ids.items():
        op.set_attr("op_id", i)

    index = {}
    for d in grad_defs:
        for name in (d.op_names or ("*",)):
            index.setdefault(name, []).append(d)

    emitter = GradEmitter(program, needs, op_ids)
    # 3. the loss grad.
    if loss_op not in op_ids:
        raise RewriteError("append_backward: the loss does not depend on any trainable value")
    emitter.forward_op = loss_op
    loss_type = loss.type
    dtype = getattr(loss_type, "dtype", "float32")
    one_type = (DistTensorType((1,), dtype, TensorDistAttr(loss_type.mesh, (-1,)))
                if isinstance(loss_type, DistTensorType) else DenseTensorType((1,), dtype))
    full = Operation.create("pd_op.full", [], [one_type], {
        "dtype": Symbol(dtype), "grad_of": op_ids[loss_op], "op_role": GRAD_ROLE,
        "place": Place("cpu"), "shape": (1,), "stop_gradient": (True,), "value": 1.0})
    program.block.append(full)
    emitter.created.append(full)
    grad_type = loss_type
    if isinstance(loss_type, DistTensorType):  # the grad of a partial loss is replicated
        grad_type = DistTensorType(loss_type.shape, dtype, spmd.dual_of_result(loss_type.dist))
    loss_grad = emitter.create("pd_op.full_like", [loss, full.result],
                               {"dtype": Symbol(dtype), "place": Place("undefined:0")},
                               [grad_type]).result
    emitter.contributions[loss] = [loss_grad]

    # 4. reverse walk.
    grads: dict[Value, Value] = {}
    for op in reversed(forward):
        if op not in reaches:
            continue
        for r in op.results:
            g = emitter._sum(r, op)
            if g is not None:
                emitter.summed[r] = g
                grads[r] = g
        if op not in differentiated or not any(r in emitter.summed for r in op.results):
            continue
        emitter.forward_op = op
        definition, bindings = _find_definition(index, op)
        definition.emit(emitter, op, bindings)
        emitter._commit()
    return BackwardResult(loss, grads, emitter.created)


def _find_definition(index: dict, op: Operation):
    for d in index.get(op.name, []) + index.get("*", []):
        bindings = d.match(op)
        if bindings is not None:
            return d, bindings
    raise RewriteError(f"append_backward: no grad definition matches {op.name} (operands: "
                       f"{op.num_operands}, results: {len(op.results)}); add a `grad` block for "
                       "it to rules/grad.rw")
