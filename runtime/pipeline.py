"""Pipeline execution: split a stage's dense program into jobs as Paddle does, run the schedule's job
list over micro-batches, and train a whole world of ranks on threads.

**Splitting** (:func:`split_jobs`) reimplements, read and not copied, Paddle 3.3.1's
``python/paddle/distributed/passes/pass_utils.py`` (``_split_program_into_forward_backward_optimize``,
``forward_complete_op_role``, ``infer_chunk_id``) and ``pipeline_scheduler_pass/pipeline_1f1b.py``
(``_partial_pir_programs``) and ``pipeline_vpp.py`` (``_split_program_for_vpp``). Each top-level op
goes to exactly one job type; Paddle clones the program per type and erases the ops of other types,
passing values between types through named variables, while here the ops stay in the one program and
values crossing jobs stay in the micro-batch's environment.

- ``FThenB`` and ``Eager1F1B``: ``forward``, ``backward``, ``optimizer``. Ops are scanned from the
  last; an op's op_role 0/1/2 sets the region (forward/backward/optimizer), any other role
  (-1 unset, 16 LR schedule, 256 loss, ...) keeps the region of the op after it. (Paddle 3.3.1 gives
  Eager1F1B no PIR split of its own; the FThenB split is the one its job list fits.)
- ``1F1B``: op roles are first completed (an unset role takes the role of its neighbours,
  ``forward_complete_op_role``), then the same scan, except that ``recv_v2`` in the forward region
  goes to ``recv_forward`` and ``send_v2`` in the backward region to ``send_backward``.
- ``ZBH1``: the 1F1B regions, without separate recv/send jobs, the backward region cut into
  ``backward_b`` (input grads) and ``backward_w`` (weight grads, :mod:`.backward_split`); a
  ``backward`` job runs both, in program order.
- ``ZBVPP`` and ``ZBV``: the VPP split, likewise cut into ``forward{c}``, ``backward_b{c}``,
  ``backward_w{c}`` and ``optimizer`` (Paddle's ``_split_program_for_vpp`` with ``split_bw``).
- ``VPP``: per model chunk: ``recv_forward{c}``, ``forward{c}``, ``backward{c}``,
  ``send_backward{c}``, and ``optimizer``. The chunk is the op's ``chunk_id`` attribute; an op
  outside the optimizer with chunk -1 takes its neighbours' (``infer_chunk_id``). An op_role other
  than 0/1/2 is an error, as in Paddle.

**Running** (:class:`StageRunner`): the job list comes from
:func:`rulepass.runtime.schedules.job_list`. Each micro-batch has its own
:class:`~rulepass.runtime.environment.Environment`, counting the reads of the ops of every job that
micro-batch runs, so a value is freed after its last read in that micro-batch. ``optimizer:0`` runs
in micro-batch 0's environment, as Paddle runs it in micro-batch 0's scope. Feeds are given per
micro-batch; the gradient-merge ops already in Paddle's programs (``add_`` into
``<param>@GRAD@MERGE`` buffers in the backward, then ``scale_`` by 1/micro-batches, the optimizer, and
``set_value_with_tensor_`` back to zero in the optimizer job) do the accumulation, so the runner adds
none of its own.

**Messages**: a ``send_v2``/``recv_v2`` is matched by the key both ends compute
(``messages.message_key``: direction, micro-batch, ring and the op's ordinal among its rank's
sends to, or receives from, that peer on that ring), so an activation and a gradient, or two
micro-batches, can never be swapped, however far apart the two stages are.

**Paddle's own plan** (:class:`PlanRunner`): the job programs Paddle's pass builds
(``job_<type>.pir``) can be run instead of the split, each job in a fresh environment, values
between jobs passed by name through a per-micro-batch local scope, as Paddle's executor does.

**Ranks and transports**: :func:`run_rank` trains one rank given any Communicator (threads, MPI,
NCCL); :func:`train` runs every rank on threads of this process. A rank's pipeline stage is the
caller's to give (``RankProgram.stage``): its coordinate along the mesh's pp dimension, which is
``rank // (world_size // pp)`` when pp is the first dimension (Paddle's hand-built meshes) but
not for a ``dist.parallelize`` mesh such as ``["dp", "pp"]``.

**Losses**: the step loss is the mean of every ``loss_0`` output of every rank and micro-batch:
micro-batches are equal slices of the batch and data-parallel ranks equal shards, so this is the
loss of the whole batch, which is what Paddle reports; ranks that hold the same loss (model-parallel
replicas after their all_reduce) do not change the mean.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

import attrs

from rulepass.engine.errors import RuntimeFailure
from rulepass.engine.ir.core import Operation, Program
from rulepass.runtime.comm.collectives import Communicator
from rulepass.runtime.comm.local import run_ranks
from .executor import Executor
from .backward_split import split_backward_halves
from .global_jobs import CollectiveSite, collective_sites, order_global_collectives, stage_function
from .messages import BACKWARD, FORWARD, RECV_OPS, SEND_OPS, message_key, p2p_ordinals
from .schedules import Job, job_list, uses_v_shape
from .trace import TraceEvent

__all__ = [
    "PipelineError",
    "split_jobs",
    "complete_op_roles",
    "rank_sites",
    "message_key",
    "StageRunner",
    "PlanRunner",
    "StepResult",
    "RankProgram",
    "RankResult",
    "TrainResult",
    "run_rank",
    "mean_losses",
    "train",
]

OPTIMIZE = 2


class PipelineError(RuntimeFailure):
    """A program that cannot be split into the schedule's jobs, or a job list / feed that does not
    fit it (found before anything runs)."""


# -- splitting --------------------------------------------------------------------------------


def complete_op_roles(ops: Sequence[Operation]) -> list[int]:
    """Each op's op_role with unset ones (-1) filled from their neighbours, as Paddle's
    ``forward_complete_op_role`` does: a run of unset ops takes the role of the op after it, which
    must equal the role of the op before it when both are set. Raises PipelineError when the two
    differ or no op has a role."""
    roles = [op.op_role for op in ops]
    if roles and all(r == -1 for r in roles):
        raise PipelineError("no op of the program has an op_role; cannot split it into jobs")
    out = list(roles)
    i = 0
    left = -1
    while i < len(out):
        if out[i] != -1:
            left = out[i]
            i += 1
            continue
        j = i
        while j < len(out) and out[j] == -1:
            j += 1
        fill = left if j == len(out) else out[j]
        if j < len(out) and left not in (-1, fill):
            raise PipelineError(
                f"ops {i}..{j - 1} ({ops[i].name} ...) have no op_role and sit between an op of role "
                f"{left} and one of role {fill}; give them an op_role")
        out[i:j] = [fill] * (j - i)
        i = j
    return out


def _regions(ops: Sequence[Operation], roles: Sequence[int]) -> list[str]:
    region = "optimizer"
    out = [""] * len(ops)
    for i in range(len(ops) - 1, -1, -1):
        region = {FORWARD: "forward", BACKWARD: "backward", OPTIMIZE: "optimizer"}.get(roles[i], region)
        out[i] = region
    return out


def _split_three(ops: Sequence[Operation]) -> list[str]:
    return _regions(ops, [op.op_role for op in ops])


def _split_1f1b(ops: Sequence[Operation]) -> list[str]:
    types = _regions(ops, complete_op_roles(ops))
    for i, op in enumerate(ops):
        if types[i] == "forward" and op.name in RECV_OPS:
            types[i] = "recv_forward"
        elif types[i] == "backward" and op.name in SEND_OPS:
            types[i] = "send_backward"
    return types


def _chunk_attr(op: Operation) -> int:
    chunk = op.attr("chunk_id", -1)
    return chunk if isinstance(chunk, int) else -1


def _infer_chunk(ops: Sequence[Operation], i: int) -> int:
    """Paddle's ``infer_chunk_id(with_dist=False)``: the chunk both neighbours agree on, else the
    chunk of the next two ops, else (combine/split) the chunk of a user of the result."""
    def chunk_at(k: int) -> int:
        return _chunk_attr(ops[k]) if 0 <= k < len(ops) else -1

    if chunk_at(i - 1) == chunk_at(i + 1):
        return chunk_at(i - 1)
    if chunk_at(i + 1) == chunk_at(i + 2):
        return chunk_at(i + 1)
    if ops[i].name in ("builtin.combine", "builtin.split") and ops[i].results:
        for user in ops[i].results[0].users():
            if _chunk_attr(user) != -1:
                return _chunk_attr(user)
    return -1


def _split_vpp(ops: Sequence[Operation]) -> list[str]:
    types = [""] * len(ops)
    for i in range(len(ops) - 1, -1, -1):  # from the last op, as Paddle scans (errors alike)
        op = ops[i]
        role = op.op_role
        if role == OPTIMIZE:
            types[i] = "optimizer"
            continue
        chunk = _chunk_attr(op)
        if chunk == -1:
            chunk = _infer_chunk(ops, i)
            if chunk == -1:
                raise PipelineError(f"cannot infer the chunk_id of op {i} ({op.name}); set chunk_id")
        if role == BACKWARD:
            kind = "send_backward" if op.name in SEND_OPS else "backward"
        elif role == FORWARD:
            kind = "recv_forward" if op.name in RECV_OPS else "forward"
        else:
            raise PipelineError(f"op {i} ({op.name}) has op_role {role}; VPP splits only forward (0), "
                                "backward (1) and optimizer (2) ops")
        types[i] = f"{kind}{chunk}"
    return types


def _split_zbh1(ops: Sequence[Operation]) -> list[str]:
    return split_backward_halves(ops, _regions(ops, complete_op_roles(ops)))


def _split_zbvpp(ops: Sequence[Operation]) -> list[str]:
    # with split_bw Paddle keeps recv_v2 in the forward and puts send_v2 (no results) in B
    types = [t.replace("recv_forward", "forward").replace("send_backward", "backward")
             for t in _split_vpp(ops)]
    return split_backward_halves(ops, types)


_SPLITTERS: dict[str, Callable[[Sequence[Operation]], list[str]]] = {
    "fthenb": _split_three,
    "eager1f1b": _split_three,
    "1f1b": _split_1f1b,
    "vpp": _split_vpp,
    "zbh1": _split_zbh1,
    "zbvpp": _split_zbvpp,
    "zbv": _split_zbvpp,
}


def split_jobs(program: Program, schedule: str) -> dict[str, list[int]]:
    """Job type -> positions of the top-level ops of ``program`` that job runs, in program order.

    ``schedule``: ``FThenB``, ``1F1B``, ``Eager1F1B``, ``VPP``, ``ZBH1``, ``ZBVPP`` or ``ZBV``
    (case-insensitive). Every op lands in exactly one type, except that under ZBH1 the type
    ``backward`` also lists the ops of ``backward_b`` and ``backward_w`` together (the job that runs
    a whole backward). Raises PipelineError for an unknown schedule or an op that cannot be placed.
    """
    splitter = _SPLITTERS.get(schedule.lower())
    if splitter is None:
        raise PipelineError(f"unknown schedule {schedule!r}; expected FThenB, 1F1B, Eager1F1B, VPP, "
                            "ZBH1, ZBVPP or ZBV")
    ops = list(program.block)
    jobs: dict[str, list[int]] = {}
    for i, job_type in enumerate(splitter(ops)):
        jobs.setdefault(job_type, []).append(i)
    if splitter is _split_zbh1:
        jobs["backward"] = sorted(jobs.get("backward_b", []) + jobs.get("backward_w", []))
    return jobs


def rank_sites(program: Program, schedule: str, stage_of: Callable[[int], int],
               process_groups: Mapping[int, Sequence[int]] | None = None) -> list[CollectiveSite]:
    """The cross-stage collectives of one rank's ``program`` split for ``schedule``
    (:func:`~rulepass.runtime.global_jobs.collective_sites`): what :class:`StageRunner`'s
    ``sites`` holds for every rank. ``process_groups`` fills the rings the program's own table
    lacks, as the executor does. Raises PipelineError as :func:`split_jobs`."""
    groups = {**(process_groups or {}), **program.process_groups}
    return collective_sites(program, split_jobs(program, schedule), stage_of, groups)


# -- running one stage ------------------------------------------------------------------------


@attrs.define
class StepResult:
    """One step of one stage: ``outputs[m]`` the shadow_output/fetch values of micro-batch m,
    ``events`` one TraceEvent per job, ``peak_live_values`` the largest micro-batch environment."""

    outputs: list[dict[str, Any]]
    events: list[TraceEvent]
    peak_live_values: int = 0


class StageRunner:
    """Runs one pipeline stage's dense program under a schedule.

    Args:
        executor: the rank's Executor (its program is the stage's dense program).
        schedule: FThenB, 1F1B, Eager1F1B, VPP, ZBH1, ZBVPP or ZBV.
        stage, num_stages: this rank's pipeline stage and the pipeline degree.
        micro_batches: micro-batches per step. vpp: model chunks per stage (VPP only).
        origin: ``time.perf_counter()`` value that trace timestamps count from (share it across
            ranks so their timelines line up).
        trace_ops: also record a trace event per op (inside its job's event).
        stage_of: ``global rank -> its pipeline stage`` for the ranks of the program's
            collectives (default: ``global_jobs.stage_function``, pp the mesh's first
            dimension); give it when the pp dimension is not first (a ``["dp", "pp"]`` mesh).
        sites: every rank's cross-stage collectives (:func:`rank_sites`, rank -> list), so that
            all ranks call them in one order (``global_jobs``); default: this rank's alone,
            enough unless one must run inside the schedule where another rank computes it.

    Raises:
        PipelineError: the split has ops in a job type the job list never runs (they would be
            skipped silently), or the schedule is impossible (from ``schedules.job_list``).
    """

    def __init__(self, executor: Executor, schedule: str, *, stage: int = 0, num_stages: int = 1,
                 micro_batches: int = 1, vpp: int = 1, origin: float | None = None,
                 trace_ops: bool = False, stage_of: Callable[[int], int] | None = None,
                 sites: Mapping[int, Sequence[CollectiveSite]] | None = None):
        self.executor = executor
        self.trace_ops = trace_ops
        self.stage = stage
        self.num_stages = num_stages
        self.micro_batches = micro_batches
        self.origin = time.perf_counter() if origin is None else origin
        self.job_ops = split_jobs(executor.program, schedule)
        try:
            self.jobs = job_list(schedule, num_stages, stage, micro_batches, vpp)
        except ValueError as error:
            raise PipelineError(str(error)) from error
        # collectives over several stages: one order on every rank (runtime/global_jobs.py)
        stage_of = stage_of or stage_function(executor.process_groups, num_stages, executor.rank)
        # each send/recv matched by its ordinal on its ring (runtime/messages.py)
        self.ordinals = p2p_ordinals(executor.program.walk())
        self.job_ops, self.jobs = order_global_collectives(
            executor.program, self.job_ops, self.jobs, micro_batches, stage_of,
            executor.process_groups, rank=executor.rank, sites=sites,
            stage_lists=[self.jobs if s == stage else job_list(schedule, num_stages, s,
                                                                  micro_batches, vpp)
                         for s in range(num_stages)],
            vpp=vpp, v_shape=uses_v_shape(schedule))
        scheduled = {job.type for job in self.jobs}
        # ZBH1: a whole backward runs both halves; "backward" lists the ops of both
        if "backward" in scheduled:
            scheduled |= {"backward_b", "backward_w"}
        if {"backward_b", "backward_w"} <= scheduled:
            scheduled.add("backward")
        skipped = {t: ops for t, ops in self.job_ops.items() if ops and t not in scheduled}
        if skipped:
            t, ops = next(iter(skipped.items()))
            raise PipelineError(
                f"stage {stage}: the {schedule} job list never runs job type {t!r}, which holds "
                f"{len(ops)} ops (first: {executor.ops[ops[0]].name}); check the ops' op_role and "
                "chunk_id")
        self._indices = {
            m: [i for job in self.jobs if job.micro_batch == m for i in self.job_ops.get(job.type, [])]
            for m in range(micro_batches)
        }
        self.v_shape = uses_v_shape(schedule)

    def step(self, feeds: Sequence[Mapping[str, Any]], scope: MutableMapping[str, Any]) -> StepResult:
        """Run the job list once. ``feeds[m]``: the inputs of micro-batch m (data name -> array of
        the micro-batch's shape). ``scope``: the rank's persistent variables, updated in place.
        Raises PipelineError when the feed count differs from the micro-batch count."""
        if len(feeds) != self.micro_batches:
            raise PipelineError(f"got feeds for {len(feeds)} micro-batches, the schedule runs "
                                f"{self.micro_batches}")
        executor = self.executor
        envs = {}
        outputs: list[dict[str, Any]] = [{} for _ in range(self.micro_batches)]
        events = []
        for job in self.jobs:
            m = job.micro_batch
            if m not in envs:
                envs[m] = executor.environment(self._indices[m])
            indices = self.job_ops.get(job.type, [])
            start = time.perf_counter()
            executor.run_ops(
                indices, envs[m], feeds=feeds[m], scope=scope, outputs=outputs[m],
                p2p_key=lambda op, job=job: message_key(op, job, self.stage, self.num_stages,
                                                        self.v_shape, self.ordinals[id(op)]),
                op_events=events if self.trace_ops else None, origin=self.origin)
            end = time.perf_counter()
            events.append(TraceEvent(
                name=str(job), rank=executor.rank, start=max(0.0, (start - self.origin) * 1e6),
                duration=(end - start) * 1e6, category=job.kind, args={"ops": len(indices)}))
        peak = max((env.peak_live_values for env in envs.values()), default=0)
        return StepResult(outputs, events, peak)


class PlanRunner:
    """Runs Paddle's own plan: one program per job type (``plan.ir_program(type)``, captured as
    ``job_<type>.pir``) and a job list, the way Paddle's ``StandaloneExecutor`` does.

    Each micro-batch has a local scope (name -> array): ``pd_op.data`` and ``shadow_output`` write
    it and the kwargs through which Paddle's job programs pass values (``%kwarg_var_8_pd_op.recv_v2_0``,
    ``%kwarg_loss_0``, ``%kwarg_label0``) read it; parameters and gradient-merge buffers are read from
    the rank's scope. Each job runs in a fresh environment. This proves the executor on Paddle's
    split, independently of :func:`split_jobs`.

    Args:
        executors: job type -> Executor of that job's program.
        jobs: the job list. stage, num_stages, micro_batches, origin: as for StageRunner.

    Raises:
        PipelineError: a job of the list has no program.
    """

    def __init__(self, executors: Mapping[str, Executor], jobs: Sequence[Job], *, stage: int = 0,
                 num_stages: int = 1, micro_batches: int = 1, origin: float | None = None):
        missing = sorted({job.type for job in jobs} - set(executors))
        if missing:
            raise PipelineError(f"no job program for job types {missing}")
        self.executors = dict(executors)
        self.jobs = list(jobs)
        self.stage = stage
        self.num_stages = num_stages
        self.micro_batches = micro_batches
        self.origin = time.perf_counter() if origin is None else origin

    def step(self, feeds: Sequence[Mapping[str, Any]], scope: MutableMapping[str, Any]) -> StepResult:
        """Run the job list once; see :meth:`StageRunner.step`."""
        if len(feeds) != self.micro_batches:
            raise PipelineError(f"got feeds for {len(feeds)} micro-batches, the plan runs "
                                f"{self.micro_batches}")
        local_scopes: list[dict[str, Any]] = [{} for _ in range(self.micro_batches)]
        outputs: list[dict[str, Any]] = [{} for _ in range(self.micro_batches)]
        events, peak = [], 0
        for job in self.jobs:
            m = job.micro_batch
            executor = self.executors[job.type]
            env = executor.environment()
            start = time.perf_counter()
            executor.run_ops(
                range(len(executor.ops)), env, feeds=feeds[m], scope=scope,
                local_scope=local_scopes[m], outputs=outputs[m],
                p2p_key=lambda op, job=job: message_key(op, job, self.stage, self.num_stages))
            end = time.perf_counter()
            peak = max(peak, env.peak_live_values)
            events.append(TraceEvent(
                name=str(job), rank=executor.rank, start=max(0.0, (start - self.origin) * 1e6),
                duration=(end - start) * 1e6, category=job.kind, args={"ops": len(executor.ops)}))
        return StepResult(outputs, events, peak)


# -- training a world -------------------------------------------------------------------------


@attrs.define
class RankProgram:
    """What one rank runs: its dense ``program``, its persistent ``scope`` (parameters by name;
    updated in place by training), ``feeds(step, micro_batch) -> {data name: array}``, and its
    pipeline ``stage``. ``job_programs`` (job type -> program, Paddle's plan): when given, the rank
    runs these with :class:`PlanRunner` instead of splitting ``program``. ``process_groups``
    (ring_id -> global ranks): this rank's own ring table, over the one :func:`train` is given;
    Paddle numbers its rings per process, so one ring id may name different groups on different
    ranks (the ``process_groups.json`` of each rank of a capture)."""

    program: Program | None
    scope: dict
    feeds: Callable[[int, int], Mapping[str, Any]]
    stage: int = 0
    job_programs: Mapping[str, Program] | None = None
    process_groups: Mapping[int, Sequence[int]] | None = None


@attrs.define
class TrainResult:
    """``losses[step]``: the mean of every ``loss_name`` output of the step (all ranks, all
    micro-batches), or None when no rank produced one; ``outputs[rank][step][micro_batch]``: each
    rank's outputs; ``events``: trace events of all ranks; ``comm_stats[rank]``: the
    Communicator's byte counters; ``peak_live_values[rank]``."""

    losses: list[float | None]
    outputs: list[list[list[dict[str, Any]]]]
    events: list[TraceEvent]
    comm_stats: list[dict]
    peak_live_values: list[int]


@attrs.define
class RankResult:
    """One rank's training: ``outputs[step][micro_batch]`` its outputs, ``events`` its trace
    events, ``comm_stats`` its Communicator's counters, ``peak_live_values`` its largest
    environment."""

    outputs: list[list[dict[str, Any]]]
    events: list[TraceEvent]
    comm_stats: dict
    peak_live_values: int


def run_rank(rank: RankProgram, comm: Communicator, *, steps: int, schedule: str | None = None,
             num_stages: int = 1, micro_batches: int = 1, vpp: int = 1,
             process_groups: Mapping[int, Sequence[int]] | None = None, xp: Any = None,
             origin: float | None = None, trace_ops: bool = False,
             observer: Callable[[Operation, tuple], None] | None = None,
             stages: Sequence[int] | None = None, random_source: Any = None,
             sites: Mapping[int, Sequence[CollectiveSite]] | None = None) -> RankResult:
    """Train ``steps`` steps of one rank with communicator ``comm`` (any transport: the threads of
    :func:`train`, an MPI process, an NCCL process with ``xp`` CuPy).

    ``schedule`` None runs the whole program once per step (micro_batches must be 1); otherwise
    the stage's job list runs, on ``rank.program`` split by :func:`split_jobs` or, when
    ``rank.job_programs`` is given, on those (:class:`PlanRunner`). Raises PipelineError,
    ExecutionError, CommunicationError. ``trace_ops``: record an event per op (StageRunner only).
    ``observer``: the executors' per-op callback (see :class:`Executor`). ``stages``: the
    pipeline stage of every global rank (``stages[r]``), for the collectives that span stages;
    default: pp the mesh's first dimension (``global_jobs.stage_function``). ``random_source``:
    where the random ops draw (see :class:`Executor`; default: the executor's own). ``sites``:
    every rank's :func:`rank_sites` (see :class:`StageRunner`).
    """
    if schedule is None and micro_batches != 1:
        raise PipelineError(f"{micro_batches} micro-batches need a pipeline schedule")
    origin = time.perf_counter() if origin is None else origin
    if rank.process_groups is not None:
        process_groups = {**(process_groups or {}), **rank.process_groups}

    def executor_of(program: Program) -> Executor:
        return Executor(program, rank=comm.rank, communicator=comm, process_groups=process_groups,
                        xp=xp, observer=observer, random_source=random_source)

    runner = None
    if rank.job_programs is not None:
        if schedule is None:
            raise PipelineError("job programs need a schedule")
        runner = PlanRunner({t: executor_of(p) for t, p in rank.job_programs.items()},
                            job_list(schedule, num_stages, rank.stage, micro_batches, vpp),
                            stage=rank.stage, num_stages=num_stages, micro_batches=micro_batches,
                            origin=origin)
    else:
        executor = executor_of(rank.program)
        if schedule is not None:
            runner = StageRunner(executor, schedule, stage=rank.stage, num_stages=num_stages,
                                 micro_batches=micro_batches, vpp=vpp, origin=origin,
                                 trace_ops=trace_ops,
                                 stage_of=None if stages is None else stages.__getitem__,
                                 sites=sites)
    per_step, events, peak = [], [], 0
    for step in range(steps):
        feeds = [rank.feeds(step, m) for m in range(micro_batches)]
        if runner is None:
            start = time.perf_counter()
            env = executor.environment()
            outputs: dict[str, Any] = {}
            executor.run_ops(range(len(executor.ops)), env, feeds=feeds[0], scope=rank.scope,
                             outputs=outputs)
            end = time.perf_counter()
            events.append(TraceEvent(f"step:{step}", comm.rank, max(0.0, (start - origin) * 1e6),
                                     (end - start) * 1e6, "step"))
            per_step.append([outputs])
            peak = max(peak, env.peak_live_values)
        else:
            result = runner.step(feeds, rank.scope)
            per_step.append(result.outputs)
            events.extend(result.events)
            peak = max(peak, result.peak_live_values)
    return RankResult(per_step, events, comm.stats, peak)


def mean_losses(outputs: Sequence[Sequence[Sequence[Mapping[str, Any]]]], loss_name: str = "loss_0"
                ) -> list[float | None]:
    """Per step, the mean of every ``loss_name`` output in ``outputs[rank][step][micro_batch]``
    (None for a step without one); see the module docstring for why the mean is Paddle's loss."""
    steps = max((len(per_rank) for per_rank in outputs), default=0)
    losses: list[float | None] = []
    for step in range(steps):
        values = [float(o[loss_name]) for per_rank in outputs for o in per_rank[step] if loss_name in o]
        losses.append(sum(values) / len(values) if values else None)
    return losses


def train(ranks: Sequence[RankProgram], *, steps: int, schedule: str | None = None,
          num_stages: int = 1, micro_batches: int = 1, vpp: int = 1,
          process_groups: Mapping[int, Sequence[int]] | None = None, loss_name: str = "loss_0",
          timeout: float = 60.0, xp: Any = None, trace_ops: bool = False) -> TrainResult:
    """Train ``steps`` steps with one thread per rank (``ranks[r]`` is global rank r) on the local
    transport; each thread runs :func:`run_rank`.

    Raises RankFailedError (from ``comm_local.run_ranks``) naming the first rank that failed, with
    its ExecutionError / PipelineError as the cause; CommTimeoutError after ``timeout`` seconds.
    """
    origin = time.perf_counter()
    stages = [r.stage for r in ranks]  # every rank's stage: the ranks say where they are
    sites = None  # every rank's cross-stage collectives, to call them in one order
    if schedule is not None and all(r.program is not None and r.job_programs is None
                                    for r in ranks):
        sites = {i: rank_sites(r.program, schedule, stages.__getitem__,
                               {**(process_groups or {}), **(r.process_groups or {})})
                 for i, r in enumerate(ranks)}
    results = run_ranks(len(ranks), lambda comm: run_rank(
        ranks[comm.rank], comm, steps=steps, schedule=schedule, num_stages=num_stages,
        micro_batches=micro_batches, vpp=vpp, process_groups=process_groups, xp=xp, origin=origin,
        trace_ops=trace_ops, stages=stages, sites=sites),
        timeout=timeout)
    outputs = [r.outputs for r in results]
    return TrainResult(
        losses=mean_losses(outputs, loss_name),
        outputs=outputs,
        events=[e for r in results for e in r.events],
        comm_stats=[r.comm_stats for r in results],
        peak_live_values=[r.peak_live_values for r in results],
    )
