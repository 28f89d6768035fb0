"""The `mpi` transport: one rank per process, through mpi4py (MPICH or Open MPI).

Process groups become MPI sub-communicators. They must be created in the same order on every rank,
so `MpiCommunicator` creates all groups of the program's ring table up front with `Comm.Split`
(collective over the whole world, groups sorted), and any group first met later with
`Comm.Create_group` (collective over its members only). Point-to-point messages use tagged
non-blocking sends on a private duplicate of COMM_WORLD; the tag is derived from the message key
(`key_to_tag`), so MPI matches by key, never by arrival order.

`run_mpi(fn)` runs one rank and turns any exception into a printed error and
`MPI.COMM_WORLD.Abort(1)`, so the other processes never hang.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from rulepass.runtime.comm.collectives import CommunicationError, Communicator, key_to_tag

__all__ = ["MpiCommunicator", "mpi_module", "run_mpi"]

_MPI_OPS = {"sum": "SUM", "avg": "SUM", "max": "MAX", "min": "MIN", "prod": "PROD"}


def mpi_module():
    try:
        from mpi4py import MPI
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise CommunicationError(
            "the mpi backend needs mpi4py: pip install 'rulepass[mpi]' and start under mpiexec"
        ) from error
    return MPI


class MpiCommunicator(Communicator):
    """This process's rank in an MPI world; see `Communicator` for the ops.

    `groups`: the program's process groups (tuples of global ranks, e.g. the values of its
    ring_id -> ranks table); every rank must pass the same groups, since creating them is
    collective over the world. `comm`: the world communicator (default COMM_WORLD); it is
    duplicated so this object's messages never meet other traffic. Arrays are NumPy arrays.
    """

    def __init__(self, groups: Iterable[Iterable[int]] = (), comm: Any = None):
        MPI = mpi_module()
        self._MPI = MPI
        world = MPI.COMM_WORLD if comm is None else comm
        super().__init__(world.Get_rank(), world.Get_size())
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

    @staticmethod
    def _contiguous(x: Any) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(x))

    def _do_all_reduce(self, x, group, op):
        send = self._contiguous(x)
        result = np.empty_like(send)
        self._subcomm(group).Allreduce(send, result, op=getattr(self._MPI, _MPI_OPS[op]))
        if op == "avg":
            result = result // len(group) if np.issubdtype(result.dtype, np.integer) else result / len(group)
        return result.astype(send.dtype, copy=False)

    def _do_all_gather(self, x, group):
        send = self._contiguous(x)
        result = np.empty((len(group) * send.shape[0],) + send.shape[1:], dtype=send.dtype)
        self._subcomm(group).Allgather(send, result)
        return result

    def _do_reduce_scatter(self, x, group, op):
        send = self._contiguous(x)
        result = np.empty((send.shape[0] // len(group),) + send.shape[1:], dtype=send.dtype)
        self._subcomm(group).Reduce_scatter_block(send, result, op=getattr(self._MPI, _MPI_OPS[op]))
        if op == "avg":
            result = result // len(group) if np.issubdtype(result.dtype, np.integer) else result / len(group)
        return result.astype(send.dtype, copy=False)

    def _do_broadcast(self, x, group, root):
        buffer = np.array(x, copy=True, order="C")
        self._subcomm(group).Bcast(buffer, root=group.index(root))
        return buffer

    def _do_barrier(self, group):
        self._subcomm(group).Barrier()

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
        self._comm.Probe(source=peer, tag=tag, status=status)
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
            request.Wait()
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
        lines = traceback.format_exception(type(error), error, error.__traceback__)
        sys.stderr.write("".join(f"[rank {rank}] {line}" for line in "".join(lines).splitlines(True)))
        sys.stderr.write(f"[rank {rank}] error: {type(error).__name__}: {error}; aborting all ranks\n")
        sys.stderr.flush()
        MPI.COMM_WORLD.Abort(1)
        raise  # unreachable: Abort does not return
