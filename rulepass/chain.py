"""The whole chain from a forward dist program to one dense program per rank.

Reads top to bottom as a flat list of named steps, in Paddle 3.3.1's order
(``python/paddle/distributed/auto_parallel/static/engine.py`` → ``pir_pass.py``):

    complete_chunk_id      (VPP only)          rules/complete_chunk_id.rw
    append_backward        grad definitions    rules/grad.rw, engine/backward.py
    grad_chunk                                 rules/grad_chunk.rw
    optimizer              sgd_ / adamw_, gradient merge   engine/optimizer.py
    partition              complete dist attributes        rules/partition.rw
    lower_pipeline_reshard (across stages)     rules/pipeline_reshard.rw
    prune_other_ranks                          rules/prune_other_ranks.rw
    check_chunk_id         (VPP only)          rules/check_chunk_id.rw
    dist_to_dense                              rules/dist_to_dense.rw
    drop_trivial_comm                          rules/drop_trivial_comm.rw
    sp_fusion                                  rules/sp_fusion.rw

Each rule pass runs through the engine (fixpoint or sweep, traced, transactional); the two Python
steps build what Paddle builds in Python too. :func:`compile_rank` returns the rank's program and a
record of every step.
"""

from __future__ import annotations

import time

import attrs

from rulepass.engine.api import RuleSet
from rulepass.engine.backward import append_backward
from rulepass.engine.ir import Program
from rulepass.engine.optimizer import append_optimizer
from rulepass.engine.rw_grad import load_grad_definitions
from rulepass.engine.verify import verify


@attrs.define
class StepRecord:
    """One step of the chain: its name, the rules applied (rule → count), seconds, and the
    trace of rule applications (engine passes only)."""

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


def _rule_step(rules: RuleSet, program: Program, name: str, record: list, **params) -> None:
    start = time.perf_counter()
    result = rules.run_pass(program, name, **params)
    applied: dict = {}
    for application in result.trace:
        applied[application.rule] = applied.get(application.rule, 0) + 1
    record.append(StepRecord(name, applied, time.perf_counter() - start, result.trace))


def compile_rank(forward: Program, rules: RuleSet, rank: int, *, pp: int = 1, vpp: int = 1,
                 seg_method: str = "", micro_batches: int = 1, optimizer: str = "sgd",
                 grads=None) -> CompiledRank:
    """Rewrite a copy of ``forward`` into ``rank``'s dense program (``forward`` is unchanged).

    Raises the engine's errors (naming the pass, rule and op) when a step fails.
    """
    program = forward.clone()
    steps: list[StepRecord] = []
    if vpp > 1:
        _rule_step(rules, program, "complete_chunk_id", steps, pp_degree=pp, vpp_degree=vpp,
                   seg_method=seg_method)

    start = time.perf_counter()
    backward = append_backward(program, grads if grads is not None else load_grad_definitions())
    steps.append(StepRecord("append_backward", {"grad ops": len(backward.grad_ops)},
                            time.perf_counter() - start))
    _rule_step(rules, program, "grad_chunk", steps)

    start = time.perf_counter()
    made = append_optimizer(program, backward.grads, optimizer=optimizer,
                            micro_batches=micro_batches)
    steps.append(StepRecord("optimizer", {"ops": len(made)}, time.perf_counter() - start))

    for name, params in CHAIN_AFTER_OPTIMIZER:
        if name in VPP_ONLY and vpp == 1:
            continue
        _rule_step(rules, program, name, steps, **{k: rank for k in params})
    verify(program, dense=True)
    return CompiledRank(rank, program, steps)


#: Passes Paddle runs only with virtual pipeline stages (``pir_pass.py``).
VPP_ONLY = {"check_chunk_id"}

#: The rule passes after the optimizer, each with the params that take the rank.
CHAIN_AFTER_OPTIMIZER = [
    ("partition", ()),
    ("lower_pipeline_reshard", ("rank",)),
    ("prune_other_ranks", ("rank",)),
    ("check_chunk_id", ()),
    ("dist_to_dense", ("rank",)),
    ("drop_trivial_comm", ()),
    ("sp_fusion", ("rank",)),
]
