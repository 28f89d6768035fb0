"""An example folder for ``rulepass run`` (layout fixed by the issue "main job"; other tools write
it too):

- ``forward.pir`` — the forward dist program as Paddle prints it after ``apply_mix2dist_pass``;
  or instead ``serial.pir`` + ``plan.toml``, which ``rulepass run`` parallelizes first
  (``rulepass/parallelize.py``);
- ``config.toml`` — ``[parallel]`` world_size, pp, vpp, mp, dp, schedule, micro_batches,
  seg_method; ``[train]`` optimizer, lr, steps (optional: the steps of Paddle's reference run,
  as reference.json's ``steps``; the run itself takes every batch of data.npz); ``[check]`` rtol
  (default 1e-5),
  atol (our addition, default 0: a value passes when
  ``|ours - reference| <= atol + rtol·|reference|``);
- ``params.npz`` — initial parameters keyed by ``parameter_name``;
- ``data.npz`` — one array per ``pd_op.data`` input (not the learning rate), keyed by its ``name``,
  shaped ``[steps, global batch, ...]``;
- optional: ``reference.json`` — ``{"losses": [...], "steps": N}`` of Paddle's single-process
  run (one loss per step; ``steps`` may be left out when config.toml's ``[train] steps`` says it;
  and ``"rng": {"seed": S}`` when Paddle's CPU generator was seeded with ``paddle.seed(S)`` right
  before its first step: a model that draws random numbers then draws Paddle's,
  :mod:`rulepass.random_draws`); ``params_final.npz`` — its parameters after step N. Without
  them ``rulepass run`` judges the run against the single-device run it computes itself (:mod:`rulepass.reference`);
- optional: ``opt_state.npz`` — optimizer state (AdamW moments, beta powers) at the start, keyed
  by the names Paddle gives it (``<param>_moment1_0`` ...); without it the state starts as Paddle
  starts it (zeros; beta1, beta2).

:func:`load_example` reads and checks all of it; every problem is an :class:`ExampleError` with one
line naming the file and what is wrong.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import attrs
import numpy as np

from rulepass.engine.errors import RulepassError
from rulepass.engine.files import link_problem, read_json, read_npz, read_text
from rulepass.engine.toml_text import TomlError, parse_toml
from rulepass.runtime.schedules import SCHEDULES  # one table: a new schedule is one entry there

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
    #: the steps of Paddle's reference run (reference.json, params_final.npz); None without it
    reference_steps: int | None = None

    def steps_to_run(self, requested: int | None = None) -> int:
        """The steps a run makes: ``requested`` (``--steps``), by default every batch of
        data.npz.

        Raises:
            ExampleError: ``requested`` is below 1 or beyond the batches data.npz holds.
        """
        if requested is None:
            return self.steps
        if requested < 1:
            raise ExampleError(f"--steps must be at least 1, got {requested}")
        if requested > self.steps:
            raise ExampleError(f"{self.path / 'data.npz'}: --steps {requested}, but it holds "
                               f"{self.steps} step(s) of data (one batch per step)")
        return requested


def _read_npz(path: Path) -> dict:
    """The arrays of one of the example's ``.npz`` files (:func:`rulepass.engine.files.read_npz`:
    never a pickle; a text file or a renamed ``.npy`` is one line naming it)."""
    if not os.path.lexists(path):  # a dangling link or a link loop: read_npz names it
        raise ExampleError(f"{path}: missing (the example needs it)")
    return read_npz(path, "array file")


def _optional(path: Path) -> bool:
    """Whether the example has the optional file ``path`` (``reference.json``,
    ``params_final.npz``, ``opt_state.npz``). A symbolic link to nothing (git-annex content not
    fetched, a moved target) is not "absent": the run would silently skip Paddle's check.

    Raises:
        ExampleError: naming the dangling link and its target, or the link loop (in the words
            of :func:`rulepass.engine.files.link_problem`, as for every other input).
    """
    problem = link_problem(path)
    if problem is not None:
        raise ExampleError(f"{path}: {problem}; git-annex content not fetched? Fetch it or "
                           "remove the link")
    return path.exists()


def _read_text(path: Path) -> str:
    """The text of one of the example's files (:func:`rulepass.engine.files.read_text`)."""
    if not os.path.lexists(path):  # a dangling link or a link loop: read_text names it
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
        config = parse_toml(text)
    except TomlError as e:
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
    if not os.path.lexists(serial_file):
        if not os.path.lexists(forward_file):
            raise ExampleError(f"{forward_file}: missing (the example needs it, or serial.pir "
                               "and plan.toml)")
        return _read_text(forward_file)
    if os.path.lexists(forward_file):
        raise ExampleError(f"{root}: holds both forward.pir and serial.pir; keep one (serial.pir "
                           "with plan.toml is parallelized first)")
    if not plan_file.exists():
        raise ExampleError(f"{plan_file}: missing (serial.pir needs a plan)")
    from rulepass.engine.paddle.plan import load_plan
    from rulepass.engine.pir.parse import parse_program
    from rulepass.engine.pir.printer import print_program
    from rulepass.parallelize import check_serial, parallelize

    plan = load_plan(_read_text(plan_file), str(plan_file))
    for dim in ("pp", "mp", "dp"):
        if plan.degree(dim) != getattr(pc, dim):
            raise ExampleError(f"{plan_file}: the mesh's {dim} degree is {plan.degree(dim)} but "
                               f"config.toml says {dim} = {getattr(pc, dim)}")
    program = parse_program(_read_text(serial_file), filename=str(serial_file))
    check_serial(program, str(serial_file))
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
    if root.is_file():
        raise ExampleError(f"{root}: is a file; an example is a folder (config.toml, forward.pir, "
                           f"params.npz, data.npz, ...); installed examples: {names}")
    raise ExampleError(f"{root}: no such example folder (installed examples: {names})")


def _positive(table: dict, section: str, key: str, file: Path, default=None,
              allow_zero: bool = False) -> float:
    """A finite number > 0 (>= 0 with ``allow_zero``) of ``[section] key``; NaN and infinities
    are config errors (``rtol = nan`` passed every comparison)."""
    value = table.get(key, default)
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or value < 0 or (value == 0 and not allow_zero)):
        wanted = "a finite number >= 0" if allow_zero else "a finite positive number"
        raise ExampleError(f"{file}: [{section}] {key} must be {wanted}, got {value!r}")
    return float(value)


def _data_steps(data: dict, file: Path) -> int:
    """The number of steps ``data.npz`` holds: the length of every array's leading axis, which
    must be the same for all (issue 18: arrays of 3 and 2 batches were accepted)."""
    if not data:
        raise ExampleError(f"{file}: holds no array (one per pd_op.data input, shaped "
                           "[steps, global batch, ...])")
    lengths = {}
    for key, array in data.items():
        if array.ndim == 0:
            raise ExampleError(f"{file}: {key!r} is a scalar; expected [steps, global batch, ...]")
        lengths.setdefault(array.shape[0], []).append(key)
    if len(lengths) > 1:
        shown = "; ".join(f"{', '.join(map(repr, keys))}: {n}" for n, keys in sorted(lengths.items()))
        raise ExampleError(f"{file}: the arrays hold different numbers of steps (leading axis) "
                           f"({shown}); every input needs one batch per step")
    (steps,) = lengths
    if steps < 1:
        raise ExampleError(f"{file}: holds no step (the leading axis is empty)")
    return steps


def _reference(root: Path, train: dict, config_file: Path, data_steps: int):
    """(Paddle's losses or None, the number of steps Paddle's reference ran or None, the seed of
    ``"rng": {"seed": S}`` or None): the steps after which ``params_final.npz`` holds the
    parameters. From ``reference.json``'s ``steps``,
    else ``config.toml``'s ``[train] steps``, else the length of its losses (else, with
    ``params_final.npz`` alone, every batch of data.npz); when given twice they must agree, and
    the losses must number the steps (one per step)."""
    reference_file = root / "reference.json"
    declared = train.get("steps")
    if declared is not None and (isinstance(declared, bool) or not isinstance(declared, int)
                                 or declared < 1):
        raise ExampleError(f"{config_file}: [train] steps must be an integer >= 1, "
                           f"got {declared!r}")
    has_final = _optional(root / "params_final.npz")
    if not _optional(reference_file):
        if has_final:
            return None, declared if declared is not None else data_steps, None
        return None, None, None
    reference = read_json(reference_file, "reference file")
    expected = ('expected {"losses": [numbers, one per step], "steps": the number of steps '
                "Paddle ran}")
    if not isinstance(reference, dict) or not isinstance(reference.get("losses"), list):
        raise ExampleError(f"{reference_file}: {expected}")
    losses = reference["losses"]
    if not losses or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                             for x in losses):
        raise ExampleError(f"{reference_file}: 'losses' must be a non-empty list of numbers")
    steps = reference.get("steps")
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or steps < 1):
        raise ExampleError(f"{reference_file}: 'steps' must be an integer >= 1, got {steps!r}")
    if steps is not None and declared is not None and steps != declared:
        raise ExampleError(f"{reference_file}: steps = {steps}, but {config_file.name}'s "
                           f"[train] steps = {declared}; Paddle's reference ran one count")
    steps = steps if steps is not None else declared if declared is not None else len(losses)
    if len(losses) != steps:
        raise ExampleError(f"{reference_file}: {len(losses)} loss(es) for the {steps} steps "
                           "Paddle ran (one loss per step; params_final.npz holds the "
                           f"parameters after step {steps})")
    rng_seed = None
    if "rng" in reference:
        rng = reference["rng"]
        rng_seed = rng.get("seed") if isinstance(rng, dict) else None
        if isinstance(rng_seed, bool) or not isinstance(rng_seed, int) or rng_seed < 0:
            raise ExampleError(f"{reference_file}: 'rng' must be {{\"seed\": an integer >= 0}}, "
                               f"got {rng!r}")
    return [float(x) for x in losses], steps, rng_seed


def load_example(path) -> Example:
    """Read and check the example folder ``path`` (or an installed example's name, see
    :func:`find_example`); :class:`ExampleError` on any problem.

    The run's steps (``Example.steps``) are every batch of ``data.npz`` (``--steps`` may ask for
    fewer); ``reference_steps`` is the number of steps of Paddle's reference
    (``reference.json``, ``params_final.npz``), which may differ: then the final parameters are
    compared with Paddle only when the run makes that many steps."""
    root = find_example(path)
    config_file = root / "config.toml"
    pc, train, check = parse_config(_read_text(config_file), config_file)
    optimizer = train.get("optimizer", "sgd")
    if optimizer not in ("sgd", "adamw"):
        raise ExampleError(f"{config_file}: [train] optimizer {optimizer!r} is not sgd or adamw")
    lr = _positive(train, "train", "lr", config_file)
    rtol = _positive(check, "check", "rtol", config_file, 1e-5)
    atol = _positive(check, "check", "atol", config_file, 0.0, allow_zero=True)
    forward_text = _forward_text(root, pc)
    data = _read_npz(root / "data.npz")
    steps = _data_steps(data, root / "data.npz")
    losses, reference_steps, rng_seed = _reference(root, train, config_file, steps)
    opt_state = _read_npz(root / "opt_state.npz") if _optional(root / "opt_state.npz") else {}
    return Example(root, pc, optimizer, lr, steps, rtol, forward_text,
                   _read_npz(root / "params.npz"), data, losses,
                   _read_npz(root / "params_final.npz") if _optional(root / "params_final.npz")
                   else {}, opt_state, atol, rng_seed=rng_seed,
                   reference_steps=reference_steps)
