"""Example folders holding ``serial.pir`` + ``plan.toml`` instead of ``forward.pir``: ``rulepass run``
parallelizes them first (``rulepass/example.py``) and trains to Paddle's single-process losses and
final parameters; the program it parallelizes is Paddle's own forward dist program."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulepass.example import ExampleError, load_example
from rulepass.run import RunOptions, run_local, summarize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SERIAL_EXAMPLES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "serial.pir").exists())


def test_one_serial_example_per_kind_of_parallelism():
    plans = [(EXAMPLES / n / "plan.toml").read_text() for n in SERIAL_EXAMPLES]
    for kind in ("[pp]", "[mp]", "[dp]"):
        assert any(kind in p for p in plans), kind


@pytest.mark.parametrize("name", SERIAL_EXAMPLES)
def test_serial_example_matches_paddle(name):
    example = load_example(EXAMPLES / name)
    paddle = (ROOT / "tests" / "data" / "paddle" / name / "rank0" / "00_forward_dist.pir")
    if paddle.exists():  # the captured example: what we parallelized is what Paddle printed
        expected = re.sub(r"(mesh_shape:\[\d+\],process_ids:\[[\d,]*\],dims_mappings:\[[-\d,]*\], )"
                          r"placements:\[Replicate\(\), Replicate\(\)\]", r"\1placements:[Replicate()]",
                          paddle.read_text())
        assert example.forward_text == expected
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert len(result.losses) == example.steps and report.ok


def test_plan_degrees_must_match_the_config(tmp_path):
    copy = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "par_dp2", copy)
    plan = copy / "plan.toml"
    plan.write_text(plan.read_text().replace('dim_names = ["dp"]', 'dim_names = ["mp"]')
                    .replace("[dp]\nsharding_level = 0\n", ""))
    with pytest.raises(ExampleError, match="mp degree is 2 but config.toml says mp = 1"):
        load_example(copy)


def test_serial_and_forward_together_are_refused(tmp_path):
    copy = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "par_dp2", copy)
    (copy / "forward.pir").write_text("{\n}\n")
    with pytest.raises(ExampleError, match="both forward.pir and serial.pir"):
        load_example(copy)
