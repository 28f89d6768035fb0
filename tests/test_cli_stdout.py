"""Program text on stdout (new-user items 3 and 8): UTF-8 bytes whatever the locale, written in
chunks (CPython 3.11 wrote at most 2 GiB of one `sys.stdout.write` and dropped the rest)."""

import io
import os
import subprocess
import sys

from rulepass.cli import destinations

PROGRAM = """{
    (%0) = "pd_op.data" () {name:"café ×"} : () -> tensor<4xf32>
}
"""


def run(args, **env):
    return subprocess.run([sys.executable, "-m", "rulepass", *args], capture_output=True,
                          timeout=120, env={**os.environ, **env})


def test_program_text_is_utf8_when_the_locale_is_not(tmp_path):
    f = tmp_path / "e.pir"
    f.write_text(PROGRAM, encoding="utf-8")
    for args in (["print", str(f)], ["rewrite", str(f), "--pass", "dist_to_dense", "-p",
                                     "rank=0"]):
        result = run(args, PYTHONIOENCODING="ascii", LC_ALL="C")
        assert result.returncode == 0, result.stderr
        assert 'name:"café ×"' in result.stdout.decode("utf-8")
        assert b"Traceback" not in result.stderr


class _Buffer(io.BytesIO):
    def __init__(self):
        super().__init__()
        self.sizes = []

    def write(self, data):
        self.sizes.append(len(data))
        return super().write(data)


def test_write_stdout_writes_bytes_in_chunks(monkeypatch):
    buffer = _Buffer()
    stream = io.TextIOWrapper(buffer, encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.setattr(destinations, "CHUNK", 10)
    text = "é" * 25
    destinations.write_stdout(text)
    assert buffer.getvalue() == text.encode("utf-8")
    assert buffer.sizes == [20, 20, 10]  # 10 characters (20 bytes) at a time


def test_a_closed_pipe_still_exits_0(tmp_path):
    f = tmp_path / "big.pir"
    body = "".join(f'    (%{k}) = "pd_op.data" () {{name:"x{k}"}} : () -> tensor<4xf32>\n'
                   for k in range(20_000))
    f.write_text("{\n" + body + "}\n")
    result = subprocess.run(f'"{sys.executable}" -m rulepass print "{f}" | head -1', shell=True,
                            capture_output=True, timeout=120)
    assert result.stdout == b"{\n" and result.stderr == b""
