#!/usr/bin/env bash
# GPU check of the runtime, for a lent GPU machine (one NVIDIA H200, x86-64, Python 3.12 with
# cupy-cuda13x, numpy, mpi4py, pytest, hypothesis, attrs and rich; no network).
#
#   here:   bash bench/prepare_gpu_wheels.sh                  # fills .whl/ (git-ignored)
#   there:  device run: command "bash bench/gpu_check.sh", carry [".whl"], timeout_s 540
#
# Steps, each logged to $OUT/<step>.log ($OUT is the device tool's folder that comes back; without
# it, out/gpu_check/, which git ignores):
#   1. install    our missing pure-Python wheels (.whl/*.whl: lark, array-api-compat,
#                 array-api-strict, rulepass) into /tmp/site, PYTHONPATH=/tmp/site;
#   2. mpi        find an MPI library for mpi4py: its own, else the carried mpich wheel's;
#   3. kernels    tests/test_kernels_cupy.py: kernels on CuPy against the same kernels on NumPy,
#                 and tests/test_collectives_nccl.py (its one-rank test; the 2- and 4-rank ones
#                 skip on one GPU, since NCCL refuses two ranks on one device);
#   4. nccl       one rank, MPI COMM_WORLD of size 1 (singleton start): every collective on a
#                 group of one through NcclCommunicator's public ops (which short-cut a group of one
#                 without calling NCCL), then the same ops through its NCCL transport methods on a
#                 real one-rank NCCL communicator;
#   5. executor   bench/executor.py --xp cupy: the transformer-block training step through the
#                 Executor on CuPy against the same step written in raw CuPy (agreement first);
# then prints a short table (also $OUT/summary.txt). Exits 1 if any step failed.
#
# Python runs with -P (or from bench/) so the checkout's own rulepass/ folder, which lacks the
# engine and runtime subpackages the wheel maps in, never shadows the installed wheel.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOGS="${OUT:-$ROOT/out/gpu_check}"
mkdir -p "$LOGS"
PY="${PYTHON:-python3}"
export PYTHONUNBUFFERED=1
declare -A RESULT NOTE
STEPS=(install mpi kernels nccl executor)

finish() {
    {
        printf '\n%-10s %-6s %s\n' "step" "result" "detail"
        printf '%-10s %-6s %s\n' "----" "------" "------"
        for step in "${STEPS[@]}"; do
            printf '%-10s %-6s %s\n' "$step" "${RESULT[$step]:-skip}" "${NOTE[$step]:-not run}"
        done
    } | tee "$LOGS/summary.txt"
    for step in "${STEPS[@]}"; do
        [[ "${RESULT[$step]:-}" == FAIL ]] && exit 1
    done
    exit 0
}

{
    date -u
    nvidia-smi -L 2>&1
    "$PY" -c 'import sys, numpy, cupy; print(sys.version.split()[0], "numpy", numpy.__version__,
"cupy", cupy.__version__, "CUDA runtime", cupy.cuda.runtime.runtimeGetVersion())' 2>&1
} | tee "$LOGS/machine.log"

# -- 1. install ---------------------------------------------------------------------------------
shopt -s nullglob
WHEELS=()
for wheel in .whl/*.whl; do
    [[ "$(basename "$wheel")" == mpich-* ]] || WHEELS+=("$wheel")  # mpich: step 2, not pip
done
if [[ ${#WHEELS[@]} -eq 0 ]]; then
    RESULT[install]=FAIL
    NOTE[install]="no .whl/*.whl: run bench/prepare_gpu_wheels.sh here and carry .whl"
    finish
fi
if "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site "${WHEELS[@]}" >"$LOGS/install.log" 2>&1 \
        && PYTHONPATH=/tmp/site "$PY" -P -c 'import rulepass.runtime.executor, lark, array_api_strict' \
        >>"$LOGS/install.log" 2>&1; then
    RESULT[install]=ok
    NOTE[install]="${#WHEELS[@]} wheels into /tmp/site"
else
    RESULT[install]=FAIL
    NOTE[install]="see install.log"
    tail -20 "$LOGS/install.log"
    finish
fi
export PYTHONPATH="/tmp/site${PYTHONPATH:+:$PYTHONPATH}"

# -- 2. an MPI library for mpi4py ---------------------------------------------------------------
mpi_probe() {
    timeout 60 "$PY" -P -c 'from mpi4py import MPI; print(MPI.Get_library_version().splitlines()[0])'
}
if version="$(mpi_probe 2>"$LOGS/mpi.log")"; then
    RESULT[mpi]=ok
    NOTE[mpi]="mpi4py's own: $version"
else
    mpich=(.whl/mpich-*.whl)
    if [[ ${#mpich[@]} -gt 0 ]]; then
        rm -rf /tmp/mpich && "$PY" -m zipfile -e "${mpich[0]}" /tmp/mpich
        data=(/tmp/mpich/mpich-*.data/data)
        chmod +x "${data[0]}"/bin/* 2>/dev/null
        export MPI4PY_LIBMPI="${data[0]}/lib/libmpi.so.12"
        export LD_LIBRARY_PATH="${data[0]}/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        export PATH="${data[0]}/bin:$PATH"
    fi
    if version="$(mpi_probe 2>>"$LOGS/mpi.log")"; then
        RESULT[mpi]=ok
        NOTE[mpi]="carried mpich wheel: $version"
    else
        RESULT[mpi]=FAIL
        NOTE[mpi]="mpi4py finds no MPI library; see mpi.log"
    fi
fi

# -- 3. kernel tests on CuPy --------------------------------------------------------------------
timeout 300 "$PY" -P -m pytest -q -rs -p no:cacheprovider tests/test_kernels_cupy.py \
    tests/test_collectives_nccl.py >"$LOGS/kernels.log" 2>&1
status=$?
counts="$(grep -E '(passed|failed|error|skipped)' "$LOGS/kernels.log" | tail -1)"
if [[ $status -eq 0 ]] && grep -q passed <<<"$counts"; then
    RESULT[kernels]=ok
else
    RESULT[kernels]=FAIL
    tail -30 "$LOGS/kernels.log"
fi
NOTE[kernels]="${counts:-no pytest summary (exit $status)}"

# -- 4. one-rank NCCL smoke test ----------------------------------------------------------------
cat >/tmp/nccl_smoke.py <<'PYTHON'
"""Every collective on a group of one through NcclCommunicator, under an MPI world of one."""
import sys

import cupy
from cupy.cuda import nccl
from mpi4py import MPI

from rulepass.runtime.comm.nccl import NcclCommunicator

assert MPI.COMM_WORLD.Get_size() == 1, "run without a launcher, or with mpiexec -n 1"
comm = NcclCommunicator(groups=[(0,)])
group = (0,)
failures = []


def check(what, got, want):
    ok = isinstance(got, cupy.ndarray) and got.shape == want.shape and got.dtype == want.dtype \
        and bool(cupy.all(got == want))
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)


def every_op(prefix, all_reduce, all_gather, reduce_scatter, broadcast, barrier):
    for dtype in ("float32", "float16", "float64", "int32", "int64"):
        x = (cupy.arange(24, dtype=dtype) + 1).reshape(4, 6)
        for op in ("sum", "max", "min", "prod", "avg"):
            check(f"{prefix} all_reduce {op} {dtype}", all_reduce(x, op), x)
        check(f"{prefix} all_gather {dtype}", all_gather(x), x)
        check(f"{prefix} reduce_scatter {dtype}", reduce_scatter(x), x)
        check(f"{prefix} broadcast {dtype}", broadcast(x), x)
    barrier()
    cupy.cuda.get_current_stream().synchronize()
    print(f"ok   {prefix} barrier")


# The public ops: a group of one is answered without a transport call, and moves 0 bytes.
every_op("public", lambda x, op: comm.all_reduce(x, group, op), lambda x: comm.all_gather(x, group),
         lambda x: comm.reduce_scatter(x, group), lambda x: comm.broadcast(x, group, 0),
         lambda: comm.barrier(group))
moved = sum(entry["bytes"] for entry in comm.stats.values())
print(f"{'ok  ' if moved == 0 else 'FAIL'} public ops counted {moved} bytes (a group of one moves 0)")
if moved:
    failures.append("byte counters")

# The NCCL transport itself, on a real one-rank NCCL communicator registered for the group.
comm._groups[group] = nccl.NcclCommunicator(1, nccl.get_unique_id(), 0)
every_op(f"nccl {nccl.get_version()}", lambda x, op: comm._do_all_reduce(x, group, op),
         lambda x: comm._do_all_gather(x, group), lambda x: comm._do_reduce_scatter(x, group, "sum"),
         lambda x: comm._do_broadcast(x, group, 0), lambda: comm._do_barrier(group))
print(f"nccl smoke: {len(failures)} failures")
sys.exit(1 if failures else 0)
PYTHON
if [[ "${RESULT[mpi]}" != ok ]]; then
    RESULT[nccl]=FAIL
    NOTE[nccl]="not run: no MPI library"
else
    # MPI's singleton start (no launcher) gives COMM_WORLD of size 1, as `mpiexec -n 1` would;
    # it also works where the only mpiexec is Open MPI's, which refuses to run as root.
    timeout 180 "$PY" -P /tmp/nccl_smoke.py >"$LOGS/nccl.log" 2>&1
    status=$?
    checks="$(grep -cE '^(ok|FAIL)' "$LOGS/nccl.log")"
    failed="$(grep -cE '^FAIL' "$LOGS/nccl.log")"
    if [[ $status -eq 0 ]]; then
        RESULT[nccl]=ok
    else
        RESULT[nccl]=FAIL
        tail -20 "$LOGS/nccl.log"
    fi
    NOTE[nccl]="MPI world of 1: $checks checks, $failed failed (exit $status)"
fi

# -- 5. executor on CuPy vs raw CuPy ------------------------------------------------------------
timeout 300 "$PY" bench/executor.py --xp cupy --repeat 30 --profile >"$LOGS/executor.log" 2>&1
status=$?
sed -n '1,/^\[4096/p' "$LOGS/executor.log" | head -12
ratio="$(grep -oE 'reference <= [0-9.]+ \(median of paired wall ratios\): [0-9.]+, [a-z]+' \
    "$LOGS/executor.log" | sed 's/.*: //')"
if [[ $status -eq 0 ]]; then
    RESULT[executor]=ok
    NOTE[executor]="executor/raw CuPy ${ratio:-?} (target <= 1.1); table in executor.log"
else
    RESULT[executor]=FAIL
    NOTE[executor]="exit $status; see executor.log"
    tail -20 "$LOGS/executor.log"
fi

finish
