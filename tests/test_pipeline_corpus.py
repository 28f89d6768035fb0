"""Paddle's own captured programs, run by our runtime: every rank of every configuration together on
threads, with the captured parameters and data, for the captured steps; the losses must equal
Paddle's reference and the final parameters its params_final.npz (rtol 1e-5, float32).

This proves the runtime (executor, kernels, collectives, job split, schedules, gradient merge)
independently of rulepass's passes. Each rank runs its ``*_dense_final.pir`` split by
``split_jobs``; the pipeline configurations also run Paddle's own job programs (``job_*.pir``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.runtime.pipeline import RankProgram, split_jobs, train
from rulepass.runtime.schedules import Job, job_list, virtual_stage
from rulepass.runtime.sharding import dist_types, local_piece, rank_micro_batch, shard_parameters

CORPUS = Path(__file__).parent / "data" / "paddle"
# configurations Paddle compiled (where its chain raised, gm_*_vpp2 with a global parameter or
# input, there is no dense program to run)
CONFIGS = sorted(p.name for p in CORPUS.iterdir() if (p / "reference.json").exists()
                 and list((p / "rank0").glob("*_dense_final.pir")))
PIPELINES = [c for c in CONFIGS if (CORPUS / c / "rank0" / "jobs.txt").exists()]
#: configurations of the committed corpus whose Paddle job lists deadlock (`paddle_plan_stalls`
#: finds them; this list only checks that it does): Paddle's own job lists call the broadcasts of
#: a global pipeline mesh in different orders on the ranks (or a broadcast before a pipeline
#: receive the other rank waits in), as docs/deviations.md records (tests/test_global_mesh.py
#: shows the orders).
DEADLOCKING_PLANS = {"gm_gparam_pp2_1f1b", "gm_input_pp2_1f1b", "gm_input_pp2_1f1b_3d",
                     "gm_param_pp2_1f1b", "gm_param_pp2_1f1b_3d", "gm_none_pp2_vpp2_3d"}
#: Paddle's VPP chain on a 3-D global mesh sends the global value from stage 1 to stage 0 in the
#: forward (a stage-to-stage reshard complete_chunk_id makes), against the pipeline: stage 0's
#: first forward waits for stage 1's copy, which stage 1 sends only in its own first forward,
#: after stage 0's activation reached it; no job list breaks that cycle (`unkeyed_forward_sends`
#: finds such programs; this set checks that it does).
UNKEYED = {"gm_none_pp2_vpp2_3d"}


def stage_file(rank_dir: Path, suffix: str) -> Path:
    (path,) = [p for p in rank_dir.iterdir() if p.name.endswith(suffix)]
    return path


def stage_of(config: dict, rank: int) -> int:
    """The pipeline stage of global rank ``rank``: its coordinate along the mesh's ``pp``
    dimension (``mesh_shape``/``mesh_dims`` of a dist.parallelize capture, whose pp axis may be
    anywhere: ``["dp", "pp"]``), else pp outermost (the hand-built captures' (pp, dp, mp))."""
    shape, dims = config.get("mesh_shape"), config.get("mesh_dims")
    if not shape or "pp" not in dims:
        return rank // (config["world_size"] // config["pp"])
    return int(np.unravel_index(rank, shape)[dims.index("pp")])


def load_config(name: str, *, job_programs: bool = False):
    """(config, RankPrograms, dist types per rank, process groups) of captured configuration
    ``name``. Parameters are each rank's pieces of params.npz; feeds give micro-batch m of step s
    (sharded by the data op's dist type) and the learning rate of reference.json."""
    root = CORPUS / name
    config = json.loads((root / "rank0" / "config.json").read_text())
    reference = json.loads((root / "reference.json").read_text())
    params = dict(np.load(root / "params.npz"))
    data = dict(np.load(root / "data.npz"))
    groups = {int(k): tuple(v) for k, v in json.loads((root / "rank0" / "process_groups.json").read_text()).items()}
    world, pp, micro_batches = config["world_size"], config["pp"], config["micro_batches"]
    constants = {k: np.asarray(v, np.float32) for k, v in reference.get("feeds", {"learning_rate_0": config["lr"]}).items()}
    ranks, types_per_rank = [], []
    for rank in range(world):
        rank_dir = root / f"rank{rank}"
        dense_path = stage_file(rank_dir, "dense_final.pir")
        program = parse_program(dense_path.read_text(), str(dense_path))
        types = dist_types(parse_program(stage_file(rank_dir, "before_dist2dense.pir").read_text()))
        names = [op.attr("parameter_name") for op in program.walk() if op.name == "builtin.parameter"]
        scope = shard_parameters(params, types["parameters"], rank, names)
        # Optimizer state (AdamW's moments and beta powers): persistable data in Paddle's scope.
        state_file = root / "opt_state.npz"
        if state_file.exists():
            state = dict(np.load(state_file))
            scope.update({op.attr("name"): np.array(state[op.attr("name")]) for op in program.walk()
                          if op.name == "pd_op.data" and op.attr("name") in state})

        def feeds(step, m, rank=rank, types=types):
            out = dict(constants)
            for data_name in config["data_names"]:
                out[data_name] = rank_micro_batch(data[data_name][step], types["data"].get(data_name),
                                                  rank, micro_batches, m)
            return out

        jobs = None
        if job_programs:
            jobs = {p.name[len("job_"):-len(".pir")]: parse_program(p.read_text(), str(p))
                    for p in rank_dir.glob("job_*.pir")}
        # Paddle numbers its rings per process: each rank runs with its own ring table
        own_groups = {int(k): tuple(v) for k, v in
                      json.loads((rank_dir / "process_groups.json").read_text()).items()}
        ranks.append(RankProgram(None if job_programs else program, scope, feeds,
                                 stage=stage_of(config, rank), job_programs=jobs,
                                 process_groups=own_groups))
        types_per_rank.append(types)
    return config, reference, ranks, types_per_rank, groups


def run_config(name: str, *, job_programs: bool = False):
    config, reference, ranks, types, groups = load_config(name, job_programs=job_programs)
    schedule = config["schedule"] if config["pp"] > 1 else None
    result = train(ranks, steps=config["steps"], schedule=schedule, num_stages=config["pp"],
                   micro_batches=config["micro_batches"], vpp=config["vpp"], process_groups=groups,
                   timeout=30)
    return config, reference, ranks, types, result


def check_against_paddle(name, reference, ranks, types, result):
    np.testing.assert_allclose(result.losses, reference["losses"], rtol=1e-5)
    final = dict(np.load(CORPUS / name / "params_final.npz"))
    checked = 0
    for rank, (rank_program, rank_types) in enumerate(zip(ranks, types)):
        for param, value in rank_program.scope.items():
            if param.endswith("@GRAD@MERGE"):
                np.testing.assert_array_equal(value, 0, err_msg=f"{param} not zeroed by the optimizer")
                continue
            if param not in final:  # optimizer state: against Paddle's final state
                state_final = dict(np.load(CORPUS / name / "opt_state_final.npz"))
                np.testing.assert_allclose(value, state_final[param], rtol=1e-5, atol=1e-7,
                                           err_msg=param)
                continue
            expected = local_piece(final[param], rank_types["parameters"][param], rank)
            np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-7,
                                       err_msg=f"{name} rank {rank} {param}")
            assert value.dtype == np.float32
            checked += 1
    state = CORPUS / name / "opt_state_final.npz"
    state_names = set(np.load(state).files) if state.exists() else set()
    assert {p for r in ranks for p in r.scope
            if not p.endswith("@GRAD@MERGE") and p not in state_names} == set(final)
    return checked


def unkeyed_forward_sends(name: str) -> bool:
    """Whether the forward sends and receives of configuration ``name``'s dense programs fail to
    pair under `runtime.pipeline.message_key`: a send of virtual stage v is keyed boundary v, a
    receive of virtual stage v boundary v - 1, so a value sent to anything but the next virtual
    stage is never received."""
    keys: dict = {}
    for rank_dir in sorted((CORPUS / name).glob("rank*")):
        config = json.loads((rank_dir / "config.json").read_text())
        groups = {int(k): tuple(v) for k, v in
                  json.loads((rank_dir / "process_groups.json").read_text()).items()}
        rank = int(rank_dir.name[4:])
        program = parse_program(stage_file(rank_dir, "dense_final.pir").read_text())
        for op in program.ops:
            if op.name in ("pd_op.send_v2", "pd_op.recv_v2") and op.op_role == 0:
                peer = groups[op.attr("ring_id")][op.attr("peer")]
                chunk = max(int(op.attr("chunk_id", 0)), 0) if config["vpp"] > 1 else 0
                virtual = virtual_stage(stage_of(config, rank), chunk, config["pp"])
                sending = op.name == "pd_op.send_v2"
                pair = (rank, peer) if sending else (peer, rank)
                keys.setdefault((pair, sending), []).append(virtual if sending else virtual - 1)
    return any(sorted(keys.get((pair, True), [])) != sorted(keys.get((pair, False), []))
               for pair, _ in keys)


def test_the_unkeyed_sends_of_the_corpus_are_found():
    assert {c for c in CONFIGS if unkeyed_forward_sends(c)} == UNKEYED & set(CONFIGS)


@pytest.mark.parametrize("name", CONFIGS)
def test_dense_programs_reproduce_paddle(name):
    if unkeyed_forward_sends(name):
        pytest.skip("a forward value goes back up the pipeline: stage 0 waits for stage 1's "
                    "copy, which stage 1 sends after stage 0's activation (UNKEYED)")
    config, reference, ranks, types, result = run_config(name)
    assert check_against_paddle(name, reference, ranks, types, result) >= len(np.load(CORPUS / name / "params.npz"))
    # A trace event per job per step on every rank, in order on each rank (and the jobs that give
    # cross-stage collectives one order, runtime/global_jobs.py).
    for rank in range(config["world_size"]):
        events = [e for e in result.events if e.rank == rank and not e.name.startswith("global_")]
        expected = config["steps"] * (len(config["jobs"]) if config["pp"] > 1 else 1)
        assert len(events) == expected
        assert all(a.start + a.duration <= b.start + 1e-3 for a, b in zip(events, events[1:]))


#: collectives every rank of the group calls (a rank waits in one until all have come)
GROUP_COLLECTIVES = ("pd_op.broadcast", "pd_op.all_reduce", "pd_op.all_gather",
                     "pd_op.reduce_scatter", "pd_op.c_allreduce_sum", "pd_op.c_broadcast")


def paddle_plan_stalls(name: str) -> str | None:
    """Where Paddle's own plan of configuration ``name`` (each rank's ``job_*.pir`` in the job
    list `run_config` runs them in, one step) waits forever, or None when every rank finishes:
    each rank's
    communication in order, sends buffered (as our backends do), a receive waiting for the
    matching send, a group collective waiting until every member has reached it. A Paddle
    program we do not have can then be told from a runtime fault by what the plan says."""
    events = {}
    for rank_dir in sorted((CORPUS / name).glob("rank*")):
        rank = int(rank_dir.name[4:])
        groups = {int(k): tuple(v) for k, v in
                  json.loads((rank_dir / "process_groups.json").read_text()).items()}
        programs = {p.name[len("job_"):-len(".pir")]: parse_program(p.read_text(), str(p))
                    for p in rank_dir.glob("job_*.pir")}
        config = json.loads((rank_dir / "config.json").read_text())
        jobs = job_list(config["schedule"], config["pp"], stage_of(config, rank),
                        config["micro_batches"], config["vpp"])
        todo = []
        for job in jobs:
            where = f"{job.type}:{job.micro_batch}"
            for op in programs[job.type].ops:
                if op.name in ("pd_op.send_v2", "pd_op.recv_v2"):
                    peer = groups[op.attr("ring_id")][op.attr("peer")]
                    todo.append((op.name[6:10], (rank, peer) if op.name == "pd_op.send_v2"
                                 else (peer, rank), where))
                elif op.name in GROUP_COLLECTIVES:
                    todo.append(("coll", frozenset(groups[op.attr("ring_id")]), where))
        events[rank] = todo
    at = dict.fromkeys(events, 0)
    sent: dict = {}
    moved = True
    while moved:
        moved = False
        for rank, todo in events.items():
            while at[rank] < len(todo):
                kind, key, _ = todo[at[rank]]
                if kind == "send":
                    sent[key] = sent.get(key, 0) + 1
                elif kind == "recv" and sent.get(key, 0) > 0:
                    sent[key] -= 1
                elif kind == "coll" and all(
                        at[m] < len(events[m]) and events[m][at[m]][:2] == ("coll", key)
                        for m in key):
                    for m in key:
                        if m != rank:
                            at[m] += 1
                else:
                    break
                at[rank] += 1
                moved = True
    names = {"send": "a send", "recv": "a receive", "coll": "a collective"}
    stuck = [f"rank {r} waits in {names[todo[at[r]][0]]} of job {todo[at[r]][2]}"
             for r, todo in events.items() if at[r] < len(todo)]
    return "; ".join(stuck) or None


def test_the_plan_simulation_finds_the_deadlocks_of_the_corpus():
    stalled = {name for name in PIPELINES if paddle_plan_stalls(name)}
    assert stalled == DEADLOCKING_PLANS & set(PIPELINES)
    assert "rank 0 waits in a collective of job" in paddle_plan_stalls("gm_param_pp2_1f1b")


@pytest.mark.parametrize("name", PIPELINES)
def test_paddles_own_job_programs_reproduce_paddle(name):
    stalled = paddle_plan_stalls(name)
    if stalled:  # Paddle's bug, not ours (docs/deviations.md): its plan waits forever
        pytest.skip(f"Paddle's own job lists deadlock: {stalled}")
    config, reference, ranks, types, result = run_config(name, job_programs=True)
    check_against_paddle(name, reference, ranks, types, result)


@pytest.mark.parametrize("name", PIPELINES)
def test_split_matches_paddles_job_programs(name):
    """Our split of each rank's dense program puts the same ops, in the same order, in each job
    type as Paddle's plan (Paddle adds shadow_output ops to hand values between jobs; they carry no
    chunk_id, unlike the loss's own shadow_output)."""
    for rank_dir in sorted((CORPUS / name).glob("rank*")):
        config = json.loads((rank_dir / "config.json").read_text())
        program = parse_program(stage_file(rank_dir, "dense_final.pir").read_text())
        ops = program.ops
        jobs = split_jobs(program, config["schedule"])
        paddle_types = set()
        for path in rank_dir.glob("job_*.pir"):
            job_type = path.name[len("job_"):-len(".pir")]
            paddle_types.add(job_type)
            theirs = [op.name for op in parse_program(path.read_text()).ops
                      if op.name != "builtin.shadow_output" or "chunk_id" in op.attributes]
            assert [ops[i].name for i in jobs.get(job_type, [])] == theirs, (rank_dir.name, job_type)
        assert set(jobs) <= paddle_types


@pytest.mark.parametrize("name", PIPELINES)
def test_schedule_job_lists_match_paddles(name):
    for rank_dir in sorted((CORPUS / name).glob("rank*")):
        config = json.loads((rank_dir / "config.json").read_text())
        world, pp = config["world_size"], config["pp"]
        # Paddle's job list goes by rank // (world // pp), whatever the mesh's order of dims
        # (docs/deviations.md, "Pipeline stages are the stage meshes")
        stage = int(rank_dir.name[4:]) // (world // pp)
        ours = job_list(config["schedule"], pp, stage, config["micro_batches"], config["vpp"])
        theirs = [Job.parse(line) for line in (rank_dir / "jobs.txt").read_text().split()]
        assert ours == theirs


def test_a_failing_rank_stops_the_world_and_is_named():
    """Rank 1 lacks a parameter: it fails before running its first job, and rank 0, waiting for
    rank 1's gradient, stops instead of hanging; the error names rank 1 and the parameter."""
    from rulepass.runtime.comm.collectives import RankFailedError
    from rulepass.runtime.executor import MissingInputError

    config, reference, ranks, types, groups = load_config("pp2_1f1b")
    del ranks[1].scope["linear_3.w_0.dist"]
    with pytest.raises(RankFailedError) as info:
        train(ranks, steps=1, schedule="1F1B", num_stages=2, micro_batches=4, process_groups=groups,
              timeout=20)
    assert info.value.rank == 1
    assert isinstance(info.value.original, MissingInputError)
    assert "linear_3.w_0.dist" in str(info.value)
