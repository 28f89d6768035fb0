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
from rulepass.engine.ir.types import VectorType
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


def const(b, value, dtype=F64):
    """A ``pd_op.full`` [1] of ``value`` (a Scalar operand)."""
    return b.op("pd_op.full", [], {"dtype": Symbol(dtype), "place": Place("cpu"), "shape": (1,),
                                   "stop_gradient": (True,), "value": value},
                [tensor((1,), dtype)]).result


def int_array(b, values):
    """A ``pd_op.full_int_array`` of ``values`` (an IntArray operand)."""
    return b.op("pd_op.full_int_array", [], {"value": tuple(values), "dtype": Symbol("int64"),
                                             "place": Place("cpu"), "stop_gradient": (True,)},
                [tensor((len(values),), "int64")]).result


def grad_op(b, name, operands, attrs, shape):
    return b.op(name, operands, {**attrs, "stop_gradient": (False,)}, [tensor(shape, F64)]).result


def clip(b, p):
    shape = p[0].type.shape
    return grad_op(b, "pd_op.clip", [p[0], const(b, -0.5), const(b, 0.5)], {}, shape), shape


def extreme(name, keepdim):
    def forward(b, p):
        rows, cols = p[0].type.shape
        shape = (rows, 1) if keepdim else (rows,)
        return grad_op(b, name, [p[0], int_array(b, [1])], {"keepdim": keepdim}, shape), shape
    return {"name": f"{name}_keepdim_{keepdim}", "forward": forward, "arity": 1}


def slice_(decrease):
    def forward(b, p):
        rows, cols = p[0].type.shape
        shape = (rows,) if decrease else (rows, 1)
        return grad_op(b, "pd_op.slice", [p[0], int_array(b, [cols - 1]), int_array(b, [cols])],
                       {"axes": (1,), "decrease_axis": (1,) if decrease else (),
                        "infer_flags": (1,)}, shape), shape
    return {"name": f"slice_decrease_{decrease}", "forward": forward, "arity": 1}


def squeeze_unsqueeze(b, p):
    rows, cols = p[0].type.shape
    wide = grad_op(b, "pd_op.unsqueeze", [p[0], int_array(b, [1])], {}, (rows, 1, cols))
    flat = grad_op(b, "pd_op.flatten", [wide], {"start_axis": 0, "stop_axis": 1},
                   (rows, cols))
    again = grad_op(b, "pd_op.unsqueeze", [flat, int_array(b, [0])], {}, (1, rows, cols))
    return grad_op(b, "pd_op.squeeze", [again, int_array(b, [0])], {}, (rows, cols)), (rows, cols)


def expand(b, p):
    (cols,) = p[1].type.shape
    rows = p[0].type.shape[0]
    wide = grad_op(b, "pd_op.expand", [p[1], int_array(b, [rows, cols])], {}, (rows, cols))
    return grad_op(b, "pd_op.multiply", [p[0], wide], {}, (rows, cols)), (rows, cols)


def where(b, p):
    shape = p[0].type.shape
    zero = b.op("pd_op.full", [], {"dtype": Symbol(F64), "place": Place("cpu"), "shape": (),
                                   "stop_gradient": (True,), "value": 0.0}, [tensor((), F64)])
    cond = b.op("pd_op.greater_than", [p[0], zero.result], {"stop_gradient": (True,)},
                [tensor(shape, "bool")]).result
    return grad_op(b, "pd_op.where", [cond, p[0], p[1]], {}, shape), shape


def dropout(is_test, mode, p_value):
    def forward(b, p):
        shape = p[0].type.shape
        out = b.op("pd_op.dropout", [p[0], None, const(b, p_value, "float32")], {
            "fix_seed": not is_test, "is_test": is_test, "mode": mode, "seed": 7,
            "stop_gradient": (False, False)}, [tensor(shape, F64), tensor(shape, "uint8")])
        return out.results[0], shape
    return {"name": f"dropout_{'test' if is_test else 'train'}_{mode}_{p_value}",
            "forward": forward, "arity": 1}


def combine(b, values):
    return b.op("builtin.combine", values, {"stop_gradient": (False,)},
                [VectorType([v.type for v in values])]).result


def split_items(b, vector):
    items = vector.type.items
    return b.op("builtin.split", [vector], {"stop_gradient": (False,) * len(items)},
                list(items)).results


def concat(b, p):
    rows, cols = p[0].type.shape
    axis = b.op("pd_op.full", [], {"dtype": Symbol("int32"), "place": Place("cpu"),
                                   "shape": (1,), "stop_gradient": (True,), "value": 1},
                [tensor((1,), "int32")]).result
    # p0 twice: its two grads from concat_grad's split are summed
    shape = (rows, 3 * cols)
    return grad_op(b, "pd_op.concat", [combine(b, [p[0], p[1], p[0]]), axis], {}, shape), shape


def split(with_num):
    def forward(b, p):
        rows, cols = p[0].type.shape
        axis = b.op("pd_op.full", [], {"dtype": Symbol("int32"), "place": Place("cpu"),
                                       "shape": (1,), "stop_gradient": (True,), "value": 1},
                    [tensor((1,), "int32")]).result
        if with_num:
            half = cols // 2
            parts = [tensor((rows, half), F64)] * 2
            vector = b.op("pd_op.split_with_num", [p[0], axis], {
                "num": 2, "stop_gradient": (False,)}, [VectorType(parts)]).result
            first, second = split_items(b, vector)
            return grad_op(b, "pd_op.subtract", [first, second], {}, (rows, half)), (rows, half)
        parts = [tensor((rows, 1), F64), tensor((rows, cols - 1), F64)]
        vector = b.op("pd_op.split", [p[0], int_array(b, [1, cols - 1]), axis],
                      {"stop_gradient": (False,)}, [VectorType(parts)]).result
        first, second = split_items(b, vector)
        shape = (rows, cols - 1)
        return grad_op(b, "pd_op.multiply", [first, second], {}, shape), shape
    return {"name": "split_with_num" if with_num else "split", "forward": forward,
            "arity": "even" if with_num else "wide"}


def stack(b, p):
    rows, cols = p[0].type.shape
    shape = (rows, 2, cols)
    return grad_op(b, "pd_op.stack", [combine(b, [p[0], p[1]])], {"axis": 1}, shape), shape


def unbind(b, p):
    rows, cols = p[0].type.shape
    vector = b.op("pd_op.unbind", [p[0]], {"axis": 0, "stop_gradient": (False,)},
                  [VectorType([tensor((cols,), F64)] * rows)]).result
    items = split_items(b, vector)
    # only the first row reaches the loss: the others' grads are zeros
    return items[0], (cols,)


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
    unary("pd_op.abs"), unary("pd_op.sin"), unary("pd_op.cos"),
    {"name": "clip", "forward": clip, "arity": 1},
    extreme("pd_op.max", True), extreme("pd_op.max", False), extreme("pd_op.min", False),
    slice_(False), slice_(True),
    {"name": "squeeze_unsqueeze_flatten", "forward": squeeze_unsqueeze, "arity": 1},
    {"name": "expand", "forward": expand, "arity": 2, "broadcast": True},
    {"name": "where", "forward": where, "arity": 2},
    dropout(True, "upscale_in_train", 0.25), dropout(True, "downgrade_in_infer", 0.25),
    dropout(False, "upscale_in_train", 0.5), dropout(False, "downgrade_in_infer", 0.5),
    dropout(False, "upscale_in_train", 0.0),
    {"name": "concat", "forward": concat, "arity": 2},
    split(True), split(False),
    {"name": "stack", "forward": stack, "arity": 2},
    {"name": "unbind", "forward": unbind, "arity": 1},
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
    if arity == "even":
        return [(rows, 2 * cols)]
    if arity == "wide":
        return [(rows, cols + 1)]
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
    if case["name"] in ("pd_op.relu", "pd_op.abs", "where"):
        values[0] = np.where(np.abs(values[0]) < 1e-3, 0.5, values[0])  # away from the kink
    if case["name"] == "clip":  # away from the bounds
        values[0] = np.where(np.abs(np.abs(values[0]) - 0.5) < 1e-3, 0.1, values[0])
    program, _ = build(case, shapes)
    out_shape = next(op for op in program.ops if op.name == "pd_op.data").result.type.shape
    feeds = {"r": rng.normal(size=out_shape)}
    check(case, shapes, values, feeds)


def test_the_installed_definitions_are_parsed_once_per_process():
    # the chain compiles a program per rank; each compile re-parsed grad.rw (0.1 s at a time)
    first, second = load_grad_definitions(), load_grad_definitions()
    assert first is not second  # a new list: a caller may extend its own
    assert len(first) == len(second) and all(a is b for a, b in zip(first, second))
    second.append(None)
    assert None not in load_grad_definitions()
