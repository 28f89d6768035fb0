"""Chrome trace output: timed events per rank -> the JSON `traceEvents` format that Perfetto
(ui.perfetto.dev) and chrome://tracing open.

Each rank is shown as its own process (pid = rank) named "rank N"; each event is a complete event
(`"ph": "X"`) with its start `ts` and duration `dur` in microseconds. Format reference: the Trace
Event Format document (Google, "JSON Object Format", complete and metadata events).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

__all__ = ["TraceEvent", "chrome_trace", "write_chrome_trace", "JOB_KINDS", "job_counts"]

JOB_KINDS = ("global_forward", "recv_forward", "forward", "backward", "backward_b", "backward_w",
             "send_backward", "global_join", "global_late", "global_backward", "optimizer")
"""The categories of pipeline job events (a job's kind, `schedules.Job.kind`), in print order;
the ``global_*`` jobs hold collectives over several stages (``runtime/global_jobs.py``)."""


def _non_negative(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if value < 0:
        raise ValueError(f"trace event {attribute.name} must be >= 0 µs, got {value}")


@attrs.frozen
class TraceEvent:
    """One timed event: `name` on `rank`, from `start` for `duration` microseconds.

    `category` groups events in the viewer (e.g. "forward", "all_reduce"); `args` is shown when the
    event is selected and must be JSON-serialisable. Raises ValueError for a negative start or
    duration.
    """

    name: str
    rank: int
    start: float = attrs.field(validator=_non_negative)
    duration: float = attrs.field(validator=_non_negative)
    category: str = "compute"
    args: dict = attrs.field(factory=dict)


def job_counts(events: Iterable[TraceEvent]) -> dict[int, dict[str, int]]:
    """Per rank, how many pipeline jobs of each kind its events record (categories of JOB_KINDS;
    op and collective events are not counted), kinds in JOB_KINDS order."""
    counts: dict[int, dict[str, int]] = {}
    for event in events:
        if event.category in JOB_KINDS:
            per_rank = counts.setdefault(event.rank, {})
            per_rank[event.category] = per_rank.get(event.category, 0) + 1
    return {rank: {k: per_rank[k] for k in JOB_KINDS if k in per_rank}
            for rank, per_rank in sorted(counts.items())}


def chrome_trace(events: Iterable[TraceEvent]) -> dict:
    """The trace as a JSON-ready dict: {"traceEvents": [...], "displayTimeUnit": "ms"}.

    Contains a `process_name` metadata event per rank, then the events sorted by (rank, start).
    """
    events = sorted(events, key=lambda e: (e.rank, e.start))
    records: list[dict] = [
        {"name": "process_name", "ph": "M", "pid": rank, "tid": 0, "args": {"name": f"rank {rank}"}}
        for rank in sorted({e.rank for e in events})
    ]
    for event in events:
        records.append(
            {
                "name": event.name,
                "cat": event.category,
                "ph": "X",
                "ts": event.start,
                "dur": event.duration,
                "pid": event.rank,
                "tid": 0,
                "args": dict(event.args),
            }
        )
    return {"traceEvents": records, "displayTimeUnit": "ms"}


def write_chrome_trace(events: Iterable[TraceEvent], path: str | Path) -> Path:
    """Write `chrome_trace(events)` as JSON to `path` (parent folders are created); returns the path."""
    from rulepass.engine.files import write_text

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(chrome_trace(events), indent=1) + "\n")
    return path
