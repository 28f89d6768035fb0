"""Kernels specialized when the executor plans a program (runtime/kernels/specialize.py and
norm.py) give what the generic kernels give, bit for bit, in every namespace; an op they do not
fit gets the generic kernel; a constant reshape target that cannot hold its input is an error
when the program is planned, naming the op."""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.runtime.executor import ExecutionError, Executor
from rulepass.runtime.kernels import KERNELS, KernelError
from rulepass.runtime.kernels.registry import SPECIALIZERS
from rulepass.runtime.kernels.testing import STRICT_API_VERSION, from_numpy, namespaces, to_numpy

rng = np.random.default_rng(7)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


# (op, attrs, NumPy inputs, constants per operand): shapes and dtypes come from the inputs
CASES = [
    ("pd_op.transpose", {"perm": [0, 2, -1, 1]}, [f32(2, 3, 4, 5)], None),
    ("pd_op.transpose_grad", {"perm": [0, 2, 1, 3]}, [f32(2, 4, 3, 5)], None),
    ("pd_op.reshape", {}, [f32(6, 4), np.array([2, 0, -1], np.int64)], [None, (2, 0, -1)]),
    ("pd_op.reshape_grad", {}, [f32(2, 3, 4), f32(6, 4)], None),
    ("pd_op.sgd_", {"multi_precision": False},
     [f32(5, 3), np.asarray(0.1, np.float32), f32(5, 3), None], None),
    ("pd_op.sgd_", {"multi_precision": False},
     [f32(4), np.asarray([0.5], np.float32), f32(4), None], None),
    *[("pd_op.matmul", {"transpose_x": tx, "transpose_y": ty},
       [f32(*((2, 5, 3) if tx else (2, 3, 5))), f32(*((2, 4, 5) if ty else (2, 5, 4)))], None)
      for tx in (False, True) for ty in (False, True)],
    *[("pd_op.matmul_grad", {"transpose_x": tx, "transpose_y": ty},
       [f32(*((5, 3) if tx else (3, 5))), f32(*((4, 5) if ty else (5, 4))), f32(3, 4)], None)
      for tx in (False, True) for ty in (False, True)],
    ("pd_op.scale", {"bias": 0.5, "bias_after_scale": True},
     [f32(3, 4), np.asarray([1.5], np.float32)], None),
    ("pd_op.scale", {"bias": -0.25, "bias_after_scale": False},
     [f32(3, 4), np.asarray(2.0, np.float32)], None),
    ("pd_op.layer_norm", {"epsilon": 1e-5, "begin_norm_axis": 2}, [f32(2, 3, 4), f32(4), f32(4)],
     None),
    ("pd_op.layer_norm", {"epsilon": 1e-3, "begin_norm_axis": -1}, [f32(6, 8), None, None], None),
    ("pd_op.layer_norm_grad", {"epsilon": 1e-5, "begin_norm_axis": 1},
     [f32(6, 8), f32(8), f32(8), f32(6), np.abs(f32(6)), f32(6, 8)], None),
]


def _static(inputs, constants):
    shapes = tuple(None if a is None else tuple(a.shape) for a in inputs)
    dtypes = tuple(None if a is None else str(a.dtype) for a in inputs)
    return shapes, dtypes, tuple(constants or [None] * len(inputs))


@pytest.mark.parametrize("name, xp", namespaces())
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_specialized_kernel_equals_the_generic_one(case, name, xp):
    op_name, attrs, inputs, constants = case
    fast = SPECIALIZERS[op_name](xp, attrs, *_static(inputs, constants))
    assert fast is not None
    operands = [from_numpy(xp, a) for a in inputs]
    if name == "array_api_strict":
        with xp.ArrayAPIStrictFlags(api_version=STRICT_API_VERSION, boolean_indexing=False,
                                    data_dependent_shapes=False):
            got, want = fast(operands), KERNELS[op_name](xp, operands, dict(attrs))
    else:
        got, want = fast(operands), KERNELS[op_name](xp, operands, dict(attrs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if w is None:
            assert g is None
        else:
            np.testing.assert_array_equal(to_numpy(g), to_numpy(w))
            assert to_numpy(g).dtype == to_numpy(w).dtype


@pytest.mark.parametrize("op_name, attrs, inputs, constants", [
    ("pd_op.reshape", {}, [f32(6, 4), np.array([3, -1], np.int64)], None),  # not constant
    ("pd_op.sgd_", {"multi_precision": True}, [f32(3), np.asarray(0.1, np.float32), f32(3),
                                               f32(3)], None),
    ("pd_op.matmul", {}, [f32(2, 3, 4), f32(4, 5)], None),  # batch axes broadcast
    ("pd_op.scale", {"bias": 0.0}, [np.arange(3), np.asarray([2], np.int64)], None),  # integers
    ("pd_op.matmul_grad", {}, [f32(4), f32(4, 5), f32(5)], None),
])
def test_ops_that_do_not_fit_get_the_generic_kernel(op_name, attrs, inputs, constants):
    import array_api_compat.numpy as xp

    assert SPECIALIZERS[op_name](xp, attrs, *_static(inputs, constants)) is None


def test_a_constant_reshape_target_that_cannot_hold_x_fails_when_planned():
    import array_api_compat.numpy as xp

    with pytest.raises(KernelError, match="holds 10 elements"):
        SPECIALIZERS["pd_op.reshape"](xp, {}, ((6, 4), (2,)), ("float32", "int64"),
                                      (None, (2, 5)))
    bad = parse_program(
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_role:0,place:Place(undefined:0),'
        'shape:[6,4],stop_gradient:[true]} : () -> tensor<6x4xf32>\n'
        '    (%1) = "pd_op.full_int_array" () {dtype:int64,op_role:0,place:Place(cpu),'
        "value:[2,5]} : () -> tensor<2xi64>\n"
        '    (%2) = "pd_op.reshape" (%0, %1) {op_role:0} : (tensor<6x4xf32>, tensor<2xi64>) '
        "-> tensor<2x5xf32>\n"
        "}\n", "bad.pir")
    with pytest.raises(ExecutionError, match="pd_op.reshape: shape \\[2, 5\\] holds 10 elements") \
            as info:
        Executor(bad)  # before anything runs
    assert info.value.line == 4
