"""Paddle's CPU random numbers (runtime/generator.py) and the kernels that draw them (dropout,
uniform), against numbers Paddle 3.3.1 printed on CPU (written out below), in every namespace."""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.runtime.generator import (
    IndexedSource,
    MersenneTwister64,
    RandomOp,
    SequentialSource,
    uniform_from,
)
from rulepass.runtime.kernels import KernelError
from rulepass.runtime.kernels.testing import namespaces, run

XP = [xp for _, xp in namespaces()]
IDS = [n for n, _ in namespaces()]


def test_default_engine_matches_std_mt19937_64():
    # the C++ standard's check: the 10000th output of a default-constructed mt19937_64
    engine = MersenneTwister64()
    assert int(engine.next(1)[0]) == 14514284786278117030
    assert int(engine.next(9999)[-1]) == 9981545732273789042


def test_paddle_seed_then_rand():
    # paddle.seed(2024); paddle.rand([4]) -> ...; 400 more, then paddle.rand([3])
    engine = MersenneTwister64.from_seed_seq(2024)
    assert uniform_from(engine.next(4), "float32").tolist() == [
        0.9383115768432617, 0.23659813404083252, 0.10174139589071274, 0.0846780315041542]
    engine.next(396)
    assert uniform_from(engine.next(3), "float32").tolist() == [
        0.60695880651474, 0.9209997653961182, 0.7934595346450806]


def test_paddle_rand_float64():
    # paddle.seed(5); paddle.rand([3], dtype="float64")
    engine = MersenneTwister64.from_seed_seq(5)
    assert uniform_from(engine.next(3), "float64").tolist() == [
        0.9200540978282166, 0.5363290527824306, 0.41342980962868053]


@pytest.mark.parametrize("xp", XP, ids=IDS)
def test_dropout_in_training_draws_from_the_generator(xp):
    # paddle.seed(3); F.dropout(arange(1, 13).reshape([3, 4]), p=0.4, training=True)
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    out, mask = run(xp, "pd_op.dropout", [x, None, np.array([0.4], np.float32)],
                    {"is_test": False, "mode": "upscale_in_train", "seed": 0, "fix_seed": False},
                    draws=SequentialSource(3).draws(None, xp))
    assert out.tolist() == [[0.0, 3.3333332538604736, 0.0, 6.666666507720947],
                            [0.0, 10.0, 11.666666030883789, 13.333333015441895],
                            [0.0, 0.0, 0.0, 0.0]]
    assert mask.dtype == np.uint8
    assert mask.tolist() == (out != 0).astype(np.uint8).tolist()


@pytest.mark.parametrize("xp", XP, ids=IDS)
def test_dropout_with_a_fixed_seed_draws_the_same_every_call(xp):
    # paddle._C_ops.dropout(ones([2, 3]), None, 0.5, False, "upscale_in_train", 11, True), twice
    source = SequentialSource(0)
    for _ in range(2):
        out, _ = run(xp, "pd_op.dropout", [np.ones((2, 3), np.float32), None,
                                           np.array([0.5], np.float32)],
                     {"is_test": False, "mode": "upscale_in_train", "seed": 11, "fix_seed": True},
                     draws=source.draws(None, xp))
        assert out.tolist() == [[0.0, 2.0, 0.0], [2.0, 0.0, 0.0]]


@pytest.mark.parametrize("xp", XP, ids=IDS)
def test_dropout_without_draws(xp):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    p = np.array([0.25], np.float32)
    out, mask = run(xp, "pd_op.dropout", [x, None, p], {"is_test": True, "mode": "upscale_in_train"})
    assert out.tolist() == x.tolist() and mask.tolist() == np.ones((2, 3)).tolist()
    out, _ = run(xp, "pd_op.dropout", [x, None, p], {"is_test": True, "mode": "downgrade_in_infer"})
    assert out.tolist() == (x * np.float32(0.75)).tolist()
    out, mask = run(xp, "pd_op.dropout", [x, None, np.array([0.0], np.float32)],
                    {"is_test": False, "mode": "upscale_in_train"})
    assert out.tolist() == x.tolist() and mask.tolist() == np.ones((2, 3)).tolist()
    out, mask = run(xp, "pd_op.dropout", [x, None, np.array([1.0], np.float32)],
                    {"is_test": False, "mode": "upscale_in_train"})
    assert not out.any() and not mask.any()
    with pytest.raises(KernelError, match="needs random numbers"):
        run(xp, "pd_op.dropout", [x, None, p], {"is_test": False, "mode": "upscale_in_train"})


@pytest.mark.parametrize("xp", XP, ids=IDS)
def test_uniform(xp):
    shape = np.array([5], np.int64)
    # paddle.seed(3); paddle.uniform([5], min=-1.0, max=2.0)
    (out,) = run(xp, "pd_op.uniform", [shape, np.array([-1.0], np.float32),
                                       np.array([2.0], np.float32)],
                 {"dtype": "float32", "seed": 0}, draws=SequentialSource(3).draws(None, xp))
    assert out.tolist() == [-0.09119069576263428, 0.9516777992248535, -0.16178679466247559,
                            0.8439664840698242, 0.19553852081298828]
    # paddle._C_ops.uniform([4], float32, 0.0, 1.0, 9, CPUPlace()): an engine seeded with 9
    (out,) = run(xp, "pd_op.uniform", [np.array([4], np.int64), np.array([0.0], np.float32),
                                       np.array([1.0], np.float32)],
                 {"dtype": "float32", "seed": 9}, draws=SequentialSource(0).draws(None, xp))
    assert out.tolist() == [0.5185191035270691, 0.49960705637931824, 0.8744703531265259,
                            0.827877938747406]
    with pytest.raises(KernelError, match="needs random numbers"):
        run(xp, "pd_op.uniform", [shape, np.array([0.0]), np.array([1.0])], {"dtype": "float32"})


def test_indexed_source_gives_each_run_its_piece_of_the_models_draws():
    import array_api_compat.numpy as xp

    # one op of a model with 4 rows in 2 micro-batches of 2, the rank holding columns 2..3;
    # another without the batch (the same draws for both micro-batches)
    op, other = object(), object()
    ops = {op: RandomOp(offset=6, shape=(2, 4), micro_batches=2, batch_dim=0,
                        piece=lambda a: a[:, 2:4]),
           other: RandomOp(offset=0, shape=(3, 2), micro_batches=2, batch_dim=None,
                           piece=lambda a: a)}
    source = IndexedSource(ops, per_step=6 + 16, seed=2024)
    model = uniform_from(MersenneTwister64.from_seed_seq(2024).next(2 * 22), "float32")
    for step in range(2):
        base = step * 22
        for m in range(2):
            got = source.draws(op, xp)((2, 2), "float32", 0)
            whole = model[base + 6: base + 22].reshape(4, 4)
            np.testing.assert_array_equal(got, whole[2 * m:2 * m + 2, 2:4])
            np.testing.assert_array_equal(source.draws(other, xp)((3, 2), "float32", 0),
                                          model[base:base + 6].reshape(3, 2))
    with pytest.raises(KeyError, match="draws random numbers"):
        source.draws(object(), xp)
    with pytest.raises(ValueError, match="the kernel asked for"):
        source.draws(op, xp)((4, 4), "float32", 0)
