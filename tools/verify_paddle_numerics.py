"""Run the captured configurations through Paddle's own distributed executor on CPU and compare
its losses and final parameters with tests/data/paddle/<cfg>/reference.json / params_final.npz.

    /work/paddle-venv/bin/python tools/verify_paddle_numerics.py [cfg ...]

Each configuration is started with `paddle.distributed.launch` (one CPU process per rank). Paddle
3.3.1 cannot start static auto-parallel communicators on CPU, so this script (a) creates gloo
communication contexts for the process groups itself, and (b) replaces the engine's parameter
initialisation (its eager reshard segfaults on CPU) with one that writes each rank's slice of
params.npz into the scope. Paddle's CPU `send_v2`/`recv_v2` kernels only raise "not supported",
so for pipelines (c) each `send_v2` becomes an `all_reduce` of the sent tensor on the same ring and
each `recv_v2` an `all_reduce` of zeros of its `out_shape` (the sum is the sent tensor), with the
cross-job stream-event attributes dropped (one CPU stream), and (d) since
those are blocking collectives, the plan's jobs run one micro-batch at a time (forward chunks up,
backward chunks down, then the optimizer) instead of Paddle's interleaved schedule, which would
deadlock. The per-job programs are Paddle's apart from (c); the job order changes no numbers.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import capture_paddle as capture  # noqa: E402

STORE_PORT_BASE = 36100
RESULTS = Path(tempfile.gettempdir()) / "rulepass_verify_paddle"


def mesh_array(process_mesh) -> np.ndarray:
    return np.asarray(process_mesh.process_ids).reshape(process_mesh.shape)


def local_slice(array: np.ndarray, value, rank: int) -> np.ndarray:
    """This rank's block of a global array, from the value's dist attribute."""
    attr = value.dist_attr()
    mesh = mesh_array(attr.process_mesh)
    coords = np.argwhere(mesh == rank)[0]
    index = []
    for dim, mesh_dim in enumerate(attr.dims_mapping):
        if mesh_dim == -1:
            index.append(slice(None))
        else:
            parts = mesh.shape[mesh_dim]
            size = array.shape[dim] // parts
            index.append(slice(coords[mesh_dim] * size, (coords[mesh_dim] + 1) * size))
    return array[tuple(index)]


def replace_p2p_with_all_reduce(program) -> int:
    """Swap send_v2/recv_v2 for the equivalent blocking all_reduce on the same ring."""
    import paddle

    count = 0
    for op in list(program.global_block().ops):
        # cross-job stream events were recorded by the p2p ops; on one CPU stream they are moot
        for attr in ("events_to_wait", "event_to_record", "force_record_event"):
            if op.has_attr(attr):
                op.erase_attr(attr)
        if op.name() == "pd_op.send_v2":
            attrs = op.attrs()
            paddle.pir.set_insertion_point(op)
            sent = paddle._C_ops.all_reduce(op.operand_source(0), attrs["ring_id"], 0)
            op.erase()
            count += 1
        elif op.name() == "pd_op.recv_v2":
            attrs = op.attrs()
            paddle.pir.set_insertion_point(op)
            zeros = paddle._C_ops.full(list(attrs["out_shape"]), 0.0, attrs["dtype"],
                                       paddle.CPUPlace())
            received = paddle._C_ops.all_reduce(zeros, attrs["ring_id"], 0)
            op.result(0).replace_all_uses_with(received)
            op.erase()
            count += 1
    return count


def sequential_jobs(jobs: list) -> list:
    """One micro-batch at a time: recv_forward/forward by chunk up, backward/send_backward by chunk
    down, optimizer last. Job types look like `forward`, `forward1`, `send_backward0`."""

    def key(job):
        kind = job.type().rstrip("0123456789")
        chunk = int(job.type()[len(kind):] or 0)
        if kind == "optimizer":
            return (1, 0, 0, 0)
        phase = {"recv_forward": (0, chunk, 0), "forward": (0, chunk, 1),
                 "backward": (1, -chunk, 0), "send_backward": (1, -chunk, 1)}[kind]
        return (0, job.micro_batch_id(), *phase)

    return sorted(jobs, key=key)


def worker(cfg_name: str) -> None:
    import paddle
    import paddle.distributed as dist
    import paddle.distributed.auto_parallel.static.engine as engine_mod
    from paddle import nn
    from paddle.base import core
    from paddle.distributed.auto_parallel.static import process_group

    # DistModel calls fleet.init when POD_NAME is set, which allocates ring ids of its own and
    # changes what the passes do; the capture runs without it, so this run does too.
    os.environ.pop("POD_NAME", None)
    cfg = capture.CONFIGS[cfg_name]
    root = capture.DATA_DIR / cfg_name
    rank = dist.get_rank()
    params = dict(np.load(root / "params.npz"))
    # optimizer state (AdamW) is persistable pd_op.data; treat it like the parameters
    opt_state = dict(np.load(root / "opt_state.npz")) if (root / "opt_state.npz").exists() else {}
    data = np.load(root / "data.npz")
    reference = json.loads((root / "reference.json").read_text())

    capture.patch_process_mesh_for_numpy2()

    group_stores = []  # kept alive for the whole run

    def instantiate(self):
        if self._is_instantiate:
            return
        if self.nranks >= 2 and rank in self.ranks:
            # gloo's rendezvous keys do not name the ring, so each group but the world gets a
            # store of its own to keep the groups' rendezvous apart
            if self.id == 0:
                store = core.create_or_get_global_tcp_store()
            else:
                store = core.TCPStore("127.0.0.1", STORE_PORT_BASE + self.id,
                                      rank == self.ranks[0], self.nranks)
                group_stores.append(store)
            core.CommContextManager.create_gloo_comm_context(
                store, str(self.id), self.local_rank(rank), self.nranks)
        self._is_instantiate = True

    process_group.ProcessGroup.instantiate = instantiate

    def initialize(self, mode, init_parameters=True):
        if mode != "train" or self._executor is not None:
            return
        self._place = paddle.CPUPlace()
        self._executor = paddle.static.Executor(self._place)
        scope = paddle.static.global_scope()
        dist_program = self._pir_dist_main_progs[mode]
        for op in dist_program.global_block().ops:
            if op.name() == "builtin.parameter":
                name = op.str_attr("parameter_name")
                value = local_slice(params[name], op.result(0), rank)
                scope.var(name).get_tensor().set(np.ascontiguousarray(value), self._place)
            elif op.name() == "pd_op.data" and op.str_attr("name") in opt_state:
                name = op.str_attr("name")
                value = local_slice(opt_state[name], op.result(0), rank)
                scope.var(name).get_tensor().set(np.ascontiguousarray(value), self._place)
            elif op.name() == "pd_op.data" and op.str_attr("name").startswith("learning_rate"):
                scope.var(op.str_attr("name")).get_tensor().set(
                    np.array(reference["learning_rate"], dtype="float32"), self._place)
        for kwarg in dist_program.global_block().kwargs().items():
            name, value = kwarg
            scope.var(name).get_tensor().set(
                np.zeros(value._local_shape, dtype="float32"), self._place)
        if self._job_plan is not None:
            self._executor._set_plan(self._job_plan)

    engine_mod.Engine._initialize = initialize

    original_pipeline_pass = engine_mod.pipeline_pass

    def pipeline_pass(mains, startups, strategy):
        plan = original_pipeline_pass(mains, startups, strategy)
        programs = {t: plan.ir_program(t) for t in plan.job_types()}
        for program in programs.values():
            replace_p2p_with_all_reduce(program)
        return core.Plan(sequential_jobs(list(plan.job_list())), programs)

    engine_mod.pipeline_pass = pipeline_pass
    paddle.base.set_flags({"FLAGS_enable_pir_api": 1})

    model, meshes = capture.build_model(cfg, distributed=True)
    dist_loader = capture.make_dist_loader(cfg, meshes)
    optimizer = capture.make_optimizer(cfg, model.parameters())
    dist_model = dist.to_static(model, dist_loader, nn.MSELoss(), optimizer,
                                capture.make_strategy(cfg))
    dist_model.train()
    engine = dist_model._engine

    dist_program = engine._pir_dist_main_progs["train"]
    feeds = {}
    for op in dist_program.global_block().ops:
        if op.name() == "pd_op.data" and op.str_attr("name") in data.files:
            feeds[op.str_attr("name")] = op.result(0)
    feed_order = engine.get_feed_name_list()
    losses = []
    for step in range(capture.STEPS):
        batch = []
        for name in feed_order:
            # the whole step's batch (this rank's part along dp); the executor splits micro-batches
            value = data[name][step]
            if name in feeds:  # fed on the ranks that hold it; elsewhere the value is unused
                value = local_slice(value, feeds[name], rank)
            tensor = core.DenseTensor()
            tensor.set(np.ascontiguousarray(value), paddle.CPUPlace())
            batch.append(tensor)
        loss = dist_model(*batch)
        losses.append(None if loss is None else float(np.mean(np.asarray(loss))))

    scope = paddle.static.global_scope()
    expected_final = dict(np.load(root / "params_final.npz"))
    if (root / "opt_state_final.npz").exists():
        expected_final.update(np.load(root / "opt_state_final.npz"))
    max_abs, max_rel, close = 0.0, 0.0, True
    for op in dist_program.global_block().ops:
        name = (op.str_attr("parameter_name") if op.name() == "builtin.parameter" else
                op.str_attr("name") if op.name() == "pd_op.data" else None)
        if name in expected_final:
            got = np.array(scope.find_var(name).get_tensor())
            want = local_slice(expected_final[name], op.result(0), rank)
            max_abs = max(max_abs, float(np.max(np.abs(got - want))))
            max_rel = max(max_rel, float(np.max(np.abs(got - want) / np.abs(want))))
            close &= bool(np.allclose(got, want, rtol=1e-5, atol=1e-6))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{cfg_name}_rank{rank}.json").write_text(json.dumps(
        {"losses": losses, "max_abs_err": max_abs, "max_rel_err": max_rel, "allclose": close}))


def compare(cfg_name: str) -> bool:
    """Print each rank's losses and final-parameter (and optimizer-state) error next to the
    reference."""
    cfg = capture.CONFIGS[cfg_name]
    reference = json.loads((capture.DATA_DIR / cfg_name / "reference.json").read_text())
    ok = True
    for rank in range(cfg["world_size"]):
        result = json.loads((RESULTS / f"{cfg_name}_rank{rank}.json").read_text())
        print(f"{cfg_name} rank{rank}: final params max abs err {result['max_abs_err']:.3g}, "
              f"max rel err {result['max_rel_err']:.3g}, allclose(rtol=1e-5, atol=1e-6) "
              f"{result['allclose']}; losses {result['losses']} (reference {reference['losses']})")
        ok &= result["allclose"]
    return ok


def main() -> int:
    if os.environ.get("RULEPASS_VERIFY_WORKER"):
        worker(os.environ["RULEPASS_VERIFY_WORKER"])
        return 0
    status = 0
    for name in sys.argv[1:] or list(capture.CONFIGS):
        cfg = capture.CONFIGS[name]
        log_dir = RESULTS / f"log_{name}"
        shutil.rmtree(log_dir, ignore_errors=True)
        env = dict(os.environ, RULEPASS_VERIFY_WORKER=name)
        rc = subprocess.call([sys.executable, "-m", "paddle.distributed.launch", "--log_dir",
                              str(log_dir), "--nproc_per_node", str(cfg["world_size"]), __file__],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if rc != 0:
            print(f"{name}: Paddle run failed (rc {rc}); see {log_dir}/workerlog.*")
            status = 1
            continue
        status |= 0 if compare(name) else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
