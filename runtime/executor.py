"""The per-rank executor: interprets one rank's dense Paddle program op by op.

:class:`Executor` takes a dense :class:`~rulepass.engine.ir.core.Program` (every value a
``DenseTensorType``, as Paddle's ``dist2dense`` pass leaves it) and runs it on arrays of an array
namespace ``xp`` (NumPy through ``array_api_compat`` by default, CuPy for the NCCL backend; the code
path is the same). Before anything runs it checks that every op has a handler, so an unknown op is
reported with its line in the printed program, not after half a step has run.

Ops are handled by three tables keyed by op name, looked up in this order:

- ``builtin.*`` structure ops and ``pd_op.data``/``fetch`` (``STRUCTURE_OPS``, in
  :mod:`rulepass.runtime.structure_ops`):
  ``builtin.combine`` -> a Python list, ``builtin.split`` -> its items, ``builtin.slice`` -> item
  ``index``, ``builtin.parameter`` -> ``scope[parameter_name]``, ``builtin.shadow_output`` /
  ``pd_op.fetch`` -> ``outputs[output_name / name]``, ``pd_op.data`` -> ``feeds[name]``;
- communication ops (``COMMUNICATION_OPS``), run through the rank's
  :class:`~rulepass.runtime.comm.collectives.Communicator`;
- the kernel table of :mod:`rulepass.runtime.kernels`.

Paddle semantics this module relies on (Paddle 3.3.1):

- **In place.** An op whose name ends in ``_`` updates operands in place: the new array is stored
  into the cell of the operand, so later readers of the operand's value and of the result (which
  aliases it) both see it. The first operand pairs with the first result; optimizer ops also update
  their state operands (``IN_PLACE`` below: each input ``x`` updated into output ``x_out``, with
  operand and result positions from the op signatures of the 3.3.1 wheel
  (``paddle/_typing/libs/libpaddle/pir/ops.pyi``, names in ``incubate/autograd/phi_ops_map.py``):
  ``sgd_`` master_param, ``adam_``/``adamw_`` moments, moment2_max, beta powers, master_param,
  ``momentum_`` velocity, master_param). A null operand is skipped.
- **Persistent variables.** ``builtin.parameter`` reads ``scope[parameter_name]`` and program kwargs
  (``%kwarg_<name>``) read ``local_scope[name]``, then ``scope[name]``, then ``feeds[name]``. Both
  bind a write-through cell, so ``sgd_`` on a parameter or ``add_`` on a gradient-merge buffer
  updates the scope. A kwarg marked ``persistable:true`` that no scope holds is created as zeros of
  its type in ``scope``: these are the ``<param>@GRAD@MERGE`` buffers of Paddle's gradient-merge
  pass, which its startup program fills with zeros (``auto_parallel_gradient_merge.py``).
- **Outputs.** ``builtin.shadow_output`` stores into ``outputs`` and, when a ``local_scope`` is
  given, into it too (that is how Paddle's job programs hand values to later jobs). A program's loss
  is the ``shadow_output`` named ``loss_0`` (Paddle's ``DistModel`` fetch name); a pipeline produces
  one per micro-batch on the last stage.
- **Learning rate.** Paddle's optimizer reads the learning rate from a persistable scalar
  ``pd_op.data`` named ``learning_rate_0``; it is fed like any input (``reference.json``'s
  ``feeds`` in the captured corpus).
- **Collectives** (handlers in :mod:`rulepass.runtime.comm.ops`). ``ring_id`` names a process
  group: ``program.process_groups`` (our header), else the ``process_groups`` argument (the
  ``process_groups.json`` captured beside Paddle's programs). ``reduce_type`` is phi's
  ``ReduceType`` (``paddle/phi/common/reduce_type.h``: 0 SUM, 1 MAX, 2 MIN, 3 PROD, 4 AVG).
  ``peer`` of ``send_v2``/``recv_v2`` and ``root`` of ``broadcast`` are ranks *inside* the group
  (the NCCL communicator's rank), so the global rank is ``group[peer]``; ``recv_v2`` takes its
  shape and dtype from its result type.
- **Point-to-point keys.** A message is matched by (sender, receiver, key). By default the key is
  ``(direction, ring_id)`` with direction ``"forward"`` for op_role 0, ``"backward"`` for 1, and
  messages with equal keys are matched in order; the pipeline passes a ``p2p_key`` that adds the
  micro-batch and the virtual-stage boundary (see :mod:`rulepass.runtime.pipeline`).

Arrays: feeds and scope entries may be NumPy arrays whatever ``xp`` is; each is converted with
``xp.asarray`` when first read (a scope entry is replaced by its converted array, so after training
on CuPy the scope holds CuPy arrays).

Values are freed after their last read (see :class:`~rulepass.runtime.environment.Environment`).
Each result is checked against its type (static dims, dtype) so a wrong kernel or a wrong rewrite is
caught at the op that produced it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any

import array_api_compat.numpy as compat_numpy

from rulepass.engine.errors import RuntimeFailure, program_context
from rulepass.engine.ir.attributes import to_python
from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.ir.types import DenseTensorType
from . import kernels as _kernels  # noqa: F401  (importing registers the kernels)
from rulepass.runtime.comm.collectives import CommAbortedError, Communicator
from rulepass.runtime.comm.ops import COMMUNICATION_OPS, REDUCE_TYPES, default_p2p_key
from .environment import Environment, ScopeCell
from .generator import SequentialSource
from .kernels.lean import lean_namespace
from .kernels.operands import dtype_from_name
from .kernels.registry import KERNELS
from .loop import Observer, run_steps, run_steps_observed
from .plan import (InputChecks, OpStep, SequencePlan, bound_call, bound_kernel, free_table,
                   plan_op)
from .unrolled import unroll
from .structure_ops import STRUCTURE_OPS, persistable_data

__all__ = [
    "ExecutionError",
    "UnsupportedOpError",
    "MissingInputError",
    "REDUCE_TYPES",
    "IN_PLACE",
    "STRUCTURE_OPS",
    "COMMUNICATION_OPS",
    "default_p2p_key",
    "Executor",
    "RunStats",
    "op_lines",
]

IN_PLACE: dict[str, tuple[tuple[int, int], ...]] = {
    "pd_op.sgd_": ((0, 0), (3, 1)),
    "pd_op.adam_": ((0, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6)),
    "pd_op.adamw_": ((0, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6)),
    "pd_op.momentum_": ((0, 0), (2, 1), (4, 2)),
}
"""(operand, result) pairs updated in place, for in-place ops that update more than operand 0.
Every other op whose name ends in ``_`` updates operand 0 into result 0."""


class ExecutionError(RuntimeFailure):
    """An op failed, or cannot run, on some rank. Names the op, its 1-based line in the printed
    program (``line``) and shows the printed lines around it (``context``).

    Attributes: ``op`` (the Operation or None), ``rank``.
    """

    def __init__(self, message: str, *, op: Operation | None = None, rank: int | None = None,
                 file: str | None = None, line: int | None = None, context: str | None = None):
        self.op = op
        self.rank = rank
        prefix = f"rank {rank}: " if rank is not None else ""
        super().__init__(prefix + message, file=file, line=line, context=context)


class UnsupportedOpError(ExecutionError):
    """The program holds an op with no handler (no kernel, not a structure or communication op),
    or an op with regions (``pd_op.if``/``while``), which the executor does not interpret.
    Raised when the :class:`Executor` is built, before anything runs."""


class MissingInputError(ExecutionError):
    """A ``pd_op.data`` input, a parameter or a kwarg the program reads has no value, or a fed
    array has the wrong shape or dtype. Raised before the first op runs."""


def op_lines(program: Program) -> dict[Operation, int]:
    """0-based line of each op (nested ones included) in ``print_program(program)``'s text.

    Follows the printer's layout: process-group header lines, ``{``, the ``^kw:`` block, then one
    line per op, with ``} else {`` / ``}`` lines closing regions.
    """
    line = len(program.process_groups) + 1
    if program.kwargs:
        line += 1 + len(program.kwargs)
    lines: dict[Operation, int] = {}
    stack: list = [iter(program.block)]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
            if stack:
                line += 1  # "}" or "} else {" closing a region
            continue
        lines[op] = line
        line += 1
        for region in reversed(op.regions):
            stack.append(iter(region))
    return lines


class RunStats:
    """What one :meth:`Executor.run_ops` call did: ``ops_run``, ``peak_live_values`` and
    ``peak_live_bytes`` (of the environment, see ``Environment``), ``freed`` values, and
    ``op_seconds`` (op name -> total wall seconds, when timing was on)."""

    def __init__(self):
        self.ops_run = 0
        self.peak_live_values = 0
        self.peak_live_bytes = 0
        self.freed = 0
        self.op_seconds: Counter = Counter()


def _has_handler(name: str) -> bool:
    return name in STRUCTURE_OPS or name in COMMUNICATION_OPS or name in KERNELS


# ---------------------------------------------------------------------------------------------


class Executor:
    """Runs one rank's dense program.

    Args:
        program: the dense program (top-level ops only; an op with regions is refused).
        rank: this rank's global rank (for messages).
        communicator: the rank's Communicator; needed only when the program communicates.
        xp: array namespace (default ``array_api_compat.numpy``; pass ``array_api_compat.cupy``
            for GPUs). The kernels run in its lean form (:mod:`rulepass.runtime.kernels.lean`,
            the ``xp`` attribute): the same functions, with fewer Python layers for NumPy.
        process_groups: ring_id -> global ranks, used for rings the program's own header lacks.
        source: a file name shown in error messages.
        observer: ``observer(op, results: tuple)``, called after each op of every run with the
            op's result arrays (see :mod:`rulepass.runtime.plan`); also settable as the
            ``observer`` attribute. None (the default) costs nothing.
        random_source: where random ops (``dropout``, ``uniform``) get their numbers: an object
            with ``draws(op, xp)`` (:mod:`rulepass.runtime.generator`); also settable as the
            ``random_source`` attribute. Default: a ``SequentialSource`` seeded with 0 (Paddle's
            CPU generator after ``paddle.seed(0)``, drawn in the order the ops run).

    The program is planned when the executor is built (:mod:`rulepass.runtime.plan`): each op's
    kernel or handler, operands, freeing and result checks are resolved once, in ``steps``. The
    loop of :mod:`rulepass.runtime.loop` runs them; from the second run of the same ops in an
    environment of their own (``unroll_after``), one closure per op does
    (:mod:`rulepass.runtime.unrolled`), with the same results and errors.

    Raises:
        UnsupportedOpError: an op has no handler (listed with its line), before anything runs.
        ExecutionError: a result type names a dtype the array namespace lacks.
    """

    unroll_after: int | None = 1
    """Own-environment runs of an index sequence by the loop before its steps are unrolled into
    one function (``unrolled.unroll``) for the runs after (0: from the first); None: never.
    One run of a program then pays for no unrolling; a training loop runs the unrolled steps
    from its second step."""

    def __init__(self, program: Program, *, rank: int = 0, communicator: Communicator | None = None,
                 xp: Any = None, process_groups: Mapping[int, Sequence[int]] | None = None,
                 source: str | None = None, observer: Observer | None = None,
                 random_source: Any = None):
        self.program = program
        self.random_source = random_source if random_source is not None else SequentialSource(0)
        self.rank = rank
        self.communicator = communicator
        # the kernels get xp's lean form (kernels/lean.py: the same results, fewer Python
        # layers per call); a namespace it does not know is used as it is
        self.xp = lean_namespace(xp if xp is not None else compat_numpy)
        self.source = source
        self.process_groups: dict[int, tuple[int, ...]] = {
            int(k): tuple(int(r) for r in v) for k, v in (process_groups or {}).items()
        }
        self.process_groups.update(program.process_groups)
        self.ops: list[Operation] = list(program.block)
        self.index = {op: i for i, op in enumerate(self.ops)}
        self.observer: Observer | None = observer
        self.array_type = type(self.xp.asarray(0.0))  # what needs no conversion when read
        self._lines: dict[Operation, int] | None = None
        self._check_ops()
        self._attrs = [{k: to_python(v) for k, v in op.attributes.items()} for op in self.ops]
        # The plan: every op resolved once (see runtime/plan.py); result types the namespace
        # cannot check are reported here, before anything runs.
        self.steps: list[OpStep] = []
        for i, op in enumerate(self.ops):
            kernel = bound_kernel(op, self.xp, self._attrs[i], self.fail)
            self.steps.append(plan_op(
                op, i, bound_call(op, self.xp, self._attrs[i], self.fail, kernel), self.xp,
                self._in_place_pairs(op), op.name in _SCOPE_READERS, self.fail, kernel))
        # Per op, what check_inputs must look at: data/parameter ops and kwarg operands.
        self._sources = [op.name in _SOURCE_OPS or any(
            v is not None and v.owner is None for v in op.operands) for op in self.ops]
        self._plans: dict[tuple, SequencePlan] = {}
        self._every_op = tuple(range(len(self.ops)))
        self._use_counts: dict[tuple, Counter] = {}

    # -- checks -----------------------------------------------------------------------------

    def _check_ops(self) -> None:
        unknown = [op for op in self.program.walk() if op.regions or not _has_handler(op.name)]
        if not unknown:
            return
        first = unknown[0]
        names = sorted({op.name for op in unknown})
        if first.regions:
            what = f"op {first.name} has regions, which the executor does not interpret"
        else:
            what = (f"no kernel or handler for op {first.name}; write one with "
                    f"@kernel({first.name!r}) in rulepass.runtime.kernels")
        raise self._error(UnsupportedOpError, first,
                          f"{what} (ops without one: {', '.join(names)})")

    @staticmethod
    def _in_place_pairs(op: Operation) -> tuple[tuple[int, int], ...]:
        if op.name.startswith("builtin.") or not op.name.endswith("_"):
            return ()
        pairs = IN_PLACE.get(op.name, ((0, 0),))
        return tuple((o, r) for o, r in pairs
                     if o < op.num_operands and r < len(op.results) and op.operand(o) is not None)

    def line_of(self, op: Operation) -> int | None:
        """1-based line of ``op`` in the printed program (None if it is not in it)."""
        if self._lines is None:
            self._lines = op_lines(self.program)
        index = self._lines.get(op)
        return None if index is None else index + 1

    def fail(self, op: Operation | None, message: str) -> ExecutionError:
        """An ExecutionError naming ``op`` with its line and the printed lines around it."""
        return self._error(ExecutionError, op, message)

    def _error(self, cls, op: Operation | None, message: str):
        from rulepass.engine.pir.printer import print_program

        if op is None:
            return cls(message, rank=self.rank, file=self.source)
        line = self.line_of(op)
        context = None
        if line is not None:
            context = program_context(print_program(self.program).split("\n"), line - 1)
        return cls(message, op=op, rank=self.rank, file=self.source, line=line, context=context)

    # -- running ----------------------------------------------------------------------------

    def use_counts(self, indices: Iterable[int] | None = None) -> Counter:
        """Value -> reads by the ops at ``indices`` (default: all ops)."""
        return Counter(self._counts(self._every_op if indices is None else tuple(indices)))

    def _counts(self, key: tuple) -> Counter:
        counts = self._use_counts.get(key)
        if counts is None:
            counts = Counter()
            for i in key:
                for value, times in self.steps[i].reads:
                    counts[value] += times
            self._use_counts[key] = counts
        return counts

    def environment(self, indices: Iterable[int] | None = None, *,
                    measure_bytes: bool = False) -> Environment:
        """A fresh environment for running the ops at ``indices`` (default: all) in it;
        ``measure_bytes``: track its peak live bytes (see Environment)."""
        key = self._every_op if indices is None else tuple(indices)
        # Environment copies the counts it is given
        return Environment(self._counts(key), measure_bytes=measure_bytes, made_for=key)

    def _plan(self, indices: Iterable[int]) -> SequencePlan:
        """The :class:`~rulepass.runtime.plan.SequencePlan` of the ops at ``indices``, made once per distinct index sequence
        (a pipeline runs the same jobs every step)."""
        key = indices if isinstance(indices, tuple) else tuple(indices)
        plan = self._plans.get(key)
        if plan is None:
            steps = [self.steps[i] for i in key]
            plan = SequencePlan(key, steps, self._input_checks(key), free_table(steps))
            self._plans[key] = plan
        return plan

    def _input_checks(self, key: tuple) -> tuple:
        """What check_inputs verifies for the ops at ``key``, resolved once: per op that reads
        a data input, a parameter or a kwarg, ``(op, data name or None, persistable data,
        parameter name or None, kwargs)`` with ``kwargs`` its kwarg operands as ``(value,
        name, persistable)`` (an :class:`InputChecks`)."""
        checks = []
        for i in key:
            if not self._sources[i]:
                continue
            op, attrs = self.ops[i], self._attrs[i]
            data = attrs.get("name") if op.name in ("pd_op.data", "pd_op.feed") else None
            parameter = attrs.get("parameter_name") if op.name == "builtin.parameter" else None
            kwargs = tuple((v, v.kwarg_name, _persistable(v)) for v in op.operands
                           if v is not None and v.owner is None)
            checks.append((op, data, op.name in ("pd_op.data", "pd_op.feed")
                           and persistable_data(op), parameter, kwargs))
        return InputChecks(checks)

    def run(self, feeds: Mapping[str, Any] | None = None,
            scope: MutableMapping[str, Any] | None = None, **options) -> dict[str, Any]:
        """Run the whole program once; returns the outputs (``shadow_output``/``fetch`` by name).

        ``feeds``: ``pd_op.data`` name -> array (shape and dtype as the op's result type).
        ``scope``: the rank's persistent variables (parameters by ``parameter_name``,
        gradient-merge buffers, ...), updated in place by in-place ops. Further keyword options
        are those of :meth:`run_ops`. Raises MissingInputError, ExecutionError.
        """
        indices = self._every_op
        env = self.environment(indices)
        outputs: dict[str, Any] = {}
        self.run_ops(indices, env, feeds=feeds, scope=scope, outputs=outputs, **options)
        return outputs

    def check_inputs(self, indices: Iterable[int], env: Environment, feeds: Mapping[str, Any],
                     scope: Mapping[str, Any], local_scope: Mapping[str, Any] | None) -> None:
        """Raise MissingInputError when an op at ``indices`` reads a data input, parameter or
        kwarg that has no value (checked before anything runs). Only the ops that read data,
        parameters or kwargs are looked at; when every data input is fed, every parameter is
        in the scope and no op reads a kwarg, two set comparisons say so."""
        checks = self._plan(indices).checks
        fed, parameters, kwargs_read = checks.required
        if not kwargs_read and feeds.keys() >= fed and scope.keys() >= parameters:
            return
        for op, data, persistable, parameter, kwargs in checks:
            if data is not None and data not in feeds and not (persistable and data in scope):
                raise self._error(MissingInputError, op,
                                  f"no input fed for data {data!r} (fed: "
                                  f"{', '.join(sorted(feeds)) or 'nothing'})")
            if parameter is not None and parameter not in scope:
                raise self._error(MissingInputError, op,
                                  f"parameter {parameter!r} has no value in the "
                                  "rank's scope; load it (e.g. from params.npz) before running")
            for v, name, persistable_kwarg in kwargs:
                if v in env:
                    continue
                found = (local_scope is not None and name in local_scope) or name in scope \
                    or name in feeds
                if not found and not persistable_kwarg:
                    raise self._error(MissingInputError, op,
                                      f"kwarg %kwarg_{name} has no value: no earlier job wrote it "
                                      "and it is not persistable")

    def run_ops(self, indices: Iterable[int], env: Environment, *,
                feeds: Mapping[str, Any] | None = None,
                scope: MutableMapping[str, Any] | None = None,
                local_scope: MutableMapping[str, Any] | None = None,
                outputs: MutableMapping[str, Any] | None = None,
                p2p_key: Callable[[Operation], Hashable] | None = None,
                time_ops: bool = False, op_events: list | None = None,
                origin: float = 0.0, observer: Observer | None = None) -> RunStats:
        """Run the ops at ``indices`` (program positions, in the given order) in ``env``.

        ``local_scope``: values of one micro-batch by name (kwargs read it first, shadow_output
        writes it). ``outputs``: receives shadow_output/fetch values. ``p2p_key``: op -> message key
        for send/recv (default :func:`default_p2p_key`). ``time_ops``: sum wall time per op name
        into the stats. ``op_events``: a list that receives a TraceEvent per op (category ``comm``
        for communication ops, ``op`` otherwise; microseconds since ``time.perf_counter()`` value
        ``origin``). ``observer``: ``observer(op, results)`` after each op (default: the
        executor's ``observer`` attribute; see :mod:`rulepass.runtime.plan`). Returns RunStats.
        Raises MissingInputError (before running), ExecutionError (naming the op) when an op
        fails.
        """
        plan = self._plan(indices)
        key, steps = plan.key, plan.steps
        feeds = {} if feeds is None else feeds
        scope = {} if scope is None else scope
        outputs = {} if outputs is None else outputs
        self.check_inputs(indices, env, feeds, scope, local_scope)
        run = _Run(self, env, feeds, scope, local_scope, outputs, p2p_key or default_p2p_key)
        stats = RunStats()
        observer = self.observer if observer is None else observer
        if time_ops or op_events is not None or observer is not None or env.measure_bytes:
            run_steps_observed(steps, run, self.fail, _PASSED_THROUGH,
                               op_seconds=stats.op_seconds, op_events=op_events, origin=origin,
                               rank=self.rank, communication=COMMUNICATION_OPS,
                               observer=observer)
        else:
            # An environment made for exactly these ops and not run yet frees by the plan's
            # table; one shared by several calls (a pipeline's micro-batch) counts reads.
            own = (env.made_for is key or env.made_for == key) and env.peak_live_values == 0 \
                and not len(env)
            if not own:
                run_steps(steps, run, self.fail, _PASSED_THROUGH)
            else:
                if plan.unrolled is None and self.unroll_after is not None \
                        and plan.runs >= self.unroll_after:
                    plan.unrolled = unroll(steps, plan.frees[0], _PASSED_THROUGH, self.fail)
                plan.runs += 1
                if plan.unrolled is None:
                    run_steps(steps, run, self.fail, _PASSED_THROUGH, plan.frees)
                else:
                    plan.unrolled(run, env.cells)
                    env.spent()
                    env.peak_live_values, env.freed = plan.frees[1], plan.frees[2]
        stats.ops_run = len(steps)
        stats.peak_live_values = env.peak_live_values
        stats.peak_live_bytes = env.peak_live_bytes
        stats.freed = env.freed
        return stats


_PASSED_THROUGH = (ExecutionError, CommAbortedError)
"""Errors an op may raise that already say what they need to (the others are wrapped)."""

_SCOPE_READERS = frozenset({"builtin.parameter", "pd_op.data", "pd_op.feed"})
"""Structure ops whose results may be scope cells."""

_SOURCE_OPS = frozenset({"builtin.parameter", "pd_op.data", "pd_op.feed"})
"""Ops whose inputs check_inputs verifies before a run."""


def _persistable(v: Value) -> bool:
    for key, value in v.kwarg_attrs or []:
        if key == "persistable":
            return value is True or value == [True]
    return False


class _Run:
    """State of one run_ops call, handed to the handlers."""

    def __init__(self, executor: Executor, env: Environment, feeds, scope, local_scope, outputs,
                 p2p_key):
        self.executor = executor
        self.xp = executor.xp
        self.env = env
        self.feeds = feeds
        self.scope = scope
        self.local_scope = local_scope
        self.outputs = outputs
        self.p2p_key = p2p_key

    def attrs(self, op: Operation) -> dict:
        return self.executor._attrs[self.executor.index[op]]

    def attr(self, op: Operation, key: str, default: Any = None) -> Any:
        value = self.attrs(op).get(key, default)
        if value is None:
            raise self.fail(op, f"{op.name} has no attribute {key!r}")
        return value

    def fail(self, op: Operation, message: str) -> ExecutionError:
        return self.executor._error(ExecutionError, op, message)

    def value(self, v: Value, op: Operation) -> Any:
        """The array of operand ``v``; a kwarg is looked up in the scopes on first read."""
        env = self.env
        if v in env:
            return env.read(v)
        if v.owner is not None:
            raise self.fail(op, f"{op.name} reads a value that is not live (defined by "
                                f"{v.owner.name}, which has not run here or was freed)")
        name = v.kwarg_name
        if self.local_scope is not None and name in self.local_scope:
            env.bind_cell(v, self.scope_cell(name, op, self.local_scope))
        elif name in self.scope:
            env.bind_cell(v, self.scope_cell(name, op))
        elif name in self.feeds:
            env.bind(v, self.xp.asarray(self.feeds[name]))
        else:
            if not isinstance(v.type, DenseTensorType) or any(d < 0 for d in v.type.shape):
                raise self.fail(op, f"cannot create persistable kwarg %kwarg_{name} of type {v.type}")
            dtype = dtype_from_name(self.xp, v.type.dtype, op.name)
            self.scope[name] = self.xp.zeros(v.type.shape, dtype=dtype)
            env.bind_cell(v, ScopeCell(self.scope, name))
        return env.read(v)

    def draws(self, op: Operation):
        """The ``draws`` callable of this run of random op ``op`` (the executor's
        ``random_source``; see ``kernels.registry.random_kernel``)."""
        try:
            return self.executor.random_source.draws(op, self.xp)
        except KeyError as error:
            raise self.fail(op, str(error.args[0]) if error.args else str(error)) from None

    def scope_cell(self, name: str, op: Operation, scope=None) -> ScopeCell:
        scope = self.scope if scope is None else scope
        if name not in scope:
            raise self.executor._error(MissingInputError, op, f"parameter {name!r} has no value")
        array = scope[name]
        # an array of the namespace stays as it is; others (NumPy arrays for CuPy) convert once
        if type(array) is not self.executor.array_type and not isinstance(array, list):
            scope[name] = self.xp.asarray(array)
        return ScopeCell(scope, name)

    def data(self, name: str, op: Operation, persistable: bool, expect: tuple | None = None
             ) -> Any:
        """What ``pd_op.data`` ``name`` reads: its fed array (checked against the op's result
        type; ``expect``: the static ``(shape, dtype)`` the plan found in it, which the common
        case is compared with), or for a ``persistable`` one not fed, its scope entry's cell
        (Paddle keeps persistable data, AdamW's moments and beta powers, in the scope).
        Raises MissingInputError."""
        feeds = self.feeds
        if name not in feeds:
            if persistable and name in self.scope:
                return self.scope_cell(name, op)
            raise self.executor._error(MissingInputError, op, f"no input fed for data {name!r}")
        array = feeds[name]
        if type(array) is not self.executor.array_type:
            array = self.xp.asarray(array)
        t = op.results[0].type
        if expect is not None and array.shape == expect[0] and array.dtype == expect[1]:
            pass  # the common case, against the plan's shape and dtype
        elif isinstance(t, DenseTensorType):
            shape = tuple(array.shape)
            if len(shape) != len(t.shape) or any(d >= 0 and d != s for d, s in zip(t.shape, shape)):
                raise self.executor._error(
                    MissingInputError, op,
                    f"data {name!r} was fed shape {list(shape)}, the program expects "
                    f"{list(t.shape)} (a pipeline feeds one micro-batch at a time)")
            dtype = dtype_from_name(self.xp, t.dtype, op.name)
            if dtype is not None and array.dtype != dtype:
                raise self.executor._error(
                    MissingInputError, op,
                    f"data {name!r} was fed dtype {array.dtype}, the program expects {t.dtype}")
        if self.local_scope is not None:
            self.local_scope[name] = array
        return array

    def output(self, name: str, array: Any) -> None:
        self.outputs[name] = array
        if self.local_scope is not None:
            self.local_scope[name] = array

    def comm(self, op: Operation) -> Communicator:
        if self.executor.communicator is None:
            raise self.fail(op, f"{op.name} needs a communicator; run the ranks with one "
                                "(e.g. comm.local.run_ranks)")
        return self.executor.communicator

    def group(self, op: Operation) -> tuple[int, ...]:
        ring_id = int(self.attr(op, "ring_id"))
        group = self.executor.process_groups.get(ring_id)
        if group is None:
            raise self.fail(op, f"ring_id {ring_id} has no known process group; give the program a "
                                f"'process_group {ring_id} : [...]' header or pass process_groups")
        return group
