"""The kernel table: lookup, registration errors, documentation and the no-mutation contract."""

from __future__ import annotations

import array_api_compat.numpy as compat_numpy
import numpy as np
import pytest

from rulepass.runtime.kernels import KERNELS, KernelError, UnknownOpError, kernel, lookup


def test_lookup_returns_the_registered_kernel():
    assert lookup("pd_op.matmul") is KERNELS["pd_op.matmul"]
    assert lookup("pd_op.add_") is lookup("pd_op.add")  # in-place variants share the kernel


def test_unknown_op_error_names_the_op_and_suggests_close_names():
    with pytest.raises(UnknownOpError) as raised:
        lookup("pd_op.matmul_gard")
    assert isinstance(raised.value, KeyError)
    assert raised.value.op_name == "pd_op.matmul_gard"
    message = str(raised.value)
    assert "'pd_op.matmul_gard'" in message and "did you mean 'pd_op.matmul_grad'" in message
    assert "@kernel('pd_op.matmul_gard')" in message


def test_registration_rejects_duplicates_and_unqualified_names():
    with pytest.raises(ValueError, match="already registered"):
        kernel("pd_op.matmul")(lambda xp, inputs, attrs: [])
    with pytest.raises(ValueError, match="must be qualified"):
        kernel("matmul")(lambda xp, inputs, attrs: [])
    assert KERNELS["pd_op.matmul"].__name__ == "matmul"


def test_registering_a_new_kernel_makes_it_lookupable():
    name = "test_dialect.identity"
    try:
        @kernel(name)
        def identity(xp, inputs, attrs):
            return [inputs[0]]

        assert lookup(name)(compat_numpy, [np.ones(1)], {})[0].tolist() == [1.0]
    finally:
        KERNELS.pop(name, None)


def test_every_kernel_documents_its_op():
    for name, fn in KERNELS.items():
        assert fn.__doc__, f"{name}: kernel {fn.__name__} has no docstring"
        base = name.removeprefix("pd_op.").rstrip("_")
        assert base in fn.__doc__, f"{name}: docstring of {fn.__name__} does not name the op"


def test_kernel_error_carries_the_op():
    with pytest.raises(KernelError) as raised:
        lookup("pd_op.reshape")(compat_numpy, [np.ones(6), np.array([4, -1])], {})
    assert raised.value.op_name == "pd_op.reshape"
    assert "cannot infer" in str(raised.value)


OPERANDS = {
    "pd_op.set_value_with_tensor_": (
        [np.zeros((2, 3)), np.ones(3), np.array([0]), np.array([1]), np.array([1])],
        {"axes": [0], "decrease_axes": [0], "none_axes": []},
    ),
    "pd_op.sgd_": ([np.ones(3), np.array([0.1]), np.ones(3), None], {}),
    "pd_op.adamw_": (
        [np.ones(3), np.ones(3), np.array(0.1), np.ones(3), np.ones(3), np.ones(3), np.array([0.9]),
         np.array([0.999]), None, None, np.array([0.9]), np.array([0.999]), np.array([1e-8])],
        {"with_decay": True, "amsgrad": True},
    ),
    "pd_op.add_": ([np.ones(3), np.ones(3)], {}),
    "pd_op.scale_": ([np.ones(3), np.array([2.0])], {"bias": 1.0}),
    "pd_op.relu_": ([np.array([-1.0, 2.0])], {}),
}


@pytest.mark.parametrize("name", sorted(OPERANDS))
def test_in_place_kernels_return_new_values_and_leave_operands_alone(name):
    inputs, attrs = OPERANDS[name]
    before = [None if v is None else v.copy() for v in inputs]
    results = lookup(name)(compat_numpy, inputs, attrs)
    assert results[0] is not inputs[0]
    for original, operand in zip(before, inputs, strict=True):
        if original is not None:
            np.testing.assert_array_equal(operand, original)
    assert not np.array_equal(results[0], inputs[0])
