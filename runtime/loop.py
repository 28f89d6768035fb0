"""The loops that run a list of planned steps (:mod:`rulepass.runtime.plan`) in an environment.

:func:`run_steps` does nothing but the ops: for each step a read of its operands from the
environment's cells, a call of its kernel or handler, a check and a bind of its results (code
unrolled for the common layouts of ``OpStep.mode``), and the freeing of the values it read for
the last time. :func:`run_steps_observed` also times each op, records trace events and calls an
``observer``. An observer is ``observer(op, results)``, called after each op has run and its
results are checked and bound, with ``results`` a tuple of the op's result arrays in result
order (a ``ScopeCell``'s array for a parameter, a list for a ``vec[...]`` result, None for a null
one); it must not modify them. The fast loop has no test for an observer, so an unset observer
costs nothing.
"""

from __future__ import annotations

import time
from collections import Counter, deque
from collections.abc import Callable
from itertools import repeat
from typing import Any

from rulepass.engine.ir.core import Operation
from .environment import Cell, ScopeCell
from .plan import (BIND_IN_PLACE_AND_NULL, BIND_PAIR, BIND_SCOPE, BIND_SINGLE, BIND_TABLE,
                   NULL_CELL, SCOPE_CELL, OpStep, bind_results, misfit, read_inputs)
from .trace import TraceEvent

__all__ = ["Observer", "run_steps", "run_steps_observed"]

Observer = Callable[[Operation, tuple], None]
"""``observer(op, results)``: called after each op with its result arrays (see the module)."""


def _call(step: OpStep, run, inputs: list, guarded: tuple, fail: Callable):
    try:
        return step.call(run, inputs)
    except guarded:
        raise
    except Exception as error:  # noqa: BLE001 - re-raised naming the op
        raise fail(step.op, f"{step.op.name} failed: {type(error).__name__}: {error}") from error


def run_steps(steps: list[OpStep], run, fail: Callable, guarded: tuple,
              frees: tuple | None = None) -> None:
    """Run ``steps`` in order in ``run.env``: read, call, check and bind, free. Errors of the
    types in ``guarded`` pass through; any other exception becomes ``fail(op, message)``.
    ``frees``: :func:`free_table`'s ``(drops, peak, freed)`` when the environment holds
    exactly these steps' values and nothing ran in it yet (then nothing is counted: each step
    drops its values, and the environment's peak and freed figures are the table's); None:
    count each read and drop a value at its last one (an environment several calls share).
    The environment must not measure bytes (:func:`run_steps_observed` does).

    The loop works on the environment's ``cells`` and ``remaining`` dicts itself (what
    :meth:`Environment.read_all`, ``bind`` and ``done`` do, without a call per op; while it
    runs, ``cells`` maps None to a cell holding None, so a null operand reads like any other),
    calls a kernel op's ``kernel`` directly, and binds each result by code for its step's
    ``mode`` (``plan.bind_results`` for the results no such code covers)."""
    env = run.env
    counting = frees is None
    cells, remaining = env.cells, env.remaining if counting else None
    pop = cells.pop
    peak, freed = env.peak_live_values + 1, 0  # + 1: the cell of None below
    new_cell = object.__new__
    cells[None] = NULL_CELL  # what a null operand reads
    try:
        for step, drop in zip(steps, repeat(()) if counting else frees[0]):
            operands, arity = step.operands, step.arity
            try:  # unrolled for the common arities: a list display costs less than a loop
                if arity == 1:
                    inputs = [cells[operands[0]].array]
                elif arity == 2:
                    first, second = operands
                    inputs = [cells[first].array, cells[second].array]
                elif arity == 3:
                    first, second, third = operands
                    inputs = [cells[first].array, cells[second].array, cells[third].array]
                elif arity == 0:
                    inputs = []
                elif arity == 4:
                    first, second, third, fourth = operands
                    inputs = [cells[first].array, cells[second].array, cells[third].array,
                              cells[fourth].array]
                else:
                    inputs = [cells[v].array for v in operands]
            except KeyError:  # a kwarg read for the first time, or a value that is not live
                inputs = read_inputs(step, run)
            kernel = step.kernel
            try:
                results = kernel(inputs) if kernel is not None else step.call(run, inputs)
            except guarded:
                raise
            except Exception as error:  # noqa: BLE001 - re-raised naming the op
                raise fail(step.op, f"{step.op.name} failed: {type(error).__name__}: {error}") \
                    from error
            # Check and bind the results, unrolled for the common layouts (``OpStep.mode``);
            # a result that does not fit, or the wrong number of them, raises naming the op.
            mode = step.mode
            try:
                if mode == BIND_SINGLE and type(results) is list and len(results) == 1:
                    value, shape, dtype, _ = step.first
                    array = results[0]
                    if array.shape != shape or array.dtype != dtype:
                        raise misfit(step, results, fail)
                    cell = new_cell(Cell)  # Cell(array) without a Python __init__
                    cell.array = array
                    cells[value] = cell
                elif mode == BIND_PAIR and type(results) is list and len(results) == 2:
                    value, shape, dtype, _ = step.first
                    array, other = results
                    if array.shape != shape or array.dtype != dtype:
                        raise misfit(step, results, fail)
                    cell = new_cell(Cell)
                    cell.array = array
                    cells[value] = cell
                    value, shape, dtype, _ = step.second
                    if other.shape != shape or other.dtype != dtype:
                        raise misfit(step, results, fail)
                    cell = new_cell(Cell)
                    cell.array = other
                    cells[value] = cell
                elif mode == BIND_IN_PLACE_AND_NULL and type(results) is list \
                        and len(results) == 2:
                    value, shape, dtype, alias = step.first
                    array = results[0]
                    if array.shape != shape or array.dtype != dtype:
                        raise misfit(step, results, fail)
                    cell = cells[alias]  # an in-place result: its operand's cell
                    cell.array = array
                    cells[value] = cell
                    cell = new_cell(Cell)
                    cell.array = results[1]
                    cells[step.second[0]] = cell
                elif mode == BIND_SCOPE and type(results) is list and len(results) == 1:
                    value, shape, dtype, _ = step.first
                    array = results[0]
                    if isinstance(array, Cell):  # a scope variable's cell
                        cell, array = array, array.array
                    else:
                        cell = new_cell(Cell)
                        cell.array = array
                    if array.shape != shape or array.dtype != dtype:
                        raise misfit(step, results, fail)
                    cells[value] = cell
                elif mode == BIND_TABLE and type(results) is list \
                        and len(results) == len(step.bind):
                    for (value, shape, dtype, alias), array in zip(step.bind, results):
                        cell = None
                        if alias is SCOPE_CELL and isinstance(array, Cell):
                            cell, array = array, array.array
                        if shape is not None:
                            if array.shape != shape or array.dtype != dtype:
                                raise misfit(step, results, fail)
                        elif dtype is list and type(array) is not list:
                            raise misfit(step, results, fail)
                        if cell is None:
                            if alias is None or alias is SCOPE_CELL:
                                cell = new_cell(Cell)
                            else:
                                cell = cells[alias]
                            cell.array = array
                        cells[value] = cell
                else:  # a dynamic shape; or it raises, naming what does not fit
                    bind_results(step, env, results, fail)
            except (AttributeError, ValueError, TypeError):  # not an array, or unpacking
                raise misfit(step, results, fail) from None
            if not counting:
                try:  # every value of the table is live when dropped: pop in C
                    _consume(map(pop, drop))
                except KeyError:
                    for value in drop:
                        pop(value, None)
                continue
            if len(cells) > peak:
                peak = len(cells)
            for value, times in step.reads:
                left = remaining.get(value, 0) - times
                if left > 0:
                    remaining[value] = left
                    continue
                remaining.pop(value, None)
                if pop(value, None) is not None:
                    freed += 1
            for value in step.results:
                if remaining.get(value, 0) <= 0 and pop(value, None) is not None:
                    freed += 1
    finally:
        pop(None, None)
        if counting:
            env.peak_live_values = peak - 1
            env.freed += freed
    if not counting:
        env.spent()
        env.peak_live_values = max(env.peak_live_values, frees[1])
        env.freed += frees[2]


_consume = deque(maxlen=0).extend
"""Runs an iterator to its end in C (``consume(map(pop, values))``)."""


def run_steps_observed(steps: list[OpStep], run, fail: Callable, guarded: tuple, *,
                       op_seconds: Counter | None, op_events: list | None, origin: float,
                       rank: int, communication: Any, observer: Observer | None) -> None:
    """:func:`run_steps` that also sums wall seconds per op name into ``op_seconds``, appends a
    TraceEvent per op to ``op_events`` (category ``comm`` for op names in ``communication``,
    ``op`` otherwise; microseconds since ``time.perf_counter()`` value ``origin``) and calls
    ``observer(op, results)`` after each op; each of the three may be None."""
    env = run.env
    for step in steps:
        inputs = read_inputs(step, run)
        start = time.perf_counter()
        results = _call(step, run, inputs, guarded, fail)
        seconds = time.perf_counter() - start
        if op_seconds is not None:
            op_seconds[step.op.name] += seconds
        if op_events is not None:
            op_events.append(TraceEvent(
                step.op.name, rank, max(0.0, (start - origin) * 1e6), seconds * 1e6,
                "comm" if step.op.name in communication else "op", {"position": step.index}))
        bind_results(step, env, results, fail)
        if observer is not None:
            observer(step.op, tuple(r.array if isinstance(r, ScopeCell) else r for r in results))
        env.done(step.reads, step.results)
