"""`rulepass run --out DIR` (issue 18): params_final.npz as global arrays that compare with the
example's, a summary naming example, config, backend, steps and version, one merged Chrome trace
of every rank."""

import json
from pathlib import Path

import numpy as np

from rulepass.cli.main import main
from rulepass.outputs import assemble
from rulepass.runtime.sharding import local_piece
from rulepass.engine.pir.parse import parse_type

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_run_out_writes_final_params_summary_and_one_timeline(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", "mp2", "--out", str(out), "--steps", "2"]) == 0
    capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text())
    run = summary["run"]
    assert run["example"] == "mp2" and run["backend"] == "local" and run["steps"] == 2
    assert run["config"]["parallel"]["mp"] == 2 and run["rulepass_version"]
    final = np.load(out / "params_final.npz")
    initial = np.load(EXAMPLES / "mp2" / "params.npz")
    assert sorted(final.files) == sorted(initial.files)
    for key in initial.files:  # global shapes, trained (moved from the initial values)
        assert final[key].shape == initial[key].shape and not np.array_equal(final[key],
                                                                               initial[key])
    timeline = json.loads((out / "timeline.json").read_text())
    assert {e["pid"] for e in timeline["traceEvents"] if e["ph"] == "X"} == {0, 1}


def test_full_run_params_final_equals_the_reference(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(EXAMPLES / "mp2"), "--out", str(out)]) == 0
    capsys.readouterr()
    ours, reference = np.load(out / "params_final.npz"), np.load(EXAMPLES / "mp2" /
                                                                  "params_final.npz")
    for key in reference.files:
        np.testing.assert_allclose(ours[key], reference[key], rtol=1e-5, atol=1e-7)


def test_assemble_inverts_local_piece():
    t = parse_type("pd_dist.tensor<4x6xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],"
                   "dims_mappings:[1,0], placements:[Shard(dim=1), Shard(dim=0)]>")
    whole = np.arange(24, dtype=np.float32).reshape(4, 6)
    pieces = {r: local_piece(whole, t, r) for r in range(4)}
    assert np.array_equal(assemble(pieces, t), whole)


def test_run_dump_dir_and_print_ir_after_all(tmp_path, capsys):
    dump = tmp_path / "dumps"
    assert main(["run", "mp2", "--steps", "1", "--dump-dir", str(dump),
                 "--print-ir-after-all"]) == 0
    err = capsys.readouterr().err
    for rank in (0, 1):
        files = sorted(p.name for p in (dump / f"rank{rank}").iterdir())
        assert files[0] == "01_append_backward.pir" and files[-1].endswith("_sp_fusion.pir")
        assert f"IR Dump After dist_to_dense (rank{rank}/" in err
    last = sorted((dump / "rank0").iterdir())[-1].read_text()
    assert "pd_dist.tensor" not in last  # the dense program, after the last step


def test_run_out_into_the_example_folder_is_refused(tmp_path, capsys):
    # breaker item 2: `run EX --out EX` replaced Paddle's params_final.npz by rulepass's result;
    # breaker2 item 6: a clash is wrong usage (exit 2), as a link clash in --out is
    import shutil

    example = tmp_path / "mp2"
    shutil.copytree(EXAMPLES / "mp2", example)
    before = (example / "params_final.npz").read_bytes()
    (tmp_path / "alias").symlink_to("mp2")
    for out in (example, tmp_path / "alias", tmp_path / "mp2" / "."):
        assert main(["run", str(example), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "example's own folder" in err
    assert (example / "params_final.npz").read_bytes() == before
    assert sorted(p.name for p in example.iterdir()) == sorted(
        p.name for p in (EXAMPLES / "mp2").iterdir())
