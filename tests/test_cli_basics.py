"""What a new user expects of the command line (issue 18): `--version`, `rulepass list`, help on
`--pass`/`--pipeline`, examples by name from any folder, exit 0 on a closed pipe."""

import subprocess
import sys

import pytest

from rulepass.cli.main import build_parser, main


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("rulepass ") and out.split()[1][0].isdigit()


def test_list_shows_passes_params_pipelines_examples(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "  prune_other_ranks(rank: int)" in out
    assert "complete_chunk_id(pp_degree: int, vpp_degree: int, seg_method: str, v_shape: bool = False)" in out
    assert "  paddle = complete_chunk_id, grad_chunk," in out
    assert "  pp2_vpp2_localmap  (world_size 2: pp 2, vpp 2" in out


def test_list_shows_param_defaults(tmp_path, capsys):
    (tmp_path / "r.rw").write_text("pass p(axis: int = -1, name: str = \"x\") {\n"
                                   "  rule r { match { o = pd_op.relu(_) } rewrite { erase o } }\n"
                                   "}\n")
    assert main(["list", "--rules", str(tmp_path / "r.rw")]) == 0
    out = capsys.readouterr().out
    assert "  p(axis: int = -1, name: str = 'x')" in out
    # new-user item 15: singular counts
    assert "[sweep, 1 rule]" in out and "1 rules" not in out
    assert "FThenB, 1 micro-batch)" in out and "1 micro-batches" not in out
    assert "1F1B, 4 micro-batches)" in out


def test_rewrite_help_names_passes_and_pipelines():
    rewrite = build_parser()._subparsers._group_actions[0].choices["rewrite"]
    text = rewrite.format_help()
    assert "rulepass list" in text and "--pipeline NAME" in text and "repeatable" in text


def test_example_by_name_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "mp2", "--steps", "1"]) == 0
    assert "mp2: loss per step" in capsys.readouterr().out


def test_unknown_example_lists_the_installed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "mp3"]) == 1
    err = capsys.readouterr().err
    assert "installed examples: " in err and ", dp2, dp2_pp2, " in err and ", mp2, " in err


def _big_program(path):
    lines = ["{", '    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>']
    lines += [f'    (%{k}) = "pd_op.relu" (%{k - 1}) {{}} : (tensor<4xf32>) -> tensor<4xf32>'
              for k in range(1, 3000)]  # ~200 KB: more than a pipe holds
    path.write_text("\n".join(lines + ["}", ""]))
    return str(path)


@pytest.mark.parametrize("args", [["run", "mp2", "--steps", "1"], ["print", "BIG"]])
def test_closed_pipe_is_exit_0(tmp_path, args):
    args = [_big_program(tmp_path / "big.pir") if a == "BIG" else a for a in args]
    process = subprocess.Popen([sys.executable, "-m", "rulepass", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.read(1)
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err


def test_check_without_paths_says_it_checks_the_installed_rules(tmp_path, monkeypatch, capsys):
    # breaker item 17: in an empty folder `rulepass check` printed only lines about our rules
    from rulepass.cli.main import main
    from rulepass.engine.api import installed_rules

    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 0
    captured = capsys.readouterr()
    assert f"no PATH given: checking the installed rules ({installed_rules()})" in captured.err
    assert " passed, 0 failed" in captured.out


def test_messages_on_a_terminal_that_is_not_utf8_are_escaped_not_a_traceback(tmp_path):
    # breaker2: `rulepass check` of a rule file holding é under PYTHONIOENCODING=ascii
    import os
    import subprocess
    import sys

    rules = tmp_path / "e.rw"
    rules.write_text('pass p {\n  rule r { match { o = pd_op.add(x, x) {a: "é\\q"} } '
                     'rewrite { erase o } }\n}\n', encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "rulepass", "check", str(rules)],
                       capture_output=True, env=dict(os.environ, PYTHONIOENCODING="ascii"))
    assert r.returncode == 1
    out = (r.stdout + r.stderr).decode("ascii")
    assert "bad escape" in out and "Traceback" not in out
