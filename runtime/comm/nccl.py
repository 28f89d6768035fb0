"""The `nccl` transport: one rank per process and GPU, CuPy arrays, `cupy.cuda.nccl`.

MPI (mpi4py) starts the processes and carries the NCCL unique ids: for every process group the member
at position 0 creates an id and broadcasts it over the group's MPI sub-communicator, then every member
joins one NCCL communicator per group. Groups are created up front, in sorted order, on every rank.

NCCL point-to-point has no tags: messages between two ranks match in issue order. To match by key
anyway (pp2: the forward activation and the backward gradient between the same two stages), every
send first posts a small MPI header (key, shape, dtype) with the key's tag, followed by the NCCL send.
A `recv` reads the headers from its peer in order and receives every NCCL message in that order,
keeping the ones for other keys in a stash until they are asked for. Sends and receives run on two
dedicated CUDA streams so that two ranks sending to each other at the same time cannot deadlock.

CuPy is imported lazily: this module imports without a GPU; constructing `NcclCommunicator` needs one.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Hashable, Iterable
from typing import Any

from rulepass.runtime.comm.collectives import CommunicationError, Communicator, check_group

__all__ = ["NcclCommunicator"]

_HEADER_TAG = 32001  # above every key_to_tag value (collectives.key_to_tag), so headers stay apart


def _cupy():
    try:
        import cupy
        from cupy.cuda import nccl
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise CommunicationError(
            "the nccl backend needs CuPy with NCCL: pip install 'rulepass[gpu,mpi]'"
        ) from error
    return cupy, nccl


class NcclCommunicator(Communicator):
    """This process's rank on a GPU; see `Communicator` for the ops. Arrays are CuPy arrays.

    `groups`: the program's process groups (tuples of global ranks), the same on every rank; every
    collective's group must be one of them or the whole world. `device`: the CUDA device to use
    (default: global rank modulo the number of visible devices). `comm`: the MPI world (default
    COMM_WORLD). Ops are enqueued on the current CuPy stream and are asynchronous like NCCL itself;
    results are safe to use on the current stream. Raises CommunicationError when CuPy, NCCL or
    mpi4py is missing, or when a group was not declared.
    """

    def __init__(self, groups: Iterable[Iterable[int]] = (), comm: Any = None, device: int | None = None):
        cupy, nccl = _cupy()
        from rulepass.runtime.comm.collectives import comm_timeout
        from rulepass.runtime.comm.mpi import mpi_module, wait_for_every_rank

        MPI = mpi_module()
        self._MPI = MPI
        self._cupy, self._nccl = cupy, nccl
        world = MPI.COMM_WORLD if comm is None else comm
        super().__init__(world.Get_rank(), world.Get_size())
        wait_for_every_rank(world, comm_timeout(None))  # Dup and Split wait without a bound
        self._mpi_comm = world.Dup()
        if device is None:
            device = self.rank % cupy.cuda.runtime.getDeviceCount()
        self.device = cupy.cuda.Device(device)
        self.device.use()
        self._send_stream = cupy.cuda.Stream(non_blocking=True)
        self._recv_stream = cupy.cuda.Stream(non_blocking=True)
        self._groups: dict[tuple[int, ...], Any] = {}
        self._pending_sends: list[Any] = []
        self._stash: dict[tuple[int, Hashable], deque] = defaultdict(deque)
        declared = {tuple(int(r) for r in g) for g in groups}
        declared.add(tuple(range(self.world_size)))
        for group in sorted(declared):
            self._create(group)
        # One two-rank NCCL communicator per direction (source, destination): the sends of one
        # direction and the receives of the other never share a communicator, so two ranks that send
        # to each other at the same time (pp2) cannot block each other.
        self._p2p: dict[tuple[int, int], Any] = {}
        for source in range(self.world_size):
            for destination in range(self.world_size):
                if source != destination and self.rank in (source, destination):
                    self._create_pair(source, destination)

    def _create(self, group: tuple[int, ...]) -> None:
        """Create the NCCL communicator of `group`; collective over the whole MPI world."""
        member = self.rank in group
        color = 0 if member else self._MPI.UNDEFINED
        sub = self._mpi_comm.Split(color, group.index(self.rank) if member else 0)
        if not member:
            return
        if len(group) > 1:
            unique_id = self._nccl.get_unique_id() if sub.Get_rank() == 0 else None
            unique_id = sub.bcast(unique_id, root=0)
            self._groups[group] = self._nccl.NcclCommunicator(len(group), unique_id, group.index(self.rank))
        sub.Free()

    def _create_pair(self, source: int, destination: int) -> None:
        """Create the communicator for messages source -> destination; both ranks call this.

        Every rank walks the ordered pairs in the same global order, so the smallest pending pair
        always has both its ranks waiting on it and creation cannot deadlock.
        """
        if self.rank == source:
            unique_id = self._nccl.get_unique_id()
            self._mpi_comm.send(unique_id, dest=destination, tag=_HEADER_TAG + 1)
            index = 0
        else:
            unique_id = self._mpi_comm.recv(source=source, tag=_HEADER_TAG + 1)
            index = 1
        self._p2p[(source, destination)] = self._nccl.NcclCommunicator(2, unique_id, index)

    def _group(self, group: tuple[int, ...]) -> Any:
        communicator = self._groups.get(group)
        if communicator is None:
            raise CommunicationError(
                f"process group {group} was not declared when the NCCL communicator was created; "
                "pass every group of the program's ring table as `groups`",
                self.rank,
            )
        return communicator

    def _dtype(self, dtype: Any) -> int:
        nccl = self._nccl
        table = {
            "int8": nccl.NCCL_INT8,
            "uint8": nccl.NCCL_UINT8,
            "int32": nccl.NCCL_INT32,
            "uint32": nccl.NCCL_UINT32,
            "int64": nccl.NCCL_INT64,
            "uint64": nccl.NCCL_UINT64,
            "float16": nccl.NCCL_FLOAT16,
            "float32": nccl.NCCL_FLOAT32,
            "float64": nccl.NCCL_FLOAT64,
        }
        name = str(self._cupy.dtype(dtype))
        if name == "bool":
            name = "uint8"
        if name not in table:
            raise CommunicationError(f"NCCL cannot carry dtype {name}", self.rank)
        return table[name]

    def _op(self, op: str) -> int:
        nccl = self._nccl
        return {"sum": nccl.NCCL_SUM, "avg": nccl.NCCL_SUM, "prod": nccl.NCCL_PROD,
                "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}[op]

    def _finish_avg(self, result: Any, op: str, n: int) -> Any:
        if op != "avg":
            return result
        cupy = self._cupy
        if cupy.issubdtype(result.dtype, cupy.integer):
            return result // n
        return (result / n).astype(result.dtype, copy=False)

    def _stream(self) -> int:
        return self._cupy.cuda.get_current_stream().ptr

    def _do_all_reduce(self, x, group, op):
        cupy = self._cupy
        send = cupy.ascontiguousarray(x)
        result = cupy.empty_like(send)
        self._group(group).allReduce(send.data.ptr, result.data.ptr, send.size, self._dtype(send.dtype),
                                     self._op(op), self._stream())
        return self._finish_avg(result, op, len(group))

    def _do_all_gather(self, x, group):
        cupy = self._cupy
        send = cupy.ascontiguousarray(x)
        result = cupy.empty((len(group) * send.shape[0],) + send.shape[1:], dtype=send.dtype)
        self._group(group).allGather(send.data.ptr, result.data.ptr, send.size, self._dtype(send.dtype),
                                     self._stream())
        return result

    def _do_reduce_scatter(self, x, group, op):
        cupy = self._cupy
        send = cupy.ascontiguousarray(x)
        result = cupy.empty((send.shape[0] // len(group),) + send.shape[1:], dtype=send.dtype)
        self._group(group).reduceScatter(send.data.ptr, result.data.ptr, result.size, self._dtype(send.dtype),
                                         self._op(op), self._stream())
        return self._finish_avg(result, op, len(group))

    def _do_broadcast(self, x, group, root):
        cupy = self._cupy
        buffer = cupy.array(x, copy=True, order="C")
        self._group(group).bcast(buffer.data.ptr, buffer.size, self._dtype(buffer.dtype), group.index(root),
                                 self._stream())
        return buffer

    def _do_barrier(self, group):
        # A one-element all-reduce on the group, waited for on the host.
        token = self._cupy.zeros((1,), dtype="float32")
        self._group(group).allReduce(token.data.ptr, token.data.ptr, 1, self._nccl.NCCL_FLOAT32,
                                     self._nccl.NCCL_SUM, self._stream())
        self._cupy.cuda.get_current_stream().synchronize()

    def _do_send(self, x: Any, peer: int, key: Hashable) -> None:
        cupy = self._cupy
        buffer = cupy.array(x, copy=True, order="C")
        # The copy is on the current stream; the send stream must see it finished.
        self._send_stream.wait_event(cupy.cuda.get_current_stream().record())
        header = (key, tuple(buffer.shape), str(buffer.dtype))
        request = self._mpi_comm.isend(header, dest=peer, tag=_HEADER_TAG)
        communicator = self._p2p[(self.rank, peer)]
        communicator.send(buffer.data.ptr, buffer.size, self._dtype(buffer.dtype), 1, self._send_stream.ptr)
        self._pending_sends.append((request, buffer, self._send_stream.record()))
        self._pending_sends = [p for p in self._pending_sends if not (p[0].Test() and p[2].done)]

    def _do_recv(self, peer: int, key: Hashable, shape: tuple[int, ...], dtype: Any) -> Any:
        cupy = self._cupy
        stash = self._stash[(peer, key)]
        communicator = self._p2p[(peer, self.rank)]
        while not stash:
            # Take the next message from this peer, whatever its key, in the order it was sent.
            got_key, got_shape, got_dtype = self._mpi_comm.recv(source=peer, tag=_HEADER_TAG)
            buffer = cupy.empty(got_shape, dtype=got_dtype)
            communicator.recv(buffer.data.ptr, buffer.size, self._dtype(buffer.dtype), 0, self._recv_stream.ptr)
            self._stash[(peer, got_key)].append((buffer, self._recv_stream.record()))
        buffer, done = stash.popleft()
        cupy.cuda.get_current_stream().wait_event(done)
        if tuple(buffer.shape) != shape or buffer.dtype != cupy.dtype(dtype):
            raise CommunicationError(
                f"message {key!r} from rank {peer} is {tuple(buffer.shape)} {buffer.dtype}, "
                f"but recv expected {shape} {cupy.dtype(dtype)}",
                self.rank,
            )
        return buffer

    def wait_sends(self) -> None:
        """Block until every send posted by this rank has completed (call before exiting)."""
        for request, _, event in self._pending_sends:
            request.Wait()
            event.synchronize()
        self._pending_sends.clear()

    def check_group(self, group: Iterable[int]) -> tuple[int, ...]:
        """Validate `group` for this rank and check an NCCL communicator exists for it."""
        members = check_group(group, self.world_size, self.rank)
        if len(members) > 1:
            self._group(members)
        return members

