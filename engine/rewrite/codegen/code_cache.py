"""Generated Python code kept between runs: :func:`compile_cached` is ``compile(source, filename,
"exec")`` answered from the rule cache folder (``engine/lang/cache.py``: the same folder, the same
privacy checks and caps), as Python keeps ``.pyc`` files for modules.

Every ``rulepass rewrite`` process generates the code of the rules it runs (dispatch functions,
rewrite blocks, expressions; ``codegen/``). Generating the text is cheap; compiling it is not: the
rewrite block of ``complete_chunk_id``'s ``place_op`` is 22 KB of Python that takes 8 ms to
compile, and a pass's code 10-25 ms in all, a third of what a ``rewrite`` process costs beyond
parsing and printing its program (issue 16). An entry is keyed by the interpreter's bytecode
magic number, the file name given to ``compile`` and the source, and holds the code object's
``marshal`` bytes.
"""

from __future__ import annotations

import importlib.util
import marshal
from types import CodeType

from rulepass.engine.lang.cache import cached


def compile_cached(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, from the cache when it holds that code for this
    interpreter. Raises what ``compile`` raises (SyntaxError, RecursionError, ...); a failure is
    never cached."""
    key = (b"code\0" + importlib.util.MAGIC_NUMBER + b"\0"
           + filename.encode("utf-8", "surrogatepass") + b"\0"
           + source.encode("utf-8", "surrogatepass"))
    return cached(key, lambda: compile(source, filename, "exec"), marshal.dumps, _code)


def _code(entry) -> CodeType | None:
    """The code object an entry's bytes hold (None when the entry is something else)."""
    if not isinstance(entry, bytes):
        return None
    code = marshal.loads(entry)
    return code if isinstance(code, CodeType) else None
