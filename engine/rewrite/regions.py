"""`in_region(o, start, end)` in constant time: whether op `o` lies strictly between an op named
`start` and the first op named `end` after it, in the same block.

Per block and (start, end) pair, made on the first question by one walk of the block, a
`RegionIndex` keeps the *runs*: the maximal stretches of ops between two *markers* (ops named start
or end), each knowing the marker just before it, plus the block's last `end` op. Then `o` is in a
region when the marker before its run is a `start` and `o` comes before the block's last `end`
(and `o` is not itself an `end`: the region that a start opens closes at the first end after it).

While a pass runs, the driver's observer reports each op inserted or erased (`inserted`,
`erased`): an op joins the run of its neighbour in O(1); a marker splits a run (the ops from it to
the next marker move, once) or, erased, merges its two runs (union-find with path compression,
so a chain of merges costs O(α) a question). So a sweep asking at every op stays linear, however
many regions it erases (as a prune of other ranks does). Outside a pass (nothing reports), the index is
rebuilt when the program's structure has changed since it was made.
"""

from __future__ import annotations


class Run:
    """A stretch of ops between two markers of a block (a union-find node: `parent` is None at
    the root, which holds `before`, the marker op just before the stretch, None at the block's
    start)."""

    __slots__ = ("parent", "before")

    def __init__(self, before):
        self.parent = None
        self.before = before


def root(run: Run) -> Run:
    """The root of `run`'s set, with path compression."""
    top = run
    while top.parent is not None:
        top = top.parent
    while run.parent is not None and run.parent is not top:
        run.parent, run = top, run.parent
    return top


class BlockRuns:
    """The runs of one block for one (start, end) pair."""

    __slots__ = ("run_of", "after", "first", "last_end")

    def __init__(self, block, markers: tuple):
        start, end = markers
        #: id(op) -> the run the op lies in (a marker: the run before it)
        self.run_of: dict[int, Run] = {}
        #: id(marker) -> the run right after it
        self.after: dict[int, Run] = {}
        self.first = current = Run(None)
        self.last_end = None
        for op in block:
            self.run_of[id(op)] = current
            name = op.name
            if name == start or name == end:
                current = self.after[id(op)] = Run(op)
                if name == end:
                    self.last_end = op

    def run_at(self, op) -> Run | None:
        """The run an op newly placed after `op.prev_op` joins (None when that op is unknown
        here: the caller makes the table afresh)."""
        prev = op.prev_op
        if prev is None:
            return root(self.first)
        found = self.after.get(id(prev)) or self.run_of.get(id(prev))
        return root(found) if found is not None else None


class RegionIndex:
    """`in_region` answers for one program (see the module docstring). `observed` is set by the
    driver, which reports changes; otherwise the index checks the program's structure version."""

    def __init__(self, program):
        self.program = program
        self.observed = False
        self.version = program.structure_version
        #: (start, end) -> {block: BlockRuns}
        self.tables: dict[tuple, dict] = {}

    def contains(self, op, start: str, end: str) -> bool:
        """Whether `op` lies strictly inside a `start` .. `end` region of its block."""
        block = op.block
        if block is None or op.name == end:
            return False
        if not self.observed and self.version != self.program.structure_version:
            self.tables.clear()
            self.version = self.program.structure_version
        markers = (start, end)
        blocks = self.tables.get(markers)
        if blocks is None:
            blocks = self.tables[markers] = {}
        runs = blocks.get(block)
        if runs is None:
            runs = blocks[block] = BlockRuns(block, markers)
        run = runs.run_of.get(id(op))
        if run is None:
            # not reported: the index was made after the op came (it would be known) or the
            # change went unreported; the table is made afresh
            runs = blocks[block] = BlockRuns(block, markers)
            run = runs.run_of[id(op)]
        before = root(run).before
        last_end = runs.last_end
        return (before is not None and before.name == start and last_end is not None
                and op.is_before(last_end))

    # ---- what the driver's observer reports ----------------------------------------------------
    def inserted(self, op) -> None:
        """`op` was linked into a block: it joins the run at its place; a marker splits it."""
        for markers, blocks in self.tables.items():
            runs = blocks.get(op.block)
            if runs is None:
                continue
            run = runs.run_at(op)
            if run is None:
                del blocks[op.block]  # made afresh at the next question
                continue
            runs.run_of[id(op)] = run
            if op.name not in markers:
                continue
            new = runs.after[id(op)] = Run(op)
            follower = op.next_op
            while follower is not None:
                runs.run_of[id(follower)] = new
                if follower.name in markers:
                    break
                follower = follower.next_op
            if op.name == markers[1] and (runs.last_end is None or runs.last_end.is_before(op)):
                runs.last_end = op

    def erased(self, op) -> None:
        """`op` is about to leave its block: a marker's two runs merge."""
        for markers, blocks in self.tables.items():
            runs = blocks.get(op.block)
            if runs is None:
                continue
            run = runs.run_of.pop(id(op), None)
            if op.name not in markers:
                continue
            following = runs.after.pop(id(op), None)
            if run is not None and following is not None:
                top, other = root(run), root(following)
                if top is not other:
                    other.parent = top
            if runs.last_end is op:
                earlier = op.prev_op
                while earlier is not None and earlier.name != markers[1]:
                    earlier = earlier.prev_op
                runs.last_end = earlier
