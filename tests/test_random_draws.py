"""``rulepass/random_draws.py``: which of Paddle's generator outputs each random op of a model
draws (offsets in a step, the micro-batch dim), and what it refuses."""

from __future__ import annotations

import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.example import ExampleError
from rulepass.random_draws import random_model

HEAD = [
    '(%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>',
    '(%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>',
]


def dropout(n, x, **attrs):
    attrs = {"fix_seed": False, "is_test": False, "seed": 0, **attrs}
    text = ",".join(f"{k}:{str(v).lower()}" for k, v in sorted(attrs.items()))
    return (f'(%{n}, %{n + 1}) = "pd_op.dropout" (%{x}, <<NULL VALUE>>, %1) {{{text},'
            f'mode:"upscale_in_train",stop_gradient:[true,true]}} : (tensor<2x8xf32>, '
            f'<<NULL TYPE>>, tensor<1xf32>) -> tensor<2x8xf32>, tensor<2x8xu8>')


UNIFORM = [
    '(%10) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[3]} : () -> tensor<1xi64>',
    '(%11) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xf32>',
    '(%12) = "pd_op.uniform" (%10, %11, %1) {dtype:float32,place:Place(undefined:0),seed:0,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>',
]


def program(*lines):
    return parse_program("{\n" + "\n".join("    " + line for line in lines) + "\n}\n", "t.pir")


def test_offsets_count_what_paddles_kernels_draw_from_the_generator():
    p = program(*HEAD, dropout(2, 0), dropout(4, 2, fix_seed=True, seed=7),
                dropout(6, 4, is_test=True), dropout(8, 6), *UNIFORM)
    model = random_model(p, micro_batches=2, seed=2024)
    ops = list(p.block)
    infos = [model.ops[ops.index(op)] for op in ops if op.name in ("pd_op.dropout", "pd_op.uniform")]
    # each drawing dropout takes the whole batch's 2 x 2 x 8 numbers; a seeded or test one none;
    # the uniform (no batch) 3 per step
    assert [i.offset for i in infos] == [0, 32, 32, 32, 64]
    assert [i.batch_dim for i in infos] == [0, 0, 0, 0, None]
    assert model.per_step == 67 and model.seed == 2024 and model.draws_unmatched == ()
    assert random_model(p, 1, None).draws_unmatched == ("pd_op.dropout", "pd_op.uniform")
    assert random_model(program(*HEAD), 1, None) is None


def test_a_dropout_probability_that_is_no_constant_is_refused():
    p = program(*HEAD, dropout(2, 0).replace("<<NULL VALUE>>, %1", "<<NULL VALUE>>, %0")
                .replace("<<NULL TYPE>>, tensor<1xf32>", "<<NULL TYPE>>, tensor<2x8xf32>"))
    with pytest.raises(ExampleError, match="its probability p is not a constant"):
        random_model(p, 1, 0)


def test_a_random_op_whose_batch_dim_is_not_known_is_refused_with_micro_batches():
    unknown = ('(%2) = "pd_op.logsumexp" (%0) {stop_gradient:[true]} : (tensor<2x8xf32>) -> '
               'tensor<2x8xf32>')
    p = program(*HEAD, unknown, dropout(3, 2))
    assert random_model(p, 1, 0) is not None  # one micro-batch: no dim to tell
    with pytest.raises(ExampleError, match="which dim of its result holds the micro-batch"):
        random_model(p, 2, 0)
