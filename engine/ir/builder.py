"""Write programs from Python.

Example — a dense ``x @ w`` followed by a relu::

    from rulepass.engine.ir.attributes import Symbol
    from rulepass.engine.ir.builder import Builder, tensor
    from rulepass.engine.pir.printer import print_program
    b = Builder()
    x = b.op("pd_op.data", [], {"name": "x", "shape": (4, 8), "dtype": Symbol("float32")},
             [tensor((4, 8))]).result
    w = b.op("builtin.parameter", [], {"parameter_name": "w"}, [tensor((8, 16))]).result
    y = b.op("pd_op.matmul", [x, w], {"transpose_x": False, "transpose_y": False},
             [tensor((4, 16))]).result
    b.op("pd_op.relu", [y], {}, [tensor((4, 16))])
    print(print_program(b.program))

A distributed type: ``dist_tensor((4, 16), mesh=ProcessMesh([2], [0, 1]),
placements=[Shard(0)])``.
"""

from __future__ import annotations

from rulepass.engine.ir.core import Block, Operation, Program, Value
from rulepass.engine.ir.types import (
    DenseTensorType,
    DistTensorType,
    OperationDistAttr,
    ProcessMesh,
    TensorDistAttr,
)


def tensor(shape, dtype: str = "float32") -> DenseTensorType:
    """``tensor<...>`` of ``shape`` (ints, -1 dynamic) and ``dtype`` (``"float32"``...)."""
    return DenseTensorType(tuple(shape), dtype)


def dist_tensor(shape, dtype: str = "float32", *, mesh: ProcessMesh, placements) -> DistTensorType:
    """``pd_dist.tensor<...>`` with one placement per mesh dimension (``Shard(d)``,
    ``Replicate()``, ``Partial()``)."""
    shape = tuple(shape)
    return DistTensorType(shape, dtype, TensorDistAttr.from_placements(mesh, len(shape),
                                                                       placements))


class Builder:
    """Appends ops to a block (the top block of ``program`` by default), or inserts them before
    ``before`` when given. ``op`` returns the created :class:`Operation`."""

    def __init__(self, program: Program | None = None, block: Block | None = None,
                 before: Operation | None = None):
        self.program = program if program is not None else Program()
        self.block = block if block is not None else (before.block if before is not None
                                                      else self.program.block)
        self.before = before

    def op(self, name: str, operands=(), attributes=None, result_types=(),
           dist_attr: OperationDistAttr | None = None) -> Operation:
        """Create op ``name`` reading ``operands`` (values or ``None``) with results of
        ``result_types`` and insert it. Raises ``TypeError`` for an operand that is not a value."""
        for i, v in enumerate(operands):
            if v is not None and not isinstance(v, Value):
                raise TypeError(f"{name}: operand {i} is {type(v).__name__}, not a Value "
                                "(use .result of the op that defines it)")
        op = Operation.create(name, list(operands), list(result_types), attributes, dist_attr)
        if self.before is not None:
            self.block.insert_before(self.before, op)
        else:
            self.block.append(op)
        return op
