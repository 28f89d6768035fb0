"""The random numbers of a run: every rank, and the single-device run, draw what Paddle's
single-process model drew.

Paddle's single-process run (the reference of ``reference.json``) executes the forward program
once per step on the whole batch; each random op that draws from the default CPU generator
(``pd_op.dropout`` in training with ``p < 1`` and no fixed seed, ``pd_op.uniform`` without a
seed; :data:`DRAWS`) takes one generator output per element of its result, in program order.
``reference.json``'s ``"rng": {"seed": S}`` says the capture seeded the generator with
``paddle.seed(S)`` right before the first step (``tools/capture_paddle.py``).

A run splits that model: each rank holds a piece of a random op's result (its placement before
``dist_to_dense``), and with micro-batches each run of the op computes one block of the batch.
:func:`random_model` finds the model's random ops in the forward program (their global shape for
one micro-batch, the dim holding the micro-batch: :func:`rulepass.micro_batches.batch_positions`,
and their offset in a step's draws); :func:`draw_source` maps the random ops of compiled
programs to them (by their origin, :func:`rulepass.chain.origin_keys`) and returns the
:class:`~rulepass.runtime.generator.IndexedSource` the executors draw from.

Without a seed in ``reference.json`` the generator is seeded with 0: the run is then judged
against the single-device run only (Paddle's numbers cannot be reproduced), which
:class:`RandomModel` ``draws_unmatched`` reports.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.ir.types import DenseTensorType, DistTensorType
from rulepass.example import ExampleError
from rulepass.micro_batches import UNKNOWN, batch_positions
from rulepass.runtime.generator import IndexedSource, RandomOp
from rulepass.runtime.kernels.registry import RANDOM_OPS
from rulepass.runtime.sharding import local_piece

__all__ = ["DRAWS", "ModelOp", "RandomModel", "random_model", "draw_source"]


def _constant(op: Operation, index: int):
    v = op.operand(index) if index < op.num_operands else None
    owner = v.owner if v is not None else None
    if owner is not None and owner.name == "pd_op.full":
        return float(owner.attr("value"))
    return None


def _dropout_draws(op: Operation) -> tuple[bool, str]:
    """Whether a dropout draws from the generator, and the draws' type (always float: Paddle's
    CPU kernel uses ``uniform_real_distribution<float>``)."""
    if op.attr("is_test", False) or op.operand(1) is not None or (
            op.attr("fix_seed", False) and op.attr("seed", 0)):
        return False, "float32"
    p = _constant(op, 2) if op.num_operands > 2 else op.attr("p")
    if p is None:
        raise ExampleError(f"{op.name}: its probability p is not a constant (pd_op.full), so "
                           "whether it draws random numbers is not known")
    return float(p) != 1.0, "float32"


def _uniform_draws(op: Operation) -> tuple[bool, str]:
    dtype = str(op.attr("dtype", "float32")).lower()
    return not op.attr("seed", 0), "float64" if dtype == "float64" else "float32"


#: random op -> ``(draws from the default generator, the draws' type)`` (Paddle 3.3.1's CPU
#: kernels; an op with a seed of its own draws from an engine of that seed)
DRAWS: dict[str, Callable[[Operation], tuple[bool, str]]] = {
    "pd_op.dropout": _dropout_draws,
    "pd_op.uniform": _uniform_draws,
}


@attrs.frozen
class ModelOp:
    """A random op of the forward program: its ``offset`` in a step's generator outputs,
    ``shape`` (global, one micro-batch), ``batch_dim`` (or None), ``dtype`` of its draws."""

    offset: int
    shape: tuple
    batch_dim: int | None
    dtype: str


@attrs.frozen
class RandomModel:
    """The random ops of a forward program by position (``ops``: index -> :class:`ModelOp`),
    the generator outputs one step draws (``per_step``), the micro-batch count, the generator
    seed, and ``draws_unmatched``: the names of the ops that draw from the generator when the
    reference gives no seed (empty otherwise)."""

    ops: dict
    per_step: int
    micro_batches: int
    seed: int
    draws_unmatched: tuple = ()


def _global_shape(t) -> tuple:
    if isinstance(t, (DenseTensorType, DistTensorType)):
        return tuple(int(n) for n in t.shape)
    raise ExampleError(f"a random op's result has type {t}, not a tensor")


def random_model(forward: Program, micro_batches: int, seed: int | None) -> RandomModel | None:
    """The random ops of ``forward`` (the forward dist program of one micro-batch), or None when
    it has none. Raises ExampleError when, with several micro-batches, the dim of a random op's
    result that holds the micro-batch cannot be told, or a dropout's ``p`` is not a constant."""
    ops: dict[int, ModelOp] = {}
    offset = 0
    drawing = []
    positions = None
    for index, op in enumerate(forward.block):
        if op.name not in RANDOM_OPS:
            continue
        rule = DRAWS.get(op.name)
        if rule is None:
            raise ExampleError(f"{op.name} draws random numbers, and how Paddle's kernel draws "
                               "them is not known (rulepass/random_draws.py DRAWS)")
        draws, dtype = rule(op)
        shape = _global_shape(op.results[0].type)
        batch_dim = None
        if micro_batches > 1:
            if positions is None:
                sizes = {int(o.results[0].type.shape[0]) for o in forward.block
                         if o.name == "pd_op.data" and o.results[0].type.shape}
                positions = batch_positions(forward, min(sizes)) if sizes else {}
            position = positions.get(op.results[0])
            if position == UNKNOWN:
                raise ExampleError(f"{op.name}: which dim of its result holds the micro-batch "
                                   "is not known (an op before it is not in "
                                   "rulepass/micro_batches.py BATCH_RULES), so its random "
                                   "numbers cannot be split into micro-batches")
            batch_dim = position[0] if position is not None else None
        ops[index] = ModelOp(offset, shape, batch_dim, dtype)
        if draws:
            drawing.append(op.name)
            count = 1
            for n in shape:
                count *= n
            offset += count * (micro_batches if batch_dim is not None else 1)
    if not ops:
        return None
    unmatched = tuple(sorted(set(drawing))) if seed is None else ()
    return RandomModel(ops, offset, micro_batches, seed or 0, unmatched)


def draw_source(model: RandomModel, compiled_ranks) -> IndexedSource:
    """The draw source of the random ops of ``compiled_ranks`` (CompiledRanks compiled with
    origins; a rank's placements give its pieces, none: the whole tensor, the single-device
    run). Raises ExampleError for a random op without an origin in the forward program."""
    ops = {}
    for compiled in compiled_ranks:
        origins = compiled.origins or {}
        placements = compiled.placements or {}
        for op in compiled.program.walk():
            if op.name not in RANDOM_OPS:
                continue
            key = origins.get(op)
            info = model.ops.get(key[1]) if key is not None and key[0] == "f" else None
            if info is None:
                raise ExampleError(f"rank {compiled.rank}: {op.name} draws random numbers but is "
                                   "not an op of the forward program, so what it draws is not "
                                   "known")
            placement = placements.get(op.results[0])
            piece = _piece(placement, compiled.rank)
            ops[op] = RandomOp(info.offset, info.shape, model.micro_batches, info.batch_dim,
                               piece, info.dtype)
    return IndexedSource(ops, model.per_step, seed=model.seed)


def _piece(placement, rank: int):
    if isinstance(placement, DistTensorType):
        return lambda array: local_piece(array, placement, rank)
    return lambda array: array
