"""engine/files.py: the one text reader of every input file and the one atomic writer of every
output (issue 18: non-UTF-8 input was a traceback; a failed `-o` write destroyed the input)."""

import os
import subprocess
import sys

import pytest

from rulepass.cli.main import main
from rulepass.engine.files import FileError, check_output_dir, check_writable, read_text, write_text

PROGRAM = """{
    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
"""


def test_read_text_names_line_and_column_of_a_bad_byte(tmp_path):
    f = tmp_path / "p.pir"
    f.write_bytes(b"{\n    ab\xff\xfe\n}\n")
    with pytest.raises(FileError) as info:
        read_text(f, "program file")
    assert info.value.where == f"{f}:2:7"
    assert "not a text file" in str(info.value) and "0xff" in str(info.value)


@pytest.mark.parametrize("make, expected", [
    (lambda d: d / "missing.pir", "no such program file"),
    (lambda d: d, "is a folder"),
])
def test_read_text_missing_and_folder(tmp_path, make, expected):
    with pytest.raises(FileError, match=expected):
        read_text(make(tmp_path), "program file")


@pytest.mark.parametrize("command", [["print"], ["verify"], ["rewrite", "--pass", "x"]])
def test_cli_non_utf8_program_is_one_line(tmp_path, capsys, command):
    f = tmp_path / "p.pir"
    f.write_bytes(PROGRAM.encode().replace(b'"x"', b'"x\xff\xfe"'))
    args = [command[0], str(f), *command[1:]]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:2:") and "not a text file" in err and "Traceback" not in err


def test_check_binary_rule_file(tmp_path, capsys):
    f = tmp_path / "bad.rw"
    f.write_bytes(b"pass p {\n  \xff\xfe\x00\x81 }\n")
    assert main(["check", str(f)]) == 1
    err = capsys.readouterr()
    assert f"{f}:2:3" in err.err + err.out and "not a text file" in err.err + err.out


def test_rewrite_rules_binary_rule_file(tmp_path, capsys):
    (tmp_path / "p.pir").write_text(PROGRAM)
    (tmp_path / "bad.rw").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["rewrite", str(tmp_path / "p.pir"), "--pass", "x", "--rules",
                 str(tmp_path / "bad.rw")]) == 1
    assert "not a text file" in capsys.readouterr().err


def test_write_text_is_atomic_and_keeps_the_mode(tmp_path):
    f = tmp_path / "out.pir"
    f.write_text("old")
    os.chmod(f, 0o640)
    write_text(f, "new")
    assert f.read_text() == "new" and (f.stat().st_mode & 0o777) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.pir"]  # no temporary left


# A child with `ulimit -f` of 1 KiB (SIGXFSZ is ignored by Python: the write fails with EFBIG).
UNDER_FILE_SIZE_LIMIT = ("import resource, sys\n"
                         "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))\n"
                         "from rulepass.cli.main import main\n"
                         "sys.exit(main(sys.argv[1:]))\n")

TAG_PASS = """
pass tag_relu {
  rule tag {
    match { r = pd_op.relu(_) }
    where not has(r.tagged)
    rewrite { set r.tagged = true }
  }
}
"""


def test_rewrite_in_place_over_the_file_size_limit_keeps_the_input(tmp_path):
    # A program larger than the limit: the write fails half-way; the input must survive intact.
    lines = ["{", '    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>']
    for k in range(1, 60):
        lines.append(f'    (%{k}) = "pd_op.relu" (%{k - 1}) {{}} : (tensor<4xf32>) -> tensor<4xf32>')
    text = "\n".join(lines + ["}", ""])
    f = tmp_path / "p.pir"
    f.write_text(text)
    rules = tmp_path / "tag.rw"
    rules.write_text(TAG_PASS)
    r = subprocess.run([sys.executable, "-c", UNDER_FILE_SIZE_LIMIT, "rewrite", str(f),
                        "--pass", "tag_relu", "--rules", str(rules), "-o", str(f)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "cannot write" in r.stderr
    assert f.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.pir", "tag.rw"]


def test_check_writable_and_output_dir(tmp_path):
    with pytest.raises(FileError, match="does not exist"):
        check_writable(tmp_path / "missing" / "t.jsonl", "trace file")
    with pytest.raises(FileError, match="is a folder"):
        check_writable(tmp_path, "trace file")
    (tmp_path / "file").write_text("")
    with pytest.raises(FileError, match="existing file"):
        check_output_dir(tmp_path / "file")
    with pytest.raises(FileError):
        check_output_dir("/proc/rulepass_x")
    assert check_output_dir(tmp_path / "a" / "b").is_dir()


def test_rewrite_bad_output_paths_fail_before_the_pass(tmp_path, capsys):
    (tmp_path / "p.pir").write_text(PROGRAM)
    program = str(tmp_path / "p.pir")
    assert main(["rewrite", program, "--pass", "x", "--trace",
                 str(tmp_path / "missing" / "t.jsonl")]) == 1
    out = capsys.readouterr()
    # the pass does not even exist: the path was checked first, and nothing went to stdout
    assert "missing" in out.err and "does not exist" in out.err and out.out == ""
    assert main(["rewrite", program, "--pass", "x", "-o", str(tmp_path)]) == 1
    assert "is a folder" in capsys.readouterr().err


@pytest.mark.parametrize("out", ["existing", "/proc/rulepass_x"])
def test_run_bad_out_fails_before_the_run(tmp_path, capsys, out):
    (tmp_path / "existing").write_text("")
    path = out if out.startswith("/") else str(tmp_path / out)
    from pathlib import Path
    example = Path(__file__).parent.parent / "examples" / "mp2"
    assert main(["run", str(example), "--out", path]) == 1
    captured = capsys.readouterr()
    assert path in captured.err and "Traceback" not in captured.err
    assert "loss per step" not in captured.out  # it did not run


# Issue 18, breaker item 1: -o and --trace replaced whatever was at the path (a device, a FIFO,
# a symlink) by a regular file.

def test_write_through_a_symlink_replaces_its_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "target.pir"
    target.write_text("old")
    link = tmp_path / "link.pir"
    link.symlink_to(target.name)
    write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == "target.pir"
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pir", "target.pir"]


def test_write_through_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.pir"
    link.symlink_to("made.pir")
    write_text(link, "new")
    assert link.is_symlink() and (tmp_path / "made.pir").read_text() == "new"


def test_write_into_a_fifo_writes_through_it(tmp_path):
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_text(fifo, "through the pipe")
    reader.join(10)
    assert received == [b"through the pipe"]
    import stat
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a FIFO, not a regular file


def test_write_to_a_symlink_loop_is_one_line(tmp_path):
    (tmp_path / "l1").symlink_to("l2")
    (tmp_path / "l2").symlink_to("l1")
    with pytest.raises(FileError, match="cannot write"):
        write_text(tmp_path / "l1", "x")
    with pytest.raises(FileError, match="cannot write"):
        check_writable(tmp_path / "l1")


def test_rewrite_o_symlink_keeps_the_link(tmp_path, capsys):
    (tmp_path / "p.pir").write_text(PROGRAM)
    (tmp_path / "t.pir").write_text("old")
    (tmp_path / "link.pir").symlink_to("t.pir")
    rules = tmp_path / "tag.rw"
    rules.write_text(TAG_PASS)
    assert main(["rewrite", str(tmp_path / "p.pir"), "--pass", "tag_relu", "--rules", str(rules),
                 "-o", str(tmp_path / "link.pir")]) == 0
    assert (tmp_path / "link.pir").is_symlink()
    assert "tagged" in (tmp_path / "t.pir").read_text()


@pytest.mark.parametrize("args", [
    ["rewrite", "{program}", "--pass", "x", "-o", ""],
    ["rewrite", "{program}", "--pass", "x", "--trace", ""],
    ["rewrite", "{program}", "--pass", "x", "--dump-dir", ""],
    ["run", "mp2", "--out", ""],
    ["parallelize", "{program}", "--plan", ""],
    ["print", ""],
])
def test_an_empty_path_is_wrong_usage(tmp_path, capsys, args):
    # breaker item 19: `-o ""` printed to stdout and `run --out ""` wrote nothing, both exit 0
    (tmp_path / "p.pir").write_text(PROGRAM)
    args = [a.replace("{program}", str(tmp_path / "p.pir")) for a in args]
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert "an empty path" in captured.err and captured.out == ""


# Breaker items 12 and 18: a .npy renamed params.npz was a TypeError, a text file given as an
# npz said "This file contains pickled (object) data", a deep reference.json a RecursionError.

def test_read_npz_refuses_what_is_not_an_archive(tmp_path):
    import numpy as np

    from rulepass.engine.files import read_npz

    np.save(tmp_path / "a.npy", np.zeros(3))
    (tmp_path / "a.npy").rename(tmp_path / "params.npz")
    with pytest.raises(FileError, match="a single .npy array, not an .npz archive"):
        read_npz(tmp_path / "params.npz")
    (tmp_path / "text.npz").write_text("just text\n")
    with pytest.raises(FileError, match="not an .npz archive"):
        read_npz(tmp_path / "text.npz")
    np.savez(tmp_path / "objects.npz", ok=np.zeros(2), bad=np.array([{"a": 1}], dtype=object))
    with pytest.raises(FileError, match="'bad' is an array of Python objects"):
        read_npz(tmp_path / "objects.npz")
    (tmp_path / "cut.npz").write_bytes((tmp_path / "objects.npz").read_bytes()[:40])
    with pytest.raises(FileError, match="damaged"):
        read_npz(tmp_path / "cut.npz")
    with pytest.raises(FileError, match="no such"):
        read_npz(tmp_path / "missing.npz")


def test_read_json_deep_and_bad(tmp_path):
    from rulepass.engine.files import read_json

    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(FileError, match="nested too deep"):
        read_json(tmp_path / "deep.json")
    (tmp_path / "bad.json").write_text('{"losses": [1,\n 2,, 3]}')
    with pytest.raises(FileError) as info:
        read_json(tmp_path / "bad.json")
    assert info.value.where == f"{tmp_path / 'bad.json'}:2:4"


@pytest.mark.parametrize("name, make, message", [
    ("params.npz", lambda p: __import__("numpy").save(p.with_suffix(".npy"), [1.0])
     or p.with_suffix(".npy").rename(p), "a single .npy array"),
    ("data.npz", lambda p: p.write_text("text"), "not an .npz archive"),
    ("reference.json", lambda p: p.write_text('{"losses":' + "[" * 100_000), "nested too deep"),
])
def test_run_bad_arrays_and_reference_are_one_line(tmp_path, capsys, name, make, message):
    import shutil
    from pathlib import Path

    example = tmp_path / "mp2"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "mp2", example)
    (example / name).unlink()
    make(example / name)
    assert main(["run", str(example)]) == 1
    err = capsys.readouterr().err
    assert str(example / name) in err and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# Breaker items 12 and 18: a symlink loop given to `check`, `--rules` or `include` was a
# traceback (RuntimeError "Symlink loop"); `check /dev/zero` said "no such rule file";
# `include "adir"` (a folder) said "does not exist".

@pytest.fixture
def loop(tmp_path):
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    return tmp_path / "loop1"


def test_check_a_symlink_loop(loop, capsys):
    assert main(["check", str(loop)]) == 1
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert str(loop) in text and "symbolic links" in text and "Traceback" not in text


def test_rules_a_symlink_loop(loop, tmp_path, capsys):
    (tmp_path / "p.pir").write_text(PROGRAM)
    assert main(["rewrite", str(tmp_path / "p.pir"), "--pass", "x", "--rules", str(loop)]) == 1
    err = capsys.readouterr().err
    assert str(loop) in err and "symbolic links" in err


@pytest.mark.parametrize("include, message", [
    ("loop1", "symbolic links"), ("adir", "is a folder, not a rule file"),
    ("nothing.rw", "does not exist"), ("/dev/zero", "not a regular file"),
])
def test_include_problems_are_located(loop, tmp_path, capsys, include, message):
    (tmp_path / "adir").mkdir()
    (tmp_path / "main.rw").write_text(f'include "{include}"\n')
    assert main(["check", str(tmp_path / "main.rw")]) == 1
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert f"{tmp_path / 'main.rw'}:1:" in text and message in text, text


def test_check_a_device_is_not_read(capsys):
    assert main(["check", "/dev/zero"]) == 1
    captured = capsys.readouterr()
    assert "/dev/zero" in captured.out + captured.err
    assert "not a regular file" in captured.out + captured.err


def test_print_a_device_is_not_read(capsys):
    assert main(["print", "/dev/zero"]) == 1
    assert "is a device, not a program file" in capsys.readouterr().err


def test_a_descriptor_path_is_written_through_the_open_descriptor(tmp_path):
    # breaker 2 item 2: /dev/fd/N reopened (truncated) or renamed over the file behind it
    from rulepass.engine.files import descriptor

    log = tmp_path / "log"
    log.write_text("kept\n")
    link = tmp_path / "link"
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        link.symlink_to(f"/dev/fd/{fd}")
        assert descriptor(f"/dev/fd/{fd}") == fd == descriptor(link)
        assert descriptor(f"/proc/self/fd/{fd}") == fd == descriptor(f"/proc/{os.getpid()}/fd/{fd}")
        assert descriptor("/dev/stdout") == 1 and descriptor("/dev/stderr") == 2
        assert descriptor(log) is None and descriptor("/proc/1/fd/1") is None
        check_writable(f"/dev/fd/{fd}")
        write_text(f"/dev/fd/{fd}", "one\n")
        write_text(link, "two\n")
        assert log.read_text() == "kept\none\ntwo\n" and log.stat().st_ino == os.stat(fd).st_ino
    finally:
        os.close(fd)
    with pytest.raises(FileError, match="not open"):
        check_writable(f"/dev/fd/{fd}", "trace file")
    fd = os.open(log, os.O_RDONLY)
    try:
        with pytest.raises(FileError, match="not open for writing"):
            check_writable(f"/dev/fd/{fd}", "trace file")
    finally:
        os.close(fd)
