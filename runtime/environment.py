"""The value environment of one execution: IR values -> arrays, freed after their last use.

An :class:`Environment` maps each live :class:`~rulepass.engine.ir.core.Value` to a :class:`Cell`, a box
holding an array. Values that alias each other share one cell, so an in-place op (Paddle's
``pd_op.add_``, ``sgd_``, ...) that stores a new array into the cell of its first operand is seen by
every later reader of the operand *and* of the op's result, as in Paddle, where both are the same
variable. Cells of persistent variables (parameters, gradient-merge buffers, anything named in a
scope dict) are :class:`ScopeCell` s that write through to that dict, so an optimizer's update
outlives the run.

Freeing: the environment is built with the number of reads each value will get from the ops that
will run in it (``use_counts``); the executor calls :meth:`Environment.consumed` after each op and a
value is dropped when its count reaches zero. A value never read is dropped right after its op.
Counting reads, rather than storing a last-use index, stays exact when a pipeline runs only some of
a program's jobs in an environment (a micro-batch that never runs the optimizer keeps the values the
optimizer would read until the environment itself is dropped at the end of the step, which is what
Paddle's ``set_skip_gc_vars`` does for values crossing jobs).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

__all__ = ["Cell", "ScopeCell", "Environment"]


class Cell:
    """A box holding one array (or a Python list of arrays for a ``vec[...]`` value, or None for a
    null value). Values that alias each other share a cell."""

    __slots__ = ("_array",)

    persistent = False

    def __init__(self, array: Any):
        self._array = array

    @property
    def array(self) -> Any:
        """The array currently stored."""
        return self._array

    @array.setter
    def array(self, new: Any) -> None:
        self._array = new


class ScopeCell(Cell):
    """A cell that reads and writes ``scope[name]``: a persistent variable (a parameter, a
    gradient-merge buffer, a value another job wrote). Its array is not counted as live memory of
    the environment."""

    __slots__ = ("scope", "name")

    persistent = True

    def __init__(self, scope: MutableMapping[str, Any], name: str):
        self.scope = scope
        self.name = name

    @property
    def array(self) -> Any:
        return self.scope[self.name]

    @array.setter
    def array(self, new: Any) -> None:
        self.scope[self.name] = new


def _nbytes(array: Any) -> int:
    if array is None:
        return 0
    if isinstance(array, list):
        return sum(_nbytes(a) for a in array)
    size = getattr(array, "nbytes", None)
    return int(size) if size is not None else 0


class Environment:
    """Live values of one execution (one run of a program, or one micro-batch of a pipeline step).

    Args:
        use_counts: value -> how many operand slots of the ops that will run here read it
            (a value read twice by one op counts twice). Values absent from it are read by none.

    Attributes:
        peak_live_values: the most values bound at once (after each op, before freeing).
        peak_live_bytes: the most bytes of distinct non-persistent arrays bound at once.
        freed: how many values were dropped after their last use.
    """

    def __init__(self, use_counts: Mapping[Any, int]):
        self._cells: dict[Any, Cell] = {}
        self._remaining: dict[Any, int] = dict(use_counts)
        self.peak_live_values = 0
        self.peak_live_bytes = 0
        self.freed = 0

    def __contains__(self, value: Any) -> bool:
        return value in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def cell(self, value: Any) -> Cell:
        """The cell bound to ``value``; KeyError when it is not live."""
        return self._cells[value]

    def read(self, value: Any) -> Any:
        """The array bound to ``value``; KeyError when it is not live."""
        return self._cells[value].array

    def bind(self, value: Any, array: Any) -> Cell:
        """Bind ``value`` to a new cell holding ``array``; returns the cell."""
        cell = Cell(array)
        self._cells[value] = cell
        return cell

    def bind_cell(self, value: Any, cell: Cell) -> None:
        """Bind ``value`` to an existing cell (an alias: an in-place result, a scope variable)."""
        self._cells[value] = cell

    def live_bytes(self) -> int:
        """Bytes of the distinct non-persistent arrays bound now."""
        seen: dict[int, int] = {}
        for cell in self._cells.values():
            if not cell.persistent:
                array = cell.array
                seen[id(array)] = _nbytes(array)
        return sum(seen.values())

    def note_peak(self) -> None:
        """Record the current number of live values and bytes into the peaks."""
        self.peak_live_values = max(self.peak_live_values, len(self._cells))
        self.peak_live_bytes = max(self.peak_live_bytes, self.live_bytes())

    def consumed(self, value: Any) -> None:
        """One read of ``value`` happened; drop it when that was its last read here."""
        left = self._remaining.get(value, 0) - 1
        if left > 0:
            self._remaining[value] = left
            return
        self._remaining.pop(value, None)
        if self._cells.pop(value, None) is not None:
            self.freed += 1

    def drop_if_unused(self, value: Any) -> None:
        """Drop ``value`` now when no op that runs here reads it."""
        if self._remaining.get(value, 0) <= 0 and self._cells.pop(value, None) is not None:
            self.freed += 1

    def remaining_uses(self, value: Any) -> int:
        """Reads of ``value`` still to come here."""
        return self._remaining.get(value, 0)
