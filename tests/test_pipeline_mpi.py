"""Paddle's captured pipeline programs run as real MPI processes (one per rank) under `mpiexec`: the
same pipeline runner over the `mpi` transport, whose messages match by MPI tags derived from our
message keys. Losses and final parameters must equal Paddle's.

This file is also the worker: `mpiexec -n N python -m mpi4py tests/test_pipeline_mpi.py CONFIG`
runs one rank, checks its final parameters and writes its loss outputs to OUT/rank<r>.json (files,
not stdout, which the ranks would interleave).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent


def worker(name: str, out: str) -> None:
    sys.path.insert(0, str(HERE))
    from test_pipeline_corpus import CORPUS, load_config

    from rulepass.runtime.comm.mpi import run_mpi
    from rulepass.runtime.pipeline import run_rank
    from rulepass.runtime.sharding import local_piece

    config, reference, ranks, types, groups = load_config(name)

    def body(comm):
        rank = ranks[comm.rank]
        result = run_rank(rank, comm, steps=config["steps"], schedule=config["schedule"],
                          num_stages=config["pp"], micro_batches=config["micro_batches"],
                          vpp=config["vpp"], process_groups=groups)
        final = np.load(CORPUS / name / "params_final.npz")
        for param, value in rank.scope.items():
            if not param.endswith("@GRAD@MERGE"):
                expected = local_piece(final[param], types[comm.rank]["parameters"][param], comm.rank)
                np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-7, err_msg=param)
        losses = [[float(o["loss_0"]) for o in step if "loss_0" in o] for step in result.outputs]
        (Path(out) / f"rank{comm.rank}.json").write_text(json.dumps({"rank": comm.rank, "losses": losses}))

    run_mpi(body, groups.values())


@pytest.mark.mpi
@pytest.mark.parametrize("name", ["pp2_1f1b", "pp2_vpp2"])
def test_pipeline_over_mpi_reproduces_paddle(mpiexec, name, tmp_path):
    config = json.loads((HERE / "data" / "paddle" / name / "rank0" / "config.json").read_text())
    reference = json.loads((HERE / "data" / "paddle" / name / "reference.json").read_text())["losses"]
    done = mpiexec(config["world_size"], "-m", "mpi4py", __file__, name, str(tmp_path),
                   timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    per_rank = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("rank*.json"))]
    assert sorted(r["rank"] for r in per_rank) == list(range(config["world_size"]))
    losses = [np.mean([v for r in per_rank for v in r["losses"][step]]) for step in range(config["steps"])]
    np.testing.assert_allclose(losses, reference, rtol=1e-5)


if __name__ == "__main__":
    worker(sys.argv[1], sys.argv[2])
