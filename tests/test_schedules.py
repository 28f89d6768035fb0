"""Pipeline schedules: job lists equal to Paddle 3.3.1's pipeline_scheduler_pass, plan-time errors,
the unit-cost simulation and its bubble fractions, and the Chrome trace writer."""

import json

import pytest

from rulepass.runtime.schedules import (
    SCHEDULES,
    Job,
    Message,
    ScheduleError,
    job_list,
    jobs_command,
    next_virtual_stage,
    p2p_messages,
    previous_virtual_stage,
    split_micro_batches,
)
from rulepass.runtime.timeline import bubble_fraction, simulate, simulate_jobs, trace_events
from rulepass.runtime.trace import TraceEvent, chrome_trace, write_chrome_trace

# -- job lists: expected values written out from Paddle 3.3.1 -----------------------------------------


def test_fthenb_pp2_stage0_m4():
    assert jobs_command("FThenB", 2, None, 0, 4) == (
        "forward:0 forward:1 forward:2 forward:3 backward:0 backward:1 backward:2 backward:3 optimizer:0"
    )


def test_1f1b_pp2_stage0_m4():
    assert jobs_command("1F1B", 2, None, 0, 4) == (
        "recv_forward:0 forward:0 recv_forward:1 forward:1 backward:0 recv_forward:2 send_backward:0 "
        "forward:2 backward:1 recv_forward:3 send_backward:1 forward:3 backward:2 send_backward:2 "
        "backward:3 send_backward:3 optimizer:0"
    )


def test_1f1b_pp2_stage1_m4():
    assert jobs_command("1F1B", 2, None, 1, 4) == (
        "recv_forward:0 forward:0 backward:0 recv_forward:1 send_backward:0 forward:1 backward:1 "
        "recv_forward:2 send_backward:1 forward:2 backward:2 recv_forward:3 send_backward:2 forward:3 "
        "backward:3 send_backward:3 optimizer:0"
    )


def test_vpp_pp2_vpp2_stage0_m2():
    assert jobs_command("VPP", 2, 2, 0, 2) == (
        "recv_forward0:0 forward0:0 recv_forward0:1 forward0:1 recv_forward1:0 forward1:0 "
        "recv_forward1:1 forward1:1 backward1:0 send_backward1:0 backward1:1 send_backward1:1 "
        "backward0:0 send_backward0:0 backward0:1 send_backward0:1 optimizer:0"
    )


def test_vpp_pp2_vpp2_stage0_m4():
    assert jobs_command("VPP", 2, 2, 0, 4) == (
        "recv_forward0:0 forward0:0 recv_forward0:1 forward0:1 recv_forward1:0 forward1:0 "
        "recv_forward1:1 forward1:1 recv_forward0:2 forward0:2 backward1:0 recv_forward0:3 "
        "send_backward1:0 forward0:3 backward1:1 recv_forward1:2 send_backward1:1 forward1:2 "
        "backward0:0 recv_forward1:3 send_backward0:0 forward1:3 backward0:1 send_backward0:1 "
        "backward1:2 send_backward1:2 backward1:3 send_backward1:3 backward0:2 send_backward0:2 "
        "backward0:3 send_backward0:3 optimizer:0"
    )


def test_eager_1f1b_pp2_m4():
    # pipeline_eager_1f1b.py: 2*(pp - stage) - 1 warm-up forwards, no separate recv/send jobs.
    assert jobs_command("Eager1F1B", 2, None, 0, 4) == (
        "forward:0 forward:1 forward:2 backward:0 forward:3 backward:1 backward:2 backward:3 optimizer:0"
    )
    assert jobs_command("Eager1F1B", 2, None, 1, 4) == (
        "forward:0 backward:0 forward:1 backward:1 forward:2 backward:2 forward:3 backward:3 optimizer:0"
    )


def test_vpp_with_micro_batches_not_a_multiple_of_stages():
    # Paddle 3.3.1 only requires m >= pp; the last partial round of micro-batches uses the remainder.
    jobs = job_list("VPP", 2, 0, 3, vpp=2)
    forwards = [str(j) for j in jobs if j.kind == "forward"]
    assert forwards == ["forward0:0", "forward0:1", "forward1:0", "forward1:1", "forward0:2", "forward1:2"]
    assert simulate("VPP", 2, 3, vpp=2).makespan > 0


@pytest.mark.parametrize("schedule", ["FThenB", "1F1B", "Eager1F1B", "VPP"])
@pytest.mark.parametrize("pp, m, vpp", [(1, 1, 1), (2, 4, 1), (4, 8, 1), (3, 6, 2), (4, 8, 3), (2, 5, 2)])
def test_every_micro_batch_runs_forward_and_backward_once_per_chunk(schedule, pp, m, vpp):
    if schedule != "VPP":
        vpp = 1
    if schedule == "Eager1F1B" and m < 2 * pp - 1:
        m = 2 * pp - 1
    for stage in range(pp):
        jobs = job_list(schedule, pp, stage, m, vpp)
        for kind in ("forward", "backward"):
            seen = sorted((j.chunk, j.micro_batch) for j in jobs if j.kind == kind)
            assert seen == sorted((c, b) for c in range(vpp) for b in range(m))
        assert jobs[-1] == Job("optimizer", 0)
        # Every backward comes after its forward on the same stage.
        position = {(j.kind, j.chunk, j.micro_batch): i for i, j in enumerate(jobs)}
        for c in range(vpp):
            for b in range(m):
                assert position[("forward", c, b)] < position[("backward", c, b)]


def test_job_round_trips_through_its_printed_form():
    assert Job.parse("recv_forward1:3") == Job("recv_forward1", 3)
    assert Job("send_backward2", 5).kind == "send_backward"
    assert Job("send_backward2", 5).chunk == 2
    with pytest.raises(ScheduleError):
        Job.parse("forward")
    with pytest.raises(ScheduleError):
        Job("fwd", 0)


def test_virtual_stage_neighbours():
    # pp=2, vpp=2: virtual stages 0:(0,0) 1:(1,0) 2:(0,1) 3:(1,1).
    assert previous_virtual_stage(0, 0, 2) is None
    assert previous_virtual_stage(0, 1, 2) == (1, 0)
    assert next_virtual_stage(1, 0, 2, 2) == (0, 1)
    assert next_virtual_stage(1, 1, 2, 2) is None


# -- plan-time errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (("1F1B", 4, 0, 3, 1), "at least as many micro-batches as pipeline stages"),
        (("VPP", 4, 0, 2, 2), "at least as many micro-batches as pipeline stages"),
        (("Eager1F1B", 4, 0, 6, 1), r"2\*\(pp-stage\)-1 = 7"),
        (("1F1B", 2, 2, 4, 1), r"stage must be in \[0, 2\)"),
        (("FThenB", 2, 0, 0, 1), "micro-batches must be at least 1"),
        (("1F1B", 2, 0, 4, 2), "need the schedule VPP, ZBVPP or ZBV"),
        (("ZB", 2, 0, 4, 1), "unknown schedule 'ZB'"),
    ],
)
def test_impossible_configurations_fail_at_plan_time(args, message):
    with pytest.raises(ScheduleError, match=message):
        job_list(*args)


def test_schedule_names_are_case_insensitive():
    assert job_list("fthenb", 2, 0, 2) == job_list("FThenB", 2, 0, 2)
    assert set(SCHEDULES) == {"FThenB", "1F1B", "Eager1F1B", "VPP", "ZBH1", "ZBVPP", "ZBV"}


def test_split_micro_batches():
    assert split_micro_batches(8, 4) == [slice(0, 2), slice(2, 4), slice(4, 6), slice(6, 8)]
    with pytest.raises(ScheduleError, match="3 micro-batches do not divide the batch of 8"):
        split_micro_batches(8, 3)
    with pytest.raises(ScheduleError):
        split_micro_batches(8, 0)


# -- simulation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "schedule, pp, m",
    [
        (schedule, pp, m)
        for schedule in ("FThenB", "1F1B", "Eager1F1B")
        for pp in (1, 2, 3, 4)
        for m in (4, 8, 9)
        if schedule != "Eager1F1B" or m >= 2 * pp - 1  # Eager1F1B's warm-up needs 2*pp-1
    ],
)
@pytest.mark.parametrize("backward_cost", [1.0, 2.0])
def test_bubble_fraction_of_one_chunk_schedules(schedule, pp, m, backward_cost):
    expected = (pp - 1) / (m + pp - 1)
    assert bubble_fraction(schedule, pp, 1, m, backward_cost=backward_cost) == pytest.approx(expected)


@pytest.mark.parametrize("pp", [2, 3, 4])
@pytest.mark.parametrize("vpp", [1, 2, 3])
@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_bubble_fraction_of_vpp(pp, vpp, rounds):
    m = rounds * pp  # the formula holds when pp divides the micro-batch count
    expected = (pp - 1) / (vpp * m + pp - 1)
    assert bubble_fraction("VPP", pp, vpp, m) == pytest.approx(expected)


def test_vpp_has_smaller_bubble_than_1f1b():
    assert bubble_fraction("VPP", 4, 2, 8) < bubble_fraction("1F1B", 4, 1, 8)


def test_simulated_timeline_of_1f1b_pp2():
    simulation = simulate("1F1B", 2, 4, forward_cost=1, backward_cost=2)
    stage1 = [(str(t.job), t.start, t.end) for t in simulation.timelines[1] if t.end > t.start]
    assert stage1[:3] == [("forward:0", 1, 2), ("backward:0", 2, 4), ("forward:1", 4, 5)]
    assert simulation.makespan == (4 + 2 - 1) * 3
    assert simulation.busy == (12, 12)


def test_latency_delays_cross_stage_dependencies():
    assert simulate("FThenB", 2, 2, latency=0.5).makespan == simulate("FThenB", 2, 2).makespan + 1.0
    # ... not the hand-over between two chunks of one stage (the turn of ZBVPP's V)
    turn = simulate_jobs([[Job("forward0", 0)], [Job("forward0", 0), Job("forward1", 0)]], vpp=2,
                         latency=0.5, v_shape=True)
    assert [(t.start, t.end) for t in turn.timelines[1]] == [(1.5, 2.5), (2.5, 3.5)]


def test_deadlocking_job_lists_are_reported():
    stage0 = [Job("forward", 0), Job("backward", 0)]
    stage1 = [Job("backward", 0), Job("forward", 0)]  # backward before its own forward
    with pytest.raises(ScheduleError, match="deadlock: stage 0 waits at backward:0; stage 1 waits at backward:0"):
        simulate_jobs([stage0, stage1])


# -- Chrome trace ---------------------------------------------------------------------------------


def test_chrome_trace_is_valid_json_with_required_keys(tmp_path):
    events = trace_events(simulate("VPP", 2, 4, vpp=2))
    events.append(TraceEvent("all_reduce", 1, 0.0, 5.0, category="comm", args={"bytes": 64}))
    path = write_chrome_trace(events, tmp_path / "out" / "trace.json")
    data = json.loads(path.read_text())
    assert set(data) >= {"traceEvents"}
    complete = [e for e in data["traceEvents"] if e["ph"] == "X"]
    metadata = [e for e in data["traceEvents"] if e["ph"] == "M"]
    assert len(complete) == len(events) == 2 * 2 * 4 * 2 + 1
    for event in complete:
        assert {"name", "ph", "ts", "dur", "pid", "tid", "cat", "args"} <= set(event)
        assert event["dur"] >= 0 and event["ts"] >= 0
    assert {e["args"]["name"] for e in metadata} == {"rank 0", "rank 1"}
    assert any(e["name"] == "forward1:3" for e in complete)


def test_trace_event_rejects_negative_times():
    with pytest.raises(ValueError, match="duration"):
        TraceEvent("x", 0, 0.0, -1.0)
    assert chrome_trace([])["traceEvents"] == []


# -- executing job lists on thread ranks ------------------------------------------------------------


@pytest.mark.parametrize(
    "schedule, pp, m, vpp",
    [("FThenB", 2, 3, 1), ("1F1B", 2, 4, 1), ("1F1B", 4, 5, 1), ("Eager1F1B", 3, 6, 1),
     ("VPP", 2, 4, 2), ("VPP", 3, 6, 2), ("VPP", 2, 3, 3)],
)
def test_job_lists_run_on_thread_ranks_with_keyed_messages(schedule, pp, m, vpp):
    """Run every stage's job list with blocking receives: a forward adds 1, a backward adds 1 to
    the gradient. Each stage checks every value it receives, so a swapped or lost message, or a
    job list that deadlocks, fails the test."""
    import numpy as np

    from rulepass.runtime.comm.local import run_ranks

    last = pp * vpp - 1

    def stage_body(comm):
        stage, outputs, inbox = comm.rank, {}, {}
        for job in job_list(schedule, pp, stage, m, vpp):
            virtual = job.chunk * pp + stage
            before, after = p2p_messages(schedule, job, stage, pp, vpp)
            for message in before:
                inbox[message.key] = comm.recv(message.peer, message.key, (1,), "float64")
            if job.kind == "forward":
                x = inbox.pop(("forward", virtual - 1, job.micro_batch), np.array([float(job.micro_batch)]))
                assert x[0] == job.micro_batch + virtual, (job, x)
                outputs[("forward", virtual, job.micro_batch)] = x + 1
            elif job.kind == "backward":
                y = outputs[("forward", virtual, job.micro_batch)]
                g = y if virtual == last else inbox.pop(("backward", virtual + 1, job.micro_batch))
                assert g[0] == job.micro_batch + last + 1 + (last - virtual), (job, g)
                outputs[("backward", virtual, job.micro_batch)] = g + 1
            for message in after:
                comm.send(outputs[message.key], message.peer, message.key)
        return sorted(k for k in outputs if k[0] == "backward")

    results = run_ranks(pp, stage_body, timeout=20)
    for keys in results:
        assert len(keys) == m * vpp


def test_p2p_messages_of_vpp_edges():
    # pp=2, vpp=2, stage 0 chunk 1 is virtual stage 2: it receives from stage 1 (virtual 1).
    before, after = p2p_messages("VPP", Job("recv_forward1", 3), 0, 2, 2)
    assert before == [Message("recv", 1, ("forward", 1, 3))] and after == []
    before, after = p2p_messages("VPP", Job("forward1", 3), 0, 2, 2)
    assert before == [] and after == [Message("send", 1, ("forward", 2, 3))]
    # FThenB has no separate recv/send jobs: the forward receives, the backward sends.
    before, after = p2p_messages("FThenB", Job("backward", 0), 1, 2)
    assert before == [] and after == [Message("send", 0, ("backward", 1, 0))]
