"""A plan that runs again and again, unrolled into one Python function.

:func:`~rulepass.runtime.loop.run_steps` pays, per op, for the loop around it: fetching the
step's fields, choosing the code for its arity and result layout, iterating its drops. On short
kernels that is most of what an op costs besides the kernel. :func:`unroll` writes the loop out
once for a given list of steps, as torch.fx's ``GraphModule`` writes a graph out as Python
source: one straight run of statements per op, with the op's operand values, kernel, result
shapes and dtypes and the values to drop bound as names of the function's globals::

    p = 12
    r = k12([c[v31].array, c[v7].array])
    q = 12
    if type(r) is not list or len(r) != 1: raise MISFIT(s12, r, FAIL)
    a = r[0]
    if a.shape != sh5 or a.dtype != dt2: raise MISFIT(s12, r, FAIL)
    n = NEW(Cell); n.array = a; c[v40] = n
    del c[v31]

Each op's code is the loop's code for its results (``OpStep.bind``, for every layout the loop
unrolls and the ones its table binds) with the branches taken, so the two agree on results,
aliasing (cells are the same), freeing (``plan.free_table``'s drops) and errors: an op's error is raised by the same helpers (``plan.misfit``, ``plan.bind_results``,
``plan.read_inputs`` and the executor's ``fail``), ``p`` and ``q`` telling which op failed and
whether its kernel had returned. A kwarg operand is read through ``run.value`` until it is
live, as the loop does on a missing cell.

The source holds only names this module makes and integer literals: nothing from the program
is written into it. Only the fast path is unrolled: a run with an environment of its own,
without timing, trace events or an observer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .environment import Cell
from .plan import SCOPE_CELL, OpStep, bind_results, misfit, read_inputs

__all__ = ["unroll"]


def unroll(steps: list[OpStep], drops: list[tuple], guarded: tuple, fail: Callable
           ) -> Callable[[Any, dict], None]:
    """``run_plan(run, cells)``: ``steps`` run in order in ``cells`` (the environment's cells,
    holding nothing of these steps yet), each dropping its ``drops`` entry after it (see
    ``plan.free_table``). Errors of the types in ``guarded`` pass through; any other becomes
    ``fail(op, message)``, as in ``loop.run_steps``. The caller records the table's peak and
    freed figures in the environment."""
    names = _Names({"Cell": Cell, "NEW": object.__new__, "MISFIT": misfit, "BIND": bind_results,
                    "FAIL": fail, "GUARDED": guarded})
    lines = ["def run_plan(run, c):", "    p = q = -1", "    r = None", "    try:"]
    for position, (step, drop) in enumerate(zip(steps, drops)):
        lines += ["        " + line for line in _op_code(position, step, drop, names)]
    lines += ["        pass",
              "    except GUARDED:",
              "        raise",
              "    except Exception as error:  # the op at p failed: say how, naming it",
              "        raise FAULT(p, p == q, r, error, run) from error"]

    def fault(position: int, returned: bool, results: Any, error: Exception, run) -> Exception:
        step = steps[position]
        if returned:  # its kernel returned something that is not a fitting list of arrays
            return misfit(step, results, fail)
        read_inputs(step, run)  # raises for an operand that is not live
        return fail(step.op, f"{step.op.name} failed: {type(error).__name__}: {error}")

    names.globals["FAULT"] = fault
    namespace = names.globals
    exec(compile("\n".join(lines), "<unrolled plan>", "exec"), namespace)  # noqa: S102
    return namespace["run_plan"]


class _Names:
    """Global names of the generated function, one per object it refers to (by identity)."""

    def __init__(self, fixed: dict):
        self.globals = dict(fixed)
        self._by_id: dict[int, str] = {}

    def __call__(self, obj: Any, prefix: str) -> str:
        name = self._by_id.get(id(obj))
        if name is None:
            name = f"{prefix}{len(self._by_id)}"
            self._by_id[id(obj)] = name
            self.globals[name] = obj
        return name


def _op_code(position: int, step: OpStep, drop: tuple, name: _Names) -> list[str]:
    """The statements that run ``step`` (see the module docstring)."""
    reads = []
    for value in step.operands:
        if value is None:
            reads.append("None")
        elif value.owner is None:  # a kwarg: read from the scopes until it is live
            v = name(value, "v")
            reads.append(f"(c[{v}].array if {v} in c else run.value({v}, {name(step.op, 'op')}))")
        else:
            reads.append(f"c[{name(value, 'v')}].array")
    inputs = "[" + ", ".join(reads) + "]"
    call = (f"{name(step.kernel, 'k')}({inputs})" if step.kernel is not None
            else f"{name(step.call, 'h')}(run, {inputs})")
    s = name(step, "s")
    code = [f"p = {position}", f"r = {call}", f"q = {position}"]
    if step.bind is None:  # a dynamic shape: the general binding
        code.append(f"BIND({s}, run.env, r, FAIL)")
    else:
        code += _bind_code(step.bind, s, name)
    if drop:
        code.append("del " + ", ".join(f"c[{name(value, 'v')}]" for value in drop))
    return code


def _bind_code(entries: tuple, s: str, name: _Names) -> list[str]:
    """The statements that check and bind ``r`` by the step's ``bind`` entries ``(value,
    shape, dtype, alias)``: all checks first (a result that does not fit raises before any is
    bound), then the bindings; the loop binds each after its check, with the same outcome."""
    count = len(entries)
    code = [f"if type(r) is not list or len(r) != {count}: raise MISFIT({s}, r, FAIL)"]
    if count:
        code.append("a0 = r[0]" if count == 1
                    else ", ".join(f"a{k}" for k in range(count)) + " = r")
    binds = []
    for k, (value, shape, dtype, alias) in enumerate(entries):
        a, v = f"a{k}", name(value, "v")
        if alias is SCOPE_CELL:  # the cell of a scope variable, or an array
            code += [f"if isinstance({a}, Cell): n{k} = {a}; {a} = n{k}.array",
                     f"else: n{k} = NEW(Cell); n{k}.array = {a}"]
            binds.append(f"c[{v}] = n{k}")
        elif alias is not None:  # in place: the new array goes into the operand's cell
            binds.append(f"n = c[{name(alias, 'v')}]; n.array = {a}; c[{v}] = n")
        else:
            binds.append(f"n = NEW(Cell); n.array = {a}; c[{v}] = n")
        if shape is not None:
            code.append(f"if {a}.shape != {name(shape, 'sh')} or {a}.dtype != "
                        f"{name(dtype, 'dt')}: raise MISFIT({s}, r, FAIL)")
        elif dtype is list:
            code.append(f"if type({a}) is not list: raise MISFIT({s}, r, FAIL)")
    return code + binds
