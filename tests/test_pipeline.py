"""The pipeline runner on small programs: how ops are split into jobs, message keys, micro-batch
feeds, schedule checks and traces. (Paddle's captured programs: test_pipeline_corpus.py.)"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.runtime.executor import Executor
from rulepass.runtime.messages import p2p_ordinals
from rulepass.runtime.pipeline import (
    PipelineError,
    RankProgram,
    StageRunner,
    complete_op_roles,
    message_key,
    split_jobs,
    train,
)
from rulepass.runtime.schedules import Job, job_list
from rulepass.runtime.sharding import ShardingError, dist_types, micro_batch, rank_micro_batch
from rulepass.runtime.trace import write_chrome_trace

CORPUS = Path(__file__).parent / "data" / "paddle"


def op(result: str, name: str, operands: str, attrs: str, types: str) -> str:
    return f'    ({result}) = "{name}" ({operands}) {{{attrs}}} : {types}'


def relu(i: int, role: int, chunk: int | None = None) -> str:
    extra = f",chunk_id:{chunk}" if chunk is not None else ""
    return op(f"%{i + 1}", "pd_op.relu", f"%{i}", f"op_role:{role}{extra}",
              "(tensor<2xf32>) -> tensor<2xf32>")


def program_of(lines):
    head = ('    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_role:0,place:Place(undefined:0),'
            "shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>")
    return parse_program("{\n" + "\n".join([head, *lines]) + "\n}\n")


def test_three_way_split_carries_the_region_of_the_next_role():
    # Roles scanned from the end: an unset role (-1) or a loss role (256) joins the region after it.
    roles = [0, -1, 256, 1, -1, 1, 2, -1]
    lines = [relu(i, r) if r != -1 else relu(i, 0).replace("op_role:0", "x:1") for i, r in enumerate(roles)]
    jobs = split_jobs(program_of(lines), "FThenB")
    # op 0 is the data op (role 0); relus are ops 1..8
    assert jobs == {"forward": [0, 1], "backward": [2, 3, 4, 5, 6], "optimizer": [7, 8]}


def test_complete_op_roles_fills_unset_runs():
    p = program_of([relu(0, 0), relu(1, 0).replace("op_role:0", "x:1"), relu(2, 0), relu(3, 1)])
    assert complete_op_roles(p.ops) == [0, 0, 0, 0, 1]
    bad = program_of([relu(0, 0).replace("op_role:0", "x:1"), relu(1, 1)])
    with pytest.raises(PipelineError, match="between an op of role 0 and one of role 1"):
        complete_op_roles(bad.ops)


SEND = ('    () = "pd_op.send_v2" (%{i}) {{op_role:{role},peer:1,ring_id:12,chunk_id:{chunk}}} : '
        "(tensor<2xf32>) -> ")
RECV = ('    (%{r}) = "pd_op.recv_v2" () {{dtype:float32,op_role:{role},out_shape:[2],peer:0,ring_id:12,'
        "chunk_id:{chunk}}} : () -> tensor<2xf32>")


def test_1f1b_and_vpp_put_p2p_ops_in_their_own_jobs():
    lines = [
        RECV.format(r="1", role=0, chunk=0),
        relu(1, 0, 0),
        SEND.format(i=2, role=0, chunk=0),
        relu(2, 1, 0),
        RECV.format(r="4", role=1, chunk=0),
        SEND.format(i=3, role=1, chunk=0),
        relu(4, 2, -1),
    ]
    p = program_of([line.replace("chunk_id:0", "chunk_id:0") for line in lines])
    assert split_jobs(p, "1F1B") == {"forward": [0, 2, 3], "recv_forward": [1], "backward": [4, 5],
                                     "send_backward": [6], "optimizer": [7]}
    # The data op has chunk -1: VPP infers it from its neighbours (both chunk 0).
    p.ops[0].attributes["chunk_id"] = -1
    assert split_jobs(p, "VPP") == {"forward0": [0, 2, 3], "recv_forward0": [1], "backward0": [4, 5],
                                    "send_backward0": [6], "optimizer": [7]}


def test_vpp_refuses_what_paddle_refuses():
    with pytest.raises(PipelineError, match="op_role 256"):
        split_jobs(program_of([relu(0, 256, 0)]), "VPP")
    lonely = program_of([relu(0, 0, 0), relu(1, 0, 1), relu(2, 0, -1), relu(3, 0, 0), relu(4, 0, 1)])
    with pytest.raises(PipelineError, match="cannot infer the chunk_id of op 3"):
        split_jobs(lonely, "VPP")


def test_ops_in_a_job_type_the_schedule_never_runs_are_an_error():
    p = program_of([relu(0, 0, 0), relu(1, 0, 1), relu(2, 1, 1), relu(3, 1, 0), relu(4, 2)])
    p.ops[0].attributes["chunk_id"] = 0
    executor = Executor(p)
    with pytest.raises(PipelineError, match="never runs job type 'forward1'"):
        StageRunner(executor, "VPP", stage=0, num_stages=1, micro_batches=2, vpp=1)
    StageRunner(executor, "VPP", stage=0, num_stages=1, micro_batches=2, vpp=2)


def _p2p_messages(name, ordinals=False):
    """Every (sender, receiver, key) a pipeline configuration sends and receives in one step
    (keyed as the stage runner keys them with ``ordinals``, else by boundaries)."""
    sent, received = Counter(), Counter()
    for rank_dir in sorted((CORPUS / name).glob("rank*")):
        config = json.loads((rank_dir / "config.json").read_text())
        rank = int(rank_dir.name[4:])
        world, pp = config["world_size"], config["pp"]
        groups = {int(k): v for k, v in json.loads((rank_dir / "process_groups.json").read_text()).items()}
        (dense,) = rank_dir.glob("*dense_final.pir")
        program = parse_program(dense.read_text())
        jobs = split_jobs(program, config["schedule"])
        numbers = p2p_ordinals(program.ops) if ordinals else {}
        stage = rank // (world // pp)
        for job in job_list(config["schedule"], pp, stage, config["micro_batches"], config["vpp"]):
            for i in jobs.get(job.type, []):
                o = program.ops[i]
                if o.name not in ("pd_op.send_v2", "pd_op.recv_v2"):
                    continue
                peer = groups[o.attr("ring_id")][o.attr("peer")]
                key = message_key(o, job, stage, pp, ordinal=numbers.get(id(o)))
                if o.name == "pd_op.send_v2":
                    sent[(rank, peer, key)] += 1
                else:
                    received[(peer, rank, key)] += 1
    return sent, received


@pytest.mark.parametrize("ordinals", [False, True])
@pytest.mark.parametrize("name", ["pp2_1f1b", "pp2_vpp2", "dp2_pp2"])
def test_message_keys_pair_every_send_with_its_recv(name, ordinals):
    """Each key is used once per step and the receiver computes the sender's key, so activations
    and gradients (and micro-batches, and VPP chunks) can never be matched to the wrong recv."""
    sent, received = _p2p_messages(name, ordinals)
    assert sent == received
    assert set(sent.values()) == {1}
    directions = Counter(key[0] for _, _, key in sent)
    assert directions["forward"] == directions["backward"] > 0


def test_message_key_boundaries():
    p = parse_program("{\n" + RECV.format(r="0", role=0, chunk=1) + "\n" + SEND.format(i=0, role=0, chunk=1)
                      + "\n" + RECV.format(r="1", role=1, chunk=1) + "\n"
                      + SEND.format(i=1, role=1, chunk=1) + "\n}\n")

    recv_f, send_f, recv_b, send_b = p.ops
    job = Job("forward1", 3)
    # pp=2, stage 0, chunk 1: virtual stage 2. It receives from virtual 1 and sends to 3.
    assert message_key(recv_f, job, 0, 2) == ("forward", 1, 3, 12)
    assert message_key(send_f, job, 0, 2) == ("forward", 2, 3, 12)
    assert message_key(recv_b, job, 0, 2) == ("backward", 2, 3, 12)
    assert message_key(send_b, job, 0, 2) == ("backward", 1, 3, 12)
    # with its ordinal (the stage runner's key): micro-batch, ring and ordinal
    assert message_key(recv_f, job, 0, 2, ordinal=4) == ("forward", 3, 12, 4)
    assert message_key(send_b, job, 0, 2, ordinal=0) == ("backward", 3, 12, 0)
    assert p2p_ordinals(p.ops) == {id(recv_f): 0, id(send_f): 0, id(recv_b): 1, id(send_b): 1}


def test_a_value_sent_past_the_next_stage_pairs_by_its_ordinal():
    # pp4 vpp2: virtual stage 0 (stage 0) sends to virtual stage 7 (stage 3), past five others
    # (a residual, Paddle's default layout); stage 3 also receives stage 2's activations on
    # another ring. By boundaries the receiver took the link from virtual stage 6 and waited
    # forever; by ordinals each side counts its own sends (receives) on the ring.
    sender = parse_program("{\n" + RECV.format(r="0", role=0, chunk=0) + "\n"
                           + SEND.format(i=0, role=0, chunk=0) + "\n}\n")
    receiver = parse_program("{\n" + RECV.format(r="0", role=0, chunk=1) + "\n}\n")
    send, recv = sender.ops[1], receiver.ops[0]
    assert message_key(send, Job("forward0", 1), 0, 4, ordinal=p2p_ordinals(sender.ops)[id(send)]) \
        == message_key(recv, Job("forward1", 1), 3, 4,
                       ordinal=p2p_ordinals(receiver.ops)[id(recv)]) == ("forward", 1, 12, 0)
    # by boundaries they differ: 0 against 6
    assert message_key(send, Job("forward0", 1), 0, 4)[1] == 0
    assert message_key(recv, Job("forward1", 1), 3, 4)[1] == 6


def test_micro_batches_are_in_order_slices_then_dp_shards():
    batch = np.arange(32).reshape(8, 4)
    np.testing.assert_array_equal(micro_batch(batch, 4, 1), batch[2:4])
    with pytest.raises(ShardingError, match="3 micro-batches do not divide a batch of 8"):
        micro_batch(batch, 3, 0)
    # dp2_pp2's data type: a global micro-batch of 4 rows, Shard(0) over the 2 dp ranks of a stage.
    rank_dir = CORPUS / "dp2_pp2" / "rank3"
    (dist,) = rank_dir.glob("*before_dist2dense.pir")

    label_type = dist_types(parse_program(dist.read_text()))["data"]["label0"]
    np.testing.assert_array_equal(rank_micro_batch(batch, label_type, 3, 2, 1), batch[6:8])
    np.testing.assert_array_equal(rank_micro_batch(batch, label_type, 2, 2, 1), batch[4:6])


CHAIN = program_of([relu(0, 0), relu(1, 0),
                    '    () = "builtin.shadow_output" (%2) {output_name:"y"} : (tensor<2xf32>) -> ',
                    relu(2, 1)])


def test_feeds_must_match_the_micro_batch_count():
    runner = StageRunner(Executor(CHAIN), "FThenB", micro_batches=2)
    with pytest.raises(PipelineError, match="feeds for 1 micro-batches, the schedule runs 2"):
        runner.step([{"x": np.zeros(2, np.float32)}], {})


def test_train_writes_a_chrome_trace_and_frees_per_micro_batch(tmp_path):
    feeds = lambda step, m: {"x": np.full(2, step + m, np.float32)}  # noqa: E731
    result = train([RankProgram(CHAIN, {}, feeds)], steps=2, schedule="FThenB", micro_batches=2)
    assert [o["y"].tolist() for o in result.outputs[0][1]] == [[1, 1], [2, 2]]
    assert result.losses == [None, None]  # no loss_0 output
    path = write_chrome_trace(result.events, tmp_path / "trace.json")
    trace = json.loads(path.read_text())["traceEvents"]
    names = [e["name"] for e in trace if e["ph"] == "X"]
    assert names == ["forward:0", "forward:1", "backward:0", "backward:1", "optimizer:0"] * 2
    assert result.peak_live_values == [2]


def test_op_level_trace_events_nest_inside_their_job():
    feeds = lambda step, m: {"x": np.ones(2, np.float32)}  # noqa: E731
    result = train([RankProgram(CHAIN, {}, feeds)], steps=1, schedule="FThenB", micro_batches=2,
                   trace_ops=True)
    jobs = [e for e in result.events if e.category in ("forward", "backward", "optimizer")]
    ops = [e for e in result.events if e.category == "op"]
    # The shadow_output has no op_role, so it joins the region of the op after it: backward.
    assert [e.name for e in ops] == ["pd_op.data", "pd_op.relu", "pd_op.relu"] * 2 \
        + ["builtin.shadow_output", "pd_op.relu"] * 2
    for event in ops:  # each op lies within the job that ran it
        assert any(j.start <= event.start and event.start + event.duration <= j.start + j.duration + 1
                   for j in jobs)
