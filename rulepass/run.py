"""``rulepass run EXAMPLE``: rewrite a distributed program per rank, run every rank, and check that
the losses and final parameters equal the single-device model's.

1. :func:`~rulepass.example.load_example` reads and checks the folder.
2. :func:`~rulepass.chain.compile_rank` rewrites the forward program into each rank's dense
   program (the rules of ``rules/`` plus ``--rules``).
3. The runtime trains: on threads (``local``), or one rank per process (``mpi``: mpi4py; ``nccl``:
   CuPy arrays over NCCL), each rank running its pipeline stage's job list.
4. The report: per-step losses against the reference, rules applied per pass, bytes moved per
   rank by collective, the schedule's bubble fraction; exit status 0 only when every loss and
   every final parameter is within ``rtol``.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import numpy as np

from rulepass.chain import CompiledRank, compile_rank
from rulepass.engine.api import load_rules
from rulepass.engine.paddle.optimizer import optimizer_state_initial_values
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.example import Example, ExampleError
from rulepass.runtime.executor import persistable_data
from rulepass.runtime.pipeline import RankProgram, mean_losses, run_rank
from rulepass.runtime.schedules import bubble_fraction
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


@attrs.define
class Report:
    """Everything the run measured: losses per step (ours, Paddle's), the worst relative error of
    the final parameters (and which), rules applied per pass, collective bytes per rank, the
    bubble fraction, and whether it all matched."""

    losses: list
    reference: list
    param_errors: dict
    rules: dict
    comm: list
    bubble: float
    rtol: float
    ok: bool


def stage_of(rank: int, world_size: int, pp: int) -> int:
    """A rank's pipeline stage: meshes are laid out ``pp`` × the rest, stage-major (Paddle's
    ``ProcessMesh(np.arange(world).reshape(pp, ...))``)."""
    return rank // (world_size // pp)


def within(ours, reference, rtol: float, atol: float) -> bool:
    """``|ours - reference| <= atol + rtol·|reference|`` everywhere (numpy's allclose)."""
    return bool(np.allclose(np.asarray(ours, dtype=np.float64),
                            np.asarray(reference, dtype=np.float64), rtol=rtol, atol=atol))


def relative_error(ours, reference) -> float:
    """max |ours - reference| / max(|reference|, tiny), elementwise max over the arrays."""
    ours = np.asarray(ours, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    scale = np.maximum(np.abs(reference), 1e-12)
    return float(np.max(np.abs(ours - reference) / scale)) if reference.size else 0.0


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


class RankSetup:
    """What one rank needs to run, built from the example and its compiled program."""

    def __init__(self, example: Example, compiled: CompiledRank, types: dict, schedule: str,
                 micro_batches: int):
        self.example = example
        self.compiled = compiled
        self.rank = compiled.rank
        self.types = types
        par = example.parallel
        self.stage = stage_of(self.rank, par.world_size, par.pp)
        names = [op.attributes["parameter_name"] for op in compiled.program.walk()
                 if op.name == "builtin.parameter"]
        state = optimizer_state_initial_values(compiled.program)
        missing = [n for n in names if n not in example.params and n not in state]
        if missing:
            raise ExampleError(f"{example.path / 'params.npz'}: no initial value for "
                               + ", ".join(sorted(missing)))
        scope = {}
        for name in names:
            if name in example.params:
                t = types["parameters"].get(name)
                value = example.params[name]
                try:
                    scope[name] = np.array(local_piece(value, t, self.rank) if t is not None
                                           else value)
                except ShardingError as e:
                    raise ExampleError(f"{example.path / 'params.npz'}: parameter {name!r}: "
                                       f"{e.message}") from None
            elif name in example.opt_state:  # optimizer state the example gives (AdamW)
                scope[name] = np.array(example.opt_state[name])
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

    def record(self) -> RankRecord:
        """This rank's report after training."""
        errors, ok = {}, {}
        for name, value in self.scope.items():
            if name not in self.example.final_params:
                continue
            t = self.types["parameters"].get(name)
            ref = self.example.final_params[name]
            ref = local_piece(ref, t, self.rank) if t is not None else ref
            errors[name] = relative_error(value, ref)
            ok[name] = within(value, ref, self.example.rtol, self.example.atol)
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
        return RankRecord(self.rank, errors, ok, applied, print_program(self.compiled.program),
                          trace)


def compile_all(example: Example, options: RunOptions, ranks) -> tuple[dict, dict]:
    """Compile the given ranks; returns ({rank: CompiledRank}, dist types of the forward program)."""
    forward = parse_program(example.forward_text, str(example.path / "forward.pir"))
    rules = load_rules(list(options.rules), installed=True)
    par = example.parallel
    micro_batches = options.micro_batches or par.micro_batches
    compiled = {r: compile_rank(forward, rules, r, pp=par.pp, vpp=par.vpp,
                                seg_method=par.seg_method, micro_batches=micro_batches,
                                optimizer=example.optimizer,
                                trace_positions=options.out is not None) for r in ranks}
    return compiled, dist_types(forward)


def summarize(example: Example, records: list, losses: list, comm: list, schedule: str,
              micro_batches: int) -> Report:
    """The report of a finished run, from every rank's record."""
    par = example.parallel
    reference = example.reference_losses[: len(losses)]
    param_errors: dict = {}
    params_ok = True
    rules: dict = {}
    for record in records:
        params_ok = params_ok and all(record.param_ok.values())
        for name, error in record.param_errors.items():
            param_errors[name] = max(param_errors.get(name, 0.0), error)
        for pass_name, applied in record.applied.items():
            per_pass = rules.setdefault(pass_name, {})
            for rule, count in applied.items():
                per_pass[rule] = per_pass.get(rule, 0) + count
    bubble = bubble_fraction(schedule, par.pp, par.vpp, micro_batches) if par.pp > 1 else 0.0
    ok = (len(losses) > 0 and params_ok and bool(param_errors)
          and all(loss is not None and within(loss, ref, example.rtol, example.atol)
                  for loss, ref in zip(losses, reference)))
    return Report(losses, reference, param_errors, rules, comm, bubble, example.rtol, ok)


def write_outputs(out: Path, records: list, events: list, report: Report) -> None:
    """``rank<r>.pir``, ``trace.jsonl``, ``timeline_rank<r>.json``, ``summary.json`` in ``out``."""
    from rulepass.runtime.trace import write_chrome_trace

    out.mkdir(parents=True, exist_ok=True)
    with open(out / "trace.jsonl", "w") as trace:
        for record in records:
            (out / f"rank{record.rank}.pir").write_text(record.program_text)
            for item in record.trace:
                trace.write(json.dumps(item, sort_keys=True) + "\n")
            write_chrome_trace([e for e in events if e.rank == record.rank],
                               out / f"timeline_rank{record.rank}.json")
    (out / "summary.json").write_text(json.dumps(attrs.asdict(report), indent=1, default=str)
                                      + "\n")


def run_local(example: Example, options: RunOptions, progress=None):
    """Compile every rank and train on threads; returns (records, losses, comm stats per rank,
    trace events, schedule, micro-batches)."""
    from rulepass.runtime.comm.local import run_ranks

    par = example.parallel
    schedule = options.schedule or par.schedule
    micro_batches = options.micro_batches or par.micro_batches
    steps = min(options.steps or example.steps, example.steps)
    compiled, types = compile_all(example, options, range(par.world_size))
    setups = [RankSetup(example, compiled[r], types, schedule, micro_batches)
              for r in range(par.world_size)]
    groups = compiled[0].program.process_groups
    outputs = [[] for _ in setups]
    events, comm = [], [dict() for _ in setups]
    for step in range(steps):
        def body(communicator, step=step):
            s = setups[communicator.rank]
            program = s.rank_program()
            shifted = RankProgram(program.program, program.scope,
                                  lambda _step, m: s.feeds(step, m), stage=program.stage)
            return run_rank(shifted, communicator, steps=1, schedule=schedule if par.pp > 1
                            else None, num_stages=par.pp, micro_batches=micro_batches,
                            vpp=par.vpp, process_groups=groups)

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
    return ([s.record() for s in setups], mean_losses(outputs), comm, events, schedule,
            micro_batches)


def run_distributed(example: Example, options: RunOptions, progress=None):
    """One rank per process (``mpi`` or ``nccl``): compile this rank, train, gather every rank's
    record on rank 0. Returns what :func:`run_local` returns on rank 0, ``None`` on the other
    ranks. A failing rank aborts the whole job (``run_mpi``)."""
    from rulepass.runtime.comm.backends import backend
    from rulepass.runtime.comm.mpi import mpi_module, run_mpi

    MPI = mpi_module()  # a clear CommunicationError without mpi4py
    chosen = backend(options.backend)  # a clear RuntimeFailure when what it needs is missing
    world = MPI.COMM_WORLD
    par = example.parallel
    if world.Get_size() != par.world_size:
        raise ExampleError(f"{example.path}: world_size is {par.world_size} but mpiexec started "
                           f"{world.Get_size()} processes (use mpiexec -n {par.world_size})")
    rank = world.Get_rank()
    schedule = options.schedule or par.schedule
    micro_batches = options.micro_batches or par.micro_batches
    steps = min(options.steps or example.steps, example.steps)
    compiled, types = compile_all(example, options, [rank])
    setup = RankSetup(example, compiled[rank], types, schedule, micro_batches)
    groups = compiled[rank].program.process_groups
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
            shifted = RankProgram(program.program, program.scope,
                                  lambda _s, m, step=step: program.feeds(step, m),
                                  stage=program.stage)
            result = run_rank(shifted, communicator, steps=1,
                              schedule=schedule if par.pp > 1 else None, num_stages=par.pp,
                              micro_batches=micro_batches, vpp=par.vpp, process_groups=groups,
                              xp=xp)
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
    gathered = world.gather((setup.record(), outputs, events, comm), root=0)
    if rank != 0:
        return None
    losses = mean_losses([g[1] for g in gathered])
    return ([g[0] for g in gathered], losses, [g[3] for g in gathered],
            [e for g in gathered for e in g[2]], schedule, micro_batches)
