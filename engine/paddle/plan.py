"""Parallel plans (``plan.toml``, ``shared/spec/parallel-plan.md``): reading and checking them.

A plan is Paddle 3.3.1's ``dist.parallelize`` config (``pp_config``, ``mp_config``,
``dp_config``; ``python/paddle/distributed/auto_parallel/intermediate/parallelize.py``, seed 003)
written over the layer paths of a serial program. :func:`load_plan` reads one and checks what
can be checked without the program (keys, types, mesh, degrees); ``parallelize.resolve`` checks
the rest against the program (a layer pattern matching nothing, more stages than layers).

Every problem is one :class:`PlanError` naming ``file:line`` of the offending key.
Additions to the spec's keys (recorded in ``docs/parallelize.md``): ``[mesh] world_size`` and a
``degree`` in ``[pp]``, ``[mp]``, ``[dp]``, each checked against the mesh.
"""

from __future__ import annotations

import math
import re

import attrs

from rulepass.engine.errors import RulepassError
from rulepass.engine.limits import MAX_MESH_RANKS
from rulepass.engine.toml_text import TomlError, parse_toml

# the kinds of Paddle's mp plan entries (tensor_parallel.py) and the options each takes
MP_KINDS = {
    "ColWiseParallel": {"gather_output"},
    "RowWiseParallel": {"is_input_parallel"},
    "SequenceParallelBegin": {"need_transpose"},
    "SequenceParallelEnd": {"need_transpose"},
    "SequenceParallelEnable": set(),
    "SequenceParallelDisable": {"need_transpose"},
}
MESH_DIMS = ("pp", "mp", "dp", "sep")
SECTION_KEYS = {
    "mesh": {"shape", "dim_names", "world_size"},
    "pp": {"split_spec", "global_spec", "degree"},
    "mp": {"plan", "degree"},
    "dp": {"sharding_level", "degree"},
    "inputs": None,  # keyed by input name
}


class PlanError(RulepassError):
    """A plan that cannot be applied: names ``file:line`` of the key at fault."""

    kind = "plan error"


@attrs.frozen
class MpEntry:
    """One mp plan entry: ``kind`` (a key of :data:`MP_KINDS`) and its options."""

    kind: str
    options: dict = attrs.field(factory=dict, eq=False)

    def option(self, name: str, default: bool) -> bool:
        """The boolean option ``name`` (Paddle's constructor default when not given)."""
        return bool(self.options.get(name, default))


@attrs.frozen
class Plan:
    """A checked plan. ``split_spec`` is ``None`` (no pp), a tuple of layer stems (the string
    and list forms) or a dict layer -> ``"end"``; ``mp_plan`` maps a key to its entries in order;
    ``inputs`` maps a ``pd_op.data`` name to ``"first"``, ``"last"`` or a stage index.
    :meth:`line_of` gives the line of a key for messages."""

    file: str
    mesh_shape: tuple[int, ...]
    dim_names: tuple[str, ...]
    split_spec: tuple | dict | None = None
    global_spec: tuple[str, ...] = ()
    mp_plan: dict = attrs.field(factory=dict)
    sharding_level: int | None = None
    inputs: dict = attrs.field(factory=dict)
    lines: object = attrs.field(default=None, eq=False, repr=False)  # where keys are (locate)

    def degree(self, dim: str) -> int:
        """The mesh's size along ``dim`` (1 when the mesh has no such dimension)."""
        if dim not in self.dim_names:
            return 1
        return self.mesh_shape[self.dim_names.index(dim)]

    def line_of(self, section: str, key: str | None = None) -> int | None:
        """The 1-based line of ``[section] key`` (or of the section header) in the plan text."""
        return locate(self.lines, section, key)[0]

    def error(self, message: str, section: str, key: str | None = None,
              inner: str | None = None) -> PlanError:
        """A :class:`PlanError` located at ``[section] key`` (at ``inner`` within its value: an
        mp plan key, a split_spec layer, when given)."""
        return PlanError(message, self.file, *locate(self.lines, section, key, inner))


@attrs.frozen
class _Located:
    """Where the plan text says things: per line its section and its key with their columns."""

    text_lines: tuple
    keys: dict  # (section, key or None) -> (line, col), 1-based; the first one wins


def _key_lines(text: str) -> _Located:
    """The plan text's section headers and keys (one level), located."""
    keys: dict = {}
    section = None
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0]
        header = re.fullmatch(r"\s*\[\s*([A-Za-z0-9_.\-\"]+)\s*\]\s*", line)
        if header:
            section = header.group(1).replace('"', "")
            keys.setdefault((section, None), (number, header.start(1) + 1))
            continue
        key = re.match(r'\s*("[^"]*"|[A-Za-z0-9_\-]+)\s*=', line)
        if key and section is not None:
            keys.setdefault((section, key.group(1).strip('"')), (number, key.start(1) + 1))
    return _Located(tuple(lines), keys)


def locate(where: _Located | dict, section: str, key: str | None = None,
           inner: str | None = None) -> tuple[int | None, int | None]:
    """(line, col) of ``[section] key`` in the plan text, of ``inner`` (a quoted or bare name
    within the key's value, or a key of the sub-table ``[section.key]``) when given, else of the
    key, else of the section header; (None, None) when the text does not say."""
    if not isinstance(where, _Located):
        return None, None
    keys = where.keys
    if inner is not None:
        sub = keys.get((f"{section}.{key}", inner))  # [mp.plan] "Layer" = ...
        if sub is not None:
            return sub
        start = keys.get((section, key)) or keys.get((section, None))
        if start is not None:
            pattern = re.compile(r'"' + re.escape(inner) + r'"|(?<![\w*/.])' + re.escape(inner)
                                 + r'(?![\w*/.])')
            for number in range(start[0], len(where.text_lines) + 1):
                text = where.text_lines[number - 1].split("#", 1)[0]
                offset = start[1] if number == start[0] else 0
                found = pattern.search(text, offset)
                if found:
                    return number, found.start() + 1
                if number > start[0] and re.match(r"\s*\[", text):
                    break  # the next section
    found = keys.get((section, key)) if key is not None else None
    found = found or keys.get((f"{section}.{key}", None)) or keys.get((section, None))
    return found if found is not None else (None, None)


def load_plan(text: str, file: str = "plan.toml") -> Plan:
    """Read and check a plan; raises :class:`PlanError` (one line, ``file:line``) for a TOML
    syntax error, an unknown section or key, a value of the wrong type, a mesh whose shape and
    names disagree, a degree that is not the mesh's, or an unknown mp plan kind."""
    try:
        data = parse_toml(text)
    except TomlError as e:
        raise PlanError(f"not valid TOML: {e.message}", file, e.line, e.col) from None
    lines = _key_lines(text)

    def fail(message, section, key=None, inner=None):
        return PlanError(message, file, *locate(lines, section, key, inner))

    for section, value in data.items():
        if section not in SECTION_KEYS:
            raise fail(f"unknown section [{section}] (known: "
                       f"{', '.join('[' + s + ']' for s in SECTION_KEYS)})", section)
        if not isinstance(value, dict):
            raise fail(f"{section} must be a table [{section}]", section)
        known = SECTION_KEYS[section]
        for key in value:
            if known is not None and key not in known:
                raise fail(f"unknown key '{key}' in [{section}] (known: "
                           f"{', '.join(sorted(known))})", section, key)
    if "mesh" not in data:
        raise PlanError("the plan needs a [mesh] table with shape and dim_names", file, 1)
    mesh = data["mesh"]
    shape = mesh.get("shape")
    names = mesh.get("dim_names")
    if not (isinstance(shape, list) and shape and all(isinstance(s, int) and s > 0 for s in shape)):
        raise fail("[mesh] shape must be a list of positive integers, e.g. [2]", "mesh", "shape")
    if math.prod(shape) > MAX_MESH_RANKS:
        raise fail(f"[mesh] shape {shape} makes {math.prod(shape)} ranks; a mesh holds at most "
                   f"{MAX_MESH_RANKS}", "mesh", "shape")
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise fail('[mesh] dim_names must be a list of strings, e.g. ["pp"]', "mesh", "dim_names")
    if len(names) != len(shape):
        raise fail(f"[mesh] dim_names {names} name {len(names)} dimensions but shape {shape} "
                   f"has {len(shape)}", "mesh", "dim_names")
    for n in names:
        if n not in MESH_DIMS:
            raise fail(f"unknown mesh dimension '{n}' (known: {', '.join(MESH_DIMS)})",
                       "mesh", "dim_names", inner=n)
    if len(set(names)) != len(names):
        raise fail(f"[mesh] dim_names {names} names a dimension twice", "mesh", "dim_names")
    world = mesh.get("world_size")
    if world is not None and (not isinstance(world, int) or world != math.prod(shape)):
        raise fail(f"the mesh degrees {shape} multiply to {math.prod(shape)}, not to "
                   f"world_size {world}", "mesh", "world_size")
    for section, dim in (("pp", "pp"), ("mp", "mp"), ("dp", "dp")):
        if section not in data:
            continue
        if dim not in names:
            raise fail(f"[{section}] needs a \"{dim}\" dimension in [mesh] dim_names {names}",
                       section)
        degree = data[section].get("degree")
        size = shape[names.index(dim)]
        if degree is not None and degree != size:
            raise fail(f"[{section}] degree {degree} is not the mesh's {dim} size {size} "
                       f"(shape {shape}, dim_names {names})", section, "degree")

    plan = dict(file=file, mesh_shape=tuple(shape), dim_names=tuple(names), lines=lines)
    if "pp" in data:
        plan.update(_read_pp(data["pp"], fail))
    if "mp" in data:
        plan["mp_plan"] = _read_mp(data["mp"], fail)
    if "dp" in data:
        level = data["dp"].get("sharding_level", 0)
        if isinstance(level, str) and level in ("0", "1", "2", "3"):
            level = int(level)  # Paddle takes the level as a string too
        if isinstance(level, bool) or level not in (0, 1, 2, 3):
            raise fail(f"sharding_level must be 0, 1, 2 or 3 (data parallel, ZeRO stage 1, 2, "
                       f"3), got {level!r}", "dp", "sharding_level")
        plan["sharding_level"] = level
    if "inputs" in data:
        inputs = {}
        for name, where in data["inputs"].items():
            stage = where.get("stage") if isinstance(where, dict) else None
            if not (stage in ("first", "last") or isinstance(stage, int)) or \
                    set(where) - {"stage"}:
                raise fail(f'input {name}: expected {{ stage = "first" }}, "last" or a stage '
                           "number", "inputs", name)
            inputs[name] = stage
        plan["inputs"] = inputs
    return Plan(**plan)


def _read_pp(pp: dict, fail) -> dict:
    out: dict = {}
    split = pp.get("split_spec")
    if split is None:
        raise fail("[pp] needs split_spec", "pp")
    if isinstance(split, str):
        out["split_spec"] = (split,)
    elif isinstance(split, list) and split and all(isinstance(s, str) for s in split):
        out["split_spec"] = tuple(split)
    elif isinstance(split, dict) and split:
        for layer, point in split.items():
            if point != "end":
                raise fail(f'split point of {layer} must be "end" (SplitPoint.END; Paddle 3.3.1 '
                           f"supports no other), got {point!r}", "pp", "split_spec", inner=layer)
        out["split_spec"] = dict(split)
    else:
        raise fail('split_spec must be a layer name, a list of them, or a table '
                   '{ "Layer_1" = "end" }', "pp", "split_spec")
    spec = pp.get("global_spec", [])
    if isinstance(spec, str):
        spec = [spec]
    if not (isinstance(spec, list) and all(isinstance(s, str) for s in spec)):
        raise fail("global_spec must be a layer name or a list of them", "pp", "global_spec")
    if spec and isinstance(split, dict):
        # Paddle 3.3.1 pipeline_parallel: "global_spec should be None if split_spec is a dict"
        raise fail("global_spec needs split_spec as a name or a list (Paddle: global_spec "
                   "should be None if split_spec is a dict)", "pp", "global_spec")
    out["global_spec"] = tuple(spec)
    return out


def _read_mp(mp: dict, fail) -> dict:
    raw = mp.get("plan")
    if not isinstance(raw, dict) or not raw:
        raise fail('[mp] needs plan = { "Layer" = "ColWiseParallel", ... }', "mp", "plan")
    plan = {}
    for key, value in raw.items():
        items = value if isinstance(value, list) else [value]
        entries = []
        for item in items:
            if isinstance(item, str):
                kind, options = item, {}
            elif isinstance(item, dict) and isinstance(item.get("kind"), str):
                options = {k: v for k, v in item.items() if k != "kind"}
                kind = item["kind"]
            else:
                raise fail(f"mp plan entry for {key}: expected a kind name or "
                           '{ kind = "ColWiseParallel", ... }', "mp", "plan", inner=key)
            if kind not in MP_KINDS:
                raise fail(f"unknown mp plan kind '{kind}' for {key} (known: "
                           f"{', '.join(MP_KINDS)})", "mp", "plan", inner=key)
            bad = set(options) - MP_KINDS[kind]
            if bad or not all(isinstance(v, bool) for v in options.values()):
                raise fail(f"{kind} for {key}: unknown or non-boolean option(s) "
                           f"{', '.join(sorted(bad or options))}", "mp", "plan", inner=key)
            entries.append(MpEntry(kind, options))
        plan[key] = tuple(entries)
    return plan
