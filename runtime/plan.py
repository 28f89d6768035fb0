"""The planned step: each op of a dense program resolved once into an :class:`OpStep`.

The executor pays for an op's bookkeeping once, when it is built, rather than on every step (as
JAX's ``eval_jaxpr`` keeps its loop to a read, a bind and a write): the kernel (specialized to
the op's static shapes where a specializer fits, ``kernels/registry.py``) or handler is resolved
and bound to its attributes and array namespace, the operand values are a tuple, the reads the
op makes of each distinct value are counted for freeing, the in-place aliasing of each result is
known, and each result's check against its type is reduced to a shape tuple and a dtype of the
namespace, with the layout of the results (``OpStep.mode``) chosen for the binding code (a
Paddle dtype name that the namespace lacks, or a malformed type, is an
:class:`~rulepass.runtime.executor.ExecutionError` when the plan is made, naming the op, not when
the op first runs). What stays in the run is what depends on the arrays: the comparison of each
result's shape and dtype with the precomputed ones (a wrong kernel or rewrite is still caught at
the op that produced it), the binding of results and the freeing of values after their last read
(:func:`free_table` says which, for a run with an environment of its own).

:mod:`rulepass.runtime.loop` runs a list of steps; :mod:`rulepass.runtime.unrolled` turns one
that runs again and again into one Python function. The helpers here (:func:`bind_results`,
:func:`misfit`, :func:`read_inputs`) are the general and error paths both share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from math import prod
from typing import Any

from rulepass.engine.ir.attributes import to_python
from rulepass.engine.ir.core import Operation
from rulepass.engine.ir.types import DenseTensorType, NullType, VectorType
from rulepass.runtime.comm.ops import COMMUNICATION_OPS
from .environment import Cell, ScopeCell
from .kernels.operands import dtype_from_name
from .kernels.registry import KERNELS, RANDOM_OPS, SPECIALIZERS, KernelError
from .structure_ops import STRUCTURE_OPS, persistable_data

__all__ = ["STATIC_RESULT", "SCOPE_CELL", "NULL_CELL", "CONSTANT_OPS", "BIND_SINGLE", "BIND_PAIR",
           "BIND_IN_PLACE_AND_NULL", "BIND_SCOPE", "BIND_TABLE", "BIND_GENERAL", "OpStep",
           "bound_call", "bound_kernel", "plan_op", "static_operands", "free_table",
           "bad_result", "bind_results", "read_inputs", "misfit", "InputChecks",
           "SequencePlan"]

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
        call: ``call(run, inputs) -> list of results``; ``kernel``: ``kernel(inputs) -> list
            of results`` for an op the kernel table runs (what ``call`` calls), else None.
        operands: the operand values (None for a null operand); ``results`` the result values.
        reads: ``(value, reads)`` per distinct operand value, for freeing.
        in_place: result position -> operand position whose cell the result updates.
        checks: per result ``(kind, shape, dtype)`` (kinds above); ``cells``: whether a result
            may be a ScopeCell (structure ops that read the scope); ``arity``: the operand
            count; ``bind``: how the loop binds each result itself (see below), or None;
            ``mode``: the layout of the results (``BIND_SINGLE``... below), with ``first`` and
            ``second`` the ``bind`` entries of the layouts that have them.
    """

    __slots__ = ("op", "index", "call", "kernel", "operands", "results", "reads", "in_place",
                 "checks", "cells", "bind", "mode", "arity", "first", "second")

    def __init__(self, op, index, call, operands, results, reads, in_place, checks, cells,
                 kernel=None):
        self.op = op
        self.index = index
        self.call = call
        self.kernel = kernel
        self.operands = operands
        self.results = results
        self.reads = reads
        self.in_place = in_place
        self.checks = checks
        self.cells = cells
        self.arity = len(operands)  # a null operand reads the loop's cell of None
        # Per result ``(value, shape, dtype, alias)``, bound by the loop itself: ``shape`` and
        # ``dtype`` what the array must have (shape None: not checked, a null result; dtype
        # ``list`` then: a vector result, a Python list); ``alias`` None (a new cell), the
        # operand value whose cell an in-place result updates, or ``SCOPE_CELL`` (a result
        # that may be a scope variable's cell). None when a result has a dynamic dim or a
        # dtype the loop cannot compare: the general ``bind_results`` then checks and binds.
        self.bind = None
        self.mode, self.first, self.second = BIND_GENERAL, None, None
        entries = []
        for k, (value, (kind, shape, dtype)) in enumerate(zip(results, checks)):
            alias = SCOPE_CELL if cells else (operands[in_place[k]] if k in in_place else None)
            if alias is not None and alias is not SCOPE_CELL \
                    and getattr(alias.type, "shape", None) != getattr(value.type, "shape", None):
                return  # an in-place result typed unlike its operand (``_fits_written_operand``)
            if kind == _STATIC and dtype is not None:
                entries.append((value, shape, dtype, alias))
            elif kind == _ANY:
                entries.append((value, None, None, alias))
            elif kind == _VECTOR:
                entries.append((value, None, list, alias))
            else:
                return
        self.bind = tuple(entries)
        self.mode = BIND_TABLE
        # the common layouts, bound by unrolled code: ``first``/``second`` are the entries
        static = [e[1] is not None for e in entries]
        aliases = [e[3] for e in entries]
        if static == [True] and aliases == [None]:
            self.mode, self.first = BIND_SINGLE, entries[0]
        elif static == [True, True] and aliases == [None, None]:
            self.mode, self.first, self.second = BIND_PAIR, entries[0], entries[1]
        elif static == [True, False] and aliases[0] not in (None, SCOPE_CELL) \
                and entries[1][2] is None and aliases[1] is None:
            self.mode, self.first, self.second = BIND_IN_PLACE_AND_NULL, entries[0], entries[1]
        elif static == [True] and aliases == [SCOPE_CELL]:
            self.mode, self.first = BIND_SCOPE, entries[0]


BIND_SINGLE, BIND_PAIR, BIND_IN_PLACE_AND_NULL, BIND_SCOPE, BIND_TABLE, BIND_GENERAL = range(6)
"""How the loop binds an op's results (``OpStep.mode``): one new static result; two; an
in-place static result and a null one (``sgd_``); one that may be a scope variable's cell
(parameters, data); by the ``bind`` table; by :func:`bind_results` (a dynamic shape)."""

NULL_CELL = Cell(None)
"""The cell a loop binds to None while it runs, so that a null operand reads None."""


SCOPE_CELL = object()
"""The ``alias`` of a result that may be a scope variable's cell (``OpStep.bind``)."""


CONSTANT_OPS = frozenset({"pd_op.full", "pd_op.full_int_array"})
"""Ops that, without operands, give the same arrays on every run: the plan computes them once
(kernels never write into their operands, so the arrays can be shared between runs)."""


def static_operands(op: Operation) -> tuple[tuple, tuple, tuple, frozenset]:
    """What a kernel specializer is given (``kernels.registry.specializer``): per operand its
    static shape (None if unknown or dynamic), its dtype name (or None), and its constant value
    (the ``value`` of the ``pd_op.full_int_array`` that makes it, ``(value,)`` of a one-element
    ``pd_op.full``, or None); and the positions of the op's null results."""
    shapes, dtypes, constants = [], [], []
    for v in op.operands:
        t = v.type if v is not None else None
        static = isinstance(t, DenseTensorType) and all(d >= 0 for d in t.shape)
        shapes.append(tuple(t.shape) if static else None)
        dtypes.append(str(t.dtype) if isinstance(t, DenseTensorType) else None)
        owner = v.owner if v is not None else None
        constant = None
        if owner is not None and not owner.operands and "value" in owner.attributes:
            value = to_python(owner.attributes["value"])
            if owner.name == "pd_op.full_int_array":
                constant = tuple(int(n) for n in value)
            elif owner.name == "pd_op.full" and isinstance(value, (int, float)) \
                    and not isinstance(value, bool) and static and prod(t.shape) == 1:
                constant = (value,)
        constants.append(constant)
    nulls = frozenset(k for k, v in enumerate(op.results) if isinstance(v.type, NullType))
    return tuple(shapes), tuple(dtypes), tuple(constants), nulls


def bound_kernel(op: Operation, xp: Any, attrs: dict, fail: Callable) -> Callable | None:
    """``kernel(inputs) -> results`` for an op of the kernel table: its specialized kernel
    (``registry.specializer``), for a constant op its results computed now, else its kernel
    bound to ``xp`` and its attributes; None for a structure or communication op and for an op
    that draws random numbers, which needs its run (see :func:`bound_call`). ``fail(op, message)`` makes the error a specializer or a constant
    op's kernel raises."""
    if op.name in STRUCTURE_OPS or op.name in COMMUNICATION_OPS or op.name in RANDOM_OPS:
        return None
    kernel = KERNELS[op.name]
    special = SPECIALIZERS.get(op.name)
    if special is not None:
        try:
            fast = special(xp, attrs, *static_operands(op))
        except KernelError as error:
            raise fail(op, f"{op.name}: {error.message}") from error
        if fast is not None:
            return fast
    if op.name in CONSTANT_OPS and not op.operands:
        try:
            constant = kernel(xp, [], attrs)
        except Exception as error:  # noqa: BLE001 - re-raised naming the op
            raise fail(op, f"{op.name} failed: {type(error).__name__}: {error}") from error
        return lambda inputs: list(constant)
    return lambda inputs: kernel(xp, inputs, attrs)


def bound_call(op: Operation, xp: Any, attrs: dict, fail: Callable,
               kernel: Callable | None = None) -> Callable:
    """``call(run, inputs)`` for ``op``: its structure or communication handler bound to the
    op (``builtin.parameter`` and ``pd_op.data`` with their names and checks resolved), a random
    op's kernel given the run's draws (``run.draws(op)``), or its ``kernel`` (default
    :func:`bound_kernel`'s), which needs no ``run``."""
    handler = STRUCTURE_OPS.get(op.name) or COMMUNICATION_OPS.get(op.name)
    name = attrs.get("parameter_name")
    if op.name == "builtin.parameter" and name is not None:
        return lambda run, inputs: [run.scope_cell(name, op)]
    data = attrs.get("name")
    if op.name in ("pd_op.data", "pd_op.feed") and data is not None:
        persistable = persistable_data(op)
        expect = None
        try:
            kind, shape, dtype = _result_check(xp, op.results[0].type, op.name)
            if kind == _STATIC and dtype is not None:
                expect = (shape, dtype)
        except (KernelError, IndexError):  # reported by plan_op, or by the handler
            pass
        return lambda run, inputs: [run.data(data, op, persistable, expect)]
    if handler is not None:
        return lambda run, inputs: handler(run, op, inputs)
    if op.name in RANDOM_OPS:  # the run's draw source gives this run's numbers
        random_kernel = KERNELS[op.name]
        return lambda run, inputs: random_kernel(xp, inputs, attrs, run.draws(op))
    if kernel is None:
        kernel = bound_kernel(op, xp, attrs, fail)
    return lambda run, inputs: kernel(inputs)


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
            in_place: tuple[tuple[int, int], ...], reads_scope: bool, fail: Callable,
            kernel: Callable | None = None) -> OpStep:
    """The :class:`OpStep` of ``op``. ``call(run, inputs)`` runs it (``kernel(inputs)`` too,
    for an op the kernel table runs: the loop calls it directly); ``in_place`` holds its
    (operand, result) pairs updated in place; ``reads_scope``: its results may be scope cells.
    ``fail(op, message)`` makes the error raised for a result type the namespace cannot check
    (a dtype it lacks)."""
    try:
        checks = tuple(_result_check(xp, v.type, op.name) for v in op.results)
    except KernelError as error:
        raise fail(op, f"{op.name}: {error.message}") from error
    reads = tuple(Counter(v for v in op.operands if v is not None).items())
    return OpStep(op, index, call, tuple(op.operands), tuple(op.results), reads,
                  {r: o for o, r in in_place}, checks, reads_scope, kernel)


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


def bad_result(step: OpStep, k: int, array: Any) -> str | None:
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


def bind_results(step: OpStep, env, results: Any, fail: Callable) -> None:
    """Check ``results`` against the op's result types and bind them in ``env``."""
    if type(results) is not list or len(results) != len(step.results):
        got = len(results) if isinstance(results, list) else type(results).__name__
        raise fail(step.op, f"{step.op.name} produced {got} results, the op has "
                            f"{len(step.results)}")
    k = 0
    for (kind, shape, dtype), value, array in zip(step.checks, step.results, results):
        if step.cells and isinstance(array, ScopeCell):  # a scope variable: bound to its entry
            problem = bad_result(step, k, array.array)
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
                raise fail(step.op, bad_result(step, k, array) or f"{step.op.name} result {k} "
                                                                   "does not fit its type")
        elif kind != _ANY:
            problem = bad_result(step, k, array)
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


def read_inputs(step: OpStep, run) -> list:
    try:
        return run.env.read_all(step.operands)
    except KeyError:  # a kwarg read for the first time here, or a value that is not live
        return [run.value(v, step.op) if v is not None else None for v in step.operands]


def misfit(step: OpStep, results: list, fail: Callable) -> Exception:
    """The error for ``results``: not a list as long as the op's results, or the first of
    them that does not fit its type."""
    if type(results) is not list or len(results) != len(step.results):
        got = len(results) if isinstance(results, list) else type(results).__name__
        return fail(step.op, f"{step.op.name} produced {got} results, the op has "
                             f"{len(step.results)}")
    for k, array in enumerate(results):
        problem = bad_result(step, k, array.array if isinstance(array, Cell) else array)
        if problem:
            return fail(step.op, problem)
    return fail(step.op, f"{step.op.name}: a result does not fit its type")


def free_table(steps: list[OpStep]) -> tuple[list[tuple], int, int]:
    """For running ``steps`` in an environment of their own: per step the values to drop
    after it (each value after its last read, a result no step reads right after its step),
    and the peak of live values and the number of values freed that such a run has (what the
    loop would count: every value is bound by its op, or by its first read for a kwarg)."""
    last: dict = {}
    for position, step in enumerate(steps):
        for value, _ in step.reads:
            last[value] = position
    frees: list[list] = [[] for _ in steps]
    for value, position in last.items():
        frees[position].append(value)
    for position, step in enumerate(steps):
        frees[position].extend(r for r in step.results if r not in last)
    live = peak = 0
    bound: set = set()
    for step, drop in zip(steps, frees):
        for value in step.operands:
            if value is not None and value not in bound:  # a kwarg, bound when first read
                bound.add(value)
                live += 1
        bound.update(step.results)
        live += len(step.results)
        peak = max(peak, live)
        live -= len(drop)
    return [tuple(f) for f in frees], peak, sum(len(f) for f in frees)


class InputChecks(tuple):
    """What the executor checks before running a sequence of ops (``Executor._input_checks``:
    per op that reads a data input, a parameter or a kwarg, ``(op, data name, persistable,
    parameter name, kwargs)``), with ``required``: the data names and parameter names the ops
    read (frozensets) and whether any op reads a kwarg."""

    def __new__(cls, checks: list):
        self = super().__new__(cls, checks)
        self.required = (frozenset(c[1] for c in checks if c[1] is not None),
                         frozenset(c[3] for c in checks if c[3] is not None),
                         any(c[4] for c in checks))
        return self


class SequencePlan:
    """The steps of one index sequence (``key``: their positions in the program) and what
    running them needs, made once: ``checks`` (:class:`InputChecks`), ``frees``
    (:func:`free_table`: per step the values to drop, the peak of live values and the values
    freed, for a run with an environment of its own), and for such runs their count and, once
    there have been ``Executor.unroll_after`` of them, the steps unrolled
    (``unrolled.unroll``)."""

    __slots__ = ("key", "steps", "checks", "frees", "runs", "unrolled")

    def __init__(self, key: tuple, steps: list, checks: tuple, frees: tuple):
        self.key, self.steps, self.checks, self.frees = key, steps, checks, frees
        self.runs = 0
        self.unrolled: Callable | None = None
