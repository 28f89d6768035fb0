"""Collective and point-to-point communication for one rank, independent of the transport.

A `Communicator` is the per-rank handle the executor uses to run the communication ops of a rewritten
Paddle program (`all_reduce`, `all_gather`, `reduce_scatter`, `broadcast`, `send_v2`/`recv_v2`,
`barrier`). Process groups are tuples of *global* ranks, taken from the program's ring_id -> ranks
table; the order of the tuple is the order of the group (the position of a rank in the tuple is its
rank inside the group, which decides the order of `all_gather` concatenation and which shard of
`reduce_scatter` a rank keeps).

Three transports implement the interface:

- `local` (`rulepass.runtime.comm.local`): ranks are threads of one process.
- `mpi` (`rulepass.runtime.comm.mpi`): one rank per process, mpi4py.
- `nccl` (`rulepass.runtime.comm.nccl`): one rank per process and GPU, CuPy + NCCL.

Every transport counts the bytes each rank moves, per collective kind, with the figures of the ring
algorithm (see `ring_bytes`), so schedules and rewrites can be compared by traffic.
"""

from __future__ import annotations

import abc
import zlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from rulepass.engine.errors import RulepassError, RuntimeFailure

__all__ = [
    "REDUCE_OPS",
    "COLLECTIVE_KINDS",
    "CommunicationError",
    "RankFailedError",
    "CommAbortedError",
    "CommTimeoutError",
    "Communicator",
    "ring_bytes",
    "check_group",
    "check_key",
    "key_to_tag",
    "reduce_arrays",
]

REDUCE_OPS: tuple[str, ...] = ("sum", "max", "min", "prod", "avg")
"""Reduction names accepted by `all_reduce` and `reduce_scatter` (Paddle's ReduceOp, lower case)."""

COLLECTIVE_KINDS: tuple[str, ...] = (
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "broadcast",
    "send",
    "recv",
    "barrier",
)
"""The keys of `Communicator.stats`."""


class CommunicationError(RuntimeFailure):
    """A communication op failed or was used wrongly on one rank (a `RuntimeFailure`).

    `rank` is the global rank that detected the problem (None when unknown); the message starts
    with it.
    """

    def __init__(self, message: str, rank: int | None = None):
        self.rank = rank
        prefix = f"rank {rank}: " if rank is not None else ""
        super().__init__(prefix + message)


class RankFailedError(CommunicationError):
    """Raised to the caller of a multi-rank run when one rank raised.

    `rank` is the failing rank and `__cause__`/`original` its exception.
    """

    def __init__(self, rank: int, original: BaseException):
        self.original = original
        self.rank = rank
        RulepassError.__init__(self, f"rank {rank} failed: {type(original).__name__}: {original}")


class CommAbortedError(CommunicationError):
    """Raised inside a rank that was waiting on communication when another rank failed."""


class CommTimeoutError(CommunicationError):
    """A communication op waited longer than the world's timeout (a peer never arrived)."""


# Bytes one rank moves per call, as a function of (bytes passed in, group size n > 1): ring algorithm.
_RING_BYTES: dict[str, Callable[[int, int], float]] = {
    "all_reduce": lambda nbytes, n: 2.0 * (n - 1) / n * nbytes,
    "all_gather": lambda nbytes, n: float((n - 1) * nbytes),  # (n-1)/n of the n*nbytes result
    "reduce_scatter": lambda nbytes, n: (n - 1) / n * nbytes,
    "broadcast": lambda nbytes, n: float(nbytes),
    "send": lambda nbytes, n: float(nbytes),
    "recv": lambda nbytes, n: float(nbytes),
    "barrier": lambda nbytes, n: 0.0,
}


def ring_bytes(kind: str, nbytes: int, group_size: int) -> float:
    """Bytes one rank moves for one call, by the ring algorithm.

    `nbytes` is the size in bytes of the array the rank passes in (for `all_gather` that is its
    shard; the full result is `group_size * nbytes`). Figures for a group of n ranks:

    - all_reduce: 2(n-1)/n * nbytes
    - all_gather: (n-1)/n * (n * nbytes), i.e. (n-1) * nbytes
    - reduce_scatter: (n-1)/n * nbytes (nbytes is the full, unscattered input)
    - broadcast, send, recv: nbytes
    - barrier: 0

    A one-rank collective moves 0 bytes (send/recv always involve two ranks). Raises ValueError
    for an unknown kind.
    """
    if kind not in _RING_BYTES:
        raise ValueError(f"unknown collective kind {kind!r}; expected one of {COLLECTIVE_KINDS}")
    if group_size <= 1 and kind not in ("send", "recv"):
        return 0.0
    return _RING_BYTES[kind](nbytes, group_size)


def check_group(group: Iterable[int], world_size: int, rank: int) -> tuple[int, ...]:
    """Validate a process group and return it as a tuple of global ranks.

    Raises CommunicationError when the group is empty, has duplicates, names a rank outside
    [0, world_size), or does not contain `rank` (the caller).
    """
    members = tuple(int(r) for r in group)
    if not members:
        raise CommunicationError("empty process group", rank)
    if len(set(members)) != len(members):
        raise CommunicationError(f"process group {members} repeats a rank", rank)
    bad = [r for r in members if not 0 <= r < world_size]
    if bad:
        raise CommunicationError(
            f"process group {members} names ranks {bad} outside the world of {world_size}", rank
        )
    if rank not in members:
        raise CommunicationError(
            f"rank {rank} called a collective on process group {members} it is not a member of", rank
        )
    return members


def check_key(key: Hashable, rank: int | None = None) -> Hashable:
    """Validate a point-to-point message key: an int, a str, or a (nested) tuple of those and None.

    Keys must print the same in every process (they become MPI tags through `key_to_tag`), so only
    these plain types are allowed. Raises CommunicationError otherwise.
    """

    def ok(part: Any) -> bool:
        if part is None or isinstance(part, (int, str)):
            return True
        if isinstance(part, tuple):
            return all(ok(p) for p in part)
        return False

    if not ok(key):
        raise CommunicationError(
            f"message key {key!r} must be an int, a str or a tuple of those "
            "(e.g. ('forward', chunk, micro_batch))",
            rank,
        )
    return key


_TAG_SPACE = 32000  # MPI guarantees MPI_TAG_UB >= 32767


def key_to_tag(key: Hashable) -> int:
    """Map a message key to an MPI tag in [1, 32000], the same in every process.

    Uses CRC-32 of `repr(key)` (Python's `hash` of a str differs between processes). Distinct keys
    may collide; `comm/mpi.py` detects a collision between two keys used with the same peer and raises.
    """
    return zlib.crc32(repr(key).encode()) % _TAG_SPACE + 1


# Elementwise combination of two arrays per reduce op; "avg" sums, then divides once at the end.
_COMBINE: dict[str, Callable[[Any, Any, Any], Any]] = {
    "sum": lambda xp, a, b: a + b,
    "avg": lambda xp, a, b: a + b,
    "prod": lambda xp, a, b: a * b,
    "max": lambda xp, a, b: xp.maximum(a, b),
    "min": lambda xp, a, b: xp.minimum(a, b),
}


def reduce_arrays(arrays: Sequence[Any], op: str, xp: Any) -> Any:
    """Reduce same-shaped arrays elementwise in the given order with `op` (see REDUCE_OPS).

    The order is the group order, so every rank computing this gets bitwise the same result.
    `xp` is the array namespace. For "avg" the sum is divided by len(arrays); integer inputs use
    floor division so the result keeps the input dtype (integer averages round toward -inf).
    Raises ValueError for an unknown op.
    """
    if op not in _COMBINE:
        raise ValueError(f"unknown reduce op {op!r}; expected one of {REDUCE_OPS}")
    combine = _COMBINE[op]
    result = xp.asarray(arrays[0], copy=True)
    for other in arrays[1:]:
        result = combine(xp, result, other)
    if op == "avg":
        result = result // len(arrays) if xp.isdtype(result.dtype, "integral") else result / len(arrays)
    return result


class Communicator(abc.ABC):
    """One rank's handle for communication with the other ranks of a world.

    Attributes: `rank` (this rank's global rank) and `world_size`. Arrays are array-API arrays
    (NumPy for `local` and `mpi`, CuPy for `nccl`); results are new arrays, inputs are never
    modified. Every public op validates its arguments, counts calls and ring bytes in `stats`, and
    short-cuts one-rank groups (no transport call, 0 bytes). Subclasses implement the `_do_*`
    methods, which receive a validated group of at least two ranks.

    Collectives must be called by every member of the group in the same order (as in MPI and
    NCCL); point-to-point messages are matched by (source, destination, key) and never by arrival
    order, so a forward activation and a backward gradient exchanged between the same two stages
    in the same step cannot be swapped.
    """

    rank: int
    world_size: int

    def __init__(self, rank: int, world_size: int):
        if not 0 <= rank < world_size:
            raise CommunicationError(f"rank {rank} outside the world of {world_size}")
        self.rank = rank
        self.world_size = world_size
        self._stats: dict[str, dict[str, float]] = {}

    # -- statistics -------------------------------------------------------------------------

    @property
    def stats(self) -> dict[str, dict[str, float]]:
        """Per kind (see COLLECTIVE_KINDS) -> {"calls": int, "bytes": float}, a snapshot copy.

        Bytes are this rank's traffic by the ring figures of `ring_bytes`; kinds never called are
        absent.
        """
        return {kind: dict(entry) for kind, entry in self._stats.items()}

    def reset_stats(self) -> None:
        """Forget all counted calls and bytes."""
        self._stats.clear()

    def _count(self, kind: str, nbytes: int, group_size: int) -> None:
        entry = self._stats.setdefault(kind, {"calls": 0, "bytes": 0.0})
        entry["calls"] += 1
        entry["bytes"] += ring_bytes(kind, nbytes, group_size)

    # -- public ops ---------------------------------------------------------------------------

    def all_reduce(self, x: Any, group: Iterable[int], op: str = "sum") -> Any:
        """Elementwise reduction of `x` over the group; every member gets the result.

        `x`: any shape and dtype, the same on all members. `op`: one of REDUCE_OPS. Returns an
        array of the shape and dtype of `x`. Raises CommunicationError for a bad group or op.
        Reimplements Paddle's `all_reduce` / `c_allreduce_*` ops.
        """
        members = check_group(group, self.world_size, self.rank)
        if op not in REDUCE_OPS:
            raise CommunicationError(f"unknown reduce op {op!r}; expected one of {REDUCE_OPS}", self.rank)
        self._count("all_reduce", _nbytes(x), len(members))
        if len(members) == 1:
            return _copy(x)
        return self._do_all_reduce(x, members, op)

    def all_gather(self, x: Any, group: Iterable[int]) -> Any:
        """Concatenate every member's `x` along axis 0, in group order.

        `x`: shape (k, ...), the same shape on all members. Returns shape (n*k, ...) for a group
        of n ranks, rows [i*k, (i+1)*k) coming from `group[i]`. Reimplements Paddle's `all_gather`
        / `c_allgather`. Raises CommunicationError for a bad group or a 0-d array.
        """
        members = check_group(group, self.world_size, self.rank)
        if len(_shape(x)) == 0:
            raise CommunicationError("all_gather needs an array with at least one axis", self.rank)
        self._count("all_gather", _nbytes(x), len(members))
        if len(members) == 1:
            return _copy(x)
        return self._do_all_gather(x, members)

    def reduce_scatter(self, x: Any, group: Iterable[int], op: str = "sum") -> Any:
        """Reduce `x` over the group, then give member i the i-th of n equal slices along axis 0.

        `x`: shape (n*k, ...) on every member. Returns shape (k, ...). Reimplements Paddle's
        `reduce_scatter` / `c_reducescatter`. Raises CommunicationError when axis 0 is not
        divisible by the group size, or for a bad group or op.
        """
        members = check_group(group, self.world_size, self.rank)
        if op not in REDUCE_OPS:
            raise CommunicationError(f"unknown reduce op {op!r}; expected one of {REDUCE_OPS}", self.rank)
        shape = _shape(x)
        if len(shape) == 0 or shape[0] % len(members) != 0:
            raise CommunicationError(
                f"reduce_scatter over {len(members)} ranks needs axis 0 divisible by "
                f"{len(members)}, got shape {tuple(shape)}",
                self.rank,
            )
        self._count("reduce_scatter", _nbytes(x), len(members))
        if len(members) == 1:
            return _copy(x)
        return self._do_reduce_scatter(x, members, op)

    def broadcast(self, x: Any, group: Iterable[int], root: int) -> Any:
        """Every member gets the `x` of `root` (a global rank in the group).

        `x`: the same shape and dtype on all members (non-root contents are ignored). Returns an
        array of that shape and dtype. Reimplements Paddle's `broadcast` / `c_broadcast`. Raises
        CommunicationError when `root` is not a member.
        """
        members = check_group(group, self.world_size, self.rank)
        if root not in members:
            raise CommunicationError(f"broadcast root {root} is not in process group {members}", self.rank)
        self._count("broadcast", _nbytes(x), len(members))
        if len(members) == 1:
            return _copy(x)
        return self._do_broadcast(x, members, root)

    def send(self, x: Any, peer: int, key: Hashable) -> None:
        """Send `x` to global rank `peer` under message `key` (see `check_key`); does not block
        until received.

        The matching `recv` on `peer` must use this rank as its peer and the same key. Sending the
        same key twice to the same peer queues the messages in order. Reimplements Paddle's
        `send_v2` / `p_send`. Raises CommunicationError for a bad peer or key.
        """
        self._check_peer(peer)
        check_key(key, self.rank)
        self._count("send", _nbytes(x), 2)
        self._do_send(x, peer, key)

    def recv(self, peer: int, key: Hashable, shape: Sequence[int], dtype: Any) -> Any:
        """Receive the array global rank `peer` sent under `key`; blocks until it arrives.

        `shape`/`dtype`: what the sender sent; a mismatch raises CommunicationError. Reimplements
        Paddle's `recv_v2` / `p_recv`.
        """
        self._check_peer(peer)
        check_key(key, self.rank)
        result = self._do_recv(peer, key, tuple(int(s) for s in shape), dtype)
        self._count("recv", _nbytes(result), 2)
        return result

    def barrier(self, group: Iterable[int] | None = None) -> None:
        """Wait until every member of `group` (default: the whole world) reaches the barrier."""
        members = check_group(range(self.world_size) if group is None else group, self.world_size, self.rank)
        self._count("barrier", 0, len(members))
        if len(members) > 1:
            self._do_barrier(members)

    def _check_peer(self, peer: int) -> None:
        if not 0 <= peer < self.world_size or peer == self.rank:
            raise CommunicationError(
                f"point-to-point peer {peer} must be another rank in [0, {self.world_size})", self.rank
            )

    # -- transport ----------------------------------------------------------------------------

    @abc.abstractmethod
    def _do_all_reduce(self, x: Any, group: tuple[int, ...], op: str) -> Any: ...

    @abc.abstractmethod
    def _do_all_gather(self, x: Any, group: tuple[int, ...]) -> Any: ...

    @abc.abstractmethod
    def _do_reduce_scatter(self, x: Any, group: tuple[int, ...], op: str) -> Any: ...

    @abc.abstractmethod
    def _do_broadcast(self, x: Any, group: tuple[int, ...], root: int) -> Any: ...

    @abc.abstractmethod
    def _do_send(self, x: Any, peer: int, key: Hashable) -> None: ...

    @abc.abstractmethod
    def _do_recv(self, peer: int, key: Hashable, shape: tuple[int, ...], dtype: Any) -> Any: ...

    @abc.abstractmethod
    def _do_barrier(self, group: tuple[int, ...]) -> None: ...


def _nbytes(x: Any) -> int:
    nbytes = getattr(x, "nbytes", None)
    if nbytes is not None:
        return int(nbytes)
    size = 1
    for s in _shape(x):
        size *= int(s)
    return size * x.dtype.itemsize


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape)


def _copy(x: Any) -> Any:
    from array_api_compat import array_namespace

    return array_namespace(x).asarray(x, copy=True)
