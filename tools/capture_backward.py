"""Capture Paddle 3.3.1's ``append_backward`` on a dense program that uses many ops: the program
before (``tests/data/paddle_backward/ops.pir``) and after (``ops_backward.pir``).

Run with the Paddle venv (Paddle is a tool here, never a rulepass dependency):

    /work/paddle-venv/bin/python tools/capture_backward.py [OUT_DIR]

The program is built in static mode with ``paddle.static`` (no distribution) and differentiated
with ``paddle.static.append_backward(loss)``: the grad ops Paddle's ``ir_backward`` makes for
abs, sin, cos, clip, max, min, unsqueeze, dropout (train and test), split, split_with_num,
concat, slice (with a decreased axis), squeeze, flatten, reshape, stack, sum, where, expand,
uniform (no grad), unbind (an item without a grad: zeros) and a parameter read twice, in Paddle's
order (``inverse_sort_op``), with its builtin.combine/builtin.split around vector values.
``tests/test_backward.py`` checks that ``append_backward`` prints the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "paddle_backward"


def build():
    """(main program, loss) of the captured model: x [4, 4, 16] (a data input that needs a
    grad) times a [16] parameter, through every op listed in the module docstring."""
    import paddle
    import paddle.nn.functional as F

    paddle.enable_static()
    paddle.seed(2024)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [4, 4, 16], "float32")
        x.stop_gradient = False
        w = paddle.create_parameter([16], "float32")
        h = x * w
        h = paddle.abs(h) + paddle.sin(h) * paddle.cos(h) + paddle.clip(h, -1.0, 1.0)
        h = h - paddle.max(h, axis=-1, keepdim=True) + paddle.min(h, axis=[1]).unsqueeze(1)
        h = F.dropout(h, p=0.1, training=True)
        h = F.dropout(h, p=0.1, training=False)
        a, b = paddle.split(h, 2, axis=-1)
        c, d = paddle.split(h, [4, 12], axis=-1)
        h = paddle.concat([b, a * 0.5], axis=-1) + paddle.concat([d, c], axis=-1)
        first = h[:, :, 0:8]
        row = h[:, 1, :]
        h = h + paddle.concat([first, first], axis=-1) + row.unsqueeze(1)
        h = paddle.squeeze(paddle.unsqueeze(h, 1), 1)
        h = paddle.flatten(h, 0, 1).reshape([4, 4, 16])
        h = paddle.stack([h, h * 2.0], axis=0).sum(axis=0)
        h = paddle.where(h > 0, h, h * 0.1)
        h = h * w.expand([4, 4, 16])
        h = h * paddle.rand([16])
        parts = paddle.unbind(h, axis=1)
        loss = (parts[0] + parts[1]).mean()
    return main, loss


def main() -> int:
    import paddle

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    program, loss = build()
    (out / "ops.pir").write_text(str(program))
    with paddle.static.program_guard(program):
        paddle.static.append_backward(loss)
    (out / "ops_backward.pir").write_text(str(program))
    return 0


if __name__ == "__main__":
    sys.exit(main())
