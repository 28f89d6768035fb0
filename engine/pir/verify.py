"""The program verifier: the global invariants that parsing and printing do not check.

Checks (``verify(program)``):

- every operand is defined before use, in the same block or an enclosing one, and is not an erased
  op's result; one definition per value;
- use lists are exact (each value's uses are exactly the operand slots reading it);
- the op dist attribute has one entry per operand and result (Paddle's gradient-merge
  ``pd_op.add_`` carries more entries than operands: a *warning*, since Paddle itself runs it);
- each operand/result dist attribute's dims_mapping has the rank of its value's type and its mesh
  ids are distinct (meshes validate their ids at construction);
- trailing operands that stand for attributes (made by ``full_int_array``/``full``) may lack
  entries, as Paddle writes them for ``slice``;
- placements printed beyond the mesh's dimensions (Paddle's ``[Replicate(), Replicate()]`` on a
  1-D stage mesh): a *warning*, once per op;
- the two operands of an elementwise binary op (``pd_op.add``, ``subtract``, ``multiply``,
  ``divide``, ``maximum``, ``minimum``, ...) broadcast as Paddle broadcasts them (NumPy's rule:
  trailing dimensions equal, or one of them 1; ``-1`` matches any); Paddle refuses the others as
  it builds the op (``Broadcast dimension mismatch``, ``ElementwiseInferMeta``);
- ``dense=True`` adds the check Paddle makes after dist→dense (``VerifyDenseBlock`` in
  ``paddle/fluid/pir/dialect/distributed/transforms/dist_to_dense_pass.cc``), with its wording:
  ``Block op [NAME] still contain dist type.`` and ``The op [NAME] still has op_dist_attr.``

Errors are :class:`~rulepass.engine.errors.VerifyError` naming the op and showing the printed
program around it; warnings are returned as strings.
"""

from __future__ import annotations

from rulepass.engine.errors import VerifyError, program_context
from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import TensorDistAttr, VectorType, is_dist

#: Ops for which Paddle itself prints more dist-attr operand entries than operands.
_EXTRA_DIST_ENTRIES_OK = {"pd_op.add_", "pd_op.add_n_"}
#: Producers of operands that stand for attributes (shapes, axes): Paddle may omit their entries.
_ATTRIBUTE_LIKE_PRODUCERS = {"pd_op.full_int_array", "pd_op.full"}


def _op_line_index(program: Program, target: Operation) -> int:
    """0-based index of ``target``'s line in the printed program."""
    lines = 1 + len(program.process_groups)
    if program.kwargs:
        lines += 1 + len(program.kwargs)
    for op in program.walk():
        if op is target:
            return lines
        lines += 1
        # closing lines of regions are not counted exactly; ops with regions are rare
    return lines


def op_context(program: Program, op: Operation, radius: int = 2) -> str:
    """The printed program lines around ``op``, its own line marked."""
    # Paddle's lines run to thousands of characters; cut them so the context stays readable.
    lines = [ln if len(ln) <= 200 else ln[:197] + "..." for ln in print_program(program).split("\n")]
    return program_context(lines, _op_line_index(program, op), radius)


def _fail(program: Program, op: Operation, message: str) -> VerifyError:
    return VerifyError(message, context=op_context(program, op))


def _rank_problem(op, what: str, attr, value_type) -> str | None:
    if not isinstance(attr, TensorDistAttr) or attr.is_null or isinstance(value_type, VectorType):
        return None
    shape = getattr(value_type, "shape", None)
    if shape is not None and len(attr.dims_mapping) != len(shape):
        return (f"{op.name}: {what} has dims_mapping {list(attr.dims_mapping)} of rank "
                f"{len(attr.dims_mapping)} for a value of rank {len(shape)}")
    return None


def _odd_entry(attr) -> TensorDistAttr | None:
    """``attr`` (or the first item of a vector entry) when it prints extra placements."""
    for a in (attr if isinstance(attr, tuple) else (attr,)):
        if isinstance(a, TensorDistAttr) and a.extra_replicates:
            return a
    return None


def _extra_placements(op: Operation) -> str | None:
    """What is odd about a result type or dist attribute entry of ``op`` that lists more
    placements than its mesh has dimensions (Paddle's ``[Replicate(), Replicate()]`` on a 1-D stage
    mesh, PR #69628), or None."""
    where = None
    for r in op.results:
        items = r.type.items if isinstance(r.type, VectorType) else (r.type,)
        for t in items:
            if is_dist(t) and t.dist.extra_replicates:
                where, attr = f"result {r.index}'s type", t.dist
                break
        if where:
            break
    d = op.dist_attr
    if where is None and d is not None:
        for kind, entries in (("operand", d.operands), ("result", d.results)):
            for i, entry in enumerate(entries):
                attr = _odd_entry(entry)
                if attr is not None:
                    where = f"op_dist_attr {kind}({i})"
                    break
            if where:
                break
    if where is None:
        return None
    n, ndim = len(attr.printed_placements), attr.mesh.ndim
    return (f"{op.name}: {where} lists {n} placements for a {ndim}-D process mesh "
            f"(dims_mappings has {len(attr.dims_mapping)} entr{'y' if len(attr.dims_mapping) == 1 else 'ies'}); "
            f"the extra Replicate() mean nothing, as Paddle's dist.parallelize prints them for a "
            f"1-D stage mesh")


#: Elementwise binary ops whose two operands broadcast (Paddle 3.3.1
#: ``paddle/phi/infermeta/binary.cc`` ``ElementwiseInferMeta`` with ``axis = -1``, as PIR builds
#: them). In-place forms are left out: gradient merge's ``add_`` reads a buffer typed once.
BROADCAST_OPS = frozenset({
    "pd_op.add", "pd_op.subtract", "pd_op.multiply", "pd_op.divide", "pd_op.maximum",
    "pd_op.minimum", "pd_op.elementwise_pow", "pd_op.remainder", "pd_op.floor_divide",
    "pd_op.fmax", "pd_op.fmin", "pd_op.equal", "pd_op.not_equal", "pd_op.less_than",
    "pd_op.less_equal", "pd_op.greater_than", "pd_op.greater_equal", "pd_op.logical_and",
    "pd_op.logical_or", "pd_op.logical_xor", "pd_op.bitwise_and", "pd_op.bitwise_or",
    "pd_op.bitwise_xor",
})


def broadcast_problem(op: Operation) -> str | None:
    """Why the two operands of an elementwise binary op (:data:`BROADCAST_OPS`) do not
    broadcast, or its result is not their broadcast shape, or None: the shapes aligned at the
    end, each pair of dimensions equal, or one of them 1 or dynamic (``-1``, which matches any
    size). Vector, null and unshaped values are not checked."""
    if op.name not in BROADCAST_OPS or op.num_operands != 2:
        return None
    x, y = op.operand(0), op.operand(1)
    xs, ys = _shape_of(x), _shape_of(y)
    if xs is None or ys is None:
        return None
    out = []
    for i in range(1, max(len(xs), len(ys)) + 1):
        a = xs[-i] if i <= len(xs) else 1
        b = ys[-i] if i <= len(ys) else 1
        if a != b and a != 1 and b != 1 and a != -1 and b != -1:
            return (f"{op.name}: operand shapes {list(xs)} and {list(ys)} do not broadcast "
                    f"(dimension {len(xs) - i} of the first is {a}, dimension {len(ys) - i} of "
                    f"the second is {b}; Paddle: Broadcast dimension mismatch)")
        out.append(-1 if -1 in (a, b) and 1 in (a, b) else a if b == 1 else b)
    out.reverse()
    rs = _shape_of(op.results[0]) if len(op.results) == 1 else None
    if rs is not None and (len(rs) != len(out) or any(
            r != o and r != -1 and o != -1 for r, o in zip(rs, out))):
        return (f"{op.name}: the result is typed {list(rs)}, but operands of shapes {list(xs)} "
                f"and {list(ys)} broadcast to {out}")
    return None


def _shape_of(value) -> tuple | None:
    shape = getattr(getattr(value, "type", None), "shape", None)
    return shape if isinstance(shape, tuple) else None


def _dist_attr_problems(op: Operation) -> list[str]:
    """What is wrong with ``op``'s dist attribute: entry counts, dims_mapping ranks."""
    d = op.dist_attr
    out = []
    if len(d.operands) < op.num_operands and all(
        v is None or (v.owner is not None and v.owner.name in _ATTRIBUTE_LIKE_PRODUCERS)
        for v in op._operands[len(d.operands):]
    ):
        pass  # Paddle's SPMD rules give no entry to trailing shape-like operands (slice's starts)
    elif len(d.operands) != op.num_operands:
        out.append(f"{op.name}: op_dist_attr has {len(d.operands)} operand entries for "
                   f"{op.num_operands} operands")
    if len(d.results) != len(op.results):
        out.append(f"{op.name}: op_dist_attr has {len(d.results)} result entries for "
                   f"{len(op.results)} results")
    for i, (a, v) in enumerate(zip(d.operands, op._operands)):
        if v is not None:
            p = _rank_problem(op, f"operand({i})", a, v.type)
            if p:
                out.append(p)
    for i, (a, r) in enumerate(zip(d.results, op.results)):
        p = _rank_problem(op, f"result({i})", a, r.type)
        if p:
            out.append(p)
    return out


def _use_list_problem(value, listed: set) -> str | None:
    """What is wrong with ``value``'s use list (a use of another value, a count that is not
    its length), adding its uses to ``listed``; None when nothing is."""
    count = 0
    use = value._first_use
    while use is not None:
        if use.op._operands[use.index] is not value:
            return f"lists a stale use by {use.op.name}"
        listed.add(use)
        count += 1
        use = use._next
    if count != value._num_uses:
        return f"counts {value._num_uses} uses, but its use list holds {count}"
    return None


def verify(program: Program, dense: bool = False) -> list[str]:
    """Check the invariants above; return warnings. Raises :class:`VerifyError` on the first
    violation, naming the op and showing where it is."""
    warnings: list[str] = []
    defined: set = set(program.kwargs)
    listed: set = set()  # the uses in the use lists of the values defined so far
    for kw in program.kwargs:
        problem = _use_list_problem(kw, listed)
        if problem:
            raise VerifyError(f"kwarg {kw.kwarg_name}: {problem}")
    # Iterative walk keeping scopes: each entry is (iterator, values defined in this block).
    stack = [(iter(program.block), [])]
    while stack:
        it, local = stack[-1]
        op = next(it, None)
        if op is None:
            stack.pop()
            for v in local:
                defined.discard(v)
            continue
        for i, v in enumerate(op._operands):
            if v is None:
                continue
            if v not in defined:
                where = "not defined before this use" if (v.owner is None or v.owner.block
                                                            is not None) else "erased"
                raise _fail(program, op, f"{op.name}: operand {i} is {where} "
                            "(a value must be defined before it is used, in this block or an "
                            "enclosing one)")
            use = op._operand_uses[i]
            if use is None or use not in listed:
                raise _fail(program, op, f"{op.name}: operand {i} is missing from its value's "
                            "use list")
        for r in op.results:
            if r in defined:
                raise _fail(program, op, f"{op.name}: result {r.index} is defined twice")
            if r.owner is not op:
                raise _fail(program, op, f"{op.name}: result {r.index} names another op as "
                            "its owner")
            problem = _use_list_problem(r, listed)
            if problem:
                raise _fail(program, op, f"{op.name}: result {r.index} {problem}")
            defined.add(r)
            local.append(r)
        if op.name in BROADCAST_OPS:
            problem = broadcast_problem(op)
            if problem:
                raise _fail(program, op, problem)
        odd = _extra_placements(op)
        if odd:
            warnings.append("warning: " + odd)
        d = op.dist_attr
        if d is not None:
            problems = _dist_attr_problems(op)
            if problems:
                if op.name in _EXTRA_DIST_ENTRIES_OK:
                    # Paddle's gradient merge copies the producing grad op's dist attribute.
                    warnings.append("warning: " + problems[0] + " (Paddle's gradient merge "
                                    "writes this; harmless)")
                else:
                    raise _fail(program, op, problems[0])
        if dense:
            for r in op.results:
                if is_dist(r.type):
                    raise _fail(program, op, f"Block op [{op.name}] still contain dist type.")
            if d is not None:
                raise _fail(program, op, f"The op [{op.name}] still has op_dist_attr.")
        if op.regions:
            # Visit regions in order; each region is its own scope.
            for region in reversed(op.regions):
                stack.append((iter(region), []))
    if dense:
        for kw in program.kwargs:
            if is_dist(kw.type):
                raise VerifyError(f"Block still contain keyword argument [{kw.kwarg_name}]  "
                                  "dist type.")
    return warnings
