"""The ``plan.toml`` of a dist.parallelize configuration (``../shared/spec/parallel-plan.md``):
Paddle's config dict over the serial program's layer paths (``struct_name``) instead of the
model's attribute paths.

Only imported by the capture tools under ``/work/paddle-venv``; never by rulepass."""

from __future__ import annotations

import json
import re


def struct_paths(model) -> dict[str, str]:
    """Attribute path -> plan layer path for every sublayer: ``layers.1.linear0`` ->
    ``GMyLinear_1/Linear``. Paddle's ``struct_name`` names a layer by its class, suffixed
    ``_1``, ``_2``, ... for later instances of that class under the same parent."""
    paths: dict[str, str] = {}

    def walk(layer, prefix: str, path: str) -> None:
        seen: dict[str, int] = {}
        for name, child in layer.named_children():
            cls = type(child).__name__
            count = seen.get(cls, 0)
            seen[cls] = count + 1
            own = cls if count == 0 else f"{cls}_{count}"
            attr = f"{prefix}{name}"
            child_path = f"{path}/{own}" if path else own
            # containers (LayerList) are no struct_name level of their own
            if type(child).__name__ in ("LayerList", "LayerDict"):
                walk_flat(child, f"{attr}.", path, seen)
                continue
            paths[attr] = child_path
            walk(child, f"{attr}.", child_path)

    def walk_flat(container, prefix: str, path: str, seen: dict[str, int]) -> None:
        for name, child in container.named_children():
            cls = type(child).__name__
            count = seen.get(cls, 0)
            seen[cls] = count + 1
            own = cls if count == 0 else f"{cls}_{count}"
            child_path = f"{path}/{own}" if path else own
            paths[f"{prefix}{name}"] = child_path
            walk(child, f"{prefix}{name}.", child_path)

    walk(model, "", "")
    return paths


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_value(k)} = {_toml_value(v)}"
                                for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def plan_toml(cfg: dict, model) -> str:
    """The ``plan.toml`` (``../shared/spec/parallel-plan.md``) saying what `cfg["config"]` says,
    over layer paths of the serial program instead of attribute paths. mp plan keys come from
    ``cfg["plan_keys"]`` (Paddle regex key -> plan key), written by hand per configuration."""
    paths = struct_paths(model)

    def stem(prefix: str) -> str:
        # "layers" -> the class stem of layers.0, layers.1, ...: "GMyLinear"
        members = [p for a, p in paths.items() if re.fullmatch(rf"{re.escape(prefix)}\.\d+", a)]
        if not members:
            return paths[prefix]
        stems = {re.sub(r"_\d+$", "", p) for p in members}
        assert len(stems) == 1, (prefix, members)
        return stems.pop()

    lines = ["# Written by tools/capture_paddle.py: the dist.parallelize config of this capture",
             f"# ({json.dumps(cfg['config'])}) over the serial program's layer paths.",
             "[mesh]", f"shape = {_toml_value(cfg['mesh_shape'])}",
             f"dim_names = {_toml_value(cfg['mesh_dims'])}"]
    conf = cfg["config"]
    if "pp_config" in conf:
        pp = conf["pp_config"]
        split = pp["split_spec"]
        lines += ["", "[pp]"]
        if isinstance(split, str):
            lines.append(f"split_spec = {_toml_value(stem(split))}")
        elif isinstance(split, list):
            lines.append(f"split_spec = {_toml_value([stem(s) for s in split])}")
        else:
            lines.append("split_spec = " + _toml_value(
                {paths[k]: v.lower() for k, v in split.items()}))
        if pp.get("global_spec"):
            spec = pp["global_spec"]
            lines.append("global_spec = " + _toml_value(
                paths[spec] if isinstance(spec, str) else [paths[s] for s in spec]))
    if "mp_config" in conf:
        lines += ["", "[mp]"]
        keys = cfg["plan_keys"]
        plan = {keys[k]: v for k, v in conf["mp_config"]["parallelize_plan"].items()}
        lines.append(f"plan = {_toml_value(plan)}")
    if "dp_config" in conf:
        lines += ["", "[dp]", f"sharding_level = {conf['dp_config'].get('sharding_level', 0)}"]
    if cfg.get("side_input") and cfg["pp"] > 1:
        # shard_dataloader puts every input of [[input, side], label] on its first mesh; the
        # spec's default puts inputs after the first on the last stage
        lines += ["", "[inputs]", 'input1 = { stage = "first" }']
    return "\n".join(lines) + "\n"
