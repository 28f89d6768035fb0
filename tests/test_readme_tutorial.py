"""The README's tutorial works word for word (issue 18): its `program.pir` is given, the
commands it shows run on it, and `run_pipeline` is shown with the params the pipeline needs."""

import re
from pathlib import Path

from rulepass.cli.main import main

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
SECTION = README.split("## Write a rule\n", 1)[1].split("\n## ", 1)[0]


def test_the_tutorial_program_is_given_and_is_the_test_input():
    rules = re.search(r"```\n(.*?)```", SECTION, re.S).group(1)
    program = re.search(r"```text\n(.*?)```", SECTION, re.S).group(1)
    assert "as `program.pir`" in SECTION
    assert program == re.search(r'input """\n(.*?)"""', rules, re.S).group(1)


def test_the_tutorial_commands_run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_rules.rw").write_text(re.search(r"```\n(.*?)```", SECTION, re.S).group(1))
    (tmp_path / "program.pir").write_text(re.search(r"```text\n(.*?)```", SECTION, re.S).group(1))
    assert main(["check", "my_rules.rw"]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    command = re.search(r"`rulepass (rewrite program\.pir [^`]*)`", SECTION).group(1).split()
    assert main(command) == 0
    assert '"pd_op.scale"' not in capsys.readouterr().out


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_installed_example_snippet_runs_as_written(capsys):
    # breaker item 16: the README's run_pipeline(program, "paddle", ...) worked on no program
    # (prune needs the reshards lowered, complete_chunk_id the program before the backward)
    (snippet,) = [b for b in _python_blocks() if "load_example(" in b]
    exec(compile(snippet, "README.md", "exec"), {})  # noqa: S102 - the README's own code
    out = capsys.readouterr().out
    assert "complete_chunk_id" in out and "dist_to_dense" in out
    assert '"pd_op.matmul"' in out and "pd_dist." not in out  # a dense program


def test_the_embedding_snippet_runs_as_written(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_rules.rw").write_text(re.search(r"```\n(.*?)```", SECTION, re.S).group(1))
    (tmp_path / "program.pir").write_text(re.search(r"```text\n(.*?)```", SECTION, re.S).group(1))
    (snippet,) = [b for b in _python_blocks() if "my_rules.rw" in b]
    exec(compile(snippet, "README.md", "exec"), {})  # noqa: S102
    program, trace = capsys.readouterr().out.split("}\n", 1)
    assert '"pd_op.scale"' not in program and '"rule": "unit_scale"' in trace
    # new-user item 18: the API trace carries the positions the CLI's --trace does
    assert main(["rewrite", "program.pir", "--pass", "fold_unit_scale", "--rules", "my_rules.rw",
                 "--trace", "cli_trace.jsonl"]) == 0
    capsys.readouterr()
    import json

    ours = [json.loads(line) for line in trace.splitlines() if line]
    cli = [json.loads(line) for line in (tmp_path / "cli_trace.jsonl").read_text().splitlines()]
    assert ours == cli and '"position": -1' not in trace


def test_the_readme_names_every_installed_example():
    # breaker item 21: gm_none_pp2_vpp2_3d and gm_param_pp2_vpp2_3d were missing
    from rulepass.example import installed_examples

    missing = [name for name in installed_examples() if f"`{name}`" not in README]
    assert not missing, missing


def test_the_localize_example_runs_as_written(capsys, monkeypatch):
    # new-user item 18: it named my_pass.rw, which README never defines
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    block = re.search(r"```\n(rulepass run \S+ [^\n]*--localize)\n(first divergence:[^\n]*)\n```",
                      README)
    command, shown = block.group(1).split()[1:], block.group(2)
    for path in (arg for arg in command if arg.endswith(".rw")):
        assert Path(path).is_file(), path
    assert main(command) == 1  # the pass is wrong: the run fails and says where
    assert shown in capsys.readouterr().out.splitlines()
