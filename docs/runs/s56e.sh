#!/usr/bin/env bash
# Run jc (session 56): who holds the input of test_the_cache_keeps_no_user_tensors under compute-sanitizer (its
# assert now names the referrers): the plan-cache file alone and the small-files shard as sanitize_suite runs it,
# under memcheck; and the file plainly, for contrast.
source scripts/device_steps.sh
device_begin s56e 330
device_build
small=$(ls tests/ops/test_*.py | grep -vE "test_(softmax|reduce_sum|copy|vector_add)\.py$" | tr '\n' ' ')
sanitize_start memcheck plan-cache tests/ops/test_plan_cache.py
sanitize_start memcheck small $small
python -m pytest tests/ops/test_plan_cache.py --backend nvidia -v -p no:cacheprovider -p no:xdist > $W/plain.log 2>&1
tail -3 $W/plain.log
sanitize_wait
grep -h "still referenced by" $W/*.log | cut -c1-3000 | sort | uniq -c
echo "== end ($(date +%T))"; pack
