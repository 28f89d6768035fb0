"""The README's tutorial works word for word (issue 18): its `program.pir` is given, the
commands it shows run on it, and `run_pipeline` is shown with the params the pipeline needs."""

import re
from pathlib import Path

from rulepass.cli.main import main
from rulepass.engine.api import load_rules

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


def test_run_pipeline_is_shown_with_the_params_it_needs():
    call = re.search(r'`rules\.run_pipeline\(program, "paddle", ([^`]*)\)`', README).group(1)
    params = eval(f"dict({call})")  # noqa: S307 - the README's own keyword list
    steps = load_rules([], installed=True).pipeline_steps("paddle", params)
    assert [cpass.name for cpass, _ in steps][0] == "complete_chunk_id"
