#!/usr/bin/env bash
# Downloads the pure-Python packages the GPU image lacks into .whl/, for the device tool's carry: Liger-Kernel (a
# bench peer) and pytest-xdist with execnet (TileLang compiles each kernel on one core; 8 test workers compile
# 8 at a time).
# The GPU machine has no package index; scripts/gpu_check.sh installs whatever lies in .whl/.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
grep -qx '/.whl/' "$root/.git/info/exclude" 2>/dev/null || echo '/.whl/' >> "$root/.git/info/exclude"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  -d "$root/.whl" "liger-kernel==0.8.5" "pytest-xdist==3.8.0" "execnet==2.1.2"
ls -la "$root/.whl"
