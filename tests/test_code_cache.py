"""Generated rule code is kept between runs (engine/rewrite/codegen/code_cache.py): the same
source loads from the rule cache folder without compiling, a changed source or file name
compiles again, a damaged or foreign entry falls back to compiling, and a pass run from cached
code rewrites as one run from fresh code."""

from __future__ import annotations

import marshal
import pickle

import pytest

import rulepass.engine.lang.cache as cache
import rulepass.engine.rewrite.codegen.code_cache as code_cache
from rulepass.engine.api import load_rules
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program

SOURCE = "def f(x):\n    return x * 2 + 1\n"


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """The calls of the real compile, with the cache in a fresh folder."""
    monkeypatch.setenv("RULEPASS_CACHE", str(tmp_path / "cache"))
    cache.reset_session()
    calls = []

    def counting(source, filename, mode):
        calls.append(filename)
        return compile(source, filename, mode)

    monkeypatch.setattr(code_cache, "compile", counting, raising=False)
    return calls


def _run(code) -> int:
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - the test's own source
    return namespace["f"](20)


def test_the_same_source_loads_from_the_cache(compiles):
    first = code_cache.compile_cached(SOURCE, "<rule expression f>")
    second = code_cache.compile_cached(SOURCE, "<rule expression f>")
    assert compiles == ["<rule expression f>"]  # compiled once, then read back
    assert _run(first) == _run(second) == 41
    assert second.co_filename == "<rule expression f>"
    code_cache.compile_cached(SOURCE.replace("2", "3"), "<rule expression f>")
    code_cache.compile_cached(SOURCE, "<rule dispatch>")
    assert len(compiles) == 3  # another source, another file name: compiled again


@pytest.mark.parametrize("entry", [b"not a pickle", pickle.dumps("a string"),
                                   pickle.dumps(b"not marshal data"),
                                   pickle.dumps(marshal.dumps(12))])
def test_a_damaged_entry_is_compiled_again(compiles, tmp_path, entry):
    code_cache.compile_cached(SOURCE, "<x>")
    (stored,) = (tmp_path / "cache").iterdir()
    stored.write_bytes(entry)
    assert _run(code_cache.compile_cached(SOURCE, "<x>")) == 41
    assert len(compiles) == 2


def test_an_empty_setting_turns_it_off(compiles, monkeypatch, tmp_path):
    monkeypatch.setenv("RULEPASS_CACHE", "")
    for _ in range(2):
        code_cache.compile_cached(SOURCE, "<x>")
    assert len(compiles) == 2
    assert not (tmp_path / "cache").exists()


def test_a_failed_compile_is_not_cached(compiles, tmp_path):
    for _ in range(2):
        with pytest.raises(SyntaxError):
            code_cache.compile_cached("def f(:\n", "<x>")
    assert len(compiles) == 2
    assert not list((tmp_path / "cache").glob("*.pickle"))


def test_an_entry_others_could_write_is_never_loaded(compiles, tmp_path):
    code_cache.compile_cached(SOURCE, "<x>")
    (stored,) = (tmp_path / "cache").iterdir()
    stored.chmod(0o666)
    code_cache.compile_cached(SOURCE, "<x>")
    assert len(compiles) == 2


PROGRAM = """{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
}
"""

RULES = """
pass tag { rule r { match { o = pd_op.relu(x) } where not has(o.t) rewrite { set o.t = 1 } } }
"""


def test_a_pass_from_cached_code_rewrites_as_from_fresh_code(compiles, tmp_path):
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    outputs = []
    for _ in range(2):  # the second run's code comes from the cache (a new process's would)
        code_cache_memo_cleared()
        program = parse_program(PROGRAM)
        load_rules([path]).run_pass(program, "tag")
        outputs.append(print_program(program))
    made = len(compiles)
    assert made > 0 and outputs[0] == outputs[1] and "t:1" in outputs[0]
    code_cache_memo_cleared()
    load_rules([path]).run_pass(parse_program(PROGRAM), "tag")
    assert len(compiles) == made  # nothing compiled again


def code_cache_memo_cleared() -> None:
    """Forget the code this process made (the memos a new process would not have)."""
    from rulepass.engine.rewrite.codegen import actions, dispatch, exprs

    for module in (actions, dispatch, exprs):
        memo = getattr(module, "_CACHE", None)
        if memo is not None:
            memo.clear()
