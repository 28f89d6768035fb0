"""Collectives between ranks: the `Communicator` interface and its errors (`collectives.py`),
the backends (`local.py` threads, `mpi.py`, `nccl.py`) listed in `backends.BACKENDS`, and the
executor's handlers of Paddle's communication ops (`ops.py`)."""
