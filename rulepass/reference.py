"""The single-device reference of ``rulepass run``, computed from the program itself (issue 15).

The example's forward dist program goes through the chain's rank-independent steps (the same
backward and optimizer rules as every rank's, gradient merge over the config's micro-batches)
and then ``rules/dist_to_global.rw`` (:func:`~rulepass.chain.single_device_program`): reshards
are identities, local regions run on the global tensor, every value is dense with its global
shape. That program trains on one device with our own executor, micro-batch by micro-batch as
the config says (micro-batch ``m`` is rows ``m*B/M .. (m+1)*B/M`` of the step's batch, the same
slice every rank's piece of micro-batch ``m`` is cut from, :mod:`rulepass.runtime.sharding`).

It runs in float64 (:func:`as_float64` promotes every float32 value and ``dtype`` attribute;
the losses are the reference a run without Paddle's ``reference.json`` is judged against) and in
float32 (the precision of the ranks: what the localizer compares op by op). Nothing here reads
Paddle's results.
"""

from __future__ import annotations

import attrs
import numpy as np

from rulepass.chain import CompiledRank, single_device_program
from rulepass.engine.ir.attributes import Symbol
from rulepass.engine.ir.core import Program
from rulepass.engine.ir.types import DenseTensorType
from rulepass.engine.paddle.optimizer import optimizer_state_initial_values
from rulepass.example import Example, ExampleError
from rulepass.runtime.executor import persistable_data
from rulepass.runtime.pipeline import RankProgram, mean_losses, run_rank
from rulepass.runtime.sharding import micro_batch

LR_FEED = "learning_rate_0"


@attrs.define
class SingleDeviceRun:
    """One single-device training: ``losses`` per step, ``params`` (name -> final array,
    global) and the ``compiled`` program it ran."""

    losses: list
    params: dict
    compiled: CompiledRank


def as_float64(program: Program) -> Program:
    """Promote ``program`` (dense, in place) from float32 to float64: every float32 value's type
    and every ``dtype:float32`` attribute (``pd_op.data``, ``full``, ``full_like`` ...). Returns
    the program. Other dtypes (int64 indices, bool masks) are kept."""
    for value in program.kwargs:
        if isinstance(value.type, DenseTensorType) and value.type.dtype == "float32":
            value.set_type(DenseTensorType(value.type.shape, "float64"))
    for op in program.walk():
        if op.attributes.get("dtype") == Symbol("float32"):
            op.set_attr("dtype", Symbol("float64"))
        for r in op.results:
            if isinstance(r.type, DenseTensorType) and r.type.dtype == "float32":
                r.set_type(DenseTensorType(r.type.shape, "float64"))
    return program


def compile_single_device(example: Example, rules, forward: Program,
                          micro_batches: int) -> CompiledRank:
    """The example's single-device program (float32), see the module docstring."""
    par = example.parallel
    return single_device_program(forward, rules, pp=par.pp, vpp=par.vpp,
                                 seg_method=par.seg_method, micro_batches=micro_batches,
                                 optimizer=example.optimizer)


def _cast(array, dtype):
    array = np.asarray(array)
    return array.astype(dtype) if array.dtype == np.float32 and dtype != np.float32 else array


def initial_scope(example: Example, program: Program, dtype=np.float32) -> dict:
    """Parameters (global, from ``params.npz``) and optimizer state of ``program``; float32
    arrays cast to ``dtype``. Raises ExampleError naming a parameter without a value."""
    state = optimizer_state_initial_values(program)
    scope = {}
    for op in program.walk():
        if op.name != "builtin.parameter":
            continue
        name = op.attributes["parameter_name"]
        if name in example.params:
            scope[name] = _cast(example.params[name], dtype).copy()
        elif name in example.opt_state:
            scope[name] = _cast(example.opt_state[name], dtype).copy()
        elif name in state:
            shape, fill = state[name]
            scope[name] = np.full(shape, fill, dtype=dtype)
        else:
            raise ExampleError(f"{example.path / 'params.npz'}: no initial value for {name}")
    for op in program.walk():  # persistable data kept in the scope (AdamW's moments, betas)
        name = op.attributes.get("name")
        if op.name == "pd_op.data" and persistable_data(op) and name in example.opt_state:
            scope.setdefault(name, _cast(example.opt_state[name], dtype).copy())
    return scope


def train_single_device(example: Example, compiled: CompiledRank, *, steps: int,
                        micro_batches: int, float64: bool = False, observer=None,
                        random_model=None) -> SingleDeviceRun:
    """Train ``compiled`` (a single-device program, see :func:`compile_single_device`) for
    ``steps`` steps on one device; in float64 when ``float64`` (the program is promoted on a
    copy). ``observer(op, results)`` is given to the executor (see ``runtime.executor``); with
    micro-batches the op's k-th run in a step is micro-batch k. ``random_model``: the random
    ops of the forward program (:mod:`rulepass.random_draws`), drawn as Paddle's model draws
    them. Raises ExecutionError, PipelineError, ShardingError (a batch the micro-batches do not
    divide)."""
    from rulepass.random_draws import draw_source
    from rulepass.runtime.comm.local import run_ranks

    program = compiled.program
    dtype = np.float32
    source = draw_source(random_model, [compiled]) if random_model is not None else None
    if float64:
        # the promoted copy's ops draw what the float32 program's draw (ops in program order)
        copy = program.clone()
        if source is not None:
            source.ops = {new: source.ops[old] for old, new in zip(program.walk(), copy.walk())
                          if old in source.ops}
        program = as_float64(copy)
        dtype = np.float64
    scope = initial_scope(example, program, dtype)
    outputs = []

    def feeds(step: int, m: int) -> dict:
        out = {LR_FEED: np.asarray(example.lr, dtype=dtype)}
        for name, batches in example.data.items():
            out[name] = _cast(micro_batch(batches[step], micro_batches, m), dtype)
        return out

    for step in range(steps):
        if observer is not None and hasattr(observer, "start_step"):
            observer.start_step(step)
        rank = RankProgram(program, scope, lambda _s, m, step=step: feeds(step, m))

        def body(communicator, rank=rank):
            return run_rank(rank, communicator, steps=1,
                            schedule="FThenB" if micro_batches > 1 else None, num_stages=1,
                            micro_batches=micro_batches, observer=observer,
                            random_source=source)

        (result,) = run_ranks(1, body)
        outputs.extend(result.outputs)
    losses = mean_losses([outputs])
    return SingleDeviceRun(losses, {k: np.asarray(v) for k, v in scope.items()}, compiled)


@attrs.define
class SingleDevice:
    """The single-device reference of one run: ``float64`` and ``float32`` trainings (the same
    program), and the recorder of every op's float32 results when localizing (else None)."""

    float64: SingleDeviceRun
    float32: SingleDeviceRun
    recorder: object = None

    def summary(self) -> dict:
        """What ``summary.json`` holds under ``"single_device"``."""
        return {"losses": self.float64.losses, "losses_float32": self.float32.losses}


def single_device(example: Example, rules, forward: Program, *, steps: int, micro_batches: int,
                  localize: bool = False, random_model=None) -> SingleDevice:
    """Compile and train the single-device reference in float64 and float32; with ``localize``
    the float32 run records every op's results (:class:`rulepass.localize.ReferenceRecorder`);
    ``random_model``: see :func:`train_single_device`."""
    from rulepass.localize import ReferenceRecorder

    compiled = compile_single_device(example, rules, forward, micro_batches)
    recorder = ReferenceRecorder(compiled.origins) if localize else None
    f64 = train_single_device(example, compiled, steps=steps, micro_batches=micro_batches,
                              float64=True, random_model=random_model)
    f32 = train_single_device(example, compiled, steps=steps, micro_batches=micro_batches,
                              observer=recorder, random_model=random_model)
    return SingleDevice(f64, f32, recorder)
