"""Optimizer kernels: sgd_, adam_, adamw_ and momentum_.

All are in-place ops: they return the new parameter (and velocity, moment, beta-power and
master-weight) values, and the executor writes them back over the corresponding operands.

Mixed precision (``multi_precision=true`` with a ``master_param`` operand): the update runs on the
float32 master weights and the parameter is their cast back to its own dtype, as in Paddle.

Sources: ``paddle/phi/ops/yaml/ops.yaml`` (sgd_, adam_, adamw_, momentum_). ``adam_``/``adamw_``
operands follow Paddle 3.3.1's ``pd_op.h``, which adds ``moment2_max`` (operand 5) /
``moment2_max_out`` (result 3) and the ``amsgrad`` attribute to the older yaml signature;
``beta1``, ``beta2`` and ``epsilon`` are operands in PIR (``pd_op.full`` results) and attributes in
older programs, both accepted. Where Paddle's CPU and GPU kernels disagree (``lr_ratio``,
``rescale_grad``), the kernels follow the CPU kernel, which produced the reference corpus.
"""

from __future__ import annotations

from typing import Any

from .operands import python_scalar, scalar_like
from .registry import kernel


def _working_copy(xp: Any, param: Any, master_param: Any, multi_precision: bool) -> Any:
    """The tensor the update is computed on: the master weights if in use, else the parameter."""
    return master_param if multi_precision and master_param is not None else param


@kernel("pd_op.sgd_")
def sgd(xp: Any, inputs: list, attrs: dict) -> list:
    """``sgd_(param, learning_rate, grad, master_param, multi_precision=false)
    -> param_out, master_param_out``.

    ``param_out = param - learning_rate * grad`` (``learning_rate`` a one-element tensor).
    ``master_param_out`` is the updated master weight, or None without mixed precision.
    """
    param, learning_rate, grad, master_param = inputs
    multi_precision = attrs.get("multi_precision", False)
    work = _working_copy(xp, param, master_param, multi_precision)
    updated = work - scalar_like(xp, learning_rate, work) * xp.astype(grad, work.dtype, copy=False)
    if work is param:
        return [updated, None]
    return [xp.astype(updated, param.dtype, copy=False), updated]


def _hyper(inputs: list, index: int, attrs: dict, name: str, default: float) -> float:
    if len(inputs) > index and inputs[index] is not None:
        return python_scalar(inputs[index])
    return float(attrs.get(name, default))


@kernel("pd_op.adam_")
def adam(xp: Any, inputs: list, attrs: dict) -> list:
    """``adam_(param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow,
    master_param, skip_update, beta1=0.9, beta2=0.999, epsilon=1e-8, lazy_mode=false,
    min_row_size_to_use_multithread=1000, multi_precision=false, use_global_beta_pow=false,
    amsgrad=false) -> param_out, moment1_out, moment2_out, moment2_max_out, beta1_pow_out,
    beta2_pow_out, master_param_out``.

    ``adamw_`` without the decay term (same operands and results; see :func:`adamw`).
    Source: ``ops.yaml`` ``adam_``, operands as in Paddle 3.3.1's ``pd_op.h``.
    """
    return adamw(xp, inputs, {**attrs, "with_decay": False})


@kernel("pd_op.adamw_")
def adamw(xp: Any, inputs: list, attrs: dict) -> list:
    """``adamw_(param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow,
    master_param, skip_update, beta1=0.9, beta2=0.999, epsilon=1e-8, lr_ratio=1.0, coeff=0.01,
    with_decay=false, lazy_mode=false, min_row_size_to_use_multithread=1000,
    multi_precision=false, use_global_beta_pow=false, amsgrad=false)
    -> param_out, moment1_out, moment2_out, moment2_max_out, beta1_pow_out, beta2_pow_out,
    master_param_out``.

    With ``lr = learning_rate``, ``b1p``/``b2p`` the incoming beta powers:

    - decoupled decay (only when ``with_decay``): ``p = p - lr * lr_ratio * coeff * p``;
    - ``m1 = beta1*m1 + (1-beta1)*g``, ``m2 = beta2*m2 + (1-beta2)*g*g``;
      with ``amsgrad``, ``m2max = max(m2max, m2)`` and ``m2max`` replaces ``m2`` below;
    - ``p = p - lr * sqrt(1-b2p)/(1-b1p) * m1 / (sqrt(m2) + epsilon*sqrt(1-b2p))``;
    - beta powers advance (``b1p*beta1``, ``b2p*beta2``) unless ``use_global_beta_pow``.

    A true ``skip_update`` returns every state unchanged. ``moment2_max_out`` is None without
    ``amsgrad``; ``master_param_out`` None without mixed precision. ``lazy_mode`` and
    ``min_row_size_to_use_multithread`` only matter for sparse gradients and are ignored.

    ``lr_ratio`` scales only the decay term: that is what Paddle 3.3.1's CPU kernel computes
    (measured against ``paddle._C_ops.adamw_``: scaling the Adam step too is off by ~1e-3 for
    ``lr_ratio=0.5``). Paddle's GPU kernel is believed to scale both; with the default
    ``lr_ratio=1`` the two agree.
    """
    (param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow,
     master_param, skip_update) = inputs[:10]
    beta1 = _hyper(inputs, 10, attrs, "beta1", 0.9)
    beta2 = _hyper(inputs, 11, attrs, "beta2", 0.999)
    epsilon = _hyper(inputs, 12, attrs, "epsilon", 1e-8)
    multi_precision = attrs.get("multi_precision", False)
    amsgrad = attrs.get("amsgrad", False)
    work = _working_copy(xp, param, master_param, multi_precision)
    master_out = None if work is param else master_param

    if skip_update is not None and bool(xp.any(xp.astype(skip_update, xp.bool, copy=False))):
        return [param, moment1, moment2, moment2_max if amsgrad else None, beta1_pow, beta2_pow,
                master_out]

    g = xp.astype(grad, moment1.dtype, copy=False)
    lr = scalar_like(xp, learning_rate, work)
    b1p = xp.astype(xp.reshape(beta1_pow, ()), work.dtype, copy=False)
    b2p = xp.astype(xp.reshape(beta2_pow, ()), work.dtype, copy=False)

    p = work
    if attrs.get("with_decay", False):
        p = p - lr * (attrs.get("lr_ratio", 1.0) * attrs.get("coeff", 0.01)) * p
    m1 = beta1 * moment1 + (1.0 - beta1) * g
    m2 = beta2 * moment2 + (1.0 - beta2) * g * g
    m2_max_out = None
    denominator_moment = m2
    if amsgrad:
        m2_max_out = xp.maximum(moment2_max, m2)
        denominator_moment = m2_max_out
    correction = xp.sqrt(1.0 - b2p)
    step = lr * correction / (1.0 - b1p)
    p = p - step * (xp.astype(m1, p.dtype, copy=False)
                    / (xp.sqrt(xp.astype(denominator_moment, p.dtype, copy=False)) + epsilon * correction))

    if attrs.get("use_global_beta_pow", False):
        b1_out, b2_out = beta1_pow, beta2_pow
    else:
        b1_out, b2_out = beta1_pow * beta1, beta2_pow * beta2
    if work is param:
        return [p, m1, m2, m2_max_out, b1_out, b2_out, None]
    return [xp.astype(p, param.dtype, copy=False), m1, m2, m2_max_out, b1_out, b2_out, p]


@kernel("pd_op.momentum_")
def momentum(xp: Any, inputs: list, attrs: dict) -> list:
    """``momentum_(param, grad, velocity, learning_rate, master_param, mu, use_nesterov=false,
    regularization_method="", regularization_coeff=0.0, multi_precision=false, rescale_grad=1.0)
    -> param_out, velocity_out, master_param_out``.

    ``g = grad`` (plus ``regularization_coeff * p`` for ``"l2_decay"``);
    ``v = mu * velocity + g``; ``p = p - lr * (g + mu * v)`` with ``use_nesterov``, else
    ``p = p - lr * v``. Source: ``ops.yaml`` ``momentum_``.

    ``rescale_grad`` is ignored, as Paddle 3.3.1's CPU kernel ignores it (measured against
    ``paddle._C_ops.momentum_``); its GPU kernel is believed to scale the gradient by it. They agree
    for the default ``rescale_grad=1``.
    """
    param, grad, velocity, learning_rate, master_param = inputs[:5]
    work = _working_copy(xp, param, master_param, attrs.get("multi_precision", False))
    mu = float(attrs["mu"])
    g = xp.astype(grad, work.dtype, copy=False)
    if attrs.get("regularization_method", "") == "l2_decay":
        g = g + float(attrs.get("regularization_coeff", 0.0)) * work
    v = mu * xp.astype(velocity, work.dtype, copy=False) + g
    lr = scalar_like(xp, learning_rate, work)
    updated = work - lr * (g + mu * v) if attrs.get("use_nesterov", False) else work - lr * v
    v = xp.astype(v, velocity.dtype, copy=False)
    if work is param:
        return [updated, v, None]
    return [xp.astype(updated, param.dtype, copy=False), v, updated]
