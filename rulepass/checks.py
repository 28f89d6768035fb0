"""Checks of what the user asks for against what the program holds, made before any work so that
a wrong question is an error rather than a silent empty answer (issue 18):

- (a pass's ``rank`` param and degrees are checked by the engine for every caller:
  ``engine/paddle/param_checks.py``);
- an example's ``world_size`` must be the number of ranks its program's meshes hold, and ``pp``
  must be the number of stage meshes (a 2-rank program run with ``world_size = 4, pp = 4`` said
  OK and reported pp=4's bubble);
- ``params.npz`` / ``data.npz`` arrays must have the dtype and shape the program declares, and
  name only what the program has.

Every problem is a :class:`CheckError` (exit 1) naming the file and what to change.
"""

from __future__ import annotations

import math

import attrs
import numpy as np

from rulepass.engine.errors import RulepassError
from rulepass.engine.ir.types import DistTensorType
from rulepass.engine.paddle.param_checks import program_meshes, ranks_text


class CheckError(RulepassError):
    """A request the program cannot answer: a rank it does not have, degrees its meshes do not
    have, an input array of another dtype or shape."""

    kind = "error"


def check_parallel_config(program, parallel, config_file: str) -> None:
    """``world_size``, ``pp``, ``mp`` and ``dp`` of an example's ``[parallel]`` against its
    forward program: the meshes must hold exactly ranks 0 .. world_size-1; with ``pp > 1`` the
    ranks must fall into ``pp`` disjoint stage meshes of ``world_size / pp`` ranks (Paddle's
    ``ProcessMesh(arange(world).reshape(pp, ...))``), with ``pp = 1`` every op must run on a
    mesh of every rank; the mesh dimensions that shard a parameter are tensor parallel (their
    sizes multiply to at most ``mp``), those that shard only inputs are data parallel (at most
    ``dp``).

    Raises:
        CheckError: naming the config file, the key and what the program has.
    """
    meshes = program_meshes(program)
    ranks = {rank for mesh in meshes for rank in mesh.process_ids}
    if not ranks:
        return
    if ranks != set(range(parallel.world_size)):
        raise CheckError(f"[parallel] world_size = {parallel.world_size}, but the program's "
                         f"process meshes hold ranks {ranks_text(ranks)}", config_file)
    size = parallel.world_size // parallel.pp
    if parallel.pp > 1:
        stages = {mesh.process_ids for mesh in meshes if len(mesh.process_ids) == size}
        covered = {rank for ids in stages for rank in ids}
        if len(stages) != parallel.pp or covered != ranks:
            raise CheckError(f"[parallel] pp = {parallel.pp}, but {_stages_text(program, ranks)}",
                             config_file)
    else:
        partial = sorted({op.dist_attr.mesh.process_ids for op in program.walk()
                          if op.dist_attr is not None} - {tuple(sorted(ranks))})
        if partial:
            shown = ", ".join(f"[{', '.join(map(str, ids))}]" for ids in partial[:4])
            raise CheckError(f"[parallel] pp = 1, but ops of the program run on process meshes "
                             f"of part of the ranks ({shown}): pipeline stages; set pp to their "
                             "number", config_file)
    mp, dp = _sharding_degrees(program, size)
    for key, found, what in (("mp", mp, "shard parameters (tensor parallel)"),
                             ("dp", dp, "shard only inputs (data parallel)")):
        if found > getattr(parallel, key):
            raise CheckError(f"[parallel] {key} = {getattr(parallel, key)}, but the program's "
                             f"stage meshes have dimensions of {found} rank(s) that {what}",
                             config_file)


def _stages_text(program, ranks) -> str:
    """What ``program`` has in place of the configured stages, for the pp check's message:
    the process meshes its ops run on that hold part of the ranks (its pipeline stages), or
    that every op runs on all of them."""
    partial = sorted({tuple(sorted(op.dist_attr.mesh.process_ids)) for op in program.walk()
                      if op.dist_attr is not None} - {tuple(sorted(ranks))})
    if not partial:
        return (f"every op of the program runs on the process mesh of all {len(ranks)} ranks "
                "(no pipeline stages: pp = 1)")
    sizes = sorted({len(ids) for ids in partial})
    shown = ", ".join(f"[{', '.join(map(str, ids))}]" for ids in partial[:4])
    each = f" of {sizes[0]} rank(s) each" if len(sizes) == 1 else ""
    return (f"the program's ops run on {len(partial)} stage mesh(es){each} ({shown}"
            f"{' ...' if len(partial) > 4 else ''})")


def _sharding_degrees(program, stage_size: int) -> tuple[int, int]:
    """(tensor-parallel, data-parallel) ranks of ``program``'s stage meshes (those of
    ``stage_size`` ranks): the product of the sizes of the mesh dimensions that shard some
    ``builtin.parameter``, and of those that shard some ``pd_op.data`` but no parameter."""
    parameter_dims: dict = {}
    input_dims: dict = {}
    for op in program.walk():
        if op.name not in ("builtin.parameter", "pd_op.data") or not op.results:
            continue
        t = op.results[0].type
        if not isinstance(t, DistTensorType) or t.dist.mesh is None:
            continue
        mesh = t.dist.mesh
        if len(mesh.process_ids) != stage_size:
            continue
        found = parameter_dims if op.name == "builtin.parameter" else input_dims
        for mesh_dim in t.dist.dims_mapping:
            if 0 <= mesh_dim < len(mesh.shape):
                found[mesh_dim] = mesh.shape[mesh_dim]
    mp = math.prod(parameter_dims.values())
    dp = math.prod(size for dim, size in input_dims.items() if dim not in parameter_dims)
    return mp, dp


def check_schedule(schedule: str, vpp: int, where: str) -> None:
    """The schedules that run model chunks (VPP, ZBVPP, ZBV) need ``vpp >= 2`` chunks per stage:
    with ``vpp = 1`` no pass assigns chunk ids, and the run failed deep in the chain ("cannot
    infer the chunk_id of op 39"). ``where``: the config file or the flag that chose it.

    Raises:
        CheckError: naming ``where``.
    """
    from rulepass.runtime.schedules import CHUNKED_SCHEDULES

    if schedule.lower() in (s.lower() for s in CHUNKED_SCHEDULES) and vpp < 2:
        raise CheckError(f"schedule {schedule} interleaves model chunks and needs vpp >= 2 "
                         f"chunks per stage, but vpp = {vpp} (use 1F1B, FThenB, Eager1F1B or "
                         "ZBH1, or an example with vpp = 2)", where)


def pipeline_stages(program, world_size: int, pp: int) -> list[int]:
    """Every rank's pipeline stage (``stages[rank]``) from the program's meshes: the stage meshes
    are the ``pp`` disjoint meshes of ``world_size / pp`` ranks, stage ``i`` the one holding the
    ``i``-th smallest first rank (``get_mesh_with_dim("pp", i)`` holds rank ``i * stride(pp)``
    and larger). That is the rank's coordinate along ``pp`` whatever the mesh's dimension order
    (``["dp", "pp"]`` puts ranks 0 and 2 on stage 0); ``rank // (world_size / pp)``, Paddle's
    stage-major layout, when the program's meshes do not say."""
    if pp <= 1:
        return [0] * world_size
    size = world_size // pp
    candidates = sorted({tuple(sorted(mesh.process_ids)) for mesh in program_meshes(program)
                         if len(mesh.process_ids) == size})
    chosen, seen = [], set()
    for ids in candidates:
        if seen.isdisjoint(ids):
            chosen.append(ids)
            seen.update(ids)
    if len(chosen) != pp or seen != set(range(world_size)):
        return [rank // size for rank in range(world_size)]
    stages = [0] * world_size
    for stage, ids in enumerate(chosen):
        for rank in ids:
            stages[rank] = stage
    return stages


def program_parameters(program) -> dict:
    """{parameter_name: its type} of the ``builtin.parameter`` ops of ``program``."""
    return {op.attributes["parameter_name"]: op.results[0].type for op in program.walk()
            if op.name == "builtin.parameter" and "parameter_name" in op.attributes}


def program_inputs(program, skip=()) -> dict:
    """{name: its type} of the ``pd_op.data`` ops of ``program`` (not those named in ``skip``)."""
    return {op.attributes["name"]: op.results[0].type for op in program.walk()
            if op.name == "pd_op.data" and op.attributes.get("name") not in skip
            and isinstance(op.attributes.get("name"), str)}


def _describe(dtype, shape) -> str:
    return f"{dtype}[{', '.join('?' if d < 0 else str(d) for d in shape)}]"


def check_array(file: str, key: str, array, declared, leading: tuple = ()) -> None:
    """``array`` (of ``file``'s ``key``) must have the dtype and the shape of the ``declared``
    type after the ``leading`` axes (a data file's ``[steps]``); a declared ``-1`` matches any
    size.

    Raises:
        CheckError: naming the file, the key, what it holds and what the program declares.
    """
    dtype = getattr(declared, "dtype", None)
    shape = tuple(getattr(declared, "shape", ()))
    if dtype is None:
        return
    got = tuple(array.shape)
    expected = len(leading) + len(shape)
    same_shape = len(got) == expected and all(
        d < 0 or g == d for g, d in zip(got[len(leading):], shape))
    if str(array.dtype) != dtype or not same_shape:
        axes = "".join(f"{name}, " for name in leading)
        raise CheckError(f"{key!r} is {_describe(array.dtype, got)}, but the program declares "
                         f"{dtype}[{axes}{', '.join('?' if d < 0 else str(d) for d in shape)}]",
                         file)


def check_example_arrays(example, program, micro_batches: int, skip_inputs=()) -> None:
    """``params.npz``, ``params_final.npz`` and ``data.npz`` of ``example`` against ``program``
    (its forward program): every key names a parameter or input of the program, with its dtype
    and global shape (data: ``[steps, micro_batches × batch, ...]``: the program's input is one
    micro-batch); ``params_final.npz``, when present, holds every parameter ``params.npz`` gives
    (a final check of 1 of 10 parameters is no check); ``data.npz`` holds every input.

    Raises:
        CheckError: naming the file and the key.
    """
    parameters = program_parameters(program)
    inputs = program_inputs(program, skip_inputs)
    root = example.path
    for file, arrays in (("params.npz", example.params), ("params_final.npz",
                                                           example.final_params)):
        for key, array in arrays.items():
            if key not in parameters:
                raise CheckError(f"{key!r} is not a parameter of the program (parameters: "
                                 f"{', '.join(sorted(parameters)) or 'none'})", str(root / file))
            check_array(str(root / file), key, array, parameters[key])
            if file == "params.npz":
                check_finite(str(root / file), key, array)
    # without params_final.npz the final parameters are compared with the single-device run
    missing = sorted(set(example.params) - set(example.final_params)) if example.final_params else []
    if missing:
        raise CheckError(f"no final value for parameter(s) {', '.join(map(repr, missing))} "
                         "(every parameter of params.npz is compared after the run)",
                         str(root / "params_final.npz"))
    absent = sorted(set(inputs) - set(example.data))
    if absent:
        raise CheckError(f"no array for the program's input(s) {', '.join(map(repr, absent))} "
                         f"(it has: {', '.join(map(repr, sorted(example.data))) or 'none'})",
                         str(root / "data.npz"))
    for key, array in example.data.items():
        if key not in inputs:
            raise CheckError(f"{key!r} is not an input (pd_op.data) of the program (inputs: "
                             f"{', '.join(sorted(inputs)) or 'none'})", str(root / "data.npz"))
        declared = inputs[key]
        shape = tuple(getattr(declared, "shape", ()))
        if shape and shape[0] >= 0:  # one step holds every micro-batch
            declared = attrs.evolve(declared, shape=(shape[0] * micro_batches, *shape[1:]))
        check_array(str(root / "data.npz"), key, array, declared, ("steps",))
        check_finite(str(root / "data.npz"), key, array)


def check_finite(file: str, key: str, array) -> None:
    """A float array of the example's inputs (``params.npz``, ``data.npz``) must hold numbers
    only: a NaN or infinite initial value or sample trains into NaN everywhere (and numpy's
    warnings) and ends in a MISMATCH that blames the passes.

    Raises:
        CheckError: naming the file, the key, what it holds and where first.
    """
    array = np.asarray(array)
    if not np.issubdtype(array.dtype, np.inexact):
        return
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        value = array[index]
        what = "NaN" if value != value else "an infinite value"
        raise CheckError(f"{key!r} holds {what} (first at index {list(index)}; "
                         f"{int(bad.sum())} non-finite of {array.size}): inputs must be finite",
                         file)


def check_example(example, skip_inputs=("learning_rate_0",)):
    """Every check of this module an example allows before it runs: its ``[parallel]`` degrees
    against its forward program's meshes, and its arrays against the program's parameters and
    inputs (the forward program as the example holds it, at the example's own micro-batch count:
    ``--micro-batches`` re-derives the program later, from the same global batch). Returns the
    parsed forward program.

    Raises:
        CheckError, ParseError: naming the file.
    """
    from rulepass.engine.pir.parse import parse_program

    forward = parse_program(example.forward_text, str(example.path / "forward.pir"))
    check_parallel_config(forward, example.parallel, str(example.path / "config.toml"))
    check_schedule(example.parallel.schedule, example.parallel.vpp,
                   str(example.path / "config.toml"))
    check_vpp_layout(forward, example.parallel, str(example.path / "config.toml"))
    check_micro_batches(example, forward, str(example.path / "config.toml"))
    check_example_arrays(example, forward, example.parallel.micro_batches, skip_inputs)
    return forward


def check_vpp_layout(program, parallel, config_file: str) -> None:
    """With ``vpp > 1``, the layout ``complete_chunk_id`` (the chain's first step) will compute
    from ``program``, the example's forward program: ``seg_method`` must name the layers and
    every stage must hold at least ``vpp`` of them. Checked here so that a wrong config is
    reported against the config file, not at the installed rule that runs the layout.

    Raises:
        CheckError: naming the config file, its ``vpp`` / ``seg_method`` and the reason
            (:func:`rulepass.engine.paddle.functions.vpp_layout`'s message).
    """
    from rulepass.engine.paddle.functions import VppLayoutError, vpp_layout

    if parallel.vpp < 2:
        return
    try:
        vpp_layout(program, parallel.pp, parallel.vpp, parallel.seg_method,
                   parallel.schedule.lower() in ("zbvpp", "zbv"))
    except VppLayoutError as error:
        raise CheckError(f"[parallel] vpp = {parallel.vpp}, seg_method = "
                         f"{parallel.seg_method!r}: {error}", config_file) from None


def check_micro_batches(example, program, config_file: str) -> None:
    """``[parallel] micro_batches`` against the program and ``data.npz``: the program's inputs
    hold one micro-batch (their dim 0) and ``data.npz`` the global batch of each step (its dim
    1), so the config's count must divide the global batch into micro-batches of the program's
    size. The same message as ``--micro-batches`` when it does not divide it.

    Raises:
        CheckError: naming the config file, the count, the global batch and the input.
    """
    count = example.parallel.micro_batches
    inputs = program_inputs(program)
    for key, array in sorted(example.data.items()):
        shape = tuple(getattr(inputs.get(key), "shape", ()))
        if not shape or shape[0] <= 0 or getattr(array, "ndim", 0) < 2:
            continue
        batch, size = int(array.shape[1]), shape[0]
        if batch % size:
            continue  # data.npz is wrong whatever the count: check_array says so
        if batch % count:
            raise CheckError(f"[parallel] micro_batches = {count} does not divide the global "
                             f"batch of {batch} samples ({key!r} of data.npz); choose a divisor "
                             f"of {batch} (the program's inputs hold micro-batches of {size}: "
                             f"micro_batches = {batch // size})", config_file)
        if batch // count != size:
            raise CheckError(f"[parallel] micro_batches = {count} splits the global batch of "
                             f"{batch} samples ({key!r} of data.npz) into micro-batches of "
                             f"{batch // count}, but the program's inputs hold {size} samples "
                             f"(micro_batches = {batch // size}; --micro-batches re-derives the "
                             "program for another count)", config_file)


def unchecked_references(example) -> list:
    """What ``rulepass run`` cannot compare with Paddle because the example lacks the file, one
    sentence each for the report's "not checked" lines (the single-device run still checks
    losses and parameters): no ``reference.json`` (Paddle's losses), no ``params_final.npz``
    (Paddle's final parameters)."""
    gaps = []
    if example.reference_losses is None:
        gaps.append("losses vs Paddle (no reference.json)")
    if not example.final_params:
        gaps.append("final parameters vs Paddle (no params_final.npz)")
    return gaps


def verified_forward(text: str, file: str):
    """The forward program ``text`` parsed and verified (``engine/pir/verify.py``), so that a
    broken input (operands that do not broadcast, a use before its definition) is named with
    ``file`` and its own lines before the chain runs, not by the check of a rank's final
    program. Raises ParseError or VerifyError."""
    from rulepass.engine.errors import VerifyError
    from rulepass.engine.pir.parse import parse_program
    from rulepass.engine.pir.verify import verify

    program = parse_program(text, file)
    try:
        verify(program)
    except VerifyError as error:
        error.file = error.file or file
        raise
    return program
