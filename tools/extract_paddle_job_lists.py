"""Extract the zero-bubble job lists from Paddle 3.3.1 itself, for tests/data/paddle_job_lists.json.

Run with Paddle's interpreter (Paddle is a tool, never a dependency of rulepass):

    /work/paddle-venv/bin/python tools/extract_paddle_job_lists.py > tests/data/paddle_job_lists.json

For each configuration this instantiates Paddle's own pass class (``pipeline_scheduler_ZBH1`` or
``pipeline_scheduler_ZBVPP``), sets the attributes Paddle's ``pipeline_pass`` sets (pp_degree,
pp_stage, num_micro_batches, vpp_degree) and calls its ``_create_job_list``, printing every job as
``type:micro_batch``. ZBVPP in 3.3.1 calls ``self._get_max_memory()``, which Paddle defines nowhere,
and reads ``program_max_mem_usages`` / ``program_mem_usages`` / ``base_memory``, which nothing fills;
the script supplies Paddle's earlier defaults: no memory limit (``None``) and zero memory use for
every job type and chunk. For ZBVPP it also records the cost model's end time of every job (the
``VScheduleCreator`` result ``_create_job_list`` keeps: the first with the smallest makespan), keyed
``type,chunk,stage,micro_batch``, in the units of ``program_runtimes`` [61, 72, 71, 34, 3].
Configurations Paddle rejects are recorded with the assertion message under "error".
"""

import collections
import json
import sys

import paddle
from paddle.distributed.passes.pipeline_scheduler_pass import pipeline_zero_bubble as zb

paddle.enable_static()

ZBH1_CONFIGS = [(pp, m) for pp in (1, 2, 3, 4) for m in (1, 2, 3, 4, 5, 8) ]
ZBVPP_CONFIGS = [(2, 2, 2), (2, 2, 3), (2, 2, 4), (3, 3, 2), (4, 4, 2), (4, 4, 3), (8, 8, 2),
                 (2, 4, 2), (4, 2, 2)]
JOB_TYPES = ["forward", "backward_w", "backward_b"]  # VScheduleCreator.job_types, the job id order

recorded = []


class RecordingCreator(zb.VScheduleCreator):
    """VScheduleCreator that remembers each top-level create_v_schedule result."""

    depth = 0

    def create_v_schedule(self, *args, **kwargs):
        RecordingCreator.depth += 1
        try:
            result = super().create_v_schedule(*args, **kwargs)
        finally:
            RecordingCreator.depth -= 1
        if RecordingCreator.depth == 0:
            recorded.append((self, result))
        return result


zb.VScheduleCreator = RecordingCreator
zb.PipelineZeroBubbleVirtualPipelinePass._get_max_memory = lambda self: None


def jobs_text(job_list):
    return " ".join(f"{job.type()}:{job.micro_batch_id()}" for job in job_list)


def zbh1(pp, stage, m):
    p = zb.PipelineZeroBubblePipelinePass()
    for key, value in (("pp_degree", pp), ("pp_stage", stage), ("num_micro_batches", m)):
        p.set_attr(key, value)
    return jobs_text(p._create_job_list())


def zbvpp(pp, stage, m, vpp):
    p = zb.PipelineZeroBubbleVirtualPipelinePass()
    for key, value in (("pp_degree", pp), ("pp_stage", stage), ("num_micro_batches", m),
                       ("vpp_degree", vpp)):
        p.set_attr(key, value)
    zero = collections.defaultdict(int)
    p.program_mem_usages = [zero] * pp
    p.program_max_mem_usages = [zero] * pp
    p.base_memory = [0] * pp
    recorded.clear()
    text = jobs_text(p._create_job_list())
    best = None
    for creator, (schedule, end_time, _) in recorded:
        if best is None or max(end_time) < max(best[1]):
            best = (schedule, end_time, creator)
    schedule, end_time, creator = best
    n = creator.num_model_chunks * creator.num_stage * creator.num_micro_batch
    ends = {}
    for job_id, end in enumerate(end_time):
        kind, rest = divmod(job_id, n)
        chunk, rest = divmod(rest, creator.num_stage * creator.num_micro_batch)
        stage, micro_batch = divmod(rest, creator.num_micro_batch)
        ends[f"{JOB_TYPES[kind]},{chunk},{stage},{micro_batch}"] = end
    return text, ends


def main():
    out = {"paddle": paddle.__version__, "ZBH1": [], "ZBVPP": []}
    for pp, m in ZBH1_CONFIGS:
        for stage in range(pp):
            entry = {"pp": pp, "stage": stage, "micro_batches": m}
            try:
                entry["jobs"] = zbh1(pp, stage, m)
            except AssertionError as e:
                entry["error"] = str(e)
            out["ZBH1"].append(entry)
    for pp, m, vpp in ZBVPP_CONFIGS:
        entry = {"pp": pp, "micro_batches": m, "vpp": vpp, "stages": []}
        try:
            for stage in range(pp):
                text, ends = zbvpp(pp, stage, m, vpp)
                entry["stages"].append(text)
            entry["end_times"] = ends
        except AssertionError as e:
            entry = {"pp": pp, "micro_batches": m, "vpp": vpp, "error": str(e)}
        out["ZBVPP"].append(entry)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
