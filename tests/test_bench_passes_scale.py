"""bench/passes_scale.py on a committed Paddle capture (the 4-layer pp2_vpp2 model, rank 0, as
a --captures folder): every pass runs on Paddle's input and must print Paddle's output, and the
table shows each pass."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "passes_scale.py"


def test_passes_scale_on_a_paddle_capture(tmp_path):
    shutil.copytree(ROOT / "tests" / "data" / "paddle" / "pp2_vpp2" / "rank0", tmp_path / "vpp4")
    done = subprocess.run([sys.executable, str(BENCH), "--captures", str(tmp_path),
                           "--layers", "4", "--repeat", "1"], capture_output=True, text=True,
                          timeout=120)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "byte-exact: every pass" in out
    for name in ("complete_chunk_id", "grad_chunk", "prune_other_ranks", "check_chunk_id",
                 "dist_to_dense"):
        assert name in out


def test_passes_scale_reports_a_pass_that_does_not_conform(tmp_path):
    folder = tmp_path / "vpp4"
    shutil.copytree(ROOT / "tests" / "data" / "paddle" / "pp2_vpp2" / "rank0", folder)
    after = next(folder.glob("[0-9][0-9]_after_check_chunk_id.pir"))
    after.write_text(after.read_text().replace("chunk_id:1", "chunk_id:7", 1))
    done = subprocess.run([sys.executable, str(BENCH), "--captures", str(tmp_path),
                           "--layers", "4", "--repeat", "1"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert "byte-exact: NO" in done.stdout
