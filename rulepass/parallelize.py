"""``rulepass parallelize``: a serial program and a plan give the forward dist program.

The steps (``docs/parallelize.md``): read and check the plan (``engine/paddle/plan.py``), resolve
it against the program (``engine/paddle/parallelize.py``: stages, meshes, placements), insert the
reshards of Paddle's ``dist.parallelize`` hooks (``engine/paddle/parallelize_hooks.py``), then run
the ``parallelize`` pass of ``rules/parallelize.rw``, which places every op. The result is what
Paddle 3.3.1 prints as ``00_forward_dist`` for the same model and config (conformance tests:
``tests/test_parallelize.py``).
"""

from __future__ import annotations

from rulepass.engine.ir.core import Program
from rulepass.engine.ir.types import DistTensorType
from rulepass.engine.paddle.parallelize import RESOLVED, resolve, resolve_constants
from rulepass.engine.paddle.parallelize_hooks import insert_hook_reshards
from rulepass.engine.paddle.plan import Plan, PlanError, load_plan
from rulepass.engine.pir.verify import broadcast_problem


def check_serial(program: Program, file: str = "serial.pir") -> None:
    """A serial program has no dist type yet, and its elementwise ops' operands broadcast (a
    fault of the program, not of a plan); raises PlanError naming the file otherwise."""
    for op in program.walk():
        if op.dist_attr is not None or any(isinstance(r.type, DistTensorType)
                                           for r in op.results):
            raise PlanError(f"{op.name} is already placed (op_dist_attr or a dist type): "
                            "parallelize takes a serial program", file)
        problem = broadcast_problem(op)
        if problem:
            layer = op.attributes.get("struct_name", "")
            raise PlanError(f"{problem}{f' in {layer}' if layer else ''}: the serial program "
                            "itself is wrong, before any plan", file)


def check_placed(program: Program, file: str = "plan.toml") -> None:
    """The operands of every elementwise binary op broadcast (``verify.broadcast_problem``: a
    sequence-parallel hook on a layer whose tensors were never swapped; Paddle refuses the op
    as it builds it), and every op reads values whose ranks belong to its mesh: a value made on
    another stage and read without a reshard (a layer every stage reads, left out of
    ``global_spec``) raises PlanError naming the op, its layer and both meshes. Paddle 3.3.1
    refuses the same program as it builds it (``PreconditionNotMet: operand_dist_attrs element's
    mesh ... not belong to input mesh``); left alone it failed later, in the chain. An op on the
    global mesh may read a stage's value (its ranks are the global mesh's)."""
    for op in program.walk():
        problem = broadcast_problem(op)
        if problem:
            layer = op.attributes.get("struct_name", "")
            raise PlanError(f"{problem}{f' in {layer}' if layer else ''}: the plan changes a "
                            "shape this op reads (a SequenceParallelBegin/End hook swaps the "
                            "first two dimensions of its layer's input or output)", file)
        dist = op.dist_attr
        if dist is None:
            continue
        for value, entry in zip(op.operands, dist.operands):
            if value is None or not isinstance(value.type, DistTensorType):
                continue
            wanted = getattr(entry, "mesh", None)
            have = value.type.dist.mesh
            # Paddle's condition: the value's ranks all belong to the op's mesh (a global-mesh op
            # may read a stage's value; dist_attribute.cc "not belong to input mesh")
            if (wanted is not None and have is not None and have != wanted
                    and not set(have.process_ids) <= set(dist.mesh.process_ids)):
                layer = op.attributes.get("struct_name", "")
                maker = value.owner.attributes.get("struct_name", "") if value.owner else ""
                raise PlanError(
                    f"{op.name}{f' of {layer}' if layer else ''} runs on process mesh "
                    f"{list(wanted.process_ids)} but reads a value made on "
                    f"{list(have.process_ids)}{f' by {maker}' if maker else ''} with no "
                    "reshard: a layer whose output other stages read must be in global_spec "
                    "(Paddle 3.3.1 refuses this program: operand mesh not in the op's mesh)",
                    file)


def parallelize(program: Program, plan: Plan | str, rules=None, file: str = "plan.toml"):
    """Make ``program`` (a serial program, changed in place) the forward dist program of
    ``plan`` (a :class:`Plan` or its TOML text); ``rules`` is a loaded rule set holding
    ``rules/parallelize.rw`` (default: the installed rules). Raises PlanError for a plan that
    does not fit the program (one that leaves an op reading another stage's value without a
    reshard: :func:`check_placed`), RewriteError when a pass fails; on error the program is as
    it was.
    Returns the program."""
    from rulepass.engine.api import load_rules

    if isinstance(plan, str):
        plan = load_plan(plan, file)
    check_serial(program)
    rules = rules if rules is not None else load_rules([], installed=True)
    with program.transaction():
        try:
            resolve(program, plan)
            insert_hook_reshards(program, RESOLVED[program])
            resolve_constants(program, RESOLVED[program])
            rules.run_pass(program, "parallelize")
            check_placed(program, file)
        finally:
            RESOLVED.pop(program, None)
    return program
