"""Parsed rule files are kept between runs (engine/lang/cache.py): the same text loads from the
cache without lark, a changed text or a damaged entry is parsed again, syntax errors are never
cached, and an empty RULEPASS_CACHE turns the cache off."""

from __future__ import annotations

import pytest

import rulepass.engine.lang.cache as cache
from rulepass.engine.api import load_rules
from rulepass.engine.errors import RuleSyntaxError

RULES = """
pass tag { rule r { match { o = pd_op.relu(x) } where not has(o.t) rewrite { set o.t = 1 } } }
"""


@pytest.fixture
def parses(monkeypatch, tmp_path):
    """The calls of the real parser, with the cache in a fresh folder."""
    monkeypatch.setenv("RULEPASS_CACHE", str(tmp_path / "cache"))
    calls = []
    real = cache.parse_rules

    def counting(text, filename=None):
        calls.append(filename)
        return real(text, filename)

    monkeypatch.setattr(cache, "parse_rules", counting)
    return calls


def test_the_same_file_loads_from_the_cache(parses, tmp_path):
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    first = load_rules([path])
    second = load_rules([path])
    assert parses == [str(path)]  # parsed once, then read back
    assert first.passes["tag"].decl == second.passes["tag"].decl
    path.write_text(RULES.replace("o.t = 1", "o.t = 2"))
    load_rules([path])
    assert parses == [str(path)] * 2  # a changed file is parsed again


def test_a_damaged_entry_is_parsed_again(parses, tmp_path):
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    for entry in (tmp_path / "cache").iterdir():
        entry.write_bytes(b"not a pickle")
    assert load_rules([path]).passes["tag"].name == "tag"
    assert len(parses) == 2


def test_syntax_errors_are_not_cached(parses, tmp_path):
    path = tmp_path / "bad.rw"
    path.write_text("pass p { rule r { match { o = } } }")
    for _ in range(2):
        with pytest.raises(RuleSyntaxError) as caught:
            load_rules([path])
        assert "bad.rw:1:" in str(caught.value)
    assert len(parses) == 2
    assert not list((tmp_path / "cache").glob("*.pickle"))


def test_an_empty_setting_turns_the_cache_off(parses, monkeypatch, tmp_path):
    monkeypatch.setenv("RULEPASS_CACHE", "")
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    load_rules([path])
    assert len(parses) == 2
    assert cache.cache_folder() is None
