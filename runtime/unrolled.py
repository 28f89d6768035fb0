"""A plan that runs again and again, as one Python closure per op.

:func:`~rulepass.runtime.loop.run_steps` pays, per op, for the loop around it: fetching the
step's fields, choosing the code for its arity and result layout, iterating its drops. On short
kernels that is most of what an op costs besides the kernel. :func:`unroll` takes those choices
once: each op becomes a closure whose code has the branches taken, and the plan runs as
``for op in ops: op(run, cells)``. The code of a closure depends only on the op's shape (its
operand count and which operands are null or kwargs, the layout of its results, how many values
it drops), so it is written as Python source and compiled once per shape and process, as a
factory that binds the op's own kernel, values, result shapes and dtypes (``FACTORIES``)::

    def make(K, O0, O1, V0, SH0, DT0, D0, S):
        def op(run, c):
            try:
                inputs = [c[O0].array, c[O1].array]
            except KeyError:  # a kwarg read for the first time, or a value that is not live
                inputs = READ(S, run)
            try:
                r = K(inputs)
            except GUARDED:
                raise
            except Exception as error:
                raise FAILED(S, error) from error
            try:
                if type(r) is not list or len(r) != 1: raise MISFIT(S, r, FAIL)
                a0 = r[0]
                if a0.shape != SH0 or a0.dtype != DT0: raise MISFIT(S, r, FAIL)
            except (AttributeError, TypeError, ValueError):
                raise MISFIT(S, r, FAIL) from None
            n = NEW(Cell); n.array = a0; c[V0] = n
            del c[D0]
        return op

That is the loop's code for the op's results (``OpStep.bind``: every layout the loop unrolls and
the ones its table binds) with the branches taken, so the two agree on results, aliasing (cells
are the same), freeing (``plan.free_table``'s drops) and errors, raised by the same helpers
(``plan.misfit``, ``plan.bind_results``, ``plan.read_inputs`` and the executor's ``fail``).
(A program's source is never compiled: compiling grows faster than the op count, and shapes
repeat; the bench's block of 94 ops has 20 of them.)

The source holds only names this module makes and integer literals: nothing from the program is
written into it. Only the fast path is unrolled: a run with an environment of its own, without
timing, trace events or an observer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .environment import Cell
from .plan import SCOPE_CELL, OpStep, bind_results, misfit, read_inputs

__all__ = ["unroll", "FACTORIES"]

FACTORIES: dict[str, Callable] = {}
"""Closure factories by the source of their op's code (one per op shape, made when first
needed)."""


def unroll(steps: list[OpStep], drops: list[tuple], guarded: tuple, fail: Callable
           ) -> Callable[[Any, dict], None]:
    """``run_plan(run, cells)``: ``steps`` run in order in ``cells`` (the environment's cells,
    holding nothing of these steps yet), each dropping its ``drops`` entry after it (see
    ``plan.free_table``). Errors of the types in ``guarded`` pass through; any other becomes
    ``fail(op, message)``, as in ``loop.run_steps``. The caller records the table's peak and
    freed figures in the environment."""

    def failed(step: OpStep, error: Exception) -> Exception:
        return fail(step.op, f"{step.op.name} failed: {type(error).__name__}: {error}")

    fixed = {"Cell": Cell, "NEW": object.__new__, "MISFIT": misfit, "BIND": bind_results,
             "READ": read_inputs, "GUARDED": guarded, "FAIL": fail, "FAILED": failed}
    ops = []
    for step, drop in zip(steps, drops):
        source, constants = _op_source(step, drop)
        factory = FACTORIES.get(source)
        if factory is None:
            if len(FACTORIES) >= _MOST_FACTORIES:  # shapes of programs long gone
                FACTORIES.clear()
            factory = FACTORIES[source] = _compile(source, len(constants))
        ops.append(factory(fixed, *constants))
    ops = tuple(ops)

    def run_plan(run, cells: dict) -> None:
        for op in ops:
            op(run, cells)
    return run_plan


_MOST_FACTORIES = 4096
"""More op shapes than a program has: the cache starts again beyond it."""


def _compile(source: str, count: int) -> Callable:
    """The factory ``make(fixed, *constants)`` of an op's code (``_op_source``); ``fixed``
    holds the helpers the code calls by name, the same for every plan of one executor."""
    params = ", ".join(f"X{k}" for k in range(count))
    lines = [f"def make(fixed, {params}):" if params else "def make(fixed):",
             "    Cell, NEW, MISFIT, BIND, READ, GUARDED, FAIL, FAILED = (fixed[n] for n in (",
             "        'Cell', 'NEW', 'MISFIT', 'BIND', 'READ', 'GUARDED', 'FAIL', 'FAILED'))",
             "    def op(run, c):"]
    lines += ["        " + line for line in source.split("\n")]
    lines.append("    return op")
    namespace: dict = {}
    exec(compile("\n".join(lines), "<unrolled op>", "exec"), namespace)  # noqa: S102
    return namespace["make"]


def _op_source(step: OpStep, drop: tuple) -> tuple[str, list]:
    """The code of ``step`` (see the module docstring), its constants named ``X0``, ``X1``...
    in the order of the returned list."""
    constants: list = []

    def name(obj: Any) -> str:
        constants.append(obj)
        return f"X{len(constants) - 1}"

    s = name(step)
    reads = []
    for value in step.operands:
        reads.append("None" if value is None else f"c[{name(value)}].array")
    call = f"{name(step.kernel)}(inputs)" if step.kernel is not None \
        else f"{name(step.call)}(run, inputs)"
    code = ["try:",
            f"    inputs = [{', '.join(reads)}]",
            "except KeyError:  # a kwarg read for the first time, or a value that is not live",
            f"    inputs = READ({s}, run)",
            "try:",
            f"    r = {call}",
            "except GUARDED:",
            "    raise",
            "except Exception as error:",
            f"    raise FAILED({s}, error) from error"]
    if step.bind is None:  # a dynamic shape: the general binding
        code.append(f"BIND({s}, run.env, r, FAIL)")
    else:
        code += _bind_code(step.bind, s, name)
    if drop:
        code.append("del " + ", ".join(f"c[{name(value)}]" for value in drop))
    return "\n".join(code), constants


def _bind_code(entries: tuple, s: str, name: Callable[[Any], str]) -> list[str]:
    """The statements that check and bind ``r`` by the step's ``bind`` entries ``(value,
    shape, dtype, alias)``: all checks first (a result that does not fit raises before any is
    bound), then the bindings; the loop binds each after its check, with the same outcome."""
    count = len(entries)
    checks = [f"if type(r) is not list or len(r) != {count}: raise MISFIT({s}, r, FAIL)"]
    if count:
        checks.append("a0 = r[0]" if count == 1
                      else ", ".join(f"a{k}" for k in range(count)) + " = r")
    binds = []
    for k, (value, shape, dtype, alias) in enumerate(entries):
        a, v = f"a{k}", name(value)
        if alias is SCOPE_CELL:  # the cell of a scope variable, or an array
            checks += [f"if isinstance({a}, Cell): n{k} = {a}; {a} = n{k}.array",
                       f"else: n{k} = NEW(Cell); n{k}.array = {a}"]
            binds.append(f"c[{v}] = n{k}")
        elif alias is not None:  # in place: the new array goes into the operand's cell
            binds.append(f"n = c[{name(alias)}]; n.array = {a}; c[{v}] = n")
        else:
            binds.append(f"n = NEW(Cell); n.array = {a}; c[{v}] = n")
        if shape is not None:
            checks.append(f"if {a}.shape != {name(shape)} or {a}.dtype != {name(dtype)}: "
                          f"raise MISFIT({s}, r, FAIL)")
        elif dtype is list:
            checks.append(f"if type({a}) is not list: raise MISFIT({s}, r, FAIL)")
    return (["try:"] + ["    " + line for line in checks]
            + ["except (AttributeError, TypeError, ValueError):  # not an array, or not unpacked",
               f"    raise MISFIT({s}, r, FAIL) from None"] + binds)
