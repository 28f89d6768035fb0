"""The key a pipeline stage's ``send_v2``/``recv_v2`` is matched by: both ends compute it alone.

A stage runner (``pipeline.StageRunner``) keys a send or receive of micro-batch ``m``
``(direction, m, ring_id, n)``: direction from the op's op_role (0 forward, 1 backward), and
``n`` the op's ordinal among its rank program's sends to the same peer over the same ring (or
receives from it), in program order (:func:`p2p_ordinals`). Every rank's program is cut from
one global program in which each cross-stage reshard became a send on one side and a receive
on the other at the same place, so the n-th send of one side is the n-th receive of the other,
whatever the schedule runs first and however far apart the two stages are (a value read two
stages on, or by a later chunk under VPP, Paddle's default layer layout with a residual).

Without ordinals (``pipeline.PlanRunner``, which runs Paddle's job programs apart) the key is
``(direction, boundary, m, ring_id)``: boundary ``b`` the lower of the two virtual stages the
message links, assuming adjacent ones (virtual stage ``v = c * pp + s``, or the V order of
ZBVPP and ZBV, ``schedules.virtual_stage``): a forward send and a backward receive use
``b = v``, a forward receive and a backward send ``b = v - 1``. Ops of another role take
``"other"`` as their direction (without ordinals: ``("other", ring_id, m)``).
"""

from __future__ import annotations

from rulepass.engine.ir.core import Operation

from .schedules import Job, virtual_stage

FORWARD, BACKWARD = 0, 1
SEND_OPS = frozenset({"pd_op.send_v2", "pd_op.p_send"})
RECV_OPS = frozenset({"pd_op.recv_v2", "pd_op.p_recv"})


def message_key(op: Operation, job: Job, stage: int, num_stages: int, v_shape: bool = False,
                ordinal: int | None = None) -> tuple:
    """The key of a send/recv of ``job`` on ``stage`` (see the module docstring): with
    ``ordinal`` (:func:`p2p_ordinals`), ``(direction, micro_batch, ring_id, ordinal)``; else
    ``(direction, boundary, micro_batch, ring_id)``; ``("other", ring_id, micro_batch[,
    ordinal])`` for an op whose op_role is neither forward nor backward. ``v_shape``: chunks in
    ZBVPP's V order."""
    ring_id = int(op.attr("ring_id", -1))
    role = op.op_role
    if ordinal is not None:
        direction = "forward" if role == FORWARD else "backward" if role == BACKWARD else "other"
        return (direction, job.micro_batch, ring_id, ordinal)
    virtual = virtual_stage(stage, job.chunk, num_stages, v_shape)
    sending = op.name in SEND_OPS
    if role == FORWARD:
        return ("forward", virtual if sending else virtual - 1, job.micro_batch, ring_id)
    if role == BACKWARD:
        return ("backward", virtual - 1 if sending else virtual, job.micro_batch, ring_id)
    return ("other", ring_id, job.micro_batch)


def p2p_ordinals(ops) -> dict[int, int]:
    """``id(op)`` -> the ordinal of each send (receive) among the sends to (receives from) the
    same peer over the same ring in ``ops``, in order."""
    counts: dict = {}
    out: dict[int, int] = {}
    for op in ops:
        sending = op.name in SEND_OPS
        if not sending and op.name not in RECV_OPS:
            continue
        key = (sending, int(op.attr("ring_id", -1)), int(op.attr("peer", -1)))
        out[id(op)] = n = counts.get(key, 0)
        counts[key] = n + 1
    return out
