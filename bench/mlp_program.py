"""The forward dist program of Paddle's pipeline MLP test model, for any number of layers.

``tools/capture_paddle.py`` captured this model (``PipelineMLP``: ``MyLinear`` layers of
Linear → ReLU → Linear, a head Linear, an MSE loss) with 4 layers as
``examples/pp2_vpp2/forward.pir``; :func:`pipeline_mlp` writes the same text for ``layers`` layers
(byte-identical to the capture for 4 — ``tests/test_bench_programs.py`` checks it), so the
benchmarks can run our passes on 1,024 layers without committing a 25k-op program or running Paddle.
The first half of the layers sits on stage 0 (mesh [0]), the second half and the head on stage 1
(mesh [1]), with one ``dist_op.reshard`` at the boundary, as Paddle's ``to_static`` places them
before ``complete_chunk_id`` redistributes the layers to virtual chunks.
"""

from __future__ import annotations


def _attr(mesh: int, ndim: int) -> str:
    dims = ",".join(["-1"] * ndim)
    return f"mesh_shape:[1],process_ids:[{mesh}],dims_mappings:[{dims}], placements:[Replicate()]"


def _type(shape, mesh: int, dtype: str = "f32") -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"pd_dist.tensor<{dims}{dtype}, {_attr(mesh, len(shape))}>"


def _op_dist(mesh: int, operands, results) -> str:
    parts = [f"{{mesh:{{shape:[1],process_ids:[{mesh}]}}"]
    parts += [f"operand({i}):{{{_attr(mesh, n)}}}" for i, n in enumerate(operands)]
    parts += [f"result({i}):{{{_attr(mesh, n)}}}" for i, n in enumerate(results)]
    return ",".join(parts) + ",chunk_id:-1}"


def pipeline_mlp(layers: int = 4, hidden: int = 8, inter: int = 16, out: int = 4,
                 batch: int = 2) -> str:
    """The program text (``layers`` even, at least 2). Raises ``ValueError`` otherwise."""
    if layers < 2 or layers % 2:
        raise ValueError(f"layers must be an even number >= 2, got {layers}")
    lines = ["{"]
    n = 0

    def emit(text: str) -> int:
        nonlocal n
        lines.append(f"    (%{n}) = {text}")
        n += 1
        return n - 1

    stage = [0 if i < layers // 2 else 1 for i in range(layers)]
    # Parameters, last created first (Paddle prints them in reverse): head, then layers.
    shapes = []
    for i in range(layers):
        shapes.append((f"linear_{2 * i}", (hidden, inter), (inter,), stage[i]))
        shapes.append((f"linear_{2 * i + 1}", (inter, hidden), (hidden,), stage[i]))
    shapes.append((f"linear_{2 * layers}", (hidden, out), (out,), 1))
    param = {}
    for name, w, b, mesh in reversed(shapes):
        for suffix, shape in (("b_0", b), ("w_0", w)):
            param[(name, suffix)] = emit(
                '"builtin.parameter" () {is_distributed:[false],is_parameter:[true],'
                f"need_clip:[true],op_dist_attr:{_op_dist(mesh, [], [len(shape)])},op_role:0,"
                f'parameter_name:"{name}.{suffix}.dist",persistable:[true],stop_gradient:[false],'
                f"trainable:[true]}} : () -> {_type(shape, mesh)}")

    def data(name: str, shape, mesh: int) -> int:
        return emit(
            f'"pd_op.data" () {{dtype:float32,name:"{name}",'
            f"op_dist_attr:{_op_dist(mesh, [], [2])},op_role:0,persistable:[false],"
            f"place:Place(undefined:0),shape:[{shape[0]},{shape[1]}],stop_gradient:[true]}} : "
            f"() -> {_type(shape, mesh)}")

    x = data("input0", (batch, hidden), 0)
    label = data("label0", (batch, out), 1)

    def linear(x: int, name: str, w_shape, mesh: int, struct: str) -> int:
        rows, cols = w_shape
        y = emit(
            f'"pd_op.matmul" (%{x}, %{param[(name, "w_0")]}) '
            f"{{op_dist_attr:{_op_dist(mesh, [2, 2], [2])},op_role:0,stop_gradient:[false],"
            f'struct_name:"{struct}",transpose_x:false,transpose_y:false}} : '
            f"({_type((batch, rows), mesh)}, {_type((rows, cols), mesh)}) -> "
            f"{_type((batch, cols), mesh)}")
        return emit(
            f'"pd_op.add" (%{y}, %{param[(name, "b_0")]}) '
            f"{{op_dist_attr:{_op_dist(mesh, [2, 1], [2])},op_role:0,stop_gradient:[false],"
            f'struct_name:"{struct}"}} : ({_type((batch, cols), mesh)}, {_type((cols,), mesh)}) '
            f"-> {_type((batch, cols), mesh)}")

    h = x
    for i in range(layers):
        mesh = stage[i]
        if i > 0 and stage[i] != stage[i - 1]:
            h = emit(
                f'"dist_op.reshard" (%{h}) {{op_dist_attr:{{mesh:{{shape:[2],process_ids:[0,1]}},'
                f"operand(0):{{{_attr(0, 2)}}},result(0):{{{_attr(1, 2)}}},chunk_id:-1}},"
                f'op_role:0,stop_gradient:[false],struct_name:"/PipelineMLP/"}} : '
                f"({_type((batch, hidden), 0)}) -> {_type((batch, hidden), 1)}")
        layer = "MyLinear" if i == 0 else f"MyLinear_{i}"
        h = linear(h, f"linear_{2 * i}", (hidden, inter), mesh, f"/PipelineMLP/{layer}/Linear/")
        h = emit(
            f'"pd_op.relu" (%{h}) {{op_dist_attr:{_op_dist(mesh, [2], [2])},op_role:0,'
            f'stop_gradient:[false],struct_name:"/PipelineMLP/{layer}/"}} : '
            f"({_type((batch, inter), mesh)}) -> {_type((batch, inter), mesh)}")
        h = linear(h, f"linear_{2 * i + 1}", (inter, hidden), mesh,
                   f"/PipelineMLP/{layer}/Linear_1/")
    h = linear(h, f"linear_{2 * layers}", (hidden, out), 1, "/PipelineMLP/Linear/")
    diff = emit(
        f'"pd_op.subtract" (%{h}, %{label}) {{op_dist_attr:{_op_dist(1, [2, 2], [2])},'
        f'op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"}} : '
        f"({_type((batch, out), 1)}, {_type((batch, out), 1)}) -> {_type((batch, out), 1)}")
    sq = emit(
        f'"pd_op.square" (%{diff}) {{op_dist_attr:{_op_dist(1, [2], [2])},op_role:0,'
        f'stop_gradient:[false],struct_name:"/MSELoss/"}} : ({_type((batch, out), 1)}) -> '
        f"{_type((batch, out), 1)}")
    axis = emit(
        f'"pd_op.full_int_array" () {{dtype:int64,op_dist_attr:{_op_dist(1, [], [1])},'
        f'op_role:0,place:Place(cpu),stop_gradient:[true],struct_name:"/MSELoss/",value:[]}} : '
        f"() -> {_type((0,), 1, 'i64')}")
    loss = emit(
        f'"pd_op.mean" (%{sq}, %{axis}) {{keepdim:false,op_dist_attr:{_op_dist(1, [2, 1], [0])},'
        f'op_role:0,stop_gradient:[false],struct_name:"/MSELoss/"}} : '
        f"({_type((batch, out), 1)}, {_type((0,), 1, 'i64')}) -> {_type((), 1)}")
    lines.append(
        f'    () = "builtin.shadow_output" (%{loss}) {{op_dist_attr:{{mesh:{{shape:[1],'
        f"process_ids:[1]}},operand(0):{{{_attr(1, 0)}}},chunk_id:-1}},op_role:0,"
        f'output_name:"loss_0"}} : ({_type((), 1)}) -> ')
    lines.append("}")
    return "\n".join(lines) + "\n"
