"""Capture PaddlePaddle 3.3.1 programs at each auto-parallel pass boundary, plus reference numerics.

Run with the Paddle venv (Paddle is a tool here, never a rulepass dependency):

    /work/paddle-venv/bin/python tools/capture_paddle.py                 # every config
    /work/paddle-venv/bin/python tools/capture_paddle.py pp2_fthenb mp2  # some configs
    /work/paddle-venv/bin/python tools/capture_paddle.py pp2_vpp2 --layers 1024 --out /tmp/vpp1024
                                                   # rank 0 at scale, programs only (benchmarks)

For each configuration and rank a fresh process builds the model with ``dist.to_static`` and
runs the static engine's program preparation (``Engine._prepare_program``) on CPU, with the
communicator start-up and parameter initialisation replaced by no-ops. Every pass the engine
calls is wrapped at the name the engine looks it up by, and ``str(program)`` is written before
and after it to ``tests/data/paddle/<cfg>/rank<r>/<NN>_<stage>.pir``. A last process trains the
same model without distribution for a few steps (SGD or AdamW, fixed seeds) and writes the
numerics.
See tests/data/paddle/README.md for the stage list.

This file is the command line; the work is in its sibling modules: ``capture_paddle_configs.py``
(the configurations), ``capture_paddle_models.py`` (model, data, loaders, Strategy),
``capture_paddle_hooks.py`` (the wrapped passes), ``capture_paddle_workers.py`` (the per-rank and
serial capture processes), ``capture_paddle_reference.py`` (the numerics) and
``capture_paddle_examples.py`` (``examples/<cfg>/``); the dist.parallelize configurations and
models come from ``paddle_parallelize_models.py``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# sibling modules, not a package; the names other tools read (tools/verify_paddle_numerics.py)
import paddle_parallelize_models as pm  # noqa: E402
from capture_paddle_configs import (  # noqa: E402
    ADAMW, CONFIGS, DATA_DIR, EXAMPLE_CONFIGS, EXAMPLES_DIR, LEARNING_RATE, REPO, SEED, STEPS)
from capture_paddle_examples import write_example  # noqa: E402
from capture_paddle_hooks import patch_process_mesh_for_numpy2  # noqa: E402
from capture_paddle_models import (  # noqa: E402
    build_model, make_data, make_dist_loader, make_loader, make_loss, make_optimizer,
    make_strategy)
from capture_paddle_reference import reference  # noqa: E402
from capture_paddle_workers import capture, capture_serial  # noqa: E402

__all__ = ["ADAMW", "CONFIGS", "DATA_DIR", "EXAMPLE_CONFIGS", "EXAMPLES_DIR", "LEARNING_RATE",
           "REPO", "SEED", "STEPS", "build_model", "capture", "capture_serial", "make_data",
           "make_dist_loader", "make_loader", "make_loss", "make_optimizer", "make_strategy",
           "patch_process_mesh_for_numpy2", "reference", "write_example"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="*", help=f"default: all of {', '.join(CONFIGS)}")
    parser.add_argument("--worker", choices=["capture", "reference", "serial"], help=argparse.SUPPRESS)
    parser.add_argument("--rank", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--layers", type=int,
                        help="capture one pp2 configuration with this many MyLinear layers "
                             "(rank 0 by default, programs only, into --out; for benchmarks)")
    parser.add_argument("--out", type=Path, help="output folder of a --layers capture")
    parser.add_argument("--data-dir", type=Path,
                        help=f"write the configurations here instead of {DATA_DIR} "
                             "(scratch captures; no examples/ refresh)")
    parser.add_argument("--forward-only", action="store_true",
                        help="parallelize configurations: rank 0 up to 00_forward_dist only "
                             "(the global view), the serial program and the reference numerics")
    parser.add_argument("--list", action="store_true", help="print the configuration names")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CONFIGS))
        return 0
    scratch = args.data_dir is not None
    data_dir = args.data_dir.resolve() if scratch else DATA_DIR
    if scratch:
        data_dir.mkdir(parents=True, exist_ok=True)
    passed = (["--data-dir", str(data_dir)] if scratch else []) + \
        (["--forward-only"] if args.forward_only else [])

    if args.worker == "capture":
        capture(args.configs[0], args.rank, args.layers, args.out, args.forward_only, data_dir)
        return 0
    if args.layers is not None:
        if len(args.configs) != 1 or args.out is None:
            parser.error("--layers needs exactly one configuration and --out")
        rc = subprocess.call([sys.executable, __file__, args.configs[0], "--worker", "capture",
                              "--rank", str(args.rank), "--layers", str(args.layers),
                              "--out", str(args.out.resolve())], cwd=REPO)
        return rc
    if args.worker == "reference":
        reference(args.configs[0], data_dir)
        return 0
    if args.worker == "serial":
        capture_serial(args.configs[0], data_dir)
        return 0

    status = 0
    for name in args.configs or list(CONFIGS):
        cfg = CONFIGS[name]
        if args.forward_only and cfg["kind"] != "parallelize":
            parser.error(f"--forward-only takes dist.parallelize configurations, not {name}")
        ranks = [0] if args.forward_only else range(cfg["world_size"])
        if args.forward_only:
            shutil.rmtree(data_dir / name, ignore_errors=True)
        for rank in ranks:
            print(f"== {name} rank {rank}", flush=True)
            rc = subprocess.call([sys.executable, __file__, name, "--worker", "capture",
                                  "--rank", str(rank), *passed], cwd=REPO)
            status |= rc
        print(f"== {name} reference", flush=True)
        rc = subprocess.call([sys.executable, __file__, name, "--worker", "reference", *passed],
                             cwd=REPO)
        status |= rc
        if cfg["kind"] == "parallelize":
            print(f"== {name} serial", flush=True)
            status |= subprocess.call([sys.executable, __file__, name, "--worker", "serial",
                                       *passed], cwd=REPO)
        # EXAMPLES_ONLY: the example folder is written from a scratch capture too (the whole
        # capture is over the corpus budget)
        if rc == 0 and ((name in EXAMPLE_CONFIGS and not scratch) or name in pm.EXAMPLES_ONLY):
            write_example(name, data_dir)
    return status


if __name__ == "__main__":
    sys.exit(main())
