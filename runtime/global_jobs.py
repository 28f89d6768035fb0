"""One order of cross-stage collectives on every rank: the jobs of a global pipeline mesh.

A layer on the global pp mesh (``dist.parallelize``'s ``global_spec``, PR #69628) gives each stage
its copy of a value with a ``pd_op.broadcast`` over a group holding ranks of several pipeline
stages (``rules/global_reshard.rw``), and its gradient comes back the same way. Every rank of the
group must call those broadcasts in the same order, but a pipeline schedule runs a different job
list on each stage: under 1F1B the first stage runs forward 0 and forward 1 before backward 0 while
the last runs forward 0, backward 0, forward 1, so the broadcasts of forward 1 and backward 0 meet
in opposite orders (Paddle 3.3.1's own job lists do this: a deadlock on a real communicator).

The order is fixed where the program is split into jobs. Each cross-stage collective (one per
micro-batch, "an instance") goes to one of four places, the same on every rank:

1. ``global_forward``: a forward collective that needs nothing received, on any rank, moves with
   the ops it needs to a job every stage runs for every micro-batch, in order, before the
   schedule;
2. ``global_backward``: a backward one whose result no other stage waits for, on any rank, moves
   with the ops that read it to a job run for every micro-batch after the schedule's last backward
   job and before the optimizer;
3. *anchored*: any other broadcast (its operand computed from a received activation: a global
   layer reading a middle stage's activation; or its result on the way to a send: the grad of such
   a layer) runs where its root computes it: in the root's own job ("the anchor": the job of the
   root's stage holding it, micro-batch m). The ranks of the root's stage call it inside that same
   job; every other rank calls it in a job of its own, ``global_join{k}`` (k: its position among
   the cross-stage collectives), placed in its job list as described below;
4. a collective of the optimizer stays there (every rank runs its optimizer job last).

A collective is anchored when, on some rank, it cannot move (1 or 2) or what it would move with
holds an anchored one; so the choice needs every rank's view: :func:`collective_sites` (one list
per rank, all of the same length, as the ranks' programs are pruned from one global program and
keep its op order) is computed for every rank by the caller (``rulepass run``: from every compiled
rank on threads, one ``allgather`` of these small lists under MPI).

**Where a rank joins an anchored collective, and why no rank waits forever.** Let T be the order
in which :func:`~rulepass.runtime.timeline.simulate_jobs` starts the jobs of every stage (a job
starts only after the jobs it waits for: the forward of the virtual stage before it, the backward
of the one after it, its own forward), one sequence of all jobs of the step. Every receive of a job
is matched by a send of a job earlier in T (sends never block), so running the jobs one at a time
in T's order never waits. Each anchored instance (k, m) takes the T position of its anchor job;
instances are ordered by (that position, program order), the same on every rank. A rank of
another stage calls it in ``global_join{k}`` right before its first job that comes later in T
(after its last schedule job when none does), so a rank meets the anchored instances in that
order, interleaved with its own jobs as T interleaves them; the ranks of the root's stage meet
them inside their jobs in the same order (a job's anchored instances in program order, and two of
their jobs in T's order). Now run T: when the anchor job reaches the collective, every other rank
has finished all its jobs before that point in T (each only waited for jobs earlier in T) and
every instance ordered before, and is waiting at this instance; so the collective completes, and
the anchor job goes on (what it receives later was sent earlier in T). By induction the whole step
completes. With (1) before the schedule, (2) after it and (4) last, the global order is: every
``global_forward`` instance, the anchored ones in T's order, every ``global_backward`` instance,
the optimizer's; no rank waits inside (1), (2) or (4), which hold no receive. The argument holds
for any job lists (FThenB, 1F1B, VPP, ZBH1, ZBVPP: their dependencies are T's), as long as each
anchored instance's readers on other ranks come after its anchor in T (a rank of stage t reading a
value stage s computes for micro-batch m reads it in a job that waits, through the pipeline's
sends, for s's job) and its operand there needs nothing received (Paddle gives such a rank a
zeros buffer). Both are checked: every op of a rank must run after the ops it reads, per
micro-batch, in the final job list (:func:`check_order`).

Raises :class:`GlobalJobError` naming the collective where no such place exists: a collective
that is not a broadcast and cannot move, an anchored one whose root's stage holds it in another
job on another rank, a reader that would run before it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

from rulepass.engine.errors import RuntimeFailure
from rulepass.engine.ir.core import Operation, Program
from .schedules import Job, virtual_stage

#: Collectives (not point-to-point: those are matched by message key) as Paddle names them.
COLLECTIVES = frozenset({
    "pd_op.broadcast", "pd_op.broadcast_", "pd_op.c_broadcast", "pd_op.c_broadcast_",
    "pd_op.all_reduce", "pd_op.all_reduce_", "pd_op.all_gather", "pd_op.c_allgather",
    "pd_op.reduce_scatter", "pd_op.c_reducescatter", "pd_op.barrier",
    *(f"pd_op.c_allreduce_{op}{tail}" for op in ("sum", "max", "min", "prod", "avg")
      for tail in ("", "_")),
})
_BROADCASTS = frozenset({"pd_op.broadcast", "pd_op.broadcast_", "pd_op.c_broadcast",
                         "pd_op.c_broadcast_"})
_P2P = frozenset({"pd_op.send_v2", "pd_op.p_send", "pd_op.recv_v2", "pd_op.p_recv"})
JOIN = "global_join"
LATE = "global_late"


class GlobalJobError(RuntimeFailure):
    """Cross-stage collectives that cannot be given one order on every rank."""

    kind = "pipeline error"


@attrs.frozen
class CollectiveSite:
    """One cross-stage collective as one rank's program holds it.

    ``name``: the op; ``job_type``: the job it is in on this rank; ``root``: a broadcast's root
    (a global rank), None for other collectives; ``movable``: whether it can move before the
    schedule (a forward one: the ops it needs, in the forward, receive nothing) or after it (a
    backward one: nothing that reads it, in the backward, sends); ``touches``: the positions
    (among the cross-stage collectives) of those met by that move, which must move too."""

    name: str
    job_type: str
    root: int | None
    movable: bool
    touches: tuple[int, ...] = ()


def cross_stage(groups: Mapping[int, Sequence[int]], op: Operation,
                stage_of: Callable[[int], int]) -> bool:
    """Whether ``op`` is a collective whose process group (``groups``: ring id -> ranks) holds
    ranks of several stages."""
    if op.name not in COLLECTIVES:
        return False
    group = groups.get(int(op.attributes.get("ring_id", -1)), ())
    return len({stage_of(r) for r in group}) > 1


def stage_function(groups: Mapping[int, Sequence[int]], num_stages: int,
                   rank: int) -> Callable[[int], int]:
    """``rank -> pipeline stage`` for Paddle's meshes, whose first dimension is pp: ``rank //
    (world // pp)``, the world being every rank the process groups (and ``rank``) name."""
    world = 1 + max([rank, *(r for g in groups.values() for r in g)])
    per_stage = max(1, world // max(1, num_stages))
    return lambda r: int(r) // per_stage


def _kind(job_type: str) -> str:
    """The job type without its chunk number, the split backward halves (zero bubble:
    ``backward_b``, ``backward_w``) counted as ``backward``."""
    kind = job_type.rstrip("0123456789")
    return "backward" if kind in ("backward_b", "backward_w") else kind


def _whole(job_type: str) -> str:
    """The job that runs a backward half whole (ZBH1 runs some backwards unsplit):
    ``backward_b1`` -> ``backward1``; other types unchanged."""
    kind = job_type.rstrip("0123456789")
    if kind in ("backward_b", "backward_w"):
        return "backward" + job_type[len(kind):]
    return job_type


def _phase(job_type: str) -> str:
    kind = _kind(job_type)
    return {"recv_forward": "forward", "send_backward": "backward"}.get(kind, kind)


def _types(job_ops: Mapping[str, list[int]]) -> dict[int, str]:
    """op position -> its job type; under ZBH1 the halves ``backward_b`` / ``backward_w`` rather
    than ``backward`` (the whole backward job, which lists the ops of both)."""
    out = {i: t for t, positions in job_ops.items() if t != "backward" for i in positions}
    for i in job_ops.get("backward", []):
        out.setdefault(i, "backward")
    return out


class _View:
    """One rank's program, its split and its cross-stage collectives."""

    def __init__(self, program: Program, job_ops: Mapping[str, list[int]],
                 stage_of: Callable[[int], int], groups: Mapping[int, Sequence[int]] | None):
        self.groups = program.process_groups if groups is None else groups
        self.ops = list(program.block)
        self.type_of = _types(job_ops)
        self.index = {id(op): i for i, op in enumerate(self.ops)}
        self.positions = [i for i, op in enumerate(self.ops)
                          if cross_stage(self.groups, op, stage_of)]
        self.number = {i: k for k, i in enumerate(self.positions)}

    def producers(self, i: int) -> list[int]:
        out = []
        for v in self.ops[i].operands:
            owner = getattr(v, "owner", None) if v is not None else None
            j = self.index.get(id(owner)) if owner is not None else None
            if j is not None:
                out.append(j)
        return out

    def readers(self, i: int) -> list[int]:
        return [j for r in self.ops[i].results for u in r.users()
                if (j := self.index.get(id(u))) is not None]

    def closure(self, k: int) -> tuple[bool, set, set]:
        """(movable, the ops that move with collective k, the collectives met) (see
        :class:`CollectiveSite`)."""
        start = self.positions[k]
        phase = _phase(self.type_of.get(start, ""))
        if phase not in ("forward", "backward"):
            return False, set(), set()
        step = self.producers if phase == "forward" else self.readers
        moved, met, stack, movable = set(), set(), [start], True
        while stack:
            for j in step(stack.pop()):
                if j in moved or j == start or _phase(self.type_of.get(j, "")) != phase:
                    continue
                if j in self.number:
                    met.add(self.number[j])
                elif self.ops[j].name in _P2P:
                    movable = False
                else:
                    moved.add(j)
                    stack.append(j)
        return movable, moved, met

    def root(self, k: int) -> int | None:
        op = self.ops[self.positions[k]]
        if op.name not in _BROADCASTS:
            return None
        group = list(self.groups.get(int(op.attributes.get("ring_id", -1)), ()))
        index = int(op.attributes.get("root", 0))
        return int(group[index]) if 0 <= index < len(group) else None


def collective_sites(program: Program, job_ops: Mapping[str, list[int]],
                     stage_of: Callable[[int], int],
                     groups: Mapping[int, Sequence[int]] | None = None) -> list[CollectiveSite]:
    """This rank's cross-stage collectives in program order (``job_ops`` its split,
    ``stage_of`` a rank's stage, ``groups`` ring id -> ranks, default the program's table): what
    every rank needs to know of every other to order them (see the module doc)."""
    view = _View(program, job_ops, stage_of, groups)
    sites = []
    for k, i in enumerate(view.positions):
        movable, _, met = view.closure(k)
        sites.append(CollectiveSite(view.ops[i].name, view.type_of.get(i, ""), view.root(k),
                                    movable, tuple(sorted(met))))
    return sites


def _anchored(tables: Mapping, own: list[CollectiveSite]) -> set[int]:
    """The collectives that cannot move on some rank, or whose move meets one that cannot."""
    anchored = {k for k in range(len(own)) if not all(t[k].movable for t in tables.values())
                and any(_phase(t[k].job_type) != "optimizer" for t in tables.values())}
    grown = True
    while grown:
        grown = False
        for k in range(len(own)):
            if k not in anchored and any(set(t[k].touches) & anchored for t in tables.values()):
                anchored.add(k)
                grown = True
    return anchored


def _check_tables(tables: Mapping, own: list[CollectiveSite], positions) -> None:
    """Every rank lists the same collectives, and one of the optimizer is there everywhere."""
    for rank, table in tables.items():
        names = [s.name for s in table]
        if names != [s.name for s in own]:
            raise GlobalJobError(
                f"rank {rank} holds the cross-stage collectives {names}, this rank "
                f"{[s.name for s in own]}: the ranks' programs must share them, in one order")
    for k, site in enumerate(own):
        phases = {_phase(t[k].job_type) == "optimizer" for t in tables.values()}
        if len(phases) > 1:
            raise GlobalJobError(
                f"{site.name} (op {positions[k]}) is in the optimizer on some ranks only; a "
                "cross-stage collective of the optimizer must be there on every rank")


def order_global_collectives(program: Program, job_ops: Mapping[str, list[int]],
                             jobs: Sequence[Job], micro_batches: int,
                             stage_of: Callable[[int], int],
                             groups: Mapping[int, Sequence[int]] | None = None, *,
                             rank: int | None = None,
                             sites: Mapping[int, Sequence[CollectiveSite]] | None = None,
                             stage_lists: Sequence[Sequence[Job]] | None = None,
                             vpp: int = 1, v_shape: bool = False) -> tuple[dict, list]:
    """``(job_ops, jobs)`` with the cross-stage collectives placed as the module doc says;
    unchanged when there are none.

    ``job_ops``: job type -> top-level op positions (:func:`~rulepass.runtime.pipeline.split_jobs`);
    ``jobs``: the stage's job list; ``stage_of(rank)``: a rank's pipeline stage; ``groups``: ring
    id -> ranks (default: the program's own table); ``rank``: this rank; ``sites``: every rank's
    :func:`collective_sites` (default: this rank's alone, which places those that can move; one
    that must run inside the schedule is then an error); ``stage_lists``: every stage's job list, ``vpp`` and
    ``v_shape`` their layout (for the order T of the module doc; needed by anchored ones).
    Raises GlobalJobError (see the module doc).
    """
    view = _View(program, job_ops, stage_of, groups)
    if not view.positions:
        return dict(job_ops), list(jobs)
    positions = view.positions
    own = collective_sites(program, job_ops, stage_of, view.groups)
    tables = dict(sites) if sites is not None else {rank: own}
    if rank is not None:
        tables[rank] = own
    _check_tables(tables, own, positions)
    anchored = _anchored(tables, own)

    forward, backward = set(), set()
    for k, i in enumerate(positions):
        if k in anchored or not own[k].movable:
            continue
        _, moved, _ = view.closure(k)
        target = forward if _phase(own[k].job_type) == "forward" else backward
        target.update(moved | {i})
    joins: dict[int, set] = {}  # k -> the ops of its global_join job on this rank
    anchors: dict[int, tuple[int, str]] = {}  # k -> (anchor stage, anchor job type)
    for k in sorted(anchored):
        anchors[k] = _anchor(k, view, own, tables if sites is not None else {}, stage_of)
        if rank is None or stage_of(rank) != anchors[k][0]:
            joins[k] = _join_ops(k, view, own)
        elif own[k].job_type != anchors[k][1]:
            raise GlobalJobError(
                f"{own[k].name} (op {positions[k]}) runs in {anchors[k][1]} on its root's "
                f"rank but in {own[k].job_type} on rank {rank} of the same stage: the stage's "
                "ranks cannot call it at one point")

    for k in joins:  # what a global_forward job makes already (before the schedule) stays there
        joins[k] -= forward
    schedule = _with_joins(list(jobs), joins, anchors, micro_batches, rank, stage_of,
                           stage_lists, vpp, v_shape, own, positions)
    # what a global_backward job reads too runs there (after global_late)
    late = _late_readers(view, own, joins, schedule) - backward
    moved = forward | backward | late | {i for ops_ in joins.values() for i in ops_}
    out = {t: [i for i in ps if i not in moved] for t, ps in job_ops.items()}
    if forward:
        out["global_forward"] = sorted(forward)
    if backward:
        out["global_backward"] = sorted(backward)
    for k, ops_ in joins.items():
        out[f"{JOIN}{k}"] = sorted(ops_)
    if late:
        out[LATE] = sorted(late)
    order = [Job("global_forward", m) for m in range(micro_batches)] if forward else []
    tail = [Job(LATE, m) for m in range(micro_batches)] if late else []
    tail += [Job("global_backward", m) for m in range(micro_batches)] if backward else []
    placed = False
    for job in schedule:
        if tail and not placed and job.kind == "optimizer":
            order.extend(tail)
            placed = True
        order.append(job)
    if tail and not placed:
        order.extend(tail)
    check_order(program, out, order)
    return out, order


def _anchor(k: int, view: _View, own, tables, stage_of) -> tuple[int, str]:
    """(stage, job type) of anchored collective k: where its root computes it."""
    site, where = own[k], f"{own[k].name} (op {view.positions[k]})"
    if site.root is None:
        raise GlobalJobError(
            f"{where} is a collective over several pipeline stages that can run neither before "
            "nor after the schedule on every rank, and only a broadcast (whose root computes "
            "it) can be placed inside the schedule")
    root_site = tables.get(site.root)
    if root_site is None:  # without every rank's sites the other ranks could not know
        raise GlobalJobError(
            f"{where} needs a value received from another stage (or another stage waits for "
            f"its result), so it runs inside the schedule where its root, rank {site.root}, "
            "computes it; placing it needs every rank's collective sites (run_rank's `sites`)")
    return stage_of(site.root), root_site[k].job_type


def _join_ops(k: int, view: _View, own) -> set[int]:
    """Collective k and what it needs from its own job on a rank that joins it (Paddle gives
    such a rank a zeros buffer to broadcast into)."""
    start = view.positions[k]
    job, out = view.type_of.get(start, ""), {start}
    _walk_job(view, start, job, view.producers, out, lambda j: (
        f"{own[k].name} (op {start}) is called by this rank at its root's point of the "
        f"schedule, but its operand here needs {view.ops[j].name} (op {j}) of its job {job}"))
    return out


def _walk_job(view: _View, start: int, job: str, step, seen: set[int], blocked) -> None:
    """Add to ``seen`` the ops of job ``job`` reached from op ``start`` through ``step``
    (``view.producers`` or ``view.readers``), not past ops already in ``seen``.

    Raises:
        GlobalJobError: ``blocked(j)`` for a send, receive or collective ``j`` reached.
    """
    stack = [start]
    while stack:
        for j in step(stack.pop()):
            if j in seen or view.type_of.get(j, "") != job:
                continue
            if view.ops[j].name in _P2P or j in view.number:
                raise GlobalJobError(blocked(j))
            seen.add(j)
            stack.append(j)


def _with_joins(jobs: list[Job], joins, anchors, micro_batches, rank, stage_of, stage_lists,
                vpp, v_shape, own, positions) -> list[Job]:
    """``jobs`` with the ``global_join{k}`` instances inserted at their place in T."""
    if not joins:
        return jobs
    if stage_lists is None or rank is None:
        k = next(iter(joins))
        raise GlobalJobError(f"{own[k].name} (op {positions[k]}) runs inside the schedule; "
                             "placing it needs every stage's job list and this rank")
    at = {(stage_lists[s][p].type, s, stage_lists[s][p].micro_batch): n
          for n, (s, p) in enumerate(linear_order(stage_lists, vpp, v_shape))}
    mine = stage_of(rank)
    instances = []
    for k in joins:
        stage, job_type = anchors[k]
        for m in range(micro_batches):
            n = at.get((job_type, stage, m), at.get((_whole(job_type), stage, m)))
            if n is None:
                raise GlobalJobError(
                    f"{own[k].name} (op {positions[k]}) runs in {job_type} on stage {stage}, "
                    f"which stage {stage}'s job list does not run for micro-batch {m}")
            instances.append((n, k, m))
    instances.sort()
    out, waiting = [], list(instances)
    for job in jobs:
        if job.kind != "optimizer":
            n = at[(job.type, mine, job.micro_batch)]
            while waiting and waiting[0][0] < n:
                out.append(Job(f"{JOIN}{waiting[0][1]}", waiting.pop(0)[2]))
        else:
            out.extend(Job(f"{JOIN}{k}", m) for _, k, m in waiting)
            waiting = []
        out.append(job)
    out.extend(Job(f"{JOIN}{k}", m) for _, k, m in waiting)
    return out


def _late_readers(view: _View, own, joins, schedule: list[Job]) -> set[int]:
    """The readers of joined collectives that would run before the join: on a rank that only
    joins (its copy is read by nothing that leaves the rank: Paddle's dead ``share_data_`` of
    another stage's copy, the sum of a grad another stage keeps), they move, with what reads
    them in their job, to ``global_late``, run for every micro-batch after the schedule's last
    job. Raises GlobalJobError when such a reader leads to a send or a collective."""
    place = {(job.type, job.micro_batch): n for n, job in enumerate(schedule)}
    late: set[int] = set()
    for k in joins:
        start = view.positions[k]
        job = own[k].job_type
        whole = _whole(job)
        joined = {m: n for (t, m), n in place.items() if t == f"{JOIN}{k}"}
        runs = {m: place.get((job, m), place.get((whole, m), len(schedule))) for m in joined}
        if all(runs[m] > joined[m] for m in joined):
            continue  # the join runs before its job on every micro-batch
        _walk_job(view, start, job, view.readers, late, lambda j: (
            f"{own[k].name} (op {start}) runs where its root computes it, after this rank's "
            f"{job} job, whose {view.ops[j].name} (op {j}) needs its result: the schedule "
            "cannot give this rank the value in time"))
    return late


def linear_order(stage_lists: Sequence[Sequence[Job]], vpp: int = 1,
                 v_shape: bool = False) -> list[tuple[int, int]]:
    """T of the module doc: every job of every stage (``stage_lists[s]``) as ``(stage, position
    in its list)``, each after the jobs its receives wait for. A receive of the forward (in
    ``recv_forward{c}``, else in ``forward{c}``) of virtual stage v waits for the ``forward`` of
    v - 1, which sends; a receive of the backward (in ``backward{c}`` / ``backward_b{c}``) waits
    for the job of v + 1 that sends its input grad: ``send_backward``, else ``backward_b``, else
    ``backward`` (``pipeline.split_jobs`` puts the sends there). Stages take turns, each running
    what it can; raises GlobalJobError when the lists deadlock."""
    pp = len(stage_lists)
    last = pp * vpp - 1
    index = [{(job.type, job.micro_batch): p for p, job in enumerate(jobs)}
             for jobs in stage_lists]
    where = {}  # (virtual stage, chunk suffix) -> (stage, chunk)
    for s in range(pp):
        for c in range(vpp):
            where[virtual_stage(s, c, pp, v_shape)] = (s, c)

    def suffix(c: int, s: int) -> str:
        return str(c) if any(job.type[-1:].isdigit() for job in stage_lists[s]) else ""

    def sender(v: int, m: int, forward: bool) -> tuple[int, int] | None:
        s, c = where[v]
        kinds = ("forward",) if forward else ("send_backward", "backward_b", "backward")
        for kind in kinds:
            p = index[s].get((kind + suffix(c, s), m))
            if p is not None:
                return s, p
        return None

    def waits(s: int, job: Job) -> tuple[int, int] | None:
        v = virtual_stage(s, job.chunk, pp, v_shape)
        own = {(t, m) for t, m in index[s]}
        if job.kind == "recv_forward" or (job.kind == "forward" and (
                "recv_forward" + job.type[len("forward"):], job.micro_batch) not in own):
            return sender(v - 1, job.micro_batch, True) if v > 0 else None
        if job.kind in ("backward", "backward_b") and v < last:
            return sender(v + 1, job.micro_batch, False)
        return None

    done: set = set()
    order: list[tuple[int, int]] = []
    cursor = [0] * pp
    progress = True
    while progress:
        progress = False
        for s in range(pp):
            while cursor[s] < len(stage_lists[s]):
                need = waits(s, stage_lists[s][cursor[s]])
                if need is not None and need not in done:
                    break
                done.add((s, cursor[s]))
                order.append((s, cursor[s]))
                cursor[s] += 1
                progress = True
    stuck = [f"stage {s} at {stage_lists[s][cursor[s]]}" for s in range(pp)
             if cursor[s] < len(stage_lists[s])]
    if stuck:
        raise GlobalJobError("the job lists deadlock: " + "; ".join(stuck))
    return order


def check_order(program: Program, job_ops: Mapping[str, list[int]], jobs: Sequence[Job]) -> None:
    """Every top-level op reads values its micro-batch's jobs have made before it (``optimizer``
    runs in micro-batch 0's environment, as the runner does). Raises GlobalJobError naming the
    op, the value's maker and their jobs."""
    ops = list(program.block)
    index = {id(op): i for i, op in enumerate(ops)}
    type_of = _types(job_ops)
    done: dict[int, set] = {}
    for job in jobs:
        made = done.setdefault(job.micro_batch, set())
        for i in job_ops.get(job.type, []):
            for v in ops[i].operands:
                owner = getattr(v, "owner", None) if v is not None else None
                j = index.get(id(owner)) if owner is not None else None
                if j is not None and j not in made:
                    raise GlobalJobError(
                        f"{ops[i].name} (op {i}, job {job}) reads the result of {ops[j].name} "
                        f"(op {j}, job {type_of.get(j, 'none')}) before it runs: the "
                        "cross-stage collectives cannot be placed for this schedule")
            made.add(i)


__all__ = ["COLLECTIVES", "JOIN", "LATE", "CollectiveSite", "GlobalJobError", "cross_stage",
           "stage_function", "collective_sites", "order_global_collectives", "linear_order",
           "check_order"]
