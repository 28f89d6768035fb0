"""Round trip of every captured Paddle program: ``print(parse(text)) == text`` byte for byte
(`[`docs/spec/program-format.md`](docs/spec/program-format.md)`, "Round trip"). The corpus is globbed when tests are collected,
so programs added under ``tests/data/paddle/`` are checked without editing this file."""

from pathlib import Path

import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program

CORPUS = Path(__file__).parent / "data" / "paddle"


def corpus_files() -> list[Path]:
    """Every ``.pir`` file under ``tests/data/paddle``, sorted."""
    return sorted(CORPUS.glob("**/*.pir"))


def test_corpus_is_there():
    # Without this an empty glob would make the parametrized test below pass vacuously.
    assert len(corpus_files()) >= 200


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_print_parse_is_identity(path):
    text = path.read_text()
    printed = print_program(parse_program(text, str(path)))
    if printed != text:
        # Name the first differing line instead of dumping two 100 kB strings.
        for n, (want, got) in enumerate(zip(text.split("\n"), printed.split("\n")), 1):
            assert got == want, f"{path}:{n} prints differently"
    assert printed == text


def test_parse_runs_without_the_cyclic_collector_and_restores_it():
    # A program is many long-lived objects: the collector walking them again at each of its
    # collections during the parse made a fifth of `rulepass print` on a 25,000-op program.
    import gc

    from rulepass.engine.errors import ParseError

    text = (CORPUS / "pp2_vpp2" / "rank0" / "11_before_dist2dense.pir").read_text()
    started = []

    def count(phase, info):
        if phase == "start":
            started.append(info["generation"])

    assert gc.isenabled()
    gc.callbacks.append(count)
    try:
        for _ in range(3):  # some thousands of objects: several collections without the pause
            parse_program(text)
        assert started == []
        assert gc.isenabled()
        with pytest.raises(ParseError):
            parse_program(text + "\nnot a program line\n")
        assert gc.isenabled()
        gc.disable()
        try:
            parse_program(text)
            assert not gc.isenabled()  # a caller's own pause is left as it was
        finally:
            gc.enable()
    finally:
        gc.callbacks.remove(count)
