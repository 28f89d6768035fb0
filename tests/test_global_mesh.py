"""Global pipeline mesh (issue 13, PR #69628) where rulepass deviates from Paddle 3.3.1 on purpose
(docs/deviations.md): programs Paddle's chain raises on compile, and the cross-stage broadcasts
run in one order on every rank where Paddle's job lists order them differently."""

import json
from pathlib import Path

import pytest

from rulepass.chain import compile_rank
from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.example import load_example
from rulepass.runtime.global_jobs import (GlobalJobError, cross_stage, order_global_collectives,
                                          stage_function)
from rulepass.runtime.pipeline import split_jobs
from rulepass.runtime.schedules import Job, job_list

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "paddle"
BROADCASTS = ("pd_op.broadcast", "pd_op.c_broadcast")


@pytest.fixture(scope="module")
def rules():
    return load_rules([], installed=True)


def stage_file(rank_dir: Path, stage: str) -> Path:
    (path,) = sorted(rank_dir.glob(f"[0-9][0-9]_{stage}.pir"))
    return path


@pytest.mark.parametrize("cfg", ["gm_param_pp2_vpp2", "gm_input_pp2_vpp2",
                                 "gm_param_pp2_vpp2_3d", "gm_input_pp2_vpp2_3d",
                                 "gm_param_pp2_mp2_vpp2_3d", "gm_two_pp2_vpp2",
                                 "gm_tuple_pp2_vpp2", "gm_param_pp2_vpp2_some"])
@pytest.mark.parametrize("rank", [0, 1])
def test_complete_chunk_id_compiles_where_paddle_raises(cfg, rank, rules):
    rank_dir = CORPUS / cfg / f"rank{rank}"
    assert "Unsupported reshard function: SubToGlobalMeshFunction" in (
        rank_dir / "paddle_error.txt").read_text()
    config = json.loads((rank_dir / "config.json").read_text())
    program = parse_program(stage_file(rank_dir, "before_complete_chunk_id").read_text())
    rules.run_pass(program, "complete_chunk_id", pp_degree=config["pp"],
                   vpp_degree=config["vpp"], seg_method=config["seg_method"])
    layer_ops = 0
    for op in program.ops:
        d = op.dist_attr
        if d is None or op.name == "dist_op.reshard":
            continue
        # every operand is where the op computes with it: nothing left crossing stages
        for i, v in enumerate(op.operands):
            entry = d.operands[i] if i < len(d.operands) else None
            if v is not None and getattr(entry, "mesh", None) is not None \
                    and hasattr(v.type, "mesh"):
                assert v.type.mesh == entry.mesh, (op.name, i)
        if config["seg_method"] in op.attributes.get("struct_name", ""):
            layer_ops += 1
            assert d.chunk_id in (0, 1)
    assert layer_ops


def test_check_chunk_id_sets_every_chunk_where_paddle_raises(rules):
    rank_dir = CORPUS / "gm_gparam_pp2_vpp2" / "rank0"
    assert "The chunk_id of op[pd_op.full] is not set" in (rank_dir / "paddle_error.txt").read_text()
    program = parse_program(stage_file(rank_dir, "before_check_chunk_id").read_text())
    rules.run_pass(program, "check_chunk_id")
    for op in program.ops:
        if op.dist_attr is not None and op.op_role in (0, 1) and "chunk_id" not in op.attributes \
                and op.name not in ("dist_op.dtensor_from_local", "dist_op.dtensor_to_local"):
            assert op.dist_attr.chunk_id != -1, op.name


def broadcast_order(program, job_ops, jobs):
    """(ring_id, root) of each broadcast in the order the job list runs them."""
    ops = program.ops
    out = []
    for job in jobs:
        for i in job_ops.get(job.type, []):
            if ops[i].name in BROADCASTS:
                out.append((job.micro_batch, ops[i].attributes["ring_id"], ops[i].attributes["root"]))
    return [(ring, root) for _, ring, root in out]


def test_paddles_job_lists_order_the_broadcasts_differently_on_the_ranks():
    """Paddle's own 1F1B plan for a global parameter: stage 0 runs forward 0, forward 1 before
    backward 0, stage 1 forward 0, backward 0, forward 1; the broadcasts of forward 1 and of
    backward 0 meet in opposite orders (a deadlock on a real communicator)."""
    orders = []
    for rank_dir in sorted((CORPUS / "gm_param_pp2_1f1b").glob("rank*")):
        programs = {p.stem[len("job_"):]: parse_program(p.read_text())
                    for p in rank_dir.glob("job_*.pir")}
        jobs = [Job.parse(t) for t in (rank_dir / "jobs.txt").read_text().split()]
        order = []
        for job in jobs:
            order += [(op.attributes["ring_id"], op.attributes["root"])
                      for op in programs[job.type].ops if op.name in BROADCASTS]
        orders.append(order)
    assert sorted(orders[0]) == sorted(orders[1])  # the same calls ...
    assert orders[0] != orders[1]                  # ... in different orders


@pytest.mark.parametrize("name", ["gm_param_pp2_1f1b", "gm_param_pp2_vpp2", "gm_input_pp2_vpp2"])
def test_our_ranks_call_the_broadcasts_in_one_order(name, rules):
    example = load_example(ROOT / "examples" / name)
    par = example.parallel
    forward = parse_program(example.forward_text)
    plain, ordered = [], []
    for rank in range(par.world_size):
        program = compile_rank(forward, rules, rank, pp=par.pp, vpp=par.vpp,
                               seg_method=par.seg_method, micro_batches=par.micro_batches).program
        stage = rank // (par.world_size // par.pp)
        job_ops = split_jobs(program, par.schedule)
        jobs = job_list(par.schedule, par.pp, stage, par.micro_batches, par.vpp)
        plain.append(broadcast_order(program, job_ops, jobs))
        fixed_ops, fixed_jobs = order_global_collectives(
            program, job_ops, jobs, par.micro_batches,
            stage_function(program.process_groups, par.pp, rank))
        assert fixed_jobs[0] == Job("global_forward", 0)
        ordered.append(broadcast_order(program, fixed_ops, fixed_jobs))
    assert ordered[0] == ordered[1] and ordered[0]
    if name == "gm_param_pp2_1f1b":
        assert plain[0] != plain[1]  # what the schedule alone would do


def test_a_cross_stage_collective_after_a_receive_cannot_be_ordered():
    program = parse_program("""process_group 0 : [0,1]
{
    (%0) = "pd_op.recv_v2" () {dtype:float32,op_role:0,out_shape:[4],peer:0,ring_id:0} : () -> tensor<4xf32>
    (%1) = "pd_op.broadcast" (%0) {op_role:0,ring_id:0,root:0} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {op_role:0} : (tensor<4xf32>) -> tensor<4xf32>
}
""")
    job_ops = split_jobs(program, "1F1B")
    assert cross_stage(program.process_groups, program.ops[1], lambda r: r)
    with pytest.raises(GlobalJobError, match="needs a value received from another stage"):
        order_global_collectives(program, job_ops, job_list("1F1B", 2, 1, 2), 2, lambda r: r)


def test_the_error_names_the_collective_not_the_op_between():
    """A global layer computed from a received activation (the input of a later stage): the
    broadcast is named, not the op between it and the receive (gm_mid_pp4_1f1b's shape)."""
    program = parse_program("""process_group 0 : [0,1]
{
    (%0) = "pd_op.recv_v2" () {dtype:float32,op_role:0,out_shape:[4],peer:0,ring_id:0} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {op_role:0} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.broadcast" (%1) {op_role:0,ring_id:0,root:1} : (tensor<4xf32>) -> tensor<4xf32>
    (%3) = "pd_op.tanh" (%2) {op_role:0} : (tensor<4xf32>) -> tensor<4xf32>
}
""")
    job_ops = split_jobs(program, "1F1B")
    with pytest.raises(GlobalJobError, match=r"pd_op\.broadcast \(op 2\) is a collective"):
        order_global_collectives(program, job_ops, job_list("1F1B", 2, 1, 2), 2, lambda r: r)


def test_no_cross_stage_collective_leaves_the_jobs_alone():
    program = parse_program(ROOT.joinpath("tests/data/paddle/pp2_1f1b/rank0").glob(
        "*_dense_final.pir").__next__().read_text())
    job_ops = split_jobs(program, "1F1B")
    jobs = job_list("1F1B", 2, 0, 4)
    assert order_global_collectives(program, job_ops, jobs, 4, lambda r: r) == (job_ops, jobs)


def test_dp2_pp2_crossing_to_replicate_trains(tmp_path):
    """dp2 x pp2 with the stage crossing resharded to Replicate on stage 1 (what dist.parallelize's
    pre-hook writes, `[Replicate(), Replicate()]`): the backward reshard goes from Replicate on
    ranks [2,3] to Shard(0) on [0,1], which is split into a stage move and a same-mesh reshard
    (rules/global_reshard.rw) instead of stopping prune_other_ranks."""
    import shutil

    from rulepass.run import RunOptions, run_local, summarize

    shutil.copytree(ROOT / "examples" / "dp2_pp2", tmp_path / "ex")
    path = tmp_path / "ex" / "forward.pir"
    shard = "mesh_shape:[2],process_ids:[2,3],dims_mappings:[0,-1], placements:[Shard(dim=0)]"
    rep = "mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1], placements:[Replicate()]"
    lines = path.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if '"dist_op.reshard"' in line)
    name = lines[at].split(" = ")[0].strip().strip("()")
    head, sig = lines[at].split(" : ", 1)
    lines[at] = (head.replace("result(0):{" + shard + "}", "result(0):{" + rep + "}") + " : "
                 + sig.split(" -> ")[0] + " -> pd_dist.tensor<4x8xf32, " + rep + ">")
    for i in range(at + 1, len(lines)):
        if f"({name}," in lines[i] or f"({name})" in lines[i]:
            h, s = lines[i].split(" : ", 1)
            ins, outs = s.split(" -> ", 1)
            lines[i] = h + " : " + ins.replace(shard, rep, 1) + " -> " + outs
    path.write_text("\n".join(lines))
    example = load_example(tmp_path / "ex")
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert report.ok
    applied = report.rules.get("lower_global_reshard", {})
    assert applied.get("split_cross_mesh_placement_change", 0) >= 1


GOLDEN = ROOT / "tests" / "data" / "global_mesh"


def test_pp4_vpp2_reader_reshards_in_operand_order(rules):
    """pp4 vpp2, 8 blocks `relu(x + g)` each reading a global value (tests/data/global_mesh/, the
    shape of Paddle's gm_none_pp4_vpp2 capture, small). Block_3 lands on stage 3, whose reshard of
    g the group's first reader (Block_2) took to stage 2: its add needs a new stage reshard for x
    (operand 0) and a new global reshard for g (operand 1), made in operand order as Paddle's
    reshard_single_value makes them (before, the global one came first). The whole expected text
    is what Paddle's algorithm gives (checked against the capture's pattern: struct names kept on
    the reshards the fold keeps, none on the new ones)."""
    program = parse_program((GOLDEN / "pp4_vpp2_before_complete_chunk_id.pir").read_text())
    rules.run_pass(program, "complete_chunk_id", pp_degree=4, vpp_degree=2, seg_method="Block")
    expected = (GOLDEN / "pp4_vpp2_after_complete_chunk_id.pir").read_text()
    assert print_program(program) == expected
    ops = program.ops
    add = next(op for op in ops if op.attributes.get("struct_name") == "/Net/Block_3/"
               and op.name == "pd_op.add")
    x, g = (v.owner for v in add.operands)
    assert x.operands[0].owner.name == "pd_op.relu" and g.operands[0].owner.name == "pd_op.full"
    assert ops.index(x) < ops.index(g) < ops.index(add)
