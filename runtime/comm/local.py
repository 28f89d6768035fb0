"""The `local` transport: every rank is a thread of one process, sharing a `LocalWorld`.

Used by tests and by `rulepass run --backend local`. Collectives meet at a rendezvous slot per
(process group, call number); point-to-point messages go through mailboxes keyed by
(source, destination, key). Every wait polls a shared abort flag and has a deadline, so when one rank
raises, the others stop with `CommAbortedError` instead of hanging, and `run_ranks` re-raises the
failing rank's error as `RankFailedError`.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from array_api_compat import array_namespace

from rulepass.runtime.comm.collectives import (
    CommAbortedError,
    CommTimeoutError,
    CommunicationError,
    Communicator,
    RankFailedError,
    comm_timeout,
    reduce_arrays,
)

__all__ = ["LocalWorld", "LocalCommunicator", "run_ranks"]

_POLL_S = 0.05  # how often a waiting rank re-checks the abort flag, in seconds


class _Slot:
    """One collective call in progress: what each member contributed."""

    def __init__(self, kind: str, detail: Any, size: int):
        self.kind = kind
        self.detail = detail
        self.inputs: dict[int, Any] = {}
        self.readers_left = size


class LocalWorld:
    """Shared state of `world_size` thread ranks: rendezvous slots, mailboxes and the abort flag.

    `timeout` (seconds) bounds every single wait for a peer; a wait that runs out raises
    `CommTimeoutError` naming what it waited for. `communicators[r]` (or `world[r]`) is rank r's
    `LocalCommunicator`; hand each to the thread running that rank.
    """

    def __init__(self, world_size: int, timeout: float = 60.0):
        if world_size < 1:
            raise ValueError(f"world_size must be at least 1, got {world_size}")
        self.world_size = world_size
        self.timeout = timeout
        self._cond = threading.Condition()
        self._slots: dict[tuple[tuple[int, ...], int], _Slot] = {}
        self._mailboxes: dict[tuple[int, int, Hashable], deque] = defaultdict(deque)
        self.failure: tuple[int | None, BaseException] | None = None
        self.communicators = [LocalCommunicator(self, r) for r in range(world_size)]

    def __getitem__(self, rank: int) -> LocalCommunicator:
        return self.communicators[rank]

    def abort(self, rank: int | None, error: BaseException) -> None:
        """Record that `rank` failed with `error` and wake every waiting rank so it stops.

        Only the first failure is kept: the errors of ranks that stopped because of it are
        consequences, not causes.
        """
        with self._cond:
            if self.failure is None:
                self.failure = (rank, error)
            self._cond.notify_all()

    def _wait(self, ready: Callable[[], bool], rank: int, what: str,
              missing: Callable[[], Iterable[int]] = tuple) -> None:
        """Block (holding the condition) until `ready()`; raise on abort or after `timeout` s,
        naming the ranks `missing()` returns then (those that did not arrive)."""
        deadline = time.monotonic() + self.timeout
        while not ready():
            if self.failure is not None:
                failed_rank, error = self.failure
                raise CommAbortedError(
                    f"stopped while waiting for {what}: rank {failed_rank} failed "
                    f"({type(error).__name__}: {error})",
                    rank,
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CommTimeoutError(f"waited {self.timeout:g} s for {what}", rank, missing())
            self._cond.wait(min(remaining, _POLL_S))


class LocalCommunicator(Communicator):
    """Rank `rank` of a `LocalWorld`; see `Communicator` for the ops. Arrays: any array-API array
    (NumPy in practice); inputs are copied when contributed, so callers may reuse them."""

    def __init__(self, world: LocalWorld, rank: int):
        super().__init__(rank, world.world_size)
        self.world = world
        self._calls: dict[tuple[int, ...], int] = defaultdict(int)

    def _rendezvous(self, kind: str, group: tuple[int, ...], payload: Any, detail: Any = None) -> list[Any]:
        """Contribute `payload` to this group's next collective; return all payloads in group order.

        Raises CommunicationError when members disagree on the kind of the call or its `detail`
        (op, root), which means the ranks issue collectives in different orders.
        """
        world = self.world
        with world._cond:
            call = self._calls[group]
            self._calls[group] += 1
            slot = world._slots.setdefault((group, call), _Slot(kind, detail, len(group)))
            if (slot.kind, slot.detail) != (kind, detail):
                raise CommunicationError(
                    f"collective #{call} on process group {group}: this rank called {kind}"
                    f"{_detail(detail)} but another member called {slot.kind}{_detail(slot.detail)}; "
                    "every member must issue the same collectives in the same order",
                    self.rank,
                )
            slot.inputs[self.rank] = payload
            world._cond.notify_all()
            world._wait(
                lambda: len(slot.inputs) == len(group),
                self.rank,
                f"{kind} #{call} on process group {group}",
                lambda: set(group) - set(slot.inputs),
            )
            inputs = [slot.inputs[r] for r in group]
            slot.readers_left -= 1
            if slot.readers_left == 0:
                del world._slots[(group, call)]
            return inputs

    def _contribute(self, kind: str, x: Any, group: tuple[int, ...], detail: Any = None) -> tuple[Any, list[Any]]:
        xp = array_namespace(x)
        inputs = self._rendezvous(kind, group, xp.asarray(x, copy=True), detail)
        shapes = {tuple(a.shape) for a in inputs}
        dtypes = {str(a.dtype) for a in inputs}
        if len(shapes) > 1 or len(dtypes) > 1:
            raise CommunicationError(
                f"{kind} on process group {group}: members passed different arrays "
                f"({', '.join(f'rank {r}: {tuple(a.shape)} {a.dtype}' for r, a in zip(group, inputs))})",
                self.rank,
            )
        return xp, inputs

    def _do_all_reduce(self, x, group, op):
        xp, inputs = self._contribute("all_reduce", x, group, op)
        return reduce_arrays(inputs, op, xp)

    def _do_all_gather(self, x, group):
        xp, inputs = self._contribute("all_gather", x, group)
        return xp.concat(inputs, axis=0)

    def _do_reduce_scatter(self, x, group, op):
        xp, inputs = self._contribute("reduce_scatter", x, group, op)
        reduced = reduce_arrays(inputs, op, xp)
        shard = reduced.shape[0] // len(group)
        index = group.index(self.rank)
        return xp.asarray(reduced[index * shard : (index + 1) * shard], copy=True)

    def _do_broadcast(self, x, group, root):
        xp, inputs = self._contribute("broadcast", x, group, root)
        return xp.asarray(inputs[group.index(root)], copy=True)

    def _do_barrier(self, group):
        self._rendezvous("barrier", group, None)

    def _do_send(self, x: Any, peer: int, key: Hashable) -> None:
        xp = array_namespace(x)
        world = self.world
        with world._cond:
            world._mailboxes[(self.rank, peer, key)].append(xp.asarray(x, copy=True))
            world._cond.notify_all()

    def _do_recv(self, peer: int, key: Hashable, shape: tuple[int, ...], dtype: Any) -> Any:
        world = self.world
        box = (peer, self.rank, key)
        with world._cond:
            world._wait(lambda: bool(world._mailboxes.get(box)), self.rank,
                        f"message {key!r} from rank {peer}", lambda: (peer,))
            message = world._mailboxes[box].popleft()
            if not world._mailboxes[box]:
                del world._mailboxes[box]
        if tuple(message.shape) != shape or message.dtype != dtype:
            raise CommunicationError(
                f"message {key!r} from rank {peer} is {tuple(message.shape)} {message.dtype}, "
                f"but recv expected {shape} {dtype}",
                self.rank,
            )
        return message


def _detail(detail: Any) -> str:
    return "" if detail is None else f"({detail})"


def run_ranks(world_size: int, fn: Callable[[Communicator], Any],
              timeout: float | None = None) -> list[Any]:
    """Run `fn(comm)` for every rank of a fresh `LocalWorld`, one thread per rank.

    Returns the per-rank results, index = rank. `timeout` (seconds) bounds both each wait for a peer
    and the whole run. When a rank raises, every other rank stops at its next communication wait
    (within `_POLL_S` s) and this raises `RankFailedError` naming the first failing rank, chained to
    its exception. Raises `CommTimeoutError` when some rank has not finished after `timeout` s and
    a margin of min(`timeout`, 1) s, so that a wait's own bound names the stuck peer first (e.g. a
    rank stuck outside communication); such threads are daemons and are left behind.
    None: `RULEPASS_COMM_TIMEOUT`, else 60 s (`collectives.comm_timeout`).
    """
    timeout = comm_timeout(timeout)
    world = LocalWorld(world_size, timeout=timeout)
    results: list[Any] = [None] * world_size
    finished: set[int] = set()

    def body(rank: int) -> None:
        try:
            results[rank] = fn(world.communicators[rank])
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            world.abort(rank, error)
        finally:
            with world._cond:
                finished.add(rank)
                world._cond.notify_all()

    threads = [threading.Thread(target=body, args=(r,), name=f"rank-{r}", daemon=True) for r in range(world_size)]
    for thread in threads:
        thread.start()
    # The whole run's bound comes after a wait's own: a rank waiting for a stuck peer then fails
    # first, naming the peer (under load a waiting thread could start late and the whole run's
    # bound named every rank instead).
    deadline = time.monotonic() + timeout
    bound = deadline + min(timeout, 1.0)
    with world._cond:
        while len(finished) < world_size and world.failure is None:
            remaining = bound - time.monotonic()
            if remaining <= 0:
                break
            world._cond.wait(min(remaining, _POLL_S))
        if world.failure is not None:
            # Give the other ranks a moment to notice the abort flag and unwind.
            grace = time.monotonic() + min(5.0, max(0.0, deadline - time.monotonic()) + 1.0)
            while len(finished) < world_size and time.monotonic() < grace:
                world._cond.wait(_POLL_S)
    if world.failure is not None:
        rank, error = world.failure
        if rank is None:
            raise error
        raise RankFailedError(rank, error) from error
    missing = sorted(set(range(world_size)) - finished)
    if missing:
        world.abort(None, CommTimeoutError(f"ranks {missing} did not finish within {timeout:g} s"))
        raise CommTimeoutError(f"ranks {missing} did not finish within {timeout:g} s")
    return results
