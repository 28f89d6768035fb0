"""``append_backward``: grad ops for a forward program, from grad definitions declared as data.

Reimplements what ``paddle.autograd.ir_backward.append_backward`` (Paddle 3.3.1) builds, in one
linear pass (Paddle rebuilds its op list for every forward op, which grows as layers^2.5; the
zero grads Paddle makes for results nothing reads and removes at the end are never made):

1. The loss is the value ``builtin.shadow_output`` writes under an ``output_name`` containing
   ``loss`` (or the one given). Its grad is ``pd_op.full`` (shape [1], value 1) and
   ``pd_op.full_like(loss, full)``, linked to the loss's producer.
2. A value *needs a grad* when it depends on a trainable value: a result whose op prints
   ``stop_gradient:[..false..]`` for it (Paddle computes that attribute from the inputs), and a
   leaf (``builtin.parameter``, ``pd_op.data``) with ``stop_gradient:[false]``. Ops on no path
   from such a value to the loss get no grad ops.
3. Forward ops are visited consumers first, in Paddle's order (:func:`inverse_sort`, its
   ``inverse_sort_op``: breadth first from the loss, an op once all its readers came; the plain
   reverse order when the program has in-place array ops). A result with several grad
   contributions gets them summed by ``builtin.combine`` + ``pd_op.add_n`` (in contribution
   order) just before the producer's grad ops. The grad definition of the op (``grad`` blocks of
   ``rules/grad.rw``) creates its grad ops. Grad results that feed a value needing no grad
   become ``<<NULL TYPE>>``, as Paddle prints them.
   Vectors (``vec[...]``) are looked through, as Paddle's backward does: ``builtin.combine`` and
   ``builtin.split`` get no visit; a grad op reading a forward vector reads a new
   ``builtin.combine`` of its items; a vector grad added to a combined vector is split
   (``builtin.split``) into its items' grads; ``grad(v)`` of a vector result split by a
   ``builtin.split`` is the ``builtin.combine`` of its items' summed grads, zeros
   (``pd_op.full`` + ``pd_op.full_like``) for an item that got none.
4. Every created op gets ``op_role: 1``, ``grad_of: <the forward op's op_id>`` (the forward ops
   that got grad ops get a unique ``op_id``, in program order), ``stop_gradient`` per result,
   and — when the forward op has a dist attribute — an op dist attribute on the forward op's
   mesh whose entries are what the grad op requires of its operands (the placements the forward
   op read them with; a forward result whole, never Partial) and the dist attributes of its
   (declared) result types — unless some of those types are dense (the ops at the edge of a
   local region) or it is a ``builtin.combine``/``split``, which get none.

Grad definitions are objects with ``op_names`` (tuple of op names, or ``None`` for any) and
``match(op) -> bindings | None`` / ``emit(emitter, op, bindings)``; :mod:`rw_grad` compiles them
from ``grad`` blocks.
"""

from __future__ import annotations

from collections import deque

import attrs

import rulepass.engine.paddle.spmd as spmd
from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.errors import RewriteError
from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.paddle.functions import merge_meshes
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
        if op.name == "builtin.parameter" or not op.num_operands:
            return not sg[index]  # a leaf (parameter, data) needs one unless it stops gradients
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


@attrs.define
class BackwardResult:
    """What :func:`append_backward` made: ``grads`` maps each forward value that got a grad to it
    (parameters included); ``grad_ops`` lists the created ops in order."""

    loss: Value
    grads: dict
    grad_ops: list


class GradEmitter:
    """The interface grad definitions build with, for one forward op at a time."""

    def __init__(self, program: Program, needs: set):
        self.program = program
        self.needs = needs
        self.contributions: dict[Value, list[Value]] = {}
        self.summed: dict[Value, Value | None] = {}
        self.created: list[Operation] = []
        self.forward_op: Operation | None = None
        # forward op -> the grad ops made for it (their ``grad_of`` is set after the walk)
        self.grad_ops_of: dict[Operation, list[Operation]] = {}
        # a vector result split by builtin.split -> the summed grads of its items (zeros where
        # an item got none), combined into the vector's grad when a definition first reads it
        self.vector_items: dict[Value, list] = {}
        self._contributed_now: list[tuple[Value, Value]] = []
        self._averaged: dict = {}

    # -- used by grad definitions -------------------------------------------------------------
    def grad(self, value: Value | None) -> Value | None:
        """The (summed) grad of forward value ``value``, or ``None`` when it has none. The grad
        of a ``Partial(AVG)`` result of the current forward op comes divided by the group size
        (:func:`spmd.average_factor`), made once."""
        if value is None:
            return None
        if value in self.vector_items and value not in self.summed:
            self.summed[value] = self._combine_items(value)
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

    def _required_entry(self, v: Value | None, whole: bool = True):
        """The dist attribute a grad op requires of operand ``v``: what the forward op read it
        with; for a forward result, what the forward op wrote it with, but whole where that was
        Partial (a grad op reads a result as a value, e.g. ``max_grad`` compares x with the max:
        a partial max would mark each rank's own maximum; as written when not ``whole``: a
        ``full_like`` reads only the shape); the dual for the grad of a forward result; else
        ``v``'s own."""
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
                    return spmd.dual_of_result(d.results[j]) if whole else d.results[j]
                if self.summed.get(r) is v or self._averaged.get((id(fwd), j)) is v:
                    return spmd.dual_of_result(d.results[j])
        return dist_attr_of_type(v.type)

    def create(self, name: str, operands, attributes: dict, result_types,
               mesh: ProcessMesh | None = None, whole: bool = True) -> Operation:
        """Create grad op ``name`` at the end of the program, linked to the current forward op.
        Its op dist attribute (when the forward op has one and every value is a dist tensor)
        lists what it requires of each operand (:meth:`_required_entry`) and its result types;
        its mesh is the forward op's unless ``mesh`` is given; ``whole``: see
        :meth:`_required_entry`."""
        fwd = self.forward_op
        # A grad op reads a forward vector as the list of its items (Paddle's vjp takes lists):
        # the builtin.combine that made it is made again, as Paddle's vjp does.
        operands = [self._fresh_combine(v) if _combined(v) and v.owner not in self.created
                    and name != "builtin.split" else v for v in operands]
        attributes = dict(attributes)
        attributes.setdefault("op_role", GRAD_ROLE)
        attributes.setdefault("stop_gradient", tuple(False for _ in result_types))
        dist = None
        # An op dist attribute describes dist values: ops crossing into or out of a local region
        # (dense on one side) get none, as Paddle builds them; builtin.combine/split get none.
        all_dist = all(isinstance(t, (DistTensorType, VectorType)) or t == NULL_TYPE
                       for t in [v.type for v in operands if v is not None] + list(result_types))
        if fwd is not None and fwd.dist_attr is not None and all_dist \
                and name not in VECTOR_OPS:
            mesh = mesh if mesh is not None else fwd.dist_attr.mesh
            if name == "dist_op.reshard" and operands and result_types:
                src, dst = operands[0].type, result_types[0]
                if isinstance(src, DistTensorType) and isinstance(dst, DistTensorType) \
                        and src.mesh != dst.mesh:
                    mesh = merge_meshes(src.mesh, dst.mesh)
            dist = OperationDistAttr(
                mesh,
                [self._required_entry(v, whole) for v in operands],
                [dist_attr_of_type(t) for t in result_types],
                -1,
            )
        op = Operation.create(name, list(operands), list(result_types), attributes, dist)
        self.program.block.append(op)
        self.created.append(op)
        if fwd is not None:
            self.grad_ops_of.setdefault(fwd, []).append(op)
        return op

    def contribute(self, value: Value | None, grad: Value | None) -> None:
        """Add ``grad`` to the grad of forward value ``value`` (ignored when either is null).
        The grad of a vector made by ``builtin.combine`` is split (``builtin.split``, made now)
        and each item added to the grad of the combine's operand, as Paddle's vjp does."""
        if value is None or grad is None:
            return
        if _combined(value) and isinstance(grad.type, VectorType):
            split = self.create("builtin.split", [grad], {}, list(grad.type.items))
            for item, g in zip(value.owner.operands, split.results):
                self._contributed_now.append((item, g))
            return
        self._contributed_now.append((value, grad))

    def _fresh_combine(self, vector: Value) -> Value:
        items = list(vector.owner.operands)
        return self.create("builtin.combine", items, {}, [VectorType([v.type for v in items])]
                           ).result

    def _combine_items(self, vector: Value) -> Value:
        """The grad of a vector result: ``builtin.combine`` of its items' grads."""
        items = self.vector_items[vector]
        return self.create("builtin.combine", items, {},
                           [VectorType([g.type for g in items])]).result

    def zeros_like(self, value: Value) -> Value:
        """A zero grad for ``value``: ``pd_op.full`` 0 and ``pd_op.full_like`` (Paddle's
        ``append_full_like``), for an item of a split vector that got no grad."""
        t = value.type
        dtype = getattr(t, "dtype", "float32")
        one = (DistTensorType((1,), dtype, TensorDistAttr(t.mesh, (-1,)))
               if isinstance(t, DistTensorType) else DenseTensorType((1,), dtype))
        full = self.create("pd_op.full", [], {
            "dtype": Symbol(dtype), "place": Place("cpu"), "shape": (1,),
            "stop_gradient": (True,), "value": 0.0}, [one])
        grad_type = t
        if isinstance(t, DistTensorType):
            grad_type = DistTensorType(t.shape, dtype, spmd.dual_of_result(t.dist))
        return self.create("pd_op.full_like", [value, full.result], {
            "dtype": Symbol(dtype), "place": Place("undefined:0")}, [grad_type],
            whole=False).result

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


VECTOR_OPS = ("builtin.combine", "builtin.split")
"""Ops Paddle's backward looks through: a vector's grad is its items' grads."""


def _combined(value: Value | None) -> bool:
    """Whether ``value`` is a vector made by ``builtin.combine``."""
    return value is not None and isinstance(value.type, VectorType) and \
        value.owner is not None and value.owner.name == "builtin.combine"


def _split_of(value: Value) -> Operation | None:
    """The ``builtin.split`` reading vector ``value``, if any (Paddle's ``get_split_op``)."""
    if not isinstance(value.type, VectorType):
        return None
    return next((op for op in value.users() if op.name == "builtin.split"), None)


def inverse_sort(ops: list[Operation]) -> list[Operation]:
    """``ops`` (a program's forward ops, in program order) consumers first: Kahn's algorithm from
    the ops whose results no op of ``ops`` reads, breadth first, an op once all its readers in
    ``ops`` came (Paddle 3.3.1 ``backward_utils.inverse_sort_op``, which orders grad ops: it
    differs from the reverse program order where branches join)."""
    members = set(ops)
    pending: dict[Operation, int] = dict.fromkeys(ops, 0)
    for op in ops:
        for v in op._operands:
            if v is not None and v.owner in members:
                pending[v.owner] += 1
    queue = deque(op for op in ops if pending[op] == 0)
    out = []
    while queue:
        op = queue.popleft()
        out.append(op)
        for v in op._operands:
            owner = v.owner if v is not None else None
            if owner in members:
                pending[owner] -= 1
                if pending[owner] == 0:
                    queue.append(owner)
    if len(out) != len(ops):
        raise RewriteError("append_backward: the forward program has a cycle")
    return out


IN_PLACE_NET_OPS = ("pd_op.array_write_", "pd_op.assign_out_")
"""Ops that make Paddle order the grad ops by the plain reverse program order
(``backward_utils.is_inplace_net``)."""


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

    index = {}
    for d in grad_defs:
        for name in (d.op_names or ("*",)):
            index.setdefault(name, []).append(d)

    emitter = GradEmitter(program, needs)
    # 3. the loss grad.
    if loss_op not in differentiated:
        raise RewriteError("append_backward: the loss does not depend on any trainable value")
    emitter.forward_op = loss_op
    loss_type = loss.type
    dtype = getattr(loss_type, "dtype", "float32")
    one_type = (DistTensorType((1,), dtype, TensorDistAttr(loss_type.mesh, (-1,)))
                if isinstance(loss_type, DistTensorType) else DenseTensorType((1,), dtype))
    full = Operation.create("pd_op.full", [], [one_type], {
        "dtype": Symbol(dtype), "op_role": GRAD_ROLE,
        "place": Place("cpu"), "shape": (1,), "stop_gradient": (True,), "value": 1.0})
    program.block.append(full)
    emitter.created.append(full)
    emitter.grad_ops_of.setdefault(loss_op, []).append(full)
    grad_type = loss_type
    if isinstance(loss_type, DistTensorType):  # the grad of a partial loss is replicated
        grad_type = DistTensorType(loss_type.shape, dtype, spmd.dual_of_result(loss_type.dist))
    loss_grad = emitter.create("pd_op.full_like", [loss, full.result],
                               {"dtype": Symbol(dtype), "place": Place("undefined:0")},
                               [grad_type], whole=False).result
    emitter.contributions[loss] = [loss_grad]

    # 4. the walk, consumers first (builtin.combine/split are looked through).
    path = [op for op in forward if op in reaches]
    if not any(op.name in IN_PLACE_NET_OPS for op in path):
        path = inverse_sort(path)
    else:
        path.reverse()
    grads: dict[Value, Value] = {}
    for op in path:
        if op.name in VECTOR_OPS:
            continue
        for r in op.results:
            split = _split_of(r)
            if split is not None:
                if _sum_items(emitter, r, split, grads):
                    continue
            g = emitter._sum(r, op)
            if g is not None:
                emitter.summed[r] = g
                grads[r] = g
        if op not in differentiated or not any(
                r in emitter.summed or r in emitter.vector_items for r in op.results):
            continue
        emitter.forward_op = op
        definition, bindings = _find_definition(index, op)
        definition.emit(emitter, op, bindings)
        emitter._commit()

    # 5. op ids: the forward ops that got grad ops, in program order (as the capture tool links
    # Paddle's grad ops to their forward op).
    numbered = [op for op in forward if emitter.grad_ops_of.get(op)]
    for i, op in enumerate(numbered):
        op.set_attr("op_id", i)
        for grad_op in emitter.grad_ops_of[op]:
            grad_op.set_attr("grad_of", i)
    return BackwardResult(loss, grads, emitter.created)


def _sum_items(emitter: GradEmitter, vector: Value, split: Operation, grads: dict) -> bool:
    """Sum the grads of each item of a vector result that ``split`` splits (Paddle's
    ``make_output_with_output_grad`` through ``get_split_op``): an add_n where an item got
    several, zeros where it got none while another got one. Records the items for ``grad()`` of
    the vector; False when no item got a grad."""
    emitter.forward_op = split
    if not any(emitter.contributions.get(r) for r in split.results):
        return False
    items = []
    for r in split.results:
        g = emitter._sum(r, split)
        if g is None:
            emitter.forward_op = split
            g = emitter.zeros_like(r)
        else:
            grads[r] = g
        emitter.summed[r] = g
        items.append(g)
    emitter.vector_items[vector] = items
    return True


def _find_definition(index: dict, op: Operation):
    for d in index.get(op.name, []) + index.get("*", []):
        bindings = d.match(op)
        if bindings is not None:
            return d, bindings
    raise RewriteError(f"append_backward: no grad definition matches {op.name} (operands: "
                       f"{op.num_operands}, results: {len(op.results)}); add a `grad` block for "
                       "it to rules/grad.rw")
