"""Inputs that are not regular files (new-user report items 12 and 15): a FIFO in place of an
example file or a rule file is an error naming it, not a wait for ever; a dangling link or a
link loop is named as such, not "missing"; a file given to `run` is not "no such folder"; an
output whose temporary file cannot be made says so. A program argument may still be a FIFO
(`rulepass print <(cat p.pir)`)."""

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rulepass.cli.main import main
from rulepass.engine.files import FileError, check_writable, read_npz, read_text, write_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAM = """{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
}
"""


@pytest.fixture
def example(tmp_path):
    shutil.copytree(EXAMPLES / "mp2", tmp_path / "ex")
    return tmp_path / "ex"


def run_with_alarm(args, seconds=20):
    """main(args) in a subprocess that is killed after ``seconds`` (a FIFO hung for ever)."""
    code = f"import sys; from rulepass.cli.main import main; sys.exit(main({args!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=seconds)


@pytest.mark.parametrize("name", ["forward.pir", "config.toml", "params.npz", "data.npz",
                                  "reference.json", "params_final.npz"])
def test_a_fifo_as_an_example_file_is_an_error(example, name):
    (example / name).unlink()
    os.mkfifo(example / name)
    result = run_with_alarm(["run", str(example)])
    assert result.returncode == 1
    assert result.stderr.strip().endswith("regular file") and f"{name}: is a FIFO" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_fifo_as_a_rule_file_or_include_is_an_error(tmp_path):
    os.mkfifo(tmp_path / "ff.rw")
    (tmp_path / "inc.rw").write_text('include "ff.rw"\n')
    result = run_with_alarm(["check", str(tmp_path / "inc.rw")])
    said = result.stdout + result.stderr
    assert result.returncode == 1 and "inc.rw:1:1" in said
    assert "included file" in said and "is a FIFO" in said
    (tmp_path / "p.pir").write_text(PROGRAM)
    result = run_with_alarm(["rewrite", str(tmp_path / "p.pir"), "--pass", "x", "--rules",
                             str(tmp_path / "ff.rw")])
    assert result.returncode == 1 and "ff.rw: is a FIFO" in result.stderr


def _unblock_later(fifo, seconds=5):
    """Open ``fifo`` for writing after ``seconds`` and close it: a reader that waits on it (the
    bug) then reads nothing and the test fails instead of hanging."""

    def unblock():
        threading.Event().wait(seconds)
        os.close(os.open(fifo, os.O_RDWR))  # O_RDWR never blocks on Linux

    threading.Thread(target=unblock, daemon=True).start()


def test_read_functions_refuse_a_fifo(tmp_path):
    os.mkfifo(tmp_path / "f")
    _unblock_later(tmp_path / "f")
    with pytest.raises(FileError, match="FIFO"):
        read_text(tmp_path / "f", "rule file")
    _unblock_later(tmp_path / "f")
    with pytest.raises(FileError, match="FIFO"):
        read_npz(tmp_path / "f")


def test_a_program_may_be_a_fifo(tmp_path):
    fifo = tmp_path / "p.fifo"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "w") as f:
            f.write(PROGRAM)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert read_text(fifo, "program file", pipe=True) == PROGRAM
    writer.join(5)
    # the shell's process substitution, as a user types it
    (tmp_path / "q.pir").write_text(PROGRAM)
    result = subprocess.run(["bash", "-c", f'"{sys.executable}" -m rulepass print <(cat q.pir)'],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == PROGRAM, result.stderr


@pytest.mark.parametrize("make, expected", [
    (lambda f: f.symlink_to("nowhere.pir"), "a dangling symbolic link (to nowhere.pir"),
    (lambda f: f.symlink_to(f.name), "a symbolic link loop"),
])
def test_a_broken_link_as_forward_pir_is_named(example, capsys, make, expected):
    (example / "forward.pir").unlink()
    make(example / "forward.pir")
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert f"forward.pir: {expected}" in err and "missing" not in err


def test_a_broken_link_as_a_rule_file_is_named(tmp_path, capsys):
    (tmp_path / "loop.rw").symlink_to("loop.rw")
    assert main(["check", str(tmp_path / "loop.rw")]) == 1
    captured = capsys.readouterr()
    assert "loop.rw: a symbolic link loop" in captured.out + captured.err


def test_run_of_a_file_says_an_example_is_a_folder(tmp_path, capsys):
    (tmp_path / "program.pir").write_text(PROGRAM)
    assert main(["run", str(tmp_path / "program.pir")]) == 1
    err = capsys.readouterr().err
    assert "program.pir: is a file; an example is a folder" in err
    assert "no such example folder" not in err


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs Linux's /proc")
def test_an_output_where_no_temporary_file_can_be_made_says_so(tmp_path, capsys):
    for check in (check_writable, lambda p: write_text(p, "x")):
        with pytest.raises(FileError, match="cannot make a temporary file in /proc"):
            check("/proc/version")
    (tmp_path / "p.pir").write_text(PROGRAM)
    assert main(["print", str(tmp_path / "p.pir")]) == 0
    capsys.readouterr()
    assert main(["rewrite", str(tmp_path / "p.pir"), "--pass", "dist_to_dense",
                 "-o", "/proc/version"]) == 1
    assert "cannot make a temporary file in /proc" in capsys.readouterr().err
