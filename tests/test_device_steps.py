"""scripts/device_steps.sh, the steps one-call device scripts share, on the CPU: a script's log and files reach the
one tar in $OUT after each pack, the seconds left count down, and an A copy of the installed package carries the
swapped TileLang file. (device_build runs gpu_check.sh's build, which only the device call exercises.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_device_steps_pack_every_step_into_one_tar(tmp_path):
    out, work, copy = tmp_path / "out", tmp_path / "w", tmp_path / "A"
    out.mkdir()
    swapped = tmp_path / "descriptors.py"
    swapped.write_text("# the A arm's file\n")
    script = f"""
source scripts/device_steps.sh
device_begin probe 60
echo "first step"
echo 1 > "$W/step1.csv"; pack
package_copy {copy} {swapped}
echo "left $(left)"
"""
    env = {"OUT": str(out), "DEVICE_WORK": str(work), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    result = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    with tarfile.open(out / "probe.tar") as tar:
        names = tar.getnames()
        assert "w/step1.csv" in names and "w/console.log" in names
    assert (copy / "operator_runtime/tilelang/descriptors.py").read_text() == "# the A arm's file\n"
    assert (copy / "operator_runtime/__init__.py").exists()
    log = (work / "console.log").read_text()
    assert "first step" in log and f"{copy} ready" in log
    left = int(log.split("left ")[1].split()[0])
    assert 0 < left <= 60
