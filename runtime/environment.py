"""The value environment of one execution: IR values -> arrays, freed after their last use.

An :class:`Environment` maps each live :class:`~rulepass.engine.ir.core.Value` to a :class:`Cell`, a box
holding an array. Values that alias each other share one cell, so an in-place op (Paddle's
``pd_op.add_``, ``sgd_``, ...) that stores a new array into the cell of its first operand is seen by
every later reader of the operand *and* of the op's result, as in Paddle, where both are the same
variable. Cells of persistent variables (parameters, gradient-merge buffers, anything named in a
scope dict) are :class:`ScopeCell` s that write through to that dict, so an optimizer's update
outlives the run.

Freeing: the environment is built with the number of reads each value will get from the ops that
will run in it (``use_counts``); the executor calls :meth:`Environment.done` after each op and a
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

    __slots__ = ("array",)  # a plain slot: reading it is the executor's innermost step

    persistent = False

    def __init__(self, array: Any):
        self.array = array


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
        cells: value -> its Cell, for the values live now (the executor's loop reads and binds
            them directly).
        remaining: value -> reads still to come here (absent: none).
        peak_live_values: the most values bound at once (after each op, before freeing).
        made_for: what the environment was made for (the executor's key of the ops it will
            run; opaque here).
        measure_bytes: also measure ``peak_live_bytes`` (off by default: it walks every live
            value after each op, which makes a run quadratic in the program's size).
        peak_live_bytes: the most bytes of distinct non-persistent arrays bound at once (0
            unless ``measure_bytes``).
        freed: how many values were dropped after their last use.
    """

    def __init__(self, use_counts: Mapping[Any, int], *, measure_bytes: bool = False,
                 made_for: Any = None):
        self.cells: dict[Any, Cell] = {}
        self._counts = use_counts  # copied into ``remaining`` when first counted down
        self._remaining: dict[Any, int] | None = None
        self.measure_bytes = measure_bytes
        self.made_for = made_for
        self.peak_live_values = 0
        self.peak_live_bytes = 0
        self.freed = 0

    @property
    def remaining(self) -> dict[Any, int]:
        """value -> reads still to come here (absent: none); a copy of the counts the
        environment was made with, made when first asked for (a run that frees by a table made
        with its plan never asks)."""
        if self._remaining is None:
            self._remaining = dict(self._counts)
        return self._remaining

    def spent(self) -> None:
        """Every read counted in the environment has happened (a run by a free table)."""
        self._remaining = {}

    def __contains__(self, value: Any) -> bool:
        return value in self.cells

    def __len__(self) -> int:
        return len(self.cells)

    def cell(self, value: Any) -> Cell:
        """The cell bound to ``value``; KeyError when it is not live."""
        return self.cells[value]

    def read(self, value: Any) -> Any:
        """The array bound to ``value``; KeyError when it is not live."""
        return self.cells[value].array

    def read_all(self, values) -> list:
        """The arrays bound to ``values`` (None for a None entry, a null operand), in order;
        KeyError when one is not live."""
        cells = self.cells
        return [cells[v].array if v is not None else None for v in values]

    def bind(self, value: Any, array: Any) -> Cell:
        """Bind ``value`` to a new cell holding ``array``; returns the cell."""
        cell = Cell(array)
        self.cells[value] = cell
        return cell

    def bind_cell(self, value: Any, cell: Cell) -> None:
        """Bind ``value`` to an existing cell (an alias: an in-place result, a scope variable)."""
        self.cells[value] = cell

    def live_bytes(self) -> int:
        """Bytes of the distinct non-persistent arrays bound now."""
        seen: dict[int, int] = {}
        for cell in self.cells.values():
            if not cell.persistent:
                array = cell.array
                seen[id(array)] = _nbytes(array)
        return sum(seen.values())

    def done(self, reads, results) -> None:
        """An op ran: record the peaks, count its ``reads`` (``(value, times)`` pairs), drop the
        values it read for the last time here and the ``results`` no op here reads."""
        cells = self.cells
        if len(cells) > self.peak_live_values:
            self.peak_live_values = len(cells)
        if self.measure_bytes:
            self.peak_live_bytes = max(self.peak_live_bytes, self.live_bytes())
        remaining = self.remaining
        for value, times in reads:
            left = remaining.get(value, 0) - times
            if left > 0:
                remaining[value] = left
                continue
            remaining.pop(value, None)
            if cells.pop(value, None) is not None:
                self.freed += 1
        for value in results:
            if remaining.get(value, 0) <= 0 and cells.pop(value, None) is not None:
                self.freed += 1

    def remaining_uses(self, value: Any) -> int:
        """Reads of ``value`` still to come here."""
        return self.remaining.get(value, 0)
