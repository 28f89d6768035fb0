"""``rulepass run --localize``: every op of every rank compared with the single-device run, and the
first op that diverges, named with the pass and rule that made it (issue 15).

The single-device program (float32, :mod:`rulepass.reference`) runs first with a
:class:`ReferenceRecorder` keeping each op's results per step and micro-batch, keyed by the op's
origin (:func:`rulepass.chain.origin_keys`: the same key on every rank). Then every rank trains
with a :class:`RankChecker` as its executor's observer: each result of an op with an origin is
mapped to the global tensor by the placements its value had before ``dist_to_dense`` — Shard: the
rank's slice of the reference, Replicate: the whole of it, Partial: not compared (a rank holds
one term of a sum) — and diverges when ``max|ours - ref| > rtol * max|ref| + atol`` (the example's
``[check]`` tolerances). Ops the chain made for one rank only (communication, reshard lowering)
have no single-device counterpart; their effect shows in the first op that reads them.

The *first divergence* is the op whose results diverge while all its compared operands match,
earliest in schedule order over all ranks. Ranks run on threads and every observation draws a
number from one counter, so the order respects what the ranks send each other: an op that reads a
message comes after the op that computed it on the sender. A rank's k-th run of an op within a
step is micro-batch k (every schedule runs the micro-batches of one job type in order).
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import attrs
import numpy as np

from rulepass.engine.ir.types import DenseTensorType, DistTensorType
from rulepass.runtime.sharding import ShardingError, local_piece


@attrs.define
class Divergence:
    """One op of one rank whose results differ from the single-device run: ``seq`` (its place in
    the run's order), rank, step, micro-batch, the op, the worst result's index, its max error and
    tolerance, and whether every compared operand matched."""

    seq: int
    rank: int
    step: int
    micro_batch: int
    op: object
    result: int
    error: float
    tolerance: float
    operands_match: bool


class ReferenceRecorder:
    """Observer of the single-device run: ``values[(step, micro_batch, key)] = (op name, arrays)``
    for every op with an origin ``key`` (copies: in-place ops replace arrays later)."""

    def __init__(self, origins: dict):
        self.origins = origins
        self.values: dict = {}
        self.step = 0
        self._runs: dict = {}

    def start_step(self, step: int) -> None:
        """Called before each step: micro-batches count again from 0."""
        self.step = step
        self._runs = {}

    def __call__(self, op, results: tuple) -> None:
        key = self.origins.get(op)
        if key is None:
            return
        m = self._runs.get(op, 0)
        self._runs[op] = m + 1
        self.values[(self.step, m, key)] = (op.name, tuple(
            np.array(r) if r is not None and not isinstance(r, list) else None for r in results))


def expected_piece(reference, placement, rank: int):
    """The piece of the global ``reference`` array a rank holds under ``placement`` (the value's
    type before ``dist_to_dense``), or None when it is not comparable (Partial, no type)."""
    if isinstance(placement, DistTensorType):
        if placement.dist.partial:
            return None
        try:
            return local_piece(reference, placement, rank)
        except ShardingError:
            return None
    if isinstance(placement, DenseTensorType):  # a local region's value: whole when it fits
        return reference
    return None


class RankChecker:
    """Observer of one rank's executor: compares each op's results with the reference (see the
    module docstring) and records every :class:`Divergence`.

    Args:
        rank: the rank. compiled: its CompiledRank, compiled with ``track=True``.
        reference: the ReferenceRecorder of the single-device run. rtol, atol: tolerances.
        clock: an ``itertools.count`` shared by all ranks (the run's order).
    """

    def __init__(self, rank: int, compiled, reference: ReferenceRecorder, rtol: float,
                 atol: float, clock):
        self.rank = rank
        self.compiled = compiled
        self.origins = compiled.origins or {}
        self.placements = compiled.placements or {}
        self.reference = reference
        self.rtol = rtol
        self.atol = atol
        self.clock = clock
        self.step = 0
        self.compared = 0
        self.divergences: list[Divergence] = []
        self._runs: dict = {}
        self._status: dict = {}   # (value, micro-batch) -> matched
        self._latest: dict = {}   # value -> matched, at its latest run

    def start_step(self, step: int) -> None:
        """Called before each step on the rank's thread."""
        self.step = step
        self._runs = {}

    def __call__(self, op, results: tuple) -> None:
        key = self.origins.get(op)
        if key is None:
            return
        m = self._runs.get(op, 0)
        self._runs[op] = m + 1
        entry = self.reference.values.get((self.step, m, key))
        if entry is None or entry[0] != op.name:
            return
        seq = next(self.clock)
        worst = None
        for k, (ours, ref) in enumerate(zip(results, entry[1])):
            if ref is None or ours is None or isinstance(ours, list) or k >= len(op.results):
                continue
            piece = expected_piece(ref, self.placements.get(op.results[k]), self.rank)
            if piece is None:
                continue
            ours = np.asarray(ours.get() if hasattr(ours, "get") else ours)
            if ours.shape != piece.shape:
                continue
            self.compared += 1
            if piece.size == 0:
                continue
            error = float(np.max(np.abs(ours.astype(np.float64) - piece.astype(np.float64))))
            tolerance = self.rtol * float(np.max(np.abs(piece))) + self.atol
            matched = error <= tolerance  # NaN diverges
            value = op.results[k]
            self._status[(value, m)] = matched
            self._latest[value] = matched
            if not matched and (worst is None or error > worst[1]):
                worst = (k, error, tolerance)
        if worst is None:
            return
        operands_match = all(self._status.get((v, m), self._latest.get(v, True))
                             for v in op.operands if v is not None)
        self.divergences.append(Divergence(seq, self.rank, self.step, m, op, worst[0], worst[1],
                                           worst[2], operands_match))


def value_number(program, op) -> int | None:
    """N of ``%N``, the printed name of ``op``'s first result in ``print_program(program)`` (a
    flat dense program: values are numbered in program order), or None for an op without
    results."""
    n = 0
    for other in program.walk():
        if other is op:
            return n if op.results else None
        n += len(other.results)
    return None


def first_divergence(checkers) -> Divergence | None:
    """The earliest divergence whose operands all match (else the earliest one), or None."""
    found = [d for c in checkers for d in c.divergences]
    if not found:
        return None
    causal = [d for d in found if d.operands_match] or found
    return min(causal, key=lambda d: d.seq)


def _made_by(compiled, op) -> tuple[str, tuple]:
    made = (compiled.provenance or {}).get(op)
    if made is None:
        return "made by the forward program (no rule rewrote it)", (None, None, None, None)
    pass_name, rule, file, line = made
    return (f"made by pass {pass_name} rule {rule} ({Path(file).name if file else '?'}:{line})",
            made)


def _compared(placement) -> bool:
    """Whether a result of this placement is compared with the single-device run (see
    :func:`expected_piece`): not a Partial one (a rank holds one term of a sum), not one with no
    type before ``dist_to_dense``."""
    if isinstance(placement, DistTensorType):
        return not placement.dist.partial
    return isinstance(placement, DenseTensorType)


def unchecked_inputs(compiled, op, limit: int = 8) -> list[str]:
    """What ``op`` reads that nothing compared, directly or through other such values, each as
    ``%K (op name) made by ..., why``: ops the chain made for one rank (communication, reshard
    lowering: no single-device counterpart) and ops whose results are Partial (one term of a sum
    is not compared). A divergence first seen at ``op`` may have been made at any of them (a
    rule that rewired a matmul whose Partial result an all_reduce sums shows first at the op
    reading the sum). At most ``limit`` items, nearest first."""
    out = []
    origins = compiled.origins or {}
    placements = compiled.placements or {}
    seen = set()
    queue = [(v, None) for v in op.operands]  # (value, the listed op reading it)
    while queue and len(out) < limit:
        value, reader = queue.pop(0)
        producer = value.owner if value is not None else None
        if producer is None or producer in seen:
            continue
        seen.add(producer)
        if producer not in origins:
            why = "which has no single-device counterpart"
        elif producer.results and not any(_compared(placements.get(r))
                                          for r in producer.results):
            why = "whose result is not compared (Partial: one term of a sum)"
        else:
            continue
        number = value_number(compiled.program, producer)
        where, _ = _made_by(compiled, producer)
        through = f" (read through %{reader})" if reader is not None else ""
        out.append(f"%{number} ({producer.name}){through} {where}, {why}")
        queue.extend((v, number) for v in producer.operands)
    return out


def describe(divergence: Divergence, compiled) -> dict:
    """The JSON-ready account of a divergence: rank, micro-batch, step, op, value, pass, rule,
    file, line, result, max error, tolerance, the one-line message, and ``unchecked_inputs``
    (see :func:`unchecked_inputs`)."""
    op = divergence.op
    number = value_number(compiled.program, op)
    where, (pass_name, rule, file, line) = _made_by(compiled, op)
    value = f"%{number}" if number is not None else "no result"
    line_text = (f"first divergence: rank {divergence.rank}, micro-batch {divergence.micro_batch}, "
                 f"op {op.name} ({value}) {where}")
    return {"rank": divergence.rank, "micro_batch": divergence.micro_batch,
            "step": divergence.step, "op": op.name, "value": value, "pass": pass_name,
            "rule": rule, "file": file, "line": line, "result": divergence.result,
            "max_error": divergence.error, "tolerance": divergence.tolerance,
            "message": line_text, "unchecked_inputs": unchecked_inputs(compiled, op)}


class Localizer:
    """The checkers of one run: ``checker(rank, compiled)`` makes a rank's observer; ``result()``
    the first divergence's account (None when none) and how many results were compared."""

    def __init__(self, reference: ReferenceRecorder, rtol: float, atol: float):
        self.reference = reference
        self.rtol = rtol
        self.atol = atol
        self.clock = itertools.count()
        self.checkers: dict[int, RankChecker] = {}
        self._lock = threading.Lock()

    def checker(self, rank: int, compiled) -> RankChecker:
        """The observer of ``rank`` (one per rank, kept across steps)."""
        with self._lock:
            if rank not in self.checkers:
                self.checkers[rank] = RankChecker(rank, compiled, self.reference, self.rtol,
                                                  self.atol, self.clock)
            return self.checkers[rank]

    def result(self) -> dict:
        """``{"compared": n, "diverged": ops, "first": account or None}``."""
        checkers = list(self.checkers.values())
        first = first_divergence(checkers)
        return {"compared": sum(c.compared for c in checkers),
                "diverged": sum(len(c.divergences) for c in checkers),
                "first": describe(first, self.checkers[first.rank].compiled) if first else None}
