"""Zero-bubble schedules: ZBH1 and ZBVPP job lists equal to the ones Paddle 3.3.1's own pass
classes build (extracted by tools/extract_paddle_job_lists.py into tests/data/paddle_job_lists.json),
their bubbles on the unit-cost timeline, and ZBVPP's timeline against Paddle's own cost model."""

import json
from pathlib import Path

import pytest

from rulepass.runtime.schedules import (
    SCHEDULES,
    Job,
    ScheduleError,
    job_list,
    jobs_command,
    p2p_messages,
    stage_of_virtual,
    virtual_stage,
)
from rulepass.runtime.timeline import bubble_fraction, simulate, trace_events
from rulepass.runtime.zero_bubble import PADDLE_RUNTIMES, zbvpp_loss_stage, zbvpp_schedule

PADDLE = json.loads((Path(__file__).parent / "data" / "paddle_job_lists.json").read_text())


def test_extracted_from_paddle_3_3_1():
    assert PADDLE["paddle"] == "3.3.1"
    assert len(PADDLE["ZBH1"]) >= 40 and len(PADDLE["ZBVPP"]) >= 8


@pytest.mark.parametrize("entry", PADDLE["ZBH1"], ids=lambda e: f"pp{e['pp']}_s{e['stage']}_m{e['micro_batches']}")
def test_zbh1_job_lists_equal_paddles(entry):
    args = ("ZBH1", entry["pp"], None, entry["stage"], entry["micro_batches"])
    if "error" in entry:
        with pytest.raises(ScheduleError, match="at least as many micro-batches"):
            jobs_command(*args)
    else:
        assert jobs_command(*args) == entry["jobs"]


@pytest.mark.parametrize("entry", PADDLE["ZBVPP"], ids=lambda e: f"pp{e['pp']}_m{e['micro_batches']}_v{e['vpp']}")
def test_zbvpp_job_lists_equal_paddles(entry):
    pp, m, vpp = entry["pp"], entry["micro_batches"], entry["vpp"]
    if "error" in entry:
        with pytest.raises(ScheduleError, match="as many micro-batches as pipeline stages"):
            job_list("ZBVPP", pp, 0, m, vpp)
        return
    for stage in range(pp):
        assert jobs_command("ZBVPP", pp, vpp, stage, m) == entry["stages"][stage]


@pytest.mark.parametrize("entry", [e for e in PADDLE["ZBVPP"] if "error" not in e],
                         ids=lambda e: f"pp{e['pp']}_m{e['micro_batches']}_v{e['vpp']}")
def test_zbvpp_timeline_equals_paddles_cost_model(entry):
    """Our simulator, given Paddle's runtimes (forward 61, B 72, W 71, the loss 34 on every job of
    the last chunk on the loss stage, a communication of 3 before every forward and B), ends every
    job when Paddle's VScheduleCreator says it ends; so the bubbles agree too."""
    pp, m, vpp = entry["pp"], entry["micro_batches"], entry["vpp"]
    forward, b, w, loss, communication = PADDLE_RUNTIMES
    loss_stage = zbvpp_loss_stage(pp, vpp)

    def cost(stage, job):
        base = {"forward": forward, "backward_b": b, "backward_w": w}.get(job.kind, 0)
        return base + (loss if base and stage == loss_stage and job.chunk == vpp - 1 else 0)

    simulation = simulate("ZBVPP", pp, m, vpp, latency=communication, cost=cost,
                          latency_from_start=True)
    ours = {}
    for stage, timeline in enumerate(simulation.timelines):
        for timed in timeline:
            if timed.job.kind != "optimizer":
                ours[f"{timed.job.kind},{timed.job.chunk},{stage},{timed.job.micro_batch}"] = timed.end
    assert ours == {k: float(v) for k, v in entry["end_times"].items()}
    # Paddle's bubble from its own end times: idle share of pp x makespan
    paddle_makespan = max(entry["end_times"].values())
    busy = sum(cost(s, t.job) for s, tl in enumerate(simulation.timelines) for t in tl)
    assert simulation.bubble_fraction == pytest.approx(1 - busy / (pp * paddle_makespan))
    # and our own scheduler's end times are Paddle's as well
    _, ends = zbvpp_schedule(pp, m, vpp)
    assert {f"{k[0]},{k[1]},{k[2]},{k[3]}": v for k, v in ends.items()} == entry["end_times"]


@pytest.mark.parametrize("pp, m", [(2, m) for m in (2, 3, 4, 8, 16)] + [(3, 3), (3, 6), (4, 8), (4, 9), (8, 16)])
def test_zbh1_bubble(pp, m):
    """With F = B = W = 1 Qi et al.'s ZB-H1 idles (p-1)/(3m+p-1). Paddle's list reaches it at
    pp = 2; for pp >= 3 its cool-down runs full backwards (only the last one split), which adds
    p-2 units: makespan 3m + 2p - 3 (docs/deviations.md)."""
    makespan = 3 * m + 2 * pp - 3
    assert simulate("ZBH1", pp, m).makespan == makespan
    assert bubble_fraction("ZBH1", pp, 1, m) == pytest.approx((2 * pp - 3) / makespan)
    if pp == 2:
        assert bubble_fraction("ZBH1", pp, 1, m) == pytest.approx((pp - 1) / (3 * m + pp - 1))
    assert bubble_fraction("ZBH1", pp, 1, m) < bubble_fraction("1F1B", pp, 1, m)


@pytest.mark.parametrize("pp, vpp", [(2, 2), (2, 3), (4, 2), (4, 3), (8, 2)])
def test_zbvpp_bubble_is_below_vpp(pp, vpp):
    assert bubble_fraction("ZBVPP", pp, vpp, pp) < bubble_fraction("VPP", pp, vpp, pp)


@pytest.mark.parametrize("schedule, pp, m, vpp", [("ZBH1", 2, 4, 1), ("ZBH1", 4, 6, 1),
                                                  ("ZBVPP", 2, 2, 2), ("ZBVPP", 4, 4, 3)])
def test_every_micro_batch_runs_b_and_w_once_per_chunk(schedule, pp, m, vpp):
    for stage in range(pp):
        jobs = job_list(schedule, pp, stage, m, vpp)
        position = {(j.kind, j.chunk, j.micro_batch): i for i, j in enumerate(jobs)}
        for c in range(vpp):
            for b in range(m):
                if ("backward", c, b) in position:  # a full backward runs both halves
                    assert ("backward_b", c, b) not in position and ("backward_w", c, b) not in position
                    assert position[("forward", c, b)] < position[("backward", c, b)]
                else:
                    assert position[("forward", c, b)] < position[("backward_b", c, b)] \
                        < position[("backward_w", c, b)]
        assert jobs[-1] == Job("optimizer", 0)


def test_zbvpp_configuration_errors():
    with pytest.raises(ScheduleError, match="use --micro-batches 2"):
        job_list("ZBVPP", 2, 0, 4, 2)
    with pytest.raises(ScheduleError, match="at least 2 model chunks"):
        job_list("ZBVPP", 2, 0, 2, 1)
    with pytest.raises(ScheduleError, match="need the schedule VPP, ZBVPP or ZBV"):
        job_list("ZBH1", 2, 0, 4, 2)
    assert {"ZBH1", "ZBVPP"} <= set(SCHEDULES)


def test_v_layout():
    # pp=2, vpp=2: virtual stages 0:(0,0) 1:(1,0) 2:(1,1) 3:(0,1); the loss is on stage 0.
    assert [stage_of_virtual(v, 2, True) for v in range(4)] == [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert [virtual_stage(s, c, 2, True) for s, c in [(0, 0), (1, 0), (1, 1), (0, 1)]] == [0, 1, 2, 3]
    assert zbvpp_loss_stage(2, 2) == 0 and zbvpp_loss_stage(4, 3) == 3
    # the turn of the V stays on stage 1: forward1 receives nothing, forward0 sends nothing
    assert p2p_messages("ZBVPP", Job("forward1", 0), 1, 2, 2) == ([], [p2p_messages(
        "ZBVPP", Job("forward1", 0), 1, 2, 2)[1][0]])
    before, after = p2p_messages("ZBVPP", Job("forward0", 0), 1, 2, 2)
    assert before and not after
    before, after = p2p_messages("ZBVPP", Job("backward_b1", 0), 0, 2, 2)
    assert before == [] and after[0].peer == 1
    assert p2p_messages("ZBVPP", Job("backward_w1", 0), 0, 2, 2) == ([], [])


def test_chrome_trace_shows_b_and_w_jobs():
    categories = {e.category for e in trace_events(simulate("ZBH1", 2, 4))}
    assert {"forward", "backward", "backward_b", "backward_w"} <= categories


def test_jobs_command_line(capsys):
    from rulepass.cli import main

    assert main(["jobs", "--schedule", "ZBH1", "--pp", "2", "--stage", "1", "--micro-batches", "4"]) == 0
    assert "backward_b:0" in capsys.readouterr().out
    assert main(["jobs", "--schedule", "ZBVPP", "--pp", "2", "--vpp", "2", "--stage", "0",
                 "--micro-batches", "4"]) == 1
    assert "use --micro-batches 2" in capsys.readouterr().err


# -- ZBV: Qi et al.'s V schedule as PyTorch builds it (Paddle 3.3.1 has none) ---------------------


def test_zbv_pp2_m4_equals_pytorchs_algorithm():
    # Traced by hand through torch/distributed/pipelining/schedules.py
    # ScheduleZBVZeroBubble._calculate_single_rank_operations (F = forward, I = backward_b,
    # W = backward_w; chunk 0 = stage index `rank`, chunk 1 = num_stages - 1 - rank), the None slots
    # that align the ranks' timelines left out.
    assert jobs_command("ZBV", 2, 2, 0, 4) == (
        "forward0:0 forward0:1 forward0:2 forward1:0 backward_b1:0 backward_w1:0 forward1:1 "
        "backward_b1:1 backward_w1:1 forward0:3 backward_b0:0 backward_w0:0 forward1:2 backward_b1:2 "
        "backward_w1:2 backward_b0:1 backward_w0:1 forward1:3 backward_b1:3 backward_w1:3 "
        "backward_b0:2 backward_w0:2 backward_b0:3 backward_w0:3 optimizer:0")
    assert jobs_command("ZBV", 2, 2, 1, 4) == (
        "forward0:0 forward1:0 forward0:1 forward1:1 backward_b1:0 backward_w1:0 forward0:2 "
        "backward_b0:0 backward_w0:0 forward1:2 backward_b1:1 backward_w1:1 forward0:3 backward_b0:1 "
        "backward_w0:1 forward1:3 backward_b1:2 backward_w1:2 backward_b0:2 backward_b1:3 "
        "backward_b0:3 backward_w0:2 backward_w1:3 backward_w0:3 optimizer:0")


@pytest.mark.parametrize("pp, m", [(pp, m) for pp in (2, 3, 4, 8) for m in (2 * pp - 1, 2 * pp, 3 * pp, 17)])
def test_zbv_bubble(pp, m):
    """With F = B = W = 1 per chunk a stage computes 6m; ZB-V idles only while the pipeline
    fills: makespan 6m + p - 1, bubble (p-1)/(6m+p-1), for m >= 2p-1."""
    assert simulate("ZBV", pp, m, 2).makespan == 6 * m + pp - 1
    assert bubble_fraction("ZBV", pp, 2, m) == pytest.approx((pp - 1) / (6 * m + pp - 1))


@pytest.mark.parametrize("pp, m", [(2, 1), (2, 2), (3, 4), (4, 5), (4, 9)])
def test_zbv_runs_every_job_once_for_any_micro_batch_count(pp, m):
    for stage in range(pp):
        jobs = job_list("ZBV", pp, stage, m, 2)
        kinds = [(j.kind, j.chunk, j.micro_batch) for j in jobs if j.kind != "optimizer"]
        assert sorted(kinds) == sorted((k, c, b) for k in ("forward", "backward_b", "backward_w")
                                       for c in (0, 1) for b in range(m))
    simulate("ZBV", pp, m, 2)  # no deadlock
    with pytest.raises(ScheduleError, match="exactly 2 model chunks"):
        job_list("ZBV", pp, 0, m, 3)
