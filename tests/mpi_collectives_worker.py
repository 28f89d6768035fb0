"""One rank of the MPI collectives test; started by tests/test_collectives_mpi.py as
`mpiexec -n N python -m mpi4py tests/mpi_collectives_worker.py SCENARIO [mpi|nccl]`.

Scenarios: `ok` runs every op on the world and on sub-groups and checks the results on every rank
(an assertion failure aborts the job through `run_mpi`); `fail` makes rank 1 raise while the others
wait for it, which must end the whole job with a non-zero exit code instead of hanging.
"""

import sys

import numpy as np

from rulepass.runtime.comm.mpi import run_mpi


def rank_array(rank, shape=(4, 3)):
    return (np.arange(np.prod(shape)).reshape(shape) + 10 * rank + 1).astype("float64")


def scenario_ok(comm):
    n, rank = comm.world_size, comm.rank
    world = tuple(range(n))
    xs = [rank_array(r) for r in range(n)]
    x = xs[rank]
    reference = {"sum": np.sum, "max": np.max, "min": np.min, "prod": np.prod, "avg": np.mean}
    for op, reduce in reference.items():
        np.testing.assert_allclose(comm.all_reduce(x, world, op), reduce(xs, axis=0))
    np.testing.assert_array_equal(comm.all_gather(x, world), np.concatenate(xs))
    full = np.sum(xs, axis=0)
    shard = full.shape[0] // n
    np.testing.assert_array_equal(comm.reduce_scatter(x, world), full[rank * shard : (rank + 1) * shard])
    np.testing.assert_array_equal(comm.broadcast(x, world, root=n - 1), xs[n - 1])
    comm.barrier()

    # Sub-groups: pairs (0, 1), (2, 3), ... and, with 4 ranks, the strided pairs (0, 2), (1, 3).
    pair = (rank - rank % 2, rank - rank % 2 + 1)
    np.testing.assert_array_equal(comm.all_reduce(x, pair), xs[pair[0]] + xs[pair[1]])
    if n == 4:
        strided = (rank % 2, rank % 2 + 2)
        np.testing.assert_array_equal(comm.all_gather(x, strided), np.concatenate([xs[strided[0]], xs[strided[1]]]))
        # (3, 0) was not declared up front: only its members create it, on first use (MPI only;
        # NCCL needs every group declared).
        if rank in (0, 3) and not isinstance(comm, OnDevice):
            np.testing.assert_array_equal(comm.all_gather(x, (3, 0)), np.concatenate([xs[3], xs[0]]))

    # pp2 between the ranks of each pair: messages received in the opposite order of sending.
    peer = pair[1] if rank == pair[0] else pair[0]
    if rank == pair[0]:
        comm.send(x, peer, ("forward", 0, 1))
        comm.send(x * 2, peer, ("forward", 0, 2))
        grad = comm.recv(peer, ("backward", 0, 0), x.shape, x.dtype)
        np.testing.assert_array_equal(grad, -xs[peer])
    else:
        comm.send(-x, peer, ("backward", 0, 0))
        np.testing.assert_array_equal(comm.recv(peer, ("forward", 0, 2), x.shape, x.dtype), 2 * xs[peer])
        np.testing.assert_array_equal(comm.recv(peer, ("forward", 0, 1), x.shape, x.dtype), xs[peer])

    stats = comm.stats
    assert stats["all_reduce"]["calls"] == 6, stats
    assert stats["all_gather"]["bytes"] >= (n - 1) * x.nbytes, stats
    comm.barrier()
    if rank == 0:
        print(f"mpi-ok world={n}", flush=True)


def scenario_fail(comm):
    if comm.rank == 1:
        raise ValueError("rank one exploded")
    # Everyone else waits for a message rank 1 will never send.
    comm.recv(1, ("forward", 0, 0), (2,), "float64")


def scenario_fail_project(comm):
    from rulepass.runtime.comm.collectives import CommunicationError

    if comm.rank == 1:
        raise CommunicationError("a project error on rank one", comm.rank)
    comm.recv(1, ("forward", 0, 0), (2,), "float64")


def _stop_rank_1(comm):
    if comm.rank == 1:
        import os
        import signal

        os.kill(os.getpid(), signal.SIGSTOP)  # stuck: alive, never arrives


def scenario_stop_collective(comm):
    _stop_rank_1(comm)
    comm.all_reduce(np.ones(3), tuple(range(comm.world_size)))


def scenario_stop_recv(comm):
    _stop_rank_1(comm)
    comm.recv(1, ("forward", 0, 0), (2,), "float64")


class OnDevice:
    """Wraps a GPU communicator so the scenarios can pass and check NumPy arrays."""

    def __init__(self, comm):
        import cupy

        self.cupy, self.comm = cupy, comm
        self.rank, self.world_size = comm.rank, comm.world_size

    def __getattr__(self, name):
        method = getattr(self.comm, name)
        if name == "stats":
            return method
        cupy = self.cupy

        def call(*args, **kwargs):
            args = [cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
            result = method(*args, **kwargs)
            return cupy.asnumpy(result) if isinstance(result, cupy.ndarray) else result

        return call


def main():
    scenario = sys.argv[1]
    backend = sys.argv[2] if len(sys.argv) > 2 else "mpi"
    from mpi4py import MPI

    n = MPI.COMM_WORLD.Get_size()
    groups = [tuple(range(n))] + [(r, r + 1) for r in range(0, n - 1, 2)]
    if n == 4:
        groups += [(0, 2), (1, 3)]
    if scenario == "stop_setup":  # stuck before the communicator is set up (breaker item 10)
        if MPI.COMM_WORLD.Get_rank() == 1:
            import os
            import signal

            os.kill(os.getpid(), signal.SIGSTOP)
        scenario = "ok"
    fn = {"ok": scenario_ok, "fail": scenario_fail, "fail_project": scenario_fail_project,
          "stop_collective": scenario_stop_collective, "stop_recv": scenario_stop_recv}[scenario]
    if backend == "nccl":
        from rulepass.runtime.comm.nccl import NcclCommunicator

        run_mpi(lambda comm: fn(OnDevice(comm)), groups=groups, communicator=NcclCommunicator)
    else:
        run_mpi(fn, groups=groups)


if __name__ == "__main__":
    main()
