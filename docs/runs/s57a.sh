#!/usr/bin/env bash
# Run je (session 57): session 56's s56e (who holds the input of test_the_cache_keeps_no_user_tensors under
# memcheck: the test now names the innermost live frames and their holders), then racecheck of the softmax
# long-row rounds shards that sanitize_suite part 2 now runs on their own (fp32 and fp16, 10 tests each).
source scripts/device_steps.sh
device_begin s57a 560
device_build
small=$(ls tests/ops/test_*.py | grep -vE "test_(softmax|reduce_sum|copy|vector_add)\.py$" | tr '\n' ' ')
s=tests/ops/test_softmax.py
sanitize_start memcheck plan-cache tests/ops/test_plan_cache.py
sanitize_start memcheck small $small
sanitize_start racecheck softmax-f32-rounds $s -k "(float32) and (over_many_rounds and not functional and not out)"
sanitize_start racecheck softmax-f16-rounds $s -k "(float16 and not bfloat16) and (over_many_rounds and not functional and not out)"
python -m pytest tests/ops/test_plan_cache.py --backend nvidia -v -p no:cacheprovider -p no:xdist > $W/plain.log 2>&1
tail -3 $W/plain.log
pack
sanitize_wait
grep -h "still referenced by" $W/*.log | cut -c1-6000 | sort | uniq -c
echo "== end ($(date +%T))"; pack
