"""The IR: types, meshes, mutation API, use lists, order keys, transactions, builder."""

import pytest

from rulepass.engine.ir.attributes import Symbol, format_float
from rulepass.engine.ir.builder import Builder, dist_tensor, tensor
from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import (
    DistTensorType,
    Partial,
    ProcessMesh,
    Replicate,
    Shard,
    TensorDistAttr,
    shard_size,
)


def small_program():
    b = Builder()
    x = b.op("pd_op.data", [], {"name": "x", "dtype": Symbol("float32")}, [tensor((4, 8))]).result
    w = b.op("builtin.parameter", [], {"parameter_name": "w"}, [tensor((8, 16))]).result
    y = b.op("pd_op.matmul", [x, w], {"transpose_x": False, "transpose_y": False},
             [tensor((4, 16))]).result
    r = b.op("pd_op.relu", [y], {}, [tensor((4, 16))])
    return b.program, x, w, y, r


def test_uneven_shard_rule_leading_ranks_get_ceiling():
    assert [shard_size(10, 4, i) for i in range(4)] == [3, 3, 3, 1]
    assert [shard_size(7, 2, i) for i in range(2)] == [4, 3]
    assert shard_size(-1, 2, 0) == -1


def test_dist_tensor_local_shape_per_rank_on_2d_mesh():
    mesh = ProcessMesh([2, 2], [0, 1, 2, 3])
    t = dist_tensor((5, 6), mesh=mesh, placements=[Shard(0), Shard(1)])
    assert t.dims_mapping == (0, 1)
    assert t.local_shape(0) == (3, 3)
    assert t.local_shape(3) == (2, 3)
    assert t.local_shape(7) == (5, 6)  # not in the mesh: global shape


def test_placements_follow_dims_mapping_and_partial():
    mesh = ProcessMesh([2, 2], [0, 1, 2, 3])
    d = TensorDistAttr(mesh, (-1, 0), ((1, "SUM"),))
    assert d.placements == (Shard(1), Partial("SUM"))
    assert TensorDistAttr.from_placements(mesh, 2, [Replicate(), Shard(0)]).dims_mapping == (1, -1)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: ProcessMesh([2], [0, 0]), "not distinct"),
        (lambda: ProcessMesh([2, 2], [0, 1, 2]), "holds 4 ranks"),
        (lambda: TensorDistAttr(ProcessMesh([2], [0, 1]), (1,)), "names mesh dimension 1"),
        (lambda: TensorDistAttr(ProcessMesh([2], [0, 1]), (0, 0)), "two tensor dimensions"),
        (lambda: DistTensorType((4,), "float32", TensorDistAttr(ProcessMesh([2], [0, 1]), (0, -1))),
         "rank 1"),
        (lambda: Partial("MEAN"), "unknown reduce type"),
    ],
)
def test_invalid_dist_values_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_mesh_group_along_dimension():
    mesh = ProcessMesh([2, 2], [0, 1, 2, 3])
    assert mesh.group_along(3, 0) == (1, 3)
    assert mesh.group_along(3, 1) == (2, 3)


def test_use_lists_are_exact_through_mutations():
    program, x, w, y, r = small_program()
    assert [u.op.name for u in x.uses] == ["pd_op.matmul"]
    matmul = y.owner
    matmul.set_operand(1, x)
    assert w.num_uses == 0 and x.num_uses == 2
    y.replace_all_uses_with(x)
    assert y.num_uses == 0 and r.operand(0) is x
    matmul.erase()
    assert x.num_uses == 1  # only relu now
    assert [op.name for op in program.ops] == ["pd_op.data", "builtin.parameter", "pd_op.relu"]


def test_erase_refuses_a_used_op():
    program, x, w, y, r = small_program()
    with pytest.raises(ValueError, match="still used by pd_op.relu"):
        y.owner.erase()


def test_order_keys_survive_many_inserts_at_one_place():
    program, x, w, y, r = small_program()
    matmul = y.owner
    inserted = []
    for i in range(100):  # forces renumbering: the gap between two keys closes
        op = Operation.create("pd_op.assign", [x], [tensor((4, 8))])
        program.block.insert_before(matmul, op)
        inserted.append(op)
    ops = program.ops
    assert ops.index(matmul) == 102
    assert all(a.is_before(b) for a, b in zip(ops, ops[1:]))


def test_transaction_undoes_everything_on_failure():
    program, x, w, y, r = small_program()
    before = print_program(program)
    with pytest.raises(RuntimeError):
        with program.transaction():
            new = Operation.create("pd_op.scale", [y], [tensor((4, 16))], {"scale": 2.0})
            program.block.insert_before(r, new)
            y.replace_all_uses_with(new.result)
            new.set_operand(0, y)
            r.set_attr("flag", True)
            r.result.set_type(tensor((4, 16), "float64"))
            program.ops[0].unset_attr("name")
            raise RuntimeError("injected")
    assert print_program(program) == before
    assert [u.op.name for u in y.uses] == ["pd_op.relu"]


def test_nested_transaction_failure_keeps_outer_changes():
    program, x, w, y, r = small_program()
    with program.transaction():
        r.set_attr("a", 1)
        with pytest.raises(KeyError):
            with program.transaction():
                r.set_attr("b", 2)
                raise KeyError("inner")
    assert r.attributes == {"a": 1}


def test_clone_is_deep_and_prints_the_same():
    program, x, w, y, r = small_program()
    copy = program.clone()
    assert print_program(copy) == print_program(program)
    copy.ops[-1].set_attr("changed", True)
    assert "changed" not in print_program(program)


def test_builder_refuses_non_values():
    b = Builder()
    with pytest.raises(TypeError, match="not a Value"):
        b.op("pd_op.relu", [b.op("pd_op.data", [], {}, [tensor((2,))])], {}, [tensor((2,))])


def test_float_attributes_print_as_paddle_and_round_trip():
    assert format_float(1e-05) == "1e-05"
    assert format_float(0.5) == "0.5"
    assert format_float(1.0) == "1"
    assert float(format_float(0.1234567891)) == 0.1234567891


def test_regions_print_and_parse_back():
    text = (
        "{\n"
        '    (%0) = "pd_op.data" () {name:"c"} : () -> tensor<b>\n'
        '    (%1) = "pd_op.if" (%0) {stop_gradient:[true]} -> tensor<4xf32> {\n'
        '        (%2) = "pd_op.full" () {value:1} : () -> tensor<4xf32>\n'
        '        () = "cf.yield" (%2) {} : (tensor<4xf32>) -> \n'
        "    } else {\n"
        '        (%3) = "pd_op.full" () {value:0} : () -> tensor<4xf32>\n'
        '        () = "cf.yield" (%3) {} : (tensor<4xf32>) -> \n'
        "    }\n"
        "}\n"
    )
    program = parse_program(text)
    assert print_program(program) == text
    if_op = program.ops[1]
    assert len(if_op.regions) == 2
    assert [op.name for op in program.walk()] == [
        "pd_op.data", "pd_op.if", "pd_op.full", "cf.yield", "pd_op.full", "cf.yield"]


def test_process_group_header_round_trips():
    text = ("process_group 12 : [0,1]\n{\n"
            '    (%0) = "pd_op.data" () {name:"x"} : () -> tensor<4xf32>\n}\n')
    program = parse_program(text)
    assert program.process_groups == {12: (0, 1)}
    assert print_program(program) == text


def test_deep_nesting_prints_without_recursion():
    program = Program()
    block = program.block
    for _ in range(3000):
        op = Operation.create("pd_op.if", [], [])
        block.append(op)
        from rulepass.engine.ir.core import Block
        inner = Block()
        op.add_region(inner)
        block = inner
    text = print_program(program)
    assert text.count("pd_op.if") == 3000
    assert sum(1 for _ in program.walk()) == 3000


def test_add_process_group_reuses_and_journals():
    program = parse_program("process_group 0 : [0,1]\n{\n}\n")
    assert program.add_process_group([0, 1]) == 0
    with pytest.raises(RuntimeError):
        with program.transaction():
            assert program.add_process_group([1, 0]) == 1
            raise RuntimeError("undo")
    assert program.process_groups == {0: (0, 1)}


def test_a_mesh_dim_cannot_be_both_sharded_and_partial():
    with pytest.raises(ValueError, match="both sharded"):
        TensorDistAttr(ProcessMesh([2], [0, 1]), (0,), ((0, "SUM"),))
