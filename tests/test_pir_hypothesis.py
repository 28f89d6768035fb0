"""Property tests on generated programs (``rulepass.testing``): printing then parsing gives back a
program that prints the same, with either parser, and the generators only build what they promise."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import ProgramParser, parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.ir.types import DenseTensorType, DistTensorType, VectorType
from rulepass.testing import dist_attrs, meshes, programs, types

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(programs())
def test_parse_of_print_prints_the_same(program):
    text = print_program(program)
    assert print_program(parse_program(text)) == text
    # The fast scanner must accept everything the printer writes, without the grammar's help.
    assert print_program(ProgramParser(text, None).parse()) == text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(max_ops=8))
def test_both_parsers_agree_on_generated_text(program):
    text = print_program(program)
    assert print_program(parse_program_lark(text)) == print_program(parse_program(text))


def _tensor_types(t):
    if isinstance(t, VectorType):
        for item in t.items:
            yield from _tensor_types(item)
    elif isinstance(t, (DenseTensorType, DistTensorType)):
        yield t


@FAST
@given(programs(max_ops=6, dist=True))
def test_every_tensor_of_a_dist_program_is_dist(program):
    values = list(program.kwargs) + [r for op in program.walk() for r in op.results]
    found = [t for v in values for t in _tensor_types(v.type)]
    assert found and all(isinstance(t, DistTensorType) for t in found)
    assert all(t.mesh.ndim <= 2 and len(t.mesh.process_ids) <= 4 for t in found)


@FAST
@given(st.data())
def test_dist_attrs_fit_their_mesh_and_rank(data):
    mesh = data.draw(meshes())
    rank = data.draw(st.integers(0, 3))
    attr = data.draw(dist_attrs(mesh, rank))
    assert len(attr.dims_mapping) == rank
    sharded = [m for m in attr.dims_mapping if m >= 0]
    assert len(sharded) == len(set(sharded)) and all(m < mesh.ndim for m in sharded)
    t = data.draw(types(mesh))
    assert isinstance(t, DistTensorType) and t.mesh == mesh


def test_generated_programs_use_regions_vectors_and_collectives():
    # Regions, vectors and collectives must be reachable, or the properties above say little.
    seen = set()

    @settings(max_examples=80, deadline=None, database=None, derandomize=True)
    @given(programs(max_ops=12))
    def collect(program):
        text = print_program(program)
        for word in ("pd_op.if", "} else {", "vec[", "builtin.split", "ring_id", "^kw:",
                     "<<NULL VALUE>>", "op_dist_attr", "partial(", "placements:["):
            if word in text:
                seen.add(word)

    collect()
    assert seen == {"pd_op.if", "} else {", "vec[", "builtin.split", "ring_id", "^kw:",
                    "<<NULL VALUE>>", "op_dist_attr", "partial(", "placements:["}
