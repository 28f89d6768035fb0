"""An output path that is an input or another output of the same command is refused before any
work, one line, exit 2 (new-user report items 1 and 2: `rewrite p.pir --trace p.pir` emptied
the program; `run EX --out O` with links in O replaced the example's params_final.npz)."""

import shutil
from pathlib import Path

import pytest

from rulepass.cli.main import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAM = """{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
"""
RULES = "pass keep {\n  rule r {\n    match { o = pd_op.tanh(x) }\n    rewrite { erase o }\n  }\n}\n"


def one_line_usage_error(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulepass: error: "), captured.err
    return lines[0]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "p.pir").write_text(PROGRAM)
    (tmp_path / "r.rw").write_text(RULES)
    return tmp_path


def rewrite(files, *more):
    return main(["rewrite", str(files / "p.pir"), "--pass", "keep", "--rules",
                 str(files / "r.rw"), *more])


def test_the_trace_onto_the_program_is_refused(files, capsys):
    assert rewrite(files, "--trace", str(files / "p.pir")) == 2
    assert "--trace" in (line := one_line_usage_error(capsys)) and "is the input program" in line
    assert (files / "p.pir").read_text() == PROGRAM


def test_the_trace_through_a_link_or_another_spelling_is_refused(files, capsys):
    (files / "link.pir").symlink_to("p.pir")
    (files / "hard.pir").hardlink_to(files / "p.pir")
    for path in (files / "link.pir", files / "hard.pir", files / "." / "p.pir"):
        assert rewrite(files, "--trace", str(path)) == 2
        assert "is the input program" in one_line_usage_error(capsys)
    assert (files / "p.pir").read_text() == PROGRAM


def test_o_onto_the_program_rewrites_it_in_place(files, capsys):
    # the one clash that is a feature: `-o PROGRAM` replaces it atomically (tests/test_files.py)
    assert rewrite(files, "-o", str(files / "p.pir")) == 0
    assert (files / "p.pir").read_text() == PROGRAM  # `keep` changes nothing here


def test_an_output_onto_a_rules_file_is_refused(files, capsys):
    assert rewrite(files, "-o", str(files / "r.rw")) == 2
    assert "is a --rules file" in one_line_usage_error(capsys)
    assert rewrite(files, "--trace", str(files / "r.rw")) == 2
    capsys.readouterr()
    assert (files / "r.rw").read_text() == RULES


def test_two_outputs_on_one_path_are_refused(files, capsys):
    out = files / "same.out"
    assert rewrite(files, "-o", str(out), "--trace", str(out)) == 2
    assert "also the -o output" in one_line_usage_error(capsys)
    assert not out.exists()


def test_a_dump_file_onto_an_input_or_output_is_refused(files, capsys):
    dumps = files / "dumps"
    dumps.mkdir()
    (dumps / "01_keep.pir").symlink_to(files / "p.pir")
    assert rewrite(files, "--dump-dir", str(dumps), "-o", str(files / "o.pir")) == 2
    assert "--dump-dir" in one_line_usage_error(capsys)
    (dumps / "01_keep.pir").unlink()
    assert rewrite(files, "--dump-dir", str(dumps), "-o", str(dumps / "01_keep.pir")) == 2
    assert "also the -o output" in one_line_usage_error(capsys)
    assert (files / "p.pir").read_text() == PROGRAM and not list(dumps.iterdir())


def test_devices_may_be_named_twice(files, capsys):
    assert rewrite(files, "-o", "/dev/null", "--trace", "/dev/null") == 0


def test_parallelize_output_onto_its_plan_is_refused(tmp_path, capsys):
    plan = tmp_path / "plan.toml"
    plan.write_text("x = 1\n")
    (tmp_path / "s.pir").write_text(PROGRAM)
    assert main(["parallelize", str(tmp_path / "s.pir"), "--plan", str(plan),
                 "-o", str(plan)]) == 2
    assert "is the --plan file" in one_line_usage_error(capsys)
    assert plan.read_text() == "x = 1\n"


def test_run_out_links_to_the_example_files_are_refused(tmp_path, capsys):
    # new-user item 2: links in --out to the example's files were written through
    example = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "mp2", example)
    before = {p.name: p.read_bytes() for p in example.iterdir()}
    out = tmp_path / "o3"
    out.mkdir()
    (out / "params_final.npz").symlink_to(example / "params_final.npz")
    assert main(["run", str(example), "--out", str(out)]) == 2
    assert "is the example's params_final.npz" in one_line_usage_error(capsys)
    (out / "params_final.npz").unlink()
    (out / "rank0.pir").symlink_to("../ex/forward.pir")
    assert main(["run", str(example), "--out", str(out)]) == 2
    assert "is the example's forward.pir" in one_line_usage_error(capsys)
    (out / "rank0.pir").unlink()
    (out / "summary.json").symlink_to(example / "config.toml")
    assert main(["run", str(example), "--out", str(out), "--dump-dir", str(out)]) == 2
    capsys.readouterr()
    (out / "summary.json").unlink()
    (out / "rank1").mkdir()
    (out / "rank1" / "01_append_backward.pir").symlink_to(example / "forward.pir")
    assert main(["run", str(example), "--dump-dir", str(out)]) == 2
    assert "--dump-dir" in one_line_usage_error(capsys)
    assert {p.name: p.read_bytes() for p in example.iterdir()} == before


def test_out_files_names_every_file_run_writes(tmp_path, capsys):
    from rulepass.outputs import out_files

    out = tmp_path / "out"
    assert main(["run", "mp2", "--steps", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in out.iterdir()) == sorted(out_files(2))


# Breaker 2 item 1: an output onto a rule file reached through `include` replaced it (exit 0):
# the rule files compared are every file loading the rules reads.

def included_rules(files):
    (files / "inner.rw").write_text(RULES)
    (files / "outer.rw").write_text('include "inner.rw"\n')
    return files / "outer.rw", files / "inner.rw"


@pytest.mark.parametrize("flag", ["-o", "--trace"])
def test_an_output_onto_an_included_rule_file_is_refused(files, capsys, flag):
    outer, inner = included_rules(files)
    deeper = files / "sub"
    deeper.mkdir()
    (deeper / "mid.rw").write_text('include "../inner.rw"\n')
    outer.write_text('include "sub/mid.rw"\n')
    assert main(["rewrite", str(files / "p.pir"), "--pass", "keep", "--rules", str(outer),
                 flag, str(inner)]) == 2
    line = one_line_usage_error(capsys)
    assert f"{flag} {inner} is a rule file (included at {deeper / 'mid.rw'}:1:1)" in line
    assert inner.read_text() == RULES and (files / "p.pir").read_text() == PROGRAM


def test_parallelize_and_run_outputs_onto_an_included_rule_file_are_refused(tmp_path, files,
                                                                           capsys):
    outer, inner = included_rules(files)
    plan = tmp_path / "plan.toml"
    plan.write_text("x = 1\n")
    assert main(["parallelize", str(files / "p.pir"), "--plan", str(plan), "--rules",
                 str(files), "-o", str(inner)]) == 2
    assert "is a --rules file" in one_line_usage_error(capsys)  # the folder names it too
    assert main(["parallelize", str(files / "p.pir"), "--plan", str(plan), "--rules",
                 str(outer), "-o", str(inner)]) == 2
    assert "is a rule file (included at" in one_line_usage_error(capsys)
    out = tmp_path / "o"
    out.mkdir()
    (out / "trace.jsonl").symlink_to(inner)
    assert main(["run", "mp2", "--rules", str(outer), "--out", str(out)]) == 2
    assert "--out" in (line := one_line_usage_error(capsys)) and "included at" in line
    assert inner.read_text() == RULES


# Breaker 2 item 2: `-o /dev/stdout >> log` replaced the log (the atomic writer renamed over the
# file behind /proc/self/fd/1), `--trace /dev/stdout >> log` emptied it, and on a pipe it failed.

def cli(args, **kwargs):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "rulepass", *args], **kwargs)


def test_o_and_trace_to_dev_stdout_append_to_the_callers_file(files):
    log = files / "build.log"
    log.write_text("earlier line\n")
    base = ["rewrite", str(files / "p.pir"), "--pass", "keep", "--rules", str(files / "r.rw")]
    for outputs in (["-o", "/dev/stdout"], ["--trace", "/dev/stdout"], ["-o", "/dev/fd/1"],
                    ["-o", "/dev/stdout", "--trace", "/dev/stdout"]):
        with open(log, "ab") as out:
            done = cli(base + outputs, stdout=out, stderr=-1, timeout=120)
        assert done.returncode == 0, done.stderr
        text = log.read_text()
        assert text.startswith("earlier line\n") and text.endswith(PROGRAM), outputs
        log.write_text("earlier line\n")


def test_o_to_dev_stdout_on_a_pipe_writes_the_program(files):
    base = ["rewrite", str(files / "p.pir"), "--pass", "keep", "--rules", str(files / "r.rw")]
    for outputs in (["-o", "/dev/stdout"], ["-o", "/proc/self/fd/1"],
                    ["-o", "/dev/stdout", "--trace", "/dev/stdout"], ["-o", "/dev/stderr"]):
        done = cli(base + outputs, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert (done.stderr if outputs[-1] == "/dev/stderr" else done.stdout) == PROGRAM


# Breaker 2 item 4: `run EX --dump-dir EX` was refused, naming the example's forward.pir, though
# dumps go only to rank<r>/NN_PASS.pir.

def test_run_dump_dir_may_be_the_example_folder(tmp_path, capsys):
    example = tmp_path / "ex"
    shutil.copytree(EXAMPLES / "mp2", example)
    before = {p.name: p.read_bytes() for p in example.iterdir()}
    assert main(["run", str(example), "--steps", "1", "--dump-dir", str(example)]) == 0
    capsys.readouterr()
    assert {p.name: p.read_bytes() for p in example.iterdir() if p.is_file()} == before
    assert (example / "rank0" / "01_append_backward.pir").is_file()


# Breaker 2 item 7: an --out file that cannot be written failed only after the whole run.

def test_run_out_file_that_cannot_be_written_fails_before_the_run(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (tmp_path / "folder").mkdir()
    (out / "rank0.pir").symlink_to(tmp_path / "folder")
    assert main(["run", "mp2", "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert "rank0.pir" in captured.err and "is a folder" in captured.err
    (out / "rank0.pir").unlink()
    (tmp_path / "plain").write_text("")
    (out / "summary.json").symlink_to(tmp_path / "plain" / "summary.json")
    assert main(["run", "mp2", "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "summary.json" in captured.err
