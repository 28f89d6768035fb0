"""Cross-stage broadcasts placed inside the schedule (runtime/global_jobs.py, "anchored"), under
every schedule: programs made here the way the chain makes a global layer computed from a
middle stage's activation (gm_mid_pp4_1f1b's shape), one per rank, trained on threads.

The model runs along the virtual stages v = 0 .. V-1: each adds 1 to what it receives; stage
``a`` (not the first: it computes from a received activation) broadcasts its result g to every
rank, and every later virtual stage adds g. In the backward each of those readers broadcasts its
grad contribution (from its own stage), and stage ``a`` adds them all to the grad it sends down.
Every rank holds every broadcast, in the global program's order (a zeros buffer where it is not
the root), as the chain prunes them. The run must finish (no rank waits forever) with the
numbers of the model, and every rank must call the broadcasts in one order.
"""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.runtime.executor import Executor
from rulepass.runtime.global_jobs import GlobalJobError, order_global_collectives
from rulepass.runtime.pipeline import RankProgram, StageRunner, rank_sites, split_jobs, train
from rulepass.runtime.schedules import job_list, uses_v_shape, virtual_stage

T = "tensor<4xf32>"


class _Writer:
    """One rank's program text, values numbered in order."""

    def __init__(self):
        self.lines, self.n = [], 0

    def op(self, name, operands, attrs, results=1):
        outs = [f"%{self.n + i}" for i in range(results)]
        self.n += results
        args = ", ".join(operands)
        types_in = ", ".join(T for _ in operands)
        types_out = ", ".join(T for _ in outs)
        lhs = f"({', '.join(outs)})" if outs else "()"
        self.lines.append(f'    {lhs} = "{name}" ({args}) {{{attrs}}} : ({types_in}) -> {types_out}')
        return outs[0] if outs else None


def mid_pipeline_programs(pp: int, vpp: int, v_shape: bool, anchor: int) -> list[str]:
    """Every rank's dense program (see the module doc); rank = stage."""
    count = pp * vpp
    where = {virtual_stage(s, c, pp, v_shape): (s, c) for s in range(pp) for c in range(vpp)}
    readers = [v for v in range(anchor + 1, count)]
    writers = [_Writer() for _ in range(pp)]
    last_chunk = [0] * pp  # chunk of each rank's latest op (a non-root copy takes it)

    def attrs(role, chunk, extra=""):
        return f"chunk_id:{chunk},op_role:{role}" + (f",{extra}" if extra else "")

    def full(w, role, chunk, value):
        return w.op("pd_op.full", [], attrs(role, chunk, f"dtype:float32,place:Place(cpu),"
                                                        f"shape:[4],value:{value}"))

    def broadcast_everywhere(root_stage, root_value, role, mine):
        """The broadcast on every rank, in one program position: the root's own value, a zeros
        buffer elsewhere; returns each rank's result."""
        out = []
        for s, w in enumerate(writers):
            chunk = mine[1] if s == root_stage else last_chunk[s]
            src = root_value if s == root_stage else full(w, role, chunk, 0)
            out.append(w.op("pd_op.broadcast", [src],
                            attrs(role, chunk, f"ring_id:0,root:{root_stage}")))
        return out

    # forward
    value, g = {}, None
    for v in range(count):
        s, c = where[v]
        w = writers[s]
        last_chunk[s] = c
        if v == 0:
            x = full(w, 0, c, 1)
        elif where[v - 1][0] == s:  # the V turns on this stage: no message
            x = value[v - 1]
        else:
            x = w.op("pd_op.recv_v2", [], attrs(0, c, f"dtype:float32,out_shape:[4],"
                                                      f"peer:{where[v - 1][0]},ring_id:1"))
        one = full(w, 0, c, 1)
        y = w.op("pd_op.add", [x, one], attrs(0, c))
        if v == anchor:
            g = broadcast_everywhere(s, y, 0, (s, c))
        if v in readers:
            y = w.op("pd_op.add", [y, g[s]], attrs(0, c))
        value[v] = y
        if v == count - 1:
            w.op("builtin.shadow_output", [y], attrs(0, c, 'output_name:"y_out"'), results=0)
        elif where[v + 1][0] != s:
            w.op("pd_op.send_v2", [y], attrs(0, c, f"peer:{where[v + 1][0]},ring_id:1"),
                 results=0)
    # backward
    contributions, grad = {}, {}
    for v in range(count - 1, -1, -1):
        s, c = where[v]
        w = writers[s]
        last_chunk[s] = c
        if v == count - 1:
            d = full(w, 1, c, 1)
        elif where[v + 1][0] == s:
            d = grad[v + 1]
        else:
            d = w.op("pd_op.recv_v2", [], attrs(1, c, f"dtype:float32,out_shape:[4],"
                                                      f"peer:{where[v + 1][0]},ring_id:1"))
        if v in readers:
            mine = w.op("pd_op.relu", [d], attrs(1, c))
            contributions[v] = broadcast_everywhere(s, mine, 1, (s, c))
        if v == anchor:
            for r in readers:
                d = w.op("pd_op.add", [d, contributions[r][s]], attrs(1, c))
        grad[v] = d
        if v == 0:
            w.op("builtin.shadow_output", [d], attrs(1, c, 'output_name:"grad_0"'), results=0)
        elif where[v - 1][0] != s:
            w.op("pd_op.send_v2", [d], attrs(1, c, f"peer:{where[v - 1][0]},ring_id:1"),
                 results=0)
    group = ",".join(str(s) for s in range(pp))
    header = f"process_group 0 : [{group}]\nprocess_group 1 : [{group}]\n"
    return [header + "{\n" + "\n".join(w.lines) + "\n}\n" for w in writers]


def expected(count: int, anchor: int) -> tuple[float, float]:
    """(forward output, input grad) of the model of the module doc."""
    x, g = 1.0, None
    for v in range(count):
        y = x + 1
        if v == anchor:
            g = y
        if v > anchor:
            y += g
        x = y
    return x, 1.0 + (count - 1 - anchor)


CASES = [  # schedule, pp, vpp, micro-batches, anchor virtual stage
    ("FThenB", 4, 1, 4, 2), ("1F1B", 4, 1, 4, 2), ("1F1B", 4, 1, 8, 1), ("1F1B", 2, 1, 4, 1),
    ("Eager1F1B", 4, 1, 8, 2), ("ZBH1", 4, 1, 4, 2), ("ZBH1", 3, 1, 5, 1),
    ("VPP", 2, 2, 4, 1), ("VPP", 2, 2, 4, 2), ("VPP", 4, 2, 4, 3), ("VPP", 2, 3, 4, 4),
    ("ZBVPP", 2, 2, 2, 1), ("ZBVPP", 4, 2, 4, 5),
]


def _runners(programs, schedule, pp, vpp, micro_batches):
    parsed = [parse_program(p) for p in programs]
    stages = list(range(pp))
    sites = {r: rank_sites(p, schedule, stages.__getitem__) for r, p in enumerate(parsed)}
    runners = [StageRunner(Executor(p, rank=r), schedule, stage=r, num_stages=pp,
                           micro_batches=micro_batches, vpp=vpp, stage_of=stages.__getitem__,
                           sites=sites) for r, p in enumerate(parsed)]
    return parsed, runners


def call_order(program, runner) -> list[tuple[int, int]]:
    """(program order among the broadcasts, micro-batch) of every broadcast the rank calls, in
    the order its job list calls them."""
    ops = list(program.block)
    number = {i: k for k, i in enumerate(i for i, op in enumerate(ops)
                                          if op.name == "pd_op.broadcast")}
    return [(number[i], job.micro_batch) for job in runner.jobs
            for i in runner.job_ops.get(job.type, []) if i in number]


@pytest.mark.parametrize("schedule, pp, vpp, micro_batches, anchor", CASES)
def test_every_rank_calls_the_broadcasts_in_one_order_and_the_step_finishes(
        schedule, pp, vpp, micro_batches, anchor):
    programs = mid_pipeline_programs(pp, vpp, uses_v_shape(schedule), anchor)
    parsed, runners = _runners(programs, schedule, pp, vpp, micro_batches)
    orders = [call_order(p, r) for p, r in zip(parsed, runners)]
    assert all(o == orders[0] for o in orders) and len(orders[0]) == micro_batches * (
        1 + pp * vpp - 1 - anchor)
    ranks = [RankProgram(p, {}, lambda step, m: {}, stage=r) for r, p in enumerate(parsed)]
    result = train(ranks, steps=1, schedule=schedule, num_stages=pp,
                   micro_batches=micro_batches, vpp=vpp, timeout=30)
    forward, grad = expected(pp * vpp, anchor)
    outputs = [o for per_rank in result.outputs for o in per_rank[0]]
    losses = [o["y_out"] for o in outputs if "y_out" in o]
    grads = [o["grad_0"] for o in outputs if "grad_0" in o]
    assert len(losses) == len(grads) == micro_batches
    for value in losses:
        np.testing.assert_array_equal(value, np.full(4, forward, np.float32))
    for value in grads:
        np.testing.assert_array_equal(value, np.full(4, grad, np.float32))


def test_without_every_ranks_sites_an_anchored_broadcast_is_named():
    """A rank that sees a broadcast it cannot move does not place it alone (the others, which
    could move theirs, would not know): without every rank's sites it is named."""
    programs = mid_pipeline_programs(4, 1, False, 2)
    program = parse_program(programs[2])  # the root's: computed from a received activation
    with pytest.raises(GlobalJobError, match=r"pd_op\.broadcast \(op \d+\) needs a value "
                                             r"received from another stage"):
        order_global_collectives(program, split_jobs(program, "1F1B"), job_list("1F1B", 4, 2, 4),
                                 4, lambda r: r, rank=2)


def test_a_cross_stage_all_reduce_that_cannot_move_is_an_error():
    """Only a broadcast has one rank that computes it; a cross-stage all_reduce of a received
    value has no single place in the schedule."""
    text = mid_pipeline_programs(2, 1, False, 1)
    programs = [parse_program(t.replace('"pd_op.broadcast"', '"pd_op.all_reduce"', 1))
                for t in text]
    sites = {r: rank_sites(p, "1F1B", lambda x: x) for r, p in enumerate(programs)}
    with pytest.raises(GlobalJobError, match="only a broadcast"):
        StageRunner(Executor(programs[1], rank=1), "1F1B", stage=1, num_stages=2,
                    micro_batches=4, stage_of=lambda x: x, sites=sites)


def test_a_reader_that_runs_before_the_broadcast_is_named():
    """Stage 0 reads, in its forward (op_role 0), what stage 1 broadcasts from its backward: no
    place serves it (the broadcast cannot run before stage 1's backward); the reader is named."""
    full = ('"pd_op.full" () {{chunk_id:0,op_role:{role},dtype:float32,place:Place(cpu),'
            'shape:[4],value:{value}}} : () -> ' + T)
    rank0 = "\n".join([
        "process_group 0 : [0,1]", "process_group 1 : [0,1]", "{",
        "    (%0) = " + full.format(role=0, value=1),
        f'    () = "pd_op.send_v2" (%0) {{chunk_id:0,op_role:0,peer:1,ring_id:1}} : ({T}) -> ',
        f'    (%1) = "pd_op.recv_v2" () {{chunk_id:0,dtype:float32,op_role:1,out_shape:[4],'
        f'peer:1,ring_id:1}} : () -> {T}',
        "    (%2) = " + full.format(role=1, value=0),
        f'    (%3) = "pd_op.broadcast" (%2) {{chunk_id:0,op_role:1,ring_id:0,root:1}} : ({T}) -> {T}',
        f'    (%4) = "pd_op.relu" (%3) {{chunk_id:0,op_role:0}} : ({T}) -> {T}',
        f'    () = "builtin.shadow_output" (%4) {{output_name:"y"}} : ({T}) -> ',
        "}", ""])
    rank1 = "\n".join([
        "process_group 0 : [0,1]", "process_group 1 : [0,1]", "{",
        f'    (%0) = "pd_op.recv_v2" () {{chunk_id:0,dtype:float32,op_role:0,out_shape:[4],'
        f'peer:0,ring_id:1}} : () -> {T}',
        f'    (%1) = "pd_op.relu" (%0) {{chunk_id:0,op_role:1}} : ({T}) -> {T}',
        f'    () = "pd_op.send_v2" (%1) {{chunk_id:0,op_role:1,peer:0,ring_id:1}} : ({T}) -> ',
        f'    (%2) = "pd_op.broadcast" (%1) {{chunk_id:0,op_role:1,ring_id:0,root:1}} : ({T}) -> {T}',
        "}", ""])
    parsed = [parse_program(rank0), parse_program(rank1)]
    sites = {r: rank_sites(p, "1F1B", lambda x: x) for r, p in enumerate(parsed)}
    with pytest.raises(GlobalJobError, match=r"pd_op\.relu \(op 5, job forward:0\) reads the "
                                             r"result of pd_op\.broadcast \(op 4"):
        StageRunner(Executor(parsed[0], rank=0), "1F1B", stage=0, num_stages=2,
                    micro_batches=2, stage_of=lambda x: x, sites=sites)
