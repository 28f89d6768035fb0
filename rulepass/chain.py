"""The whole chain from a forward dist program to one dense program per rank.

A flat list of named steps (:data:`CHAIN`), in Paddle 3.3.1's order
(``python/paddle/distributed/auto_parallel/static/engine.py`` → ``pir_pass.py``):

    complete_chunk_id      VPP only (ZBVPP, ZBV: a V)      rules/complete_chunk_id.rw
    fold_global_copies     VPP only: a stage copies a global value from the global value,
                           not from another stage      rules/global_reshard.rw
    append_backward        grad definitions                rules/grad.rw, engine/paddle/backward.py
    grad_chunk                                             rules/grad_chunk.rw
    optimizer              sgd_ / adamw_, gradient merge   engine/paddle/optimizer.py
                           (the rank's parameters only, unless origins are tracked)
    partition              complete dist attributes        rules/partition.rw
    insert_reshards        a reshard before each reader needing another placement
                                                           engine/paddle/partition.py
    process_groups         every group lowering may use, numbered alike on every rank
                                                           engine/paddle/partition.py
    lower_global_reshard   global <-> stage mesh, and cross-mesh placement changes split
                                                           rules/global_reshard.rw
    lower_reshard          placement changes on one mesh   rules/reshard.rw
    lower_pipeline_reshard send/recv across stages         rules/pipeline_reshard.rw
    prune_other_ranks                                      rules/prune_other_ranks.rw
    check_chunk_id         VPP only                        rules/check_chunk_id.rw
    dist_to_dense                                          rules/dist_to_dense.rw
    drop_trivial_comm                                      rules/drop_trivial_comm.rw
    sp_fusion                                              rules/sp_fusion.rw
    split_backward         zero bubble only: B and W ops   rules/split_backward.rw

Rule passes run through the engine (fixpoint or sweep, traced, transactional); the three Python
steps build what Paddle builds in Python too. :func:`compile_rank` returns the rank's program and
a record of every step. A user's pass can run right after any step (``extra``: ``rulepass run
--add-pass NAME --after STEP``), given the params it declares from the chain's state (``rank``,
``pp_degree``, ``vpp_degree``, ``seg_method``, ``micro_batches``).

With ``track``, the chain also records what the localizer of ``rulepass run --localize`` needs:
each op's *origin* (a key computed after ``optimizer``, the last step that does not depend on
the rank when origins are tracked: it then builds every rank's updates; from the op's position
in the forward program, :func:`origin_keys`: equal keys name the same op on every rank and in
the single-device program of :func:`single_device_program`), each result's dist type just
before ``dist_to_dense``
(its placements: which piece of the global tensor the rank holds), and each op's provenance (the
pass and rule that last matched or created it).
"""

from __future__ import annotations

import contextlib
import gc
import time
from typing import Callable

import attrs

from rulepass.engine.api import RuleSet
from rulepass.engine.errors import RuleCompileError
from rulepass.engine.paddle.backward import append_backward
from rulepass.engine.ir.core import Program
from rulepass.engine.paddle.optimizer import append_optimizer, update_reshards
from rulepass.engine.paddle.partition import create_process_groups, insert_reshards
from rulepass.engine.paddle.grad import load_grad_definitions
from rulepass.engine.pir.verify import verify
from rulepass.runtime.sharding import dist_types


@attrs.define
class StepRecord:
    """One step of the chain: its name, what it applied (rule → count for rule passes), seconds
    (wall clock; `cpu_seconds`: this process's CPU time, what a benchmark on a shared machine
    reads), and the trace of rule applications (rule passes only: `trace`, made from the pass's
    `result` when first read)."""

    name: str
    applied: dict
    seconds: float
    result: object = None
    cpu_seconds: float = 0.0

    @property
    def trace(self) -> tuple:
        """The rule applications of a rule pass (empty for the other steps)."""
        return self.result.trace if self.result is not None else ()


@attrs.define
class CompiledRank:
    """A rank's dense program and how it was made. With ``track`` (see the module docstring):
    ``origins`` op -> its key (:func:`origin_keys`), ``placements`` result value -> its dist type
    before ``dist_to_dense``, ``provenance`` op -> (pass, rule, file, line); else None."""

    rank: int
    program: Program
    steps: list
    origins: dict | None = None
    placements: dict | None = None
    provenance: dict | None = None
    #: ``{"parameters": {name: type}, "data": {name: type}}``: the dist types of the rank's
    #: parameters and inputs just before ``dist_to_dense`` (after ``complete_chunk_id`` moved
    #: them: under VPP a layer's tensor-parallel weight may sit on another stage than the forward
    #: program says), what the rank's pieces of the global arrays are cut by
    dist_types: dict | None = None
    #: the random ops of the forward program it was compiled from
    #: (:class:`rulepass.random_draws.RandomModel`), None when it has none or nobody asked
    random_model: object = None


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
    schedule: str = ""
    provenance: dict | None = None
    #: whether rule passes trace the positions of the ops they match (``run --out`` writes them)
    trace_positions: bool = False
    #: whether rule passes record their applications (the steps' ``trace``)
    trace: bool = True
    #: whether the optimizer builds only the rank's updates (not when origins are tracked: an
    #: optimizer op's origin key is its ordinal among every rank's)
    local_updates: bool = False
    #: the reshards before every rank's updates (``optimizer.update_reshards``), for numbering
    #: their process groups alike on every rank
    update_reshards: list | None = None


@attrs.frozen
class Step:
    """A named step: ``run(state) -> applied`` (rule passes: the pass's RunResult), run only
    when ``when(state)``."""

    name: str
    run: Callable
    when: Callable = lambda state: True


def rule_pass(name: str, **params: Callable) -> Callable:
    """A step that runs rule pass ``name`` (returning its RunResult); each param is computed
    from the state."""

    def run(state: ChainState):
        return state.rules.run_pass(state.program, name, provenance=state.provenance,
                                    trace_positions=state.trace_positions, trace=state.trace,
                                    **{k: f(state) for k, f in params.items()})

    return run


def _backward(state: ChainState):
    state.backward = append_backward(state.program, state.grads)
    return {"grad ops": len(state.backward.grad_ops)}


def _optimizer(state: ChainState):
    grads = state.backward.grads
    state.update_reshards = update_reshards(state.program, grads)
    made = append_optimizer(state.program, grads, optimizer=state.optimizer,
                            micro_batches=state.micro_batches,
                            rank=state.rank if state.local_updates else None)
    return {"ops": len(made)}


def _insert_reshards(state: ChainState):
    made = insert_reshards(state.program)
    return {"reshards": len(made)} if made else {}


def _process_groups(state: ChainState):
    added = create_process_groups(state.program, state.update_reshards)
    return {"groups": added} if added else {}


def _rank(state: ChainState) -> int:
    return state.rank


def _vpp_only(state: ChainState) -> bool:
    return state.vpp > 1


def _zero_bubble_only(state: ChainState) -> bool:
    # Paddle splits the backward when it builds the zero-bubble job programs
    # (pipeline_vpp.py _partial_pir_programs with split_backward), i.e. on the dense program.
    return state.pp > 1 and state.schedule.lower() in ("zbh1", "zbvpp", "zbv")


CHAIN = [
    Step("complete_chunk_id", rule_pass("complete_chunk_id", pp_degree=lambda s: s.pp,
                                        vpp_degree=lambda s: s.vpp,
                                        seg_method=lambda s: s.seg_method,
                                        v_shape=lambda s: s.schedule.lower() in ("zbvpp", "zbv")),
         _vpp_only),
    Step("fold_global_copies", rule_pass("fold_global_copies"), _vpp_only),
    Step("append_backward", _backward),
    Step("grad_chunk", rule_pass("grad_chunk")),
    Step("optimizer", _optimizer),
    Step("partition", rule_pass("partition")),
    Step("insert_reshards", _insert_reshards),
    Step("process_groups", _process_groups),
    Step("lower_global_reshard", rule_pass("lower_global_reshard", rank=_rank)),
    Step("lower_reshard", rule_pass("lower_reshard", rank=_rank)),
    Step("lower_pipeline_reshard", rule_pass("lower_pipeline_reshard", rank=_rank)),
    Step("prune_other_ranks", rule_pass("prune_other_ranks", rank=_rank)),
    Step("check_chunk_id", rule_pass("check_chunk_id"), _vpp_only),
    Step("dist_to_dense", rule_pass("dist_to_dense", rank=_rank)),
    Step("drop_trivial_comm", rule_pass("drop_trivial_comm")),
    Step("sp_fusion", rule_pass("sp_fusion", rank=_rank)),
    Step("split_backward", rule_pass("split_backward"), _zero_bubble_only),
]


#: The params a user's pass (``extra``) may declare, computed from the chain's state.
EXTRA_PARAMS: dict[str, Callable] = {
    "rank": _rank,
    "pp_degree": lambda s: s.pp,
    "vpp_degree": lambda s: s.vpp,
    "seg_method": lambda s: s.seg_method,
    "micro_batches": lambda s: s.micro_batches,
}

#: The last step whose program is the same on every rank: origins are computed after it.
ORIGIN_STEP = "optimizer"


def extra_step(rules: RuleSet, name: str) -> Step:
    """The step running the user's pass ``name`` with the params it declares (EXTRA_PARAMS).
    Raises RuleCompileError for an unknown pass or a param the chain cannot give."""
    cpass = rules.find_pass(name)
    unknown = sorted(p for p, d in cpass.params.items()
                     if p not in EXTRA_PARAMS and d.default is None)
    if unknown:
        raise RuleCompileError(f"pass {name!r} declares param(s) {', '.join(unknown)} that the "
                               f"chain cannot give (it gives: {', '.join(EXTRA_PARAMS)})")
    return Step(name, rule_pass(name, **{p: EXTRA_PARAMS[p] for p in cpass.params
                                         if p in EXTRA_PARAMS}))


#: Steps the chain can run without: optimizations and checks (translation validation compares
#: the ranks' programs made with and without them, rulepass.validate).
OPTIONAL_STEPS = ("check_chunk_id", "drop_trivial_comm", "sp_fusion")


def chain_with(rules: RuleSet, extra=(), skip=()) -> list:
    """CHAIN with each user pass of ``extra`` ((pass, after step) pairs) right after its step,
    in the order given, without the steps named in ``skip`` (OPTIONAL_STEPS or user passes).
    Raises RuleCompileError naming an unknown step or pass, or a step that cannot be skipped."""
    names = [step.name for step in CHAIN]
    for name in skip:
        if name in names and name not in OPTIONAL_STEPS:
            raise RuleCompileError(f"the chain cannot run without step {name!r} (optional "
                                   f"steps: {', '.join(OPTIONAL_STEPS)})")
    steps = list(CHAIN)
    for name, after in extra:
        if after not in names:
            raise RuleCompileError(f"--after {after!r}: no such step of the chain (steps: "
                                   f"{', '.join(names)})")
        at = names.index(after) + 1
        while at < len(names) and names[at] in dict(extra) and names[at] != after:
            at += 1  # several passes after one step keep their order
        steps.insert(at, extra_step(rules, name))
        names.insert(at, name)
    return [step for step in steps if step.name not in skip]


def compile_rank(forward: Program, rules: RuleSet, rank: int, *, pp: int = 1, vpp: int = 1,
                 seg_method: str = "", micro_batches: int = 1, optimizer: str = "sgd",
                 grads=None, schedule: str = "", extra=(), track: bool = False,
                 skip=(), after_step=None, trace_positions: bool = False,
                 trace: bool = True) -> CompiledRank:
    """Rewrite a copy of ``forward`` into ``rank``'s dense program (``forward`` is unchanged),
    then check it with the dense verifier. ``schedule``: the pipeline schedule the program will
    run under (ZBH1 and ZBVPP add the split_backward step); ``extra``: (user pass, after step)
    pairs; ``track``: record origins, placements and provenance (see the module docstring);
    ``skip``: steps not to run (see :func:`chain_with`); ``after_step(name, program)``, when
    given, sees the program after every step that ran (``rulepass run --print-ir-after-all /
    --dump-dir``); ``trace_positions``: the rule passes' traces carry the positions of the ops
    each application matched and left (else -1); ``trace``: False records no trace (the steps'
    ``applied`` counts stay; ``trace_positions`` implies a trace).

    Raises the engine's errors (naming the pass, rule and op) when a step fails.
    """
    records: list[StepRecord] = []
    tracked: dict = {}
    types: dict = {}
    with _collector_paused():  # the copy too: the collector would walk the heap while it grows
        state = ChainState(forward.clone(), rules, rank, pp, vpp, seg_method, micro_batches,
                           optimizer, grads if grads is not None else load_grad_definitions(),
                           schedule=schedule, provenance={} if track else None,
                           trace_positions=trace_positions, trace=trace,
                           local_updates=not track)
        _run_steps(state, records, chain_with(rules, extra, skip), tracked if track else None,
                   after_step, types)
    verify(state.program, dense=True)
    return CompiledRank(rank, state.program, records, tracked.get("origins"),
                        tracked.get("placements"), state.provenance, types or None)


def single_device_program(forward: Program, rules: RuleSet, *, pp: int = 1, vpp: int = 1,
                          seg_method: str = "", micro_batches: int = 1, optimizer: str = "sgd",
                          grads=None) -> CompiledRank:
    """The single-device reference: a copy of ``forward`` made dense and global by
    ``dist_to_global`` (rules/dist_to_global.rw: reshards are identities, local regions run on
    the global tensor, every value dense with its global shape), then the chain's backward and
    optimizer steps (the same grad definitions and optimizer as every rank's; gradient merge over
    ``micro_batches``). Returned as rank -1 with ``origins`` (keys equal to a tracked rank's for
    the same op) and ``provenance``. Raises the engine's errors, or VerifyError when the result
    is not a dense program."""
    state = ChainState(forward.clone(), rules, -1, pp, vpp, seg_method, micro_batches,
                       optimizer, grads if grads is not None else load_grad_definitions(),
                       provenance={})
    records: list[StepRecord] = []
    names = [s.name for s in CHAIN]
    steps = [Step("dist_to_global", rule_pass("dist_to_global"))]
    steps += [step for step in CHAIN[:names.index(ORIGIN_STEP) + 1]
              if step.name != "complete_chunk_id"]  # chunks do not matter on one device
    tracked: dict = {}
    with _collector_paused():
        _run_steps(state, records, steps, tracked)
    verify(state.program, dense=True)
    return CompiledRank(-1, state.program, records, tracked.get("origins"), None,
                        state.provenance)


def origin_keys(program: Program, forward_index: dict) -> dict:
    """op -> a key naming the same op in every program made from one forward program: a forward
    op its position there (``("f", i)``); a grad op its forward op's key, name and ordinal among
    the grad ops of that forward op with that name (grad ops that only a distributed backward
    makes, such as the 1/dp scale of a Partial(AVG) loss's grad, come after the common ones);
    any other op (optimizer, gradient merge) its role, name and ordinal."""
    by_op_id = {op.attributes["op_id"]: op for op in program.block if "op_id" in op.attributes}
    counts: dict = {}
    keys = {}
    for op in program.block:
        key = forward_index.get(op)
        if key is not None:
            keys[op] = ("f", key)
            continue
        anchor = forward_index.get(by_op_id.get(op.attributes.get("grad_of", -1)))
        base = ("g", anchor, op.name) if anchor is not None else ("n", op.op_role, op.name)
        n = counts.get(base, 0)
        counts[base] = n + 1
        keys[op] = base + (n,)
    return keys


@contextlib.contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector while the chain runs: IR objects are many and
    long-lived, so its full collections would walk the whole program again and again (a third of
    the chain's time at 1,024 layers). On the way out, what the chain made goes straight to the
    oldest generation (``gc.freeze`` then ``gc.unfreeze``: two list splices), as the young
    collection that would follow promotes it: that collection walked every object the chain
    made (0.07 s at 1,024 layers) and freed none (erased ops are freed by their reference
    counts); cycles among them are found by the next full collection, as for any old object.
    Not when the host process keeps objects frozen itself (``gc.get_freeze_count()``): unfreezing
    would hand its frozen objects back to the collector."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()


def _run_steps(state: ChainState, records: list, steps=CHAIN, tracked: dict | None = None,
               after_step=None, types: dict | None = None) -> None:
    forward_index = ({op: i for i, op in enumerate(state.program.block)} if tracked is not None
                     else None)
    for step in steps:
        if tracked is not None and step.name == "dist_to_dense":
            tracked["placements"] = {r: r.type for op in state.program.walk()
                                     for r in op.results}
        if types is not None and step.name == "dist_to_dense":
            types.update(dist_types(state.program))
        if not step.when(state):
            continue
        start, cpu = time.perf_counter(), time.process_time()
        outcome = step.run(state)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if isinstance(outcome, dict):
            records.append(StepRecord(step.name, outcome, seconds, cpu_seconds=cpu))
        else:  # a rule pass's RunResult
            records.append(StepRecord(step.name, outcome.applied, seconds, outcome, cpu))
        if tracked is not None and step.name == ORIGIN_STEP:
            tracked["origins"] = origin_keys(state.program, forward_index)
        if after_step is not None:
            after_step(step.name, state.program)
