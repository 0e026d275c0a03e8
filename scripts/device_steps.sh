# Steps that a one-call device script shares (docs/runs/s*.sh): source it, then call device_begin first.
#
#   source scripts/device_steps.sh
#   device_begin s44b 575    # NAME (the tar in $OUT) and the seconds the script may use (left() counts down)
#   device_build             # gpu_check.sh's build (BACKENDS=""), then the environment the tests and sweeps need
#   package_copy /tmp/A .device/s44b-A/*.py   # an A arm: the installed package with these TileLang files swapped in
#   ... PYTHONPATH=/tmp/A:$PYTHONPATH python ...; pack
#
# Why: the device call returns at most 8 files from $OUT and a timeout skips a script's last lines, so everything
# goes under /tmp/w and one tar of it is rewritten after each step (session 42's run hb lost a whole arm otherwise).

device_begin() {  # NAME [SECONDS]
  DEVICE_NAME=$1
  DEVICE_END=$(($(date +%s) + ${2:-575}))
  R=$(realpath "$OUT")
  W=${DEVICE_WORK:-/tmp/w}  # a test points it elsewhere
  export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
  mkdir -p "$W"
  exec > >(tee "$W/console.log") 2>&1
  echo "start $(date +%T)"
}

left() { echo $((DEVICE_END - $(date +%s))); }  # seconds the script has left

pack() { tar cf "$R/$DEVICE_NAME.tar" -C "$(dirname "$W")" "$(basename "$W")"; }

device_build() {
  BACKENDS="" OUT="$R/a" scripts/gpu_check.sh --pack-logs >"$W/build.log" 2>&1
  echo "build rc=$? ($(date +%T))"
  export PYTHONPATH=/tmp/site:${PYTHONPATH:-} PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
}

package_copy() {  # DIR FILE...: the installed operator_runtime under DIR, the FILEs copied over its tilelang/
  local dir=$1 site
  shift
  site=$(python -c "import operator_runtime, os; print(os.path.dirname(operator_runtime.__file__))") || return 1
  mkdir -p "$dir" && cp -r "$site" "$dir/" && cp "$@" "$dir/operator_runtime/tilelang/" && echo "$dir ready"
}
