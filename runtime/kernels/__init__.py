"""Op kernels of the rulepass runtime: one array-API function per Paddle op, in a table.

``lookup("pd_op.matmul")`` returns the kernel of an op; ``KERNELS`` is the whole table. A kernel is
``fn(xp, inputs, attrs) -> results`` (see ``registry``): ``xp`` an array namespace (NumPy, CuPy,
``array_api_strict``, ...), ``inputs`` the operands in Paddle's order (``None`` for a null operand, a
list for a ``vec[...]`` operand), ``attrs`` plain Python attribute values, and one result per op
result (``None`` for a null result, a list for a vector result).

Every kernel is written once against the array API standard (revision 2023.12, no boolean
indexing, no data-dependent output shapes), using only ``xp`` functions and
``array_api_compat.device``; it never mutates its operands. The tests run each kernel under
``array_api_strict`` to hold them to that.

In-place ops (names ending in ``_``: ``pd_op.add_``, ``pd_op.scale_``, ``pd_op.relu_``,
``pd_op.sgd_``, ``pd_op.adamw_``, ``pd_op.set_value_with_tensor_``, ...) return the new values of
their results like any other op. Making those results alias the operands Paddle declares in-place
(the first operand; for optimizers also the moments, beta powers and master weights) is the
executor's job, not the kernel's.

Not here: ``pd_op.data``/``pd_op.feed``/``pd_op.fetch``, ``builtin.*`` structure ops and
collectives, which the executor handles.

Signatures (operand, attribute and result order) are Paddle 3.3.1's: taken from
``paddle/phi/ops/yaml/*.yaml`` and checked against the generated ``pd_op.h``/``manual_op.h`` of the
3.3.1 wheel, which differ from older yaml files for ``rms_norm`` and ``adam_``/``adamw_``. Numerics
were compared with ``paddle._C_ops`` on CPU (see ``optimizer`` for the two places where Paddle's CPU
and GPU kernels disagree and the CPU one is followed).

Modules: ``creation`` (full, full_int_array, full_like, full_, assign, cast), ``elementwise``
(add, subtract, multiply, divide, scale, add_n, square), ``unary`` (exp, log, sqrt, rsqrt,
sigmoid, abs, sin, cos, clip), ``activation`` (relu, gelu, silu, swiglu, tanh, softmax),
``linalg`` (matmul), ``norm`` (layer_norm, rms_norm), ``reduction`` (mean, sum, mean_all, max,
min), ``shape`` (reshape, transpose, concat, split, split_with_num, slice,
set_value_with_tensor, squeeze, unsqueeze, expand, flatten, stack, unbind), ``embedding``
(embedding, c_embedding), ``loss`` (cross_entropy_with_softmax), ``select`` (comparisons,
masked_select, where, triu, tril, cumsum), ``random_ops`` (dropout, uniform: they draw from
the executor's draw source, ``rulepass.runtime.generator``), ``optimizer``
(sgd_, adam_, adamw_, momentum_), each with the gradient ops Paddle defines; ``specialize``
(transpose, reshape, sgd_, matmul, scale, add_grad, subtract_grad and grads, specialized to one
op's static shapes when the executor plans a program; see ``registry.specializer``; layer_norm,
mean, softmax and full_like have theirs beside their kernels); ``lean`` (the namespace the
executor gives the kernels: NumPy's functions without array_api_compat's and fromnumeric's
layers, the same results); ``special`` (erf),
``operands`` (operand and attribute conversion), ``testing`` (helpers for kernel tests).
"""

from . import (  # noqa: F401  (importing a module registers its kernels)
    activation,
    creation,
    elementwise,
    embedding,
    linalg,
    loss,
    norm,
    optimizer,
    random_ops,
    reduction,
    select,
    shape,
    specialize,
    unary,
)
from .registry import KERNELS, Kernel, KernelError, UnknownOpError, kernel, lookup

__all__ = ["KERNELS", "Kernel", "KernelError", "UnknownOpError", "kernel", "lookup"]
