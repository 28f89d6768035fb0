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
    cache.reset_session()  # as a new process
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


@pytest.mark.parametrize("value", ["off", "OFF", "0", "false", "No", " none "])
def test_a_switch_word_turns_the_cache_off_and_makes_no_folder(parses, monkeypatch, tmp_path,
                                                              value):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEPASS_CACHE", value)
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    load_rules([path])
    assert len(parses) == 2  # parsed each time: nothing cached
    assert cache.cache_folder() is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tag.rw"]


@pytest.mark.parametrize("value", ["on", "1", "TRUE", "yes"])
def test_a_switch_word_for_on_keeps_the_default_folder(monkeypatch, tmp_path, value):
    # a review: `on` made a folder named `on` in the working directory
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("RULEPASS_CACHE", value)
    assert cache.cache_folder() == tmp_path / "xdg" / "rulepass"


def test_a_folder_name_that_is_not_a_switch_is_a_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEPASS_CACHE", str(tmp_path / "offline"))
    assert cache.cache_folder() == tmp_path / "offline"


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


def _old_entries(folder, count, size=10):
    """``count`` entries of ``size`` bytes, the k-th modified k seconds after the epoch + 1000."""
    import os

    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for k in range(count):
        entry = folder / f"{k:040x}.pickle"
        entry.write_bytes(b"x" * size)
        os.utime(entry, (1000 + k, 1000 + k))


def test_the_cache_is_capped_by_entries(parses, tmp_path, monkeypatch):
    # new-user item 16: ~/.cache/rulepass grew to 2,824 entries (57 MB), nothing evicted
    folder = tmp_path / "cache"
    _old_entries(folder, 20)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 5)
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    left = sorted(p.name for p in folder.iterdir())
    assert len(left) == 5
    # the new entry and the four most recently used old ones stay
    old = [f"{k:040x}.pickle" for k in range(20)]  # the new entry's hash may start with 0 too
    assert [f"{k:040x}.pickle" for k in (16, 17, 18, 19)] == [n for n in left if n in old]
    load_rules([path])
    assert len(parses) == 1  # the new entry was kept: read back


def test_the_cache_is_capped_by_bytes_and_a_hit_is_recent(parses, tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    path = tmp_path / "tag.rw"
    path.write_text(RULES)
    load_rules([path])
    (entry,) = folder.iterdir()
    import os

    os.utime(entry, (500, 500))  # older than every other entry ...
    load_rules([path])  # ... until this hit uses it
    assert len(parses) == 1 and entry.stat().st_mtime > 10_000
    _old_entries(folder, 10, size=1000)
    monkeypatch.setattr(cache, "MAX_BYTES", 3500 + entry.stat().st_size)
    monkeypatch.setattr(cache, "PRUNE_EVERY", 1)  # prune after this process's second write too
    path.write_text(RULES.replace("o.t = 1", "o.t = 2"))
    load_rules([path])  # a miss: written, then the oldest entries beyond the bytes removed
    assert sum(p.stat().st_size for p in folder.iterdir()) <= cache.MAX_BYTES
    old = [p for p in folder.iterdir() if p.name.startswith("0" * 30)]
    assert entry.exists() and len(list(folder.iterdir())) == 2 + len(old)
    assert len(old) < 10 and all(p.stat().st_mtime >= 1000 + 10 - len(old) for p in old)


def _chain(tmp_path, count):
    """A rule file including the next, ``count`` files in all; the last defines pass ``tag``."""
    for k in range(count - 1):
        (tmp_path / f"i{k}.rw").write_text(f'include "i{k + 1}.rw"\n')
    (tmp_path / f"i{count - 1}.rw").write_text(RULES)
    return tmp_path / "i0.rw"


def test_a_rule_set_larger_than_the_cap_does_not_thrash(parses, tmp_path, monkeypatch):
    # breaker 2 item 3: with more files than the cap each run evicted what the next run needed
    # (a chain of 1,501 included files: 10 s on every run, nothing ever hit)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 5)
    top = _chain(tmp_path, 12)
    load_rules([top])
    assert len(parses) == 12
    assert len(list((tmp_path / "cache").glob("*.pickle"))) == 12  # used now: all kept
    cache.reset_session()  # the next run
    assert load_rules([top]).passes["tag"].name == "tag"
    assert len(parses) == 12  # every file read back


def test_pruning_lists_the_folder_now_and_then(parses, tmp_path, monkeypatch):
    # breaker 2 item 3: the folder was listed (and every entry lstat-ed) after every write
    listings = []
    real = cache.evict

    def counting(folder, *args, **kwargs):
        listings.append(folder)
        return real(folder, *args, **kwargs)

    monkeypatch.setattr(cache, "evict", counting)
    monkeypatch.setattr(cache, "PRUNE_EVERY", 10)
    top = _chain(tmp_path, 25)
    load_rules([top])
    assert len(parses) == 25 and len(listings) == 3  # after writes 1, 11 and 21
    cache.reset_session()
    load_rules([top])
    assert len(parses) == 25 and len(listings) == 3  # all hits: no write, no listing


def test_another_process_evicts_what_this_one_did_not_use(parses, tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    _old_entries(folder, 8)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 6)
    monkeypatch.setattr(cache, "PRUNE_EVERY", 1)
    top = _chain(tmp_path, 3)
    load_rules([top])  # 3 new entries + the 3 most recent old ones
    left = {p.name for p in folder.iterdir()}
    assert len(left) == 6 and {f"{k:040x}.pickle" for k in (5, 6, 7)} <= left
