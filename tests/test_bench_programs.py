"""The benchmark's program generator writes exactly what Paddle captured for 4 layers."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from mlp_program import pipeline_mlp  # noqa: E402

from rulepass.engine.pir.parse import parse_program  # noqa: E402
from rulepass.engine.pir.verify import verify  # noqa: E402


def test_four_layers_are_byte_identical_to_paddles_capture():
    assert pipeline_mlp(4) == (ROOT / "examples" / "pp2_vpp2" / "forward.pir").read_text()


def test_more_layers_parse_verify_and_grow_linearly():
    small, large = parse_program(pipeline_mlp(8)), parse_program(pipeline_mlp(16))
    verify(small)
    verify(large)
    per_layer = (large.num_ops() - small.num_ops()) / 8
    assert per_layer == 9  # 4 parameters + matmul, add, relu, matmul, add


def test_odd_layer_counts_are_refused():
    with pytest.raises(ValueError, match="even number"):
        pipeline_mlp(3)
