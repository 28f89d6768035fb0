"""The simulated timeline of a pipeline schedule: each stage runs its job list in order, a job starts
once its stage is free and its inputs are ready, and the idle share is the bubble fraction.

Costs are per job, in arbitrary units; by default a forward costs 1, a full backward 2, and its
halves B (input gradient) and W (weight gradient) 1 each, so that 1F1B and FThenB give
(p-1)/(m+p-1), VPP (p-1)/(v*m+p-1) and ZB-H1 (p-1)/(3m+p-1) (Qi et al., ICLR 2024, section 3).
Dependencies follow the model order of virtual stages (`schedules.virtual_stage`, interleaved for
VPP, a V for ZBVPP): a forward waits for the forward before it, a backward or B for the backward or
B after it and for its own forward, a W for its own B.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from .schedules import Job, ScheduleError, job_list, uses_v_shape, virtual_stage

__all__ = ["TimedJob", "Simulation", "unit_costs", "simulate_jobs", "simulate", "bubble_fraction",
           "trace_events"]


@attrs.frozen
class TimedJob:
    """A job as simulated on one stage: `start` and `end` in cost units."""

    job: Job
    start: float
    end: float


@attrs.frozen
class Simulation:
    """Per-stage timelines of one step. `timelines[s]` lists stage s's jobs in order.

    `makespan`: end of the last job. `busy[s]`: stage s's compute time. `bubble_fraction`: idle share
    of pp * makespan.
    """

    timelines: tuple[tuple[TimedJob, ...], ...]

    @property
    def makespan(self) -> float:
        """End of the last job on any stage, in cost units (every stage starts at 0)."""
        return max((t.end for timeline in self.timelines for t in timeline), default=0.0)

    @property
    def busy(self) -> tuple[float, ...]:
        """Per stage, the summed duration of its jobs (compute time), in cost units."""
        return tuple(sum(t.end - t.start for t in timeline) for timeline in self.timelines)

    @property
    def bubble_fraction(self) -> float:
        """Idle share: 1 - sum(busy) / (pp * makespan); 0 for an empty simulation."""
        span = self.makespan
        return 0.0 if span == 0 else 1.0 - sum(self.busy) / (len(self.timelines) * span)

    def job_counts(self) -> list[dict[str, int]]:
        """Per stage, how many jobs of each kind (forward, backward_b, ...) it ran."""
        counts: list[dict[str, int]] = []
        for timeline in self.timelines:
            per_kind: dict[str, int] = {}
            for timed in timeline:
                per_kind[timed.job.kind] = per_kind.get(timed.job.kind, 0) + 1
            counts.append(per_kind)
        return counts


def unit_costs(forward: float = 1.0, backward: float = 2.0, backward_b: float = 1.0,
               backward_w: float = 1.0) -> Callable[[int, Job], float]:
    """A cost function (stage, job) -> duration: by job kind; recv/send/optimizer jobs cost 0."""
    table = {"forward": forward, "backward": backward, "backward_b": backward_b,
             "backward_w": backward_w}
    return lambda stage, job: table.get(job.kind, 0.0)


def simulate_jobs(
    job_lists: Sequence[Sequence[Job]],
    vpp: int = 1,
    forward_cost: float = 1.0,
    backward_cost: float = 2.0,
    latency: float = 0.0,
    *,
    cost: Callable[[int, Job], float] | None = None,
    v_shape: bool = False,
    latency_from_start: bool = False,
) -> Simulation:
    """Time per-stage job lists (index = stage) executed in order, honouring data dependencies.

    `cost(stage, job)` gives each job's duration (default: `unit_costs(forward_cost,
    backward_cost)`). `latency` is added to every dependency between two stages (none between
    chunks of one stage); with `latency_from_start` a forward or backward with no such dependency
    also waits `latency` from time 0, as Paddle's ZBVPP cost model charges its communication.
    `v_shape`: virtual stages laid out as ZBVPP's V. Raises ScheduleError when the lists deadlock
    (a stage waits for a job no stage can reach), naming the stuck jobs.
    """
    pp = len(job_lists)
    cost = cost or unit_costs(forward_cost, backward_cost)
    last_virtual = pp * vpp - 1
    stage_of = {virtual_stage(s, c, pp, v_shape): s for s in range(pp) for c in range(vpp)}
    done: dict[tuple[str, int, int], float] = {}  # (what, virtual stage, micro-batch) -> end
    cursor = [0] * pp
    clock = [0.0] * pp
    timelines: list[list[TimedJob]] = [[] for _ in range(pp)]

    def needs(stage: int, job: Job) -> list[tuple[tuple[str, int, int], float]]:
        """(finished job, delay) pairs the job waits for: (what, virtual stage, micro-batch)."""
        virtual, micro_batch = virtual_stage(stage, job.chunk, pp, v_shape), job.micro_batch
        if job.kind in ("recv_forward", "forward"):
            if virtual == 0:
                return []
            delay = latency if stage_of[virtual - 1] != stage else 0.0
            return [(("forward", virtual - 1, micro_batch), delay)]
        if job.kind in ("backward", "backward_b"):
            own = [(("forward", virtual, micro_batch), 0.0)]
            if virtual == last_virtual:
                return own
            delay = latency if stage_of[virtual + 1] != stage else 0.0
            return own + [(("input_grad", virtual + 1, micro_batch), delay)]
        if job.kind == "backward_w":
            return [(("backward_b", virtual, micro_batch), 0.0)]
        return []

    def start_time(stage: int, job: Job) -> float | None:
        """When the job can start on its stage, or None while a dependency is unfinished."""
        ready = clock[stage]
        waits = needs(stage, job)
        if latency_from_start and job.kind in ("forward", "backward", "backward_b") and not any(
                delay for _, delay in waits):
            ready = max(ready, latency)
        for key, delay in waits:
            if key not in done:
                return None
            ready = max(ready, done[key] + delay)
        return ready

    progress = True
    while progress:
        progress = False
        for stage in range(pp):
            while cursor[stage] < len(job_lists[stage]):
                job = job_lists[stage][cursor[stage]]
                start = start_time(stage, job)
                if start is None:
                    break
                end = start + cost(stage, job)
                virtual = virtual_stage(stage, job.chunk, pp, v_shape)
                what = {"backward": "input_grad", "backward_b": "input_grad"}.get(job.kind, job.kind)
                done[(what, virtual, job.micro_batch)] = end
                if job.kind == "backward_b":
                    done[("backward_b", virtual, job.micro_batch)] = end
                timelines[stage].append(TimedJob(job, start, end))
                clock[stage] = end
                cursor[stage] += 1
                progress = True
    stuck = [(s, job_lists[s][cursor[s]]) for s in range(pp) if cursor[s] < len(job_lists[s])]
    if stuck:
        raise ScheduleError(
            "the job lists deadlock: " + "; ".join(f"stage {s} waits at {job}" for s, job in stuck)
        )
    return Simulation(tuple(tuple(t) for t in timelines))


def simulate(
    schedule: str,
    pp: int,
    micro_batches: int,
    vpp: int = 1,
    forward_cost: float = 1.0,
    backward_cost: float = 2.0,
    latency: float = 0.0,
    *,
    cost: Callable[[int, Job], float] | None = None,
    latency_from_start: bool = False,
) -> Simulation:
    """Simulate every stage of `schedule` (see `schedules.job_list`, `simulate_jobs`; the V layout
    for ZBVPP). Raises ScheduleError."""
    lists = [job_list(schedule, pp, stage, micro_batches, vpp) for stage in range(pp)]
    return simulate_jobs(lists, vpp, forward_cost, backward_cost, latency, cost=cost,
                         v_shape=uses_v_shape(schedule), latency_from_start=latency_from_start)


def bubble_fraction(
    schedule: str,
    pp: int,
    vpp: int,
    micro_batches: int,
    forward_cost: float = 1.0,
    backward_cost: float = 2.0,
) -> float:
    """Idle share of the pipeline, 1 - (compute time of all stages) / (pp * makespan), with a
    forward costing `forward_cost`, a full backward `backward_cost` and each of B and W 1.

    With unit costs this is (pp-1)/(m+pp-1) for FThenB and 1F1B, (pp-1)/(vpp*m+pp-1) for VPP and
    (pp-1)/(3m+pp-1) for ZBH1. Raises ScheduleError for impossible configurations.
    """
    return simulate(schedule, pp, micro_batches, vpp, forward_cost, backward_cost).bubble_fraction


def trace_events(simulation: Simulation, microseconds_per_unit: float = 1000.0) -> list:
    """The compute jobs of a simulation as `trace.TraceEvent`s (one rank per stage), for a Chrome
    trace: B and W jobs appear under their own categories. One cost unit lasts
    `microseconds_per_unit` µs."""
    from .trace import TraceEvent

    events = []
    for stage, timeline in enumerate(simulation.timelines):
        for timed in timeline:
            if timed.end > timed.start:
                events.append(
                    TraceEvent(
                        name=str(timed.job),
                        rank=stage,
                        start=timed.start * microseconds_per_unit,
                        duration=(timed.end - timed.start) * microseconds_per_unit,
                        category=timed.job.kind,
                    )
                )
    return events
