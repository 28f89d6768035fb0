"""The index the matcher finds ops through: ops by name, and by (attribute key, value) for the
attribute keys rules join on (`f = * {op_id: k}` with `g = * {grad_of: k}`). The driver keeps it
current after each rewrite; lookups return ops in program order, so matching is deterministic.
"""

from __future__ import annotations

from .exprs import normalize
from .ir import Operation


def hashable(value):
    """An attribute value as a dict key (symbols by text, lists as tuples)."""
    value = normalize(value)
    try:
        hash(value)
    except TypeError:
        return ("repr", repr(value))
    return value


class ProgramIndex:
    """Ops by name, and by (attribute key, value) for the keys rules join on. Kept current by
    `refresh` after each rewrite; lists come back in program order."""

    def __init__(self, program, join_keys):
        self.program = program
        self.join_keys = tuple(sorted(join_keys))
        self.buckets: dict[tuple, dict] = {}
        self.filed: dict[Operation, list] = {}
        for op in program.walk():
            self.file(op)

    def keys_of(self, op: Operation) -> list:
        """The index keys `op` is filed under."""
        keys = [("name", op.name)]
        for key in self.join_keys:
            if key in op.attributes:
                keys.append(("attr", key, hashable(op.attributes[key])))
        return keys

    def file(self, op: Operation) -> None:
        """File `op` alone under its keys."""
        keys = self.keys_of(op)
        self.filed[op] = keys
        for key in keys:
            self.buckets.setdefault(key, {})[op] = None

    def add(self, op: Operation) -> None:
        """File `op` (and, for an op with regions, the ops nested in it)."""
        if not op.regions:
            self.file(op)
            return
        for inner in op.walk():
            if inner not in self.filed:
                self.file(inner)

    def remove(self, op: Operation) -> None:
        """Unfile `op` (not its nested ops)."""
        for key in self.filed.pop(op, ()):
            bucket = self.buckets.get(key)
            if bucket is not None:
                bucket.pop(op, None)

    def refresh(self, op: Operation, alive: bool) -> None:
        """Re-file `op` after a change, or drop it (and its nested ops) when erased."""
        if alive:
            if not op.regions and self.filed.get(op) == self.keys_of(op):
                return  # filed under the same keys already (most attribute changes)
            self.remove(op)
            self.add(op)
        else:
            for inner in op.walk():
                self.remove(inner)

    def lookup(self, key: tuple) -> list[Operation]:
        """The ops under `key`, in program order."""
        bucket = self.buckets.get(key)
        if not bucket:
            return []
        return sorted(bucket, key=Operation.position_key)

    def named(self, names) -> list[Operation]:
        """Ops with one of `names` (every op when `names` is None), in program order."""
        if names is None:
            return list(self.program.walk())
        found = {}
        for name in names:
            bucket = self.buckets.get(("name", name))
            if bucket:
                found.update(bucket)
        return sorted(found, key=Operation.position_key)


