"""Reading and writing the user's files: one safe text reader for every input file (programs,
rule files, configs) and one atomic writer for every output, so that a bad file is one clear line
and a failed write never destroys what was there before.

- :func:`read_text`: the text of a UTF-8 file; a missing file, a folder, bytes that are not UTF-8
  or an OS error is a :class:`FileError` naming the path (and, for bad bytes, the line and column).
- :func:`write_text` / :func:`write_bytes`: write to a temporary file in the same folder, flush it
  to disk and rename it over the target (``os.replace`` is atomic on POSIX): a full disk or a
  ``ulimit -f`` half-way leaves the old file as it was, even when it is the input being rewritten.
  A symlink's target is replaced (the link stays); a FIFO or a device is written through, never
  replaced by a regular file; a path naming an open file descriptor (``/dev/stdout``,
  ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``: :func:`descriptor`) is written through
  that descriptor, never opened anew, truncated or renamed over (``-o /dev/stdout >> log``
  appends to the log).
- :func:`read_json` / :func:`read_npz`: the same for a JSON file and numpy's ``.npz`` archives
  (never a pickle; a text file or a renamed ``.npy`` is "not an .npz archive").
- :func:`check_writable` / :func:`check_output_dir`: the checks a command makes *before* its work,
  so that ``-o /proc/x`` fails at once instead of after a long run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from rulepass.engine.errors import RulepassError


class FileError(RulepassError):
    """A file that cannot be read or written: missing, a folder, not UTF-8 text, no permission,
    no space. The message starts with the path (and line:col where bytes are at fault)."""

    kind = "file error"

    def headline(self) -> str:
        """`path[:line:col]: message` (the kind adds nothing a reader needs here)."""
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}{self.message}"


def _decode_position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte ``offset`` of ``data``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, col


def link_problem(path) -> str | None:
    """Why the symbolic link ``path`` leads nowhere ("a symbolic link loop", "a dangling symbolic
    link to X"), or None when ``path`` is not such a link."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except FileNotFoundError:
        return f"a dangling symbolic link (to {os.readlink(path)}, which does not exist)"
    except OSError as e:
        if e.errno == errno.ELOOP:
            return "a symbolic link loop (too many levels of symbolic links)"
        return None
    return None


def check_input(path, what: str = "file", pipe: bool = False) -> None:
    """Check, without opening it, that ``path`` can be read as a ``what``: it exists (a dangling
    symbolic link or a link loop is named as such), is not a folder, and is a regular file; with
    ``pipe`` a FIFO (a shell's ``<(...)``) is accepted too. Opening a FIFO no one writes to waits
    for ever, and ``/dev/zero`` never ends: an example's files and rule files must be regular.

    Raises:
        FileError: naming ``path`` and what it is.
    """
    name = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        link = link_problem(path)
        raise FileError(link or f"no such {what}", name) from None
    except (OSError, RuntimeError) as e:
        link = link_problem(path)
        if link:
            raise FileError(link, name) from None
        raise FileError(f"cannot read the {what}: {getattr(e, 'strerror', None) or e}",
                        name) from None
    if stat.S_ISDIR(mode):
        raise FileError(f"is a folder, not a {what}", name)
    if stat.S_ISFIFO(mode):
        if not pipe:
            raise FileError(f"is a FIFO (named pipe), not a regular file: reading it would wait "
                            f"for a writer; give the {what} as a regular file", name)
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise FileError(f"is a device, not a {what} (not a regular file)", name)
    elif not stat.S_ISREG(mode):
        raise FileError(f"is a socket, not a {what} (not a regular file)", name)


def _read_bytes(path, what: str, size: int = -1) -> bytes:
    """The first ``size`` bytes of ``path`` (all with -1), an OS error as a :class:`FileError`
    naming ``path`` (the file may go between :func:`check_input` and the read)."""
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except FileNotFoundError:
        raise FileError(f"no such {what}", str(path)) from None
    except IsADirectoryError:
        raise FileError(f"is a folder, not a {what}", str(path)) from None
    except OSError as e:
        raise FileError(f"cannot read the {what}: {e.strerror or e}", str(path)) from None


def read_text(path, what: str = "file", pipe: bool = False) -> str:
    """The text of the UTF-8 file ``path`` (``what`` names it in messages: "program", "rule
    file"). Line endings are kept as written. ``pipe``: a FIFO is read too (the program argument
    of ``print``/``verify``/``rewrite``, so that ``rulepass print <(cat p.pir)`` works); every
    other input must be a regular file (:func:`check_input`).

    Raises:
        FileError: missing, a dangling symbolic link or a link loop, a folder, a device
            (``/dev/zero`` would never end), a FIFO (unless ``pipe``: it would wait for a writer
            for ever), unreadable, or bytes that are not UTF-8 (with the line and column of the
            first bad byte).
    """
    name = str(path)
    check_input(path, what, pipe)
    data = _read_bytes(path, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _decode_position(data, e.start)
        raise FileError(f"not a text file: byte 0x{data[e.start]:02x} at byte offset {e.start} "
                        f"is not UTF-8 ({e.reason})", name, line, col) from None


def read_json(path, what: str = "file"):
    """The JSON value of the UTF-8 file ``path`` (read with :func:`read_text`).

    Raises:
        FileError: what :func:`read_text` raises; text that is not JSON (at its line:col), or
            nesting too deep for the decoder (no ``RecursionError``).
    """
    import json

    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileError(f"not valid JSON: {e.msg}", str(path), e.lineno, e.colno) from None
    except RecursionError:
        raise FileError("not valid JSON here: nested too deep", str(path)) from None


#: How an .npz archive (a zip file) starts: a local file header, or the end record of an empty one.
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


def read_npz(path, what: str = "array file") -> dict:
    """{key: array} of the ``.npz`` archive ``path`` (``numpy.savez``'s format), every array read
    into memory; no pickled object is ever loaded.

    Raises:
        FileError: what :func:`check_input` raises (a FIFO, a device, a dangling link), unreadable,
            not an .npz archive (a text file, a single .npy array renamed), a damaged archive, or an array of Python objects (naming its key).
    """
    import zipfile

    import numpy as np

    name = str(path)
    check_input(path, what)
    magic = _read_bytes(path, what, 6)
    if magic.startswith(b"\x93NUMPY"):
        raise FileError(f"a single .npy array, not an .npz archive (write the {what} with "
                        "numpy.savez)", name)
    if magic[:4] not in _ZIP_MAGIC:
        raise FileError("not an .npz archive (numpy.savez's zip of .npy arrays)", name)
    key = None
    try:
        with np.load(path, allow_pickle=False) as archive:
            out = {}
            for key in archive.files:
                out[key] = archive[key]
            return out
    except ValueError as e:
        if key is not None and "allow_pickle" in str(e):
            raise FileError(f"{key!r} is an array of Python objects (pickled), which is never "
                            "loaded; store numbers", name) from None
        raise FileError(f"a damaged .npz archive ({e})", name) from None
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise FileError(f"a damaged .npz archive ({e})", name) from None


#: a path naming an open file descriptor of this process (``/proc/<pid>/fd/N``: our own pid)
_DESCRIPTOR = re.compile(r"/(?:dev/(?:fd/(?P<n>[0-9]+)|(?P<std>stdout|stderr))"
                         r"|proc/(?P<pid>self|thread-self|[0-9]+)/fd/(?P<m>[0-9]+))")
_STANDARD = {"stdout": 1, "stderr": 2}


def descriptor(path) -> int | None:
    """The file descriptor ``path`` names, or None: ``/dev/stdout`` (1), ``/dev/stderr`` (2),
    ``/dev/fd/N``, ``/proc/self/fd/N`` or ``/proc/<this pid>/fd/N`` (N), also when reached
    through symbolic links (at most 40 hops, as the kernel follows). Opening such a path opens
    the file behind the descriptor anew: ``open(..., "wb")`` truncated the log of
    ``-o /dev/stdout >> log``, and a rename replaced it (or failed on a pipe)."""
    current = os.path.abspath(os.fspath(path))
    for _ in range(40):
        found = _DESCRIPTOR.fullmatch(current)
        if found is not None:
            if found["std"]:
                return _STANDARD[found["std"]]
            if found["pid"] and found["pid"] not in ("self", "thread-self", str(os.getpid())):
                return None  # another process's descriptor: a path like any other
            return int(found["n"] or found["m"])
        try:
            target = os.readlink(current)
        except OSError:  # not a link (or missing): not a descriptor
            return None
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
    return None


def _check_descriptor(fd: int, path, what: str) -> None:
    """``fd`` is open for writing, else :class:`FileError` naming ``path``."""
    import fcntl

    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError:
        raise FileError(f"cannot write the {what}: file descriptor {fd} is not open",
                        str(path)) from None
    if flags & os.O_ACCMODE not in (os.O_WRONLY, os.O_RDWR):
        raise FileError(f"cannot write the {what}: file descriptor {fd} is not open for "
                        "writing", str(path))


def _write_descriptor(fd: int, data: bytes) -> None:
    """Write ``data`` to the open descriptor ``fd`` where it stands (appending if it appends):
    through ``sys.stdout``/``sys.stderr``'s buffer for 1 and 2 (flushed first, so that what
    was printed keeps its place), else ``os.write`` until all is written."""
    stream = {1: sys.stdout, 2: sys.stderr}.get(fd)
    buffer = getattr(stream, "buffer", None)
    if buffer is not None and _fileno(stream) == fd:
        stream.flush()
        buffer.write(data)
        buffer.flush()
        return
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view[:1 << 30]):]


def _fileno(stream) -> int | None:
    """``stream.fileno()``, or None when it has none (pytest's captured streams)."""
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _output_target(path) -> tuple[Path, int | None]:
    """Where :func:`write_bytes` writes ``path`` (not an open descriptor: :func:`descriptor`):
    the final target of a symbolic link (a dangling link: the file it names), and that target's
    ``st_mode``, or None when it does not exist yet.

    Raises:
        OSError, RuntimeError: the target cannot be looked at (a symlink loop: RuntimeError on
            some Python versions).
    """
    target = Path(os.path.realpath(path, strict=False))
    try:
        return target, os.stat(target).st_mode
    except FileNotFoundError:
        return target, None


def check_writable(path, what: str = "output") -> Path:
    """Check, before any work, that a file can be written at ``path`` as :func:`write_bytes`
    writes it: its folder (a symlink's target's) exists and is writable, and ``path`` is not a
    folder; an existing FIFO or device must be writable itself. Returns ``Path(path)``.

    Raises:
        FileError: naming the path and what is wrong.
    """
    fd = descriptor(path)
    if fd is not None:  # written through the descriptor (/dev/stdout)
        _check_descriptor(fd, path, what)
        return Path(path)
    try:
        target, mode = _output_target(path)  # a symlink's target is written
    except (OSError, RuntimeError) as e:
        raise FileError(f"cannot write the {what}: {getattr(e, 'strerror', None) or e}",
                        str(path)) from None
    folder = target.parent
    if mode is not None and stat.S_ISDIR(mode):
        raise FileError(f"the {what} is a folder; give a file name", str(path))
    if not folder.is_dir():
        raise FileError(f"cannot write the {what}: folder {folder} does not exist", str(path))
    if mode is not None and not stat.S_ISREG(mode):  # a FIFO, a device: written through
        if not os.access(target, os.W_OK):
            raise FileError(f"cannot write the {what}: permission denied", str(path))
        return Path(path)
    if not os.access(folder, os.W_OK) or (mode is not None and not os.access(target, os.W_OK)):
        raise FileError(f"cannot write the {what}: permission denied", str(path))
    try:  # the file is written beside its target first (/proc lets no file be made there)
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise FileError(f"cannot write the {what}: {_temporary_failure(folder, e)}",
                        str(path)) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return Path(path)


def _temporary_failure(folder, error: OSError) -> str:
    """What to say when no temporary file can be made in ``folder`` (the atomic writer's first
    step): the target itself may exist and be fine (``-o /proc/version``)."""
    return (f"cannot make a temporary file in {folder} ({error.strerror or error}); the output is "
            "written there first and then renamed over the target")


def check_output_dir(path, what: str = "output folder") -> Path:
    """Make the folder ``path`` (and its parents) before any work and check that files can be
    written in it. Returns ``Path(path)``.

    Raises:
        FileError: ``path`` is a file, cannot be made, or is not writable.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise FileError(f"the {what} is an existing file, not a folder", str(path))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FileError(f"cannot make the {what}: {e.strerror or e}", str(path)) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileError(f"cannot write in the {what}: permission denied", str(path))
    return folder


def _write_through(path, data: bytes) -> None:
    """Write ``data`` into the existing non-regular file ``path`` (a device, a FIFO) as a shell's
    ``>`` does: it cannot be replaced by a regular file without breaking whoever reads it."""
    with open(path, "wb") as out:
        out.write(data)
        out.flush()


def write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file beside it, flushed and renamed over
    it; the file keeps its permission bits. On any failure the temporary file is removed and the
    old ``path`` (if any) is unchanged.

    A symbolic link is followed: its final target is replaced (atomically), the link stays. An
    existing path that is not a regular file (a FIFO, a device such as ``/dev/null``) is written
    through, never replaced by a regular file; a path naming an open descriptor (``/dev/stdout``,
    ``/dev/fd/3``: :func:`descriptor`) is written to that descriptor where it stands (no
    truncation, no rename).

    Raises:
        FileError: naming ``path`` (no space, no permission, file size limit, a symlink loop ...).
    """
    temporary = None
    fd = descriptor(path)
    if fd is not None:
        try:
            _write_descriptor(fd, data)
        except BrokenPipeError:  # the reader went away (| head): main exits 0 as for stdout
            raise
        except OSError as e:
            raise FileError(f"cannot write: {e.strerror or e}", str(path)) from None
        return
    try:
        target, mode = _output_target(path)
        if mode is not None and not stat.S_ISREG(mode):
            if stat.S_ISDIR(mode):
                raise IsADirectoryError(errno.EISDIR, "is a folder")
            _write_through(target, data)
            return
        folder = target.parent
        try:
            fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        except OSError as e:
            if not folder.is_dir():
                raise
            raise FileError(f"cannot write: {_temporary_failure(folder, e)} (nothing was "
                            "changed)", str(path)) from None
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
        temporary = None
    except (OSError, RuntimeError) as e:  # RuntimeError: Python's "Symlink loop" on some versions
        reason = getattr(e, "strerror", None) or e
        raise FileError(f"cannot write: {reason} (nothing was changed)", str(path)) from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def write_text(path, text: str) -> None:
    """:func:`write_bytes` of ``text`` in UTF-8."""
    write_bytes(path, text.encode("utf-8"))
