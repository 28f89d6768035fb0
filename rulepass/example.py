"""An example folder for ``rulepass run`` (layout fixed by the issue "main job"; other tools write
it too):

- ``forward.pir`` — the forward dist program as Paddle prints it after ``apply_mix2dist_pass``;
  or instead ``serial.pir`` + ``plan.toml``, which ``rulepass run`` parallelizes first
  (``rulepass/parallelize.py``);
- ``config.toml`` — ``[parallel]`` world_size, pp, vpp, mp, dp, schedule, micro_batches,
  seg_method; ``[train]`` optimizer, lr (steps optional); ``[check]`` rtol (default 1e-5),
  atol (our addition, default 0: a value passes when
  ``|ours - reference| <= atol + rtol·|reference|``);
- ``params.npz`` — initial parameters keyed by ``parameter_name``;
- ``data.npz`` — one array per ``pd_op.data`` input (not the learning rate), keyed by its ``name``,
  shaped ``[steps, global batch, ...]``;
- optional: ``reference.json`` — ``{"losses": [...]}`` of Paddle's single-process run (and
  ``"rng": {"seed": S}`` when Paddle's CPU generator was seeded with ``paddle.seed(S)`` right
  before its first step: a model that draws random numbers then draws Paddle's,
  :mod:`rulepass.random_draws`); ``params_final.npz`` — its parameters after the last step. Without them ``rulepass run`` judges
  the run against the single-device run it computes itself (:mod:`rulepass.reference`);
- optional: ``opt_state.npz`` — optimizer state (AdamW moments, beta powers) at the start, keyed
  by the names Paddle gives it (``<param>_moment1_0`` ...); without it the state starts as Paddle
  starts it (zeros; beta1, beta2).

:func:`load_example` reads and checks all of it; every problem is an :class:`ExampleError` with one
line naming the file and what is wrong.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import attrs
import numpy as np

from rulepass.engine.errors import RulepassError
from rulepass.engine.files import read_text

SCHEDULES = ("FThenB", "1F1B", "Eager1F1B", "VPP", "ZBH1", "ZBVPP", "ZBV")
KNOWN = {
    "parallel": {"world_size", "pp", "vpp", "mp", "dp", "schedule", "micro_batches",
                 "seg_method"},
    "train": {"optimizer", "lr", "steps"},
    "check": {"rtol", "atol"},
}


class ExampleError(RulepassError):
    """A problem with an example folder: a missing file, a bad config key or value, degrees that
    do not multiply to the world size."""

    kind = "example error"


@attrs.frozen
class ParallelConfig:
    """``[parallel]``: degrees of pipeline (pp), virtual pipeline (vpp), tensor (mp) and data (dp)
    parallelism over ``world_size`` ranks, the schedule and its micro-batch count."""

    world_size: int
    pp: int = 1
    vpp: int = 1
    mp: int = 1
    dp: int = 1
    schedule: str = "FThenB"
    micro_batches: int = 1
    seg_method: str = ""


@attrs.frozen
class Example:
    """A loaded example: its folder, config, forward program text and arrays.
    ``reference_losses`` is None and ``final_params`` empty when the folder has no
    ``reference.json`` / ``params_final.npz`` (Paddle's results)."""

    path: Path
    parallel: ParallelConfig
    optimizer: str
    lr: float
    steps: int
    rtol: float
    forward_text: str
    params: dict
    data: dict
    reference_losses: list | None
    final_params: dict
    opt_state: dict = attrs.field(factory=dict)
    atol: float = 0.0
    #: ``reference.json``'s ``"rng": {"seed": S}``: Paddle's CPU generator was seeded with
    #: ``paddle.seed(S)`` right before the reference's first step (None: not given)
    rng_seed: int | None = None


def _read_npz(path: Path) -> dict:
    try:
        with np.load(path) as f:
            return {k: f[k] for k in f.files}
    except FileNotFoundError:
        raise ExampleError(f"{path}: missing (the example needs it)") from None
    except (ValueError, OSError) as e:
        raise ExampleError(f"{path}: not a readable .npz file ({e})") from None


def _read_text(path: Path) -> str:
    """The text of one of the example's files (:func:`rulepass.engine.files.read_text`)."""
    if not path.exists():
        raise ExampleError(f"{path}: missing (the example needs it)")
    return read_text(path, "file")


def _int(section: dict, key: str, file: Path, default=None, minimum: int = 1) -> int:
    value = section.get(key, default)
    if value is None:
        raise ExampleError(f"{file}: [parallel] {key} is missing")
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ExampleError(f"{file}: [parallel] {key} must be an integer >= {minimum}, "
                           f"got {value!r}")
    return value


def parse_config(text: str, file: Path) -> tuple[ParallelConfig, dict, dict]:
    """The ``[parallel]`` config and the raw ``[train]`` and ``[check]`` tables, checked."""
    try:
        config = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ExampleError(f"{file}: not valid TOML ({e})") from None
    for section, table in config.items():
        if section not in KNOWN:
            raise ExampleError(f"{file}: unknown section [{section}] (sections: "
                               + ", ".join(f"[{s}]" for s in KNOWN) + ")")
        if not isinstance(table, dict):
            raise ExampleError(f"{file}: {section} must be a table [{section}]")
        for key in table:
            if key not in KNOWN[section]:
                raise ExampleError(f"{file}: unknown key {key!r} in [{section}] (keys: "
                                   + ", ".join(sorted(KNOWN[section])) + ")")
    par = config.get("parallel")
    if par is None:
        raise ExampleError(f"{file}: the [parallel] section is missing")
    schedule = par.get("schedule", "FThenB")
    if schedule not in SCHEDULES:
        raise ExampleError(f"{file}: [parallel] schedule {schedule!r} is not one of "
                           + ", ".join(SCHEDULES))
    pc = ParallelConfig(
        world_size=_int(par, "world_size", file),
        pp=_int(par, "pp", file, 1), vpp=_int(par, "vpp", file, 1), mp=_int(par, "mp", file, 1),
        dp=_int(par, "dp", file, 1), schedule=schedule,
        micro_batches=_int(par, "micro_batches", file, 1),
        seg_method=str(par.get("seg_method", "")),
    )
    if pc.pp * pc.mp * pc.dp != pc.world_size:
        raise ExampleError(f"{file}: pp × mp × dp = {pc.pp} × {pc.mp} × {pc.dp} = "
                           f"{pc.pp * pc.mp * pc.dp}, but world_size is {pc.world_size}")
    if pc.vpp > 1 and (pc.pp < 2 or not pc.seg_method):
        raise ExampleError(f"{file}: vpp = {pc.vpp} needs pp >= 2 and a seg_method")
    return pc, config.get("train", {}), config.get("check", {})


def _forward_text(root: Path, pc: ParallelConfig) -> str:
    """``forward.pir``, or the forward dist program ``rulepass parallelize`` makes from
    ``serial.pir`` and ``plan.toml`` (``shared/spec/parallel-plan.md``, last section); the
    plan's mesh degrees must be the config's."""
    forward_file, serial_file, plan_file = root / "forward.pir", root / "serial.pir", root / "plan.toml"
    if not serial_file.exists():
        if not forward_file.exists():
            raise ExampleError(f"{forward_file}: missing (the example needs it, or serial.pir "
                               "and plan.toml)")
        return _read_text(forward_file)
    if forward_file.exists():
        raise ExampleError(f"{root}: holds both forward.pir and serial.pir; keep one (serial.pir "
                           "with plan.toml is parallelized first)")
    if not plan_file.exists():
        raise ExampleError(f"{plan_file}: missing (serial.pir needs a plan)")
    from rulepass.engine.paddle.plan import load_plan
    from rulepass.engine.pir.parse import parse_program
    from rulepass.engine.pir.printer import print_program
    from rulepass.parallelize import parallelize

    plan = load_plan(_read_text(plan_file), str(plan_file))
    for dim in ("pp", "mp", "dp"):
        if plan.degree(dim) != getattr(pc, dim):
            raise ExampleError(f"{plan_file}: the mesh's {dim} degree is {plan.degree(dim)} but "
                               f"config.toml says {dim} = {getattr(pc, dim)}")
    program = parse_program(_read_text(serial_file), filename=str(serial_file))
    return print_program(parallelize(program, plan, file=str(plan_file)))


def installed_examples() -> dict:
    """{name: folder} of the examples installed with rulepass (the package
    ``rulepass.examples``), in name order."""
    import importlib.resources

    try:
        base = Path(str(importlib.resources.files("rulepass.examples")))
    except ModuleNotFoundError:
        return {}
    return {p.name: p for p in sorted(base.iterdir()) if (p / "config.toml").is_file()}


def find_example(path) -> Path:
    """The folder of example ``path``: a folder, else the name of an installed example (so
    ``rulepass run pp2_vpp2_localmap`` works from any folder).

    Raises:
        ExampleError: neither; the message lists the installed examples.
    """
    root = Path(path)
    if root.is_dir():
        return root
    installed = installed_examples()
    if str(path) in installed:
        return installed[str(path)]
    names = ", ".join(installed) or "none"
    raise ExampleError(f"{root}: no such example folder (installed examples: {names})")


def load_example(path) -> Example:
    """Read and check the example folder ``path`` (or an installed example's name, see
    :func:`find_example`); :class:`ExampleError` on any problem."""
    root = find_example(path)
    config_file = root / "config.toml"
    pc, train, check = parse_config(_read_text(config_file), config_file)
    optimizer = train.get("optimizer", "sgd")
    if optimizer not in ("sgd", "adamw"):
        raise ExampleError(f"{config_file}: [train] optimizer {optimizer!r} is not sgd or adamw")
    lr = train.get("lr")
    if not isinstance(lr, (int, float)) or isinstance(lr, bool) or lr <= 0:
        raise ExampleError(f"{config_file}: [train] lr must be a positive number, got {lr!r}")
    rtol = check.get("rtol", 1e-5)
    if not isinstance(rtol, (int, float)) or isinstance(rtol, bool) or rtol <= 0:
        raise ExampleError(f"{config_file}: [check] rtol must be a positive number")
    atol = check.get("atol", 0.0)
    if not isinstance(atol, (int, float)) or isinstance(atol, bool) or atol < 0:
        raise ExampleError(f"{config_file}: [check] atol must be a number >= 0")
    forward_text = _forward_text(root, pc)
    reference_file = root / "reference.json"
    losses = None  # without reference.json: judged against the single-device run
    rng_seed = None
    try:
        if reference_file.exists():
            reference = json.loads(_read_text(reference_file))
            losses = [float(x) for x in reference["losses"]]
            if "rng" in reference:
                rng_seed = reference["rng"]["seed"]
                if isinstance(rng_seed, bool) or not isinstance(rng_seed, int) or rng_seed < 0:
                    raise ValueError(rng_seed)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        raise ExampleError(f"{reference_file}: expected {{\"losses\": [numbers]}} and "
                           "optionally \"rng\": {\"seed\": an integer >= 0}") from None
    data = _read_npz(root / "data.npz")
    steps_available = min((v.shape[0] for v in data.values()), default=0)
    steps = train.get("steps", len(losses) if losses is not None else steps_available)
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise ExampleError(f"{config_file}: [train] steps must be an integer >= 1, got {steps!r}")
    steps = min(steps, steps_available, *([len(losses)] if losses is not None else []))
    if steps < 1:
        raise ExampleError(f"{root}: no step to run (data.npz has {steps_available}"
                           + (f", reference.json {len(losses)})" if losses is not None else ")"))
    opt_state = _read_npz(root / "opt_state.npz") if (root / "opt_state.npz").exists() else {}
    return Example(root, pc, optimizer, float(lr), steps, float(rtol), forward_text,
                   _read_npz(root / "params.npz"), data, losses,
                   _read_npz(root / "params_final.npz") if (root / "params_final.npz").exists()
                   else {}, opt_state, float(atol), rng_seed)
