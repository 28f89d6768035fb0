"""What a match is and how patterns link ops: `Match` (rule, bound variables, matched ops),
`operand_at` (the operand a pattern position stands for, `..` counted from the end), `linked`
(operand produced as the pattern says) and `users_of`. Shared by the tree-walking matcher
(`rewrite/match.py`) and the generated match functions (`rewrite/codegen/match.py`).
"""

from __future__ import annotations

from rulepass.engine.ir.core import Operation


class Match:
    """A match: the rule, the variables bound (`env`) and the matched ops in program order.
    (A plain slotted class: one is made at every match; treat it as read-only.)"""

    __slots__ = ("rule", "env", "ops")

    def __init__(self, rule, env: dict, ops: tuple):
        self.rule = rule
        self.env = env
        self.ops = ops

    @property
    def anchor(self) -> Operation | None:
        """The latest matched op in program order (new ops go right before it)."""
        return self.ops[-1] if self.ops else None

    def __repr__(self) -> str:
        return f"Match({self.rule.name}, {sorted(self.env)}, {[op.name for op in self.ops]})"


def operand_at(op: Operation, node, position: int):
    """The operand of `op` that pattern position `position` stands for (positions after `..`
    count from the end); None when there is none."""
    count = op.num_operands
    if node.rest is not None and position > node.rest:
        index = count - (len(node.operands) - position)
    else:
        index = position
    return op.operand(index) if 0 <= index < count else None


def linked(value, target: Operation, spec) -> bool:
    """Whether operand `value` is what `spec` ("op", "result", "nested") says `target` gives."""
    if value is None or value.owner is not target:
        return False
    if spec.kind == "op":
        return len(target.results) == 1
    if spec.kind == "result":
        return value.index == spec.index
    return True


def users_of(values) -> list[Operation]:
    """Ops reading any of `values`, each once, in program order."""
    if len(values) == 1:
        return values[0].users()  # one value (most ops): its users, sorted only when several
    found = {}
    for value in values:
        for use in value.uses:
            found[use.op] = None
    return sorted(found, key=Operation.position_key)
