"""Values of the IR: :class:`Value` (an SSA value with its exact use list), :class:`Use` (one
operand slot reading it) and :func:`make_kwarg`. Import them from ``engine/ir/core.py`` with the
ops, blocks and programs they belong to; they live here to keep that module small.

A value's type change (``set_type``) is journaled and reported like every mutation of
``core.py``'s API (see its docstring).
"""

from __future__ import annotations

import operator

from rulepass.engine.ir.types import NULL_TYPE

# Operation.position_key of an op, called from C (core.py imports this module, not the reverse)
_position_key = operator.methodcaller("position_key")


class Use:
    """One use of a value: operand ``index`` of ``op``, linked into the value's use list (a
    doubly linked list threaded through the uses, as MLIR's ``OpOperand`` is: no container per
    value; a dict per value cost about 200 bytes, a fifth of a program's memory)."""

    __slots__ = ("op", "index", "_prev", "_next")

    def __init__(self, op: "Operation", index: int):
        self.op = op
        self.index = index
        self._prev: Use | None = None
        self._next: Use | None = None

    def __repr__(self) -> str:
        return f"Use({self.op.name}, {self.index})"


class Value:
    """An SSA value: a result of an op, a block argument or a program kwarg.

    ``type`` is an IR type; ``owner`` the defining op (``None`` for kwargs and block arguments);
    ``index`` the result index; ``uses`` the exact list of operand slots reading it, in the order
    they were made (kept as a linked list of :class:`Use`: ``_first_use`` .. ``_last_use``,
    ``_num_uses`` of them). ``kwarg_name``/``kwarg_attrs`` hold a kwarg's name and its attribute
    list.
    """

    __slots__ = ("type", "owner", "index", "_first_use", "_last_use", "_num_uses", "kwarg_name",
                 "kwarg_attrs", "_kw_program")

    def __init__(self, type, owner=None, index: int = 0):
        self.type = type
        self.owner = owner
        self.index = index
        self._first_use: Use | None = None
        self._last_use: Use | None = None
        self._num_uses = 0
        self.kwarg_name: str | None = None
        self.kwarg_attrs: list[tuple[str, object]] | None = None
        self._kw_program = None  # the Program of a kwarg

    @property
    def uses(self) -> list[Use]:
        """Operand slots reading this value, in the order they were made."""
        found = []
        use = self._first_use
        while use is not None:
            found.append(use)
            use = use._next
        return found

    @property
    def num_uses(self) -> int:
        """How many operand slots read this value."""
        return self._num_uses

    def users(self) -> list["Operation"]:
        """Ops reading this value, each once, in program order."""
        use = self._first_use
        if use is None:
            return []
        if use._next is None:
            return [use.op]
        found = {}  # each op once (ops hash by identity)
        while use is not None:
            found[use.op] = None
            use = use._next
        if len(found) == 1:
            return list(found)
        return sorted(found, key=_position_key)

    def _add_use(self, use: Use) -> None:
        # append `use` to the use list (the newest last)
        last = self._last_use
        if last is None:
            self._first_use = use
        else:
            last._next = use
            use._prev = last
        self._last_use = use
        self._num_uses += 1

    def _remove_use(self, use: Use) -> None:
        # unlink `use` (one of this value's) from the use list
        prev, nxt = use._prev, use._next
        if prev is None:
            self._first_use = nxt
        else:
            prev._next = nxt
        if nxt is None:
            self._last_use = prev
        else:
            nxt._prev = prev
        use._prev = use._next = None
        self._num_uses -= 1

    def replace_all_uses_with(self, new: "Value | None") -> None:
        """Make every reader of this value read ``new`` instead."""
        if new is self:
            return
        for use in self.uses:
            use.op.set_operand(use.index, new)

    def set_type(self, t) -> None:
        """Change this value's type (``retype``); journaled."""
        old = self.type
        if old is t or (type(old) is type(t) and old == t):
            return  # (types of two classes are never equal: no field-by-field test for them)
        self.type = t
        prog = self._program()
        if prog is not None:
            journal = prog._journal
            if journal is not None:
                journal.append((setattr, self, "type", old))
            if prog.observer is not None:
                prog.observer.value_retyped(self)

    def is_kwarg_of(self, program) -> bool:
        """Whether this value is a kwarg of ``program`` (not once erased from it)."""
        return self._kw_program is program

    def _program(self) -> "Program | None":
        if self.owner is not None:
            b = self.owner.block
            return b._program if b is not None else None
        return self._kw_program

    def __repr__(self) -> str:
        if self.owner is None:
            return f"<Value kwarg {self.kwarg_name}>"
        return f"<Value {self.owner.name}#{self.index}>"


def make_kwarg(name: str, type=NULL_TYPE, attrs=()) -> Value:
    """A program kwarg value ``%kwarg_<name>`` with its attribute list (kept in given order)."""
    v = Value(type)
    v.kwarg_name = name
    v.kwarg_attrs = list(attrs)
    return v
