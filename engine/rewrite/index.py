"""The index the matcher finds ops through: ops by name, and by (attribute key, value) for the
attribute keys rules join on (`f = * {op_id: k}` with `g = * {grad_of: k}`). The driver keeps it
current after each rewrite; lookups return ops in program order, so matching is deterministic.

Each part is built when first asked for — the ops by name at the first `named`, the ops by the
join keys at the first `lookup` of one of them (all the pass's join keys in one walk) — and from
then on kept current by `refresh`: a pass that never asks pays nothing.
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
    """Ops by name, and by (attribute key, value) for the keys rules join on (`join_keys`). Kept
    current by `refresh` after each rewrite; lists come back in program order (shared: callers
    must not change them).

    The attribute buckets may also hold ops whose attribute has changed since they were filed
    (an op is filed under its new value, not taken out from under the old one, which nothing
    records): every caller tests the attribute of each op it gets (the matcher joins on
    equal values), so such an op is never taken for a match. An erased op is taken out from
    under its attribute's value as it stands (any older entry of it is one of those)."""

    def __init__(self, program, join_keys, ops: list | None = None):
        self.program = program
        self.join_keys = tuple(sorted(join_keys))
        # every op of the program in printed order, when the caller has the list: the index is
        # built from it instead of a walk while no op was inserted or erased since
        self.ops = (ops, program.structure_version)
        #: op name -> ops (dict as an ordered set), once `named` was asked
        self.by_name: dict[str, dict] | None = None
        #: attribute key -> (hashable value -> the op filed there, or a list of several in
        #: the order they were filed), for the join keys once `lookup` was asked about one
        self.by_attr: dict[str, dict] = {}
        # Sorted lists handed out, until their bucket changes (the matcher asks again and
        # again for the same key while nothing is filed there).
        self.ordered: dict[tuple, list] = {}
        self.ordered_names: dict[tuple, list] = {}

    # ---- building ------------------------------------------------------------------------------
    def all_ops(self):
        """Every op of the program in printed order (the list given, while it is current)."""
        ops, version = self.ops
        if ops is not None and version == self.program.structure_version:
            return ops
        return self.program.walk()

    def build_names(self) -> None:
        """File every op by name (once)."""
        by_name: dict[str, dict] = {}
        for op in self.all_ops():
            bucket = by_name.get(op.name)
            if bucket is None:
                bucket = by_name[op.name] = {}
            bucket[op] = None
        self.by_name = by_name

    def build_attr(self, key: str) -> dict:
        """File every op holding attribute `key` by its value, and in the same walk every op
        holding one of the other join keys not filed yet (a pass joining on `op_id` and
        `grad_of` asks for both). Returns `key`'s buckets."""
        keys = [key] + [k for k in self.join_keys if k != key and k not in self.by_attr]
        pairs = [(k, {}) for k in keys]
        for op in self.all_ops():
            attributes = op.attributes
            for k, buckets in pairs:
                if k in attributes:
                    raw = attributes[k]
                    kind = type(raw)
                    value = raw if kind is int or kind is str else hashable(raw)
                    bucket = buckets.get(value)
                    if bucket is None:
                        buckets[value] = op  # most values are one op's (an op_id)
                    elif type(bucket) is list:
                        bucket.append(op)
                    else:
                        buckets[value] = [bucket, op]
        for k, buckets in pairs:
            self.by_attr[k] = buckets
        return self.by_attr[key]

    # ---- keeping current -----------------------------------------------------------------------
    def refresh(self, op: Operation, alive: bool) -> None:
        """Re-file `op` after a change, or drop it (and its nested ops) when erased."""
        if self.by_name is None and not self.by_attr:
            return  # nothing built yet: built from the program as it is, when first asked
        if not op.regions:
            self.file(op, alive)
        else:
            for inner in op.walk():
                self.file(inner, alive)

    def file(self, op: Operation, alive: bool) -> None:
        """File `op` under its current name and attribute values (`alive`), or unfile it."""
        by_name = self.by_name
        if by_name is not None:
            bucket = by_name.get(op.name)
            if alive:
                if bucket is None:
                    bucket = by_name[op.name] = {}
                if op not in bucket:
                    bucket[op] = None
                    self.ordered_names.clear()
            elif bucket is not None and op in bucket:
                del bucket[op]
                self.ordered_names.clear()
        attributes = op.attributes
        for key, buckets in self.by_attr.items():
            if key not in attributes:
                continue  # an entry under an older value stays (see the class docstring)
            value = hashable(attributes[key])
            bucket = buckets.get(value)
            if alive:
                if bucket is None:
                    buckets[value] = op
                elif bucket is op or (type(bucket) is list and op in bucket):
                    continue  # filed there already (most changes)
                elif type(bucket) is list:
                    bucket.append(op)
                else:
                    buckets[value] = [bucket, op]
            elif bucket is op:
                del buckets[value]
            elif type(bucket) is list and op in bucket:
                bucket.remove(op)
                if len(bucket) == 1:
                    buckets[value] = bucket[0]
            else:
                continue
            self.ordered.pop((key, value), None)

    # ---- asking --------------------------------------------------------------------------------
    def lookup(self, key: tuple) -> list[Operation]:
        """The ops under `key` (`("attr", attribute key, hashable value)` or `("name", name)`),
        in program order."""
        if key[0] == "name":
            return self.named((key[1],))
        _, attribute, value = key
        found = self.ordered.get((attribute, value))
        if found is None:
            buckets = self.by_attr.get(attribute)
            if buckets is None:
                buckets = self.build_attr(attribute)
            bucket = buckets.get(value)
            if bucket is None:
                return []
            if type(bucket) is not list:
                return [bucket]
            found = self.ordered[(attribute, value)] = sorted(bucket, key=Operation.position_key)
        return found

    def buckets(self, key: str) -> dict:
        """Join key `key`'s buckets: hashable value (`hashable`) -> the op filed there, or a
        list of several in the order they were filed. Built at the first ask (with the
        pass's other join keys) and kept current by `refresh`: the same dict from then on,
        which a generated matcher holds to look values up without a call."""
        buckets = self.by_attr.get(key)
        if buckets is None:
            buckets = self.build_attr(key)
        return buckets

    def with_attr(self, key: str, value):
        """The ops whose attribute `key` holds `value` (by `hashable`), in program order: what
        `lookup(("attr", key, hashable(value)))` gives, without the key tuple (the generated
        matchers' join step). The result is shared: iterate it, never change it."""
        buckets = self.by_attr.get(key)
        if buckets is None:
            buckets = self.build_attr(key)
        kind = type(value)
        value = value if kind is int or kind is str else hashable(value)
        bucket = buckets.get(value)
        if bucket is None:
            return ()
        if type(bucket) is not list:
            return (bucket,)
        found = self.ordered.get((key, value))
        if found is None:
            found = self.ordered[(key, value)] = sorted(bucket, key=Operation.position_key)
        return found

    def named(self, names) -> list[Operation]:
        """Ops with one of `names` (every op when `names` is None), in program order."""
        if names is None:
            return list(self.program.walk())
        key = tuple(sorted(names))
        ordered = self.ordered_names.get(key)
        if ordered is None:
            if self.by_name is None:
                self.build_names()
            found: dict = {}
            for name in key:
                bucket = self.by_name.get(name)
                if bucket:
                    found.update(bucket)
            ordered = self.ordered_names[key] = sorted(found, key=Operation.position_key)
        return ordered
