"""Communication ops of a dense Paddle program -> calls on the rank's Communicator.

A handler is ``fn(run, op, inputs) -> results`` like the executor's other handlers; ``run`` gives
``attr(op, key, default)``, ``group(op)`` (the ring's global ranks, in group order), ``comm(op)``,
``p2p_key(op)``, ``fail(op, message)`` and ``xp``.

Paddle 3.3.1 semantics: ``reduce_type`` is phi's ``ReduceType`` (``paddle/phi/common/reduce_type.h``:
kRedSum, kRedMax, kRedMin, kRedProd, kRedAvg = 0..4); ``c_allreduce_<op>`` names the reduction;
``reduce_scatter``/``c_reducescatter`` sum. ``peer`` (``send_v2``/``recv_v2``, ``p_send``/``p_recv``)
and ``root`` (``broadcast``) are ranks inside the ring's group, so the global rank is
``group[peer]``. ``recv_v2`` takes its shape and dtype from its result type (its ``out_shape`` and
``dtype`` attributes say the same in Paddle's programs). ``barrier`` passes its operand through.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from rulepass.engine.ir.core import Operation
from rulepass.engine.ir.types import DenseTensorType
from rulepass.runtime.kernels.operands import dtype_from_name

__all__ = ["REDUCE_TYPES", "COMMUNICATION_OPS", "default_p2p_key"]

REDUCE_TYPES: dict[int, str] = {0: "sum", 1: "max", 2: "min", 3: "prod", 4: "avg"}
"""phi ``ReduceType`` value (the ``reduce_type`` attribute) -> Communicator reduce op."""


def _reduce_op(run, op, name_suffix: str | None = None) -> str:
    if name_suffix is not None:
        return name_suffix
    reduce_type = int(run.attr(op, "reduce_type", 0))
    if reduce_type not in REDUCE_TYPES:
        raise run.fail(op, f"reduce_type {reduce_type} is not one of phi's ReduceType values "
                           f"{sorted(REDUCE_TYPES)} (0 SUM, 1 MAX, 2 MIN, 3 PROD, 4 AVG)")
    return REDUCE_TYPES[reduce_type]


def _all_reduce(suffix: str | None = None):
    def handler(run, op, inputs):
        return [run.comm(op).all_reduce(inputs[0], run.group(op), _reduce_op(run, op, suffix))]
    return handler


def _all_gather(run, op, inputs):
    return [run.comm(op).all_gather(inputs[0], run.group(op))]


def _reduce_scatter(run, op, inputs):
    return [run.comm(op).reduce_scatter(inputs[0], run.group(op), _reduce_op(run, op, "sum"))]


def _broadcast(run, op, inputs):
    group = run.group(op)
    root = int(run.attr(op, "root", 0))
    if not 0 <= root < len(group):
        raise run.fail(op, f"broadcast root {root} is not a rank of group {group}")
    return [run.comm(op).broadcast(inputs[0], group, group[root])]


def _peer(run, op) -> int:
    group = run.group(op)
    peer = int(run.attr(op, "peer"))
    if not 0 <= peer < len(group):
        raise run.fail(op, f"peer {peer} is not a rank of group {group} (ring_id "
                           f"{run.attr(op, 'ring_id')}); peer is the rank inside the group")
    return group[peer]


def _send(run, op, inputs):
    run.comm(op).send(inputs[0], _peer(run, op), run.p2p_key(op))
    return []


def _recv(run, op, inputs):
    t = op.results[0].type
    if not isinstance(t, DenseTensorType) or any(d < 0 for d in t.shape):
        raise run.fail(op, f"recv needs a static dense result type, got {t}")
    dtype = dtype_from_name(run.xp, t.dtype, op.name)
    return [run.comm(op).recv(_peer(run, op), run.p2p_key(op), t.shape, dtype)]


def _barrier(run, op, inputs):
    run.comm(op).barrier(run.group(op))
    return [inputs[0] if inputs else None for _ in op.results]


COMMUNICATION_OPS: dict[str, Callable] = {
    "pd_op.all_reduce": _all_reduce(),
    "pd_op.all_reduce_": _all_reduce(),
    **{f"pd_op.c_allreduce_{op}{tail}": _all_reduce(op) for op in ("sum", "max", "min", "prod", "avg")
       for tail in ("", "_")},
    "pd_op.all_gather": _all_gather,
    "pd_op.c_allgather": _all_gather,
    "pd_op.reduce_scatter": _reduce_scatter,
    "pd_op.c_reducescatter": _reduce_scatter,
    "pd_op.broadcast": _broadcast,
    "pd_op.broadcast_": _broadcast,
    "pd_op.c_broadcast": _broadcast,
    "pd_op.c_broadcast_": _broadcast,
    "pd_op.send_v2": _send,
    "pd_op.p_send": _send,
    "pd_op.recv_v2": _recv,
    "pd_op.p_recv": _recv,
    "pd_op.barrier": _barrier,
}
"""Communication ops -> handlers calling the rank's Communicator."""


def default_p2p_key(op: Operation) -> Hashable:
    """``(direction, ring_id)``: direction ``"forward"`` (op_role 0), ``"backward"`` (1) or
    ``"other"``. Messages with equal keys between two ranks are matched in send order."""
    direction = {0: "forward", 1: "backward"}.get(op.op_role, "other")
    return (direction, int(op.attr("ring_id", -1)))
