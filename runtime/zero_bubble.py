"""Zero-bubble pipeline schedules: the job lists of Paddle 3.3.1's ``pipeline_scheduler_ZBH1`` and
``pipeline_scheduler_ZBVPP`` passes (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024).

A backward is split in two: ``backward_b`` computes the input gradient (what the previous stage
waits for) and ``backward_w`` the weight gradients (which nothing downstream waits for, so they can
fill bubbles). A plain ``backward`` job runs both.

- ZB-H1 (:func:`zbh1_jobs`): 1F1B whose first ``stage`` backwards (and its last) are split, their W
  halves run at the end; with F = B = W the bubble drops from (p-1)/(m+p-1) to (p-1)/(3m+p-1) at
  pp = 2 and to (2p-3)/(3m+2p-3) beyond (Paddle's cool-down runs whole backwards).
- ZBVPP (:func:`zbvpp_schedule`): Paddle's ``VScheduleCreator``, a greedy list scheduler over two or
  more model chunks per stage laid out as a V (chunk c runs stages 0..p-1 when c is even and
  p-1..0 when odd), placing each job where a cost model (runtimes of F, B, W, the loss and one
  communication) says it fits. Paddle 3.3.1 calls a ``_get_max_memory()`` defined nowhere and reads
  memory tables nothing fills; as Paddle's earlier versions had it, every job here uses no memory
  and there is no memory limit, so every memory check of the creator passes and is left out.
- ZB-V (:func:`zbv_jobs`): Qi et al.'s hand-made V schedule for two chunks per stage, as PyTorch
  builds it (``torch/distributed/pipelining/schedules.py`` ``ScheduleZBVZeroBubble``; Paddle 3.3.1
  has none); with F = B = W it idles only while the pipeline fills, (p-1)/(6m+p-1).

All return plain ``(type, chunk, micro_batch)`` triples; :mod:`.schedules` turns them into jobs.

Reimplements (read, not copied) Paddle 3.3.1
``python/paddle/distributed/passes/pipeline_scheduler_pass/pipeline_zero_bubble.py``
(``PipelineZeroBubblePipelinePass._create_job_list``,
``PipelineZeroBubbleVirtualPipelinePass._create_job_list``, ``VScheduleCreator``).
"""

from __future__ import annotations

from collections import deque

__all__ = ["PADDLE_RUNTIMES", "ZeroBubbleConfigError", "zbh1_jobs", "zbvpp_schedule", "zbv_jobs",
           "v_shape_virtual_stage", "zbvpp_loss_stage"]

PADDLE_RUNTIMES = (61, 72, 71, 34, 3)
"""The ``program_runtimes`` attribute ZBVPP defaults to: forward, backward_b, backward_w, the loss
(added to every job of the last chunk on the loss stage) and one communication, in Paddle's
arbitrary units."""


class ZeroBubbleConfigError(ValueError):
    """A (pp, vpp, micro-batches) the zero-bubble schedules cannot build (Paddle asserts)."""


def zbh1_jobs(pp: int, stage: int, micro_batches: int) -> list[tuple[str, int, int]]:
    """ZB-H1 job list of `stage` as ``(type, 0, micro_batch)``, optimizer not included.

    pp - stage warm-up forwards; then `stage` pairs (backward_b, forward); then backward/forward
    pairs; the remaining backwards; the last backward split on stages > 0; then the W halves of
    the first `stage` backwards. Raises ZeroBubbleConfigError when micro_batches < pp (Paddle:
    "Num of micro batches should larger than or equal to pp degree.").
    """
    if micro_batches < pp:
        raise ZeroBubbleConfigError(
            f"ZBH1 needs at least as many micro-batches as pipeline stages: got {micro_batches} "
            f"micro-batches for pp={pp}; use --micro-batches >= {pp}")
    jobs: list[tuple[str, int, int]] = []
    forward, backward = 0, 0
    for _ in range(pp - stage):
        jobs.append(("forward", 0, forward))
        forward += 1
    for _ in range(stage):
        jobs += [("backward_b", 0, backward), ("forward", 0, forward)]
        backward += 1
        forward += 1
    for _ in range(micro_batches - pp):
        jobs += [("backward", 0, backward), ("forward", 0, forward)]
        backward += 1
        forward += 1
    for _ in range(pp - stage - 1):
        jobs.append(("backward", 0, backward))
        backward += 1
    if stage > 0:
        jobs += [("backward_b", 0, backward), ("backward_w", 0, backward)]
    else:
        jobs.append(("backward", 0, backward))
    jobs += [("backward_w", 0, i) for i in range(stage)]
    return jobs


def zbv_jobs(pp: int, stage: int, micro_batches: int) -> list[tuple[str, int, int]]:
    """ZB-V job list of `stage` (two chunks laid out as a V), optimizer not included.

    Warm-up: 2(pp - s) - 1 forwards of chunk 0, then s (F1, F0) pairs, then pp - s times
    (F1, B1, W1); steady: (F0 while any left, B0, W0, F1, B1, W1) until chunk 1 has caught up;
    cool-down: s (B0, B1) pairs, pp - s (B0, W0) pairs, then the W jobs still owed, chunk 1 first.
    The list is built for max(m, 2pp - 1) micro-batches and the jobs of micro-batches >= m are
    dropped, as PyTorch does (its `None` slots, which only align the ranks' timelines, are left
    out). Reimplements (read, not copied) PyTorch's ``ScheduleZBVZeroBubble.
    _calculate_single_rank_operations``.
    """
    n = max(2 * pp - 1, micro_batches)
    jobs: list[tuple[str, int, int]] = []
    count = {"forward0": 0, "forward1": 0, "backward_b0": 0, "backward_b1": 0}

    def add(kind: str, chunk: int) -> int:
        micro_batch = count[f"{kind}{chunk}"]
        count[f"{kind}{chunk}"] += 1
        jobs.append((kind, chunk, micro_batch))
        return micro_batch

    def b_then_w(chunk: int) -> None:
        jobs.append(("backward_w", chunk, add("backward_b", chunk)))

    for _ in range(2 * (pp - stage) - 1):
        add("forward", 0)
    for _ in range(stage):
        add("forward", 1)
        add("forward", 0)
    for _ in range(pp - stage):
        add("forward", 1)
        b_then_w(1)
    while count["forward1"] < count["forward0"] or count["forward0"] < n:
        if count["forward0"] < n:
            add("forward", 0)
        b_then_w(0)
        add("forward", 1)
        b_then_w(1)
    w0, w1 = count["backward_b0"], count["backward_b1"]
    for _ in range(stage):
        add("backward_b", 0)
        add("backward_b", 1)
    for _ in range(pp - stage):
        add("backward_b", 0)
        jobs.append(("backward_w", 0, w0))
        w0 += 1
    jobs += [("backward_w", 1, i) for i in range(w1, count["backward_b1"])]
    jobs += [("backward_w", 0, i) for i in range(w0, count["backward_b0"])]
    return [job for job in jobs if job[2] < micro_batches]


def zbvpp_loss_stage(pp: int, vpp: int) -> int:
    """The stage computing the loss under the V layout: 0 for an even chunk count, else pp - 1."""
    return 0 if vpp % 2 == 0 else pp - 1


def v_shape_virtual_stage(stage: int, chunk: int, pp: int) -> int:
    """Position of chunk `chunk` of `stage` in the model under the V layout: even chunks run the
    stages upward (virtual stage c*pp + s), odd ones downward (c*pp + pp-1-s)."""
    return chunk * pp + (stage if chunk % 2 == 0 else pp - 1 - stage)


def zbvpp_schedule(pp: int, micro_batches: int, vpp: int, runtimes=PADDLE_RUNTIMES
                   ) -> tuple[list[list[tuple[str, int, int]]], dict[tuple[str, int, int, int], float]]:
    """Every stage's ZBVPP job list (``(type, chunk, micro_batch)``, optimizer not included) and
    the cost model's end time of each job, keyed ``(type, chunk, stage, micro_batch)``.

    Tries the eight combinations of Paddle's three fill options and keeps the first with the
    smallest makespan. `runtimes`: forward, backward_b, backward_w, loss, communication.
    Raises ZeroBubbleConfigError unless vpp >= 2 and micro_batches == pp (Paddle asserts
    ``m % pp == 0`` and ``m <= pp``: "zbvpp now only supports accumulate steps <= pp degree").
    """
    if vpp < 2:
        raise ZeroBubbleConfigError(f"ZBVPP needs at least 2 model chunks per stage (--vpp), got {vpp}")
    if micro_batches % pp or micro_batches > pp:
        raise ZeroBubbleConfigError(
            f"ZBVPP needs as many micro-batches as pipeline stages (Paddle 3.3.1 asserts "
            f"m % pp == 0 and m <= pp): got {micro_batches} micro-batches for pp={pp}; "
            f"use --micro-batches {pp}")
    creator = _VScheduleCreator(pp, micro_batches, vpp, runtimes)
    best = None
    for fill_w_before_b in (True, False):
        for fill_w_before_f in (True, False):
            for fill_loss_stage in (True, False):
                found = creator.create(fill_w_before_f, fill_w_before_b, fill_loss_stage)
                if best is None or max(found[1].values()) < max(best[1].values()):
                    best = found
    return best[0], best[1]


class _VScheduleCreator:
    """Paddle's ``VScheduleCreator`` with no memory model; one instance builds schedules for the
    given fill options (:meth:`create`). Job keys are (type, chunk, stage, micro_batch)."""

    def __init__(self, pp: int, micro_batches: int, vpp: int, runtimes):
        self.pp, self.m, self.vpp = pp, micro_batches, vpp
        forward, backward_b, backward_w, loss, communication = runtimes
        self.runtime = {"forward": forward, "backward_b": backward_b, "backward_w": backward_w}
        self.loss = loss
        self.communication = communication
        self.loss_stage = zbvpp_loss_stage(pp, vpp)

    def _init(self) -> None:
        kinds = ("forward", "backward_w", "backward_b")
        self.counters = [{(k, c): 0 for k in kinds for c in range(self.vpp)} for _ in range(self.pp)]
        self.end_times: dict[tuple[str, int, int, int], float] = {}
        self.now = [0] * self.pp
        self.pending_w: list[deque] = [deque() for _ in range(self.pp)]
        self.schedule: list[list[tuple[str, int, int]]] = [[] for _ in range(self.pp)]
        self.bubbles = [0] * self.pp

    def create(self, fill_w_before_f: bool, fill_w_before_b: bool, fill_loss_stage: bool,
               approved_bubbles=None):
        """(per-stage job lists, end times, largest stage bubble) for these options; retried with
        this try's bubbles as the approved ones while that shortens the makespan (Paddle's
        ``create_v_schedule``)."""
        self._init()
        approved = [-1] * self.pp if approved_bubbles is None else approved_bubbles
        self._forwards_before_forward1()
        self._forwards_before_backward_b()
        self._after_backward_start(fill_w_before_f, fill_w_before_b, fill_loss_stage, approved)
        schedule, end_times, max_bubble = self.schedule, self.end_times, max(self.bubbles)
        if max(approved) < 0 or max_bubble < max(approved):
            retry = self.create(fill_w_before_f, fill_w_before_b, fill_loss_stage, self.bubbles)
            if max(retry[1].values()) < max(end_times.values()):
                return retry
        return schedule, end_times, max_bubble

    # -- the cost model ------------------------------------------------------------------------

    def _runtime(self, kind: str, stage: int, chunk: int) -> float:
        extra = self.loss if stage == self.loss_stage and chunk == self.vpp - 1 else 0
        return self.runtime[kind] + extra

    def _previous_stage(self, kind: str, chunk: int, stage: int) -> int:
        """The stage whose job this one's input comes from (V layout)."""
        upward = chunk % 2 == 0
        if kind == "forward":
            return stage - 1 if upward else stage + 1
        return stage + 1 if upward else stage - 1

    def _dependency_end(self, kind: str, chunk: int, stage: int, micro_batch: int) -> float:
        """End of the job on the previous stage this one waits for; 0 when it waits for none,
        -1 while that job is unscheduled."""
        previous = self._previous_stage(kind, chunk, stage)
        if not 0 <= previous < self.pp:
            return 0
        return self.end_times.get((kind, chunk, previous, micro_batch), -1)

    def _put(self, kind: str, chunk: int, stage: int) -> None:
        runtime = self._runtime(kind, stage, chunk)
        end = self.now[stage] + runtime
        micro_batch = self.counters[stage][(kind, chunk)]
        if micro_batch >= self.m:
            raise ZeroBubbleConfigError(f"ZBVPP: job {kind}{chunk} exceeds the micro-batch count")
        if kind in ("forward", "backward_b"):
            dependency = self._dependency_end(kind, chunk, stage, micro_batch)
            if dependency < 0:
                raise ZeroBubbleConfigError(
                    f"ZBVPP: job {kind}{chunk}:{micro_batch} on stage {stage} depends on an "
                    "unscheduled job")
            end = max(end, dependency + self.communication + runtime)
        if self.counters[stage][("forward", 0)] > 0:
            self.bubbles[stage] += end - self.now[stage] - runtime
        self.end_times[(kind, chunk, stage, micro_batch)] = end
        self.now[stage] = end
        self.schedule[stage].append((kind, chunk, micro_batch))
        if kind == "backward_b":
            self.pending_w[stage].append(chunk)
        self.counters[stage][(kind, chunk)] += 1

    def _put_w(self, stage: int) -> None:
        self._put("backward_w", self.pending_w[stage].popleft(), stage)

    def _can_schedule(self, kind: str, chunk: int, stage: int) -> bool:
        """The next micro-batch of (kind, chunk) exists, the chunk it follows on this stage is
        ahead of it, and its input is scheduled."""
        counts = self.counters[stage]
        micro_batch = counts[(kind, chunk)]
        if micro_batch >= self.m:
            return False
        if kind == "forward" and chunk > 0:
            ahead = counts[("forward", chunk - 1)]
        elif kind == "backward_b":
            ahead = counts[("forward", self.vpp - 1)] if chunk + 1 >= self.vpp \
                else counts[("backward_b", chunk + 1)]
        else:
            ahead = None
        if ahead is not None and ahead <= micro_batch:
            return False
        return self._dependency_end(kind, chunk, stage, micro_batch) >= 0

    def _fits_before(self, kind: str, chunk: int, stage: int, deadline: float) -> bool:
        dependency = self._dependency_end(kind, chunk, stage, self.counters[stage][(kind, chunk)])
        end = max(self.now[stage], dependency + self.communication) + self._runtime(kind, stage, chunk)
        return end <= deadline

    def _forward_count(self, stage: int, chunks) -> int:
        return sum(self.counters[stage][("forward", c)] for c in chunks)

    def _max_bubble(self, stage: int, approved) -> float:
        return max(max(self.bubbles), max(approved) - approved[stage])

    # -- the phases ----------------------------------------------------------------------------

    def _forwards_before_forward1(self) -> None:
        for stage in range(self.pp):
            self._put("forward", 0, stage)
        self._fill_forwards_before("forward", 1, [0], "down")

    def _forwards_before_backward_b(self) -> None:
        order = {0: "down", 1: "up"}
        for chunk in range(2, self.vpp):
            fill = list(range(chunk))
            self._fill_forwards_before("forward", chunk, fill, order[fill[-1] % 2])
        fill = list(range(self.vpp))
        self._fill_forwards_before("backward_b", 0, fill, order[fill[-1] % 2], insert_end_job=False)

    def _fill_forwards_before(self, end_kind: str, end_chunk: int, fill_chunks, order: str,
                              insert_end_job: bool = True) -> None:
        stages = list(range(self.pp))
        if order == "down":
            stages.reverse()
        kind, chunk, micro_batch = self.schedule[stages[0]][-1]
        deadline = self.end_times[(kind, chunk, stages[0], micro_batch)]
        if insert_end_job:
            self._put(end_kind, end_chunk, stages[0])
        for stage in stages[1:]:
            start_chunk = (self.schedule[stage][-1][1] + 1) % len(fill_chunks)
            deadline = deadline + self.communication + self._runtime(end_kind, stage, end_chunk)
            self._fill_bubble_with_forwards(stage, fill_chunks, start_chunk, deadline, order)
            if insert_end_job:
                self._put(end_kind, end_chunk, stage)

    def _fill_bubble_with_forwards(self, stage: int, chunks, start_chunk: int, deadline: float,
                                   order: str) -> None:
        chunk = start_chunk
        fewest = 0
        stage_order = range(0, stage + 1)
        if order == "up":
            fewest = self._forward_count(0, chunks)
            stage_order = range(self.pp - 1, stage - 1, -1)
        while self._can_fill(chunks, stage_order, deadline, fewest):
            for s in stage_order:
                if self._can_schedule("forward", chunk, s):
                    if self._forward_count(s, chunks) >= fewest \
                            and not self._fits_before("forward", chunk, s, deadline):
                        continue
                    self._put("forward", chunk, s)
            chunk = (chunk + 1) % len(chunks)

    def _can_fill(self, chunks, stage_order, deadline: float, fewest: int) -> bool:
        """Paddle's ``_check_before_insert`` without its memory check."""
        last = stage_order[-1]
        if self._forward_count(last, chunks) < fewest:
            return True
        if all(self.counters[last][("forward", c)] >= self.m for c in chunks):
            return False
        for c in chunks:
            for s in stage_order:
                if self._can_schedule("forward", c, s):
                    if self._forward_count(s, chunks) >= fewest \
                            and not self._fits_before("forward", c, s, deadline):
                        continue
                    return True
        return False

    def _drain_w_while_idle(self, stage: int, ready: float, factor: float = 1.0) -> None:
        """Run pending W jobs while the next job's input arrives no earlier than they end."""
        while self.pending_w[stage] and ready >= self.now[stage] + self._runtime(
                "backward_w", stage, self.pending_w[stage][0]) * factor:
            self._put_w(stage)

    def _place(self, kind: str, chunk: int, stage: int, fill_w: bool, approved,
               fill_loss_stage: bool = False) -> None:
        ready = self._dependency_end(kind, chunk, stage, self.counters[stage][(kind, chunk)]) \
            + self.communication
        self._drain_w_while_idle(stage, ready)
        if fill_loss_stage and stage == self.loss_stage:
            self._drain_w_while_idle(stage, ready, 0.2)
        if self.pending_w[stage] and ready - self.now[stage] > \
                self._max_bubble(stage, approved) - self.bubbles[stage] and fill_w:
            self._put_w(stage)
        self._put(kind, chunk, stage)

    def _after_backward_start(self, fill_w_before_f: bool, fill_w_before_b: bool,
                              fill_loss_stage: bool, approved) -> None:
        total_b = self.vpp * self.m
        first_b_stage = zbvpp_loss_stage(self.pp, self.vpp)
        stages = range(self.pp) if self.vpp % 2 == 0 else range(self.pp - 1, -1, -1)
        while sum(self.counters[first_b_stage][("backward_b", c)] for c in range(self.vpp)) < total_b:
            for stage in stages:
                for chunk in range(self.vpp):
                    if self._can_schedule("backward_b", chunk, stage):
                        self._place("backward_b", chunk, stage, fill_w_before_b, approved,
                                    fill_loss_stage)
                        break
            for stage in stages:
                for chunk in range(self.vpp - 1, -1, -1):
                    if self._can_schedule("forward", chunk, stage):
                        self._place("forward", chunk, stage, fill_w_before_f, approved)
                        break
        for stage in range(self.pp):
            while self.pending_w[stage]:
                self._put_w(stage)
