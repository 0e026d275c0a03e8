#!/usr/bin/env bash
# Run jb (session 56): racecheck over the tests of softmax's fp32 "rest" shard that run ja's bound cut (the shard's
# log travels in s56c.tar), one test a shard, all at once.
source scripts/device_steps.sh
device_begin s56d 500
mkdir -p /tmp/prev && tar xf .device/s56c-prev.tar -C /tmp/prev
device_build
deselect_finished /tmp/prev/w/racecheck-softmax-f32-rest.log
s=tests/ops/test_softmax.py
python -m pytest $s --collect-only -q -p no:cacheprovider -k "(float32) and (not functional and not out)" "${DESELECT[@]}" \
  | grep "::" > $W/left.txt
echo "== $(wc -l < $W/left.txt) tests left ($(date +%T), $(left) s left)"; cat $W/left.txt
i=0; while read -r id; do i=$((i+1)); sanitize_start racecheck "f32-rest-left-$i" "$id"; done < $W/left.txt
sanitize_wait
echo "== end ($(date +%T))"; pack
