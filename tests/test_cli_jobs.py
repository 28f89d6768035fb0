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
