"""Every grad definition of rules/grad.rw against central finite differences (float64).

For each forward op: a program whose trainable parameters feed the op, and a loss
``mean(out * r)`` with a random ``r``. ``append_backward`` makes the grads; the executor runs them;
each parameter's grad is compared with (loss(p + h) - loss(p - h)) / 2h per element. Shapes and
values come from hypothesis.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.paddle.backward import append_backward
from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.paddle.grad import load_grad_definitions
from rulepass.runtime.executor import Executor

F64 = "float64"
GRADS = load_grad_definitions()


def build(case, shapes):
    """(program, parameter names) for ``case``: params → op → mean(out * r) → loss."""
    b = Builder()
    params = []
    for i, shape in enumerate(shapes):
        name = f"p{i}"
        params.append(b.op("builtin.parameter", [], {
            "parameter_name": name, "stop_gradient": (False,), "trainable": (True,)},
            [tensor(shape, F64)]).result)
    out, out_shape = case["forward"](b, params)
    r = b.op("pd_op.data", [], {"name": "r", "dtype": Symbol(F64), "shape": tuple(out_shape),
                                "stop_gradient": (True,)}, [tensor(out_shape, F64)]).result
    prod = b.op("pd_op.multiply", [out, r], {"stop_gradient": (False,)},
                [tensor(out_shape, F64)]).result
    axis = b.op("pd_op.full_int_array", [], {"value": (), "dtype": Symbol("int64"),
                                             "place": Place("cpu"), "stop_gradient": (True,)},
                [tensor((0,), "int64")]).result
    loss = b.op("pd_op.mean", [prod, axis], {"keepdim": False, "stop_gradient": (False,)},
                [tensor((), F64)]).result
    b.op("builtin.shadow_output", [loss], {"output_name": "loss"}, [])
    return b.program, [f"p{i}" for i in range(len(shapes))]


def check(case, shapes, values, feeds):
    program, names = build(case, shapes)
    forward = program.clone()
    result = append_backward(program, GRADS)
    params = [op for op in program.ops if op.name == "builtin.parameter"]
    for op in params:
        g = result.grads[op.result]
        program.block.append(type(op).create("builtin.shadow_output", [g], [],
                                             {"output_name": "grad_" + op.attributes[
                                                 "parameter_name"]}))
    scope = dict(zip(names, values))
    outputs = Executor(program).run(feeds, dict(scope))
    run_forward = Executor(forward)
    h = 1e-6
    for name in names:
        analytic = np.asarray(outputs["grad_" + name])
        numeric = np.zeros_like(scope[name])
        flat = numeric.reshape(-1)
        for k in range(flat.size):
            for sign in (1, -1):
                moved = dict(scope)
                p = scope[name].copy()
                p.reshape(-1)[k] += sign * h
                moved[name] = p
                flat[k] += sign * float(run_forward.run(feeds, moved)["loss"]) / (2 * h)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-8,
                                   err_msg=f"{case['name']}: grad of {name}")


def unary(name, attrs=None, extra=None):
    def forward(b, p):
        shape = p[0].type.shape
        return b.op(name, [p[0]], {**(attrs or {}), "stop_gradient": (False,)},
                    [tensor(shape, F64)]).result, shape
    return {"name": name, "forward": forward, "arity": 1, "extra": extra}


def binary(name, broadcast=False):
    def forward(b, p):
        shape = p[0].type.shape
        return b.op(name, [p[0], p[1]], {"stop_gradient": (False,)},
                    [tensor(shape, F64)]).result, shape
    return {"name": name, "forward": forward, "arity": 2, "broadcast": broadcast}


def matmul(tx, ty):
    def forward(b, p):
        a, c = p[0].type.shape, p[1].type.shape
        m = a[1] if tx else a[0]
        n = c[0] if ty else c[1]
        return b.op("pd_op.matmul", [p[0], p[1]], {"transpose_x": tx, "transpose_y": ty,
                                                   "stop_gradient": (False,)},
                    [tensor((m, n), F64)]).result, (m, n)
    return {"name": f"matmul_{tx}_{ty}", "forward": forward, "arity": "matmul", "t": (tx, ty)}


def layer_norm(b, p):
    shape = p[0].type.shape
    rows = (shape[0],)
    res = b.op("pd_op.layer_norm", [p[0], p[1], p[2]], {
        "begin_norm_axis": 1, "epsilon": 1e-5, "stop_gradient": (False, False, False)},
        [tensor(shape, F64), tensor(rows, F64), tensor(rows, F64)])
    return res.results[0], shape


def scale(b, p):
    shape = p[0].type.shape
    s = b.op("pd_op.full", [], {"dtype": Symbol(F64), "place": Place("cpu"), "shape": (1,),
                                "stop_gradient": (True,), "value": 1.7}, [tensor((1,), F64)])
    return b.op("pd_op.scale", [p[0], s.result], {"bias": 0.3, "bias_after_scale": True,
                                                  "stop_gradient": (False,)},
                [tensor(shape, F64)]).result, shape


def transpose(b, p):
    shape = p[0].type.shape
    return b.op("pd_op.transpose", [p[0]], {"perm": (1, 0), "stop_gradient": (False,)},
                [tensor((shape[1], shape[0]), F64)]).result, (shape[1], shape[0])


def reshape(b, p):
    shape = p[0].type.shape
    new = (shape[0] * shape[1],)
    s = b.op("pd_op.full_int_array", [], {"value": new, "dtype": Symbol("int64"),
                                          "place": Place("cpu"), "stop_gradient": (True,)},
             [tensor((1,), "int64")])
    return b.op("pd_op.reshape", [p[0], s.result], {"stop_gradient": (False,)},
                [tensor(new, F64)]).result, new


def reduce(name):
    def forward(b, p):
        shape = p[0].type.shape
        axis = b.op("pd_op.full_int_array", [], {"value": (1,), "dtype": Symbol("int64"),
                                                 "place": Place("cpu"), "stop_gradient": (True,)},
                    [tensor((1,), "int64")])
        attrs = {"keepdim": False, "stop_gradient": (False,)}
        if name == "pd_op.sum":
            attrs["dtype"] = Symbol(F64)
        return b.op(name, [p[0], axis.result], attrs, [tensor((shape[0],), F64)]).result, \
            (shape[0],)
    return {"name": name, "forward": forward, "arity": 1}


CASES = [
    unary("pd_op.relu"), unary("pd_op.gelu", {"approximate": False}),
    unary("pd_op.gelu", {"approximate": True}), unary("pd_op.silu"), unary("pd_op.tanh"),
    unary("pd_op.softmax", {"axis": -1}), unary("pd_op.square"),
    unary("pd_op.rsqrt"), unary("pd_op.pow", {"y": 2.0}), unary("pd_op.pow", {"y": 3.0}),
    binary("pd_op.add"), binary("pd_op.subtract"), binary("pd_op.multiply"),
    binary("pd_op.divide"), binary("pd_op.add", broadcast=True),
    matmul(False, False), matmul(True, False), matmul(False, True),
    {"name": "layer_norm", "forward": layer_norm, "arity": "layer_norm"},
    {"name": "scale", "forward": scale, "arity": 1},
    {"name": "transpose", "forward": transpose, "arity": 1},
    {"name": "reshape", "forward": reshape, "arity": 1},
    reduce("pd_op.mean"), reduce("pd_op.sum"),
]


def shapes_for(case, rows, cols):
    arity = case["arity"]
    if arity == 1:
        return [(rows, cols)]
    if arity == 2:
        return [(rows, cols), (cols,) if case.get("broadcast") else (rows, cols)]
    if arity == "matmul":
        tx, ty = case["t"]
        k = 3
        return [(k, rows) if tx else (rows, k), (cols, k) if ty else (k, cols)]
    if arity == "layer_norm":
        return [(rows, cols), (rows * 0 + cols,), (cols,)]
    raise AssertionError(arity)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 3), cols=st.integers(1, 4), seed=st.integers(0, 2**16))
def test_grad_definition_matches_finite_differences(case, rows, cols, seed):
    rng = np.random.default_rng(seed)
    shapes = shapes_for(case, rows, cols)
    values = [rng.normal(size=s) for s in shapes]
    if case["name"] == "pd_op.divide":
        values[1] = np.sign(values[1]) * (np.abs(values[1]) + 0.5)  # away from zero
    if case["name"] == "pd_op.rsqrt":
        values[0] = np.abs(values[0]) + 0.5  # positive, away from the pole
    if case["name"] == "pd_op.relu":
        values[0] = np.where(np.abs(values[0]) < 1e-3, 0.5, values[0])  # away from the kink
    program, _ = build(case, shapes)
    out_shape = next(op for op in program.ops if op.name == "pd_op.data").result.type.shape
    feeds = {"r": rng.normal(size=out_shape)}
    check(case, shapes, values, feeds)
