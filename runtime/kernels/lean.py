"""A leaner array namespace for the executor: the same functions, fewer Python layers per call.

On short kernels (an op on a few thousand elements takes 1-2 us in NumPy) the cost of an op is
mostly the Python around the array call: ``array_api_compat``'s wrappers (``astype`` checks its
device argument, ``matmul`` and ``permute_dims`` add two calls), and NumPy's own ``fromnumeric``
functions (``numpy.sum``, ``reshape``, ``swapaxes`` go through ``_wrapreduction``/``_wrapfunc``
to the array's method or the ufunc's ``reduce``). :func:`lean_namespace` gives a namespace with
every attribute of ``xp`` in which, for NumPy behind ``array_api_compat.numpy``, those few
functions call what the wrapper would have called in the end (the ``ndarray`` method, or the
ufunc's ``reduce``, with the same arguments), so every result is the one the wrapped function
gives, bit for bit; anything not an ``ndarray`` and any argument outside the common case goes to
the original function. They take the array API standard's signatures (``axis`` and
``keepdims`` keyword-only), which is how the kernels call them. ``tests/test_kernels_lean.py`` checks each replacement against the
original.

The kernels do not know: they call ``xp.sum``, ``xp.reshape``, ... as the array API standard
spells them, and run unchanged on any other namespace (CuPy, ``array_api_strict``), which
:func:`lean_namespace` returns as it is.

Sources: NumPy 2.x ``numpy/_core/fromnumeric.py`` (``_wrapreduction``, ``_wrapfunc``,
``reshape``, ``swapaxes``, ``transpose``) and ``array_api_compat`` 1.x ``numpy/_aliases.py``
(``astype``, ``asarray``) and ``common/_aliases.py`` (``matmul``, ``matrix_transpose``,
``permute_dims``).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

__all__ = ["lean_namespace", "LEAN_FUNCTIONS"]


def _numpy_functions(xp: Any) -> dict[str, Callable]:
    """The replacements for ``array_api_compat.numpy`` (see the module docstring). A function
    of ``xp`` that is not the one they stand in for (another NumPy, another wrapper) keeps its
    own."""
    import numpy as np

    ndarray = np.ndarray
    add_reduce, maximum_reduce = np.add.reduce, np.maximum.reduce
    original = {name: getattr(xp, name) for name in LEAN_FUNCTIONS}

    def sum_(x, /, *, axis=None, dtype=None, keepdims=False):
        if type(x) is ndarray:
            return add_reduce(x, axis, dtype, None, keepdims=keepdims)
        return original["sum"](x, axis=axis, dtype=dtype, keepdims=keepdims)

    def max_(x, /, *, axis=None, keepdims=False):
        if type(x) is ndarray:
            return maximum_reduce(x, axis, None, None, keepdims=keepdims)
        return original["max"](x, axis=axis, keepdims=keepdims)

    def reshape(x, /, shape, *, copy=None):
        if copy is None and type(x) is ndarray:
            return x.reshape(shape)
        return original["reshape"](x, shape, copy=copy)

    def astype(x, dtype, /, *, copy=True, device=None):
        if device is None and type(x) is ndarray:
            return x.astype(dtype, copy=copy)
        return original["astype"](x, dtype, copy=copy, device=device)

    def asarray(obj, /, *, dtype=None, device=None, copy=None):
        if type(obj) is ndarray and dtype is None and device is None and not copy:
            return obj  # what numpy.array(obj, copy=IF_NEEDED or NEVER) gives an ndarray
        return original["asarray"](obj, dtype=dtype, device=device, copy=copy)

    def matrix_transpose(x, /):
        if type(x) is ndarray and x.ndim >= 2:
            return x.mT  # NumPy 2's attribute for the view x.swapaxes(-1, -2)
        return original["matrix_transpose"](x)

    if not hasattr(ndarray, "mT"):  # NumPy 1.x
        def matrix_transpose(x, /):  # noqa: F811
            if type(x) is ndarray and x.ndim >= 2:
                return x.swapaxes(-1, -2)
            return original["matrix_transpose"](x)

    def permute_dims(x, /, axes):
        if type(x) is ndarray:
            return x.transpose(axes)
        return original["permute_dims"](x, axes)

    lean = {"sum": sum_, "max": max_, "reshape": reshape, "astype": astype, "asarray": asarray,
            "matrix_transpose": matrix_transpose, "permute_dims": permute_dims,
            "matmul": np.matmul}
    # Only where xp's function is the one replaced: NumPy's own function for the reductions
    # and reshape, array_api_compat's wrapper (which ends in the method) for the others.
    kept = {name for name in ("sum", "max", "reshape") if original[name] is not getattr(np, name)}
    kept |= {name for name in ("astype", "asarray", "matrix_transpose", "permute_dims", "matmul")
             if getattr(original[name], "__module__", "").split(".")[0] != "array_api_compat"}
    return {name: fn for name, fn in lean.items() if name not in kept}


LEAN_FUNCTIONS = ("sum", "max", "reshape", "astype", "asarray", "matrix_transpose",
                  "permute_dims", "matmul")
"""The functions a lean namespace may replace."""

_LEAN: dict[str, Callable[[Any], dict[str, Callable]]] = {
    "array_api_compat.numpy": _numpy_functions,
}
"""Namespace module name -> the replacements for it."""


@functools.cache
def lean_namespace(xp: Any) -> Any:
    """``xp`` with the functions of :data:`LEAN_FUNCTIONS` replaced by direct calls where
    ``xp`` is a namespace this module knows (``array_api_compat.numpy``); ``xp`` itself
    otherwise (and for a namespace already lean). One namespace per ``xp`` (cached), a module
    object, so it can key caches as ``xp`` does."""
    make = _LEAN.get(getattr(xp, "__name__", None))
    if make is None:
        return xp
    lean = types.ModuleType(f"rulepass.lean({xp.__name__})",
                            f"{xp.__name__} with direct calls for "
                            f"{', '.join(LEAN_FUNCTIONS)} (rulepass.runtime.kernels.lean)")
    for name, value in vars(xp).items():
        if not name.startswith("__") or name in ("__array_api_version__",
                                                 "__array_namespace_info__"):
            setattr(lean, name, value)
    for name, fn in make(xp).items():
        setattr(lean, name, fn)
    lean.wrapped = xp
    return lean
