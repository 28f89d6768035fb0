"""What the driver hears of the IR's mutations during one rule application (`Changes`, the
program's `Observer` while a pass runs), and the positions of ops in the program as it stood at
each application (`PositionLog`), computed once at the end of the pass.

The driver's worklist, the index refresh, the no-op check and the trace all come from these
reports, not from the actions: whatever changes the program through the IR's mutation API (an
action, a registered function, an undo of an inner transaction) is seen once, as MLIR's greedy
driver hears `notifyOperationInserted/Erased/Modified` and xDSL's `PatternRewriteWalker` its
listener callbacks.

Positions (the `--trace` `position` key: 0-based, printed order, nested ops counted) cost
O(log n) per op asked and per op inserted or erased, and one walk of the program: the log keeps
the mutations and the questions in the order they happen; at the end it replays them, first on a
list of every op that was ever in the program (erased ones kept where they were), which fixes one
order for all of them, then with a Fenwick tree of which of them are present. A pass that only
changes attributes answers from the first walk. Nothing is recomputed per application.
"""

from __future__ import annotations

from rulepass.engine.ir.observer import Observer

#: Log entry kinds.
_ERASED, _INSERTED, _ASKED = 0, 1, 2


class Changes(Observer):
    """The changes of the current application: `count` (mutations reported), the ops `touched`
    (to revisit with their neighbours: inserted, erased, changed, reading a new operand or a
    retyped value; kept only when `revisits`: a sweep revisits nothing), the ops `nearby` (to
    revisit alone: the block neighbours of an erased op), the values an erased op read or an op
    reads no more (`fewer_uses`: their producers are revisited, not all their other readers:
    a rule reading `uses(o)` of a pattern op must see it fall), the ops to
    `reindex` (inserted, erased, or with an attribute set that the index
    files ops by: one of `join_keys`, when given) and the ops `created`. `reset` starts the
    next application. With `rewired` a dict (the driver's provenance asks for it), it also
    receives the ops an operand of which was replaced. Structural changes are also logged in
    `positions` (a `PositionLog`) when the trace asks for positions.

    `spread` says whether the application's changes reach the touched ops' neighbours: any
    structural change does; an attribute change does when its key is one of `near_keys` (the
    keys the pass's rules read across ops, `reads.neighbour_keys`; None: every key)."""

    __slots__ = ("count", "touched", "reindex", "created", "positions", "join_keys", "revisits",
                 "erased", "stamp", "regions", "rewired", "spread", "near_keys", "fewer_uses",
                 "nearby")

    def __init__(self, positions: "PositionLog | None" = None, join_keys=None,
                 revisits: bool = True, near_keys: frozenset | None = None):
        self.positions = positions
        self.near_keys = near_keys
        self.spread = False
        # None: every attribute change re-files its op
        self.join_keys = frozenset(join_keys) if join_keys is not None else None
        self.revisits = revisits
        #: op -> `stamp` of the application that erased it, when a dict is given (the trace)
        self.erased: dict | None = None
        self.stamp = 0
        #: the `in_region` index to keep up to date (`rewrite/regions.py`), or None
        self.regions = None
        self.count = 0
        self.touched: dict = {}
        #: values an op erased in this application read, or an op reads no more (their use
        #: lists shrank)
        self.fewer_uses: dict = {}
        #: ops next to an op erased in this application (revisited alone)
        self.nearby: dict = {}
        self.reindex: dict = {}
        self.created: list = []
        #: ops an operand of which was replaced (`replace o with x` rewires o's readers): the
        #: application rewrote them too (provenance for the localizer); None: not kept
        self.rewired: dict | None = None

    def reset(self) -> None:
        """Forget the previous application's changes (new containers: a caller may still hold
        the previous ones)."""
        self.count = 0
        self.spread = False
        if self.touched:
            self.touched = {}
        if self.fewer_uses:
            self.fewer_uses = {}
        if self.nearby:
            self.nearby = {}
        if self.reindex:
            self.reindex = {}
        if self.created:
            self.created = []
        if self.rewired:
            self.rewired = {}

    def to_revisit(self, program, token, queued: dict, value_rules: bool) -> tuple[dict, dict]:
        """(ops, values) the fixpoint driver revisits after this application, those queued
        already apart (ops whose `mark` is `token`, values in `queued`): the touched ops that
        are still in `program`, with their neighbours (`Operation.adjacent`) when the changes
        `spread`, and with `value_rules` the values they read that no op defines; the `nearby`
        ops alone. A value an erased op read adds its producer (its uses changed) and the one
        reader left when one is (a single-use rule may match it now), not every other reader:
        spreading from an erased op's producer or block neighbour (often the same op) made
        erasing the n readers of one value O(n^2); MLIR's greedy driver, too, adds only the
        producer. A match that a larger use count allows is the final full round's."""
        fresh: dict = {}
        values: dict = {}
        top = program.block
        spread = self.spread  # False: attributes no rule reads across ops changed
        for op in self.touched:
            block = op.block
            if block is not top and (block is None or block.program is not program):
                continue  # erased (alive(), inline)
            if op.mark is not token:
                fresh[op] = None
            if spread:
                for other in op.adjacent(token):
                    fresh[other] = None
            if value_rules:
                for value in op._operands:  # read, not copied
                    if value is not None and value.owner is None and value not in queued:
                        values[value] = None  # a kwarg or block argument
        for op in self.nearby:
            block = op.block
            if block is not top and (block is None or block.program is not program):
                continue
            if op.mark is not token:
                fresh[op] = None
        for value in self.fewer_uses:
            op = value.owner
            block = op.block
            if block is not top and (block is None or block.program is not program):
                continue  # erased in the same application
            if op.mark is not token:
                fresh[op] = None
            if spread and value.num_uses == 1:
                for other in value.users():
                    if other.mark is not token:
                        fresh[other] = None
        return fresh, values

    def op_inserted(self, op) -> None:
        self.count += 1
        self.spread = True
        if self.revisits:
            self.touched[op] = None
        self.reindex[op] = None
        self.created.append(op)
        if self.positions is not None:
            self.positions.inserted(op)
        if self.regions is not None and self.regions.tables:
            self.regions.inserted(op)

    def op_erased(self, op) -> None:
        self.count += 1
        self.spread = True
        if self.erased is not None:
            self.erased[op] = self.stamp
        if self.revisits:
            touched = self.touched
            fewer_uses = self.fewer_uses
            for value in op._operands:  # read, not copied
                if value is not None and value.owner is not None:
                    fewer_uses[value] = None
            nearby = self.nearby
            for neighbour in (op.prev_op, op.next_op):
                if neighbour is not None:
                    nearby[neighbour] = None
            touched[op] = None
        self.reindex[op] = None
        if self.positions is not None:
            self.positions.erased(op)
        if self.regions is not None and self.regions.tables:
            self.regions.erased(op)

    def operand_set(self, op, index: int, old) -> None:
        self.count += 1
        self.spread = True
        if self.revisits:
            self.touched[op] = None
            if old is not None and old.owner is not None:
                self.fewer_uses[old] = None  # its producer has a reader fewer
        if self.rewired is not None:
            self.rewired[op] = None

    def attribute_set(self, op, key: str) -> None:
        self.count += 1
        if self.revisits:
            self.touched[op] = None
            if not self.spread:
                near = self.near_keys
                self.spread = near is None or key in near
        join_keys = self.join_keys
        if join_keys is None or key in join_keys:
            self.reindex[op] = None

    def value_retyped(self, value) -> None:
        self.count += 1
        self.spread = True
        if self.revisits:
            touched = self.touched
            if value.owner is not None:
                touched[value.owner] = None
            for use in value.uses:
                touched[use.op] = None

    def kwarg_erased(self, value) -> None:
        self.count += 1  # nothing reads it: no op to revisit


def last_descendant(op):
    """The last op of `op`'s subtree in printed order (`op` itself when it nests nothing)."""
    while op.regions:
        for region in reversed(op.regions):
            if region.last is not None:
                op = region.last
                break
        else:
            break
    return op


def flat_predecessor(op):
    """The op printed just before `op` (in the program, nested ops counted), or None when `op`
    is printed first."""
    prev = op.prev_op
    if prev is not None:
        return last_descendant(prev)
    block = op.block
    parent = block.parent_op
    if parent is None:
        return None
    regions = parent.regions
    for region in reversed(regions[:regions.index(block)]):
        if region.last is not None:
            return last_descendant(region.last)
    return parent


class PositionLog:
    """Positions of ops as the program stood when they were asked for, answered at the end.

    `ask(ops)` returns a list that `resolve()` fills with each op's position at the time of the
    question; `inserted`/`erased` are fed by `Changes`. Cost: one walk of the program when made,
    O(1) per event and question while the pass runs, O((n + events) log n) in `resolve`."""

    def __init__(self, program, ops: list | None = None):
        # `ops`: every op of the program in printed order, when the caller has the list
        self.initial = list(program.walk()) if ops is None else list(ops)
        self.log: list = []
        self.structural = False

    def inserted(self, op) -> None:
        """`op` (and the ops nested in it) entered the program."""
        self.structural = True
        pred = flat_predecessor(op)
        log = self.log
        for inner in op.walk():
            log.append([_INSERTED, inner, pred, 0, 0])
            pred = inner

    def erased(self, op) -> None:
        """`op` (and the ops nested in it) is leaving the program."""
        self.structural = True
        log = self.log
        for inner in op.walk():
            log.append([_ERASED, inner, None, 0, 0])

    def ask(self, ops) -> list:
        """A list to be filled by `resolve` with the position of each of `ops` now (-1 for an op
        not in the program)."""
        answer = [-1] * len(ops)
        log = self.log
        for i, op in enumerate(ops):
            log.append([_ASKED, op, answer, i, 0])
        return answer

    def resolve(self) -> None:
        """Fill every list `ask` returned (once, at the end of the pass)."""
        initial = self.initial
        log, self.log = self.log, []
        # incarnations: 1..n are the initial ops; each insertion makes a new one (an op erased
        # and inserted again is a new incarnation)
        current = {op: k + 1 for k, op in enumerate(initial)}
        if not self.structural:
            for _, op, answer, i, _ in log:
                answer[i] = current.get(op, 0) - 1
            return
        n = len(initial)
        # the list of every incarnation in printed order: following[k] comes after k, 0 ends it
        following = list(range(1, n + 1)) + [0]
        for entry in log:
            kind, op = entry[0], entry[1]
            if kind == _INSERTED:
                # (0, the start, for an op first printed, or one whose predecessor entered
                # the program unreported)
                after = current.get(entry[2], 0) if entry[2] is not None else 0
                new = len(following)
                following.append(following[after])
                following[after] = new
                current[op] = new
                entry[4] = new
            elif kind == _ERASED:
                entry[4] = current.pop(op, -1)
            else:
                entry[4] = current.get(op, -1)
        slot = [0] * len(following)
        k, rank = following[0], 1
        while k:
            slot[k] = rank
            rank += 1
            k = following[k]
        size = rank - 1
        tree = [0] * (size + 1)  # Fenwick tree: which slots hold an op of the program now
        for k in range(1, n + 1):
            tree[slot[k]] = 1
        for i in range(1, size + 1):  # linear-time build
            j = i + (i & -i)
            if j <= size:
                tree[j] += tree[i]
        for kind, op, answer, index, inc in log:
            if inc < 0:
                continue
            i = slot[inc]
            if kind == _ASKED:
                total = 0
                i -= 1
                while i > 0:
                    total += tree[i]
                    i -= i & -i
                answer[index] = total
            else:
                delta = 1 if kind == _INSERTED else -1
                while i <= size:
                    tree[i] += delta
                    i += i & -i
