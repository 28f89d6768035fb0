"""The whole chain from a forward dist program to one dense program per rank.

A flat list of named steps (:data:`CHAIN`), in Paddle 3.3.1's order
(``python/paddle/distributed/auto_parallel/static/engine.py`` → ``pir_pass.py``):

    complete_chunk_id      VPP only                        rules/complete_chunk_id.rw
    append_backward        grad definitions                rules/grad.rw, engine/paddle/backward.py
    grad_chunk                                             rules/grad_chunk.rw
    optimizer              sgd_ / adamw_, gradient merge   engine/paddle/optimizer.py
    partition              complete dist attributes        rules/partition.rw
    insert_reshards        a reshard before each reader needing another placement
                                                           engine/paddle/partition.py
    process_groups         every group lowering may use, numbered alike on every rank
                                                           engine/paddle/partition.py
    lower_reshard          placement changes on one mesh   rules/reshard.rw
    lower_pipeline_reshard send/recv across stages         rules/pipeline_reshard.rw
    prune_other_ranks                                      rules/prune_other_ranks.rw
    check_chunk_id         VPP only                        rules/check_chunk_id.rw
    dist_to_dense                                          rules/dist_to_dense.rw
    drop_trivial_comm                                      rules/drop_trivial_comm.rw
    sp_fusion                                              rules/sp_fusion.rw

Rule passes run through the engine (fixpoint or sweep, traced, transactional); the three Python
steps build what Paddle builds in Python too. :func:`compile_rank` returns the rank's program and
a record of every step.
"""

from __future__ import annotations

import contextlib
import gc
import time
from typing import Callable

import attrs

from rulepass.engine.api import RuleSet
from rulepass.engine.paddle.backward import append_backward
from rulepass.engine.ir.core import Program
from rulepass.engine.paddle.optimizer import append_optimizer
from rulepass.engine.paddle.partition import create_process_groups, insert_reshards
from rulepass.engine.paddle.grad import load_grad_definitions
from rulepass.engine.pir.verify import verify


@attrs.define
class StepRecord:
    """One step of the chain: its name, what it applied (rule → count for rule passes), seconds,
    and the trace of rule applications (rule passes only)."""

    name: str
    applied: dict
    seconds: float
    trace: tuple = ()


@attrs.define
class CompiledRank:
    """A rank's dense program and how it was made."""

    rank: int
    program: Program
    steps: list


@attrs.define
class ChainState:
    """What the steps share while one rank is compiled."""

    program: Program
    rules: RuleSet
    rank: int
    pp: int
    vpp: int
    seg_method: str
    micro_batches: int
    optimizer: str
    grads: list
    backward: object = None
    #: whether rule passes trace the positions of the ops they match (``run --out`` writes them)
    trace_positions: bool = False


@attrs.frozen
class Step:
    """A named step: ``run(state) -> applied`` (rule passes: the engine's trace), run only
    when ``when(state)``."""

    name: str
    run: Callable
    when: Callable = lambda state: True


def rule_pass(name: str, **params: Callable) -> Callable:
    """A step that runs rule pass ``name``; each param is computed from the state."""

    def run(state: ChainState):
        result = state.rules.run_pass(state.program, name, trace_positions=state.trace_positions,
                                      **{k: f(state) for k, f in params.items()})
        return result.trace

    return run


def _backward(state: ChainState):
    state.backward = append_backward(state.program, state.grads)
    return {"grad ops": len(state.backward.grad_ops)}


def _optimizer(state: ChainState):
    made = append_optimizer(state.program, state.backward.grads, optimizer=state.optimizer,
                            micro_batches=state.micro_batches)
    return {"ops": len(made)}


def _insert_reshards(state: ChainState):
    made = insert_reshards(state.program)
    return {"reshards": len(made)} if made else {}


def _process_groups(state: ChainState):
    added = create_process_groups(state.program)
    return {"groups": added} if added else {}


def _rank(state: ChainState) -> int:
    return state.rank


def _vpp_only(state: ChainState) -> bool:
    return state.vpp > 1


CHAIN = [
    Step("complete_chunk_id", rule_pass("complete_chunk_id", pp_degree=lambda s: s.pp,
                                        vpp_degree=lambda s: s.vpp,
                                        seg_method=lambda s: s.seg_method), _vpp_only),
    Step("append_backward", _backward),
    Step("grad_chunk", rule_pass("grad_chunk")),
    Step("optimizer", _optimizer),
    Step("partition", rule_pass("partition")),
    Step("insert_reshards", _insert_reshards),
    Step("process_groups", _process_groups),
    Step("lower_reshard", rule_pass("lower_reshard", rank=_rank)),
    Step("lower_pipeline_reshard", rule_pass("lower_pipeline_reshard", rank=_rank)),
    Step("prune_other_ranks", rule_pass("prune_other_ranks", rank=_rank)),
    Step("check_chunk_id", rule_pass("check_chunk_id"), _vpp_only),
    Step("dist_to_dense", rule_pass("dist_to_dense", rank=_rank)),
    Step("drop_trivial_comm", rule_pass("drop_trivial_comm")),
    Step("sp_fusion", rule_pass("sp_fusion", rank=_rank)),
]


def compile_rank(forward: Program, rules: RuleSet, rank: int, *, pp: int = 1, vpp: int = 1,
                 seg_method: str = "", micro_batches: int = 1, optimizer: str = "sgd",
                 grads=None, trace_positions: bool = False) -> CompiledRank:
    """Rewrite a copy of ``forward`` into ``rank``'s dense program (``forward`` is unchanged),
    then check it with the dense verifier. ``trace_positions``: the rule passes' traces carry
    the positions of the ops each application matched and left (else -1).

    Raises the engine's errors (naming the pass, rule and op) when a step fails.
    """
    state = ChainState(forward.clone(), rules, rank, pp, vpp, seg_method, micro_batches,
                       optimizer, grads if grads is not None else load_grad_definitions(),
                       trace_positions=trace_positions)
    records: list[StepRecord] = []
    with _collector_paused():
        _run_steps(state, records)
    verify(state.program, dense=True)
    return CompiledRank(rank, state.program, records)


@contextlib.contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector while the chain runs: IR objects are many and
    long-lived, so its full collections would walk the whole program again and again (a third of
    the chain's time at 1,024 layers). Erased ops are freed in one collection at the end."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _run_steps(state: ChainState, records: list) -> None:
    for step in CHAIN:
        if not step.when(state):
            continue
        start = time.perf_counter()
        outcome = step.run(state)
        seconds = time.perf_counter() - start
        if isinstance(outcome, dict):
            records.append(StepRecord(step.name, outcome, seconds))
        else:
            applied: dict = {}
            for application in outcome:
                applied[application.rule] = applied.get(application.rule, 0) + 1
            records.append(StepRecord(step.name, applied, seconds, tuple(outcome)))
