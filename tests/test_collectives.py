"""Collectives on the `local` transport (ranks as threads): every op, every reduction, sub-groups,
key matching of point-to-point messages, ring byte counts, and abort when a rank fails."""

import threading
import time

import numpy as np
import pytest

from rulepass.runtime.comm.collectives import (
    REDUCE_OPS,
    CommAbortedError,
    CommTimeoutError,
    CommunicationError,
    RankFailedError,
    key_to_tag,
    ring_bytes,
)
from rulepass.runtime.comm.local import LocalWorld, run_ranks


def rank_array(rank, shape=(2, 3), dtype="float64"):
    """A distinct, exactly representable array per rank."""
    return (np.arange(np.prod(shape)).reshape(shape) + 10 * rank + 1).astype(dtype)


REFERENCE = {
    "sum": lambda arrays: np.sum(arrays, axis=0),
    "max": lambda arrays: np.max(arrays, axis=0),
    "min": lambda arrays: np.min(arrays, axis=0),
    "prod": lambda arrays: np.prod(arrays, axis=0),
    "avg": lambda arrays: np.mean(arrays, axis=0),
}


@pytest.mark.parametrize("op", REDUCE_OPS)
def test_all_reduce_every_op_whole_world(op):
    results = run_ranks(4, lambda comm: comm.all_reduce(rank_array(comm.rank), (0, 1, 2, 3), op), timeout=10)
    expected = REFERENCE[op]([rank_array(r) for r in range(4)])
    for result in results:
        np.testing.assert_allclose(result, expected)
        assert result.dtype == np.float64


@pytest.mark.parametrize("op", REDUCE_OPS)
def test_reduce_scatter_every_op(op):
    group = (0, 1, 2)
    results = run_ranks(3, lambda comm: comm.reduce_scatter(rank_array(comm.rank, (6, 2)), group, op), timeout=10)
    full = REFERENCE[op]([rank_array(r, (6, 2)) for r in range(3)])
    for rank, result in enumerate(results):
        np.testing.assert_allclose(result, full[2 * rank : 2 * rank + 2])


def test_integer_avg_keeps_dtype():
    results = run_ranks(2, lambda comm: comm.all_reduce(np.array([3, 4], dtype="int32"), (0, 1), "avg"), timeout=10)
    assert results[0].dtype == np.int32
    np.testing.assert_array_equal(results[0], [3, 4])


def test_collectives_on_sub_groups_of_the_world():
    # A 2x2 mesh: data-parallel groups (0, 2), (1, 3) and model-parallel groups (0, 1), (2, 3).
    def body(comm):
        dp = (0, 2) if comm.rank % 2 == 0 else (1, 3)
        mp = (0, 1) if comm.rank < 2 else (2, 3)
        x = rank_array(comm.rank, (2, 2))
        return {
            "dp_sum": comm.all_reduce(x, dp, "sum"),
            "mp_gather": comm.all_gather(x, mp),
            "mp_bcast": comm.broadcast(x, mp, root=mp[1]),
            "dp_scatter": comm.reduce_scatter(x, dp),
        }

    results = run_ranks(4, body, timeout=10)
    x = [rank_array(r, (2, 2)) for r in range(4)]
    np.testing.assert_array_equal(results[0]["dp_sum"], x[0] + x[2])
    np.testing.assert_array_equal(results[3]["dp_sum"], x[1] + x[3])
    np.testing.assert_array_equal(results[1]["mp_gather"], np.concatenate([x[0], x[1]]))
    np.testing.assert_array_equal(results[2]["mp_gather"], np.concatenate([x[2], x[3]]))
    np.testing.assert_array_equal(results[0]["mp_bcast"], x[1])
    np.testing.assert_array_equal(results[2]["mp_bcast"], x[3])
    np.testing.assert_array_equal(results[2]["dp_scatter"], (x[0] + x[2])[1:])


def test_all_gather_follows_group_order_not_rank_order():
    results = run_ranks(3, lambda comm: comm.all_gather(np.full((1,), comm.rank), (2, 0, 1)), timeout=10)
    for result in results:
        np.testing.assert_array_equal(result, [2, 0, 1])


def test_one_rank_group_copies_and_moves_nothing():
    def body(comm):
        x = rank_array(comm.rank)
        y = comm.all_reduce(x, (comm.rank,), "sum")
        assert y is not x
        np.testing.assert_array_equal(y, x)
        comm.all_gather(x, (comm.rank,))
        return comm.stats

    stats = run_ranks(2, body, timeout=10)
    assert stats[0]["all_reduce"] == {"calls": 1, "bytes": 0.0}
    assert stats[0]["all_gather"] == {"calls": 1, "bytes": 0.0}


def test_pp2_forward_and_backward_messages_are_matched_by_key_not_arrival():
    """pp2: stage 0 sends activation(mb 1) while stage 1 sends grad(mb 0); both ranks are each
    other's previous and next stage. Messages are sent in one order and received in the other."""
    activation = np.full((2, 2), 7.0)
    gradient = np.full((2, 2), -3.0)

    def body(comm):
        peer = 1 - comm.rank
        if comm.rank == 0:
            comm.send(activation, peer, ("forward", 0, 1))
            comm.send(activation * 2, peer, ("forward", 0, 2))
            grad = comm.recv(peer, ("backward", 0, 0), (2, 2), "float64")
            return grad
        comm.send(gradient, peer, ("backward", 0, 0))
        # Receive the later micro-batch first: keys, not arrival order, decide.
        second = comm.recv(peer, ("forward", 0, 2), (2, 2), "float64")
        first = comm.recv(peer, ("forward", 0, 1), (2, 2), "float64")
        return first, second

    grad, (first, second) = run_ranks(2, body, timeout=10)
    np.testing.assert_array_equal(grad, gradient)
    np.testing.assert_array_equal(first, activation)
    np.testing.assert_array_equal(second, activation * 2)


def test_same_key_twice_is_first_in_first_out():
    def body(comm):
        if comm.rank == 0:
            comm.send(np.array([1.0]), 1, "k")
            comm.send(np.array([2.0]), 1, "k")
            return None
        return [comm.recv(0, "k", (1,), "float64")[0] for _ in range(2)]

    assert run_ranks(2, body, timeout=10)[1] == [1.0, 2.0]


def test_recv_shape_mismatch_is_reported():
    def body(comm):
        if comm.rank == 0:
            comm.send(np.zeros((2, 3)), 1, ("forward", 0, 0))
        else:
            comm.recv(0, ("forward", 0, 0), (3, 2), "float64")

    with pytest.raises(RankFailedError, match=r"rank 1.*\(2, 3\).*expected \(3, 2\)"):
        run_ranks(2, body, timeout=10)


def test_send_does_not_alias_the_callers_array():
    def body(comm):
        if comm.rank == 0:
            x = np.ones(3)
            comm.send(x, 1, "k")
            x[:] = 5
            return None
        return comm.recv(0, "k", (3,), "float64")

    np.testing.assert_array_equal(run_ranks(2, body, timeout=10)[1], np.ones(3))


def test_ring_byte_counts():
    n, shard = 4, np.zeros((2, 8), dtype="float32")  # 64 bytes

    def body(comm):
        world = tuple(range(n))
        comm.all_reduce(shard, world)
        comm.all_gather(shard, world)
        comm.reduce_scatter(np.zeros((4, 8), dtype="float32"), world)  # 128 bytes in
        comm.broadcast(shard, world, root=0)
        comm.barrier()
        if comm.rank == 0:
            comm.send(shard, 1, "k")
        if comm.rank == 1:
            comm.recv(0, "k", (2, 8), "float32")
        return comm.stats

    stats = run_ranks(n, body, timeout=10)
    assert stats[0]["all_reduce"] == {"calls": 1, "bytes": 2 * 3 / 4 * 64}
    assert stats[0]["all_gather"] == {"calls": 1, "bytes": 3 / 4 * (4 * 64)}
    assert stats[0]["reduce_scatter"] == {"calls": 1, "bytes": 3 / 4 * 128}
    assert stats[0]["broadcast"] == {"calls": 1, "bytes": 64}
    assert stats[0]["barrier"] == {"calls": 1, "bytes": 0}
    assert stats[0]["send"] == {"calls": 1, "bytes": 64}
    assert "recv" not in stats[0]
    assert stats[1]["recv"] == {"calls": 1, "bytes": 64}


def test_ring_bytes_formulas():
    assert ring_bytes("all_reduce", 100, 1) == 0
    assert ring_bytes("all_reduce", 100, 2) == 100
    assert ring_bytes("all_gather", 100, 8) == 700
    assert ring_bytes("reduce_scatter", 800, 8) == 700
    assert ring_bytes("send", 100, 2) == 100
    with pytest.raises(ValueError):
        ring_bytes("all_to_all", 1, 2)


def test_failing_rank_aborts_every_rank_quickly():
    """Rank 2 raises; ranks 0, 1, 3 wait in an all_reduce and a recv that will never complete.
    Everything must stop well before the 30 s wait timeout, with rank 2's error."""

    def body(comm):
        if comm.rank == 2:
            raise ValueError("boom in the kernel")
        if comm.rank == 3:
            return comm.recv(2, "never", (1,), "float64")
        return comm.all_reduce(np.ones(2), (0, 1, 2), "sum")

    start = time.monotonic()
    with pytest.raises(RankFailedError, match="rank 2 failed: ValueError: boom in the kernel") as info:
        run_ranks(4, body, timeout=30)
    assert time.monotonic() - start < 3
    assert info.value.rank == 2
    assert isinstance(info.value.__cause__, ValueError)


def test_waiting_ranks_see_an_abort_error():
    world = LocalWorld(2, timeout=30)
    world.abort(1, RuntimeError("dead"))
    with pytest.raises(CommAbortedError, match="rank 1 failed"):
        world[0].recv(1, "k", (1,), "float64")


def test_missing_peer_times_out_naming_what_it_waited_for():
    world = LocalWorld(2, timeout=0.2)
    # issue 18: the message blames the rank that did not arrive, not the one that waited
    with pytest.raises(CommTimeoutError, match=r"^runtime error: rank 1 did not arrive: waited 0.2 s for "
                                               r"all_reduce #0 on process group \(0, 1\) "
                                               r"\(rank 0 waited\)") as info:
        world[0].all_reduce(np.ones(1), (0, 1))
    assert info.value.missing == (1,) and info.value.rank == 0
    with pytest.raises(CommTimeoutError, match=r"rank 1 did not arrive: .*message 'k'"):
        world[0].recv(1, "k", (1,), "float64")


def test_mismatched_collectives_are_reported():
    def body(comm):
        if comm.rank == 0:
            return comm.all_reduce(np.ones(2), (0, 1))
        return comm.all_gather(np.ones(2), (0, 1))

    with pytest.raises(RankFailedError, match="same collectives in the same order"):
        run_ranks(2, body, timeout=10)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda c: c.all_reduce(np.ones(1), (0, 1), "mean"), "unknown reduce op"),
        (lambda c: c.all_reduce(np.ones(1), (1, 2)), "not a member"),
        (lambda c: c.all_reduce(np.ones(1), (0, 0)), "repeats a rank"),
        (lambda c: c.all_reduce(np.ones(1), (0, 5)), "outside the world"),
        (lambda c: c.reduce_scatter(np.ones(3), (0, 1)), "divisible by 2"),
        (lambda c: c.broadcast(np.ones(3), (0, 1), root=2), "root 2 is not in"),
        (lambda c: c.send(np.ones(1), 0, "k"), "must be another rank"),
        (lambda c: c.send(np.ones(1), 1, object()), "message key"),
    ],
)
def test_misuse_raises_clear_errors(call, message):
    world = LocalWorld(3, timeout=1)
    with pytest.raises(CommunicationError, match=message):
        call(world[0])


def test_key_to_tag_is_stable_and_in_range():
    assert key_to_tag(("forward", 0, 1)) == key_to_tag(("forward", 0, 1))
    assert 1 <= key_to_tag(("backward", 3, 17)) <= 32000


def test_run_ranks_timeout_from_the_environment(monkeypatch):
    # `rulepass run --comm-timeout S` sets RULEPASS_COMM_TIMEOUT for every backend
    monkeypatch.setenv("RULEPASS_COMM_TIMEOUT", "0.3")
    released = threading.Event()

    def body(comm):
        if comm.rank == 1:
            released.wait(20)  # stuck outside communication until the test ends
            return None
        return comm.recv(1, "k", (1,), "float64")

    start = time.monotonic()
    try:
        with pytest.raises(CommunicationError, match="rank 1"):
            run_ranks(2, body)
        # far below the 20 s the stuck rank would take: the 0.3 s timeout ended the run (the
        # margin is wide, as a loaded CI machine can delay the threads by a second or more)
        assert time.monotonic() - start < 10
    finally:
        released.set()


def test_cli_comm_timeout_must_be_positive(capsys):
    from rulepass.cli.main import main

    import pytest

    # wrong usage (exit 2, as argparse's own errors): the command line is wrong, not the example
    for value in ("0", "-5", "nan", "inf"):
        with pytest.raises(SystemExit) as exit_:
            main(["run", "mp2", "--comm-timeout", value])
        assert exit_.value.code == 2
        assert "--comm-timeout: must be a positive number of seconds" in capsys.readouterr().err
