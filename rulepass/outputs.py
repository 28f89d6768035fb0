"""What ``rulepass run --out DIR`` writes beside the rank programs and traces (issue 18):

- ``params_final.npz``: the trained parameters as global arrays (each rank's pieces put back in
  place by their dist types), keyed like the example's ``params_final.npz`` so the two compare
  directly;
- the ``run`` header of ``summary.json``: which example (name and folder), its config, the
  backend, the steps run, the rulepass version;
- ``timeline.json``: one Chrome trace of every rank (one process per rank), which Perfetto and
  ``chrome://tracing`` open as one file.

Every file goes through the atomic writer (:mod:`rulepass.engine.files`).
"""

from __future__ import annotations

import io
import json

import attrs
import numpy as np

from rulepass.runtime.sharding import shard_bounds


def assemble(pieces: dict, dist_type) -> np.ndarray:
    """The global array of ``dist_type``'s shape from ``{rank: piece}`` (every rank of its mesh,
    or any one rank when the tensor is replicated); the inverse of
    :func:`rulepass.runtime.sharding.local_piece`.

    Raises:
        ValueError: a mesh rank's piece is missing.
    """
    mesh = dist_type.mesh
    first = next(iter(pieces.values()))
    if all(m < 0 for m in dist_type.dims_mapping):
        return np.asarray(first)
    out = np.empty(tuple(dist_type.shape), dtype=np.asarray(first).dtype)
    for rank in mesh.process_ids:
        if rank not in pieces:
            raise ValueError(f"no piece of rank {rank}")
        coordinate = mesh.coordinate(rank)
        index = []
        for dim, mesh_dim in enumerate(dist_type.dims_mapping):
            if mesh_dim < 0:
                index.append(slice(None))
            else:
                start, stop = shard_bounds(out.shape[dim], mesh.shape[mesh_dim],
                                           coordinate[mesh_dim])
                index.append(slice(start, stop))
        out[tuple(index)] = np.asarray(pieces[rank])
    return out


def final_parameters(records: list, types: dict) -> dict:
    """{parameter name: global array after training} from every rank's record; ``types``: the
    forward program's dist types of the parameters (``sharding.dist_types(...)["parameters"]``)."""
    pieces: dict = {}
    for record in records:
        for name, value in record.final_params.items():
            pieces.setdefault(name, {})[record.rank] = value
    out = {}
    for name, by_rank in sorted(pieces.items()):
        t = types.get(name)
        out[name] = assemble(by_rank, t) if t is not None else np.asarray(
            next(iter(by_rank.values())))
    return out


def out_files(world_size: int) -> list[str]:
    """The name of every file ``run --out DIR`` writes in DIR for ``world_size`` ranks
    (:func:`rulepass.run.write_outputs`), so that none is checked to be an input before the run.
    """
    per_rank = [name for rank in range(world_size)
                for name in (f"rank{rank}.pir", f"timeline_rank{rank}.json")]
    return per_rank + ["trace.jsonl", "params_final.npz", "timeline.json", "summary.json"]


def run_header(example, options, report) -> dict:
    """The ``run`` header of ``summary.json``: example, folder, config, backend, steps run,
    rulepass version."""
    from rulepass.version import version

    return {
        "example": example.path.name,
        "folder": str(example.path.resolve()),
        "config": {"parallel": attrs.asdict(example.parallel), "optimizer": example.optimizer,
                   "lr": example.lr, "rtol": example.rtol, "atol": example.atol},
        "backend": options.backend,
        "schedule": options.schedule or example.parallel.schedule,
        "micro_batches": options.micro_batches or example.parallel.micro_batches,
        "steps": len(report.losses),
        "rulepass_version": version(),
    }


def write_run_extras(out, example, options, records: list, events: list, report,
                     types: dict) -> dict:
    """Write ``params_final.npz`` and ``timeline.json`` in ``out``; returns the ``run`` header
    for ``summary.json``."""
    from rulepass.engine.files import write_bytes, write_text
    from rulepass.runtime.trace import chrome_trace

    buffer = io.BytesIO()
    np.savez(buffer, **final_parameters(records, types))
    write_bytes(out / "params_final.npz", buffer.getvalue())
    write_text(out / "timeline.json", json.dumps(chrome_trace(events), indent=1) + "\n")
    return run_header(example, options, report)
