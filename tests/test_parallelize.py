"""`rulepass parallelize`: a serial program and a plan give Paddle's forward dist program.

Conformance: for every capture with ``serial.pir`` + ``plan.toml`` (``tools/capture_paddle.py``
through ``dist.parallelize``), our output equals Paddle 3.3.1's ``00_forward_dist.pir`` byte for
byte, except the two-placement quirk Paddle prints for a reshard onto a one-dimensional stage mesh
(``placements:[Replicate(), Replicate()]`` with one dims_mapping entry), where the spec lets us
print the single right placement. Bad plans: one located line, exit status 1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_process import rulepass
from rulepass.cli.main import main
from rulepass.engine.api import load_rules
from rulepass.engine.paddle.plan import PlanError, load_plan
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.parallelize import parallelize

CORPUS = Path(__file__).resolve().parent / "data" / "paddle"
#: data parallel on a mesh dimension other than the first: Paddle's shard_dataloader marks the
#: batch Shard(0) on the mesh's first dimension while its sampler splits it by the dp rank; we
#: shard it along "dp", as the plan says (docs/deviations.md)
#: (told from the plan, so that captures we do not have are judged alike)


def dp_not_first(config: Path) -> bool:
    """Whether the plan's "dp" is not the first dimension of its stage meshes (the mesh's
    dimensions without "pp"): the case of the deviation."""
    stage_dims = [d for d in load_plan((config / "plan.toml").read_text()).dim_names if d != "pp"]
    return "dp" in stage_dims and stage_dims[0] != "dp"


PLANNED = sorted(p for p in CORPUS.iterdir() if (p / "plan.toml").is_file())
DP_NOT_FIRST = [p.name for p in PLANNED if dp_not_first(p)]
CAPTURES = [p.name for p in PLANNED if not dp_not_first(p)]
# a reshard onto a 1-D mesh: Paddle hard-codes two placements (pipeline_parallel.py pre-hook)
QUIRK = re.compile(r"(mesh_shape:\[\d+\],process_ids:\[[\d,]*\],dims_mappings:\[[-\d,]*\], )"
                   r"placements:\[Replicate\(\), Replicate\(\)\]")


@pytest.fixture(scope="module")
def rules():
    return load_rules([], installed=True)


def paddle_forward(config: str) -> str:
    text = (CORPUS / config / "rank0" / "00_forward_dist.pir").read_text()
    return QUIRK.sub(r"\1placements:[Replicate()]", text)


def test_captures_cover_every_kind_of_parallelism():
    kinds = {k for c in CAPTURES for k in ("pp", "mp", "dp")
             if f"[{k}]" in (CORPUS / c / "plan.toml").read_text()}
    assert kinds == {"pp", "mp", "dp"} and len(CAPTURES) >= 20


@pytest.mark.parametrize("config", CAPTURES)
def test_parallelize_reproduces_paddle(config, rules):
    program = parse_program((CORPUS / config / "serial.pir").read_text(), filename="serial.pir")
    parallelize(program, (CORPUS / config / "plan.toml").read_text(), rules)
    assert print_program(program) == paddle_forward(config)


SMALL = Path(__file__).resolve().parent / "data" / "global_mesh" / "parallelize"


@pytest.mark.parametrize("config", sorted(p.name for p in SMALL.iterdir()))
def test_parallelize_reproduces_paddle_on_small_captures(config, rules):
    """Captures kept only as serial program, plan and Paddle's forward dist program
    (``forward_dist.pir``): ``gm_chain_pp2_1f1b``, a second global layer reading the first's
    output on the global mesh, whose ``full`` constant goes on the global mesh (the mesh of the
    op that first reads it: Paddle's builder converts a dense operand to its reader's mesh);
    ``gm_mid_two_pp4_1f1b``, a global layer with a parameter registered first but called after
    block 1 of pp4, whose parameter stays on stage 0 (the stage of its registration order);
    ``gm_gsplit_pp3``, a split layer also in global_spec: its output goes to the next stage,
    then onto the global mesh, then back (Paddle chains the layer's forward post-hooks; an
    outside trial found only the first move)."""
    root = SMALL / config
    program = parse_program((root / "serial.pir").read_text(), filename="serial.pir")
    parallelize(program, (root / "plan.toml").read_text(), rules)
    paddle = QUIRK.sub(r"\1placements:[Replicate()]", (root / "forward_dist.pir").read_text())
    assert print_program(program) == paddle


DATA_PLACEMENT = re.compile(r'"pd_op\.data" \(\) \{[^\n]*name:"(\w+)"[^\n]*?result\(0\):\{mesh_shape:'
                            r'\[[\d,]*\],process_ids:\[[\d,]*\],dims_mappings:\[([-\d,]*)\]')


@pytest.mark.parametrize("config", DP_NOT_FIRST)
def test_dp_shards_the_batch_along_dp_not_along_the_first_mesh_dimension(config, rules):
    program = parse_program((CORPUS / config / "serial.pir").read_text())
    plan = (CORPUS / config / "plan.toml").read_text()
    ours = dict(DATA_PLACEMENT.findall(print_program(parallelize(program, plan, rules))))
    paddle = dict(DATA_PLACEMENT.findall(paddle_forward(config)))
    dims = load_plan(plan).dim_names
    stage_dims = [d for d in dims if d != "pp"]
    assert stage_dims[0] != "dp"  # the case: dp is not the stage mesh's first dimension
    for name in ("input0", "label0"):
        assert paddle[name].split(",")[0] == "0"  # Paddle: mesh dim 0 (not dp)
        assert ours[name].split(",")[0] == str(stage_dims.index("dp"))


def test_an_input_read_on_another_stage_is_a_plan_error(tmp_path, capsys):
    root = CORPUS / "par_pp2_two_inputs"
    plan = tmp_path / "plan.toml"
    plan.write_text((root / "plan.toml").read_text().split("[inputs]")[0])
    assert main(["parallelize", str(root / "serial.pir"), "--plan", str(plan)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "input input1 is on stage 1 but pd_op.matmul (Linear) reads it on stage 0" in err
    assert "[inputs] input1 = { stage = 0 }" in err


def test_quirk_normalisation_touches_only_one_dimensional_meshes():
    text = (CORPUS / "gm_none_pp2_1f1b_3d" / "rank0" / "00_forward_dist.pir").read_text()
    assert "placements:[Replicate(), Replicate()]" in text
    assert QUIRK.sub("X", text) == text  # 2-D stage meshes: two placements are right


def test_command_line_prints_only_the_program(tmp_path):
    root = CORPUS / "par_pp2_mp2"
    r = rulepass("parallelize", str(root / "serial.pir"), "--plan", str(root / "plan.toml"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == paddle_forward("par_pp2_mp2")
    out = tmp_path / "dist.pir"
    r = rulepass("parallelize", str(root / "serial.pir"), "--plan", str(root / "plan.toml"),
                 "-o", str(out))
    assert r.returncode == 0 and r.stdout == "" and out.read_text() == paddle_forward("par_pp2_mp2")


SERIAL = CORPUS / "par_pp2_str" / "serial.pir"
GOOD = '[mesh]\nshape = [2]\ndim_names = ["pp"]\n\n[pp]\nsplit_spec = "MyLinear"\n'


MP = GOOD.replace("[2]", "[2, 2]").replace('["pp"]', '["pp", "mp"]')


@pytest.mark.parametrize("plan, where, message", [
    (GOOD + "stages = 2\n", "7:1", "unknown key 'stages' in [pp]"),
    ("[mesh]\nshape = [2]\ndim_names = [\"pp\"]\n[tp]\nx = 1\n", "4:2", "unknown section [tp]"),
    (GOOD.replace('"MyLinear"', '"Block"'), "6:14", "split_spec 'Block' matches no layer"),
    (MP + '[mp]\nplan = { "MyLinear*/Lin" = "ColWiseParallel" }\n', "8:10",
     "mp plan key 'MyLinear*/Lin' matches no layer"),
    # a key of a [mp.plan] table
    (MP + '[mp.plan]\n"MyLinear*/Linear" = "ColWiseParallel"\n"Nothing" = "RowWiseParallel"\n',
     "9:1", "mp plan key 'Nothing' matches no layer"),
    (GOOD.replace("[2]\n", "[2]\nworld_size = 4\n"), "3:1", "multiply to 2, not to world_size 4"),
    (GOOD + "degree = 4\n", "7:1", "[pp] degree 4 is not the mesh's pp size 2"),
    (GOOD.replace("[2]", "[8]"), "6:1", "more stages than layers"),
    (GOOD.replace('"MyLinear"', '{ "MyLinear_1" = "beginning" }'), "6:16", 'must be "end"'),
    (GOOD.replace('dim_names = ["pp"]', 'dim_names = ["pp", "dp"]'), "3:1", "name 2 dimensions"),
    (GOOD.replace('["pp"]', '["pq"]'), "3:14", "unknown mesh dimension 'pq'"),
    # a bad placement kind, a bad option, a value of the wrong type
    (MP + '[mp]\nplan = { "MyLinear*/Linear" = "ColumnParallel" }\n', "8:10",
     "unknown mp plan kind 'ColumnParallel'"),
    (MP + '[mp]\nplan = { "MyLinear*/Linear" = { kind = "ColWiseParallel", gather = true } }\n',
     "8:10", "unknown or non-boolean option(s) gather"),
    (MP + '[mp]\nplan = { "MyLinear*/Linear" = 3 }\n', "8:10", "expected a kind name"),
    (GOOD + '[inputs]\ninput0 = { stage = "middle" }\n', "8:1", 'expected { stage = "first" }'),
    # c_split needs a "dp" mesh dimension, c_concat a 3-D tensor (Paddle asserts both)
    (MP + '[mp]\nplan = { "MyLinear" = "SequenceParallelBegin" }\n', "8:10",
     'needs a "dp" mesh dimension'),
    ('[mesh]\nshape = [1, 2]\ndim_names = ["dp", "mp"]\n[mp]\nplan = { "Linear" = '
     '{ kind = "ColWiseParallel", gather_output = true } }\n', "5:10",
     "c_concat takes a 3-D [batch, seq, hidden] tensor"),
    ('[mesh]\nshape = [2]\ndim_names = ["dp"]\n[dp]\nsharding_level = 4\n', "5:1",
     "sharding_level must be 0, 1, 2 or 3"),
    # malformed TOML
    (GOOD + "split_spec = 1\n", "7:15", "not valid TOML: Cannot overwrite a value"),
    (GOOD.replace("[2]", "[2"), "3:1", "not valid TOML: Unclosed array"),
    (GOOD.replace('"MyLinear"', "MyLinear"), "6:14", "not valid TOML: Invalid value"),
    # what tomllib lets escape as Python's errors (a seeded fuzz hunt found the first): an
    # integer past Python's 4,300-digit conversion limit, arrays nested 600 deep
    (GOOD + "x = " + "9" * 5000 + "\n", "7:5",
     "not valid TOML: an integer literal of more than 4,300 digits"),
    (GOOD + "x = " + "[" * 600 + "]" * 600 + "\n", "7:105",
     "not valid TOML: arrays or inline tables nest more than 100 deep"),
    # breaker item 12: a MemoryError building the mesh
    (GOOD.replace("[2]", "[99999999999]"), "2:1", "a mesh holds at most 65536"),
])
def test_bad_plan_is_one_located_line_and_exit_1(tmp_path, capsys, plan, where, message):
    path = tmp_path / "plan.toml"
    path.write_text(plan)
    assert main(["parallelize", str(SERIAL), "--plan", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert message in err
    assert err.startswith(f"{path}:{where}: plan error: "), err


def test_a_missing_plan_is_named_a_plan_file(tmp_path, capsys):
    # breaker item 18: it said "no such program file"
    assert main(["parallelize", str(SERIAL), "--plan", str(tmp_path / "nope.toml")]) == 1
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'nope.toml'}: no such plan file")


def test_failed_parallelize_leaves_the_program_unchanged(rules):
    text = SERIAL.read_text()
    program = parse_program(text)
    with pytest.raises(PlanError):
        parallelize(program, GOOD.replace("[2]", "[8]"), rules)
    assert print_program(program) == print_program(parse_program(text))


def test_a_dist_program_is_refused(capsys):
    assert main(["parallelize", str(CORPUS / "par_dp2" / "rank0" / "00_forward_dist.pir"),
                 "--plan", str(CORPUS / "par_dp2" / "plan.toml")]) == 1
    assert "takes a serial program" in capsys.readouterr().err


def test_failed_write_keeps_the_old_file(tmp_path, capsys):
    out = tmp_path / "dist.pir"
    out.mkdir()  # the final rename onto it fails, after the text is written
    (out / "old").write_text("old")
    code = main(["parallelize", str(SERIAL), "--plan", str(CORPUS / "par_pp2_str" / "plan.toml"),
                 "-o", str(out)])
    assert code == 1 and str(out) in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["dist.pir"]  # no temporary file left
    assert (out / "old").read_text() == "old"


def test_plan_reads_the_spec_example():
    plan = load_plan('[mesh]\nshape = [2]\ndim_names = ["pp"]\n[pp]\nsplit_spec = "GMyLinear"\n'
                     'global_spec = "GlobalParam"\n[inputs]\ninput0 = { stage = "first" }\n'
                     'label0 = { stage = "last" }\n')
    assert plan.split_spec == ("GMyLinear",) and plan.global_spec == ("GlobalParam",)
    assert plan.inputs == {"input0": "first", "label0": "last"} and plan.degree("pp") == 2


def test_a_layer_other_stages_read_left_out_of_global_spec_is_a_plan_error(tmp_path, capsys):
    # an outside trial: without global_spec the second stage's ops read the global layers'
    # values from stage 0 with no reshard; parallelize printed that program and the run failed
    # deep in the chain. Paddle refuses it as it builds it (PreconditionNotMet).
    source = CORPUS.parent / "global_mesh" / "parallelize" / "gm_chain_pp2_1f1b"
    plan = tmp_path / "plan.toml"
    plan.write_text("[mesh]\nshape = [2]\ndim_names = [\"pp\"]\n\n[pp]\nsplit_spec = \"GMyLinear\"\n")
    assert main(["parallelize", str(source / "serial.pir"), "--plan", str(plan)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{plan}: plan error: ") and "must be in global_spec" in err
    assert "runs on process mesh [1] but reads a value made on [0]" in err
    # with the global layers named, the program parallelizes (tests/test_global_mesh*.py
    # compare it with Paddle's)
    assert main(["parallelize", str(source / "serial.pir"), "--plan",
                 str(source / "plan.toml")]) == 0
    assert "dist_op.reshard" in capsys.readouterr().out


def test_a_sequence_parallel_hook_that_breaks_a_broadcast_is_a_plan_error(tmp_path, capsys):
    # an outside trial (Paddle 3.3.1 capture t8_spend_head): SequenceParallelEnd on the head,
    # whose input no SequenceParallelBegin swapped, swaps its [2, 4, 4] output to [4, 2, 4];
    # the loss's subtract then reads it against the [2, 4, 4] label. Paddle raises as it builds
    # the op ("Broadcast dimension mismatch ... X = [4, 2, 4] and ... Y = [2, 4, 4]");
    # parallelize printed the program and the run failed at the subtract.
    source = CORPUS.parent / "global_mesh" / "paddle_raises" / "sp_end_head_2d"
    assert "Broadcast dimension mismatch" in (source / "paddle_error.txt").read_text()
    assert main(["parallelize", str(source / "serial.pir"), "--plan",
                 str(source / "plan.toml")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{source / 'plan.toml'}: plan error: pd_op.subtract: operand shapes "
                          "[4, 2, 4] and [2, 4, 4] do not broadcast")
    assert "/MSELoss/" in err and "SequenceParallelBegin/End" in err
    # the same plan without the head's hook parallelizes
    plan = tmp_path / "plan.toml"
    plan.write_text((source / "plan.toml").read_text().replace(
        ', "GHead" = "SequenceParallelEnd"', ""))
    assert main(["parallelize", str(source / "serial.pir"), "--plan", str(plan)]) == 0


def test_a_global_mesh_op_may_read_a_stage_value():
    # an outside trial (Paddle 3.3.1 capture gm_glast_pp2, global_spec naming the last layer):
    # the head's ops run on the global mesh [0, 1] and read stage 1's values ([1] belongs to
    # [0, 1]); Paddle prints this program (it aborts later, in remove_other_rank_op_pass), and
    # parallelize refused it as a program "Paddle refuses". The types are Paddle's; the operand
    # entries of those ops name the op's mesh where Paddle's keep the value's (left as is:
    # nobody can train the program).
    source = CORPUS.parent / "global_mesh" / "paddle_raises" / "glast_pp2"
    program = parse_program((source / "serial.pir").read_text(), filename="serial.pir")
    parallelize(program, (source / "plan.toml").read_text())
    types = lambda text: [line.split(" : ", 1)[-1] for line in text.splitlines()]  # noqa: E731
    paddle = QUIRK.sub(r"\1placements:[Replicate()]", (source / "forward_dist.pir").read_text())
    assert types(print_program(program)) == types(paddle)


def test_a_serial_program_that_does_not_broadcast_is_named_not_the_plan(tmp_path, capsys):
    # an outside trial: the plan was blamed (a sequence-parallel hook) for an add the serial
    # program itself got wrong
    serial = tmp_path / "serial.pir"
    serial.write_text(
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],'
        "stop_gradient:[true]} : () -> tensor<2x8xf32>\n"
        '    (%1) = "pd_op.data" () {dtype:float32,name:"y",place:Place(undefined:0),shape:[16,8],'
        "stop_gradient:[true]} : () -> tensor<16x8xf32>\n"
        '    (%2) = "pd_op.add" (%0, %1) {stop_gradient:[true],struct_name:"/Net/"} : '
        "(tensor<2x8xf32>, tensor<16x8xf32>) -> tensor<2x8xf32>\n}\n")
    plan = tmp_path / "plan.toml"
    plan.write_text(GOOD)
    assert main(["parallelize", str(serial), "--plan", str(plan)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"{serial}: ")
    assert "do not broadcast" in err and "the serial program itself is wrong" in err
