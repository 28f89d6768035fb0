"""`rulepass run`: what the run checks against its inputs before and after training (issue 18:
silent wrong answers). A short run says what it did not check; arrays of another dtype, shape or
name, a params_final.npz that leaves parameters out, a config the program's meshes do not have,
a NaN parameter are errors or mismatches, never an OK or a 0.0."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from rulepass.cli.main import main
from rulepass.example import load_example
from rulepass.run import RunOptions, relative_error, run_local, summarize, tensor_error, tensor_within

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def mp2(tmp_path):
    copy = tmp_path / "mp2"
    shutil.copytree(EXAMPLES / "mp2", copy)
    return copy


def _rewrite_npz(path, change):
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    change(arrays)
    np.savez(path, **arrays)


def test_short_run_checks_the_losses_it_has_and_says_what_it_did_not(capsys):
    assert main(["run", str(EXAMPLES / "mp2"), "--steps", "1"]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and "OK" in out
    assert "not checked" in out and "after 3 steps" in out


def test_short_data_npz(mp2, capsys):
    _rewrite_npz(mp2 / "data.npz", lambda a: a.update({k: v[:2] for k, v in a.items()}))
    assert main(["run", str(mp2)]) == 0
    out = capsys.readouterr().out
    assert "not checked" in out and "this run made 2" in out


def test_final_params_missing_a_parameter(mp2, capsys):
    _rewrite_npz(mp2 / "params_final.npz", lambda a: a.pop("linear_1.w_0.dist"))
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert "params_final.npz" in err and "'linear_1.w_0.dist'" in err


def test_unknown_key_in_params(mp2, capsys):
    _rewrite_npz(mp2 / "params.npz", lambda a: a.update(extra=np.zeros(3, np.float32)))
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert "params.npz" in err and "'extra' is not a parameter" in err


@pytest.mark.parametrize("file, key, change, message", [
    ("params.npz", "linear_0.w_0.dist", lambda v: v.astype(np.float64),
     "'linear_0.w_0.dist' is float64[8, 16], but the program declares float32[8, 16]"),
    ("params.npz", "linear_0.b_0.dist", lambda v: v[:8], "is float32[8]"),
    ("data.npz", "input0", lambda v: v[:, :, :4], "'input0' is float32[3, 4, 4], but the "
                                                  "program declares float32[steps, 4, 8]"),
    ("data.npz", "label0", lambda v: v.astype(np.int64), "'label0' is int64"),
])
def test_dtype_and_shape_of_arrays(mp2, capsys, file, key, change, message):
    _rewrite_npz(mp2 / file, lambda a: a.update({key: change(a[key])}))
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(str(mp2 / file)) and message in err, err


def _set_parallel(example, **degrees):
    lines = []
    for line in (example / "config.toml").read_text().splitlines():
        key = line.split("=")[0].strip()
        lines.append(f"{key} = {degrees.pop(key)}" if key in degrees else line)
    (example / "config.toml").write_text("\n".join(lines) + "\n")


def test_config_larger_than_the_program(mp2, capsys):
    _set_parallel(mp2, world_size=4, pp=4, mp=1)
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert "config.toml" in err and "world_size = 4" in err and "ranks 0, 1 (2 ranks)" in err


def test_pp_the_program_does_not_have(mp2, capsys):
    # one mesh of two ranks is not two stages of one rank each
    _set_parallel(mp2, pp=2, mp=1)
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert "pp = 2, but the program has 0 stage mesh(es) of 1 rank(s)" in err


def test_nan_parameter_is_reported_as_nan_not_zero(mp2):
    _rewrite_npz(mp2 / "params_final.npz",
                 lambda a: a["linear_0.b_0.dist"].__setitem__(0, np.nan))
    example = load_example(mp2)
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert not report.ok
    assert report.param_errors["linear_0.b_0.dist"] == float("inf")


def test_relative_and_tensor_errors():
    assert relative_error([np.nan], [1.0]) == float("inf")
    assert relative_error([np.nan], [np.nan]) == 0.0
    # a bias whose small entry moved by float32 noise: elementwise 3e-5, per tensor 6e-10
    reference = np.array([2e-7, 1e-2, -1e-2])
    ours = reference + np.array([6e-12, 0.0, 0.0])
    assert relative_error(ours, reference) == pytest.approx(3e-5)
    assert tensor_error(ours, reference) == pytest.approx(6e-10)
    assert tensor_within(ours, reference, 1e-5, 0.0)
    assert not tensor_within(reference * 1.001, reference, 1e-5, 0.0)
    assert not tensor_within([0.0, 1e-3], [0.0, 0.0], 1e-5, 0.0)


def test_summary_reports_tensor_errors(mp2):
    example = load_example(mp2)
    result = run_local(example, RunOptions())
    report = summarize(example, result)
    assert report.ok and set(report.tensor_errors) == set(report.param_errors)
    assert max(report.tensor_errors.values()) <= example.rtol
