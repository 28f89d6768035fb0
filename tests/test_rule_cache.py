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


class _Planted:
    """A pickle that makes a folder when loaded (what a planted entry could do instead)."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        import os
        return (os.mkdir, (self.marker,))


@pytest.mark.parametrize("loosen", ["folder", "entry"])
def test_an_entry_others_could_write_is_never_loaded(parses, tmp_path, loosen):
    # breaker item 3: a pickle planted in a world-writable cache folder ran code
    import os
    import pickle

    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    folder = tmp_path / "cache"
    assert (folder.stat().st_mode & 0o777) == 0o700
    marker = tmp_path / "planted"
    (entry,) = folder.glob("*.pickle")
    entry.write_bytes(pickle.dumps(_Planted(str(marker))))
    os.chmod(folder if loosen == "folder" else entry, 0o777 if loosen == "folder" else 0o666)
    assert load_rules([path]).passes["tag"].name == "tag"
    assert not marker.exists() and len(parses) == 2  # parsed, not loaded
    if loosen == "folder":  # nothing is written into a shared folder either
        assert entry.read_bytes() == pickle.dumps(_Planted(str(marker)))


def test_a_symlinked_entry_is_never_loaded(parses, tmp_path):
    import pickle

    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    (entry,) = (tmp_path / "cache").glob("*.pickle")
    marker = tmp_path / "planted"
    (tmp_path / "elsewhere.pickle").write_bytes(pickle.dumps(_Planted(str(marker))))
    entry.unlink()
    entry.symlink_to(tmp_path / "elsewhere.pickle")
    load_rules([path])
    assert not marker.exists() and len(parses) == 2
