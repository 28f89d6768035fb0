"""The lean namespace (runtime/kernels/lean.py) gives what array_api_compat.numpy gives, bit for
bit, for every function it replaces: on arrays, on NumPy scalars (what NumPy's 0-d arithmetic
returns) and with the arguments its fast path does not take; other namespaces come back as they
are, and the executor's kernels run in it."""

from __future__ import annotations

import array_api_compat.numpy as compat
import numpy as np
import pytest

from rulepass.runtime.executor import Executor
from rulepass.runtime.kernels.lean import LEAN_FUNCTIONS, lean_namespace

lean = lean_namespace(compat)
rng = np.random.default_rng(3)
f32 = rng.standard_normal((3, 4, 5)).astype(np.float32)
scalar = np.float32(1.5) * np.float32(2.0)  # a NumPy scalar, not a 0-d array
CASES = [
    ("sum", (f32,), {}), ("sum", (f32,), {"axis": 1}), ("sum", (f32,), {"axis": (0, 2)}),
    ("sum", (f32,), {"axis": -1, "keepdims": True}), ("sum", (f32,), {"dtype": np.float64}),
    ("sum", (np.arange(6, dtype=np.int32),), {}), ("sum", (scalar,), {}),
    ("max", (f32,), {"axis": 2, "keepdims": True}), ("max", (f32,), {}), ("max", (scalar,), {}),
    ("reshape", (f32, (12, 5)), {}), ("reshape", (f32, (-1,)), {}),
    ("reshape", (f32, (60,)), {"copy": True}), ("reshape", (scalar, (1,)), {}),
    ("astype", (f32, np.float64), {}), ("astype", (f32, np.float32), {"copy": False}),
    ("astype", (f32, np.float16), {"copy": True}), ("astype", (scalar, np.float64), {}),
    ("asarray", (f32,), {}), ("asarray", (f32,), {"copy": True}),
    ("asarray", (f32,), {"dtype": np.float64}), ("asarray", (scalar,), {}),
    ("asarray", ([1.0, 2.0],), {}),
    ("matrix_transpose", (f32,), {}), ("matrix_transpose", (f32[0],), {}),
    ("permute_dims", (f32, (2, 0, 1)), {}), ("permute_dims", (scalar, ()), {}),
    ("matmul", (f32, rng.standard_normal((3, 5, 2)).astype(np.float32)), {}),
]


def test_it_replaces_the_functions_it_names_and_keeps_the_others():
    assert {name for name in LEAN_FUNCTIONS if getattr(lean, name) is not getattr(compat, name)} \
        == set(LEAN_FUNCTIONS)
    for name in ("exp", "where", "float32", "isdtype", "broadcast_to", "concat"):
        assert getattr(lean, name) is getattr(compat, name)
    assert lean_namespace(compat) is lean and lean_namespace(lean) is lean


@pytest.mark.parametrize("name, args, kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_replacement_gives_what_the_original_gives(name, args, kwargs):
    want = getattr(compat, name)(*args, **kwargs)
    got = getattr(lean, name)(*args, **kwargs)
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want, strict=True)
    if isinstance(want, np.ndarray):
        # a view where the original makes a view, a copy where it copies
        assert np.shares_memory(got, args[0]) == np.shares_memory(want, args[0])


@pytest.mark.parametrize("name, args", [("matrix_transpose", (np.ones(3, np.float32),)),
                                        ("reshape", (np.ones(6, np.float32), (4, 2)))])
def test_errors_are_the_originals(name, args):
    with pytest.raises(Exception) as want:
        getattr(compat, name)(*args)
    with pytest.raises(type(want.value)):
        getattr(lean, name)(*args)


def test_other_namespaces_are_used_as_they_are():
    strict = pytest.importorskip("array_api_strict")
    assert lean_namespace(strict) is strict
    assert Executor(_program(), xp=strict).xp is strict


def test_the_executor_runs_numpy_kernels_in_the_lean_namespace():
    assert Executor(_program()).xp is lean
    assert Executor(_program(), xp=compat).xp is lean


def _program():
    from rulepass.engine.pir.parse import parse_program

    return parse_program(
        "{\n"
        '    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_role:0,place:Place(undefined:0),'
        "shape:[2],stop_gradient:[true]} : () -> tensor<2xf32>\n"
        '    () = "builtin.shadow_output" (%0) {output_name:"y"} : (tensor<2xf32>) -> \n'
        "}\n", "lean.pir")
