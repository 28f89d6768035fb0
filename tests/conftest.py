"""Test-suite hooks.

``tests/pending_issue13.txt`` lists, one node id a line, the corpus-wide tests that fail on the
global-mesh captures (``tests/data/paddle/gm_*``, issue 13) until issue 13's work lands: the
parser refuses Paddle's two-placement print for a reshard onto a 1-D stage mesh, and there is
no lowering for global<->stage reshards yet. They are marked ``xfail(strict=True)``: each one
must keep failing, and whoever makes one pass deletes its line (an XPASS fails the suite).
"""

from __future__ import annotations

from pathlib import Path

import pytest

PENDING = Path(__file__).resolve().parent / "pending_issue13.txt"


def _pending() -> set[str]:
    if not PENDING.exists():
        return set()
    return {line.strip() for line in PENDING.read_text().splitlines()
            if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config, items):
    pending = _pending()
    if not pending:
        return
    mark = pytest.mark.xfail(strict=True, reason="issue 13: global-mesh captures not handled yet "
                                                 "(tests/pending_issue13.txt)")
    for item in items:
        if item.nodeid in pending:
            item.add_marker(mark)
