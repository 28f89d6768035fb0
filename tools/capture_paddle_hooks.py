"""The hooks a capture installs in Paddle 3.3.1's static engine: every pass it calls is wrapped at
the name the engine looks it up by, and ``str(program)`` is written before and after it
(:class:`Recorder`); two fixes for Paddle bugs on the way (NumPy 2, middle pipeline stages).

Only run under ``/work/paddle-venv`` (tools/capture_paddle.py); never imported by rulepass."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


class Recorder:
    """Writes numbered stage files; holds the dist program once mix2dist has seen it."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.count = 0
        self.dist_program = None
        self.written: list[str] = []
        self.param_names: list[str] = []
        self.data_names: list[str] = []
        # stage -> wall seconds Paddle spent in the wrapped pass (printing apart)
        self.seconds: dict[str, float] = {}

    def dump(self, stage: str, program) -> None:
        name = f"{self.count:02d}_{stage}.pir"
        self.count += 1
        (self.out_dir / name).write_text(str(program))
        self.written.append(name)


def annotate_grad_links(block, state) -> list:
    """Give each forward op that has grad ops `op_id:N` and its grad ops `grad_of:N`."""
    touched = []
    next_id = 0
    for op in block.ops:
        grads = state.op_to_opgrad[op] if op in state.op_to_opgrad else []
        if not grads:
            continue
        op.set_int_attr("op_id", next_id)
        touched.append((op, "op_id"))
        for grad_op in grads:
            if grad_op.has_attr("grad_of"):
                continue  # a grad op shared by two forward ops keeps its first link
            grad_op.set_int_attr("grad_of", next_id)
            touched.append((grad_op, "grad_of"))
        next_id += 1
    return touched


def patch_process_mesh_for_numpy2() -> None:
    """Paddle 3.3.1's ProcessMesh.get_rank_by_dim_and_process_id does int() on a 1-element array,
    which NumPy 2 rejects (shard_dataloader with shard_dims hits it); same result, plain int."""
    from paddle.distributed.auto_parallel.process_mesh import ProcessMesh

    def rank_by_dim(self, dim, process_id):
        if process_id not in self.process_ids:
            return -1
        if dim is None:
            return 0
        axis = dim if isinstance(dim, int) else self.dim_names.index(dim)
        return int(np.argwhere(np.asarray(self.mesh) == process_id)[0][axis])

    ProcessMesh.get_rank_by_dim_and_process_id = rank_by_dim


def patch_shard_dataloader_for_middle_stages() -> None:
    """Paddle 3.3.1's ShardDataloader, on a rank in none of its meshes (a middle pipeline stage:
    pp > 2, inputs on the first stage, labels on the last) with ``shard_dims=None``, indexes
    ``to_list(None)[0]`` and raises TypeError. With ``shard_dims=None`` the rank's mesh position
    is never used (the loader is the given one, unsplit), so the constructor runs as if on the
    first mesh's first rank; nothing later reads the rank."""
    import paddle.distributed as dist
    from paddle.distributed.auto_parallel.api import ShardDataloader

    original = ShardDataloader.__init__

    def init(self, dataloader, meshes, input_keys=None, shard_dims=None, *args, **kwargs):
        flat = []
        for mesh in (meshes if isinstance(meshes, (list, tuple)) else [meshes]):
            flat.extend(mesh if isinstance(mesh, (list, tuple)) else [mesh])
        rank = dist.get_rank()
        if shard_dims is not None or any(rank in m.process_ids for m in flat):
            return original(self, dataloader, meshes, input_keys, shard_dims, *args, **kwargs)
        real = dist.get_rank
        dist.get_rank = lambda *a, **k: flat[0].process_ids[0]
        try:
            return original(self, dataloader, meshes, input_keys, shard_dims, *args, **kwargs)
        finally:
            dist.get_rank = real

    ShardDataloader.__init__ = init


def install_hooks(rec: Recorder, forward_only: bool = False) -> None:
    """Replace the engine's communicator start-up and parameter initialisation by no-ops and
    wrap each pass it calls so that ``rec`` writes the program before and after it; with
    ``forward_only``, raise ForwardCaptured once the forward dist program is written."""
    import paddle
    import paddle.autograd.ir_backward as ir_backward
    import paddle.distributed.auto_parallel.static.engine as engine_mod
    from paddle.distributed.auto_parallel.static.pir_pass import RemovePasses

    engine_mod.Engine._init_comm = lambda self: None
    engine_mod.Engine._initialize = lambda self, mode, init_parameters=True: None

    patch_process_mesh_for_numpy2()
    patch_shard_dataloader_for_middle_stages()

    def around(name, fn, program_of):
        def wrapped(*args, **kwargs):
            program = program_of(*args)
            rec.dump(f"before_{name}", program)
            start = time.perf_counter()
            result = fn(*args, **kwargs)
            rec.seconds[name] = rec.seconds.get(name, 0.0) + time.perf_counter() - start
            rec.dump(f"after_{name}", program)
            return result
        return wrapped

    first = {"mix2dist": True, "op_role": True, "unuseful": 0}
    original_mix2dist = engine_mod.apply_mix2dist_pass

    def mix2dist(program, *args, **kwargs):
        if first["mix2dist"]:
            rec.dist_program = program
            first["mix2dist"] = False
        return original_mix2dist(program, *args, **kwargs)

    engine_mod.apply_mix2dist_pass = mix2dist

    original_op_role = engine_mod.set_all_ops_op_role

    def set_op_role(block, role):
        result = original_op_role(block, role)
        if first["op_role"] and rec.dist_program is not None:
            first["op_role"] = False
            rec.dump("forward_dist", rec.dist_program)
            rec.param_names, rec.data_names = program_names(rec.dist_program)
            if forward_only:
                raise ForwardCaptured
        return result

    engine_mod.set_all_ops_op_role = set_op_role

    engine_mod.complete_chunk_id = around(
        "complete_chunk_id", engine_mod.complete_chunk_id, lambda program, *a: program)
    engine_mod.check_chunk_id = around(
        "check_chunk_id", engine_mod.check_chunk_id, lambda program, *a: program)
    RemovePasses.remove_other_rank_op_pass = staticmethod(around(
        "remove_other_rank_op_pass", RemovePasses.remove_other_rank_op_pass,
        lambda program, *a: program))

    original_chunk = ir_backward._complete_grad_op_chunk_id

    def grad_chunk(block, state):
        touched = annotate_grad_links(block, state)
        rec.dump("before_grad_chunk_id", block.program)
        start = time.perf_counter()
        result = original_chunk(block, state)
        rec.seconds["grad_chunk_id"] = time.perf_counter() - start
        rec.dump("after_grad_chunk_id", block.program)
        # later stages stay Paddle's own text: drop our link attributes again
        for op, attr in touched:
            op.erase_attr(attr)
        return result

    ir_backward._complete_grad_op_chunk_id = grad_chunk

    original_new_pass = engine_mod.new_pass

    def new_pass(name, *args, **kwargs):
        pass_obj = original_new_pass(name, *args, **kwargs)
        if name == "auto_parallel_gradient_merge_pass":
            pass_obj.apply = around("gradient_merge", pass_obj.apply,
                                    lambda mains, *a: mains[0])
        return pass_obj

    engine_mod.new_pass = new_pass

    libpir = paddle.base.libpaddle.pir
    libpir.apply_dist2dense_pass = around(
        "dist2dense", libpir.apply_dist2dense_pass, lambda program, *a: program)

    original_unuseful = engine_mod.remove_unuseful_comm_op_pass

    def unuseful(program):
        result = original_unuseful(program)
        first["unuseful"] += 1
        stage = "after_remove_unuseful_comm_op" if first["unuseful"] == 1 else "dense_final"
        rec.dump(stage, program)
        return result

    engine_mod.remove_unuseful_comm_op_pass = unuseful

    original_pipeline = engine_mod.pipeline_pass

    def pipeline(mains, startups, strategy):
        rec.dump("before_pipeline_pass", mains[0])
        return original_pipeline(mains, startups, strategy)

    engine_mod.pipeline_pass = pipeline



def program_names(program) -> tuple[list[str], list[str]]:
    """(parameter names, ``pd_op.data`` names) of ``program``'s global block, in op order."""
    params, datas = [], []
    for op in program.global_block().ops:
        if op.name() == "builtin.parameter":
            params.append(op.str_attr("parameter_name"))
        elif op.name() == "pd_op.data":
            datas.append(op.str_attr("name"))
    return params, datas



class ForwardCaptured(Exception):
    """Raised after the forward dist program is written in a ``--forward-only`` capture."""
