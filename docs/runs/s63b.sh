#!/usr/bin/env bash
# Prepared in session 62 (CPU only; not yet run). reduce_sum's packed_rows at fp16 x 6 packs a lane (rows of 1288-1536
# halves) as raw words with ordered asm loads (runs/s63-rs-packed-rows-fp16-six-ordered.patch): read on the CPU with
# scripts/cpu_sass.sh, 36 -> 32 registers (6 -> 8 blocks an SM, so lane_packs_at_exit leaves rows-4080x1536 fp16 to the
# many-waves rule as bf16), all six loads still issued before the first add, the same adds in the same order; the PTX
# of every other kernel in reduce_sum_cuda.cu byte-identical. Run kg's broader raw-words patch lost 10-30 % at 1008
# rows for a reason its SASS does not show, so this times the rows it moves and their neighbours before anything else.
# A = this tree (built into /tmp/A beside), B = the patch. About 5 min after a cold start.
source scripts/device_steps.sh
device_begin s63b 585
build_a
git apply docs/runs/s63-rs-packed-rows-fp16-six-ordered.patch && echo "patch applied"
device_build
for b in nvidia tilelang; do  # run ki's ties step died on pytest-benchmark's xdist warning: serial, benchmark off
  timeout 60 python -m pytest tests/ops/test_vector_add.py -k bit_for_bit --backend $b -p no:benchmark \
    -p no:cacheprovider > $W/ties-$b.log 2>&1; echo "ties $b rc=$? ($(date +%T)): $(tail -1 $W/ties-$b.log)"
done; pack
wait_a
sanitize_start memcheck rows tests/ops/test_reduce_sum.py -k "rows and float16 and not bfloat16"
pytest_tally rs-nv 420 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 6
sanitize_wait
SWEEP="docs/runs/s58-few-rows-sweep.py --arms 0 --lengths 1288 1400 1536 --rows 264 1008 2016 4080 8192 16384"
for i in 1 2; do
  PYTHONPATH="$A_DIR:$PYTHONPATH" timeout 100 python $SWEEP --dtypes float16 > $W/six-A-$i.csv 2>&1
  echo "six A $i rc=$? ($(date +%T))"
  timeout 100 python $SWEEP --dtypes float16 > $W/six-B-$i.csv 2>&1; echo "six B $i rc=$? ($(date +%T))"
  pack
done
ab_twice arms 60 60 python -m operator_runtime bench --op reduce_sum --backend nvidia --peers compile \
  --case rows-4080x1536 rows-144x1280 rows-4096x1024 --out '$AB_OUT'
ab_summary arms | sort -k2,3 -k1
echo "== end ($(date +%T))"; pack
