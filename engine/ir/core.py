"""The in-memory IR: :class:`Program`, :class:`Block`, :class:`Operation`, :class:`Value` (defined
with :class:`Use` in ``values.py``, and importable from here).

Modelled on Paddle's PIR (``paddle/pir/include/core/``): an op has a name (``"pd_op.matmul"``),
operands (values, or ``None`` for ``<<NULL VALUE>>``), results, attributes, an optional
:class:`~rulepass.engine.ir.types.OperationDistAttr` and regions (one block each, as ``pd_op.if``
and ``pd_op.pylayer`` use them). Values carry a type, the op and index that define them, and an
exact use list.

Every mutation goes through the small API below (``Block.insert_before``, ``Block.append``,
``Operation.erase``, ``Operation.set_operand``, ``Value.replace_all_uses_with``,
``Operation.set_attr`` / ``unset_attr``, ``Operation.set_dist_attr``, ``Value.set_type``,
``Program.add_kwarg`` / ``erase_kwarg``) so that :meth:`Program.transaction` can undo a failed
pass exactly, and so that each mutation is reported once to the program's :class:`Observer`
(:meth:`Program.observe`), the way MLIR's ``RewriterBase::Listener`` and xDSL's
``PatternRewriterListener`` feed a rewrite driver. Ops of a block form a doubly linked list with
integer order keys, so "is a before b" is O(1) and inserting or erasing is O(1) amortised (keys
are renumbered when a gap closes); a block knows its program in O(1); the printer names values.
"""

from __future__ import annotations

from typing import Iterator

from rulepass.engine.ir.observer import Journaled, Observer
from rulepass.engine.ir.types import OperationDistAttr
from rulepass.engine.ir.values import Use, Value, make_kwarg  # noqa: F401  (this module's API)

#: "No attribute" (distinct from any value an attribute may hold).
_MISSING = object()

_GAP = 1 << 20

#: The regions of an op that has none (one tuple for all; `add_region` makes a list).
_NO_REGIONS = ()

#: What no op's `mark` is (`Operation.adjacent` filters nothing by default).
_NO_MARK = object()


class Operation:
    """One op: ``name``, operands, results, ``attributes`` (dict, printed sorted by key),
    ``dist_attr`` (printed as the ``op_dist_attr`` attribute) and ``regions`` (list of blocks).

    Create with :meth:`create`; insert with :meth:`Block.insert_before` or :meth:`Block.append`.
    """

    __slots__ = (
        "name", "_operands", "_operand_uses", "results", "attributes", "dist_attr", "regions",
        "block", "_prev", "_next", "_order", "mark",
    )

    def __init__(self, name: str):
        self.name = name
        #: scratch for the rewrite driver's worklist (whether the op is queued); not IR state
        self.mark = None
        self._operands: list[Value | None] = []
        self._operand_uses: list[Use | None] = []
        self.results: list[Value] = []
        self.attributes: dict[str, object] = {}
        self.dist_attr: OperationDistAttr | None = None
        self.regions: list[Block] = _NO_REGIONS  # (shared: most ops have none)
        self.block: Block | None = None
        self._prev: Operation | None = None
        self._next: Operation | None = None  # neighbours in the block, and the order key
        self._order = 0

    @classmethod
    def create(cls, name, operands=(), result_types=(), attributes=None, dist_attr=None,
               regions=()) -> "Operation":
        """A detached op reading ``operands`` (values or ``None``) with one result per type."""
        op = cls(name)
        values = op._operands = list(operands)
        uses = op._operand_uses = [None] * len(values)
        for i, v in enumerate(values):  # _append_operand, for each
            if v is not None:
                use = uses[i] = Use(op, i)
                v._add_use(use)
        op.results = [Value(t, op, i) for i, t in enumerate(result_types)]
        op.attributes = dict(attributes) if attributes else {}
        op.dist_attr = dist_attr
        for r in regions:
            op.add_region(r)
        return op

    # -- operands -------------------------------------------------------------------------
    @property
    def operands(self) -> list[Value | None]:
        """The operand values (a copy; ``None`` is a null value)."""
        return list(self._operands)

    num_operands = property(lambda self: len(self._operands), doc="How many operands.")

    def operand(self, i: int) -> Value | None:
        """Operand ``i``."""
        return self._operands[i]

    @property
    def result(self) -> Value:
        """The only result; ``ValueError`` when the op has not exactly one."""
        if len(self.results) != 1:
            raise ValueError(f"{self.name} has {len(self.results)} results, not one")
        return self.results[0]

    def _append_operand(self, v: Value | None) -> None:
        i = len(self._operands)
        self._operands.append(v)
        if v is None:
            self._operand_uses.append(None)
        else:
            use = Use(self, i)
            v._add_use(use)
            self._operand_uses.append(use)

    def set_operand(self, i: int, v: Value | None) -> None:
        """Make operand ``i`` read ``v``; use lists stay exact; journaled."""
        old = self._operands[i]
        if old is v:
            return
        self._set_operand_raw(i, v)
        block = self.block
        prog = None if block is None else block._program
        if prog is not None:
            journal = prog._journal
            if journal is not None:
                journal.append((self._set_operand_raw, i, old))
            if prog.observer is not None:
                prog.observer.operand_set(self, i, old)

    def _set_operand_raw(self, i: int, v: Value | None) -> None:
        old_use = self._operand_uses[i]
        if old_use is not None:
            self._operands[i]._remove_use(old_use)
        self._operands[i] = v
        if v is None:
            self._operand_uses[i] = None
        else:
            use = Use(self, i)
            v._add_use(use)
            self._operand_uses[i] = use

    def _drop_operand_uses(self) -> None:
        for i, use in enumerate(self._operand_uses):
            if use is not None:
                self._operands[i]._remove_use(use)
                self._operand_uses[i] = None

    def _restore_operand_uses(self) -> None:
        for i, v in enumerate(self._operands):
            if v is not None and self._operand_uses[i] is None:
                use = Use(self, i)
                v._add_use(use)
                self._operand_uses[i] = use

    # -- attributes -----------------------------------------------------------------------
    def attr(self, key: str, default=None):
        """Attribute ``key``, or ``default``."""
        return self.attributes.get(key, default)

    def set_attr(self, key: str, value) -> None:
        """Set attribute ``key`` (``op_dist_attr`` is :meth:`set_dist_attr`); journaled."""
        attributes = self.attributes
        old = attributes.get(key, _MISSING)
        if old is not _MISSING and old == value and type(old) is type(value):
            return
        attributes[key] = value
        block = self.block
        prog = None if block is None else block._program
        if prog is not None:
            journal = prog._journal
            if journal is not None:
                journal.append((attributes.pop, key, None) if old is _MISSING else
                               (attributes.__setitem__, key, old))
            if prog.observer is not None:
                prog.observer.attribute_set(self, key)

    def unset_attr(self, key: str) -> None:
        """Remove attribute ``key`` if present; journaled."""
        if key not in self.attributes:
            return
        attributes = self.attributes
        old = attributes.pop(key)
        block = self.block
        prog = None if block is None else block._program
        if prog is not None:
            journal = prog._journal
            if journal is not None:
                journal.append((attributes.__setitem__, key, old))
            if prog.observer is not None:
                prog.observer.attribute_set(self, key)

    def set_dist_attr(self, dist_attr: OperationDistAttr | None) -> None:
        """Replace the op dist attribute (``None`` removes it); journaled."""
        old = self.dist_attr
        if old == dist_attr:
            return
        self.dist_attr = dist_attr
        block = self.block
        prog = None if block is None else block._program
        if prog is not None:
            journal = prog._journal
            if journal is not None:
                journal.append((setattr, self, "dist_attr", old))
            if prog.observer is not None:
                prog.observer.attribute_set(self, "op_dist_attr")

    @property
    def op_role(self) -> int:
        """``op_role`` attribute (0 forward, 1 backward, 2 optimize, ...), -1 when absent."""
        r = self.attributes.get("op_role", -1)
        return r if isinstance(r, int) else -1

    # -- regions and position -------------------------------------------------------------
    def add_region(self, block: "Block") -> None:
        """Attach ``block`` as the next region of this op."""
        block.parent_op = self
        if self.regions:
            self.regions.append(block)
        else:
            self.regions = [block]
        _set_program(block, self.block._program if self.block is not None else None)

    @property
    def program(self) -> "Program | None":
        """The program this op belongs to, or ``None`` when detached."""
        b = self.block
        return b._program if b is not None else None

    next_op = property(lambda self: self._next, doc="The next op in this block, or ``None``.")
    prev_op = property(lambda self: self._prev, doc="The previous op in this block, or ``None``.")

    def adjacent(self, unless_marked=_NO_MARK) -> list["Operation"]:
        """The ops next to this one, each possibly more than once: the producers of its
        operands, the readers of its results, the ops just before and after it in its block,
        and the op holding its block (what a rewrite driver revisits around a changed op);
        with `unless_marked`, only those whose `mark` is not it (the driver's queued ops)."""
        found = [o for v in self._operands
                 if v is not None and (o := v.owner) is not None and o.mark is not unless_marked]
        for result in self.results:
            use = result._first_use
            while use is not None:
                if use.op.mark is not unless_marked:
                    found.append(use.op)
                use = use._next
        other = self._prev
        if other is not None and other.mark is not unless_marked:
            found.append(other)
        other = self._next
        if other is not None and other.mark is not unless_marked:
            found.append(other)
        block = self.block
        if block is not None:
            other = block.parent_op
            if other is not None and other.mark is not unless_marked:
                found.append(other)
        return found

    def position_key(self) -> tuple:
        """A key ordering ops in program (printed) order across nested blocks."""
        block = self.block
        if block is None or block.parent_op is None:
            return (self._order,)  # a top-level op (most of them): no walk up
        key = []
        op = self
        while op is not None:
            key.append(op._order)
            block = op.block
            if block is None or block.parent_op is None:
                break
            key.append(block.parent_op.regions.index(block))
            op = block.parent_op
        return tuple(reversed(key))

    def is_before(self, other: "Operation") -> bool:
        """True when this op comes before ``other`` in program order."""
        if self.block is other.block and self.block is not None:
            return self._order < other._order
        return self.position_key() < other.position_key()

    def erase(self) -> None:
        """Remove this op from its block. ``ValueError`` if a result is still used."""
        for r in self.results:
            if r._first_use is not None:
                user = r._first_use.op
                raise ValueError(
                    f"cannot erase {self.name}: result {r.index} is still used by {user.name}"
                )
        self.block._unlink(self)

    def walk(self) -> Iterator["Operation"]:
        """This op, then every op nested in its regions, in printed order (no recursion)."""
        stack = [self]
        while stack:
            op = stack.pop()
            yield op
            nested = []
            for region in op.regions:
                nested.extend(region.ops)
            stack.extend(reversed(nested))

    def clone(self, value_map: dict | None = None) -> "Operation":
        """A detached copy reading ``value_map.get(v, v)`` for each operand; its results are
        added to ``value_map``; regions are cloned too."""
        value_map = {} if value_map is None else value_map
        operands = [value_map.get(v, v) if v is not None else None for v in self._operands]
        op = Operation.create(self.name, operands, [r.type for r in self.results],
                              dict(self.attributes), self.dist_attr)
        for r, c in zip(self.results, op.results):
            value_map[r] = c
        for region in self.regions:
            nb = Block()
            for inner in region.ops:
                nb.append(inner.clone(value_map))
            op.add_region(nb)
        return op

    def __repr__(self) -> str:
        return f"<Operation {self.name}>"


def _set_program(block: "Block", program: "Program | None") -> None:
    """Make ``program`` the program of ``block`` and of the blocks nested in it; one that has it
    already is skipped with its subtree (a block's program is its parent op's block's, always):
    O(1) when nothing changes, a moved region op's subtree when it does."""
    stack = [block]
    while stack:
        b = stack.pop()
        b._program = program
        op = b._first
        while op is not None:
            for region in op.regions:
                if region._program is not program:
                    stack.append(region)
            op = op._next


class Block:
    """A list of ops in program order, with arguments (rarely used in the programs we read);
    ``program`` is kept on every block, nested ones too (see :func:`_set_program`)."""

    __slots__ = ("_first", "_last", "_count", "parent_op", "_program", "args", "__weakref__")

    def __init__(self):
        self._first: Operation | None = None
        self._last: Operation | None = None
        self._count = 0
        self.parent_op: Operation | None = None
        self._program: Program | None = None
        self.args: list[Value] = []

    # O(1) at any depth (walking up the parents made sweeps over deep regions quadratic)
    program = property(lambda self: self._program,
                       doc="The program holding this block, or ``None`` (:func:`_set_program`).")

    @property
    def ops(self) -> list[Operation]:
        """The ops of this block, in order (a snapshot list)."""
        return list(self)

    def __iter__(self) -> Iterator[Operation]:
        op = self._first
        while op is not None:
            nxt = op._next
            yield op
            op = nxt

    def __len__(self) -> int:
        return self._count

    first = property(lambda self: self._first, doc="The first op, or ``None``.")
    last = property(lambda self: self._last, doc="The last op, or ``None``.")

    def append(self, op: Operation) -> Operation:
        """Add ``op`` at the end of this block; journaled."""
        self._link(op, self._last, None)
        return op

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        """Insert ``op`` immediately before ``anchor`` (an op of this block); journaled."""
        if anchor.block is not self:
            raise ValueError(f"{anchor.name} is not in this block")
        self._link(op, anchor._prev, anchor)
        return op

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        """Insert ``op`` immediately after ``anchor``; journaled."""
        if anchor.block is not self:
            raise ValueError(f"{anchor.name} is not in this block")
        self._link(op, anchor, anchor._next)
        return op

    def _link(self, op: Operation, prev: Operation | None, nxt: Operation | None,
              record: bool = True) -> None:
        if op.block is not None:
            raise ValueError(f"{op.name} is already in a block")
        op.block = self
        op._prev, op._next = prev, nxt
        for region in op.regions:
            _set_program(region, self._program)
        if prev is None:
            self._first = op
        else:
            prev._next = op
        if nxt is None:
            self._last = op
        else:
            nxt._prev = op
        self._count += 1
        lo = prev._order if prev is not None else None
        hi = nxt._order if nxt is not None else None
        if lo is None and hi is None:
            op._order = 0
        elif hi is None:
            op._order = lo + _GAP
        elif lo is None:
            op._order = hi - _GAP
        elif hi - lo > 1:
            op._order = (lo + hi) // 2
        else:
            self._renumber()
        # An op relinked by an undo got its operand uses dropped when it was unlinked.
        if None in op._operand_uses:
            op._restore_operand_uses()
        prog = self._program
        if prog is not None:
            prog.structure_version += 1
            if record and prog._journal is not None:
                prog._journal.append((self._unlink, op, False))
            # undos are reported too: an inner transaction may fail while an observer listens
            if prog.observer is not None:
                prog.observer.op_inserted(op)

    def _unlink(self, op: Operation, record: bool = True) -> None:
        prog = self._program
        if prog is not None:
            prog.structure_version += 1
            if prog.observer is not None:
                prog.observer.op_erased(op)
        prev, nxt = op._prev, op._next
        if prev is None:
            self._first = nxt
        else:
            prev._next = nxt
        if nxt is None:
            self._last = prev
        else:
            nxt._prev = prev
        self._count -= 1
        op._drop_operand_uses()
        op.block = None
        op._prev = op._next = None
        for region in op.regions:
            _set_program(region, None)
        if record and prog is not None and prog._journal is not None:
            prog._journal.append((self._link, op, prev, nxt, False))  # the undo: relinked
            prog._unlinked.append(op)

    def _renumber(self) -> None:
        k = 0
        op = self._first
        while op is not None:
            op._order = k
            k += _GAP
            op = op._next


class Program(Journaled):
    """A whole program: the top ``block``, the ``kwargs`` (values printed under ``^kw:``) and the
    ``process_groups`` table ring_id → tuple of global ranks (our header; empty when unknown).

    Mutations of its ops and values are journaled while a :meth:`transaction` is open, and
    reported to ``observer`` (an :class:`Observer`, or None) when one is installed
    (:meth:`observe`). ``structure_version`` counts ops linked and unlinked, so a cache of
    positions knows when it is stale (attribute and operand changes leave it alone).
    """

    def __init__(self, block: Block | None = None, kwargs=None, process_groups=None):
        self.block = block if block is not None else Block()
        _set_program(self.block, self)
        self.kwargs: list[Value] = list(kwargs or [])
        for kw in self.kwargs:
            kw._kw_program = self
        self.process_groups: dict[int, tuple[int, ...]] = dict(process_groups or {})
        self._journal: list | None = None
        self._unlinked: list[Operation] = []  # unlinked under a transaction (_committed)
        self.observer: Observer | None = None
        self.structure_version = 0

    def _committed(self, journal: list) -> None:
        # The outermost transaction committed: an op it erased for good is garbage once its
        # callers drop it, but its results point back at it (a reference cycle only the cyclic
        # collector would free, walking every object made since it last ran). Their `owner`
        # is cleared, so reference counting frees them. An op relinked since (an inner
        # transaction undone) has a block again.
        unlinked, self._unlinked = self._unlinked, []
        for op in unlinked:
            if op.block is None and not op.regions:
                for result in op.results:
                    if result.owner is op:
                        result.owner = None

    def _rolled_back(self) -> None:
        self._unlinked = []  # every op unlinked is back (the transaction's undo relinked it)

    def walk(self) -> Iterator[Operation]:
        """Every op in printed order, nested blocks included (no recursion)."""
        op = self.block._first
        while op is not None:
            following = op._next  # read first: the caller may erase the op it is given
            if op.regions:
                yield from op.walk()
            else:
                yield op
            op = following

    def op_list(self, mark=_NO_MARK) -> list[Operation]:
        """Every op in printed order, nested ones included: `list(walk())`, made faster. With
        `mark`, each op's `mark` is set to it on the way (a rewrite driver queueing them all)."""
        out: list[Operation] = []
        append = out.append
        marking = mark is not _NO_MARK
        op = self.block._first
        while op is not None:
            if op.regions:
                for inner in op.walk():
                    if marking:
                        inner.mark = mark
                    append(inner)
            else:
                if marking:
                    op.mark = mark
                append(op)
            op = op._next
        return out

    ops = property(lambda self: self.block.ops, doc="Ops of the top block (a snapshot).")

    def num_ops(self) -> int:
        """Ops in the program, nested ones included."""
        return sum(1 for _ in self.walk())

    def group(self, ring_id: int) -> tuple[int, ...] | None:
        """Ranks of process group ``ring_id``, or ``None`` when unknown."""
        return self.process_groups.get(ring_id)

    def add_kwarg(self, value: Value, index: int | None = None) -> Value:
        """Add kwarg ``value`` (from :func:`make_kwarg`) at ``index`` (default: last); journaled."""
        index = len(self.kwargs) if index is None else index
        self.kwargs.insert(index, value)
        value._kw_program = self
        self._record(lambda: self.kwargs.remove(value))
        return value

    def erase_kwarg(self, value: Value) -> None:
        """Remove kwarg ``value``, which nothing may read (Paddle's ``Block.erase_kwarg``);
        journaled and reported (``kwarg_erased``). ``ValueError`` when it is still read or is not
        a kwarg of this program. Erasures in list order (a sweep's) search from the last one."""
        if value._kw_program is not self or value._num_uses:
            raise ValueError(f"cannot erase kwarg {value.kwarg_name}: " + (
                "it is still read" if value._num_uses else "not a kwarg of this program"))
        try:
            index = self.kwargs.index(value, getattr(self, "_erased_at", 0))
        except ValueError:
            index = self.kwargs.index(value)
        del self.kwargs[index]
        self._erased_at = index
        value._kw_program = None
        self._changed(lambda: (self.kwargs.insert(index, value),
                               setattr(value, "_kw_program", self)), "kwarg_erased", value)

    def add_process_group(self, ranks) -> int:
        """The ring id of the process group with exactly these ranks in this order, creating one
        (the next free id) when there is none; journaled."""
        ranks = tuple(int(r) for r in ranks)
        for ring_id in sorted(self.process_groups):
            if self.process_groups[ring_id] == ranks:
                return ring_id
        ring_id = max(self.process_groups, default=-1) + 1
        self.process_groups[ring_id] = ranks
        self._record(lambda: self.process_groups.pop(ring_id, None))
        return ring_id

    def clone(self) -> "Program":
        """A deep copy (types and attributes are immutable and shared)."""
        value_map: dict = {}
        kwargs = []
        for kw in self.kwargs:
            nv = Value(kw.type)
            nv.kwarg_name = kw.kwarg_name
            nv.kwarg_attrs = list(kw.kwarg_attrs or [])
            value_map[kw] = nv
            kwargs.append(nv)
        p = Program(kwargs=kwargs, process_groups=self.process_groups)
        for op in self.block:
            p.block.append(op.clone(value_map))
        return p
