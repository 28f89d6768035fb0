"""Lowering same-mesh reshards (rules/reshard.rw, pass `lower_reshard`), checked by running them.

A tiny dist program — `pd_op.data` of the source type, a `dist_op.reshard` to the target type,
a `builtin.shadow_output` of the result — is lowered for each rank, made dense
(`prune_other_ranks`, `dist_to_dense`, `drop_trivial_comm`, and `sp_fusion` when asked), and all
ranks run together on threads. Each rank is fed its piece of a random global tensor (for a Partial
source, random addends that sum to it); each must end with the piece its target placement names
(for a Partial target: the pieces of the ranks that differ only on the partial mesh dimensions sum
to it).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepass.engine.api import load_rules
from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.errors import RulepassError
from rulepass.engine.paddle.functions_reshard import gathered, mesh_group, shard_sizes, slice_groups
from rulepass.engine.ir.core import Operation, Program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import (
    DistTensorType,
    OperationDistAttr,
    Partial,
    ProcessMesh,
    Replicate,
    Shard,
    TensorDistAttr,
    shard_bounds,
)
from rulepass.engine.pir.verify import verify
from rulepass.runtime.comm.local import run_ranks
from rulepass.runtime.executor import Executor

RULES = load_rules([], installed=True)
DENSE_PASSES = ("prune_other_ranks", "dist_to_dense", "drop_trivial_comm")


# ---- building and running ---------------------------------------------------------------------

def dist_type(shape, mesh: ProcessMesh, placements) -> DistTensorType:
    """`pd_dist.tensor<shape x f32>` placed on `mesh`."""
    return DistTensorType(tuple(shape), "float32",
                          TensorDistAttr.from_placements(mesh, len(shape), placements))


def reshard_program(shape, mesh, source, target, op_role: int = 0, chunk_id: int = -1,
                    then=()) -> Program:
    """data(x: source) -> dist_op.reshard to target (then to each of `then`, a chain) ->
    shadow_output "y", as the partition step leaves it."""
    src = dist_type(shape, mesh, source)
    program = Program()
    data = Operation.create(
        "pd_op.data", [], [src],
        {"dtype": Symbol("float32"), "name": "x", "op_role": 0, "place": Place("undefined:0"),
         "shape": tuple(shape), "stop_gradient": (True,)},
        OperationDistAttr(mesh, [], [src.dist], chunk_id))
    program.block.append(data)
    value = data.results[0]
    for placements in [target, *then]:
        dst = dist_type(shape, mesh, placements)
        reshard = Operation.create(
            "dist_op.reshard", [value], [dst], {"op_role": op_role, "stop_gradient": (True,)},
            OperationDistAttr(mesh, [value.type.dist], [dst.dist], chunk_id))
        program.block.append(reshard)
        value = reshard.results[0]
    program.block.append(Operation.create(
        "builtin.shadow_output", [value], [], {"output_name": "y", "op_role": op_role},
        OperationDistAttr(mesh, [value.type.dist], [], chunk_id)))
    return program


def rank_program(program: Program, rank: int, fuse: bool = False) -> Program:
    """`program` lowered and made dense for `rank` (a copy); the verifier checks both."""
    program = program.clone()
    RULES.run_pass(program, "lower_reshard", rank=rank)
    verify(program)
    for name in DENSE_PASSES + (("sp_fusion",) if fuse else ()):
        params = {} if name == "drop_trivial_comm" else {"rank": rank}
        RULES.run_pass(program, name, **params)
    verify(program, dense=True)
    return program


def piece(array: np.ndarray, mesh: ProcessMesh, placements, rank: int) -> np.ndarray:
    """`rank`'s piece of the global `array` under `placements` (Partial dims ignored)."""
    coord = mesh.coordinate(rank)
    index = [slice(None)] * array.ndim
    for mesh_dim, p in enumerate(placements):
        if isinstance(p, Shard):
            start, stop = shard_bounds(array.shape[p.dim], mesh.shape[mesh_dim], coord[mesh_dim])
            index[p.dim] = slice(start, stop)
    return array[tuple(index)]


def source_feeds(array, mesh, placements, rng) -> dict[int, np.ndarray]:
    """Each rank's input: its piece, split into random addends over the Partial mesh dims (for
    each Partial dim, noise that sums to zero over the ranks differing only there)."""
    partial_dims = [m for m, p in enumerate(placements) if isinstance(p, Partial)]
    count = int(np.prod([mesh.shape[m] for m in partial_dims])) if partial_dims else 1
    feeds = {r: piece(array, mesh, placements, r) / np.float32(count) for r in mesh.process_ids}
    for m in partial_dims:
        for group in slice_groups(mesh, m):
            noise = [rng.standard_normal(feeds[r].shape).astype(np.float32) for r in group]
            mean = sum(noise) / np.float32(len(group))
            for r, e in zip(group, noise):
                feeds[r] = feeds[r] + (e - mean)
    return {r: np.ascontiguousarray(v, dtype=np.float32) for r, v in feeds.items()}


def run_lowered(shape, mesh, source, target, seed: int = 0, fuse: bool = False, then=()):
    """Lower, run on threads; returns (global array, {rank: output}, {rank: dense program},
    {rank: the communicator's per-kind calls and ring bytes})."""
    rng = np.random.default_rng(seed)
    array = rng.standard_normal(shape).astype(np.float32)
    feeds = source_feeds(array, mesh, source, rng)
    program = reshard_program(shape, mesh, source, target, then=then)
    programs = {r: rank_program(program, r, fuse) for r in mesh.process_ids}
    world = max(mesh.process_ids) + 1

    def body(comm):
        if comm.rank not in programs:
            return None
        executor = Executor(programs[comm.rank], rank=comm.rank, communicator=comm)
        return executor.run({"x": feeds[comm.rank]})["y"], comm.stats

    results = run_ranks(world, body, timeout=30)
    outputs = {r: np.asarray(results[r][0]) for r in mesh.process_ids}
    return array, outputs, programs, {r: results[r][1] for r in mesh.process_ids}


def check_target(array, outputs, mesh, target) -> None:
    """Every rank holds its target piece; Partial target dims: the pieces sum to it."""
    partial_dims = [m for m, p in enumerate(target) if isinstance(p, Partial)]
    sums: dict[tuple, np.ndarray] = {}
    for rank, out in outputs.items():
        expected = piece(array, mesh, target, rank)
        assert out.shape == expected.shape, (rank, out.shape, expected.shape)
        coord = mesh.coordinate(rank)
        key = tuple(c for m, c in enumerate(coord) if m not in partial_dims)
        sums[key] = sums.get(key, 0) + out.astype(np.float64)
        if not partial_dims:
            np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5, err_msg=f"rank {rank}")
    for rank in outputs:
        coord = mesh.coordinate(rank)
        key = tuple(c for m, c in enumerate(coord) if m not in partial_dims)
        np.testing.assert_allclose(sums[key], piece(array, mesh, target, rank), rtol=1e-5,
                                   atol=1e-5, err_msg=f"sum for rank {rank}")


def ops_of(program: Program) -> list[str]:
    """Op names of a program, in order."""
    return [op.name for op in program.walk()]


# ---- the property -----------------------------------------------------------------------------

MESHES = [
    ProcessMesh((1,), (0,)), ProcessMesh((2,), (0, 1)), ProcessMesh((2,), (1, 0)),
    ProcessMesh((3,), (0, 1, 2)), ProcessMesh((4,), (0, 1, 2, 3)), ProcessMesh((4,), (2, 0, 3, 1)),
    ProcessMesh((2, 2), (0, 1, 2, 3)), ProcessMesh((2, 2), (3, 1, 2, 0)),
    ProcessMesh((1, 2), (0, 1)), ProcessMesh((2, 1), (0, 1)),
]


@st.composite
def placements_for(draw, mesh: ProcessMesh, ndim: int):
    """One placement per mesh dim: Replicate, Partial(SUM) or Shard of a tensor dim no other mesh
    dim shards."""
    free = list(range(ndim))
    out = []
    for _ in mesh.shape:
        kinds = ["R", "P"] + (["S"] if free else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "S":
            dim = draw(st.sampled_from(free))
            free.remove(dim)
            out.append(Shard(dim))
        else:
            out.append(Replicate() if kind == "R" else Partial("SUM"))
    return out


@st.composite
def reshard_cases(draw):
    """(mesh, shape, source placements, target placements, fuse, seed): shapes of 1-3 dims of
    size 1-7, so splits are often uneven and pieces sometimes empty."""
    mesh = draw(st.sampled_from(MESHES))
    shape = tuple(draw(st.lists(st.integers(1, 7), min_size=1, max_size=3)))
    source = draw(placements_for(mesh, len(shape)))
    target = draw(placements_for(mesh, len(shape)))
    return mesh, shape, source, target, draw(st.booleans()), draw(st.integers(0, 2**16))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(reshard_cases())
def test_every_rank_holds_its_target_piece(case):
    mesh, shape, source, target, fuse, seed = case
    array, outputs, programs, _ = run_lowered(shape, mesh, source, target, seed, fuse)
    check_target(array, outputs, mesh, target)
    for program in programs.values():
        assert "dist_op.reshard" not in ops_of(program)


# ---- named cases ------------------------------------------------------------------------------

M2 = ProcessMesh((2,), (0, 1))


@pytest.mark.parametrize("source, target", [
    ([Partial()], [Replicate()]), ([Shard(0)], [Replicate()]), ([Shard(1)], [Replicate()]),
    ([Replicate()], [Shard(0)]), ([Replicate()], [Shard(1)]), ([Partial()], [Shard(0)]),
    ([Partial()], [Shard(1)]), ([Shard(0)], [Shard(1)]), ([Shard(1)], [Shard(0)]),
    ([Replicate()], [Partial()]), ([Shard(0)], [Partial()]),
])
def test_each_placement_change_on_two_ranks(source, target):
    array, outputs, _, _ = run_lowered((4, 6), M2, source, target, seed=3)
    check_target(array, outputs, M2, target)


def test_uneven_shard_to_replicate_pads_the_short_piece():
    # 5 rows over 4 ranks: pieces 2, 2, 1, 0; ranks 2 and 3 pad to 2 before the all_gather.
    mesh = ProcessMesh((4,), (0, 1, 2, 3))
    array, outputs, programs, _ = run_lowered((5, 3), mesh, [Shard(0)], [Replicate()], seed=1)
    check_target(array, outputs, mesh, [Replicate()])
    assert ops_of(programs[0]) == ["pd_op.data", "pd_op.all_gather", "pd_op.full_int_array",
                                   "pd_op.full_int_array", "pd_op.slice", "builtin.shadow_output"]
    assert ops_of(programs[3])[:5] == ["pd_op.data", "pd_op.full", "builtin.combine", "pd_op.full",
                                       "pd_op.concat"]
    for rank, out in outputs.items():
        np.testing.assert_array_equal(out, array)


def test_uneven_replicate_to_shard_slices_ceiling_pieces():
    # 5 columns over 2 ranks: [0, 3) and [3, 5); 1 row over 4 ranks: 1, 0, 0, 0.
    array, outputs, programs, _ = run_lowered((3, 5), M2, [Replicate()], [Shard(1)], seed=2)
    np.testing.assert_array_equal(outputs[0], array[:, :3])
    np.testing.assert_array_equal(outputs[1], array[:, 3:])
    (slice_op,) = [op for op in programs[1].walk() if op.name == "pd_op.slice"]
    bounds = [v.owner.attributes["value"] for v in slice_op.operands[1:]]
    assert bounds == [(3,), (5,)] and slice_op.attributes["axes"] == (1,)
    mesh = ProcessMesh((4,), (0, 1, 2, 3))
    array, outputs, _, _ = run_lowered((1, 2), mesh, [Replicate()], [Shard(0)], seed=2)
    assert [outputs[r].shape for r in range(4)] == [(1, 2), (0, 2), (0, 2), (0, 2)]
    np.testing.assert_array_equal(outputs[0], array)


def test_uneven_partial_to_shard_is_all_reduce_then_split():
    # 5 rows do not split evenly over 2 ranks: no reduce_scatter form, sp_fusion leaves it.
    array, outputs, programs, _ = run_lowered((5, 2), M2, [Partial()], [Shard(0)], seed=4,
                                              fuse=True)
    check_target(array, outputs, M2, [Shard(0)])
    assert "pd_op.all_reduce" in ops_of(programs[0]) and "pd_op.slice" in ops_of(programs[0])
    assert "pd_op.reduce_scatter" not in ops_of(programs[0])


@pytest.mark.parametrize("dim", [0, 1])
def test_partial_to_shard_is_fused_into_reduce_scatter(dim):
    array, outputs, programs, _ = run_lowered((4, 6), M2, [Partial()], [Shard(dim)], seed=5,
                                              fuse=True)
    check_target(array, outputs, M2, [Shard(dim)])
    for program in programs.values():
        names = ops_of(program)
        assert "pd_op.reduce_scatter" in names and "pd_op.all_reduce" not in names
        assert names.count("pd_op.transpose") == (2 if dim else 0)


def test_fused_partial_to_shard_moves_half_the_bytes():
    # all_reduce moves 2(n-1)/n of the tensor, reduce_scatter (n-1)/n: half, on every rank.
    _, _, _, unfused = run_lowered((8, 6), M2, [Partial()], [Shard(0)], seed=8)
    _, _, _, fused = run_lowered((8, 6), M2, [Partial()], [Shard(0)], seed=8, fuse=True)
    for rank in (0, 1):
        assert set(unfused[rank]) == {"all_reduce"} and set(fused[rank]) == {"reduce_scatter"}
        assert fused[rank]["reduce_scatter"]["bytes"] == unfused[rank]["all_reduce"]["bytes"] / 2
        assert fused[rank]["reduce_scatter"]["bytes"] == 8 * 6 * 4 / 2


def test_chained_reshards_fold_into_one():
    # Shard(1) -> Partial -> Replicate (a chain the partition step makes): one all_gather, not
    # all_gather + assign/zeros + all_reduce.
    array, outputs, programs, stats = run_lowered((2, 4), M2, [Shard(1)], [Partial()], seed=9,
                                                  then=([Replicate()],))
    check_target(array, outputs, M2, [Replicate()])
    for rank in (0, 1):
        assert set(stats[rank]) == {"all_gather"}
        assert "pd_op.assign" not in ops_of(programs[rank])


def test_two_dimensional_mesh_dp_by_mp():
    # [Shard(0), Partial] -> [Replicate, Shard(1)] on a 2x2 mesh [[0,1],[2,3]]: all_gather over
    # the dp column groups, then all_reduce + split over the mp row groups.
    mesh = ProcessMesh((2, 2), (0, 1, 2, 3))
    source, target = [Shard(0), Partial()], [Replicate(), Shard(1)]
    array, outputs, programs, _ = run_lowered((4, 4), mesh, source, target, seed=6)
    check_target(array, outputs, mesh, target)
    program = rank_program(reshard_program((4, 4), mesh, source, target), 3)
    assert dict(program.process_groups) == {0: (0, 2), 1: (1, 3), 2: (0, 1), 3: (2, 3)}
    gather = next(op for op in program.walk() if op.name == "pd_op.all_gather")
    reduce = next(op for op in program.walk() if op.name == "pd_op.all_reduce")
    assert (gather.attributes["ring_id"], reduce.attributes["ring_id"]) == (1, 3)


def test_two_dimensional_mesh_pp_by_dp_partial_on_both():
    mesh = ProcessMesh((2, 2), (0, 1, 2, 3))
    source, target = [Partial(), Partial()], [Replicate(), Replicate()]
    array, outputs, _, _ = run_lowered((3, 2), mesh, source, target, seed=7)
    check_target(array, outputs, mesh, target)


def test_created_ops_keep_role_and_chunk():
    program = reshard_program((4, 6), M2, [Shard(1)], [Shard(0)], op_role=1, chunk_id=2)
    RULES.run_pass(program, "lower_reshard", rank=0)
    made = [op for op in program.walk() if op.name not in ("pd_op.data", "builtin.shadow_output")]
    assert made and all(op.attributes.get("op_role") == 1 for op in made if op.dist_attr)
    assert all(op.dist_attr.chunk_id == 2 for op in made if op.dist_attr is not None)
    assert all(op.dist_attr is not None for op in made if not op.name.startswith("builtin."))


def prepend_data_on(program: Program, mesh: ProcessMesh) -> None:
    """Put a ``pd_op.data`` of a replicated float32 [4] on ``mesh`` first in ``program``: an op of
    another mesh than the reshard's."""
    z = dist_type((4,), mesh, [Replicate()])
    program.block.insert_before(next(iter(program.block.ops)), Operation.create(
        "pd_op.data", [], [z], {"dtype": Symbol("float32"), "name": "z", "op_role": 0,
                                "place": Place("undefined:0"), "shape": (4,),
                                "stop_gradient": (True,)},
        OperationDistAttr(mesh, [], [z.dist], -1)))


def test_reshard_of_another_mesh_is_left_for_pruning():
    mesh = ProcessMesh((2,), (2, 3))
    program = reshard_program((4, 6), mesh, [Shard(0)], [Replicate()])
    # rank 0 runs ops of the program's other mesh, [0, 1]
    prepend_data_on(program, M2)
    text = print_program(program)
    RULES.run_pass(program, "lower_reshard", rank=0)
    assert print_program(program) == text


def test_a_rank_the_program_does_not_have_is_refused():
    # breaker item 13: the API returned an empty (or unchanged) program for any rank
    program = reshard_program((4, 6), ProcessMesh((2,), (2, 3)), [Shard(0)], [Replicate()])
    with pytest.raises(RulepassError, match="rank=0 is not a rank of the program"):
        RULES.run_pass(program, "lower_reshard", rank=0)


def test_the_rank_check_finds_a_rank_of_any_mesh_and_names_them_all():
    # program_has_rank stops at the first mesh holding the rank: a rank of the program's second
    # mesh (met only after the first) is accepted, one of neither is refused with every rank named
    from rulepass.engine.paddle.param_checks import check_rank, program_has_rank, program_ranks

    program = reshard_program((4, 6), ProcessMesh((2,), (2, 3)), [Shard(0)], [Replicate()])
    prepend_data_on(program, M2)
    assert program_ranks(program) == {0, 1, 2, 3}
    for rank in range(-1, 6):
        assert program_has_rank(program, rank) == (rank in {0, 1, 2, 3})
        assert (check_rank(program, rank) is None) == (rank in {0, 1, 2, 3})
    assert check_rank(program, 5) == ("is not a rank of the program, whose process meshes hold "
                                      "ranks 0, 1, 2, 3 (4 ranks)")
    assert program_has_rank(Program(), 7) and check_rank(Program(), 7) is None  # dense: any rank


def test_dynamic_dimension_to_gather_is_an_error():
    program = reshard_program((-1, 4), M2, [Shard(0)], [Replicate()])
    with pytest.raises(RulepassError, match="cannot lower a reshard"):
        RULES.run_pass(program, "lower_reshard", rank=0)


def test_partial_to_another_reduce_type_is_an_error():
    program = reshard_program((4,), M2, [Partial("SUM")], [Partial("MAX")])
    with pytest.raises(RulepassError, match="cannot lower a reshard"):
        RULES.run_pass(program, "lower_reshard", rank=0)


# ---- the functions ----------------------------------------------------------------------------

def test_mesh_group_creates_every_slice_in_a_fixed_order():
    mesh = ProcessMesh((2, 3), (0, 1, 2, 3, 4, 5))
    assert slice_groups(mesh, 0) == [(0, 3), (1, 4), (2, 5)]
    assert slice_groups(mesh, 1) == [(0, 1, 2), (3, 4, 5)]
    first, second = Program(), Program()
    assert mesh_group(first, mesh, 1, 4) == 1 and mesh_group(second, mesh, 1, 0) == 0
    assert first.process_groups == second.process_groups == {0: (0, 1, 2), 1: (3, 4, 5)}
    assert mesh_group(first, mesh, 0, 5) == 4
    with pytest.raises(ValueError, match="not in process mesh"):
        mesh_group(first, mesh, 0, 9)


def test_shard_sizes_and_gathered_types():
    assert shard_sizes(None, 5, 4) == [2, 2, 1, 0]
    assert shard_sizes(None, 6, 3) == [2, 2, 2]
    mesh = ProcessMesh((2, 2), (0, 1, 2, 3))
    # dim 1 gathered over mesh dim 1 while dim 0 is split evenly over mesh dim 0: stacked rows
    t = dist_type((4, 6), mesh, [Shard(0), Shard(1)])
    g = gathered(None, t, 1, 0)
    assert g.shape == (8, 3) and g.local_shape(0) == (4, 3) and g.local_shape(3) == (4, 3)
    # dim 0 split unevenly (5 rows: 3, 2): the stacked type is the rank's own
    t = dist_type((5, 6), mesh, [Shard(0), Shard(1)])
    assert gathered(None, t, 1, 0).local_shape(0) == (6, 3)
    assert gathered(None, t, 1, 2).local_shape(2) == (4, 3)
