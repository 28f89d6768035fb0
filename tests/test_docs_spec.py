"""docs/spec/ holds the contracts verbatim: each file equals its original in ../shared/spec (the
folder the specs come from, beside the repository) when that folder exists; README's links stay
inside the repository and name files that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "docs" / "spec"
SHARED = ROOT.parent / "shared" / "spec"


def test_the_specs_are_in_the_repository():
    assert {p.name for p in SPEC.glob("*.md")} >= {"cli.md", "program-format.md",
                                                     "rule-language.md", "parallel-plan.md"}


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/spec is not beside this checkout")
def test_docs_spec_equals_shared_spec():
    shared = {p.name: p.read_bytes() for p in SHARED.glob("*.md")}
    ours = {p.name: p.read_bytes() for p in SPEC.glob("*.md")}
    assert sorted(ours) == sorted(shared), "copy every ../shared/spec/*.md into docs/spec/"
    assert [n for n in shared if ours[n] != shared[n]] == [], "docs/spec differs from ../shared/spec"


@pytest.mark.parametrize("doc", ["README.md", "docs/rule-language.md", "docs/architecture.md",
                                 "docs/modules.md", "docs/program-format.md"])
def test_links_stay_inside_the_repository(doc):
    path = ROOT / doc
    for target in re.findall(r"\]\(([^)#\s]+)", path.read_text()):
        if target.startswith(("http://", "https://")):
            continue
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{doc}: link {target}"
