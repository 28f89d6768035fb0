"""One order of cross-stage collectives on every rank: the jobs of a global pipeline mesh.

A layer on the global pp mesh (``dist.parallelize``'s ``global_spec``, PR #69628) gives each stage
its copy of a value with a ``pd_op.broadcast`` over a group holding ranks of several pipeline
stages (``rules/global_reshard.rw``), and its gradient comes back the same way. Every rank of the
group must call those broadcasts in the same order, but a pipeline schedule runs a different job
list on each stage: under 1F1B the first stage runs forward 0 and forward 1 before backward 0 while
the last runs forward 0, backward 0, forward 1, so the broadcasts of forward 1 and backward 0 meet
in opposite orders (Paddle 3.3.1's own job lists do this: a deadlock on a real communicator).

The order is fixed where the program is split into jobs: each such collective of the forward
region, with the ops it needs, moves to a job ``global_forward`` that every stage runs for every
micro-batch, in order, before the schedule; each one of the backward region, with the ops that
need it, moves to ``global_backward``, run for every micro-batch after the schedule's last backward
job and before the optimizer. Both hold their ops in program order, which every rank's program
shares (they are pruned from one global program), so every rank calls the collectives in one
order: micro-batch by micro-batch, then program order.

Raises :class:`PipelineError` when the moved ops cannot run there: a forward collective needing a
value received from another stage, or a backward one whose result another stage waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rulepass.engine.errors import RuntimeFailure
from rulepass.engine.ir.core import Operation, Program
from .schedules import Job

#: Collectives (not point-to-point: those are matched by message key) as Paddle names them.
COLLECTIVES = frozenset({
    "pd_op.broadcast", "pd_op.broadcast_", "pd_op.c_broadcast", "pd_op.c_broadcast_",
    "pd_op.all_reduce", "pd_op.all_reduce_", "pd_op.all_gather", "pd_op.c_allgather",
    "pd_op.reduce_scatter", "pd_op.c_reducescatter", "pd_op.barrier",
    *(f"pd_op.c_allreduce_{op}{tail}" for op in ("sum", "max", "min", "prod", "avg")
      for tail in ("", "_")),
})
_P2P = frozenset({"pd_op.send_v2", "pd_op.p_send", "pd_op.recv_v2", "pd_op.p_recv"})


class GlobalJobError(RuntimeFailure):
    """Cross-stage collectives that cannot be given one order on every rank."""

    kind = "pipeline error"


def cross_stage(groups: Mapping[int, Sequence[int]], op: Operation,
                stage_of: Callable[[int], int]) -> bool:
    """Whether ``op`` is a collective whose process group (``groups``: ring id -> ranks) holds
    ranks of several stages."""
    if op.name not in COLLECTIVES:
        return False
    group = groups.get(int(op.attributes.get("ring_id", -1)), ())
    return len({stage_of(r) for r in group}) > 1


def stage_function(groups: Mapping[int, Sequence[int]], num_stages: int,
                   rank: int) -> Callable[[int], int]:
    """``rank -> pipeline stage`` for Paddle's meshes, whose first dimension is pp: ``rank //
    (world // pp)``, the world being every rank the process groups (and ``rank``) name."""
    world = 1 + max([rank, *(r for g in groups.values() for r in g)])
    per_stage = max(1, world // max(1, num_stages))
    return lambda r: int(r) // per_stage


def _kind(job_type: str) -> str:
    """The job type without its chunk number, the split backward halves (zero bubble:
    ``backward_b``, ``backward_w``) counted as ``backward``."""
    kind = job_type.rstrip("0123456789")
    return "backward" if kind in ("backward_b", "backward_w") else kind


def order_global_collectives(program: Program, job_ops: Mapping[str, list[int]],
                             jobs: Sequence[Job], micro_batches: int,
                             stage_of: Callable[[int], int],
                             groups: Mapping[int, Sequence[int]] | None = None) -> tuple[dict, list]:
    """``(job_ops, jobs)`` with the cross-stage collectives in ``global_forward`` and
    ``global_backward`` jobs (see the module doc); unchanged when there are none.

    ``job_ops``: job type -> top-level op positions (:func:`~rulepass.runtime.pipeline.split_jobs`);
    ``jobs``: the stage's job list; ``stage_of(rank)``: a rank's pipeline stage; ``groups``: ring
    id -> ranks (default: the program's own table).
    Raises GlobalJobError (see the module doc).
    """
    groups = program.process_groups if groups is None else groups
    ops = list(program.block)
    type_of = {i: t for t, positions in job_ops.items() for i in positions}
    index = {id(op): i for i, op in enumerate(ops)}
    forward, backward = set(), set()
    for i, op in enumerate(ops):
        if not cross_stage(groups, op, stage_of):
            continue
        kind = _kind(type_of.get(i, ""))
        if kind == "forward":
            forward.add(i)
        elif kind == "backward":
            backward.add(i)
    if not forward and not backward:
        return dict(job_ops), list(jobs)

    # forward: the collectives and, upstream, what they need from the forward region (origin:
    # the collective each op is moved for, named in an error)
    origin = {i: i for i in forward | backward}
    stack = list(forward)
    while stack:
        i = stack.pop()
        for v in ops[i].operands:
            owner = getattr(v, "owner", None) if v is not None else None
            j = index.get(id(owner)) if owner is not None else None
            if j is None or j in forward or _kind(type_of.get(j, "")) not in ("forward",
                                                                              "recv_forward"):
                continue
            if ops[j].name in _P2P:
                c = origin[i]
                raise GlobalJobError(
                    f"{ops[c].name} (op {c}) is a collective over several pipeline stages that "
                    f"needs a value received from another stage ({ops[j].name}, op {j}); it "
                    "cannot run before the schedule on every rank (a global layer computed "
                    "from an activation of a later stage than the first)")
            forward.add(j)
            origin[j] = origin[i]
            stack.append(j)
    # backward: the collectives and, downstream, what reads them in the backward region
    stack = list(backward)
    while stack:
        i = stack.pop()
        for r in ops[i].results:
            for user in r.users():
                j = index.get(id(user))
                if j is None or j in backward or _kind(type_of.get(j, "")) not in (
                        "backward", "send_backward"):
                    continue
                if ops[j].name in _P2P:
                    c = origin[i]
                    raise GlobalJobError(
                        f"{ops[c].name} (op {c}) is a collective over several pipeline stages "
                        f"whose result another stage waits for ({ops[j].name}, op {j}); it "
                        "cannot wait for the end of the schedule")
                backward.add(j)
                origin[j] = origin[i]
                stack.append(j)

    moved = forward | backward
    out = {t: [i for i in positions if i not in moved] for t, positions in job_ops.items()}
    if forward:
        out["global_forward"] = sorted(forward)
    if backward:
        out["global_backward"] = sorted(backward)
    order = [Job("global_forward", m) for m in range(micro_batches)] if forward else []
    tail = [Job("global_backward", m) for m in range(micro_batches)] if backward else []
    placed = False
    for job in jobs:
        if tail and not placed and job.kind == "optimizer":
            order.extend(tail)
            placed = True
        order.append(job)
    if tail and not placed:
        order.extend(tail)
    return out, order


__all__ = ["COLLECTIVES", "GlobalJobError", "cross_stage", "stage_function",
           "order_global_collectives"]
