"""The planned step: each op of a dense program resolved once into an :class:`OpStep`, and the
loops that run a list of them.

The executor pays for an op's bookkeeping once, when it is built, rather than on every step (as
JAX's ``eval_jaxpr`` keeps its loop to a read, a bind and a write): the handler or kernel is
resolved and bound to its attributes and array namespace, the operand values are a tuple, the
reads the op makes of each distinct value are counted for freeing, the in-place aliasing of each
result is known, and each result's check against its type is reduced to a shape tuple and a dtype
of the namespace (a Paddle dtype name that the namespace lacks, or a malformed type, is an
:class:`~rulepass.runtime.executor.ExecutionError` when the plan is made, naming the op, not when
the op first runs). What stays in the loop is what depends on the arrays: the comparison of each
result's shape and dtype with the precomputed ones (a wrong kernel or rewrite is still caught at
the op that produced it), the binding of results and the freeing of values after their last read.

Two loops run a plan: :func:`run_steps` (nothing but the op) and :func:`run_steps_observed`
(per-op timing, trace events, and an ``observer``). An observer is ``observer(op, results)``,
called after each op has run and its results are checked and bound, with ``results`` a tuple of
the op's result arrays in result order (a ``ScopeCell``'s array for a parameter, a list for a
``vec[...]`` result, None for a null one); it must not modify them. The fast loop has no test for
an observer, so an unset observer costs nothing.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from rulepass.engine.ir.attributes import to_python
from rulepass.engine.ir.core import Operation
from rulepass.engine.ir.types import DenseTensorType, VectorType
from rulepass.runtime.comm.ops import COMMUNICATION_OPS
from .environment import Cell, ScopeCell
from .kernels.operands import dtype_from_name
from .kernels.registry import KERNELS, RANDOM_OPS, SPECIALIZERS, KernelError
from .structure_ops import STRUCTURE_OPS
from .trace import TraceEvent

__all__ = ["STATIC_RESULT", "CONSTANT_OPS", "OpStep", "Observer", "bound_call", "plan_op",
           "run_steps", "run_steps_observed", "static_operands"]

Observer = Callable[[Operation, tuple], None]
"""``observer(op, results)``: called after each op with its result arrays (see the module)."""

# How a result is checked: by its static shape and dtype, by rank and dtype (a dynamic dim),
# as a list (a vector), or not at all (a null result, or a type the executor does not check).
_STATIC, _RANKED, _VECTOR, _ANY = range(4)
STATIC_RESULT = _STATIC
"""The kind of an ``OpStep.checks`` entry ``(kind, shape, dtype)`` of a statically shaped
result."""


class OpStep:
    """One op, resolved for the loop.

    Attributes:
        op: the Operation; ``index`` its position in the executor's program.
        call: ``call(run, inputs) -> list of results``.
        operands: the operand values (None for a null operand); ``results`` the result values.
        reads: ``(value, reads)`` per distinct operand value, for freeing.
        in_place: result position -> operand position whose cell the result updates.
        checks: per result ``(kind, shape, dtype)`` (kinds above); ``cells``: whether a result
            may be a ScopeCell (structure ops that read the scope); ``dense``: no null operand;
            ``expect``: the results the loop binds itself (see below), or None.
    """

    __slots__ = ("op", "index", "call", "operands", "results", "reads", "in_place", "checks",
                 "cells", "expect", "dense")

    def __init__(self, op, index, call, operands, results, reads, in_place, checks, cells):
        self.op = op
        self.index = index
        self.call = call
        self.operands = operands
        self.results = results
        self.reads = reads
        self.in_place = in_place
        self.checks = checks
        self.cells = cells
        self.dense = None not in operands  # no null operand to skip when reading
        # The common case, bound by the loop itself: each result ``(value, shape, dtype)``
        # (shape None: not checked, a null result) when every result is static with a known
        # dtype or null, none is in place and none is a scope cell; None otherwise.
        self.expect = None
        if not in_place and not cells and all(
                (kind == _STATIC and dtype is not None) or kind == _ANY
                for kind, _, dtype in checks):
            self.expect = tuple((value, shape if kind == _STATIC else None, dtype)
                                for value, (kind, shape, dtype) in zip(results, checks))


CONSTANT_OPS = frozenset({"pd_op.full", "pd_op.full_int_array"})
"""Ops that, without operands, give the same arrays on every run: the plan computes them once
(kernels never write into their operands, so the arrays can be shared between runs)."""


def static_operands(op: Operation) -> tuple[tuple, tuple, tuple]:
    """Per operand: its static shape (None if unknown or dynamic), its dtype name (or None), and
    the ``value`` of the ``pd_op.full_int_array`` that makes it (or None): what a kernel
    specializer is given (``kernels.registry.specializer``)."""
    shapes, dtypes, constants = [], [], []
    for v in op.operands:
        t = v.type if v is not None else None
        static = isinstance(t, DenseTensorType) and all(d >= 0 for d in t.shape)
        shapes.append(tuple(t.shape) if static else None)
        dtypes.append(str(t.dtype) if isinstance(t, DenseTensorType) else None)
        owner = v.owner if v is not None else None
        constant = None
        if owner is not None and owner.name == "pd_op.full_int_array" and not owner.operands \
                and "value" in owner.attributes:
            constant = tuple(int(n) for n in to_python(owner.attributes["value"]))
        constants.append(constant)
    return tuple(shapes), tuple(dtypes), tuple(constants)


def bound_call(op: Operation, xp: Any, attrs: dict, fail: Callable) -> Callable:
    """``call(run, inputs)`` for ``op``: its kernel bound to ``xp`` and its attributes (for a
    constant op, its results computed now), or its structure/communication handler bound to the
    op. ``fail(op, message)`` makes the error a constant op's kernel raises."""
    handler = STRUCTURE_OPS.get(op.name) or COMMUNICATION_OPS.get(op.name)
    name = attrs.get("parameter_name")
    if op.name == "builtin.parameter" and name is not None:
        return lambda run, inputs: [run.scope_cell(name, op)]
    if handler is not None:
        return lambda run, inputs: handler(run, op, inputs)
    kernel = KERNELS[op.name]
    if op.name in RANDOM_OPS:  # the run's draw source gives this run's numbers
        return lambda run, inputs: kernel(xp, inputs, attrs, run.draws(op))
    special = SPECIALIZERS.get(op.name)
    if special is not None:
        try:
            fast = special(xp, attrs, *static_operands(op))
        except KernelError as error:
            raise fail(op, f"{op.name}: {error.message}") from error
        if fast is not None:
            return lambda run, inputs: fast(inputs)
    if op.name in CONSTANT_OPS and not op.operands:
        try:
            constant = kernel(xp, [], attrs)
        except Exception as error:  # noqa: BLE001 - re-raised naming the op
            raise fail(op, f"{op.name} failed: {type(error).__name__}: {error}") from error
        return lambda run, inputs: list(constant)
    return lambda run, inputs: kernel(xp, inputs, attrs)


def _result_check(xp: Any, t: Any, op_name: str) -> tuple:
    if isinstance(t, DenseTensorType):
        dtype = dtype_from_name(xp, t.dtype, op_name)
        shape = tuple(t.shape)
        if all(d >= 0 for d in shape):
            return (_STATIC, shape, dtype)
        return (_RANKED, shape, dtype)
    if isinstance(t, VectorType):
        return (_VECTOR, None, None)
    return (_ANY, None, None)


def plan_op(op: Operation, index: int, call: Callable, xp: Any,
            in_place: tuple[tuple[int, int], ...], reads_scope: bool, fail: Callable) -> OpStep:
    """The :class:`OpStep` of ``op``. ``call(run, inputs)`` runs it; ``in_place`` holds its
    (operand, result) pairs updated in place; ``reads_scope``: its results may be scope cells.
    ``fail(op, message)`` makes the error raised for a result type the namespace cannot check
    (a dtype it lacks)."""
    try:
        checks = tuple(_result_check(xp, v.type, op.name) for v in op.results)
    except KernelError as error:
        raise fail(op, f"{op.name}: {error.message}") from error
    reads = tuple(Counter(v for v in op.operands if v is not None).items())
    return OpStep(op, index, call, tuple(op.operands), tuple(op.results), reads,
                  {r: o for o, r in in_place}, checks, reads_scope)


def _fits_written_operand(step: OpStep, k: int, array: Any) -> bool:
    """Whether in-place result ``k`` has exactly the static type of the operand it writes.

    Paddle 3.3.1's gradient merge types the zeroing ``set_value_with_tensor_`` of a sharded
    gradient with the global shape while the cell it writes (its operand) holds the local piece
    (``docs/deviations.md``); an in-place result that has its operand's type is the operand's
    cell, updated, and fits."""
    operand = step.in_place.get(k) if step.in_place else None
    if operand is None or step.operands[operand] is None:
        return False
    shape = getattr(step.operands[operand].type, "shape", None)
    dtype = step.checks[k][2]
    if shape is None or any(d < 0 for d in shape):
        return False
    return getattr(array, "shape", None) == tuple(shape) and \
        (dtype is None or getattr(array, "dtype", None) == dtype)


def _bad_result(step: OpStep, k: int, array: Any) -> str | None:
    """Why result ``k`` does not fit its type, or None when it does."""
    kind, shape, dtype = step.checks[k]
    if kind == _ANY or (kind == _STATIC and getattr(array, "shape", None) == shape
                        and (dtype is None or array.dtype == dtype)):
        return None
    op = step.op
    if kind == _VECTOR:
        return None if isinstance(array, list) else f"{op.name} result {k} should be a list of arrays"
    if array is None:
        return f"{op.name} result {k} is None but its type is {step.results[k].type}"
    if not hasattr(array, "shape"):
        return f"{op.name} result {k} is a {type(array).__name__}, not an array"
    got = tuple(array.shape)
    if len(got) != len(shape) or any(d >= 0 and d != s for d, s in zip(shape, got)):
        if _fits_written_operand(step, k, array):
            return None
        return f"{op.name} result {k} has shape {list(got)}, its type says {list(shape)}"
    if dtype is not None and array.dtype != dtype:
        return f"{op.name} result {k} has dtype {array.dtype}, its type says {step.results[k].type.dtype}"
    return None


def _bind(step: OpStep, env, results: Any, fail: Callable) -> None:
    """Check ``results`` against the op's result types and bind them in ``env``."""
    if type(results) is not list or len(results) != len(step.results):
        got = len(results) if isinstance(results, list) else type(results).__name__
        raise fail(step.op, f"{step.op.name} produced {got} results, the op has "
                            f"{len(step.results)}")
    k = 0
    for (kind, shape, dtype), value, array in zip(step.checks, step.results, results):
        if step.cells and isinstance(array, ScopeCell):  # a scope variable: bound to its entry
            problem = _bad_result(step, k, array.array)
            if problem:
                raise fail(step.op, problem)
            env.bind_cell(value, array)
            k += 1
            continue
        if kind == _STATIC:
            try:
                fits = array.shape == shape and (dtype is None or array.dtype == dtype)
            except AttributeError:  # not an array
                fits = False
            if not fits and not _fits_written_operand(step, k, array):
                raise fail(step.op, _bad_result(step, k, array) or f"{step.op.name} result {k} "
                                                                   "does not fit its type")
        elif kind != _ANY:
            problem = _bad_result(step, k, array)
            if problem:
                raise fail(step.op, problem)
        operand = step.in_place.get(k) if step.in_place else None
        if operand is not None:
            cell = env.cell(step.operands[operand])
            cell.array = array
            env.bind_cell(value, cell)
        else:
            env.bind(value, array)
        k += 1


def _inputs(step: OpStep, run) -> list:
    try:
        return run.env.read_all(step.operands)
    except KeyError:  # a kwarg read for the first time here, or a value that is not live
        return [run.value(v, step.op) if v is not None else None for v in step.operands]


def _call(step: OpStep, run, inputs: list, guarded: tuple, fail: Callable):
    try:
        return step.call(run, inputs)
    except guarded:
        raise
    except Exception as error:  # noqa: BLE001 - re-raised naming the op
        raise fail(step.op, f"{step.op.name} failed: {type(error).__name__}: {error}") from error


def run_steps(steps: list[OpStep], run, fail: Callable, guarded: tuple,
              frees: list[tuple] | None = None) -> None:
    """Run ``steps`` in order in ``run.env``: read, call, check and bind, free. Errors of the
    types in ``guarded`` pass through; any other exception becomes ``fail(op, message)``.
    ``frees``: per step, the values to drop after it, when the environment holds exactly these
    steps' values and nothing ran in it yet (then the read counts are not kept); None: count
    each read and drop a value at its last one (an environment several calls share).

    The loop works on the environment's ``cells`` and ``remaining`` dicts itself (what
    :meth:`Environment.read_all`, ``bind`` and ``done`` do, without a call per op)."""
    env = run.env
    cells, remaining = env.cells, env.remaining
    measure_bytes = env.measure_bytes
    peak, freed = env.peak_live_values, 0
    free_after = iter(frees) if frees is not None else None
    new_cell = object.__new__
    try:
        for step in steps:
            try:
                inputs = [cells[v].array for v in step.operands] if step.dense else \
                    [cells[v].array if v is not None else None for v in step.operands]
            except KeyError:  # a kwarg read for the first time, or a value that is not live
                inputs = _inputs(step, run)
            try:
                results = step.call(run, inputs)
            except guarded:
                raise
            except Exception as error:  # noqa: BLE001 - re-raised naming the op
                raise fail(step.op, f"{step.op.name} failed: {type(error).__name__}: {error}") \
                    from error
            expect = step.expect
            if expect is not None and type(results) is list and len(results) == len(expect):
                try:
                    for (value, shape, dtype), array in zip(expect, results):
                        if shape is not None and (array.shape != shape or array.dtype != dtype):
                            _bind(step, env, results, fail)  # raises, naming the result
                        cell = new_cell(Cell)  # Cell(array) without a Python __init__ call
                        cell.array = array
                        cells[value] = cell
                except AttributeError:  # a result that is not an array
                    _bind(step, env, results, fail)
            else:
                _bind(step, env, results, fail)
            if len(cells) > peak:
                peak = len(cells)
            if measure_bytes:
                env.peak_live_bytes = max(env.peak_live_bytes, env.live_bytes())
            if free_after is not None:
                for value in next(free_after):
                    if cells.pop(value, None) is not None:
                        freed += 1
                continue
            for value, times in step.reads:
                left = remaining.get(value, 0) - times
                if left > 0:
                    remaining[value] = left
                    continue
                remaining.pop(value, None)
                if cells.pop(value, None) is not None:
                    freed += 1
            for value in step.results:
                if remaining.get(value, 0) <= 0 and cells.pop(value, None) is not None:
                    freed += 1
    finally:
        env.peak_live_values = peak
        env.freed += freed
    if free_after is not None:
        remaining.clear()  # every read counted in it has happened


def run_steps_observed(steps: list[OpStep], run, fail: Callable, guarded: tuple, *,
                       op_seconds: Counter | None, op_events: list | None, origin: float,
                       rank: int, communication: Any, observer: Observer | None) -> None:
    """:func:`run_steps` that also sums wall seconds per op name into ``op_seconds``, appends a
    TraceEvent per op to ``op_events`` (category ``comm`` for op names in ``communication``,
    ``op`` otherwise; microseconds since ``time.perf_counter()`` value ``origin``) and calls
    ``observer(op, results)`` after each op; each of the three may be None."""
    env = run.env
    for step in steps:
        inputs = _inputs(step, run)
        start = time.perf_counter()
        results = _call(step, run, inputs, guarded, fail)
        seconds = time.perf_counter() - start
        if op_seconds is not None:
            op_seconds[step.op.name] += seconds
        if op_events is not None:
            op_events.append(TraceEvent(
                step.op.name, rank, max(0.0, (start - origin) * 1e6), seconds * 1e6,
                "comm" if step.op.name in communication else "op", {"position": step.index}))
        _bind(step, env, results, fail)
        if observer is not None:
            observer(step.op, tuple(r.array if isinstance(r, ScopeCell) else r for r in results))
        env.done(step.reads, step.results)
