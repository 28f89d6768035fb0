"""Optimizer kernels (sgd_, adamw_) against a NumPy reference of Paddle's update rule, and one
case measured on Paddle 3.3.1's CPU kernel, in every namespace."""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.runtime.kernels.testing import namespaces, run

pytestmark = pytest.mark.parametrize("xp", [xp for _, xp in namespaces()], ids=[n for n, _ in namespaces()])

rng = np.random.default_rng(3)


def adam_operands(param, grad, lr, moment1, moment2, moment2_max=None, beta1_pow=0.9, beta2_pow=0.999,
                  master_param=None, skip_update=None):
    """adam_/adamw_ operands in Paddle's order, hyperparameters beta1=0.9, beta2=0.999, eps=1e-8."""
    return [param, grad, np.array(lr), moment1, moment2, moment2_max, np.array([beta1_pow]),
            np.array([beta2_pow]), master_param, skip_update, np.array([0.9]), np.array([0.999]),
            np.array([1e-8])]


def test_sgd(xp):
    param, grad = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    operands = [param, np.array([0.1]), grad, None]
    param_out, master_out = run(xp, "pd_op.sgd_", operands, {"multi_precision": False})
    np.testing.assert_allclose(param_out, param - 0.1 * grad, rtol=1e-15)
    assert master_out is None


def test_sgd_updates_master_weights_and_casts_back(xp):
    master, grad = rng.standard_normal((3, 2)), rng.standard_normal((3, 2)).astype(np.float32)
    param = master.astype(np.float32)
    operands = [param, np.array([0.5]), grad, master]
    param_out, master_out = run(xp, "pd_op.sgd_", operands, {"multi_precision": True})
    expected = master - 0.5 * grad.astype(np.float64)
    np.testing.assert_allclose(master_out, expected, rtol=1e-15)
    assert master_out.dtype == np.float64 and param_out.dtype == np.float32
    np.testing.assert_array_equal(param_out, expected.astype(np.float32))


def adamw_reference(param, grad, lr, m1, m2, m2_max, b1p, b2p, beta1, beta2, eps, lr_ratio, coeff,
                    with_decay, amsgrad):
    """Paddle's AdamW step as its CPU kernel computes it (lr_ratio scales the decay only)."""
    if with_decay:
        param = param - lr * lr_ratio * coeff * param
    m1 = beta1 * m1 + (1 - beta1) * grad
    m2 = beta2 * m2 + (1 - beta2) * grad**2
    m2_max = np.maximum(m2_max, m2) if amsgrad else None
    denominator = np.sqrt(m2_max if amsgrad else m2) + eps * np.sqrt(1 - b2p)
    param = param - lr * np.sqrt(1 - b2p) / (1 - b1p) * m1 / denominator
    return param, m1, m2, m2_max, b1p * beta1, b2p * beta2


@pytest.mark.parametrize(
    "attrs",
    [
        {"with_decay": True, "coeff": 0.01, "lr_ratio": 1.0, "amsgrad": False},
        {"with_decay": True, "coeff": 0.3, "lr_ratio": 0.5, "amsgrad": True},
        {"with_decay": False, "coeff": 0.3, "lr_ratio": 1.0, "amsgrad": False},
    ],
)
def test_adamw_matches_reference_over_several_steps(xp, attrs):
    shape = (4, 3)
    param = rng.standard_normal(shape)
    m1, m2, m2_max = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    b1p, b2p = np.array([0.9]), np.array([0.999])
    state = (param, m1, m2, m2_max, b1p, b2p)
    expected = state
    for _ in range(3):
        grad = rng.standard_normal(shape)
        operands = adam_operands(state[0], grad, 0.01, state[1], state[2],
                                 state[3] if attrs["amsgrad"] else None)
        operands[6:8] = state[4], state[5]
        results = run(xp, "pd_op.adamw_", operands, attrs)
        assert len(results) == 7 and results[6] is None
        assert (results[3] is None) == (not attrs["amsgrad"])
        p, e_m1, e_m2, e_max, e_b1, e_b2 = expected
        expected = adamw_reference(p, grad, 0.01, e_m1, e_m2, e_max if attrs["amsgrad"] else np.zeros(shape),
                                   e_b1, e_b2, 0.9, 0.999, 1e-8, attrs["lr_ratio"], attrs["coeff"],
                                   attrs["with_decay"], attrs["amsgrad"])
        for got, want in zip(results[:6], expected, strict=True):
            if want is not None:
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
        state = (*results[:3], results[3] if attrs["amsgrad"] else m2_max, *results[4:6])


def test_adamw_hyperparameters_as_attributes_and_global_beta_pow(xp):
    param, grad = rng.standard_normal(5), rng.standard_normal(5)
    operands = [param, grad, np.array(0.1), np.zeros(5), np.zeros(5), None, np.array([0.5]), np.array([0.25]),
                None, None]
    attrs = {"beta1": 0.5, "beta2": 0.5, "epsilon": 1e-3, "use_global_beta_pow": True, "with_decay": False}
    results = run(xp, "pd_op.adamw_", operands, attrs)
    expected = adamw_reference(param, grad, 0.1, 0, 0, None, 0.5, 0.25, 0.5, 0.5, 1e-3, 1.0, 0.0,
                               False, False)
    np.testing.assert_allclose(results[0], expected[0], rtol=1e-12)
    assert results[4].tolist() == [0.5] and results[5].tolist() == [0.25]  # not advanced


def test_adamw_skip_update_leaves_state_alone(xp):
    param = rng.standard_normal(3)
    operands = adam_operands(param, np.ones(3), 0.1, np.ones(3), np.ones(3), beta2_pow=0.99,
                             skip_update=np.array([True]))
    results = run(xp, "pd_op.adamw_", operands, {"with_decay": True, "coeff": 0.5})
    np.testing.assert_array_equal(results[0], param)
    np.testing.assert_array_equal(results[1], np.ones(3))
    assert results[4].tolist() == [0.9]


def test_adamw_master_weights(xp):
    master = rng.standard_normal(4)
    param, grad = master.astype(np.float32), rng.standard_normal(4)
    operands = adam_operands(param, grad, 0.01, np.zeros(4), np.zeros(4), master_param=master)
    results = run(xp, "pd_op.adamw_", operands, {"multi_precision": True, "with_decay": True, "coeff": 0.1})
    expected = adamw_reference(master, grad, 0.01, 0, 0, None, 0.9, 0.999, 0.9, 0.999, 1e-8, 1.0, 0.1,
                               True, False)
    np.testing.assert_allclose(results[6], expected[0], rtol=1e-12)
    assert results[0].dtype == np.float32
    np.testing.assert_array_equal(results[0], results[6].astype(np.float32))


def test_adamw_case_measured_on_paddle_3_3_1_cpu(xp):
    """Inputs and outputs of ``paddle._C_ops.adamw_`` on CPU (float32, lr_ratio=0.5, amsgrad)."""
    f32 = np.float32
    operands = [
        np.array([[0.5, -1.0], [2.0, 0.25]], f32),  # param
        np.array([[0.1, -0.2], [0.3, -0.4]], f32),  # grad
        np.array(0.01, f32),  # learning_rate
        np.array([[0.01, 0.02], [-0.03, 0.0]], f32),  # moment1
        np.array([[0.001, 0.002], [0.0005, 0.0]], f32),  # moment2
        np.array([[0.002, 0.001], [0.0005, 0.01]], f32),  # moment2_max
        np.array([0.729], f32),  # beta1_pow
        np.array([0.997002999], f32),  # beta2_pow
        None, None,  # master_param, skip_update
        np.array([0.9], f32), np.array([0.999], f32), np.array([1e-8], f32),
    ]
    attrs = {"lr_ratio": 0.5, "coeff": 0.1, "with_decay": True, "amsgrad": True}
    results = run(xp, "pd_op.adamw_", operands, attrs)
    paddle_results = [
        [[0.4988917410373688, -0.9994105100631714], [1.9987503290176392, 0.2506830394268036]],
        [[0.01900000125169754, -0.002000005915760994], [0.003000010037794709, -0.040000010281801224]],
        [[0.001008999883197248, 0.0020379996858537197], [0.000589498900808394, 0.00015999794413801283]],
        [[0.0020000000949949026, 0.0020379996858537197], [0.000589498900808394, 0.009999999776482582]],
        [0.6560999751091003],
        [0.9960060119628906],
    ]
    for got, want in zip(results[:6], paddle_results, strict=True):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, np.array(want, f32), rtol=2e-6, atol=1e-9)


def test_adam_is_adamw_without_decay(xp):
    param, grad = rng.standard_normal(4), rng.standard_normal(4)
    operands = adam_operands(param, grad, 0.01, np.zeros(4), np.zeros(4))
    results = run(xp, "pd_op.adam_", operands, {"with_decay": True, "coeff": 0.5})  # adam_ has no decay
    expected = adamw_reference(param, grad, 0.01, 0, 0, None, 0.9, 0.999, 0.9, 0.999, 1e-8, 1.0, 0.0,
                               False, False)
    for got, want in zip(results[:3], expected[:3], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum(xp, nesterov):
    param, grad, velocity = rng.standard_normal(3), rng.standard_normal(3), rng.standard_normal(3)
    attrs = {"mu": 0.9, "use_nesterov": nesterov, "regularization_method": "l2_decay",
             "regularization_coeff": 0.1}
    operands = [param, grad, velocity, np.array([0.5]), None]
    param_out, velocity_out, master_out = run(xp, "pd_op.momentum_", operands, attrs)
    g = grad + 0.1 * param
    v = 0.9 * velocity + g
    np.testing.assert_allclose(velocity_out, v, rtol=1e-14)
    np.testing.assert_allclose(param_out, param - 0.5 * (g + 0.9 * v if nesterov else v), rtol=1e-14)
    assert master_out is None


def test_momentum_case_measured_on_paddle_3_3_1_cpu(xp):
    """``paddle._C_ops.momentum_`` on CPU with nesterov, l2_decay 0.05 and rescale_grad 0.5, which
    that kernel ignores."""
    f32 = np.float32
    operands = [np.array([[0.5, -1.0], [2.0, 0.25]], f32), np.array([[0.1, -0.2], [0.3, -0.4]], f32),
                np.array([[0.01, 0.02], [-0.03, 0.0]], f32), np.array([0.1], f32), None]
    attrs = {"mu": 0.9, "use_nesterov": True, "regularization_method": "l2_decay",
             "regularization_coeff": 0.05, "rescale_grad": 0.5}
    param_out, velocity_out, _ = run(xp, "pd_op.momentum_", operands, attrs)
    paddle_param = [[0.47543999552726746, -0.9541199803352356], [1.9264299869537354, 0.32362499833106995]]
    paddle_velocity = [[0.1340000033378601, -0.23199999332427979],
                       [0.37299999594688416, -0.38750001788139343]]
    np.testing.assert_allclose(param_out, np.array(paddle_param, f32), rtol=2e-6)
    np.testing.assert_allclose(velocity_out, np.array(paddle_velocity, f32), rtol=2e-6)
