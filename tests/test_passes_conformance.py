"""Conformance with Paddle 3.3.1: each pass of rules/ run on Paddle's input prints Paddle's output.

For every pass and every captured before/after pair of it in tests/data/paddle/<config>/rank<r>/
(see tools/capture_paddle.py), the pass runs on Paddle's "before" program and the printed result
must equal Paddle's "after" file byte for byte. Running the pass again on its own output must
change nothing.

The process groups of the capture (process_groups.json) are given to the program, as the header
of a hand-written file would; Paddle's dumps have no header, so the groups are dropped again
before printing.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "paddle"
RULES = Path(__file__).parent.parent / "rules"  # paddle.rw includes every pass tested here

from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program

#: pass -> (stage before it, stage after it), as tools/capture_paddle.py names the files.
PAIRS = {
    "complete_chunk_id": ("before_complete_chunk_id", "after_complete_chunk_id"),
    "grad_chunk": ("before_grad_chunk_id", "after_grad_chunk_id"),
    "prune_other_ranks": ("before_remove_other_rank_op_pass", "after_remove_other_rank_op_pass"),
    "check_chunk_id": ("before_check_chunk_id", "after_check_chunk_id"),
    "dist_to_dense": ("before_dist2dense", "after_dist2dense"),
    "drop_trivial_comm": ("after_dist2dense", "after_remove_unuseful_comm_op"),
}


def stage_file(rank_dir: Path, stage: str) -> Path | None:
    """The `NN_<stage>.pir` file of a rank folder, or None."""
    found = sorted(rank_dir.glob(f"[0-9][0-9]_{stage}.pir"))
    return found[0] if found else None


def captured_pairs() -> list:
    """(pass, config, rank, before file, after file) for every captured pair."""
    cases = []
    for name, (before, after) in PAIRS.items():
        for rank_dir in sorted(DATA.glob("*/rank*")):
            b, a = stage_file(rank_dir, before), stage_file(rank_dir, after)
            if b is not None and a is not None:
                cases.append(pytest.param(name, rank_dir, b, a,
                                          id=f"{name}-{rank_dir.parent.name}-{rank_dir.name}"))
    return cases


def pass_params(name: str, rank_dir: Path) -> dict:
    """The params Paddle ran the pass with: the capture's config and the rank."""
    config = json.loads((rank_dir / "config.json").read_text())
    if name == "complete_chunk_id":
        return dict(pp_degree=config["pp"], vpp_degree=config["vpp"],
                    seg_method=config["seg_method"])
    if name in ("prune_other_ranks", "dist_to_dense", "sp_fusion"):
        return dict(rank=config["rank"])
    return {}


def groups_of(rank_dir: Path) -> dict:
    """ring_id -> ranks from the capture's process_groups.json."""
    raw = json.loads((rank_dir / "process_groups.json").read_text())
    return {int(ring): tuple(ranks) for ring, ranks in raw.items()}


@pytest.fixture(scope="module")
def rules():
    return load_rules([RULES / "paddle.rw"])


def run(rules, name: str, text: str, rank_dir: Path) -> str:
    program = parse_program(text)
    program.process_groups = groups_of(rank_dir)
    rules.run_pass(program, name, **pass_params(name, rank_dir))
    program.process_groups = {}
    return print_program(program)


def first_difference(expected: str, actual: str) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "paddle",
                                      "rulepass", lineterm="", n=0))
    return "\n".join(line[:400] for line in lines[:12])


def test_every_pass_has_captured_pairs():
    names = {case.values[0] for case in captured_pairs()}
    assert names == set(PAIRS), f"passes without a captured pair: {set(PAIRS) - names}"


@pytest.mark.parametrize("name,rank_dir,before,after", captured_pairs())
def test_pass_reproduces_paddle(rules, name, rank_dir, before, after):
    expected = after.read_text()
    actual = run(rules, name, before.read_text(), rank_dir)
    assert actual == expected, f"{name} on {before} differs from Paddle:\n" + first_difference(
        expected, actual)


@pytest.mark.parametrize("name,rank_dir,before,after", captured_pairs())
def test_pass_twice_equals_once(rules, name, rank_dir, before, after):
    once = run(rules, name, before.read_text(), rank_dir)
    twice = run(rules, name, once, rank_dir)
    assert twice == once, f"{name} changed its own output:\n" + first_difference(once, twice)


def one_pair_per_pass() -> list:
    seen, cases = set(), []
    for case in captured_pairs():
        name = case.values[0]
        if name not in seen and name != "drop_trivial_comm":  # needs the groups header
            seen.add(name)
            cases.append(case)
    return cases


@pytest.mark.parametrize("name,rank_dir,before,after", one_pair_per_pass())
def test_command_line_reproduces_paddle(name, rank_dir, before, after, tmp_path):
    """`rulepass rewrite BEFORE --pass NAME -p ... -o OUT` writes Paddle's file."""
    import subprocess
    import sys

    out = tmp_path / "out.pir"
    args = [sys.executable, "-m", "rulepass", "rewrite", str(before), "--pass", name, "-o", str(out)]
    for key, value in pass_params(name, rank_dir).items():
        args += ["-p", f"{key}={value}"]
    done = subprocess.run(args, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == after.read_text()
