"""`rulepass run`: what the run checks against its inputs before and after training (issue 18:
silent wrong answers). A short run says what it did not check; arrays of another dtype, shape or
name, a params_final.npz that leaves parameters out, a config the program's meshes do not have,
a NaN parameter are errors or mismatches, never an OK or a 0.0."""

import json
import shutil
import warnings
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
    assert ("pp = 2, but every op of the program runs on the process mesh of all 2 ranks "
            "(no pipeline stages: pp = 1)") in err


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


def _edit_json(path, change):
    value = json.loads(path.read_text())
    change(value)
    path.write_text(json.dumps(value))


def test_steps_beyond_the_data_is_an_error(mp2, capsys):
    # breaker item 5: `--steps 5` ran 3 and said OK
    assert main(["run", str(mp2), "--steps", "5"]) == 1
    captured = capsys.readouterr()
    assert str(mp2 / "data.npz") + ":" in captured.err
    assert "--steps 5, but it holds 3 step(s)" in captured.err
    assert "loss per step" not in captured.out


def test_steps_default_to_every_batch_of_the_data(mp2, capsys):
    # docs/spec/cli.md: --steps defaults to every batch in the example's data; Paddle's
    # reference ran 3, so its final parameters are not compared with a 4-step run
    _rewrite_npz(mp2 / "data.npz", lambda a: a.update(
        {k: np.concatenate([v, v[:1]]) for k, v in a.items()}))
    example = load_example(mp2)
    assert example.steps == 4 and example.reference_steps == 3
    assert main(["run", str(mp2)]) == 0
    out = capsys.readouterr().out
    assert "3 │" in out.replace("3 |", "3 │")  # step 3 ran
    assert "not checked" in out and "after 3 steps, this run made 4" in out
    assert "losses of steps 3..3 vs Paddle: reference.json has 3" in out


def test_data_arrays_of_different_lengths(mp2, capsys):
    # breaker item 6
    _rewrite_npz(mp2 / "data.npz", lambda a: a.update(label0=a["label0"][:2]))
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert str(mp2 / "data.npz") + ":" in err and "different numbers of steps" in err
    assert "'input0': 3" in err and "'label0': 2" in err


@pytest.mark.parametrize("losses", [1, 6])
def test_reference_losses_must_number_its_steps(mp2, capsys, losses):
    # breaker item 7: one loss ran 1 step against 3-step params_final.npz (false MISMATCH); six
    # losses skipped the parameter check
    _edit_json(mp2 / "reference.json",
               lambda r: r.update(losses=(r["losses"] * 2)[:losses]) or r.pop("steps"))
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert str(mp2 / "reference.json") + ":" in err
    assert f"{losses} loss(es) for the 3 steps" in err


def test_reference_steps_and_config_steps_must_agree(mp2, capsys):
    _edit_json(mp2 / "reference.json", lambda r: r.update(steps=2, losses=r["losses"][:2]))
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert "steps = 2, but config.toml's [train] steps = 3" in err


def test_reference_steps_without_config_steps(mp2, capsys):
    # the steps of params_final.npz come from reference.json, not from the number of losses
    text = (mp2 / "config.toml").read_text()
    (mp2 / "config.toml").write_text("\n".join(
        line for line in text.splitlines() if not line.startswith("steps")) + "\n")
    example = load_example(mp2)
    assert example.reference_steps == 3 and example.steps == 3
    assert main(["run", str(mp2), "--steps", "2"]) == 0
    assert "after 3 steps, this run made 2" in capsys.readouterr().out


@pytest.mark.parametrize("section, key, value", [
    ("check", "rtol", "nan"), ("check", "rtol", "inf"), ("train", "lr", "nan"),
    ("train", "lr", "inf"), ("check", "atol", "nan"), ("check", "atol", "-inf"),
])
def test_nan_and_inf_in_the_config(mp2, capsys, section, key, value):
    # breaker item 9: `rtol = nan` passed every comparison
    lines = [line for line in (mp2 / "config.toml").read_text().splitlines()
             if not line.startswith(f"{key} ")]
    at = lines.index(f"[{section}]")
    lines.insert(at + 1, f"{key} = {value}")
    (mp2 / "config.toml").write_text("\n".join(lines) + "\n")
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert f"[{section}] {key} must be a finite" in err and "Traceback" not in err


@pytest.mark.parametrize("value, message", [
    ("9" * 5000, "an integer literal of more than 4,300 digits (at line"),
    ("[" * 600 + "]" * 600, "arrays or inline tables nest more than 100 deep"),
])
def test_a_config_tomllib_cannot_hold_is_one_line(mp2, capsys, value, message):
    # a 5,000-digit integer was Python's ValueError, 600 nested arrays a RecursionError
    config = mp2 / "config.toml"
    config.write_text(config.read_text() + f"\n[extra]\nx = {value}\n")
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert f"{config}: not valid TOML" in err and message in err, err


def _copy(tmp_path, name):
    copy = tmp_path / name
    shutil.copytree(EXAMPLES / name, copy)
    return copy


@pytest.mark.parametrize("name, degrees, message", [
    # breaker item 8: dp2 with mp = 2, dp = 1 said OK
    ("dp2", dict(mp=2, dp=1), "dp = 1, but the program's stage meshes have dimensions of 2 "
                              "rank(s) that shard only inputs"),
    ("mp2", dict(mp=1, dp=2), "mp = 1, but the program's stage meshes have dimensions of 2 "
                              "rank(s) that shard parameters"),
    # it said "4 micro-batches need a pipeline schedule"
    ("pp2_1f1b", dict(pp=1, dp=2), "pp = 1, but ops of the program run on process meshes of "
                                   "part of the ranks ([0], [1])"),
    # it said "cannot infer the chunk_id of op 39"
    ("pp2_vpp2", dict(vpp=1), "schedule VPP interleaves model chunks and needs vpp >= 2"),
])
def test_config_contradicting_the_program(tmp_path, capsys, name, degrees, message):
    example = _copy(tmp_path, name)
    _set_parallel(example, **degrees)
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert str(example / "config.toml") in err and message in err, err


def test_schedule_flag_needing_chunks(capsys):
    assert main(["run", str(EXAMPLES / "pp2_1f1b"), "--schedule", "VPP"]) == 1
    err = capsys.readouterr().err
    assert "--schedule" in err and "needs vpp >= 2" in err and "chunk_id" not in err


def test_every_example_agrees_with_its_config():
    from rulepass.checks import check_example

    for config in sorted(EXAMPLES.glob("*/config.toml")):
        check_example(load_example(config.parent))


def test_the_verdict_names_the_per_tensor_rule_when_it_decided(mp2, capsys):
    # breaker item 22: "worst rel. error 1.1e-05" beside "OK: every ... parameter within rtol
    # 1e-05", when a parameter passed by the per-tensor rule only
    def nudge(arrays):
        bias = arrays["linear_0.b_0.dist"].astype(np.float64)
        k = int(np.argmin(np.abs(bias)))
        bias[k] += 5e-6 * np.max(np.abs(bias))  # within rtol per tensor, not elementwise
        arrays["linear_0.b_0.dist"] = bias.astype(np.float32)

    _rewrite_npz(mp2 / "params_final.npz", nudge)
    assert main(["run", str(mp2)]) == 0
    out = capsys.readouterr().out
    assert "within tolerance per tensor only: linear_0.b_0.dist" in out
    verdict = next(line for line in out.splitlines() if line.startswith("OK"))
    assert "per tensor for linear_0.b_0.dist" in verdict


# ---- new-user report (items 6, 9, 10, 13, 15) ----

def _verdict(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(("OK", "MISMATCH")))


def test_without_params_final_the_verdict_claims_no_paddle_parameter_check(mp2, capsys):
    (mp2 / "params_final.npz").unlink()
    assert main(["run", str(mp2)]) == 0
    out = capsys.readouterr().out
    assert "not checked: final parameters vs Paddle (no params_final.npz)" in out
    verdict = _verdict(out)
    assert "every loss within rtol 1e-05 of Paddle's reference and the single-device run" in verdict
    assert "every final parameter within rtol 1e-05 of the single-device run" in verdict
    (mp2 / "reference.json").unlink()
    assert main(["run", str(mp2)]) == 0
    out = capsys.readouterr().out
    assert "not checked: losses vs Paddle (no reference.json)" in out
    assert "Paddle" not in _verdict(out)


def test_with_both_references_the_verdict_names_both(mp2, capsys):
    assert main(["run", str(mp2)]) == 0
    out = capsys.readouterr().out
    assert "not checked" not in out
    assert _verdict(out) == ("OK: every loss and parameter within rtol 1e-05 of Paddle's "
                             "reference and the single-device run")


@pytest.mark.parametrize("name", ["reference.json", "params_final.npz"])
def test_a_dangling_link_to_a_reference_file_is_an_error(mp2, capsys, name):
    (mp2 / name).unlink()
    (mp2 / name).symlink_to("../.git/annex/objects/absent")
    assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    # the words every other input gets (engine/files.py), and the hint of where it comes from
    assert (f"{mp2 / name}: a dangling symbolic link (to ../.git/annex/objects/absent, which "
            "does not exist); git-annex content not fetched?") in err


def test_a_link_loop_for_a_reference_file_is_named_as_one(mp2, capsys):
    (mp2 / "reference.json").unlink()
    (mp2 / "reference.json").symlink_to("reference.json")
    assert main(["run", str(mp2)]) == 1
    assert f"{mp2 / 'reference.json'}: a symbolic link loop" in capsys.readouterr().err


def _set_key(example, key, value):
    text = (example / "config.toml").read_text()
    lines = [f"{key} = {value}" if line.split("=")[0].strip() == key else line
             for line in text.splitlines()]
    (example / "config.toml").write_text("\n".join(lines) + "\n")


def test_config_micro_batches_that_do_not_divide_the_batch(tmp_path, capsys):
    example = tmp_path / "pp2_1f1b"
    shutil.copytree(EXAMPLES / "pp2_1f1b", example)
    _set_key(example, "micro_batches", 3)
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(str(example / "config.toml"))
    assert "micro_batches = 3 does not divide the global batch of 8" in err
    _set_key(example, "micro_batches", 2)  # divides, but not into the program's micro-batches
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(str(example / "config.toml")) and "micro-batches of 4" in err


@pytest.mark.parametrize("file, key", [("params.npz", "linear_0.b_0.dist"),
                                       ("data.npz", "input0")])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_inputs_are_errors_before_running(mp2, capsys, file, key, bad):
    def spoil(arrays):
        arrays[key] = arrays[key].copy()
        arrays[key].flat[1] = bad

    _rewrite_npz(mp2 / file, spoil)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy RuntimeWarning: nothing ran
        assert main(["run", str(mp2)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(str(mp2 / file)) and f"{key!r} holds" in err
    assert ("NaN" if bad != bad else "infinite") in err


@pytest.mark.parametrize("flag, value", [("--steps", "0"), ("--micro-batches", "0"),
                                         ("--steps", "-1"), ("--micro-batches", "x")])
def test_counts_below_one_are_usage_errors(capsys, flag, value):
    with pytest.raises(SystemExit) as exit_:
        main(["run", str(EXAMPLES / "mp2"), flag, value])
    assert exit_.value.code == 2
    assert f"argument {flag}:" in capsys.readouterr().err


def test_pp_the_program_does_not_have_names_its_stage_meshes(tmp_path, capsys):
    example = tmp_path / "dp2_pp2"
    shutil.copytree(EXAMPLES / "dp2_pp2", example)
    _set_parallel(example, pp=4, dp=1)
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert "pp = 4, but the program's ops run on 2 stage mesh(es) of 2 rank(s) each " \
           "([0, 1], [2, 3])" in err


@pytest.mark.parametrize("key, value, message", [
    ("vpp", "4", "vpp = 4, seg_method = 'MyLinear': pipeline stage 0 holds 2 layer(s)"),
    ("seg_method", '"Bogus"', "no op's struct_name matches seg_method 'Bogus'"),
])
def test_a_vpp_layout_the_config_cannot_have_is_reported_at_the_config(tmp_path, capsys, key,
                                                                       value, message):
    example = tmp_path / "pp2_vpp2"
    shutil.copytree(EXAMPLES / "pp2_vpp2", example)
    _set_key(example, key, value)
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(str(example / "config.toml")) and message in err
    assert ".rw:" not in err and "at op:" not in err


def test_a_forward_program_that_does_not_broadcast_is_named_before_the_chain(tmp_path, capsys):
    # an outside trial: pp2_1f1b with a bias add reading the wrong bias ([2, 16] + [8]) went
    # through the whole chain and failed at the check of a rank's final program, naming no file
    # and showing lines of that internal program
    example = tmp_path / "pp2_1f1b"
    shutil.copytree(EXAMPLES / "pp2_1f1b", example)
    forward = example / "forward.pir"
    lines = forward.read_text().split("\n")
    (i, line), = [(i, ln) for i, ln in enumerate(lines) if ln.startswith('    (%13) = "pd_op.add" (%12, %8)')]
    head, types = line.split(" : (", 1)
    lines[i] = (head.replace("(%12, %8)", "(%12, %6)", 1) + " : ("
                + types.replace(", pd_dist.tensor<16xf32", ", pd_dist.tensor<8xf32", 1))
    forward.write_text("\n".join(lines))
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{forward}: verify error: pd_op.add: operand shapes [2, 16] and [8] "
                          "do not broadcast")
    assert f">    {i + 1} |     (%13) = \"pd_op.add\" (%12, %6)" in err  # forward.pir's own line
