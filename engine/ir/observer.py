"""What a program does with its mutations: journals them for :meth:`Journaled.transaction`
(undo on failure) and reports them to an :class:`Observer`.

The IR's mutation API (``engine/ir/core.py``) calls the installed observer once per mutation, as
MLIR's ``RewriterBase::Listener`` (``notifyOperationInserted``, ``notifyOperationErased``,
``notifyOperationModified``) and xDSL's ``PatternRewriterListener`` do for their rewrite drivers.
The rewrite driver installs one (``rewrite/changes.py``) to feed its worklist, the index refresh
and the trace's positions.
"""

from __future__ import annotations

import contextlib


class Observer:
    """What a program reports of its mutations, one call per mutation (install one with
    :meth:`Program.observe`). Each method is called after the change, except
    :meth:`op_erased`, called just before the op leaves its block (so its operands, neighbours and
    block are still readable). Mutations of ops or values outside a program are not reported.
    The base class ignores everything; subclasses override what they need."""

    __slots__ = ()

    def op_inserted(self, op) -> None:
        """``op`` was linked into a block of the program (with the ops nested in it)."""

    def op_erased(self, op) -> None:
        """``op`` (with the ops nested in it) is about to be unlinked from the program."""

    def operand_set(self, op, index: int, old) -> None:
        """Operand ``index`` of ``op`` now reads another value (it read ``old``)."""

    def attribute_set(self, op, key: str) -> None:
        """Attribute ``key`` of ``op`` was set or removed (``op_dist_attr``: the dist attribute)."""

    def value_retyped(self, value) -> None:
        """``value`` has a new type."""

    def kwarg_erased(self, value) -> None:
        """Kwarg ``value`` (read by nothing) left the program's kwargs."""


class Journaled:
    """The undo journal and the observer slot of a program (:class:`~rulepass.engine.ir.core.
    Program` derives from this; it sets ``_journal``, ``observer`` and ``structure_version``).
    Every mutation of the IR calls :meth:`_changed` (or :meth:`_record` for changes no observer
    needs), which journals the change's undo and reports the change."""

    __slots__ = ()

    # A journal entry is an undo function, or a tuple (function, *arguments) calling it (the
    # IR's hot mutations journal tuples: no closure to make).

    def _record(self, undo) -> None:
        if self._journal is not None:
            self._journal.append(undo)

    def _changed(self, undo, report, *args) -> None:
        # journal the change, and report it (`report` names the Observer method to call)
        if self._journal is not None:
            self._journal.append(undo)
        if self.observer is not None:
            getattr(self.observer, report)(*args)

    @contextlib.contextmanager
    def transaction(self):
        """Run a block of mutations; if it raises, undo them all and re-raise, so the program is
        exactly as it was. Transactions nest (an inner failure undoes only its own changes)."""
        outer = self._journal
        self._journal = []
        try:
            yield self
        except BaseException:
            journal = self._journal
            self._journal = None
            for undo in reversed(journal):
                if type(undo) is tuple:
                    undo[0](*undo[1:])
                else:
                    undo()
            self._journal = outer
            if outer is None:
                self._rolled_back()
            raise
        else:
            journal = self._journal
            self._journal = outer
            if outer is not None:
                outer.extend(journal)
            else:
                self._committed(journal)

    @contextlib.contextmanager
    def observe(self, observer: Observer):
        """Report every mutation to ``observer`` in the ``with`` block (then the one before)."""
        outer = self.observer
        self.observer = observer
        try:
            yield observer
        finally:
            self.observer = outer

    def _committed(self, journal: list) -> None:
        """The outermost transaction's changes are final (`journal`: their undo entries)."""

    def _rolled_back(self) -> None:
        """The outermost transaction was undone."""
