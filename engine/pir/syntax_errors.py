"""Labelled examples of the common mistakes in program text, for lark's ``match_examples``.

Each label is the message a user sees; each example is a small program that fails in the same
parser state as the mistake it names (see :func:`~rulepass.engine.pir.lark_parser.syntax_error`).
:func:`describe_characters` names the mistakes the lexer finds (text no token starts with): an
unknown type or element type, an unterminated string, a malformed op name.
"""

from __future__ import annotations

import re

from rulepass.engine.ir.types import ELEMENT_TYPES


def _prog(*lines: str) -> str:
    return "{\n" + "".join(f"    {line}\n" for line in lines) + "}\n"


_OP = '(%0) = "pd_op.full" () {a:1} : () -> tensor<f32>'
_DIST = "mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]"

EXAMPLES: dict[str, list[str]] = {
    "missing '=' between the results and the op name (`(%1) = \"dialect.op\" ...`)": [
        _prog('(%0) "pd_op.full" () {} : () -> tensor<f32>'),
        _prog('(%0) pd_op.full () {} : () -> tensor<f32>'),
        _prog('() "pd_op.full" () {} : () -> '),
        _prog("(%0)"),
    ],
    "missing ':' before the operand types (an op line is `... {attributes} : (operand types) "
    "-> result types`)": [
        _prog('(%0) = "pd_op.full" () {} () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {} tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {} : () -> tensor<f32> {a:1}'),
    ],
    "missing '->' before the result types": [
        _prog('(%0) = "pd_op.full" () {} : () tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {} : () : tensor<f32>'),
    ],
    "an op needs its attributes in braces after the operands (`{}` when it has none)": [
        _prog('(%0) = "pd_op.full" () : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () a:1 : () -> tensor<f32>'),
    ],
    "an op needs its operand list in parentheses after the op name (`()` when it has none)": [
        _prog('(%0) = "pd_op.full" {} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" %1 {} : () -> tensor<f32>'),
    ],
    "values are separated by ','": [
        _prog('(%0 %1) = "pd_op.full" () {} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" (%1 %2) {} : () -> tensor<f32>'),
    ],
    "attributes are written `key:value`, separated by ','": [
        _prog('(%0) = "pd_op.full" () {a 1} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {a=1} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {a} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {a:1 b:2} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {a:1;b:2} : () -> tensor<f32>'),
    ],
    "missing attribute value": [
        _prog('(%0) = "pd_op.full" () {a:} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {a:,b:1} : () -> tensor<f32>'),
    ],
    "types are separated by ','": [
        _prog('(%0) = "pd_op.full" (%1, %2) {} : (tensor<f32> tensor<f32>) -> tensor<f32>'),
        _prog('(%0, %1) = "pd_op.full" () {} : () -> tensor<f32> tensor<f32>'),
    ],
    "a tensor type is `tensor<DIMSxELEMENT>` such as `tensor<4x8xf32>` or `tensor<f32>`": [
        _prog('(%0) = "pd_op.full" () {} : () -> tensor<4x>'),
        _prog('(%0) = "pd_op.full" () {} : () -> tensor<>'),
        _prog('(%0) = "pd_op.full" () {} : () -> tensor<4xf32'),
        _prog('(%0) = "pd_op.full" () {} : () -> tensor<4xf32, 1>'),
    ],
    "a dist tensor type is `pd_dist.tensor<4x8xf32, mesh_shape:[..],process_ids:[..],"
    "dims_mappings:[..]>`": [
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, ' + _DIST + ' >>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, mesh:[2]>'),
    ],
    "a dist attribute is `mesh_shape:[..],process_ids:[..],dims_mappings:[..]` then optional "
    "`, partial(m,SUM)` and `, placements:[..]`": [
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[-1]>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1]>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1] placements:[Replicate()]>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, mesh_shape:2,process_ids:[0,1],dims_mappings:[-1]>'),
    ],
    "a placement is `Shard(dim=N)`, `Replicate()` or `Partial(reduce_type=SUM)`": [
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, ' + _DIST + ', placements:[Shard(0)]>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, ' + _DIST + ', placements:[Foo()]>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, ' + _DIST + ', placements:[Replicate]>'),
        _prog('(%0) = "pd_op.full" () {} : () -> pd_dist.tensor<4xf32, ' + _DIST + ', placements:[Partial(SUM)]>'),
    ],
    "an op_dist_attr is `{mesh:{shape:[..],process_ids:[..]},operand(i):{..},result(i):{..},"
    "chunk_id:N}`": [
        _prog('(%0) = "pd_op.full" () {op_dist_attr:{shape:[1]}} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},'
              'operand0:{}}} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},'
              'result(0):' + _DIST + '}} : () -> tensor<f32>'),
        _prog('(%0) = "pd_op.full" () {op_dist_attr:{mesh:{shape:[1]}}} : () -> tensor<f32>'),
    ],
    "a process group header is `process_group RING_ID : [r0,r1,...]`": [
        "process_group 12 [0,1]\n{\n}\n",
        "process_group : [0,1]\n{\n}\n",
        "process_group x : [0,1]\n{\n}\n",
        "process_group 12 : 0,1\n{\n}\n",
        "process_group 12 : [0 1]\n{\n}\n",
        "process_group 12 : [0,1] x\n{\n}\n",
    ],
    "a program starts with '{' (after optional `process_group` header lines)": [
        _OP + "\n",
        "foo\n{\n}\n",
        "{ " + _OP + "\n}\n",
    ],
    "text after the end of the program (the '}' that closes it is above)": [
        "{\n}\n}\n",
        "{\n}\n" + _OP + "\n",
        "{\n}\n{\n}\n",
        "{\n}\nfoo\n",
        "{\n} else {\n}\n",
    ],
    "a '}' is missing: the text ends inside a block": [
        "{\n",
        "{\n" + _OP + "\n",
        "{\n^kw:\n",
        "{\n" + '(%0) = "pd_op.if" (%1) {} -> tensor<f32> {\n',
        "{\n" + '(%0) = "pd_op.if" (%1) {} -> tensor<f32> {\n} else {\n',
        "{\n" + '(%0) = "pd_op.if" (%1) {} -> tensor<f32> {\n' + _OP + "\n",
    ],
    "an op line starts with its results in parentheses: `(%1, %2) = ...` or `() = ...`": [
        _prog('%0 = "pd_op.full" () {} : () -> tensor<f32>'),
        _prog('"pd_op.full" () {} : () -> tensor<f32>'),
        _prog('} else {'),
    ],
}


def describe_characters(expected: set, line: str, col: int, lexer_error: bool) -> str | None:
    """Name the mistake at 1-based ``col`` of ``line`` from the terminals the grammar expected
    there: an unknown type or element type, a malformed op name, and (when ``lexer_error``, that
    is no token starts there) an unterminated string. ``None`` when no name fits."""
    rest = line[col - 1:]
    m = re.match(r"\s*([^\s,()<>\[\]{}]+|\S)", rest)
    word = m.group(1) if m else ""
    if not word:
        return None
    if "ELEMENT" in expected:
        return (f"unknown element type {word!r}; expected one of " + ", ".join(ELEMENT_TYPES))
    if "_TENSOR_OPEN" in expected or "NULL_TYPE" in expected:
        return (f"unknown type {word!r}; expected tensor<...>, pd_dist.tensor<...>, vec[...] or "
                "<<NULL TYPE>>")
    if lexer_error and rest.startswith('"') and ("STRING" in expected or "OP_NAME" in expected):
        if '\\"' in rest:
            # Paddle prints a value ending in a backslash as `"...\"`: its own lexer cannot read it
            return ("unterminated string: no closing '\"' (inside a string `\\\"` is a quote, "
                    "not the end, as Paddle reads it: a value ending in a backslash does not "
                    "read back)")
        return "unterminated string: expected a closing '\"' before the end of the text"
    if "OP_NAME" in expected:
        if rest.startswith('"'):
            word = re.match(r'"[^"\n]*"?', rest).group(0)
        return f"malformed op name {word}; expected a quoted \"dialect.op\" such as \"pd_op.add\""
    return None
