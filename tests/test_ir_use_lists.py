"""Use lists (`Value.uses`, a linked list threaded through the `Use`s, as MLIR's `OpOperand`s
are) against a model: random operand changes, erasures and inserted readers, some inside a
transaction that fails, keep every value's uses exact and in the order they were made, and
`verify` finds every use list sound; it finds a broken one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepass.engine.ir.builder import Builder, tensor
from rulepass.engine.ir.core import Operation
from rulepass.engine.pir.printer import print_program
from rulepass.engine.pir.verify import VerifyError, verify

T = tensor((4,))


def program_of(width: int):
    """`width` data ops, then `width` adds each reading two of them."""
    b = Builder()
    data = [b.op("pd_op.data", [], {"name": f"x{i}"}, [T]).result for i in range(width)]
    adds = [b.op("pd_op.add", [data[i], data[(i + 1) % width]], {}, [T]) for i in range(width)]
    return b.program, data, adds


def model_of(program) -> dict:
    """value -> [(op, operand index)] read from the ops, in program order (a multiset check)."""
    found: dict = {}
    for op in program.walk():
        for i, v in enumerate(op._operands):
            if v is not None:
                found.setdefault(v, []).append((op, i))
    return found


def key(use: tuple) -> tuple:
    """A sort key of an (op, operand index) pair."""
    return id(use[0]), use[1]


def uses_of(value) -> list:
    return [(u.op, u.index) for u in value.uses]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_use_lists_match_a_model_through_random_mutations(data):
    width = data.draw(st.integers(2, 5))
    program, values, adds = program_of(width)
    # the uses of each value in the order they were made, kept by hand
    model = {v: [(op, i) for op in adds for i, x in enumerate(op._operands) if x is v]
             for v in values}
    for _ in range(data.draw(st.integers(1, 25))):
        live = [op for op in program.walk() if op.name == "pd_op.add"]
        kind = data.draw(st.sampled_from(["set", "set", "insert", "erase", "rollback"]))
        if kind == "set" and live:
            op = data.draw(st.sampled_from(live))
            i = data.draw(st.integers(0, 1))
            new = data.draw(st.sampled_from(values + [None]))
            old = op._operands[i]
            op.set_operand(i, new)
            if old is not new:
                if old is not None:
                    model[old].remove((op, i))
                if new is not None:
                    model[new].append((op, i))
        elif kind == "insert":
            a, b = data.draw(st.sampled_from(values)), data.draw(st.sampled_from(values))
            op = Operation.create("pd_op.add", [a, b], [T])
            program.block.append(op)
            model[a].append((op, 0))
            model[b].append((op, 1))
        elif kind == "erase" and live:
            op = data.draw(st.sampled_from(live))
            if op.results[0].num_uses == 0:
                for i, v in enumerate(op._operands):
                    if v is not None:
                        model[v].remove((op, i))
                op.erase()
        elif kind == "rollback" and live:
            before = print_program(program)
            with pytest.raises(RuntimeError):
                with program.transaction():
                    for op in data.draw(st.lists(st.sampled_from(live), max_size=4)):
                        op.set_operand(0, data.draw(st.sampled_from(values)))
                    raise RuntimeError("undo")
            assert print_program(program) == before
            # undone changes read their old values again, through uses made anew (at the end
            # of the list): the same uses, in an order the model does not follow
            model = {v: uses_of(v) for v in values}
            for v in values:
                assert sorted(model[v], key=key) == sorted(model_of(program).get(v, []), key=key)
        for v in values:
            assert uses_of(v) == model[v]
            assert v.num_uses == len(model[v])
            users = list(dict.fromkeys(op for op, _ in model[v]))
            assert v.users() == sorted(users, key=Operation.position_key)
        assert sorted([u for v in values for u in model[v]], key=key) == \
            sorted([u for m in model_of(program).values() for u in m], key=key)
        verify(program)


def test_verify_finds_a_count_that_is_not_the_lists_length():
    program, values, adds = program_of(2)
    values[0]._num_uses += 1
    with pytest.raises(VerifyError, match="counts 3 uses, but its use list holds 2"):
        verify(program)


def test_verify_finds_an_operand_missing_from_its_values_use_list():
    program, values, adds = program_of(2)
    use = adds[1]._operand_uses[0]
    values[1]._remove_use(use)  # unlinked, while the operand still reads the value
    values[1]._num_uses += 1
    with pytest.raises(VerifyError, match="counts|missing from its value's use list"):
        verify(program)
    values[1]._num_uses -= 1
    with pytest.raises(VerifyError, match="operand 0 is missing from its value's use list"):
        verify(program)


def test_the_uses_of_a_value_read_twice_by_one_op_are_two():
    program, values, adds = program_of(2)
    adds[0].set_operand(1, values[0])
    assert [u.index for u in values[0].uses if u.op is adds[0]] == [0, 1]
    assert values[0].users() == [adds[0], adds[1]]
    adds[0].set_operand(0, None)
    assert uses_of(values[0]) == [(adds[1], 1), (adds[0], 1)]
