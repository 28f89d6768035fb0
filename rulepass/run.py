"""``rulepass run EXAMPLE``: rewrite a distributed program per rank, run every rank, and check that
the losses and final parameters equal the single-device model's.

1. :func:`~rulepass.example.load_example` reads and checks the folder.
2. :func:`~rulepass.chain.compile_rank` rewrites the forward program into each rank's dense
   program (the rules of ``rules/`` plus ``--rules``).
3. The runtime trains: on threads (``local``), or one rank per process (``mpi``: mpi4py; ``nccl``:
   CuPy arrays over NCCL), each rank running its pipeline stage's job list.
4. The single-device reference, computed from the program itself (:mod:`rulepass.reference`):
   the global program run densely on one device, in float64 and float32.
5. The report: per-step losses against the reference — Paddle's (``reference.json``,
   ``params_final.npz``) when the example has it, and the single-device run's always — rules
   applied per pass, bytes moved per rank by collective, the schedule's bubble fraction; exit
   status 0 only when every loss and every final parameter is within the tolerances of every
   reference. Losses are compared with the float64 single-device run, final parameters with the
   float32 one (the ranks' precision: AdamW's update divides by ``sqrt(v) + eps`` and turns
   float32 rounding into 2e-5 relative differences from float64 on pp2_1f1b_adamw).
6. With ``localize`` (:mod:`rulepass.localize`), every op of every rank is compared with the
   single-device run and the first divergent op is named with its pass and rule; any divergence
   fails the run.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import numpy as np

from rulepass.chain import CompiledRank, compile_rank
from rulepass.checks import pipeline_stages, unchecked_references, verified_forward
from rulepass.engine.api import load_rules
from rulepass.engine.paddle.optimizer import optimizer_state_initial_values
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.example import Example, ExampleError
from rulepass.micro_batches import rederive_micro_batches
from rulepass.random_draws import draw_source, random_model
from rulepass.reference import SingleDevice, single_device
from rulepass.runtime.executor import persistable_data
from rulepass.runtime.pipeline import RankProgram, mean_losses, rank_sites, run_rank
from rulepass.runtime.schedules import job_list, runner_schedule
from rulepass.runtime.timeline import bubble_fraction
from rulepass.runtime.sharding import ShardingError, dist_types, local_piece, rank_micro_batch

LR_FEED = "learning_rate_0"


@attrs.define
class RunOptions:
    """What the command line chose (None = the example's own setting)."""

    backend: str = "local"
    steps: int | None = None
    schedule: str | None = None
    micro_batches: int | None = None
    rules: tuple = ()
    out: Path | None = None
    localize: bool = False
    extra: tuple = ()  # (user pass, after step) pairs: --add-pass NAME --after STEP
    skip: tuple = ()  # chain steps not to run (optional ones: translation validation)
    #: ``after_step(name, rank, program)`` after every step of the chain (IR dumps)
    after_step: object = None


@attrs.define
class Report:
    """Everything the run measured: losses per step (ours), ``reference`` (the losses the verdict
    compared against) and ``reference_source`` (``"paddle"``: reference.json; ``"single_device"``:
    the float64 single-device run), ``paddle`` (Paddle's losses or None), ``single_device``
    (``{"losses": float64, "losses_float32": ...}``), the worst relative error of the final
    parameters against each reference, rules applied per pass, collective bytes per rank, the
    bubble fraction, the localizer's result (None without ``--localize``) and the verdict."""

    losses: list
    reference: list
    param_errors: dict
    rules: dict
    comm: list
    bubble: float
    rtol: float
    ok: bool
    reference_source: str = "single_device"
    paddle: list | None = None
    single_device: dict = attrs.field(factory=dict)
    single_device_param_errors: dict = attrs.field(factory=dict)
    localize: dict | None = None
    atol: float = 0.0
    jobs: dict = attrs.field(factory=dict)  # rank -> {job kind: count}, all steps
    stages: dict = attrs.field(factory=dict)  # rank -> its pipeline stage
    #: per parameter: max|ours - reference| / max|reference| (the elementwise error above
    #: exaggerates float32 noise on near-zero entries, such as small biases)
    tensor_errors: dict = attrs.field(factory=dict)
    #: what the run could not check, one sentence each (a short run's final parameters)
    unchecked: list = attrs.field(factory=list)
    #: reference label ("Paddle", "single device") -> the parameters that passed by the
    #: per-tensor rule only (their elementwise error is over rtol: the verdict says so)
    per_tensor: dict = attrs.field(factory=dict)


@attrs.define
class RunResult:
    """A finished run: every rank's record, the step losses, comm stats per rank, trace events,
    the schedule and micro-batch count, the single-device reference, the localizer's result."""

    records: list
    losses: list
    comm: list
    events: list
    schedule: str
    micro_batches: int
    single: SingleDevice
    localize: dict | None = None
    stages: list = attrs.field(factory=list)  # stages[rank]: its pipeline stage
    #: the random ops that draw from Paddle's generator when reference.json gives no seed
    draws_unmatched: tuple = ()


def example_stages(example: Example) -> list[int]:
    """``stages[rank]`` of the example: from its forward program's stage meshes
    (:func:`~rulepass.checks.pipeline_stages`; a ``["dp", "pp"]`` plan's stages are not
    stage-major)."""
    par = example.parallel
    return pipeline_stages(parse_program(example.forward_text), par.world_size, par.pp)


def within(ours, reference, rtol: float, atol: float) -> bool:
    """``|ours - reference| <= atol + rtol·|reference|`` everywhere (numpy's allclose)."""
    return bool(np.allclose(np.asarray(ours, dtype=np.float64),
                            np.asarray(reference, dtype=np.float64), rtol=rtol, atol=atol))


def relative_error(ours, reference) -> float:
    """max |ours - reference| / max(|reference|, tiny), elementwise max over the arrays; inf
    when either holds a NaN or an infinity where the other does not (never a silent 0)."""
    ours = np.asarray(ours, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    if not reference.size:
        return 0.0
    if np.array_equal(ours, reference, equal_nan=True):
        return 0.0
    if not (np.all(np.isfinite(ours)) and np.all(np.isfinite(reference))):
        return float("inf")
    scale = np.maximum(np.abs(reference), 1e-12)
    return float(np.max(np.abs(ours - reference) / scale))


def tensor_within(ours, reference, rtol: float, atol: float) -> bool:
    """``max|ours - reference| <= atol + rtol·max|reference|`` over the whole tensor (NaN or an
    infinity fails unless both hold it at the same place)."""
    ours = np.asarray(ours, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    if ours.shape != reference.shape:
        return False
    if not reference.size or np.array_equal(ours, reference, equal_nan=True):
        return True
    if not (np.all(np.isfinite(ours)) and np.all(np.isfinite(reference))):
        return False
    return bool(np.max(np.abs(ours - reference)) <= atol + rtol * np.max(np.abs(reference)))


def tensor_error(ours, reference) -> float:
    """max |ours - reference| / max |reference| over a whole tensor (the norm-wise relative error
    of numerical linear algebra, in the max norm); inf for a NaN or an infinity."""
    ours = np.asarray(ours, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    if not reference.size or np.array_equal(ours, reference, equal_nan=True):
        return 0.0
    if not (np.all(np.isfinite(ours)) and np.all(np.isfinite(reference))):
        return float("inf")
    return float(np.max(np.abs(ours - reference)) / max(np.max(np.abs(reference)), 1e-12))


@attrs.define
class RankRecord:
    """What a rank reports after training (small and picklable, so MPI ranks can send it to
    rank 0): its final-parameter errors, rules applied per pass, its program text and trace."""

    rank: int
    param_errors: dict
    param_ok: dict
    applied: dict
    program_text: str
    trace: list
    single_errors: dict = attrs.field(factory=dict)
    single_ok: dict = attrs.field(factory=dict)
    tensor_errors: dict = attrs.field(factory=dict)
    #: this rank's pieces of the parameters after training (for ``--out``'s params_final.npz)
    final_params: dict = attrs.field(factory=dict)
    #: the dist types those pieces were cut by (the rank's own: VPP may move a parameter)
    param_types: dict = attrs.field(factory=dict)
    #: reference label -> the parameters within tolerance per tensor only (not elementwise)
    per_tensor: dict = attrs.field(factory=dict)


class RankSetup:
    """What one rank needs to run, built from the example and its compiled program."""

    def __init__(self, example: Example, compiled: CompiledRank, types: dict, schedule: str,
                 micro_batches: int, stages: list[int]):
        self.example = example
        self.compiled = compiled
        self.rank = compiled.rank
        # the rank's own dist types where the chain recorded them (VPP moves parameters)
        own = compiled.dist_types or {}
        self.types = {**types, **{k: {**types.get(k, {}), **own.get(k, {})}
                                  for k in ("parameters", "data")}}
        self.stage = stages[self.rank]  # stages: example_stages(example)
        names = [op.attributes["parameter_name"] for op in compiled.program.walk()
                 if op.name == "builtin.parameter"]
        state = optimizer_state_initial_values(compiled.program)
        missing = [n for n in names if n not in example.params and n not in state]
        if missing:
            raise ExampleError(f"{example.path / 'params.npz'}: no initial value for "
                               + ", ".join(sorted(missing)))
        scope = {}
        for name in names:
            # a parameter, or optimizer state the example gives (AdamW's moments: global
            # arrays, sharded as their parameter is), is this rank's piece of it
            given = (example.params, "params.npz") if name in example.params else \
                (example.opt_state, "opt_state.npz") if name in example.opt_state else None
            if given is not None:
                t = self.types["parameters"].get(name)
                value = given[0][name]
                try:
                    scope[name] = np.array(local_piece(value, t, self.rank) if t is not None
                                           else value)
                except ShardingError as e:
                    raise ExampleError(f"{example.path / given[1]}: parameter {name!r}: "
                                       f"{e.message}") from None
            else:  # optimizer state as Paddle starts it
                shape, fill = state[name]
                scope[name] = np.full(shape, fill, dtype=np.float32)
        fed = {op.attributes.get("name") for op in compiled.program.walk()
               if op.name == "pd_op.data" and op.attributes.get("name") != LR_FEED
               and not (persistable_data(op) and op.attributes.get("name") in scope)}
        missing = sorted(n for n in fed if n not in example.data)
        if missing:
            raise ExampleError(f"{example.path / 'data.npz'}: no array for the program's "
                               f"input(s) {', '.join(map(repr, missing))} (it has: "
                               f"{', '.join(sorted(example.data)) or 'none'})")
        self.scope = scope
        self.micro_batches = micro_batches
        self.schedule = schedule

    def feeds(self, step: int, micro_batch: int) -> dict:
        out = {LR_FEED: np.asarray(self.example.lr, dtype=np.float32)}
        for name, batches in self.example.data.items():
            out[name] = rank_micro_batch(batches[step], self.types["data"].get(name), self.rank,
                                         self.micro_batches, micro_batch)
        return out

    def rank_program(self) -> RankProgram:
        return RankProgram(self.compiled.program, self.scope, self.feeds, stage=self.stage)

    def compare_params(self, finals: dict) -> tuple[dict, dict, dict, list]:
        """({name: relative error}, {name: within tolerance}, {name: per-tensor error}, [names
        within tolerance per tensor only]) of this rank's parameters against the rank's pieces
        of the global arrays ``finals``."""
        errors, ok, tensor_errors, per_tensor = {}, {}, {}, []
        for name, value in self.scope.items():
            if name not in finals:
                continue
            t = self.types["parameters"].get(name)
            ref = finals[name]
            ref = local_piece(ref, t, self.rank) if t is not None else ref
            errors[name] = relative_error(value, ref)
            tensor_errors[name] = tensor_error(value, ref)
            # Elementwise, or tensor-wise (max|diff| <= atol + rtol·max|ref|): float32 noise of
            # 6e-12 on a bias entry of 2e-7 is no mismatch when the bias's scale is 1e-2.
            elementwise = within(value, ref, self.example.rtol, self.example.atol)
            ok[name] = elementwise or tensor_within(value, ref, self.example.rtol,
                                                    self.example.atol)
            if ok[name] and not elementwise:
                per_tensor.append(name)
        return errors, ok, tensor_errors, per_tensor

    def record(self, single_params: dict | None = None) -> RankRecord:
        """This rank's report after training; ``single_params``: the single-device run's final
        parameters (float32), compared too."""
        errors, ok, tensor_errors, per_tensor = self.compare_params(self.example.final_params)
        # the parameters only: the single-device scope also holds gradient-merge buffers
        single_errors, single_ok, _, single_per_tensor = self.compare_params(
            {k: v for k, v in (single_params or {}).items() if k in self.example.params})
        applied: dict = {}
        trace = []
        for step in self.compiled.steps:
            per_pass = applied.setdefault(step.name, {})
            for rule, count in step.applied.items():
                per_pass[rule] = per_pass.get(rule, 0) + count
            for application in step.trace:
                item = application.as_dict()
                item["rank"] = self.rank
                trace.append(item)
        final = {name: np.asarray(value) for name, value in self.scope.items()
                 if name in self.example.params}
        types = {name: self.types["parameters"][name] for name in final
                 if name in self.types["parameters"]}
        return RankRecord(self.rank, errors, ok, applied, print_program(self.compiled.program),
                          trace, single_errors, single_ok, tensor_errors, final, types,
                          {"Paddle": per_tensor, "single device": single_per_tensor})


def compile_all(example: Example, options: RunOptions, ranks, single_steps: int | None = None
                ) -> tuple[dict, dict] | tuple[dict, dict, SingleDevice]:
    """Compile the given ranks; returns ({rank: CompiledRank}, dist types of the forward program)
    and, when ``single_steps`` is given, the single-device reference trained that many steps."""
    forward = verified_forward(example.forward_text, str(example.path / "forward.pir"))
    rules = load_rules(list(options.rules), installed=True)
    par = example.parallel
    micro_batches = options.micro_batches or par.micro_batches
    if par.pp > 1:  # an impossible schedule configuration fails before anything is compiled
        for stage in range(par.pp):
            job_list(options.schedule or par.schedule, par.pp, stage, micro_batches, par.vpp)
    rederive_micro_batches(example, forward, micro_batches)
    # random ops draw by their place in the model: their origins and placements are tracked
    randoms = random_model(forward, micro_batches, example.rng_seed)
    compiled = {r: compile_rank(forward, rules, r, pp=par.pp, vpp=par.vpp,
                                seg_method=par.seg_method, micro_batches=micro_batches,
                                optimizer=example.optimizer,
                                schedule=options.schedule or par.schedule, extra=options.extra,
                                track=options.localize or randoms is not None,
                                skip=options.skip, after_step=_for_rank(options.after_step, r),
                                trace_positions=options.out is not None,
                                trace=options.out is not None) for r in ranks}
    for c in compiled.values():
        c.random_model = randoms
    if single_steps is None:
        return compiled, dist_types(forward)
    single = single_device(example, rules, forward, steps=single_steps,
                           micro_batches=micro_batches, localize=options.localize,
                           random_model=randoms)
    return compiled, dist_types(forward), single


def _for_rank(after_step, rank: int):
    """``after_step(name, rank, program)`` as the chain's ``(name, program)`` callback."""
    if after_step is None:
        return None
    return lambda name, program: after_step(name, rank, program)


def summarize(example: Example, result: RunResult) -> Report:
    """The report of a finished run, from every rank's record and the single-device reference."""
    par = example.parallel
    losses = result.losses
    single = result.single.summary()
    single_losses = single["losses"][: len(losses)]
    paddle = example.reference_losses[: len(losses)] if example.reference_losses else None
    unchecked = unchecked_references(example)  # a missing reference.json, params_final.npz
    if result.draws_unmatched and (paddle is not None or example.final_params):
        # without the generator's seed Paddle's random numbers are not ours: its losses and
        # parameters cannot be matched, the single-device run (same draws as ours) still can
        unchecked.append(f"Paddle's losses and parameters: the program draws random numbers "
                         f"({', '.join(result.draws_unmatched)}) and reference.json gives no "
                         "\"rng\" seed (tools/capture_paddle.py writes it), so they cannot be "
                         "reproduced; judged against the single-device run")
        paddle = None
    param_errors: dict = {}
    single_errors: dict = {}
    tensor_errors: dict = {}
    params_ok = True
    rules: dict = {}
    per_tensor: dict = {}
    for record in result.records:
        params_ok = (params_ok and all(record.param_ok.values())
                     and all(record.single_ok.values()))
        for name, error in record.param_errors.items():
            param_errors[name] = _worst(param_errors.get(name, 0.0), error)
        for name, error in record.single_errors.items():
            single_errors[name] = _worst(single_errors.get(name, 0.0), error)
        for name, error in record.tensor_errors.items():
            tensor_errors[name] = _worst(tensor_errors.get(name, 0.0), error)
        for label, names in record.per_tensor.items():
            per_tensor.setdefault(label, set()).update(names)
        for pass_name, applied in record.applied.items():
            per_pass = rules.setdefault(pass_name, {})
            for rule, count in applied.items():
                per_pass[rule] = per_pass.get(rule, 0) + count
    bubble = (bubble_fraction(result.schedule, par.pp, par.vpp, result.micro_batches)
              if par.pp > 1 else 0.0)
    full = example.reference_steps
    if result.draws_unmatched:
        param_errors, tensor_errors = {}, {}
        per_tensor.pop("Paddle", None)
        params_ok = all(all(record.single_ok.values()) for record in result.records)
    elif example.final_params and len(losses) != full:
        # params_final.npz holds the parameters after the reference's last step: a run of
        # another length (--steps, a data.npz longer or shorter than Paddle's run) has nothing
        # to compare them with (the single-device run, trained as many steps, still is).
        unchecked.append(f"final parameters vs Paddle: params_final.npz holds them after {full} "
                         f"steps, this run made {len(losses)}")
        param_errors, tensor_errors = {}, {}
        per_tensor.pop("Paddle", None)
        params_ok = all(all(record.single_ok.values()) for record in result.records)
    if paddle is not None and len(paddle) < len(losses):
        unchecked.append(f"losses of steps {len(paddle)}..{len(losses) - 1} vs Paddle: "
                         f"reference.json has {len(paddle)} (the single-device run checks them)")

    def losses_within(reference, whole: bool = True) -> bool:
        # the single-device run has every step; Paddle's reference may cover a prefix only
        if len(reference) > len(losses) or (whole and len(reference) != len(losses)):
            return False
        return all(
            loss is not None and within(loss, ref, example.rtol, example.atol)
            for loss, ref in zip(losses, reference))

    ok = (len(losses) > 0 and params_ok and bool(param_errors or single_errors)
          and losses_within(single_losses) and (paddle is None or losses_within(paddle, False))
          and (result.localize is None or result.localize["first"] is None))
    return Report(losses, paddle if paddle is not None else single_losses, param_errors, rules,
                  result.comm, bubble, example.rtol, ok,
                  "paddle" if paddle is not None else "single_device", paddle, single,
                  single_errors, result.localize, example.atol,
                  tensor_errors=tensor_errors, unchecked=unchecked,
                  per_tensor={k: sorted(v) for k, v in per_tensor.items() if v})


def _worst(a: float, b: float) -> float:
    """The larger error, NaN counting as the worst (``max`` would keep the first operand)."""
    if a != a or b != b:
        return float("nan")
    return max(a, b)


def write_outputs(out: Path, records: list, events: list, report: Report,
                  example: Example | None = None, options: RunOptions | None = None) -> None:
    """``rank<r>.pir``, ``trace.jsonl``, ``timeline_rank<r>.json``, ``summary.json`` in ``out``;
    given the example and options also ``params_final.npz``, the merged ``timeline.json`` and
    the ``run`` header of ``summary.json`` (:mod:`rulepass.outputs`)."""
    from rulepass.runtime.trace import write_chrome_trace

    from rulepass.engine.files import check_output_dir, write_text

    check_output_dir(out)
    trace = []
    for record in records:
        write_text(out / f"rank{record.rank}.pir", record.program_text)
        trace.extend(json.dumps(item, sort_keys=True) + "\n" for item in record.trace)
        write_chrome_trace([e for e in events if e.rank == record.rank],
                           out / f"timeline_rank{record.rank}.json")
    write_text(out / "trace.jsonl", "".join(trace))
    summary = attrs.asdict(report)
    if example is not None:
        from rulepass.outputs import write_run_extras

        types = dist_types(parse_program(example.forward_text))["parameters"]
        for record in records:  # the ranks' own types where VPP moved a parameter
            types.update(record.param_types)
        summary = {"run": write_run_extras(out, example, options or RunOptions(), records,
                                           events, report, types), **summary}
    write_text(out / "summary.json", json.dumps(summary, indent=1, default=str) + "\n")


def run_local(example: Example, options: RunOptions, progress=None) -> RunResult:
    """Compile every rank and the single-device reference, train on threads; with
    ``options.localize`` every op of every rank is compared with the single-device run."""
    from rulepass.localize import Localizer
    from rulepass.runtime.comm.local import run_ranks

    par = example.parallel
    schedule = options.schedule or par.schedule
    micro_batches = options.micro_batches or par.micro_batches
    steps = example.steps_to_run(options.steps)
    compiled, types, single = compile_all(example, options, range(par.world_size), steps)
    stages = example_stages(example)
    setups = [RankSetup(example, compiled[r], types, schedule, micro_batches, stages)
              for r in range(par.world_size)]
    localizer = (Localizer(single.recorder, example.rtol, example.atol) if options.localize
                 else None)
    randoms = compiled[0].random_model
    source = draw_source(randoms, compiled.values()) if randoms is not None else None
    groups = compiled[0].program.process_groups
    sites = ({r: rank_sites(compiled[r].program, schedule, stages.__getitem__, groups)
              for r in range(par.world_size)} if par.pp > 1 else None)
    outputs = [[] for _ in setups]
    events, comm = [], [dict() for _ in setups]
    for step in range(steps):
        def body(communicator, step=step):
            s = setups[communicator.rank]
            observer = None
            if localizer is not None:
                observer = localizer.checker(s.rank, s.compiled)
                observer.start_step(step)
            program = s.rank_program()
            shifted = RankProgram(program.program, program.scope,
                                  lambda _step, m: s.feeds(step, m), stage=program.stage)
            return run_rank(shifted, communicator, steps=1,
                            schedule=runner_schedule(schedule, par.pp, micro_batches),
                            num_stages=par.pp, micro_batches=micro_batches,
                            vpp=par.vpp, process_groups=groups, observer=observer,
                            stages=stages, random_source=source, sites=sites)

        results = run_ranks(par.world_size, body)
        for r, result in enumerate(results):
            outputs[r].extend(result.outputs)
            events.extend(result.events)
            for kind, figures in result.comm_stats.items():
                slot = comm[r].setdefault(kind, {"calls": 0, "bytes": 0.0})
                slot["calls"] += figures["calls"]
                slot["bytes"] += figures["bytes"]
        if progress is not None:
            progress(step)
    records = [s.record(single.float32.params) for s in setups]
    return RunResult(records, mean_losses(outputs), comm, events, schedule, micro_batches,
                     single, localizer.result() if localizer is not None else None, stages,
                     randoms.draws_unmatched if randoms is not None else ())


def run_distributed(example: Example, options: RunOptions, progress=None):
    """One rank per process (``mpi`` or ``nccl``): compile this rank and the single-device
    reference (every process computes it: it is small, and each rank compares its parameters
    with it), train, gather every rank's record on rank 0. Returns what :func:`run_local` returns
    on rank 0, ``None`` on the other ranks. A failing rank aborts the whole job (``run_mpi``).
    ``--localize`` needs the local backend (its order of observations spans the ranks' threads)."""
    from rulepass.runtime.comm.backends import backend
    from rulepass.runtime.comm.mpi import agreed, mpi_module, run_mpi

    MPI = mpi_module()  # a clear CommunicationError without mpi4py
    world = MPI.COMM_WORLD
    par = example.parallel
    rank = world.Get_rank()
    schedule = options.schedule or par.schedule
    micro_batches = options.micro_batches or par.micro_batches
    steps = example.steps_to_run(options.steps)

    def prepare():  # every rank alike: an error they all hit is reported once, by rank 0
        if options.localize:
            raise ExampleError("--localize runs every rank on threads: use --backend local")
        chosen = backend(options.backend)  # a clear RuntimeFailure when something is missing
        if world.Get_size() != par.world_size:
            raise ExampleError(f"{example.path}: world_size is {par.world_size} but mpiexec "
                               f"started {world.Get_size()} processes (use mpiexec -n "
                               f"{par.world_size})")
        compiled, types, single = compile_all(example, options, [rank], steps)
        stages = example_stages(example)
        return chosen, compiled, single, stages, RankSetup(example, compiled[rank], types,
                                                           schedule, micro_batches, stages)

    chosen, compiled, single, stages, setup = agreed(prepare, world)
    randoms = compiled[rank].random_model
    source = draw_source(randoms, [compiled[rank]]) if randoms is not None else None
    groups = compiled[rank].program.process_groups
    # every rank's cross-stage collectives, to call them in one order (runtime/global_jobs.py)
    sites = (dict(enumerate(world.allgather(rank_sites(compiled[rank].program, schedule,
                                                       stages.__getitem__, groups))))
             if par.pp > 1 else None)
    xp, factory = chosen.array_module(), chosen.communicator()
    if xp is not None:
        setup.scope = {k: xp.asarray(v) for k, v in setup.scope.items()}

    def body(communicator):
        program = setup.rank_program()
        if xp is not None:
            host_feeds = program.feeds
            program = RankProgram(program.program, program.scope,
                                  lambda s, m: {k: xp.asarray(v) for k, v in
                                                host_feeds(s, m).items()}, stage=program.stage)
        outputs, events, comm = [], [], {}
        for step in range(steps):
            # The communicator counts from its creation; each step adds its own figures only.
            communicator.reset_stats()
            shifted = RankProgram(program.program, program.scope,
                                  lambda _s, m, step=step: program.feeds(step, m),
                                  stage=program.stage)
            result = run_rank(shifted, communicator, steps=1,
                              schedule=runner_schedule(schedule, par.pp, micro_batches),
                              num_stages=par.pp,
                              micro_batches=micro_batches, vpp=par.vpp, process_groups=groups,
                              xp=xp, stages=stages, random_source=source, sites=sites)
            outputs.extend([{k: float(np.asarray(v.get() if hasattr(v, "get") else v))
                             for k, v in o.items() if k.startswith("loss")}
                            for o in mb] for mb in result.outputs)
            events.extend(result.events)
            for kind, figures in result.comm_stats.items():
                slot = comm.setdefault(kind, {"calls": 0, "bytes": 0.0})
                slot["calls"] += figures["calls"]
                slot["bytes"] += figures["bytes"]
            if progress is not None and rank == 0:
                progress(step)
        return outputs, events, comm

    outputs, events, comm = run_mpi(body, groups=groups.values(), communicator=factory)
    if xp is not None:
        setup.scope = {k: xp.asnumpy(v) for k, v in setup.scope.items()}
    gathered = world.gather((setup.record(single.float32.params), outputs, events, comm),
                            root=0)
    if rank != 0:
        return None
    losses = mean_losses([g[1] for g in gathered])
    return RunResult([g[0] for g in gathered], losses, [g[3] for g in gathered],
                     [e for g in gathered for e in g[2]], schedule, micro_batches, single,
                     stages=stages,
                     draws_unmatched=randoms.draws_unmatched if randoms is not None else ())
