"""The executor on small hand-written dense programs: results, in-place updates, persistent
variables, freeing after the last read, errors raised before anything runs, and collectives."""

from __future__ import annotations

import numpy as np
import pytest

from rulepass.engine.pir.parse import parse_program
from rulepass.runtime.comm.local import run_ranks
from rulepass.runtime.executor import (
    REDUCE_TYPES,
    ExecutionError,
    Executor,
    MissingInputError,
    UnsupportedOpError,
    op_lines,
)
from rulepass.engine.pir.printer import print_program

DATA = '{{dtype:float32,name:"{name}",op_role:0,place:Place(undefined:0),shape:[{shape}],stop_gradient:[true]}}'


@pytest.fixture(autouse=True, params=[1, 0, None], ids=["loop-then-unrolled", "unrolled", "loop"])
def run_mode(request, monkeypatch):
    """Every test runs with the default (the loop, then the steps unrolled from the second run
    of an index sequence), with the steps unrolled from the first run, and with the loop only:
    the unrolled steps must do what the loop does, errors included."""
    monkeypatch.setattr(Executor, "unroll_after", request.param)
    return request.param


def data(result: str, name: str, shape: str) -> str:
    dims = "x".join(shape.split(","))
    return (f'    ({result}) = "pd_op.data" () ' + DATA.format(name=name, shape=shape)
            + f" : () -> tensor<{dims}xf32>")


def program(*lines: str, header: str = ""):
    return parse_program(header + "{\n" + "\n".join(lines) + "\n}\n", "test.pir")


MLP = program(
    data("%0", "x", "2,3"),
    '    (%1) = "builtin.parameter" () {op_role:0,parameter_name:"w"} : () -> tensor<3x4xf32>',
    '    (%2) = "pd_op.matmul" (%0, %1) {op_role:0,transpose_x:false,transpose_y:false} : '
    "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>",
    '    (%3) = "pd_op.relu" (%2) {op_role:0} : (tensor<2x4xf32>) -> tensor<2x4xf32>',
    '    () = "builtin.shadow_output" (%3) {output_name:"y"} : (tensor<2x4xf32>) -> ',
)


def test_runs_a_small_mlp():
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    w = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    out = Executor(MLP).run({"x": x}, {"w": w})
    np.testing.assert_allclose(out["y"], np.maximum(x @ w, 0), rtol=1e-6)


def test_one_code_path_under_array_api_strict():
    xp = pytest.importorskip("array_api_strict")
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    w = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    scope = {"w": w}  # NumPy in the scope and the feeds: converted to the namespace on first read
    out = Executor(MLP, xp=xp).run({"x": x}, scope)
    assert type(out["y"]) is type(xp.asarray(1.0)) and type(scope["w"]) is type(out["y"])
    np.testing.assert_allclose(np.asarray(out["y"]), np.maximum(x @ w, 0), rtol=1e-6)


IN_PLACE = program(
    data("%0", "x", "3"),
    '    (%1) = "pd_op.full" () {dtype:float32,op_role:0,place:Place(cpu),shape:[1],value:2} : () -> tensor<1xf32>',
    '    (%2) = "pd_op.scale_" (%0, %1) {bias:0,bias_after_scale:false,op_role:0} : '
    "(tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>",
    '    () = "builtin.shadow_output" (%0) {output_name:"x_after_scale"} : (tensor<3xf32>) -> ',
    '    (%3) = "pd_op.add_" (%2, %0) {op_role:0} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>',
    '    () = "builtin.shadow_output" (%0) {output_name:"x_after_add"} : (tensor<3xf32>) -> ',
    '    () = "builtin.shadow_output" (%2) {output_name:"scaled_after_add"} : (tensor<3xf32>) -> ',
    '    () = "builtin.shadow_output" (%3) {output_name:"sum"} : (tensor<3xf32>) -> ',
)


def test_in_place_op_updates_its_first_operand_for_later_readers():
    x = np.array([1, 2, 3], dtype=np.float32)
    out = Executor(IN_PLACE).run({"x": x})
    # scale_ rebinds %0 to 2x; add_(%2, %0) then adds 2x to itself, and %0, %2, %3 all alias.
    np.testing.assert_array_equal(out["x_after_scale"], 2 * x)
    np.testing.assert_array_equal(out["x_after_add"], 4 * x)
    np.testing.assert_array_equal(out["scaled_after_add"], 4 * x)
    np.testing.assert_array_equal(out["sum"], 4 * x)
    np.testing.assert_array_equal(x, [1, 2, 3])  # the caller's array is never written


SGD_WITH_GRADIENT_MERGE = parse_program(
    "{\n"
    "    ^kw:\n"
    "        %kwarg_w@GRAD@MERGE {persistable:true,place:Place(cpu)}\n"
    '    (%0) = "pd_op.data" () {dtype:float32,name:"lr",op_role:0,place:Place(undefined:0),shape:[],'
    "stop_gradient:[true]} : () -> tensor<f32>\n"
    '    (%1) = "builtin.parameter" () {op_role:0,parameter_name:"w"} : () -> tensor<3xf32>\n'
    + data("%2", "g", "3") + "\n"
    '    (%3) = "pd_op.add_" (%kwarg_w@GRAD@MERGE, %2) {grad_merge_add:true,op_role:1} : '
    "(tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
    '    (%4, %5) = "pd_op.sgd_" (%1, %0, %3, <<NULL VALUE>>) {multi_precision:false,op_role:2} : '
    "(tensor<3xf32>, tensor<f32>, tensor<3xf32>, <<NULL TYPE>>) -> tensor<3xf32>, <<NULL TYPE>>\n"
    '    () = "builtin.shadow_output" (%1) {output_name:"w_seen_after_sgd"} : (tensor<3xf32>) -> \n'
    "}\n"
)


def test_parameters_and_persistable_kwargs_live_in_the_scope():
    w = np.array([1, 1, 1], dtype=np.float32)
    g = np.array([1, 2, 4], dtype=np.float32)
    lr = np.asarray(0.5, dtype=np.float32)
    scope = {"w": w}
    executor = Executor(SGD_WITH_GRADIENT_MERGE)
    out = executor.run({"lr": lr, "g": g}, scope)
    # The merge buffer starts at zero (created in the scope), accumulates g, and sgd_ updates w.
    np.testing.assert_array_equal(scope["w@GRAD@MERGE"], g)
    np.testing.assert_array_equal(scope["w"], w - 0.5 * g)
    np.testing.assert_array_equal(out["w_seen_after_sgd"], w - 0.5 * g)
    executor.run({"lr": lr, "g": g}, scope)  # the buffer persists: now 2g, w -= 0.5 * 2g
    np.testing.assert_array_equal(scope["w@GRAD@MERGE"], 2 * g)
    np.testing.assert_array_equal(scope["w"], w - 0.5 * g - 0.5 * 2 * g)


def chain(length: int, reuse_input_at_end: bool = False):
    lines = [data("%0", "x", "4")]
    for i in range(length):
        lines.append(f'    (%{i + 1}) = "pd_op.relu" (%{i}) {{op_role:0}} : (tensor<4xf32>) -> tensor<4xf32>')
    last = length
    if reuse_input_at_end:
        lines.append(f'    (%{length + 1}) = "pd_op.add" (%{length}, %0) {{op_role:0}} : '
                     "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>")
        last = length + 1
    lines.append(f'    () = "builtin.shadow_output" (%{last}) {{output_name:"y"}} : (tensor<4xf32>) -> ')
    return program(*lines)


def test_values_are_freed_after_their_last_read():
    executor = Executor(chain(10))
    env = executor.environment()
    executor.run_ops(range(len(executor.ops)), env, feeds={"x": np.ones(4, np.float32)})
    assert env.peak_live_values == 2  # an op's input and its result; 11 without freeing
    assert env.freed == 11 and len(env) == 0
    executor = Executor(chain(10, reuse_input_at_end=True))
    env = executor.environment(measure_bytes=True)  # bytes are measured only when asked
    executor.run_ops(range(len(executor.ops)), env, feeds={"x": np.ones(4, np.float32)})
    assert env.peak_live_values == 3  # x stays live until the final add reads it
    assert env.peak_live_bytes == 3 * 16


UNKNOWN = program(
    data("%0", "x", "3"),
    '    (%1) = "pd_op.relu" (%0) {op_role:0} : (tensor<3xf32>) -> tensor<3xf32>',
    '    (%2) = "pd_op.frobnicate" (%1) {op_role:0} : (tensor<3xf32>) -> tensor<3xf32>',
    '    (%3) = "pd_op.frobnicate_more" (%2) {op_role:0} : (tensor<3xf32>) -> tensor<3xf32>',
)


def test_unknown_op_is_reported_with_its_line_before_running():
    with pytest.raises(UnsupportedOpError) as info:
        Executor(UNKNOWN, source="test.pir")
    error = info.value
    assert error.op.name == "pd_op.frobnicate"
    assert error.line == 4  # "{", data, relu, frobnicate
    assert print_program(UNKNOWN).split("\n")[error.line - 1].strip().startswith('(%2) = "pd_op.frobnicate"')
    text = str(error)
    assert "test.pir:4" in text and "pd_op.frobnicate, pd_op.frobnicate_more" in text
    assert ">     4 |" in text  # the printed program around the op, the op marked


def test_op_lines_follow_the_printer_with_header_and_kwargs():
    p = SGD_WITH_GRADIENT_MERGE
    p.process_groups[3] = (0, 1)
    try:
        lines = print_program(p).split("\n")
        for op, index in op_lines(p).items():
            assert f'"{op.name}"' in lines[index]
    finally:
        del p.process_groups[3]


def test_missing_data_or_parameter_raises_before_any_op_runs():
    scope = {"w": np.ones(3, np.float32)}
    executor = Executor(SGD_WITH_GRADIENT_MERGE)
    with pytest.raises(MissingInputError, match="no input fed for data 'g'"):
        executor.run({"lr": np.asarray(0.5, np.float32)}, scope)
    assert set(scope) == {"w"}  # nothing ran: no merge buffer was created, w untouched
    np.testing.assert_array_equal(scope["w"], 1)
    with pytest.raises(MissingInputError, match="parameter 'w' has no value"):
        executor.run({"lr": np.asarray(0.5, np.float32), "g": np.ones(3, np.float32)}, {})


def test_fed_array_of_the_wrong_shape_is_refused():
    with pytest.raises(MissingInputError, match=r"fed shape \[3, 2\], the program expects \[2, 3\]"):
        Executor(MLP).run({"x": np.zeros((3, 2), np.float32)}, {"w": np.zeros((3, 4), np.float32)})


def test_result_that_contradicts_its_type_names_the_op():
    wrong = program(
        data("%0", "x", "2,3"),
        '    (%1) = "builtin.parameter" () {op_role:0,parameter_name:"w"} : () -> tensor<3x5xf32>',
        '    (%2) = "pd_op.matmul" (%0, %1) {op_role:0,transpose_x:false,transpose_y:false} : '
        "(tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x4xf32>",
    )
    with pytest.raises(ExecutionError, match=r"pd_op.matmul result 0 has shape \[2, 5\], its type says \[2, 4\]") as info:
        Executor(wrong).run({"x": np.zeros((2, 3), np.float32)}, {"w": np.zeros((3, 5), np.float32)})
    assert info.value.line == 4


def test_reduce_type_is_phis_enum():
    # paddle/phi/common/reduce_type.h: kRedSum, kRedMax, kRedMin, kRedProd, kRedAvg.
    assert REDUCE_TYPES == {0: "sum", 1: "max", 2: "min", 3: "prod", 4: "avg"}


COLLECTIVES = program(
    data("%0", "x", "2"),
    '    (%1) = "pd_op.all_reduce" (%0) {op_role:0,reduce_type:1,ring_id:7} : (tensor<2xf32>) -> tensor<2xf32>',
    '    (%2) = "pd_op.all_gather" (%0) {nranks:2,op_role:0,ring_id:7} : (tensor<2xf32>) -> tensor<4xf32>',
    '    (%3) = "pd_op.all_reduce_" (%0) {op_role:0,reduce_type:4,ring_id:7} : (tensor<2xf32>) -> tensor<2xf32>',
    '    () = "builtin.shadow_output" (%1) {output_name:"max"} : (tensor<2xf32>) -> ',
    '    () = "builtin.shadow_output" (%2) {output_name:"gathered"} : (tensor<4xf32>) -> ',
    '    () = "builtin.shadow_output" (%0) {output_name:"x_after_avg"} : (tensor<2xf32>) -> ',
    header="process_group 7 : [1,0]\n",
)


def test_collectives_use_the_ring_group_in_its_order():
    inputs = [np.array([1, 5], np.float32), np.array([3, 2], np.float32)]

    def body(comm):
        return Executor(COLLECTIVES, rank=comm.rank, communicator=comm).run({"x": inputs[comm.rank]})

    results = run_ranks(2, body, timeout=10)
    for out in results:
        np.testing.assert_array_equal(out["max"], [3, 5])
        np.testing.assert_array_equal(out["gathered"], [3, 2, 1, 5])  # group [1,0]: rank 1 first
        np.testing.assert_array_equal(out["x_after_avg"], [2, 3.5])  # all_reduce_ is in place


SEND = program(
    data("%0", "x", "2"),
    '    () = "pd_op.send_v2" (%0) {op_role:0,peer:0,ring_id:9} : (tensor<2xf32>) -> ',
)
RECV = program(
    '    (%0) = "pd_op.recv_v2" () {dtype:float32,op_role:0,out_shape:[2],peer:1,ring_id:9} : () -> tensor<2xf32>',
    '    () = "builtin.shadow_output" (%0) {output_name:"got"} : (tensor<2xf32>) -> ',
)


def test_peer_is_the_rank_inside_the_group():
    # Ring 9 is [1, 0]: rank 0 sends to peer 0 = global rank 1, which receives from peer 1 = rank 0.
    groups = {9: (1, 0)}

    def body(comm):
        prog = SEND if comm.rank == 0 else RECV
        executor = Executor(prog, rank=comm.rank, communicator=comm, process_groups=groups)
        return executor.run({"x": np.array([7, 8], np.float32)})

    results = run_ranks(2, body, timeout=10)
    np.testing.assert_array_equal(results[1]["got"], [7, 8])


def test_collective_without_a_known_group_is_an_error():
    def body(comm):
        return Executor(SEND, rank=comm.rank, communicator=comm).run({"x": np.zeros(2, np.float32)})

    with pytest.raises(Exception, match="ring_id 9 has no known process group"):
        run_ranks(2, body, timeout=10)


def test_parameter_of_the_wrong_shape_names_the_parameter_op():
    with pytest.raises(ExecutionError, match=r"builtin.parameter result 0 has shape \[4, 3\], its type says \[3, 4\]"):
        Executor(MLP).run({"x": np.zeros((2, 3), np.float32)}, {"w": np.zeros((4, 3), np.float32)})


def test_non_persistable_kwarg_without_a_value_is_refused():
    p = parse_program(
        "{\n    ^kw:\n        %kwarg_var_8 {persistable:false,place:Place(cpu)}\n"
        '    (%0) = "pd_op.relu" (%kwarg_var_8) {op_role:0} : (tensor<2xf32>) -> tensor<2xf32>\n}\n')
    executor = Executor(p)
    with pytest.raises(MissingInputError, match="kwarg %kwarg_var_8 has no value"):
        executor.run({})
    # Once another job has written it into the micro-batch's local scope, it runs.
    stats = executor.run_ops([0], executor.environment(),
                             local_scope={"var_8": np.array([-1, 2], np.float32)})
    assert stats.ops_run == 1


def test_fed_array_of_the_wrong_dtype_is_refused():
    with pytest.raises(MissingInputError, match="fed dtype float64, the program expects float32"):
        Executor(MLP).run({"x": np.zeros((2, 3))}, {"w": np.zeros((3, 4), np.float32)})


def test_observer_sees_every_op_and_its_results_after_it_ran():
    # The hook SELFCHECK (issue 15) compares every op's results with a single-device run.
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    w = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    seen = []
    executor = Executor(MLP, observer=lambda op, results: seen.append((op, results)))
    out = executor.run({"x": x}, {"w": w})
    assert [op for op, _ in seen] == executor.ops
    assert all(isinstance(results, tuple) and len(results) == len(op.results)
               for op, results in seen)
    by_name = {op.name: results for op, results in seen}
    np.testing.assert_array_equal(by_name["builtin.parameter"][0], w)  # the array, not a cell
    np.testing.assert_array_equal(by_name["pd_op.matmul"][0], x @ w)
    np.testing.assert_array_equal(by_name["pd_op.relu"][0], out["y"])
    assert by_name["builtin.shadow_output"] == ()
    # run_ops takes one for a single call; without any, the planned loop runs (nothing seen)
    seen.clear()
    executor.observer = None
    executor.run({"x": x}, {"w": w})
    assert seen == []
    other = []
    env = executor.environment()
    executor.run_ops(range(len(executor.ops)), env, feeds={"x": x}, scope={"w": w},
                     observer=lambda op, results: other.append(op.name))
    assert other == [op.name for op in executor.ops]


def test_result_types_are_checked_against_the_namespace_when_planned():
    # NumPy has no bfloat16: the op is named when the executor is built, before any run.
    bf16 = program(
        data("%0", "x", "2"),
        '    (%1) = "pd_op.cast" (%0) {dtype:bfloat16,op_role:0} : (tensor<2xf32>) -> tensor<2xbf16>',
    )
    with pytest.raises(ExecutionError, match="dtype 'bfloat16' is not available") as info:
        Executor(bf16)
    assert info.value.line == 3


def test_an_environment_of_its_own_frees_like_a_shared_one():
    # run() frees by the plan's table; an environment several calls share counts reads. Both
    # drop the same values at the same ops.
    executor = Executor(chain(10, reuse_input_at_end=True))
    feeds = {"x": np.ones(4, np.float32)}
    everything = range(len(executor.ops))
    own = executor.environment(everything)
    executor.run_ops(everything, own, feeds=feeds)
    shared = executor.environment(everything)
    first, rest = list(everything)[:5], list(everything)[5:]
    executor.run_ops(first, shared, feeds=feeds)
    executor.run_ops(rest, shared, feeds=feeds)
    assert (own.peak_live_values, own.freed, len(own)) == (shared.peak_live_values,
                                                          shared.freed, len(shared)) == (3, 12, 0)


# -- what a kernel does wrong is named at its op, by the loop and by the unrolled steps alike --

BAD_KERNEL = program(
    data("%0", "x", "2"),
    '    (%1, %2) = "test.pair" (%0) {op_role:0} : (tensor<2xf32>) -> tensor<2xf32>, tensor<2xf32>',
    '    (%3) = "test.bad" (%1, %2) {op_role:0} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>',
    '    () = "builtin.shadow_output" (%3) {output_name:"y"} : (tensor<2xf32>) -> ',
)


@pytest.mark.parametrize("returns, message", [
    (lambda x, y: [x, y], r"test.bad produced 2 results, the op has 1"),
    (lambda x, y: (x + y,), r"test.bad produced tuple results, the op has 1"),
    (lambda x, y: ["not an array"], r"test.bad result 0 is a str, not an array"),
    (lambda x, y: [np.zeros(3, np.float32)], r"test.bad result 0 has shape \[3\], its type says \[2\]"),
    (lambda x, y: [x.astype(np.float64)], r"test.bad result 0 has dtype float64, its type says float32"),
    (lambda x, y: [x[5]], r"test.bad failed: IndexError: index 5 is out of bounds"),
])
def test_a_wrong_kernel_is_named_at_its_op(monkeypatch, returns, message):
    from rulepass.runtime.kernels import KERNELS

    monkeypatch.setitem(KERNELS, "test.pair", lambda xp, inputs, attrs: [inputs[0], -inputs[0]])
    monkeypatch.setitem(KERNELS, "test.bad", lambda xp, inputs, attrs: returns(*inputs))
    executor = Executor(BAD_KERNEL)
    feeds = {"x": np.ones(2, np.float32)}
    for _ in range(2):  # a first run, and one by unrolled steps where they come second
        with pytest.raises(ExecutionError, match=message) as info:
            executor.run(feeds)
        assert info.value.line == 4


def test_a_wrong_second_result_is_named_too(monkeypatch):
    from rulepass.runtime.kernels import KERNELS

    monkeypatch.setitem(KERNELS, "test.pair", lambda xp, inputs, attrs: [inputs[0], None])
    monkeypatch.setitem(KERNELS, "test.bad", lambda xp, inputs, attrs: [inputs[0]])
    executor = Executor(BAD_KERNEL)
    for _ in range(2):
        with pytest.raises(ExecutionError, match="test.pair result 1 is None but its type is"):
            executor.run({"x": np.ones(2, np.float32)})


def test_a_value_that_is_not_live_is_named_at_its_reader():
    # the ops after the first, in an environment of their own: %1 was never computed here
    executor = Executor(chain(3))
    later = tuple(range(2, len(executor.ops)))
    for _ in range(2):
        with pytest.raises(ExecutionError, match="reads a value that is not live") as info:
            executor.run_ops(later, executor.environment(later), feeds={"x": np.ones(4, np.float32)})
        assert info.value.line == 4


def test_unrolled_steps_give_the_loops_results_bit_for_bit():
    # the bench's transformer block: every result layout of the loop, parameters updated in place
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "executor.py"
    spec = importlib.util.spec_from_file_location("bench_executor", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_executor"] = bench  # its dataclasses look their module up
    try:
        spec.loader.exec_module(bench)
    finally:
        del sys.modules["bench_executor"]
    params, x, target = bench.initial_values(bench.QUICK)
    feeds = {"x": x, "target": target, "learning_rate_0": np.asarray(0.1, np.float32)}
    runs = {}
    for mode in (None, 0):
        executor = Executor(bench.build_program(bench.QUICK, fetch_grads=True))
        executor.unroll_after = mode
        scope = dict(params)
        outputs = [executor.run(feeds, scope) for _ in range(3)]
        stats = executor.run_ops(executor._every_op, executor.environment(), feeds=feeds,
                                 scope=scope)
        runs[mode] = (outputs, scope, (stats.peak_live_values, stats.freed))
    (loop_out, loop_scope, loop_stats), (unrolled_out, unrolled_scope, unrolled_stats) = \
        runs[None], runs[0]
    assert loop_stats == unrolled_stats
    for a, b in zip(loop_out, unrolled_out):
        assert a.keys() == b.keys()
        for name in a:
            np.testing.assert_array_equal(a[name], b[name])
    for name in loop_scope:
        np.testing.assert_array_equal(loop_scope[name], unrolled_scope[name])


def test_an_in_place_result_may_have_its_written_operands_type():
    # Paddle 3.3.1's gradient merge types the zeroing of a sharded grad with the global shape
    # while the cell it writes holds the local piece: the result is the operand's cell, updated.
    typed_global = program(
        data("%0", "x", "2"),
        '    (%1) = "pd_op.relu_" (%0) {op_role:0} : (tensor<2xf32>) -> tensor<4xf32>',
        '    () = "builtin.shadow_output" (%1) {output_name:"y"} : (tensor<4xf32>) -> ',
    )
    executor = Executor(typed_global)
    x = np.array([-1.0, 2.0], np.float32)
    for _ in range(3):  # the loop, then the unrolled steps (by default)
        np.testing.assert_array_equal(executor.run({"x": x})["y"], [0.0, 2.0])
