"""The kernel table: Paddle op name -> kernel function, and the errors kernels raise.

A kernel is ``fn(xp, inputs, attrs) -> list``:

- ``xp`` is an array namespace as returned by ``array_api_compat.array_namespace`` (NumPy, CuPy,
  ``array_api_strict``, ...);
- ``inputs`` holds the op's operands in Paddle's operand order: an array, ``None`` for a
  ``<<NULL VALUE>>`` operand, or a Python list of arrays for a ``vec[...]`` operand;
- ``attrs`` maps attribute names to plain Python values (bool, int, float, str, lists; dtypes as
  strings such as ``"float32"``);
- the result is a list with one entry per op result, in Paddle's result order: an array, ``None``
  for a null result, or a list of arrays for a vector result.

The table is filled by the ``@kernel("pd_op.name")`` decorator when the modules of
``rulepass.runtime.kernels`` are imported; ``lookup`` is the only way the executor reads it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

Kernel = Callable[[Any, list, dict], list]
"""``fn(xp, inputs, attrs) -> results``; see the module docstring."""

KERNELS: dict[str, Kernel] = {}
"""Every registered kernel, keyed by full Paddle op name (``"pd_op.matmul"``)."""


class KernelError(Exception):
    """A kernel was given operands or attributes it cannot run with.

    Carries the op name so the executor can point at the op in the program; the message says what
    was wrong and what Paddle would have required.
    """

    def __init__(self, op_name: str, message: str):
        self.op_name = op_name
        self.message = message
        super().__init__(f"{op_name}: {message}")


class UnknownOpError(KeyError):
    """No kernel is registered for an op name. Raised by :func:`lookup`."""

    def __init__(self, op_name: str):
        self.op_name = op_name
        super().__init__(op_name)

    def __str__(self) -> str:
        close = difflib.get_close_matches(self.op_name, KERNELS, n=3, cutoff=0.75)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else "."
        return (
            f"no kernel for op {self.op_name!r}{hint} To run it, register one with "
            f"@kernel({self.op_name!r}) in a module of rulepass.runtime.kernels."
        )


def kernel(*names: str) -> Callable[[Kernel], Kernel]:
    """Register the decorated function as the kernel of each op in ``names``.

    Several names share one function when Paddle's ops compute the same thing, e.g. an op and its
    in-place variant (``"pd_op.add"``, ``"pd_op.add_"``).

    Raises:
        ValueError: a name is not dialect-qualified, or already has a kernel.
    """

    def register(fn: Kernel) -> Kernel:
        for name in names:
            if "." not in name:
                raise ValueError(f"kernel name {name!r} must be qualified, e.g. 'pd_op.{name}'")
            if name in KERNELS:
                raise ValueError(f"a kernel for {name!r} is already registered ({KERNELS[name]!r})")
            KERNELS[name] = fn
        return fn

    return register


RANDOM_OPS: set[str] = set()
"""Ops whose kernels draw random numbers (registered with :func:`random_kernel`)."""


def random_kernel(*names: str) -> Callable[[Kernel], Kernel]:
    """Register the decorated function as the kernel of each op in ``names``, an op that draws
    random numbers: it is called ``fn(xp, inputs, attrs, draws)``, where ``draws(shape, dtype,
    seed)`` gives the uniform [0, 1) draws Paddle's CPU kernel would take for this run of the op
    (``rulepass.runtime.generator``); ``draws`` is None when no draw source is set (then a kernel
    that needs draws raises KernelError). The executor passes ``draws``; called with three
    arguments, as any kernel, the function gets None.

    Raises:
        ValueError: as :func:`kernel`.
    """

    def register(fn: Kernel) -> Kernel:
        kernel(*names)(fn)
        RANDOM_OPS.update(names)
        return fn

    return register


Specializer = Callable[..., "Callable[[list], list] | None"]
"""``fn(xp, attrs, operand_shapes, operand_dtypes, constants, nulls) -> fast kernel or None``;
see :func:`specializer`."""

SPECIALIZERS: dict[str, Specializer] = {}
"""Kernels that can be specialized to one op, keyed by op name (see :func:`specializer`)."""


def specializer(*names: str) -> Callable[[Specializer], Specializer]:
    """Register the decorated function as the specializer of each op in ``names``.

    A specializer is called once per op when the executor plans a program, as
    ``fn(xp, attrs, operand_shapes, operand_dtypes, constants, nulls)``: per operand its static
    shape (a tuple, or None when unknown or dynamic), its Paddle dtype name (or None), and its
    value when a constant op makes it (the ``value`` of a ``pd_op.full_int_array``, ``(value,)``
    of a one-element ``pd_op.full``, else None); ``nulls`` is the frozenset of the op's result
    positions whose type is ``<<NULL TYPE>>`` (results no op can read). It returns
    ``fast(inputs) -> results``, which must give what the op's kernel gives for those operands,
    bit for bit (the work that depends only on attributes and static shapes done once, here),
    except that a result in ``nulls`` may be None (not computed); or it returns None when the op
    does not fit, and the kernel is used. It raises KernelError for an op that cannot run (that
    error then comes when the program is planned).
    """

    def register(fn: Specializer) -> Specializer:
        for name in names:
            if name in SPECIALIZERS:
                raise ValueError(f"a specializer for {name!r} is already registered")
            SPECIALIZERS[name] = fn
        return fn

    return register


def lookup(name: str) -> Kernel:
    """Return the kernel of op ``name`` (e.g. ``"pd_op.matmul"``).

    Raises:
        UnknownOpError: no kernel is registered under ``name``.
    """
    try:
        return KERNELS[name]
    except KeyError:
        raise UnknownOpError(name) from None
