"""The optimizer step and gradient merge, against Paddle 3.3.1's programs."""

from pathlib import Path

import pytest

from rulepass.engine.paddle.backward import append_backward
from rulepass.chain import compile_rank
from rulepass.engine.api import load_rules
from rulepass.engine.paddle.optimizer import (
    append_optimizer,
    optimizer_state_initial_values,
    update_reshards,
)
from rulepass.example import find_example, load_example
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.paddle.grad import load_grad_definitions
from rulepass.engine.pir.verify import verify

CORPUS = Path(__file__).parent / "data" / "paddle"


def forward(cfg="pp2_fthenb", rank=0):
    path = CORPUS / cfg / f"rank{rank}" / "00_forward_dist.pir"
    return parse_program(path.read_text(), str(path))


@pytest.mark.parametrize("rank", [0, 1])
def test_learning_rate_and_sgd_ops_equal_paddles(rank):
    program = forward(rank=rank)
    result = append_backward(program, load_grad_definitions())
    append_optimizer(program, result.grads)
    verify(program)
    paddle = (CORPUS / "pp2_fthenb" / f"rank{rank}" / "03_before_remove_other_rank_op_pass.pir")
    pick = lambda text: [ln for ln in text.splitlines() if "sgd_" in ln or "learning_rate" in ln]
    ours, theirs = pick(print_program(program)), pick(paddle.read_text())
    assert len(ours) == 12
    assert ours == theirs


def test_gradient_merge_accumulates_averages_and_resets():
    program = forward()
    result = append_backward(program, load_grad_definitions())
    append_optimizer(program, result.grads, micro_batches=4)
    verify(program)
    assert len(program.kwargs) == 10
    assert all(kw.kwarg_name.endswith("@GRAD@MERGE") for kw in program.kwargs)
    ops = program.ops
    adds = [op for op in ops if op.name == "pd_op.add_"]
    assert len(adds) == 10
    for add in adds:  # accumulated right where the grad is made
        assert add.prev_op is add.operand(1).owner
        assert add.operand(0).kwarg_name is not None
    factors = [op.attributes["value"] for op in ops if op.name == "pd_op.full"
               and op.op_role == 2 and op.attributes["value"] != 0.0]
    assert factors == [0.25] * 10
    sgd = [op for op in ops if op.name == "pd_op.sgd_"]
    assert all(op.operand(2).owner.name == "pd_op.scale_" for op in sgd)
    resets = [op for op in ops if op.name == "pd_op.set_value_with_tensor_"]
    assert len(resets) == 10 and all(sgd[-1].is_before(r) for r in resets)
    # in place: the zeroed buffer keeps its own type (a sharded grad's, not the parameter's)
    assert all(r.results[0].type == r.operand(0).type for r in resets)


def test_adamw_creates_named_state_with_initial_values():
    program = forward()
    result = append_backward(program, load_grad_definitions())
    append_optimizer(program, result.grads, optimizer="adamw", hyper={"beta1": 0.8})
    verify(program)
    updates = [op for op in program.ops if op.name == "pd_op.adamw_"]
    assert len(updates) == 10 and all(op.op_role == 2 for op in updates)
    init = optimizer_state_initial_values(program, {"beta1": 0.8})
    assert init["linear_0.w_0.dist_moment1_0"] == ((8, 16), 0.0)
    assert init["linear_0.w_0.dist_beta1_pow_acc_0"] == ((1,), 0.8)


def test_unknown_optimizer_is_refused():
    program = forward()
    result = append_backward(program, load_grad_definitions())
    with pytest.raises(ValueError, match="unknown optimizer 'lamb'"):
        append_optimizer(program, result.grads, optimizer="lamb")


@pytest.mark.parametrize("optimizer,micro_batches", [("sgd", 1), ("sgd", 4), ("adamw", 2)])
def test_rank_local_updates_are_the_ranks_share_of_every_ranks(optimizer, micro_batches):
    # pp2_fthenb: stage 0 holds ranks [0], stage 1 [1]; each rank's updates are those on its mesh
    every = forward()
    grads = append_backward(every, load_grad_definitions()).grads
    all_ops = append_optimizer(every, grads, optimizer, micro_batches)
    for rank in (0, 1):
        program = forward()
        grads = append_backward(program, load_grad_definitions()).grads
        ops = append_optimizer(program, grads, optimizer, micro_batches, rank=rank)
        verify(program)
        mine = [op for op in all_ops if op.dist_attr.mesh.process_ids == (rank,)
                or op.name == "pd_op.data"]  # the learning rates of every mesh stay
        assert [op.name for op in ops] == [op.name for op in mine]
        assert 0 < len(ops) < len(all_ops)


def test_update_reshards_name_the_dp_grads_all_reduce():
    program = forward("dp2_pp2")
    grads = append_backward(program, load_grad_definitions()).grads
    pairs = update_reshards(program, grads)
    # every parameter of the dp2 x pp2 model: a Partial grad read replicated, on its own mesh
    assert len(pairs) == 10
    for src, dst in pairs:
        assert src.mesh == dst.mesh and src.dist.partial and not dst.dist.partial


@pytest.mark.parametrize("name", ["dp2_pp2", "gm_param_dp2_pp2_mp2", "llama_pp2_mp2_sp_vpp2"])
def test_process_groups_equal_on_every_rank_with_rank_local_updates(name):
    # dp2_pp2 numbers the groups of the dp all_reduces of both stages; a rank that built only
    # its own stage's updates must number them as the others (MPI creates groups collectively)
    example = load_example(find_example(name))
    par = example.parallel
    forward_program = parse_program(example.forward_text)
    rules = load_rules([], installed=True)
    tables, texts = [], {}
    for rank in range(par.world_size):
        for track in (False, True):  # track builds every rank's updates (origin keys need them)
            compiled = compile_rank(forward_program, rules, rank, pp=par.pp, vpp=par.vpp,
                                    seg_method=par.seg_method, micro_batches=par.micro_batches,
                                    optimizer=example.optimizer, schedule=par.schedule,
                                    track=track, trace=False)
            tables.append(compiled.program.process_groups)
            texts.setdefault(rank, set()).add(print_program(compiled.program))
    assert all(t == tables[0] for t in tables) and len(tables[0]) > 2
    assert all(len(t) == 1 for t in texts.values())  # the same program either way
