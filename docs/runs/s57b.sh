#!/usr/bin/env bash
# Run jf (session 57): is compute-sanitizer the C holder of the finished frames (run je)? The probe under memcheck
# with the tool's default backtraces, with `--show-backtrace no` and `device`, and with any python backtrace option
# its --help lists; plainly for contrast. Then the rewritten plan-cache tests under memcheck and plainly, and the
# small-files shard under memcheck.
source scripts/device_steps.sh
device_begin s57b 330
device_build
compute-sanitizer --version > $W/help.txt 2>&1; compute-sanitizer --help >> $W/help.txt 2>&1
grep -iE -A3 "python|show-backtrace" $W/help.txt | head -40
probe=docs/runs/s57-frames-probe.py
python $probe > $W/probe-plain.log 2>&1
compute-sanitizer --tool memcheck python $probe > $W/probe-default.log 2>&1
compute-sanitizer --tool memcheck --show-backtrace no python $probe > $W/probe-bt-no.log 2>&1
compute-sanitizer --tool memcheck --show-backtrace device python $probe > $W/probe-bt-device.log 2>&1
for opt in $(grep -oE -- '--[a-z-]*python[a-z-]*' $W/help.txt | sort -u); do
  compute-sanitizer --tool memcheck $opt no python $probe > $W/probe${opt}.log 2>&1
done
for f in $W/probe*.log; do echo "== $(basename $f)"; grep -E "alive|under_|injection|mapped|held by|SUMMARY|Error|error" $f | cut -c1-300 | head -14; done
pack
small=$(ls tests/ops/test_*.py | grep -vE "test_(softmax|reduce_sum|copy|vector_add)\.py$" | tr '\n' ' ')
sanitize_start memcheck plan-cache tests/ops/test_plan_cache.py tests/harness/test_leaks.py
sanitize_start memcheck small $small
python -m pytest tests/ops/test_plan_cache.py tests/harness/test_leaks.py --backend nvidia -v -rs -p no:cacheprovider -p no:xdist > $W/plain.log 2>&1
tail -3 $W/plain.log
sanitize_wait
grep -h "SKIPPED\|FAILED" $W/memcheck-*.log | cut -c1-250 | sort | uniq -c
echo "== end ($(date +%T))"; pack
