"""Parsed rule files kept between runs: `parse_rules_cached(text, filename)` is `parse_rules`
with the resulting AST pickled in the user's cache folder, so a command that loads the installed
`rules/` (every `rulepass rewrite`) does not parse a dozen files with lark again each time — the
way Python keeps `.pyc` files.

An entry is keyed by the SHA-1 of the file's text, its name (spans hold it), and the source of
the parser itself (`grammar/rw.lark`, `lang/parse.py`, `lang/nodes.py`, this module), so a
changed rule or a changed parser is parsed afresh. The folder is `$RULEPASS_CACHE` (an empty
value turns the cache off), else `$XDG_CACHE_HOME/rulepass`, else `~/.cache/rulepass`; made
private to the user (0700). A pickle runs code when it is loaded: a folder or an entry that is
not the user's own, or that others can write (a planted entry), is never read nor written —
the rules are parsed instead. A value that reads as a switch is never a folder name: `off`, `0`,
`false`, `no`, `none` (any case) turn the cache off too, `on`, `1`, `true`, `yes` keep it in its
default folder (a folder named `off` in the working directory is never what was meant). Any problem with it — unwritable, a damaged or foreign entry — falls
back to parsing, silently: the cache only saves time. Syntax errors are never cached.
:func:`cached` is the same store for any other result: the generated Python code of the rules
(``rewrite/codegen/code_cache.py``) is kept in the same folder under the same rules and caps.

The folder is capped at :data:`MAX_ENTRIES` (4,000) entries and :data:`MAX_BYTES` (128 MiB):
without a cap every edit of a rule file, every fuzzer's text made one more entry, without end
(2,824 entries, 57 MB). The installed `rules/` take 16 entries, 0.6 MB (1.4–148 KB each); a
chain of 1,501 small included files takes 1,501 entries, 6 MB. Pruning removes the least recently used
entries (by modification time; a hit touches its entry) beyond the caps. It lists the folder, so
it runs only when this process writes: after its first write and then once every
:data:`PRUNE_EVERY` writes — a run whose files all hit never lists the folder, and a run that
writes W entries lists it 1 + W / PRUNE_EVERY times (pruning after every write made a 1,501-file
rule set quadratic: 10 s a run). An entry this process read or wrote is never removed by it: a
rule set larger than the caps stays whole (the folder then holds more than the caps until
another process prunes), so the next run hits instead of each run evicting what the next needs.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import stat
import tempfile
from pathlib import Path

import rulepass.engine.lang.nodes as A
from rulepass.engine.lang.parse import parse_rules

#: The most entries the cache folder keeps, and the most bytes they take together (entries this
#: process used are kept beyond these).
MAX_ENTRIES = 4000
MAX_BYTES = 128 * 2**20
#: Writes between two prunings of the folder by one process (the first write prunes too).
PRUNE_EVERY = 100

#: Per cache folder: the entry names this process read or wrote (never evicted by it), and how
#: many entries it wrote since it last pruned (absent: it never pruned there).
_used: dict[Path, set[str]] = {}
_writes_since_pruning: dict[Path, int] = {}


def reset_session() -> None:
    """Forget which entries this process used and when it last pruned, as a new process would
    start (for tests, and a long-lived embedding that loads unrelated rule sets in turn)."""
    _used.clear()
    _writes_since_pruning.clear()

_HERE = Path(__file__).resolve().parent
#: what the parse depends on besides the file itself
_PARSER_SOURCES = (_HERE.parent.parent / "grammar" / "rw.lark", _HERE / "parse.py",
                   _HERE / "nodes.py", _HERE / "def_nodes.py", _HERE / "grad_nodes.py",
                   _HERE / "syntax_errors.py", _HERE / "strings.py",
                   _HERE / "nesting.py", Path(__file__).resolve())


@functools.lru_cache(maxsize=1)
def parser_digest() -> str:
    """SHA-1 over the parser's sources ("" when one cannot be read: then nothing is cached)."""
    digest = hashlib.sha1()
    try:
        for path in _PARSER_SOURCES:
            digest.update(path.read_bytes())
    except OSError:
        return ""
    return digest.hexdigest()


#: ``RULEPASS_CACHE`` values that turn the cache off (compared lowercased), with the empty one,
#: and those that keep it on in its default folder: switch words, never folder names.
OFF_VALUES = frozenset({"", "off", "0", "false", "no", "none"})
ON_VALUES = frozenset({"on", "1", "true", "yes"})


def cache_folder() -> Path | None:
    """Where entries go, or None when caching is off (``RULEPASS_CACHE`` empty or one of
    :data:`OFF_VALUES`; one of :data:`ON_VALUES` means the default folder)."""
    chosen = os.environ.get("RULEPASS_CACHE")
    switch = chosen.strip().lower() if chosen is not None else None
    if switch in OFF_VALUES:
        return None
    if chosen is not None and switch not in ON_VALUES:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulepass"


def _owned_private(st: os.stat_result) -> bool:
    """Whether the file ``st`` describes is this user's and no one else can write it."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _private(folder: Path) -> bool:
    """Whether ``folder`` is a folder of this user that no one else can write in: a pickle runs
    code when loaded, so an entry another user could have planted is never read."""
    try:
        st = os.stat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and _owned_private(st)


def _load_entry(entry: Path):
    """The unpickled entry, if it is a regular file (not a symlink) of this user that no one else
    can write; raises OSError (or what unpickling raises) otherwise."""
    fd = os.open(entry, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not (stat.S_ISREG(st.st_mode) and _owned_private(st)):
            raise OSError(f"{entry}: not a private cache entry")
        module = pickle.load(f)
    with contextlib.suppress(OSError):
        os.utime(entry)  # used now: the last to be evicted
    return module


def evict(folder: Path, max_entries: int | None = None, max_bytes: int | None = None,
          keep: frozenset[str] | set[str] = frozenset()) -> int:
    """Remove the least recently used entries (``*.pickle``, oldest modification time first) of
    the cache ``folder`` until at most ``max_entries`` remain taking at most ``max_bytes``
    (default :data:`MAX_ENTRIES`, :data:`MAX_BYTES`); also temporary files a killed writer left
    (older than an hour). Entries named in ``keep`` (file names) are never removed, though they
    count toward the caps. Only this user's regular files are removed. Lists the folder once:
    O(entries). Returns how many were removed; problems (a file gone meanwhile) are skipped."""
    import time

    max_entries = MAX_ENTRIES if max_entries is None else max_entries
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    entries, removed = [], 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        path = folder / name
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
            continue
        if name.endswith(".pickle"):
            entries.append((st.st_mtime, st.st_size, path))
        elif name.endswith(".tmp") and st.st_mtime < time.time() - 3600:
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed += 1
    entries.sort(reverse=True)  # newest first: kept
    total = 0
    for count, (_, size, path) in enumerate(entries, 1):
        total += size
        if (count > 1 and (count > max_entries or total > max_bytes)  # the newest stays
                and path.name not in keep):
            with contextlib.suppress(OSError):
                os.unlink(path)
                removed += 1
    return removed


def _prune_now_and_then(folder: Path, used: set[str]) -> None:
    """After a write: prune ``folder`` if this is the process's first write there or the
    :data:`PRUNE_EVERY`-th since it last pruned, keeping the entries in ``used``."""
    written = _writes_since_pruning.get(folder)
    if written is not None and written + 1 < PRUNE_EVERY:
        _writes_since_pruning[folder] = written + 1
        return
    _writes_since_pruning[folder] = 0
    evict(folder, keep=used)


def parse_rules_cached(text: str, filename: str | None = None) -> A.Module:
    """`parse_rules(text, filename)`, answered from the cache when it holds this text parsed
    by this parser. Raises what `parse_rules` raises."""
    parser = parser_digest()
    if not parser:
        return parse_rules(text, filename)
    key = f"{parser}\0{filename}\0".encode() + text.encode()
    return cached(key, lambda: parse_rules(text, filename), lambda found: found,
                  lambda module: module if isinstance(module, A.Module) else None)


def cached(key: bytes, make, stored, restored):
    """``make()``, kept in the cache folder under the SHA-1 of ``key`` (which must name all the
    result depends on): ``stored(result)`` is what is pickled, ``restored(unpickled)`` turns an
    entry back into the result (None: not usable, so ``make()`` runs again). With the cache off,
    or any problem reading or writing it, this is ``make()``. Raises what ``make`` raises (its
    errors are never cached)."""
    folder = cache_folder()
    if folder is None:
        return make()
    entry = folder / f"{hashlib.sha1(key).hexdigest()}.pickle"
    used = _used.setdefault(folder, set())
    if _private(folder):
        try:
            found = restored(_load_entry(entry))
            if found is not None:
                used.add(entry.name)
                return found
        except Exception:  # absent, damaged, foreign, or from another version: make it again
            pass
    result = make()
    temporary = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(folder):  # someone else's or shared: never write (nor read) there
            return result
        # write to a temporary file and rename it, so a reader never sees half an entry
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(stored(result), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)
        temporary = None
        used.add(entry.name)
        _prune_now_and_then(folder, used)
    except (OSError, pickle.PicklingError, RecursionError, ValueError, TypeError):
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
    return result
