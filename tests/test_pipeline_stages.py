"""A rank's pipeline stage is the stage mesh that holds it (rulepass.checks.pipeline_stages for the
runtime, engine/paddle/stages.py for complete_chunk_id's layout), whatever the
order of the mesh dims: Paddle 3.3.1 takes ``rank // (world / pp)``, right only when pp is the
outermost dim. ``dist.parallelize`` on the seed test's ``["dp","pp","mp"]`` mesh with dp2, or on
``["dp","pp"]``, puts stage 0 on ranks [0, 2] and stage 1 on [1, 3]."""

from pathlib import Path

import pytest

from rulepass.checks import pipeline_stages
from rulepass.engine.paddle.stages import stage_meshes, stage_of_mesh, stage_partition
from rulepass.engine.ir.types import ProcessMesh
from rulepass.engine.pir.parse import parse_program

CORPUS = Path(__file__).resolve().parent / "data" / "paddle"


def forward(config: str):
    return parse_program(next((CORPUS / config / "rank0").glob("*_forward_dist.pir")).read_text())


@pytest.mark.parametrize("config, pp, world, expected", [
    ("pp2_1f1b", 2, 2, {0: 0, 1: 1}),
    ("dp2_pp2", 2, 4, {0: 0, 1: 0, 2: 1, 3: 1}),       # [[0,1],[2,3]] dims (pp, dp)
    ("par_dp2_pp2", 2, 4, {0: 0, 1: 1, 2: 0, 3: 1}),   # [[0,1],[2,3]] dims (dp, pp)
    ("mp2", 1, 2, {0: 0, 1: 0}),
])
def test_rank_stages_follow_the_stage_meshes(config, pp, world, expected):
    program = forward(config)
    assert pipeline_stages(program, world, pp) == [expected[r] for r in range(world)]
    # complete_chunk_id's layout reads the stages of meshes by the same rule
    partition = stage_partition(stage_meshes(program), pp)
    if pp > 1:
        for rank, stage in expected.items():
            assert stage_of_mesh(ProcessMesh((1,), (rank,)), pp, world, partition) == stage


def test_stage_of_a_mesh_inside_a_stage():
    meshes = stage_meshes(forward("par_dp2_pp2"))
    assert [m.process_ids for m in meshes] == [(0, 2), (1, 3)]
    partition = stage_partition(meshes, 2)
    assert stage_of_mesh(ProcessMesh((1,), (3,)), 2, 4, partition) == 1
    assert stage_of_mesh(ProcessMesh((2,), (0, 1)), 2, 4, partition) is None
    # Paddle's formula where the program shows no partition into pp meshes
    assert stage_of_mesh(ProcessMesh((1,), (3,)), 2, 4, None) == 1
    assert stage_of_mesh(ProcessMesh((2,), (0, 2)), 2, 4, None) is None


def test_no_partition_falls_back_to_paddles_formula():
    # one mesh of all ranks: nothing to read the stages from
    assert stage_partition(stage_meshes(forward("mp2")), 2) is None
    assert pipeline_stages(forward("mp2"), 2, 2) == [0, 1]
