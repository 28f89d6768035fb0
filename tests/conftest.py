"""Test-suite hooks.

``tests/pending_issue13.txt``, when present, lists one node id a line of corpus-wide tests known
to fail on new captures until the issue handling them lands; they are marked
``xfail(strict=True)``: each one must keep failing, and whoever makes one pass deletes its line
(an XPASS fails the suite). Issue 13's list (the global-mesh captures) is empty: the file is gone.
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
