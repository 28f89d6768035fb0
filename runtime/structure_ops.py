"""Structure and I/O ops of a dense Paddle program, run by the executor itself.

A handler is ``fn(run, op, inputs) -> results`` like the communication handlers of
:mod:`rulepass.runtime.comm.ops`; ``run`` is the executor's state of one call and gives
``attr(op, key)``, ``fail(op, message)``, ``scope``/``feeds``, ``scope_cell(name, op)``,
``data(name, op, persistable)`` and ``output(name, array)``. The semantics (Paddle 3.3.1) are those the
executor's module docstring lists: ``builtin.combine`` -> a Python list, ``builtin.split`` -> its
items, ``builtin.slice`` -> item ``index``, ``builtin.parameter`` -> ``scope[parameter_name]``,
``builtin.shadow_output`` / ``pd_op.fetch`` -> ``outputs[output_name / name]``, ``pd_op.data`` ->
``feeds[name]`` (a persistable one not fed: its scope entry).
"""

from __future__ import annotations

from collections.abc import Callable

from rulepass.engine.ir.core import Operation

__all__ = ["STRUCTURE_OPS", "persistable_data"]




def _combine(run, op, inputs):
    return [list(inputs)]


def _split(run, op, inputs):
    (items,) = inputs
    if len(items) != len(op.results):
        raise run.fail(op, f"builtin.split of {len(items)} items into {len(op.results)} results")
    return list(items)


def _slice(run, op, inputs):
    return [inputs[0][int(run.attr(op, "index"))]]


def _parameter(run, op, inputs):
    return [run.scope_cell(run.attr(op, "parameter_name"), op)]


def _data(run, op, inputs):
    return [run.data(run.attr(op, "name"), op, persistable_data(op))]


def persistable_data(op: Operation) -> bool:
    """A ``pd_op.data`` marked ``persistable:[true]``: a scope variable, fed or stored."""
    flag = op.attributes.get("persistable")
    return flag is True or (isinstance(flag, tuple) and bool(flag) and flag[0] is True)


def _shadow_output(run, op, inputs):
    run.output(run.attr(op, "output_name"), inputs[0])
    return []


def _fetch(run, op, inputs):
    run.output(run.attr(op, "name"), inputs[0])
    return [inputs[0]] * len(op.results)


STRUCTURE_OPS: dict[str, Callable] = {
    "builtin.combine": _combine,
    "builtin.split": _split,
    "builtin.slice": _slice,
    "builtin.parameter": _parameter,
    "builtin.shadow_output": _shadow_output,
    "pd_op.fetch": _fetch,
    "pd_op.data": _data,
    "pd_op.feed": _data,
}
"""Structure and I/O ops, handled by the executor itself."""
