#!/usr/bin/env bash
# Session 50, run ig: the prepared call's host cost on the tree of runs ic-if, twice.
source scripts/device_steps.sh
device_begin ig 200
device_build
for i in 1 2; do
  echo "== host overhead $i ($(date +%T), $(left) s left)"
  timeout 60 python -m operator_runtime bench --op copy --backend nvidia --case tiny --host-overhead --out $W/host-$i \
    > $W/host-$i.log 2>&1; echo "rc=$?"; grep -iE "host|eager|prepared|graph" $W/host-$i.log | cut -c1-200 | head -12; pack
done
echo "== end ($(date +%T))"; pack
