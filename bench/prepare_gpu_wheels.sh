#!/usr/bin/env bash
# Fill .whl/ with the wheels bench/gpu_check.sh installs on a lent GPU machine, which has Python
# 3.12, cupy-cuda13x, numpy, mpi4py, pytest, hypothesis, attrs and rich but none of our other
# dependencies, and no network (see the device tool's README, "carry ... .whl").
#
#   bash bench/prepare_gpu_wheels.sh          # from anywhere; writes <repo>/.whl/
#
# Downloads, for CPython 3.12 on manylinux x86-64 (pip matches the platform tags exactly, so all
# the usual ones are listed): lark, array-api-compat, array-api-strict (pure Python) and mpich
# (MPI for mpi4py there, used only if its own mpi4py finds no MPI library; ~20 MB), then builds a
# wheel of rulepass itself from this checkout. Versions are pinned to the ones our tests run with.
# .whl/ is ignored by git (.gitignore) and travels with `run(..., carry=[".whl"])`.
# Needs pip and network access here. Exits non-zero on the first failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
WHEELS="$ROOT/.whl"

PINNED=(
    "lark==1.3.1"
    "array-api-compat==1.16.0"
    "array-api-strict==2.6.1"
    "mpich==5.0.2"
)

rm -rf "$WHEELS"
mkdir -p "$WHEELS"
"$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: \
    --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform manylinux1_x86_64 \
    -d "$WHEELS" "${PINNED[@]}"
# Our own wheel, built from the working tree (pure Python, so it installs on 3.12 as well).
"$PYTHON" -m pip wheel --quiet --no-deps -w "$WHEELS" "$ROOT"

ls -l "$WHEELS"
du -sh "$WHEELS"
