"""Where the command line's outputs go: program text on stdout (:func:`write_stdout`), and the
check, before any work, that no output file is one of the command's inputs or another of its
outputs (:func:`check_outputs`).

- stdout: the text is written as UTF-8 bytes, in chunks, to ``sys.stdout.buffer``: CPython
  3.11's ``sys.stdout.write`` of a string over 2 GiB wrote one ``write(2)``'s worth and dropped
  the rest (exit 0), and a locale that is not UTF-8 (``PYTHONIOENCODING=ascii``) made a
  ``UnicodeEncodeError`` traceback of a program holding ``é``. Program files are UTF-8 whatever
  the locale, so is their text on stdout.
- clashes: ``rewrite p.pir --trace p.pir`` replaced the input program by the trace (exit 0);
  only ``rewrite p.pir -o p.pir`` (in place, atomically) may name an input as an output;
  ``run --out O`` with ``O/params_final.npz`` a symlink to the example's ``params_final.npz``
  replaced Paddle's reference; ``--trace inner.rw``, a file ``--rules outer.rw`` includes,
  replaced it, so the rule files are every file loading the rules reads (:func:`rules_read`).
  Paths are compared by what they resolve to (symlinks followed, hard links by inode).
- devices and FIFOs (``/dev/null``) are written through and may be named more than once; so may
  a path naming an open descriptor (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``,
  ``/proc/self/fd/N``: :func:`~rulepass.engine.files.descriptor`), which the writer writes
  through that descriptor where it stands (``-o /dev/stdout >> log`` appends; ``-o /dev/stdout
  --trace /dev/stdout`` writes the trace, then the program). Such a path is never compared with
  the inputs: what the descriptor holds open was opened by the caller, not named by it.
"""

from __future__ import annotations

import os
import stat
import sys

from rulepass.cli.inputs import UsageError

#: characters per write to stdout (each chunk is encoded to UTF-8 on its own)
CHUNK = 1 << 20


class OutputClash(UsageError):
    """An output path that is one of the command's inputs or another of its outputs: wrong usage
    (exit 2), one line, and nothing is written."""

    show_usage = False


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout as UTF-8 bytes, :data:`CHUNK` characters at a time, through
    ``sys.stdout.buffer`` (a text stream without one, such as ``io.StringIO``, gets the text).

    Raises:
        BrokenPipeError: the reader went away (``| head``); ``main`` exits 0 then.
    """
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        return
    stream.flush()  # what was written as text goes first
    for start in range(0, len(text), CHUNK):
        buffer.write(text[start:start + CHUNK].encode("utf-8"))
    buffer.flush()


def _identity(path):
    """What ``path`` writes to or reads from: ``("file", dev, inode)`` for an existing regular
    file, ``("path", realpath)`` for one that does not exist yet, None for a device, a FIFO, a
    folder or an open descriptor (``/dev/stdout``; never a clash)."""
    from rulepass.engine.files import descriptor

    if descriptor(path) is not None:
        return None
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return ("path", real)
    if stat.S_ISREG(st.st_mode):
        return ("file", st.st_dev, st.st_ino)
    return None


def rule_files(paths) -> list:
    """The ``.rw`` files named by ``--rules`` paths (a folder: its ``*.rw`` files)."""
    from pathlib import Path

    out = []
    for path in paths:
        path = Path(path)
        out.extend(sorted(path.glob("*.rw")) if path.is_dir() else [path])
    return out


def rules_read(paths) -> list:
    """(label, path) of every ``.rw`` file loading the ``--rules`` ``paths`` reads: the files
    named (a folder: its ``*.rw`` files) as ``"a --rules file"``, and the files they include, at
    any depth, as ``"a rule file (included at outer.rw:1:1)"``.

    Raises:
        RuleSyntaxError, RuleCompileError: a file that does not parse or does not exist, as
            loading the rules would report it.
    """
    from rulepass.engine.rewrite.compiled import Sources, load_modules

    sources = Sources()
    load_modules(list(paths), sources)
    return [(f"a rule file (included at {sources.included_at[name]})"
             if name in sources.included_at else "a --rules file", name)
            for name in sources.texts]


def command_inputs(rules, named=()) -> list:
    """(label, path) of what a command reads: ``named`` (its program: ``("the input program",
    path)``), its ``--rules`` files (folders expanded) with what they include
    (:func:`rules_read`), and the installed rules."""
    from rulepass.engine.api import installed_rules

    inputs = list(named)
    inputs += rules_read(rules) if rules else []
    inputs += [("an installed rule file", path) for path in rule_files([installed_rules()])]
    return inputs


def check_outputs(inputs, outputs, in_place=()) -> None:
    """Refuse, before any work, an output that is an input or another output.

    ``inputs``: (label, path) of every file the command reads (``"the input program"``,
    ``"a --rules file"``); ``outputs``: (option, path) of every file it will write (``"-o"``,
    ``"--trace"``, ``"--dump-dir"``). Message: ``-o p.pir is the input program: ...``.
    ``in_place``: (option, input label) pairs that may name one file: ``("-o", "the input
    program")`` rewrites the program in place (the atomic writer keeps it whole on failure).

    Raises:
        OutputClash: naming both paths.
    """
    seen = {}
    for label, path in inputs:
        key = _identity(path)
        if key is not None and key[0] == "file":
            seen.setdefault(key, (label, path, "writing it would overwrite it"))
    for label, path in outputs:
        key = _identity(path)
        if key is None:
            continue
        if key in seen and (label, seen[key][0]) not in in_place:
            other_label, other, effect = seen[key]
            same = "" if str(other) == str(path) else f" ({other})"
            raise OutputClash(f"{label} {path} is {other_label}{same}: {effect}; give another "
                              "path (nothing was written)")
        seen[key] = (f"also the {label} output", path, "one would overwrite the other")
