# Steps that a one-call device script shares (docs/runs/s*.sh): source it, then call device_begin first.
#
#   source scripts/device_steps.sh
#   device_begin s44b 575    # NAME (the tar in $OUT) and the seconds the script may use (left() counts down)
#   device_build             # gpu_check.sh's build (BACKENDS=""), then the environment the tests and sweeps need
#   package_copy /tmp/A .device/s44b-A/*.py   # an A arm: the installed package with these TileLang files swapped in
#   build_a                  # or: the tree as it is now built into /tmp/A in the background (CUDA A arms); change
#                            # the tree for B, device_build, then wait_a
#   ab_twice bench 90 60 python -m operator_runtime bench --op softmax --out '$AB_OUT'   # A B A B, A from /tmp/A
#   ab_summary bench         # each arm's bench rows, ours against torch, one line a row
#   ab_ratio bench           # or each row's A / B ratio (op, case, dtype)
#   sweep_summary short lanes   # the rows of $W/short.csv, $W/lanes.csv (s58-few-rows-sweep.py, two arms or more)
#   switch_twice few ORT_X "0 2 3" 90 python -m operator_runtime bench --op reduce_sum --out '$AB_OUT'   # one build,
#                            # an experiment switch read at create: each value in turn, twice; then ab_summary few
#   sanitize_pair tests/ops/test_softmax.py -k bfloat16   # memcheck and racecheck side by side on nvidia
#   sanitize_start memcheck copy tests/ops/test_copy.py   # or one tool over one shard; after the shards: sanitize_wait
#   sanitize_spread racecheck sm-f32 8 tests/ops/test_softmax.py -k float32   # or those tests dealt into 8 shards
#   sanitize_suite 1         # or the whole nvidia suite's shards, part 1 of 3 (a call each); then sanitize_wait
#   deselect_finished .device/s50-done/*.log   # DESELECT: --deselect for what earlier -v logs passed or skipped
#   bench_ops reduce_sum softmax copy  # the whole bench's rows of these ops, both backends, every peer, one op a step
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

A_DIR=${A_DIR:-/tmp/A}  # where build_a installs the A arm (a test points it elsewhere)

build_a() {  # the tree as it is now, built and installed into $A_DIR in the background (wait_a waits)
  mkdir -p /tmp/srcA &&
    tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcA
  (cd /tmp/srcA && CMAKE_CUDA_ARCHITECTURES=90 ORT_CUDA=ON python -m pip install -q --no-build-isolation --no-deps \
    --target "$A_DIR" -Cbuild-dir=/tmp/buildA . >"$W/build-A.log" 2>&1
  echo "build A rc=$? ($(date +%T))") &
  BUILD_A_PID=$!
}

wait_a() { wait "$BUILD_A_PID"; }  # by its pid: a bare `wait` would also wait for the console's tee

ab_twice() {  # NAME FIRST_SECONDS LATER_SECONDS CMD...: CMD for A then B, twice, each under its timeout. A runs with
  # $A_DIR first on PYTHONPATH. A literal '$AB_OUT' in CMD becomes $W/NAME-<A|B>-<1|2>; its log is that plus .log.
  local name=$1 first=$2 later=$3 i v limit out
  shift 3
  for i in 1 2; do
    for v in A B; do
      out="$W/$name-$v-$i" limit=$([ "$i" = 1 ] && echo "$first" || echo "$later")
      if [ "$v" = A ]; then
        PYTHONPATH="$A_DIR:${PYTHONPATH:-}" timeout "$limit" "${@//\$AB_OUT/$out}" >"$out.log" 2>&1
      else
        timeout "$limit" "${@//\$AB_OUT/$out}" >"$out.log" 2>&1
      fi
      echo "$name $v $i rc=$? ($(date +%T))"
      rm -f "$out"/*.png
      pack
    done
  done
}

sanitize_start() {  # TOOL NAME PYTEST_ARGS...: TOOL (memcheck or racecheck) over one shard of tests in the background,
  # on nvidia (or $SANITIZE_BACKEND), bounded by left(); its log is $W/TOOL-NAME.log ($W/TOOL.log for an empty NAME),
  # each test's outcome on its own line, so a shard cut by its bound still says which tests it finished
  local tool=$1 name=$2 ex=()
  shift 2
  [ "$tool" = racecheck ] && ex=(--kernel-name-exclude kns=native)  # torch's kernels: not ours to check
  timeout $(($(left) - 10)) compute-sanitizer --tool "$tool" "${ex[@]}" --error-exitcode 9 python -m pytest "$@" \
    --backend "${SANITIZE_BACKEND:-nvidia}" -v -p no:cacheprovider -p no:benchmark -p no:xdist \
    >"$W/$tool${name:+-$name}.log" 2>&1 &
  SANITIZE_PIDS+=($!)
}

sanitize_wait() {  # waits for every sanitize_start shard (by pid: a bare `wait` would wait for the console's tee),
  # then prints, for every memcheck / racecheck log in $W, pytest's summary (or, for a shard cut by its bound, its
  # count of PASSED lines) and the tool's summary line
  local f summary
  [ ${#SANITIZE_PIDS[@]} -gt 0 ] && wait "${SANITIZE_PIDS[@]}"
  SANITIZE_PIDS=()
  for f in "$W"/memcheck*.log "$W"/racecheck*.log; do
    [ -e "$f" ] || continue
    # pytest pads its summary with '='; nanobind's leak report at exit may run into the tool's summary line
    summary=$(grep -E '[0-9]+ (passed|failed)' "$f" | tail -1 | sed -E 's/^=+ *//; s/ *=+$//' | cut -c1-100)
    echo "$(basename "$f" .log): ${summary:-cut after $(grep -c ' PASSED' "$f") passed, $(grep -c ' FAILED' "$f") failed};" \
      "$(grep -oE '(ERROR|RACECHECK) SUMMARY.*' "$f" | tail -1)"
  done
  pack
}

sanitize_pair() {  # PYTEST_ARGS...: memcheck and racecheck at once over the same tests, then their summaries
  sanitize_start memcheck "" "$@"
  sanitize_start racecheck "" "$@"
  sanitize_wait
}

sanitize_spread() {  # TOOL NAME N PYTEST_ARGS...: the tests PYTEST_ARGS collect, dealt in turn into N shards
  # (NAME-00 ...), each started by sanitize_start, so every shard gets a like mix of the kinds of test and the shards
  # finish together. It does not raise the machine's rate: racecheck ran softmax's fp32 / fp16 tests at 1.2-1.7 a
  # second by their mix with 8, 12 or 16 shards (session 66, runs kz, lb, lc); a part too long for its call needs
  # fewer tests.
  local tool=$1 name=$2 n=$3 f
  shift 3
  mkdir -p "$W/spread"
  rm -f "$W/spread/$name"-*
  python -m pytest --collect-only -q "$@" --backend "${SANITIZE_BACKEND:-nvidia}" -p no:cacheprovider -p no:benchmark \
    -p no:xdist 2>/dev/null | grep "::" | split -n r/"$n" -d - "$W/spread/$name-"
  [ -s "$W/spread/$name-00" ] || echo "sanitize_spread $name: pytest collected no tests from: $*"
  for f in "$W/spread/$name"-*; do
    [ -s "$f" ] || continue  # fewer tests than shards: an empty list would run pytest's default paths
    # test ids hold no spaces, so each line is one word
    sanitize_start "$tool" "$(basename "$f")" $(cat "$f")
  done
}

sanitize_suite() {  # PART: the nvidia suite (tests/ops, tests/fuzz) under both tools in shards started at once,
  # softmax by dtype x form. Part 1: memcheck of every shard; racecheck of all but softmax fp32 and fp16. Parts 2
  # and 3: racecheck of softmax fp16 and of fp32, each dealt into eight shards (sanitize_spread). One part fills a
  # call; then sanitize_wait. Why three (sessions 66-67): part 1 so ended 2.6 min inside its bound (run ky), but
  # both fp32 and fp16 in one part did not fit (run kz: 644 of 702 in 522 s), and part 1 with fp16's out and rounds
  # forms added had its softmax racecheck shards at under half their pace and cut (run lj: 28 processes on one GPU).
  # Timed in session 68: part 2 (fp16, 351 tests) 3.5-3.9 min (run lm); part 3 (fp32, 351) about 6.5 min, its
  # long-row rounds tests the slowest (run ln, cut at 400 s with 345 done): each part a call of its own
  local part=$1 s=tests/ops/test_softmax.py d f tool small
  case "$part" in
    2) sanitize_spread racecheck softmax-part2 8 $s -k "float16 and not bfloat16"; return 0 ;;
    3) sanitize_spread racecheck softmax-part3 8 $s -k "float32"; return 0 ;;
  esac
  small=$(ls tests/ops/test_*.py | grep -vE "test_(softmax|reduce_sum|copy|vector_add)\.py$" | tr '\n' ' ')
  for d in "f32:float32" "f16:float16 and not bfloat16" "bf16:not float32 and (bfloat16 or not float16)"; do
    # the long-row rounds tests in a shard of their own: inside "rest", racecheck's fp32 shard ran past a call's
    # bound at its last four in both sessions that ran part 2 by form (48 and 56)
    for f in "fn:functional" "out:out and not functional" "rounds:over_many_rounds and not functional and not out" \
      "rest:not functional and not out and not over_many_rounds"; do
      sanitize_start memcheck "softmax-${d%%:*}-${f%%:*}" $s -k "(${d#*:}) and (${f#*:})"
      case "${d%%:*}-${f%%:*}" in
        bf16-*) sanitize_start racecheck "softmax-${d%%:*}-${f%%:*}" $s -k "(${d#*:}) and (${f#*:})" ;;
      esac
    done
  done
  for tool in memcheck racecheck; do
    for f in reduce_sum copy vector_add; do sanitize_start $tool $f tests/ops/test_$f.py; done
    sanitize_start $tool small $small
    sanitize_start $tool fuzz tests/fuzz
  done
}

deselect_finished() {  # LOG...: sets DESELECT to `--deselect ID` for each test that the pytest -v logs passed or
  # skipped, so a call can run only what an earlier call's bound cut off (a failed test runs again)
  local id
  DESELECT=()
  while read -r id; do DESELECT+=(--deselect "$id"); done < <(cat "$@" 2>/dev/null |
    grep -E '(^| )(PASSED|SKIPPED)( |$)' | grep -oE 'tests/[^ ]+::[^ ]+' | sort -u)
}

switch_twice() {  # NAME VAR "VALUES" SECONDS CMD...: CMD with VAR set to each of VALUES in turn, twice, each under
  # SECONDS and only while more than 2 x SECONDS are left; a literal '$AB_OUT' in CMD becomes $W/NAME-<value>-<1|2>
  # (ab_summary NAME reads them). For an experiment switch that create() reads, so one build times every arm.
  local name=$1 var=$2 values=$3 limit=$4 i v out
  shift 4
  for i in 1 2; do
    for v in $values; do
      [ "$(left)" -gt $((2 * limit)) ] || { echo "$name $v $i skipped: $(left) s left"; continue; }
      out="$W/$name-$v-$i"
      env "$var=$v" timeout "$limit" "${@//\$AB_OUT/$out}" >"$out.log" 2>&1
      echo "$name $v $i rc=$? ($(date +%T))"
      rm -f "$out"/*.png
      pack
    done
  done
}

ab_summary() {  # NAME: one line per bench row of each ab_twice or switch_twice arm ($W/NAME-<arm>-<1|2>/bench.rows.jsonl):
  # ours, torch and torch.compile (where the bench ran it) in µs, and ours against torch
  NAME=$1 W=$W python - <<'PY'
import glob, json, os
for f in sorted(glob.glob(f"{os.environ['W']}/{os.environ['NAME']}-*/bench.rows.jsonl")):
    arm = f.split("/")[-2]
    for line in open(f):
        r = json.loads(line)
        print(f"{arm:8s} {r['case']:18s} {r['dtype']:9s} ours {r['us_median']:8.2f} torch {r['torch_us']:8.2f} "
              f"compile {r.get('compile_us') or 0:8.2f} x{r['torch_us'] / r['us_median']:.4f}")
PY
}

ab_ratio() {  # NAME: each bench row (op, case, dtype) of ab_twice NAME's arms ($W/NAME-<A|B>-<1|2>/bench.rows.jsonl):
  # A's and B's µs and A / B of the bests (> 1: B faster)
  NAME=$1 W=$W python - <<'PY'
import collections, glob, json, os
t = collections.defaultdict(dict)
for f in sorted(glob.glob(f"{os.environ['W']}/{os.environ['NAME']}-[AB]-*/bench.rows.jsonl")):
    arm = f.split("/")[-2].split("-")[-2]
    for line in open(f):
        r = json.loads(line)
        t[(r["op"], r["case"], r["dtype"])].setdefault(arm, []).append(r["us_median"])
print(f"== {os.environ['NAME']}: op case dtype, A us, B us, A / B of the bests")
for k, v in t.items():
    if "A" in v and "B" in v:
        print(*k, v["A"], v["B"], f"{min(v['A']) / min(v['B']):.3f}")
PY
}

sweep_summary() {  # KIND...: the rows of each $W/KIND.csv that docs/runs/s58-few-rows-sweep.py wrote with two arms or
  # more: dtype, length, rows, each arm's µs and main's over the best other arm (> 1: that arm faster)
  W=$W python - "$@" <<'PY'
import csv, os, sys
for kind in sys.argv[1:]:
    try:
        rows = list(csv.DictReader(open(f"{os.environ['W']}/{kind}.csv")))
    except OSError:
        continue
    arms = [c for c in (rows[0] if rows else {}) if c.startswith("arm")]
    print(f"== {kind}: dtype n rows, {' '.join(arms)}, main / best other")
    for r in rows:
        if r.get(arms[-1]):
            print(r["dtype"], r["n"], r["rows"], *(r[a] for a in arms), r["best_over_main"])
PY
}

pytest_tally() {  # NAME MARGIN PYTEST_ARGS...: pytest -v under the seconds left less MARGIN, its log $W/pytest-NAME.log;
  # echoes the exit status and the PASSED / SKIPPED / FAILED counts (a run cut by its bound still says how far it got),
  # the first failures and pytest's summary line, then packs
  local name=$1 margin=$2 log
  shift 2
  log="$W/pytest-$name.log"
  timeout $(($(left) - margin)) python -m pytest "$@" -v -p no:cacheprovider -p no:benchmark >"$log" 2>&1
  echo "$name rc=$? ($(date +%T)) PASSED $(grep -c ' PASSED' "$log") SKIPPED $(grep -c ' SKIPPED' "$log")" \
    "FAILED $(grep -c ' FAILED' "$log")"
  grep -E "^(FAILED|ERROR)" "$log" | head -5
  tail -n 1 "$log" | cut -c1-200
  pack
}

bench_ops() {  # OP...: each op's bench on both backends with Liger and torch.compile beside, into $W/OP, under the
  # seconds left; its rows count and geomean lines echoed, its plot dropped (the device call returns few files)
  local op
  for op in "$@"; do
    echo "== bench $op, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
    timeout $(($(left) - 6)) python -m operator_runtime bench --op "$op" --backend nvidia tilelang --peers liger compile \
      --out "$W/$op" >"$W/bench-$op.log" 2>&1
    echo "rc=$? rows=$(wc -l <"$W/$op/bench.rows.jsonl")"
    rm -f "$W/$op"/*.png
    grep -E "geomean|skipped|peer" "$W/bench-$op.log" | cut -c1-220 | head -4
    pack
  done
}
