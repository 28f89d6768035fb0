"""`rulepass jobs` prints exactly one line of `type:micro_batch` tokens (docs/spec/cli.md)."""

import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "rulepass", "jobs", *args],
                          capture_output=True, text=True)


def test_jobs_prints_paddles_1f1b_list_for_stage_1():
    r = run("--schedule", "1F1B", "--pp", "2", "--stage", "1", "--micro-batches", "4")
    assert r.returncode == 0
    assert r.stdout == (
        "recv_forward:0 forward:0 backward:0 recv_forward:1 send_backward:0 forward:1 "
        "backward:1 recv_forward:2 send_backward:1 forward:2 backward:2 recv_forward:3 "
        "send_backward:2 forward:3 backward:3 send_backward:3 optimizer:0\n")


def test_jobs_impossible_configuration_exits_1_with_a_message():
    r = run("--schedule", "1F1B", "--pp", "4", "--stage", "0", "--micro-batches", "2")
    assert r.returncode == 1
    assert r.stdout == ""
    assert "micro-batches" in r.stderr and "Traceback" not in r.stderr


def test_jobs_unknown_schedule_is_a_usage_error():
    r = run("--schedule", "GPipe", "--pp", "2", "--stage", "0", "--micro-batches", "4")
    assert r.returncode == 2


def test_jobs_with_absurdly_many_micro_batches_is_refused_at_once():
    # breaker item 17: --micro-batches 100000000 ran for over a minute
    import pytest

    from rulepass.runtime.schedules import MAX_STAGE_JOBS, ScheduleError, job_list

    r = run("--schedule", "1F1B", "--pp", "2", "--stage", "0", "--micro-batches", "100000000")
    assert r.returncode == 1 and "at most 65536" in r.stderr and "Traceback" not in r.stderr
    assert len(job_list("FThenB", 2, 0, MAX_STAGE_JOBS)) > MAX_STAGE_JOBS
    with pytest.raises(ScheduleError, match="forward jobs per stage"):
        job_list("VPP", 2, 0, MAX_STAGE_JOBS, 2)
    with pytest.raises(ScheduleError, match="a pipeline has at most"):
        job_list("FThenB", 10**6, 0, 4)
