"""The key a pipeline stage's ``send_v2``/``recv_v2`` is matched by: both ends compute it alone.

A send or receive of the job ``(type, chunk c, micro-batch m)`` on stage ``s`` of ``pp`` stages is
keyed ``(direction, boundary, m, ring_id)``: direction from the op's op_role (0 forward, 1
backward), and boundary ``b`` the lower of the two virtual stages it links (virtual stage
``v = c * pp + s``, or the V order of ZBVPP and ZBV, ``schedules.virtual_stage``): a forward
send and a backward receive use ``b = v``; a forward receive and a backward send the virtual
stage at the other end, ``v - 1``, or, when the peer's stage is known, the nearest earlier
virtual stage on it (a value sent past the next stage: a pp3 layer's output read two stages on,
as a plan's pre-hook can leave it). Sender and receiver compute the same key, so an activation
and a gradient, or two micro-batches, can never be swapped; ops of another role are keyed
``("other", ring_id, m)``.
"""

from __future__ import annotations

from rulepass.engine.ir.core import Operation

from .schedules import Job, stage_of_virtual, virtual_stage

FORWARD, BACKWARD = 0, 1
SEND_OPS = frozenset({"pd_op.send_v2", "pd_op.p_send"})


def message_key(op: Operation, job: Job, stage: int, num_stages: int, v_shape: bool = False,
                peer_stage: int | None = None) -> tuple:
    """The key of a send/recv of ``job`` on ``stage``: ``(direction, boundary, micro_batch,
    ring_id)`` (see the module docstring); ``("other", ring_id, micro_batch)`` for an op whose
    op_role is neither forward nor backward. ``v_shape``: chunks in ZBVPP's V order.
    ``peer_stage``: the pipeline stage of the op's peer, when known: the far end of a forward
    receive or a backward send is then the nearest earlier virtual stage on it (the previous
    one unless a value skips stages); else the previous virtual stage."""
    ring_id = int(op.attr("ring_id", -1))
    virtual = virtual_stage(stage, job.chunk, num_stages, v_shape)
    sending = op.name in SEND_OPS
    if op.op_role == FORWARD:
        low = virtual if sending else _earlier(virtual, peer_stage, num_stages, v_shape)
        return ("forward", low, job.micro_batch, ring_id)
    if op.op_role == BACKWARD:
        low = _earlier(virtual, peer_stage, num_stages, v_shape) if sending else virtual
        return ("backward", low, job.micro_batch, ring_id)
    return ("other", ring_id, job.micro_batch)


def _earlier(virtual: int, peer_stage: int | None, num_stages: int, v_shape: bool) -> int:
    """The nearest virtual stage before ``virtual`` on ``peer_stage`` (``virtual - 1`` when the
    peer is unknown or holds none before it)."""
    if peer_stage is not None:
        for w in range(virtual - 1, -1, -1):
            if stage_of_virtual(w, num_stages, v_shape)[0] == peer_stage:
                return w
    return virtual - 1
