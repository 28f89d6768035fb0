"""The verifier: every Paddle program verifies; broken invariants are named with the op."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rulepass.engine.errors import VerifyError
from rulepass.engine.ir.core import Operation
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.verify import verify

CORPUS = Path(__file__).parent / "data" / "paddle"
DENSE_STAGES = ("after_dist2dense", "remove_unuseful_comm", "dense_final")
PROGRAMS = sorted(CORPUS.glob("**/*.pir"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_paddle_program_verifies(path):
    program = parse_program(path.read_text(), str(path))
    dense = any(s in path.name for s in DENSE_STAGES)
    warnings = verify(program, dense=dense)
    # the oddities Paddle writes: gradient-merge ops' dist attributes, and two placements on a
    # 1-D stage mesh (dist.parallelize's global-mesh pre-hook)
    for w in warnings:
        assert ("pd_op.add_" in w and "harmless" in w) or "placements for a 1-D process mesh" in w


DIST_OP = (
    '    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},'
    "operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]},"
    "result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1], placements:[Replicate()]},"
    "chunk_id:-1}} : (tensor<4xf32>) -> tensor<4xf32>\n"
)
DATA = '    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>\n'


def test_dense_check_uses_paddles_wording():
    program = parse_program("{\n" + DATA + DIST_OP + "}\n")
    assert verify(program) == []
    with pytest.raises(VerifyError, match=r"The op \[pd_op.relu\] still has op_dist_attr\."):
        verify(program, dense=True)
    dist = parse_program(
        "{\n    (%0) = \"pd_op.data\" () {} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],"
        "process_ids:[0,1],dims_mappings:[0], placements:[Shard(dim=0)]>\n}\n")
    with pytest.raises(VerifyError, match=r"Block op \[pd_op.data\] still contain dist type\."):
        verify(dist, dense=True)


def test_dist_attr_entry_count_mismatch_is_an_error():
    text = DIST_OP.replace("operand(0)", "operand(0):{mesh_shape:[2],process_ids:[0,1],"
                           "dims_mappings:[-1], placements:[Replicate()]},operand(1)")
    program = parse_program("{\n" + DATA + text + "}\n")
    with pytest.raises(VerifyError, match="2 operand entries for 1 operands") as info:
        verify(program)
    assert "pd_op.relu" in str(info.value)  # the op's printed line is shown


def test_dims_mapping_rank_mismatch_is_an_error():
    text = DIST_OP.replace("dims_mappings:[-1], placements:[Replicate()]},result",
                           "dims_mappings:[-1,-1], placements:[Replicate()]},result")
    program = parse_program("{\n" + DATA + text + "}\n")
    with pytest.raises(VerifyError, match=r"operand\(0\) has dims_mapping \[-1, -1\] of rank 2"):
        verify(program)


def test_use_before_definition_after_a_bad_move_is_caught():
    program = parse_program("{\n" + DATA + '    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> '
                            "tensor<4xf32>\n}\n")
    data, relu = program.ops
    late = Operation.create("pd_op.scale", [relu.result], [relu.result.type])
    program.block.insert_before(relu, late)  # reads relu's result before relu runs
    with pytest.raises(VerifyError, match="pd_op.scale: operand 0 is not defined before"):
        verify(program)


def test_cli_verify_reports_one_message_and_exit_1(tmp_path):
    bad = tmp_path / "bad.pir"
    bad.write_text("{\n" + DATA + DIST_OP + "}\n")
    run = subprocess.run([sys.executable, "-m", "rulepass", "verify", "--dense", str(bad)],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert "still has op_dist_attr" in run.stderr
    assert "Traceback" not in run.stderr


def test_cli_print_round_trips_a_paddle_dump():
    path = next(p for p in PROGRAMS if "forward_dist" in p.name)
    run = subprocess.run([sys.executable, "-m", "rulepass", "print", str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 0
    assert run.stdout == path.read_text()


def test_cli_usage_error_exits_2():
    run = subprocess.run([sys.executable, "-m", "rulepass", "print"], capture_output=True,
                         text=True)
    assert run.returncode == 2


def _binary(op: str, x: str, y: str, out: str):
    """A program of two inputs shaped ``x`` and ``y`` (``"2x4"``; ``""`` for 0-d) and ``op`` of
    them typed ``out``."""
    tx, ty, to = (f"tensor<{s + 'x' if s else ''}f32>" for s in (x, y, out))
    return parse_program("{\n"
                         f'    (%0) = "pd_op.data" () {{name:"x"}} : () -> {tx}\n'
                         f'    (%1) = "pd_op.data" () {{name:"y"}} : () -> {ty}\n'
                         f'    (%2) = "{op}" (%0, %1) {{}} : ({tx}, {ty}) -> {to}\n'
                         "}\n")


def _verifies(program, ok: bool, error: str) -> None:
    if ok:
        verify(program)
    else:
        with pytest.raises(VerifyError, match=error):
            verify(program)


@pytest.mark.parametrize("x,y,ok", [
    ("2x4x4", "2x4x4", True), ("2x4x4", "4", True), ("2x1x4", "3x1", True),
    ("-1x4", "2x4", True), ("4", "1", True), ("", "3", True),  # a 0-d operand broadcasts
    ("4x2x4", "2x4x4", False), ("2x4", "3", False), ("8", "4", False),
])
def test_elementwise_operands_must_broadcast(x, y, ok):
    # Paddle's ElementwiseInferMeta refuses the others as it builds the op
    dims = lambda s: [abs(int(d)) for d in s.split("x")] if s else []  # noqa: E731
    out = "x".join(map(str, np.broadcast_shapes(dims(x), dims(y)))) if ok else x
    _verifies(_binary("pd_op.subtract", x, y, out), ok,
              r"pd_op.subtract: operand shapes .* do not broadcast")


@pytest.mark.parametrize("op,x,y,out,ok", [
    ("pd_op.add", "2x8", "8", "2x8", True), ("pd_op.add", "-1x8", "8", "-1x8", True),
    ("pd_op.add", "2x1", "3", "2x3", True), ("pd_op.logical_and", "2x8", "8", "2x8", True),
    ("pd_op.add", "2x8", "8", "3x8", False), ("pd_op.add", "2x8", "8", "8", False),
    ("pd_op.less_than", "2x8", "2x8", "2x9", False), ("pd_op.logical_and", "2x8", "4", "2x8", False),
    ("pd_op.bitwise_and", "2x8", "4", "2x8", False),
])
def test_an_elementwise_result_is_the_broadcast_shape(op, x, y, out, ok):
    _verifies(_binary(op, x, y, out), ok, rf"{op}: (operand shapes|the result is typed)")
