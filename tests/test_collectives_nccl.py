"""Collectives on the `nccl` transport (CuPy + NCCL, one GPU per rank). Skipped without CuPy, MPI
or enough CUDA devices; the same scenarios as the MPI test run with device arrays."""

import pytest

from test_collectives_mpi import launch

cupy = pytest.importorskip("cupy")
pytest.importorskip("mpi4py")

pytestmark = [pytest.mark.gpu, pytest.mark.mpi]


def device_count():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001 - no driver, no device
        return 0


@pytest.mark.parametrize("ranks", [2, 4])
def test_every_op_and_key_matching_with_nccl(ranks):
    if device_count() < 1:
        pytest.skip("no CUDA device")
    if device_count() < ranks:
        # NCCL refuses two ranks of one communicator on the same GPU.
        pytest.skip(f"needs {ranks} CUDA devices, found {device_count()}")
    result = launch(ranks, "ok", timeout=120, backend="nccl")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"mpi-ok world={ranks}" in result.stdout


def test_single_rank_communicator_on_the_gpu():
    if device_count() < 1:
        pytest.skip("no CUDA device")
    from rulepass.runtime.comm.nccl import NcclCommunicator

    comm = NcclCommunicator(groups=[(0,)])
    x = cupy.arange(6, dtype="float32").reshape(2, 3)
    result = comm.all_reduce(x, (0,), "sum")
    assert isinstance(result, cupy.ndarray)
    cupy.testing.assert_array_equal(result, x)
    assert comm.stats["all_reduce"] == {"calls": 1, "bytes": 0.0}
