#!/usr/bin/env bash
# Session 63, run kn (the device time left). Run km found kj's 32-register packed_rows body ties main's alone, so its
# 8-11 % loss at 1008-2016 x 1536 fp16 comes from the chain of PDL launches. Which part: with the trigger forced to
# exit (no next grid's blocks resident early) do A and B tie? runs/s63-rs-lane-trigger-switch.patch adds
# ORT_LANE_TRIGGER (x: exit, e: early, read at create) to both arms; B also carries the body patch.
source scripts/device_steps.sh
device_begin s63f 125
git apply docs/runs/s63-rs-lane-trigger-switch.patch && echo "switch applied"
build_a
git apply docs/runs/s63-rs-packed-rows-fp16-six-ordered.patch && echo "body applied"
device_build
wait_a
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_TRIGGER --arms 0 x e --lengths 1536 --rows 1008 2016 4080 8192 --dtypes float16"
PYTHONPATH="$A_DIR:$PYTHONPATH" timeout 30 python $SWEEP > $W/trigger-A.csv 2>&1; echo "A rc=$? ($(date +%T))"; cat $W/trigger-A.csv; pack
timeout 30 python $SWEEP > $W/trigger-B.csv 2>&1; echo "B rc=$? ($(date +%T))"; cat $W/trigger-B.csv; pack
echo "== end ($(date +%T))"; pack
