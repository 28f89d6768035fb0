"""Pipeline schedules: the per-stage job lists of Paddle's pipeline scheduler passes and the body of
`rulepass jobs` (the simulator that times them is `timeline.py`).

A job is (type, micro_batch), printed `type:micro_batch`. Types:

- `forward` / `backward` (`forward{c}` / `backward{c}` for chunk c under VPP): run that program of the
  stage on one micro-batch.
- `recv_forward[c]`: receive the micro-batch's activation from the previous (virtual) stage; 1F1B and
  VPP schedule it as its own job so it can overlap the backward before it.
- `send_backward[c]`: send the input gradient to the previous (virtual) stage.
- `optimizer`: the optimizer step, once, micro-batch 0.
- `backward_b` / `backward_w` (`backward_b{c}` / `backward_w{c}` under ZBVPP): the input-gradient
  (B) and weight-gradient (W) halves of a backward, for the zero-bubble schedules ZBH1 and ZBVPP
  (`zero_bubble.py`); a `backward` job there runs both halves.

Where a schedule has no explicit `recv_forward`/`send_backward` job (FThenB, Eager1F1B), the forward job
receives its input and the backward job sends its gradient itself. In every schedule the forward job
sends its activation to the next stage and the backward job receives its output gradient first.

Virtual stages (VPP): chunk c of stage s is virtual stage c * pp + s, so the forward of chunk c on the
last stage feeds chunk c + 1 on stage 0 (`previous_virtual_stage`, `next_virtual_stage`). ZBVPP lays
its chunks out as a V instead (`virtual_stage`): odd chunks run the stages from the last to the
first, so chunk c + 1 starts on the stage where chunk c ended.

Reimplements (read, not copied) Paddle 3.3.1
`python/paddle/distributed/passes/pipeline_scheduler_pass/`: `pipeline_fthenb.py`, `pipeline_1f1b.py`
(`_create_job_list_in_pir`), `pipeline_eager_1f1b.py`, `pipeline_vpp.py` (`_pir_create_job_list`,
without the `split_backward` zero-bubble variant) and `pipeline_zero_bubble.py` (in `zero_bubble.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import attrs

from rulepass.engine.errors import RulepassError
from rulepass.engine.limits import MAX_MESH_RANKS
from rulepass.runtime.zero_bubble import (ZeroBubbleConfigError, v_shape_virtual_stage, zbh1_jobs,
                                          zbv_jobs, zbvpp_schedule)

__all__ = [
    "SCHEDULES",
    "ScheduleError",
    "Job",
    "TimedJob",
    "Simulation",
    "job_list",
    "jobs_command",
    "split_micro_batches",
    "uses_v_shape",
    "virtual_stage",
    "stage_of_virtual",
    "previous_virtual_stage",
    "next_virtual_stage",
    "Message",
    "p2p_messages",
]


class ScheduleError(RulepassError):
    """An impossible pipeline configuration or job list, found when planning (never at run time).

    Part of the rulepass error hierarchy (`engine/errors.py`); the CLI prints it and exits 1.
    """

    kind = "schedule error"


# global_forward / global_backward / global_join{k} / global_late: cross-stage collectives in one order
# (runtime/global_jobs.py; the digits of global_join name the collective, not a chunk)
_JOB_TYPE = re.compile(r"^(forward|backward_b|backward_w|backward|recv_forward|send_backward|optimizer"
                       r"|global_forward|global_backward|global_join|global_late)(\d*)$")


@attrs.frozen
class Job:
    """One entry of a stage's job list: run program `type` on micro-batch `micro_batch`.

    `type` is e.g. "forward", "recv_forward1", "send_backward0", "optimizer" (see the module doc).
    Raises ScheduleError for an unknown type or a negative micro-batch.
    """

    type: str
    micro_batch: int = 0

    def __attrs_post_init__(self) -> None:
        if not _JOB_TYPE.match(self.type):
            raise ScheduleError(f"unknown job type {self.type!r}")
        if self.micro_batch < 0:
            raise ScheduleError(f"job {self.type} has negative micro-batch {self.micro_batch}")

    @property
    def kind(self) -> str:
        """The type without its chunk number: forward, backward, backward_b, backward_w,
        recv_forward, send_backward, optimizer."""
        return _JOB_TYPE.match(self.type).group(1)

    @property
    def chunk(self) -> int:
        """The VPP model chunk the job runs (0 when the type carries no chunk number)."""
        digits = _JOB_TYPE.match(self.type).group(2)
        return int(digits) if digits else 0

    def __str__(self) -> str:
        return f"{self.type}:{self.micro_batch}"

    @classmethod
    def parse(cls, text: str) -> Job:
        """Parse `type:micro_batch` (the printed form). Raises ScheduleError when malformed."""
        type_, sep, micro_batch = text.partition(":")
        if not sep or not micro_batch.isdigit():
            raise ScheduleError(f"job {text!r} is not of the form type:micro_batch")
        return cls(type_, int(micro_batch))


# -- job lists --------------------------------------------------------------------------------------


def _fthenb(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """All forwards, then all backwards (pipeline_fthenb.py)."""
    jobs = [Job("forward", i) for i in range(micro_batches)]
    jobs += [Job("backward", i) for i in range(micro_batches)]
    return jobs + [Job("optimizer", 0)]


def _one_f_one_b(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """1F1B as Paddle builds it for PIR (pipeline_1f1b.py, `_create_job_list_in_pir`).

    Stage s first runs pp - s forwards (one more than Megatron's warm-up: the extra forward fills
    the wait for the first gradient), then alternates backward / forward, then drains the backwards.
    Each forward is preceded by its `recv_forward`; in the steady phase the `recv_forward` of the next
    forward and the `send_backward` of the current backward sit between the two computations.
    """
    if micro_batches < pp:
        raise ScheduleError(
            f"1F1B needs at least as many micro-batches as pipeline stages: got {micro_batches} "
            f"micro-batches for pp={pp}; use --micro-batches >= {pp}"
        )
    warmup = pp - stage
    jobs: list[Job] = []
    for forward in range(warmup):
        jobs += [Job("recv_forward", forward), Job("forward", forward)]
    for backward in range(micro_batches - warmup):
        forward = backward + warmup
        jobs += [Job("backward", backward), Job("recv_forward", forward), Job("send_backward", backward),
                 Job("forward", forward)]
    for backward in range(micro_batches - warmup, micro_batches):
        jobs += [Job("backward", backward), Job("send_backward", backward)]
    return jobs + [Job("optimizer", 0)]


def _eager_one_f_one_b(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """Eager 1F1B (pipeline_eager_1f1b.py): 2(pp - s) - 1 warm-up forwards, then backward/forward
    pairs, then the remaining backwards. No separate recv/send jobs."""
    warmup = 2 * (pp - stage) - 1
    if micro_batches < warmup:
        raise ScheduleError(
            f"Eager1F1B stage {stage} of pp={pp} runs 2*(pp-stage)-1 = {warmup} warm-up forwards, "
            f"so it needs at least {warmup} micro-batches, got {micro_batches}"
        )
    jobs = [Job("forward", i) for i in range(warmup)]
    for backward in range(micro_batches - warmup):
        jobs += [Job("backward", backward), Job("forward", backward + warmup)]
    jobs += [Job("backward", i) for i in range(micro_batches - warmup, micro_batches)]
    return jobs + [Job("optimizer", 0)]


def _vpp_chunk(step: int, pp: int, vpp: int, micro_batches: int, forward: bool) -> int:
    """The model chunk of the step-th forward (or backward) of a stage under VPP.

    Micro-batches go through the chunks in rounds of pp: pp forwards of chunk 0, pp of chunk 1, ...
    When pp does not divide the micro-batch count, the last partial round uses rounds of the
    remainder instead. Backwards visit the chunks in reverse.
    """
    round_steps = pp * vpp
    full_steps = (micro_batches // pp) * round_steps
    if step < full_steps:
        chunk = (step % round_steps) // pp
    else:
        chunk = (step - full_steps) // (micro_batches % pp)
    return chunk if forward else vpp - 1 - chunk


def _vpp(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """Interleaved 1F1B over vpp model chunks per stage (pipeline_vpp.py, `_pir_create_job_list`).

    A stage runs micro_batches * vpp forward steps and as many backward steps. Warm-up: every forward
    when micro_batches == pp, else 2(pp - s - 1) + (vpp - 1) pp forwards, plus one (PIR), at most all.
    The steady phase and cool-down place recv_forward / send_backward as 1F1B does.
    """
    if micro_batches < pp:
        raise ScheduleError(
            f"VPP needs at least as many micro-batches as pipeline stages: got {micro_batches} "
            f"micro-batches for pp={pp}; use --micro-batches >= {pp}"
        )
    total = micro_batches * vpp
    if micro_batches == pp:
        warmup = total
    else:
        warmup = min(total, 2 * (pp - stage - 1) + (vpp - 1) * pp)
    warmup = min(total, warmup + 1)
    forward_count = [0] * vpp
    backward_count = [0] * vpp

    def next_job(kind: str, step: int) -> tuple[int, int]:
        forward = kind == "forward"
        chunk = _vpp_chunk(step, pp, vpp, micro_batches, forward)
        counts = forward_count if forward else backward_count
        counts[chunk] += 1
        return chunk, counts[chunk] - 1

    jobs: list[Job] = []
    for step in range(warmup):
        chunk, micro_batch = next_job("forward", step)
        jobs += [Job(f"recv_forward{chunk}", micro_batch), Job(f"forward{chunk}", micro_batch)]
    for step in range(total - warmup):
        f_chunk, f_micro_batch = next_job("forward", step + warmup)
        b_chunk, b_micro_batch = next_job("backward", step)
        jobs += [
            Job(f"backward{b_chunk}", b_micro_batch),
            Job(f"recv_forward{f_chunk}", f_micro_batch),
            Job(f"send_backward{b_chunk}", b_micro_batch),
            Job(f"forward{f_chunk}", f_micro_batch),
        ]
    for step in range(total - warmup, total):
        chunk, micro_batch = next_job("backward", step)
        jobs += [Job(f"backward{chunk}", micro_batch), Job(f"send_backward{chunk}", micro_batch)]
    return jobs + [Job("optimizer", 0)]


def _zbh1(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """ZB-H1 (pipeline_zero_bubble.py, `PipelineZeroBubblePipelinePass`); see `zero_bubble.zbh1_jobs`."""
    try:
        triples = zbh1_jobs(pp, stage, micro_batches)
    except ZeroBubbleConfigError as error:
        raise ScheduleError(str(error)) from None
    return [Job(kind, micro_batch) for kind, _, micro_batch in triples] + [Job("optimizer", 0)]


_ZBVPP_CACHE: dict[tuple[int, int, int], list[list[tuple[str, int, int]]]] = {}


def _zbvpp(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """ZBVPP (pipeline_zero_bubble.py, `PipelineZeroBubbleVirtualPipelinePass`): Paddle's greedy
    V-schedule with its default runtimes and no memory model; see `zero_bubble.zbvpp_schedule`.
    The whole pipeline is scheduled at once, so it is computed once per (pp, micro-batches, vpp)."""
    key = (pp, micro_batches, vpp)
    if key not in _ZBVPP_CACHE:
        try:
            _ZBVPP_CACHE[key] = zbvpp_schedule(pp, micro_batches, vpp)[0]
        except ZeroBubbleConfigError as error:
            raise ScheduleError(str(error)) from None
    jobs = [Job(f"{kind}{chunk}", micro_batch) for kind, chunk, micro_batch in _ZBVPP_CACHE[key][stage]]
    return jobs + [Job("optimizer", 0)]


def _zbv(pp: int, stage: int, micro_batches: int, vpp: int) -> list[Job]:
    """ZB-V (Qi et al., as PyTorch's ScheduleZBVZeroBubble builds it): two chunks per stage in a V;
    see `zero_bubble.zbv_jobs`. Not a Paddle schedule."""
    if vpp != 2:
        raise ScheduleError(f"ZBV runs exactly 2 model chunks per stage (--vpp 2), got {vpp}")
    jobs = [Job(f"{kind}{chunk}", micro_batch) for kind, chunk, micro_batch in zbv_jobs(pp, stage, micro_batches)]
    return jobs + [Job("optimizer", 0)]


SCHEDULES: dict[str, Callable[[int, int, int, int], list[Job]]] = {
    "FThenB": _fthenb,
    "1F1B": _one_f_one_b,
    "Eager1F1B": _eager_one_f_one_b,
    "VPP": _vpp,
    "ZBH1": _zbh1,
    "ZBVPP": _zbvpp,
    "ZBV": _zbv,
}
"""Schedule name (as in Paddle's `pipeline_scheduler_<name>` pass) -> job list builder."""

#: The schedules that run model chunks (vpp >= 2 per stage; with one chunk they have nothing to
#: interleave, and no pass assigns chunk ids).
CHUNKED_SCHEDULES = ("VPP", "ZBVPP", "ZBV")


def _schedule(name: str) -> Callable[[int, int, int, int], list[Job]]:
    for known, builder in SCHEDULES.items():
        if known.lower() == name.lower():
            return builder
    raise ScheduleError(f"unknown schedule {name!r}; expected one of {', '.join(SCHEDULES)}")


#: The most forward jobs (micro-batches x model chunks) a stage's job list may hold: 1e8
#: micro-batches ran for minutes; Paddle's accumulate_steps are in the tens or hundreds.
MAX_STAGE_JOBS = 2**16


def _check(schedule: str, pp: int, stage: int, micro_batches: int, vpp: int) -> None:
    if pp < 1:
        raise ScheduleError(f"pp must be at least 1, got {pp}")
    if not 0 <= stage < pp:
        raise ScheduleError(f"stage must be in [0, {pp}) for pp={pp}, got {stage}")
    if micro_batches < 1:
        raise ScheduleError(f"micro-batches must be at least 1, got {micro_batches}")
    if vpp < 1:
        raise ScheduleError(f"vpp must be at least 1, got {vpp}")
    if pp > MAX_MESH_RANKS:
        raise ScheduleError(f"pp = {pp} stages: a pipeline has at most {MAX_MESH_RANKS}")
    if micro_batches * vpp > MAX_STAGE_JOBS:
        raise ScheduleError(f"{micro_batches} micro-batches x {vpp} model chunk(s) make "
                            f"{micro_batches * vpp} forward jobs per stage; at most "
                            f"{MAX_STAGE_JOBS} (a step of so many micro-batches is no pipeline "
                            "anyone runs, and its job list would take minutes and gigabytes)")
    if vpp != 1 and _schedule(schedule) not in (SCHEDULES[k] for k in CHUNKED_SCHEDULES):
        raise ScheduleError(f"{schedule} has one model chunk per stage; {vpp} model chunks per "
                            f"stage (vpp = {vpp}) need the schedule VPP, ZBVPP or ZBV")


def job_list(schedule: str, pp: int, stage: int, micro_batches: int, vpp: int = 1) -> list[Job]:
    """The job list stage `stage` of a `pp`-stage pipeline runs for one step of `micro_batches`.

    `schedule`: a key of SCHEDULES (case-insensitive). `vpp`: model chunks per stage, VPP and
    ZBVPP only. Raises ScheduleError for an unknown schedule or an impossible configuration (e.g.
    fewer micro-batches than stages for 1F1B, VPP and ZBH1; ZBVPP with micro-batches != pp).
    """
    _check(schedule, pp, stage, micro_batches, vpp)
    return _schedule(schedule)(pp, stage, micro_batches, vpp)


def jobs_command(schedule: str, pp: int, vpp: int | None, stage: int, micro_batches: int) -> str:
    """The output line of `rulepass jobs`: the job list as space-separated `type:micro_batch` tokens.

    `vpp` None means 1. Raises ScheduleError (exit 1 in the CLI) for impossible configurations.
    """
    return " ".join(str(job) for job in job_list(schedule, pp, stage, micro_batches, 1 if vpp is None else vpp))


def split_micro_batches(batch_size: int, micro_batches: int) -> list[slice]:
    """Slices of axis 0 cutting a batch of `batch_size` samples into `micro_batches` equal parts.

    Raises ScheduleError when either is below 1 or `micro_batches` does not divide `batch_size`
    (Paddle's accumulate_steps must divide the global batch, like `micro_batch_size * acc_steps`).
    """
    if batch_size < 1 or micro_batches < 1:
        raise ScheduleError(f"batch size ({batch_size}) and micro-batches ({micro_batches}) must be at least 1")
    if batch_size % micro_batches:
        raise ScheduleError(
            f"{micro_batches} micro-batches do not divide the batch of {batch_size} samples; "
            f"choose a divisor of {batch_size}"
        )
    size = batch_size // micro_batches
    return [slice(i * size, (i + 1) * size) for i in range(micro_batches)]


def uses_v_shape(schedule: str) -> bool:
    """Whether `schedule` lays model chunks out as a V (ZBVPP, ZBV) rather than interleaved (VPP)."""
    return _schedule(schedule) in (_zbvpp, _zbv)


def virtual_stage(stage: int, chunk: int, pp: int, v_shape: bool = False) -> int:
    """The position of chunk `chunk` of `stage` along the model: c * pp + s interleaved (VPP);
    under the V layout (ZBVPP) odd chunks count the stages downward."""
    return v_shape_virtual_stage(stage, chunk, pp) if v_shape else chunk * pp + stage


def stage_of_virtual(virtual: int, pp: int, v_shape: bool = False) -> tuple[int, int]:
    """(stage, chunk) of virtual stage `virtual`; the inverse of `virtual_stage`."""
    chunk, offset = divmod(virtual, pp)
    return (pp - 1 - offset if v_shape and chunk % 2 else offset), chunk


def previous_virtual_stage(stage: int, chunk: int, pp: int) -> tuple[int, int] | None:
    """(stage, chunk) whose forward output feeds chunk `chunk` of `stage`; None for the first."""
    virtual = chunk * pp + stage - 1
    return None if virtual < 0 else (virtual % pp, virtual // pp)


def next_virtual_stage(stage: int, chunk: int, pp: int, vpp: int = 1) -> tuple[int, int] | None:
    """(stage, chunk) that consumes the forward output of chunk `chunk` of `stage`; None for the last."""
    virtual = chunk * pp + stage + 1
    return None if virtual >= pp * vpp else (virtual % pp, virtual // pp)


@attrs.frozen
class Message:
    """A point-to-point transfer a job makes: `direction` "send" or "recv", with pipeline stage
    `peer` (an index into the pp process group), under `key` for `Communicator.send`/`recv`.

    Keys are ("forward", v, micro_batch) for the activation virtual stage v sends to v + 1, and
    ("backward", v, micro_batch) for the input gradient virtual stage v sends to v - 1; they differ
    for every edge and direction, so pp2 (previous stage = next stage) cannot mix them up.
    """

    direction: str
    peer: int
    key: tuple


def p2p_messages(schedule: str, job: Job, stage: int, pp: int, vpp: int = 1) -> tuple[list[Message], list[Message]]:
    """The transfers around `job` on `stage`: (before its computation, after it).

    recv_forward receives the activation from the previous virtual stage; forward receives it itself
    when the schedule has no recv_forward jobs (FThenB, Eager1F1B), then sends its output to the next
    virtual stage; backward receives its output gradient from the next virtual stage and, when the
    schedule has no send_backward jobs, sends its input gradient to the previous one; send_backward
    sends it. The first and last virtual stages skip the missing side. optimizer makes none.
    """
    separate = _schedule(schedule) in (_one_f_one_b, _vpp)
    v_shape = uses_v_shape(schedule)
    virtual = virtual_stage(stage, job.chunk, pp, v_shape)
    last = virtual == pp * vpp - 1
    previous_stage = stage_of_virtual(virtual - 1, pp, v_shape)[0] if virtual > 0 else stage
    next_stage = stage_of_virtual(virtual + 1, pp, v_shape)[0] if not last else stage
    # a neighbour on this same stage (the turn of ZBVPP's V) hands values over without a message
    first, last = previous_stage == stage, next_stage == stage
    recv_activation = [] if first else [Message("recv", previous_stage, ("forward", virtual - 1, job.micro_batch))]
    send_gradient = [] if first else [Message("send", previous_stage, ("backward", virtual, job.micro_batch))]
    if job.kind == "recv_forward":
        return recv_activation, []
    if job.kind == "forward":
        send = [] if last else [Message("send", next_stage, ("forward", virtual, job.micro_batch))]
        return ([] if separate else recv_activation), send
    if job.kind in ("backward", "backward_b"):
        recv = [] if last else [Message("recv", next_stage, ("backward", virtual + 1, job.micro_batch))]
        return recv, ([] if separate else send_gradient)
    if job.kind == "send_backward":
        return [], send_gradient
    return [], []


def runner_schedule(schedule: str, pp: int, micro_batches: int) -> str | None:
    """The schedule a rank runs under: the pipeline's ``schedule`` when there are pipeline
    stages (``pp > 1``); without them none for one micro-batch, and FThenB for several (gradient
    accumulation on the one stage: every micro-batch's forward and backward, then the optimizer
    once, as Paddle's gradient merge)."""
    if pp > 1:
        return schedule
    return "FThenB" if micro_batches > 1 else None
