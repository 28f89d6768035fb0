"""The index the matcher finds ops through: ops by name, and by (attribute key, value) for the
attribute keys rules join on (`f = * {op_id: k}` with `g = * {grad_of: k}`). The driver keeps it
current after each rewrite; lookups return ops in program order, so matching is deterministic.
"""

from __future__ import annotations

from rulepass.engine.rewrite.exprs import normalize
from rulepass.engine.ir.core import Operation


def hashable(value):
    """An attribute value as a dict key (symbols by text, lists as tuples)."""
    kind = type(value)
    if kind is int or kind is str:
        return value  # what normalize would give, and hashable
    value = normalize(value)
    try:
        hash(value)
    except TypeError:
        return ("repr", repr(value))
    return value


class ProgramIndex:
    """Ops by name, and by (attribute key, value) for the keys rules join on. Kept current by
    `refresh` after each rewrite; lists come back in program order (shared: callers must not
    change them). Built at the first `lookup` or `named`: a pass whose rules never ask (one
    pattern each, rooted at the op visited) pays nothing for it."""

    def __init__(self, program, join_keys):
        self.program = program
        self.join_keys = tuple(sorted(join_keys))
        self.buckets: dict[tuple, dict] = {}
        self.filed: dict[Operation, tuple] = {}
        # Sorted lists handed out, until their bucket changes (the matcher asks again and
        # again for the same key while nothing is filed there).
        self.ordered: dict[tuple, list] = {}
        self.ordered_names: dict[tuple, list] = {}
        self.built = False
        # op name -> its keys when it has no join attribute (shared tuples, not one per op)
        self._name_keys: dict[str, tuple] = {}

    def build(self) -> None:
        """File every op of the program (once)."""
        if not self.built:
            self.built = True
            for op in self.program.walk():
                self.file(op)

    def keys_of(self, op: Operation) -> tuple:
        """The index keys `op` is filed under."""
        keys = self._name_keys.get(op.name)
        if keys is None:
            keys = self._name_keys[op.name] = (("name", op.name),)
        if self.join_keys:
            attributes = op.attributes
            extra = tuple(("attr", key, hashable(attributes[key])) for key in self.join_keys
                          if key in attributes)
            if extra:
                keys = keys + extra
        return keys

    def file(self, op: Operation) -> None:
        """File `op` alone under its keys."""
        keys = self.keys_of(op)
        self.filed[op] = keys
        caches = self.ordered or self.ordered_names
        for key in keys:
            self.buckets.setdefault(key, {})[op] = None
            if caches:
                self.changed(key)

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
                if self.ordered or self.ordered_names:
                    self.changed(key)

    def changed(self, key: tuple) -> None:
        """Forget the sorted lists made from bucket `key`."""
        if self.ordered:
            self.ordered.pop(key, None)
        if key[0] == "name" and self.ordered_names:
            self.ordered_names.clear()

    def refresh(self, op: Operation, alive: bool) -> None:
        """Re-file `op` after a change, or drop it (and its nested ops) when erased."""
        if not self.built:
            return  # built from the program as it is, when first asked
        if alive:
            if not op.regions and self.filed.get(op) == self.keys_of(op):
                return  # filed under the same keys already (most attribute changes)
            self.remove(op)
            self.add(op)
        elif not op.regions:
            self.remove(op)
        else:
            for inner in op.walk():
                self.remove(inner)

    def lookup(self, key: tuple) -> list[Operation]:
        """The ops under `key`, in program order."""
        if not self.built:
            self.build()
        found = self.ordered.get(key)
        if found is None:
            bucket = self.buckets.get(key)
            if not bucket:
                return []
            found = self.ordered[key] = sorted(bucket, key=Operation.position_key)
        return found

    def named(self, names) -> list[Operation]:
        """Ops with one of `names` (every op when `names` is None), in program order."""
        if not self.built:
            self.build()
        if names is None:
            return list(self.program.walk())
        key = tuple(sorted(names))
        ordered = self.ordered_names.get(key)
        if ordered is None:
            found = {}
            for name in names:
                bucket = self.buckets.get(("name", name))
                if bucket:
                    found.update(bucket)
            ordered = self.ordered_names[key] = sorted(found, key=Operation.position_key)
        return ordered


