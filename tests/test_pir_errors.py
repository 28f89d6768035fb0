"""Malformed programs: each names its mistake, the line and the column, whichever parser finds it
(the fast scanner for errors of meaning; the grammar, through the fast scanner's fallback, for
syntax). Every case is a small program with the expected message fragment, line and column written
out; the column is also checked against the text the caret points at."""

import subprocess
import sys

import pytest

from rulepass.engine.errors import ParseError
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program

DIST = ("pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1], "
        "placements:[Shard(dim=0)]>")
DATA = '(%0) = "pd_op.data" () {name:"x"} : () -> tensor<4x8xf32>'
ITEM = "{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}"


def prog(*ops: str, header: str = "") -> str:
    """A program of ``ops`` (one a line, indented 4), the first op on line 2 (after the header)."""
    return header + "{\n" + "".join(f"    {op}\n" for op in ops) + "}\n"


def dist(type_text: str) -> str:
    """A one-op program whose result has type ``type_text`` (it starts at column 39 of line 2)."""
    return prog(f'(%0) = "pd_op.data" () {{}} : () -> {type_text}')


def op_dist_attr(entries: str, ids: str = "[0,1]") -> str:
    return f"{{op_dist_attr:{{mesh:{{shape:[2],process_ids:{ids}}},{entries},chunk_id:-1}}}}"


def retype(old: str, new: str) -> str:
    return dist(DIST.replace(old, new))


NO_PLACEMENTS = "dims_mappings:[0,-1], placements:[Shard(dim=0)]"

# (name, text, message fragment, line, column, text at the caret)
CASES = [
    ("truncated_line", prog('(%0) = "pd_op.data" () {name:"x"'),
     "the line ends too early: expected ',', ']' or '}', found end of line", 2, 37, ""),
    ("unknown_type", prog('(%0) = "pd_op.data" () {} : () -> tensr<4xf32>'),
     "unknown type 'tensr'; expected tensor<...>, pd_dist.tensor<...>, vec[...] or <<NULL TYPE>>",
     2, 39, "tensr<"),
    ("unknown_element_type", prog('(%0) = "pd_op.data" () {} : () -> tensor<4xf33>'),
     "unknown element type 'f33'; expected one of f16, bf16, f32", 2, 48, "f33>"),
    ("wrong_result_count", prog('(%0, %1) = "pd_op.data" () {} : () -> tensor<4xf32>'),
     "2 results named but 1 result types given", 2, 5, "(%0, %1)"),
    ("operand_type_count", prog(DATA, '(%1) = "pd_op.relu" (%0) {} : () -> tensor<4x8xf32>'),
     "1 operands but 0 operand types given", 3, 5, "(%1)"),
    ("operand_type_differs",
     prog(DATA, '(%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4x8xf32>'),
     "operand 0 (%0) is declared with a type that differs from the type of its definition",
     3, 26, "%0)"),
    ("use_before_definition",
     prog(DATA, '(%1) = "pd_op.relu" (%7) {} : (tensor<4x8xf32>) -> tensor<4x8xf32>'),
     "%7 is used before it is defined", 3, 26, "%7)"),
    ("duplicate_definition",
     prog(DATA, '(%0) = "pd_op.relu" (%0) {} : (tensor<4x8xf32>) -> tensor<4x8xf32>'),
     "%0 is defined twice", 3, 6, "%0) ="),
    ("kwarg_defined_twice", "{\n    ^kw:\n        %kwarg_w {}\n        %kwarg_w {}\n}\n",
     "%kwarg_w is defined twice", 4, 9, "%kwarg_w"),
    ("dims_mapping_beyond_mesh", retype(NO_PLACEMENTS, "dims_mappings:[1,-1]"),
     "dims_mapping [1, -1] names mesh dimension 1, but the mesh has 1", 2, 63, "mesh_shape:"),
    ("two_dims_on_one_mesh_dim", retype(NO_PLACEMENTS, "dims_mappings:[0,0]"),
     "dims_mapping [0, 0] shards two tensor dimensions over mesh dimension 0", 2, 63,
     "mesh_shape:"),
    ("dims_mapping_length_not_rank", retype(NO_PLACEMENTS, "dims_mappings:[0]"),
     "dims_mappings [0] has 1 entries for a tensor of rank 2", 2, 39, "pd_dist.tensor<"),
    ("placements_contradict_dims_mapping", retype("Shard(dim=0)", "Shard(dim=1)"),
     "placements [Shard(dim=1)] do not match dims_mappings [0, -1] and partial []", 2, 63,
     "mesh_shape:"),
    ("unknown_reduce_type",
     retype(NO_PLACEMENTS, "dims_mappings:[-1,-1], placements:[Partial(reduce_type=MEAN)]"),
     "unknown reduce type 'MEAN'", 2, 151, "MEAN)"),
    ("duplicate_mesh_ids", retype("process_ids:[0,1]", "process_ids:[1,1]"),
     "process mesh ids are not distinct: [1, 1]", 2, 63, "mesh_shape:"),
    ("mesh_shape_and_ids_count", retype("process_ids:[0,1]", "process_ids:[0,1,2]"),
     "process mesh shape [2] holds 2 ranks but 3 process ids were given", 2, 63, "mesh_shape:"),
    ("op_dist_attr_mesh_count",
     prog('(%0) = "pd_op.data" () ' + op_dist_attr("result(0):" + ITEM, ids="[0]")
          + " : () -> tensor<4x8xf32>"),
     "process mesh shape [2] holds 2 ranks but 1 process ids were given", 2, 42, "{mesh:"),
    ("operand_index_out_of_order",
     prog(DATA, '(%1) = "pd_op.relu" (%0) ' + op_dist_attr("operand(1):" + ITEM)
          + " : (tensor<4x8xf32>) -> tensor<4x8xf32>"),
     "operand(1) out of order (expected operand(0))", 3, 91, "{mesh_shape:"),
    ("op_dist_attr_not_a_dist_attr",
     prog('(%0) = "pd_op.data" () {op_dist_attr:1} : () -> tensor<4x8xf32>'),
     "op_dist_attr must be {mesh:{...},...}", 2, 5, "(%0)"),
    ("unterminated_string", prog('(%0) = "pd_op.data" () {name:"x} : () -> tensor<4x8xf32>'),
     "unterminated string: expected a closing '\"' before the end of the text", 2, 34, '"x}'),
    ("missing_closing_brace", prog(DATA)[:-2],
     "a '}' is missing: the text ends inside a block: expected '(', '^kw:' or '}', found the end "
     "of the text", 2, 62, ""),
    ("text_after_the_end", prog(DATA) + "}\n",
     "text after the end of the program (the '}' that closes it is above)", 4, 1, "}"),
    ("else_outside_region", prog(DATA)[:-2] + "} else {\n}\n",
     "'} else {' outside an op with regions", 3, 3, "else {"),
    ("malformed_process_group", prog(DATA, header="process_group 12 [0,1]\n"),
     "a process group header is `process_group RING_ID : [r0,r1,...]`: expected ':', found "
     "'[0,1]'", 1, 18, "[0,1]"),
    ("malformed_op_name", prog('(%0) = "pd_op data" () {} : () -> tensor<4x8xf32>'),
     'malformed op name "pd_op data"; expected a quoted "dialect.op"', 2, 12, '"pd_op data"'),
    ("missing_equals", prog('(%0) "pd_op.data" () {} : () -> tensor<4x8xf32>'),
     "missing '=' between the results and the op name", 2, 10, '"pd_op.data"'),
    ("missing_colon_before_types", prog('(%0) = "pd_op.data" () {} () -> tensor<4x8xf32>'),
     "missing ':' before the operand types", 2, 31, "() ->"),
    ("attribute_written_with_equals",
     prog('(%0) = "pd_op.data" () {name="x"} : () -> tensor<4x8xf32>'),
     "attributes are written `key:value`, separated by ',': expected ':', found '='", 2, 33, "="),
    ("bad_placement", retype("Shard(dim=0)", "Shard(0)"),
     "a placement is `Shard(dim=N)`, `Replicate()` or `Partial(reduce_type=SUM)`", 2, 130,
     "Shard(0)"),
    ("dist_type_without_dist_attr", dist("pd_dist.tensor<4x8xf32>"),
     "a dist tensor type is `pd_dist.tensor<4x8xf32, mesh_shape:[..],process_ids:[..],"
     "dims_mappings:[..]>`: expected ',', found '>'", 2, 61, ">"),
    ("empty_text", "", "empty program: expected 'process_group', '{' or the end of the line",
     1, 1, ""),
]


@pytest.mark.parametrize("name,text,message,line,col,at", CASES, ids=[c[0] for c in CASES])
def test_malformed_program_is_reported_where_it_is_wrong(name, text, message, line, col, at):
    with pytest.raises(ParseError) as info:
        parse_program(text, "bad.pir")
    e = info.value
    assert message in e.message
    assert (e.file, e.line, e.col) == ("bad.pir", line, col)
    assert e.source_line[col - 1:].startswith(at)
    # The report stands alone: where, what, the line and a caret under the column.
    report = str(e).split("\n")
    assert report[0].startswith(f"bad.pir:{line}:{col}: parse error: ")
    # a long line is shown in a window around the column (engine/errors.py SHOWN_LINE_WIDTH)
    assert report[2].strip() == "^"
    assert report[1][report[2].index("^"):].startswith(e.source_line[col - 1:col])
    if len(e.source_line) <= 120:
        assert report[2] == "    " + " " * (col - 1) + "^"


def test_enough_distinct_malformations():
    assert len({c[0] for c in CASES}) == len(CASES) >= 20


@pytest.mark.parametrize("name,text,message,line,col,at", CASES, ids=[c[0] for c in CASES])
def test_grammar_reports_the_same_place(name, text, message, line, col, at):
    # Errors of meaning are found by the fast scanner first; the grammar must find them at the same
    # line (and, but for the reduce type, which it reads as one token, the same column).
    with pytest.raises(ParseError) as info:
        parse_program_lark(text, "bad.pir")
    assert info.value.line == line
    if name != "unknown_reduce_type":
        assert info.value.col == col
        assert message in info.value.message


def test_cli_reports_one_clear_message(tmp_path):
    path = tmp_path / "bad.pir"
    path.write_text(prog('(%0) = "pd_op.data" () {} : () -> tensor<4xf33>'))
    for command in ("print", "verify"):
        done = subprocess.run([sys.executable, "-m", "rulepass", command, str(path)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stdout == ""
        first = done.stderr.splitlines()[0]
        assert first == f"{path}:2:48: parse error: unknown element type 'f33'; expected one of " \
                        "f16, bf16, f32, f64, i8, u8, i16, i32, i64, b, c64, c128"


def test_error_late_in_a_long_program_is_found_where_it_is():
    # The grammar re-reads only the nesting of the lines the fast parser had read (structure_only):
    # the report must still name the right line, inside regions too.
    ops = [DATA] + [f'(%{k}) = "pd_op.relu" (%{k - 1}) {{}} : (tensor<4x8xf32>) -> tensor<4x8xf32>'
                    for k in range(1, 400)]
    region = ['(%400) = "pd_op.if" (%0) {} -> tensor<4x8xf32> {',
              '    (%401) = "pd_op.relu" (%399) {} : (tensor<4x8xf32>) -> tensor<4x8xf32>',
              '    () = "cf.yield" (%401) {} : (tensor<4x8xf32>) -> ',
              '} else {',
              '    () = "cf.yield" (%399) {} tensor<4x8xf32>) -> ',
              "}"]
    text = prog(*ops, *region)
    with pytest.raises(ParseError) as info:
        parse_program(text, "long.pir")
    e = info.value
    assert (e.line, e.col) == (406, 35)
    assert e.source_line[34:].startswith("tensor<")
    assert e.message.startswith("missing ':' before the operand types")
    assert e.source_line.strip() == region[4].strip()
    # Without the hint the grammar reads everything and must agree.
    with pytest.raises(ParseError) as whole:
        parse_program_lark(text, "long.pir")
    assert (whole.value.line, whole.value.col, whole.value.message) == (e.line, e.col, e.message)
