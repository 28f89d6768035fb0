"""Checks of what the user asks for against what the program holds, made before any work so that
a wrong question is an error rather than a silent empty answer (issue 18):

- a pass's ``rank`` param must be one of the ranks of the program's process meshes
  (``rewrite --pass prune_other_ranks -p rank=99`` printed an empty program);
- an example's ``world_size`` must be the number of ranks its program's meshes hold, and ``pp``
  must be the number of stage meshes (a 2-rank program run with ``world_size = 4, pp = 4`` said
  OK and reported pp=4's bubble);
- ``params.npz`` / ``data.npz`` arrays must have the dtype and shape the program declares, and
  name only what the program has.

Every problem is a :class:`CheckError` (exit 1) naming the file and what to change.
"""

from __future__ import annotations

import attrs

from rulepass.engine.errors import RulepassError
from rulepass.engine.ir.types import DistTensorType


class CheckError(RulepassError):
    """A request the program cannot answer: a rank it does not have, degrees its meshes do not
    have, an input array of another dtype or shape."""

    kind = "error"


def program_meshes(program) -> set:
    """Every distinct process mesh of ``program``: of the ops' dist attributes and of the dist
    types of their results and of the kwargs (one walk; linear in the program)."""
    meshes = set()
    for op in program.walk():
        if op.dist_attr is not None:
            meshes.add(op.dist_attr.mesh)
        for value in op.results:
            if isinstance(value.type, DistTensorType) and value.type.dist.mesh is not None:
                meshes.add(value.type.dist.mesh)
    return meshes


def program_ranks(program) -> set:
    """The ranks of ``program``'s process meshes (empty for a dense program)."""
    return {rank for mesh in program_meshes(program) for rank in mesh.process_ids}


def _ranks_text(ranks) -> str:
    ranks = sorted(ranks)
    shown = ", ".join(map(str, ranks[:16])) + (", ..." if len(ranks) > 16 else "")
    return f"{shown} ({len(ranks)} rank{'s' if len(ranks) != 1 else ''})"


def check_pass_params(program, pass_name: str, params: dict, filename: str) -> None:
    """A ``rank`` param of pass ``pass_name`` must name a rank of ``program``'s meshes (a dense
    program, with no mesh, takes any rank).

    Raises:
        CheckError: naming the rank, the program's ranks and the file.
    """
    rank = params.get("rank")
    if not isinstance(rank, int) or isinstance(rank, bool):
        return
    ranks = program_ranks(program)
    if ranks and rank not in ranks:
        raise CheckError(f"pass {pass_name}: rank={rank} is not a rank of the program, whose "
                         f"process meshes hold ranks {_ranks_text(ranks)}", filename)


def check_parallel_config(program, parallel, config_file: str) -> None:
    """``world_size`` and ``pp`` of an example's ``[parallel]`` against its forward program: the
    meshes must hold exactly ranks 0 .. world_size-1, and with ``pp > 1`` the ranks must fall into
    ``pp`` disjoint stage meshes of ``world_size / pp`` ranks (Paddle's
    ``ProcessMesh(arange(world).reshape(pp, ...))``).

    Raises:
        CheckError: naming the config file, the key and what the program has.
    """
    meshes = program_meshes(program)
    ranks = {rank for mesh in meshes for rank in mesh.process_ids}
    if not ranks:
        return
    if ranks != set(range(parallel.world_size)):
        raise CheckError(f"[parallel] world_size = {parallel.world_size}, but the program's "
                         f"process meshes hold ranks {_ranks_text(ranks)}", config_file)
    if parallel.pp > 1:
        size = parallel.world_size // parallel.pp
        stages = {mesh.process_ids for mesh in meshes if len(mesh.process_ids) == size}
        covered = {rank for ids in stages for rank in ids}
        if len(stages) != parallel.pp or covered != ranks:
            raise CheckError(f"[parallel] pp = {parallel.pp}, but the program has "
                             f"{len(stages)} stage mesh(es) of {size} rank(s) each", config_file)


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
    (a final check of 1 of 10 parameters is no check).

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
    # without params_final.npz the final parameters are compared with the single-device run
    missing = sorted(set(example.params) - set(example.final_params)) if example.final_params else []
    if missing:
        raise CheckError(f"no final value for parameter(s) {', '.join(map(repr, missing))} "
                         "(every parameter of params.npz is compared after the run)",
                         str(root / "params_final.npz"))
    for key, array in example.data.items():
        if key not in inputs:
            raise CheckError(f"{key!r} is not an input (pd_op.data) of the program (inputs: "
                             f"{', '.join(sorted(inputs)) or 'none'})", str(root / "data.npz"))
        declared = inputs[key]
        shape = tuple(getattr(declared, "shape", ()))
        if shape and shape[0] >= 0:  # one step holds every micro-batch
            declared = attrs.evolve(declared, shape=(shape[0] * micro_batches, *shape[1:]))
        check_array(str(root / "data.npz"), key, array, declared, ("steps",))


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
    check_example_arrays(example, forward, example.parallel.micro_batches, skip_inputs)
    return forward
