"""The `mpi` transport: one rank per process, through mpi4py (MPICH or Open MPI).

Process groups become MPI sub-communicators. They must be created in the same order on every rank,
so `MpiCommunicator` creates all groups of the program's ring table up front with `Comm.Split`
(collective over the whole world, groups sorted), and any group first met later with
`Comm.Create_group` (collective over its members only). Point-to-point messages use tagged
non-blocking sends on a private duplicate of COMM_WORLD; the tag is derived from the message key
(`key_to_tag`), so MPI matches by key, never by arrival order.

`run_mpi(fn)` runs one rank and turns any exception into a printed error and
`MPI.COMM_WORLD.Abort(1)`, so the other processes never hang.

No wait is unbounded: every collective is non-blocking (`Iallreduce`, ...) and every receive
probes, polled until `timeout` seconds (default 60, as the local backend; `RULEPASS_COMM_TIMEOUT`
or the constructor's `timeout` change it). A rank that runs out raises `CommTimeoutError` naming
the ranks that did not arrive: the peer of a message, or, for a collective, the members that did
not answer the "arrived" notice the waiting members send each other then. `run_mpi` then aborts
the job, so a stopped (SIGSTOP) or dead peer ends it within about `timeout` seconds. Setting a
communicator up is bounded too (`wait_for_every_rank` before `Dup` and `Split`).
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from rulepass.engine.errors import RulepassError
from rulepass.runtime.comm.collectives import (CommTimeoutError, CommunicationError, Communicator,
                                               comm_timeout, key_to_tag)

__all__ = ["MpiCommunicator", "ReportedOnRankZero", "agreed", "mpi_module", "run_mpi",
           "wait_for_every_rank"]

_MPI_OPS = {"sum": "SUM", "avg": "SUM", "max": "MAX", "min": "MIN", "prod": "PROD"}

#: seconds the members that timed out wait for each other's "arrived" notice
_NOTICE_GRACE_S = 2.0
#: seconds a failing rank waits, its message written, before it aborts the job (the launcher
#: must forward the message first)
ABORT_GRACE_S = 1.0


def mpi_module():
    try:
        from mpi4py import MPI
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise CommunicationError(
            "the mpi backend needs mpi4py: pip install 'rulepass[mpi]' and start under mpiexec"
        ) from error
    return MPI


def wait_for_every_rank(world: Any, timeout: float, what: str = "set up the communicator"
                        ) -> None:
    """Return once every rank of ``world`` has reached this call, or raise after ``timeout``
    seconds naming those that did not: the collectives that set a communicator up (``Dup``,
    ``Split``) block without a bound, so a rank stopped (SIGSTOP) before them hung the job
    forever. Each rank sends every other a small "arrived" message and polls for theirs.

    Raises:
        CommTimeoutError: naming the ranks that did not arrive and this rank, which waited.
    """
    rank, size = world.Get_rank(), world.Get_size()
    if size == 1:
        return
    others = [r for r in range(size) if r != rank]
    requests, heard = _exchange_notices(world, others, key_to_tag(("arrived", what)), rank,
                                        timeout)
    if len(heard) < len(others):
        raise CommTimeoutError(f"waited {timeout:g} s for every rank to {what}", rank,
                               [r for r in others if r not in heard])
    for request in requests:  # every peer has arrived: its receive matches ours at once
        request.Wait()


def _exchange_notices(comm: Any, others: list[int], tag: int, value: int, seconds: float
                      ) -> tuple[list, set[int]]:
    """Send each of ``others`` a one-integer "arrived" notice (``value``) on ``tag`` and
    receive theirs, polling for up to ``seconds``. Returns (the send requests, the ranks
    heard from)."""
    notice = np.array([value], dtype=np.int64)
    requests = [comm.Isend(notice, dest=r, tag=tag) for r in others]
    heard: set[int] = set()
    deadline = time.monotonic() + seconds
    pause = 0.0
    while True:
        for r in others:
            if r not in heard and comm.Iprobe(source=r, tag=tag):
                comm.Recv(np.empty(1, dtype=np.int64), source=r, tag=tag)
                heard.add(r)
        if len(heard) == len(others) or time.monotonic() > deadline:
            return requests, heard
        time.sleep(pause)
        pause = min(pause * 2 or 1e-5, 1e-3)


class ReportedOnRankZero(RulepassError):
    """This rank's error (or another rank's) was reported by rank 0: the CLI exits 1 without
    printing it again (under mpiexec every rank prints to the same terminal)."""

    kind = "error"
    reported_elsewhere = True
    #: the class of the error rank 0 reports (its exit status is this rank's too)
    like: type = RulepassError


class RanksFailed(RulepassError):
    """What some ranks hit while setting up a run, one line per distinct message, each naming
    its ranks (the messages say their own kind and place)."""

    def headline(self) -> str:
        """The lines as they are."""
        return self.message


def agreed(fn: Callable[[], Any], world: Any = None, timeout: float | None = None,
           errors: tuple = (RulepassError,)) -> Any:
    """``fn()`` on every rank of ``world``, with one report of what failed: when ``fn`` raised a
    project error (one of ``errors``: the command line adds its usage errors) on any rank,
    rank 0 raises one error whose message holds each distinct message
    once (naming the ranks that hit it when not all did), and the other ranks raise
    :class:`ReportedOnRankZero`. For the steps every rank runs alike before training (reading
    the example, compiling): each printed the same error, once per rank.

    Raises:
        RulepassError: as described; CommTimeoutError when a rank never gets there.
    """
    MPI = mpi_module()
    world = MPI.COMM_WORLD if world is None else world
    error, result = None, None
    try:
        result = fn()
    except errors as e:
        error = e
    if world.Get_size() == 1:
        if error is not None:
            raise error
        return result
    wait_for_every_rank(world, comm_timeout(timeout), "finish setting up the run")
    # (message, the kind of error: the index in `errors` of the first class it is) per rank
    gathered = world.allgather(None if error is None else (
        str(error), next(i for i, kind in enumerate(errors) if isinstance(error, kind))))
    if all(item is None for item in gathered):
        return result
    texts = [None if item is None else item[0] for item in gathered]
    alike = len(set(gathered)) == 1  # every rank hit the same error: rank 0 raises its own
    if world.Get_rank() != 0:
        reported = ReportedOnRankZero("reported by rank 0")
        # exit as rank 0 will: with the status of its error when every rank hit that one
        reported.like = errors[gathered[0][1]] if alike else RulepassError
        raise reported
    if alike:  # then rank 0 hit it too
        raise error  # every rank hit the same: rank 0's own, once
    ranks_of: dict[str, list[int]] = {}
    for rank, text in enumerate(texts):
        if text is not None:
            ranks_of.setdefault(text, []).append(rank)
    lines = [text if len(ranks) == len(texts) else
             f"[rank{'s' if len(ranks) > 1 else ''} {', '.join(map(str, ranks))}] {text}"
             for text, ranks in ranks_of.items()]
    raise RanksFailed("\n".join(lines))


class MpiCommunicator(Communicator):
    """This process's rank in an MPI world; see `Communicator` for the ops.

    `groups`: the program's process groups (tuples of global ranks, e.g. the values of its
    ring_id -> ranks table); every rank must pass the same groups, since creating them is
    collective over the world. `comm`: the world communicator (default COMM_WORLD); it is
    duplicated so this object's messages never meet other traffic. Arrays are NumPy arrays.
    """

    def __init__(self, groups: Iterable[Iterable[int]] = (), comm: Any = None,
                 timeout: float | None = None):
        MPI = mpi_module()
        self._MPI = MPI
        self.timeout = comm_timeout(timeout)
        self._calls: dict[tuple[int, ...], int] = defaultdict(int)
        world = MPI.COMM_WORLD if comm is None else comm
        super().__init__(world.Get_rank(), world.Get_size())
        wait_for_every_rank(world, self.timeout)  # Dup and Split below wait without a bound
        self._comm = world.Dup()
        self._subcomms: dict[tuple[int, ...], Any] = {}
        self._pending: list[tuple[Any, np.ndarray]] = []
        self._tags: dict[tuple[int, int], dict[int, Hashable]] = {}
        for group in sorted({tuple(int(r) for r in g) for g in groups}):
            self._split(group)

    def _split(self, group: tuple[int, ...]) -> None:
        # Collective over the world: ranks outside the group take part with MPI.UNDEFINED.
        member = self.rank in group
        color = 0 if member else self._MPI.UNDEFINED
        key = group.index(self.rank) if member else 0
        sub = self._comm.Split(color, key)
        if member and len(group) > 1:
            self._subcomms[group] = sub

    def _subcomm(self, group: tuple[int, ...]) -> Any:
        sub = self._subcomms.get(group)
        if sub is None:
            # A group that was not declared up front: only its members create it, with a tag
            # derived from the group so that two groups created concurrently do not interfere.
            mpi_group = self._comm.Get_group().Incl(list(group))
            sub = self._comm.Create_group(mpi_group, key_to_tag(("group",) + group))
            mpi_group.Free()
            self._subcomms[group] = sub
        return sub

    # -- bounded waits ------------------------------------------------------------------------

    def _poll(self, done: Callable[[], bool], what: str, missing: Callable[[], Iterable[int]]):
        """Until `done()`, polling (MPI progresses inside Test/Iprobe); after `timeout` s raise
        CommTimeoutError naming `missing()`."""
        if done():
            return
        deadline = time.monotonic() + self.timeout
        pause = 0.0
        while not done():
            if time.monotonic() > deadline:
                raise CommTimeoutError(f"waited {self.timeout:g} s for {what}", self.rank,
                                       missing())
            time.sleep(pause)
            pause = min(pause * 2 or 1e-5, 1e-3)

    def _collective(self, kind: str, group: tuple[int, ...], start: Callable[[Any], Any]):
        """Run a non-blocking collective `start(subcomm) -> request` on `group`, bounded."""
        call = self._calls[group]
        self._calls[group] += 1
        request = start(self._subcomm(group))
        self._poll(request.Test, f"{kind} #{call} on process group {group}",
                   lambda: self._absent(group, call))

    def _absent(self, group: tuple[int, ...], call: int) -> list[int]:
        """The members of `group` that never reached collective `call`: each member that timed
        out tells the others it arrived, then listens for their notices for a grace period."""
        others = [r for r in group if r != self.rank]
        requests, heard = _exchange_notices(self._comm, others,
                                            key_to_tag(("arrived",) + group + (call,)), call,
                                            min(self.timeout, _NOTICE_GRACE_S))
        del requests  # the job is about to end: the notices need not complete
        return [r for r in others if r not in heard]

    @staticmethod
    def _contiguous(x: Any) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(x))

    def _do_all_reduce(self, x, group, op):
        send = self._contiguous(x)
        result = np.empty_like(send)
        mpi_op = getattr(self._MPI, _MPI_OPS[op])
        self._collective("all_reduce", group, lambda c: c.Iallreduce(send, result, op=mpi_op))
        if op == "avg":
            result = result // len(group) if np.issubdtype(result.dtype, np.integer) else result / len(group)
        return result.astype(send.dtype, copy=False)

    def _do_all_gather(self, x, group):
        send = self._contiguous(x)
        result = np.empty((len(group) * send.shape[0],) + send.shape[1:], dtype=send.dtype)
        self._collective("all_gather", group, lambda c: c.Iallgather(send, result))
        return result

    def _do_reduce_scatter(self, x, group, op):
        send = self._contiguous(x)
        result = np.empty((send.shape[0] // len(group),) + send.shape[1:], dtype=send.dtype)
        mpi_op = getattr(self._MPI, _MPI_OPS[op])
        self._collective("reduce_scatter", group,
                         lambda c: c.Ireduce_scatter_block(send, result, op=mpi_op))
        if op == "avg":
            result = result // len(group) if np.issubdtype(result.dtype, np.integer) else result / len(group)
        return result.astype(send.dtype, copy=False)

    def _do_broadcast(self, x, group, root):
        buffer = np.array(x, copy=True, order="C")
        self._collective("broadcast", group, lambda c: c.Ibcast(buffer, root=group.index(root)))
        return buffer

    def _do_barrier(self, group):
        self._collective("barrier", group, lambda c: c.Ibarrier())

    def _tag(self, source: int, destination: int, key: Hashable) -> int:
        tag = key_to_tag(key)
        seen = self._tags.setdefault((source, destination), {})
        other = seen.setdefault(tag, key)
        if other != key:
            raise CommunicationError(
                f"message keys {other!r} and {key!r} map to the same MPI tag {tag}; rename one",
                self.rank,
            )
        return tag

    def _do_send(self, x: Any, peer: int, key: Hashable) -> None:
        buffer = np.array(x, copy=True, order="C")
        request = self._comm.Isend(buffer, dest=peer, tag=self._tag(self.rank, peer, key))
        # Keep the buffer alive until the send completes.
        self._pending.append((request, buffer))
        self._pending = [(r, b) for r, b in self._pending if not r.Test()]

    def _do_recv(self, peer: int, key: Hashable, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        tag = self._tag(peer, self.rank, key)
        status = self._MPI.Status()
        self._poll(lambda: self._comm.Iprobe(source=peer, tag=tag, status=status),
                   f"message {key!r} from rank {peer}", lambda: (peer,))
        expected = np.empty(shape, dtype=dtype)
        if status.Get_count(self._MPI.BYTE) != expected.nbytes:
            raise CommunicationError(
                f"message {key!r} from rank {peer} has {status.Get_count(self._MPI.BYTE)} bytes, "
                f"but recv expected {shape} {np.dtype(dtype)} ({expected.nbytes} bytes)",
                self.rank,
            )
        self._comm.Recv(expected, source=peer, tag=tag)
        return expected

    def wait_sends(self) -> None:
        """Block until every send posted by this rank has completed (call before exiting)."""
        for request, _ in self._pending:
            self._poll(request.Test, "a message this rank sent to be received", tuple)
        self._pending.clear()


def run_mpi(
    fn: Callable[[Communicator], Any],
    groups: Iterable[Iterable[int]] = (),
    communicator: Callable[..., Communicator] | None = None,
) -> Any:
    """Run `fn(comm)` as this process's rank; on any exception print it and abort the whole job.

    Creates `communicator(groups)` (default `MpiCommunicator`; pass `NcclCommunicator` for GPUs)
    over COMM_WORLD, calls `fn`, waits for outstanding sends and returns `fn`'s result. If `fn` (or setting up) raises, the traceback is
    printed on stderr prefixed with the rank, then `MPI.COMM_WORLD.Abort(1)` ends every process of
    the job with a non-zero exit code, so no peer waits forever on a message that will not come.
    """
    MPI = mpi_module()
    rank = MPI.COMM_WORLD.Get_rank()
    try:
        comm = (communicator or MpiCommunicator)(list(groups))
        result = fn(comm)
        comm.wait_sends()
        return result
    except BaseException as error:  # noqa: BLE001 - every failure must abort the job
        if isinstance(error, RulepassError):
            # the project's own errors say what and where in their message: no traceback
            text = f"{error}\n"
        else:  # a bug: its traceback, once (not the chain of what it was raised from)
            text = "".join(traceback.format_exception(type(error), error, error.__traceback__,
                                                      chain=False))
        sys.stderr.write("".join(f"[rank {rank}] {line}" for line in text.splitlines(True)))
        sys.stderr.write(f"[rank {rank}] aborting all ranks\n")
        sys.stderr.flush()
        # The launcher forwards our stderr through a pipe and stops reading it once the abort
        # reaches it: without a pause the message was lost about one run in ten under load.
        time.sleep(ABORT_GRACE_S)
        MPI.COMM_WORLD.Abort(1)
        # MPICH's Abort can return to the caller while the launcher tears the job down; a
        # re-raise would print the traceback a second time (mpi4py's runner prints it).
        os._exit(1)
