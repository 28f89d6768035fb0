"""Helpers for testing kernels: the namespaces to run them in, NumPy conversion, finite differences.

Tests write inputs and references in float64 NumPy, run a kernel in each namespace of
``namespaces()`` through :func:`run`, and compare the NumPy results. Running the same test under
``array_api_strict`` proves the kernel uses only the array API standard: :func:`run` restricts it
to revision ``STRICT_API_VERSION`` without boolean indexing or data-dependent output shapes, so the
kernels also run on namespaces that implement an older revision, and on GPUs without host syncs
for shapes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from .registry import lookup

STRICT_API_VERSION = "2023.12"
"""The array API revision kernels are held to under ``array_api_strict``."""


def namespaces() -> list[tuple[str, Any]]:
    """``(id, namespace)`` pairs to run kernels in: NumPy via array_api_compat, its lean form
    (``lean.lean_namespace``, what the executor gives the kernels), and ``array_api_strict``
    when it is installed."""
    import array_api_compat.numpy as compat_numpy

    from .lean import lean_namespace

    found = [("numpy", compat_numpy), ("numpy-lean", lean_namespace(compat_numpy))]
    try:
        import array_api_strict
    except ImportError:  # an optional test dependency
        return found
    found.append(("array_api_strict", array_api_strict))
    return found


def to_numpy(value: Any) -> Any:
    """A kernel value as NumPy: arrays via DLPack (any CPU namespace), lists element-wise, None
    kept."""
    if value is None:
        return None
    if isinstance(value, list):
        return [to_numpy(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    return np.from_dlpack(value)


def from_numpy(xp: Any, value: Any) -> Any:
    """NumPy inputs (arrays, lists of arrays, None, Python numbers) as ``xp`` arrays."""
    if value is None:
        return None
    if isinstance(value, list):
        return [from_numpy(xp, v) for v in value]
    return xp.asarray(np.asarray(value))


def run(xp: Any, op_name: str, inputs: list, attrs: dict | None = None, draws=None) -> list:
    """Run the kernel of ``op_name`` in namespace ``xp`` on NumPy ``inputs``; NumPy results.
    ``draws``: for a random op (``registry.random_kernel``), its draws callable (e.g. a
    ``rulepass.runtime.generator`` source's ``draws(op, xp)``).

    Raises:
        UnknownOpError: no kernel for ``op_name``.
    """
    kernel = lookup(op_name)
    if draws is not None:
        kernel = functools.partial(kernel, draws=draws)
    operands = [from_numpy(xp, v) for v in inputs]
    if getattr(xp, "__name__", "") == "array_api_strict":
        with xp.ArrayAPIStrictFlags(api_version=STRICT_API_VERSION, boolean_indexing=False,
                                    data_dependent_shapes=False):
            results = kernel(xp, operands, dict(attrs or {}))
    else:
        results = kernel(xp, operands, dict(attrs or {}))
    return [to_numpy(r) for r in results]


def finite_difference(loss: Callable[[np.ndarray], float], x: np.ndarray, step: float = 1e-6) -> np.ndarray:
    """Central-difference gradient of the scalar function ``loss`` at float64 array ``x``.

    Returns an array of x's shape; error O(step^2) plus rounding O(eps/step).
    """
    x = np.array(x, dtype=np.float64)
    grad = np.zeros_like(x)
    flat, grad_flat = x.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):
        saved = flat[i]
        flat[i] = saved + step
        upper = loss(x)
        flat[i] = saved - step
        lower = loss(x)
        flat[i] = saved
        grad_flat[i] = (upper - lower) / (2.0 * step)
    return grad


def weighted_loss(xp: Any, op_name: str, inputs: list, attrs: dict, position: int,
                  result: int, weight: np.ndarray) -> Callable[[np.ndarray], float]:
    """``x -> sum(op(inputs with x at position)[result] * weight)``: the scalar whose gradient
    with respect to operand ``position`` a grad kernel given ``out_grad = weight`` must return."""

    def loss(x: np.ndarray) -> float:
        trial = list(inputs)
        trial[position] = x
        return float(np.sum(run(xp, op_name, trial, attrs)[result] * weight))

    return loss
