#!/usr/bin/env bash
# The SASS and register counts of the kernels whose mangled names match REGEX, on a machine without a GPU.
#   scripts/cpu_sass.sh SOURCE.cu|FILE.cubin|FILE.so REGEX [ARCH]      (ARCH: sm_90 unless given; the build's sm_80 too)
# A .cu is compiled to a cubin with the library's flags (src/cpp on the include path, -O3, relaxed constexpr,
# -lineinfo, ptxas's spill warnings as errors), and ptxas -v's registers / spills of the matching kernels printed first.
# The CPU machine's CUDA 13 toolkit has nvcc and ptxas but no cuobjdump / nvdisasm: NVIDIA publishes both as wheels, so
# the first call downloads them (pinned) into ~/.cache/operator-runtime/cuda-tools (ORT_CUDA_TOOLS overrides it).
# Why: ptxas -v counts registers, but whether every load issues before the first use (what a kernel that waits out one
# round of loads is timed by) shows only in the SASS (session 62, run kg: 5 fewer registers, 10-30 % slower).
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,3p "$0" >&2; exit 2; }
src=$1 regex=$2 arch=${3:-sm_90}
root=$(cd "$(dirname "$0")/.." && pwd)
tools=${ORT_CUDA_TOOLS:-$HOME/.cache/operator-runtime/cuda-tools}
cuobjdump=$tools/nvidia/cu13/bin/cuobjdump
if [ ! -x "$cuobjdump" ]; then
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tools/wheels" \
    "nvidia-cuda-cuobjdump==13.5.37" "nvidia-cuda-nvdisasm==13.5.37" >&2
  for w in "$tools"/wheels/*.whl; do python3 -m zipfile -e "$w" "$tools"; done
  chmod +x "$tools"/nvidia/cu13/bin/*
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cubin=$src
if [[ $src == *.cu ]]; then
  cubin=$work/kernels.cubin
  nvcc -DORT_CUDA_ARCHS=\"${arch#sm_}\" -DORT_WITH_CUDA=1 -I"$root/src/cpp" -I"$root/tests/bench/sweeps" -O3 -DNDEBUG \
    -std=c++17 -arch="$arch" --expt-relaxed-constexpr -lineinfo -Xptxas -v,-warn-spills,-warn-lmem-usage,-Werror \
    -x cu -cubin "$src" -o "$cubin" 2>"$work/ptxas.txt" || { grep -v "^ptxas info" "$work/ptxas.txt" >&2; exit 1; }
  # ptxas names the kernel, then its stack and spills, then its registers
  awk -v re="$regex" '/Compiling entry function/ {on = ($0 ~ re); if (on) {split($0, q, "\047"); print "ptxas:", q[2]}}
    on && (/spill/ || /Used [0-9]+ registers/) {print "      ", $0}' "$work/ptxas.txt"
fi
"$cuobjdump" -sass "$cubin" | awk -v re="$regex" '/Function :/ {on = ($0 ~ re)} on'
