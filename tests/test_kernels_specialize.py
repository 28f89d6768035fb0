"""Kernels specialized when the executor plans a program (runtime/kernels/specialize.py, norm.py,
reduction.py, activation.py, creation.py) give what the generic kernels give, bit for bit, in
every namespace (a result the program leaves null may be None); an op they do not fit gets the
generic kernel; a constant reshape target that cannot hold its input is an error when the program
is planned, naming the op."""

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


def f16(*shape):
    return rng.standard_normal(shape).astype(np.float16)


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
    ("pd_op.layer_norm_grad", {"epsilon": 1e-5, "begin_norm_axis": 2},
     [f32(2, 3, 4), f32(4), None, f32(2, 3), np.abs(f32(2, 3)), f32(2, 3, 4)], None),
    ("pd_op.layer_norm", {"epsilon": 1e-5, "begin_norm_axis": 1},
     [f16(4, 6), f32(6), f32(6)], None),  # float16 x: computed in float32
    ("pd_op.layer_norm_grad", {"epsilon": 1e-5, "begin_norm_axis": 1},
     [f16(4, 6), f32(6), f32(6), f32(4), np.abs(f32(4)), f16(4, 6)], None),
    *[("pd_op.add_grad", {"axis": -1}, [f32(*x), f32(*y), f32(*out)], None)
      for x, y, out in (((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (3, 4)),
                        ((2, 3, 4), (1, 4), (2, 3, 4)), ((3, 1), (1, 4), (3, 4)))],
    ("pd_op.subtract_grad", {"axis": -1}, [f32(3, 4), f32(3, 4), f32(3, 4)], None),
    ("pd_op.subtract_grad", {"axis": -1}, [f32(2, 3, 4), f32(3, 1), f32(2, 3, 4)], None),
    ("pd_op.mean", {"keepdim": False}, [f32(3, 4), np.array([], np.int64)], [None, ()]),
    ("pd_op.mean", {"keepdim": True}, [f32(3, 4, 5), np.array([-1, 0], np.int64)],
     [None, (-1, 0)]),
    ("pd_op.mean", {"keepdim": False}, [f16(3, 4), np.array([1], np.int64)], [None, (1,)]),
    ("pd_op.mean", {"axis": [1], "keepdim": False}, [f32(3, 4)], None),  # axis attribute
    ("pd_op.mean_grad", {"keepdim": False, "reduce_all": False},
     [f32(3, 4), np.asarray(f32(1)[0]), np.array([], np.int64)], [None, None, ()]),
    ("pd_op.mean_grad", {"keepdim": True, "reduce_all": False},
     [f32(3, 4, 5), f32(3, 1, 1), np.array([1, 2], np.int64)], [None, None, (1, 2)]),
    ("pd_op.mean_grad", {"keepdim": False, "reduce_all": False},
     [f32(3, 4, 5), f32(3, 5), np.array([1], np.int64)], [None, None, (1,)]),
    ("pd_op.softmax", {"axis": -1}, [f32(2, 3, 4)], None),
    ("pd_op.softmax", {"axis": 0}, [f16(3, 4)], None),
    ("pd_op.softmax_grad", {"axis": 1}, [f32(2, 3, 4), f32(2, 3, 4)], None),
    ("pd_op.full_like", {"dtype": "float32"}, [f32(3, 4), np.asarray([1.0], np.float32)],
     [None, (1.0,)]),
    ("pd_op.full_like", {"dtype": "float64"}, [f32(3), np.asarray([0.1], np.float32)],
     [None, (0.1,)]),  # float32's 0.1, as the kernel reads it from the full's array
    ("pd_op.full_like", {"dtype": "int64"}, [f32(2, 2), np.asarray([2.7], np.float32)],
     [None, (2.7,)]),
]


def _static(inputs, constants, nulls=frozenset()):
    shapes = tuple(None if a is None else tuple(a.shape) for a in inputs)
    dtypes = tuple(None if a is None else str(a.dtype) for a in inputs)
    return shapes, dtypes, tuple(constants or [None] * len(inputs)), frozenset(nulls)


@pytest.mark.parametrize("name, xp", namespaces())
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_specialized_kernel_equals_the_generic_one(case, name, xp):
    op_name, attrs, inputs, constants = case
    if any(getattr(a, "dtype", None) == np.float16 for a in inputs) and not hasattr(xp, "float16"):
        pytest.skip(f"{name} has no float16")
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


@pytest.mark.parametrize("op_name, attrs, inputs, nulls", [
    ("pd_op.layer_norm_grad", {"epsilon": 1e-5, "begin_norm_axis": 1},
     [f32(6, 8), f32(8), f32(8), f32(6), np.abs(f32(6)), f32(6, 8)], {0}),
    ("pd_op.add_grad", {}, [f32(3, 4), f32(4), f32(3, 4)], {0}),
    ("pd_op.add_grad", {}, [f32(3, 4), f32(4), f32(3, 4)], {1}),
    ("pd_op.subtract_grad", {}, [f32(3, 4), f32(3, 4), f32(3, 4)], {1}),
    ("pd_op.matmul_grad", {}, [f32(3, 5), f32(5, 4), f32(3, 4)], {0}),
    ("pd_op.matmul_grad", {"transpose_y": True}, [f32(3, 5), f32(4, 5), f32(3, 4)], {1}),
])
def test_a_null_result_is_not_computed_and_the_others_are_the_kernels(op_name, attrs, inputs,
                                                                       nulls):
    # <<NULL TYPE>> results: no op reads them, so the specialized kernel may leave them None
    import array_api_compat.numpy as xp

    got = SPECIALIZERS[op_name](xp, attrs, *_static(inputs, None, nulls))(inputs)
    want = KERNELS[op_name](xp, inputs, dict(attrs))
    for k, (g, w) in enumerate(zip(got, want)):
        if k in nulls:
            assert g is None
        else:
            np.testing.assert_array_equal(g, w, strict=True)


def test_static_operands_give_constants_and_null_results():
    from rulepass.runtime.plan import static_operands

    block = parse_program(
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_role:0,place:Place(undefined:0),'
        "shape:[3,4],stop_gradient:[true]} : () -> tensor<3x4xf32>\n"
        '    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:2.5} : () '
        "-> tensor<1xf32>\n"
        '    (%2) = "pd_op.full_int_array" () {dtype:int64,value:[1,-1]} : () -> tensor<2xi64>\n'
        '    (%3, %4) = "pd_op.add_grad" (%0, %1, %0) {axis:-1} : (tensor<3x4xf32>, '
        "tensor<1xf32>, tensor<3x4xf32>) -> <<NULL TYPE>>, tensor<1xf32>\n"
        '    (%5) = "pd_op.reshape" (%0, %2) {} : (tensor<3x4xf32>, tensor<2xi64>) -> '
        "tensor<1x12xf32>\n"
        "}\n", "static.pir")
    ops = list(block.block)
    assert static_operands(ops[3]) == (((3, 4), (1,), (3, 4)), ("float32",) * 3,
                                       (None, (2.5,), None), frozenset({0}))
    assert static_operands(ops[4]) == (((3, 4), (2,)), ("float32", "int64"), (None, (1, -1)),
                                       frozenset())


@pytest.mark.parametrize("op_name, attrs, inputs, constants", [
    ("pd_op.reshape", {}, [f32(6, 4), np.array([3, -1], np.int64)], None),  # not constant
    ("pd_op.reshape", {}, [f32(6, 4), np.array([24.0], np.float32)], [None, (24.0,)]),  # float
    ("pd_op.add_grad", {"axis": 0}, [f32(3, 4), f32(3), f32(3, 4)], None),  # legacy axis
    ("pd_op.add_grad", {}, [f32(3, 4), f32(4), None], None),  # out_grad's shape unknown
    ("pd_op.mean", {}, [f32(3, 4), np.array([1], np.int64)], None),  # axes not constant
    ("pd_op.mean_grad", {}, [f32(3, 4), f32(3), np.array([1], np.int64)], None),
    ("pd_op.softmax", {"axis": -1}, [np.asarray(1.0, np.float32)], None),  # 0-d
    ("pd_op.full_like", {}, [f32(3), np.asarray([1.0], np.float32)], None),  # value not constant
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
                                      (None, (2, 5)), frozenset())
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
