"""Run kx (session 65): run kv's sweep (the raised lane_packs_after_wait bound against session 64's, ORT_LANE_OLD 1 / 0
through runs/s65-lane-after-wait-old-switch.patch) in a second context: in the same process, after the bench of every
op's rows of 64 MiB or less (the context in which run kw read short_rows after the wait 1.11 µs where alone it read
1.40). Arguments after `--` go to docs/runs/s58-few-rows-sweep.py.

    python docs/runs/s65e-context.py BENCH_OUT -- --switch ORT_LANE_OLD --arms 1 0 --rows ... > sweep.csv
"""
import contextlib
import runpy
import sys
from pathlib import Path

bench_out, sweep_args = sys.argv[1], sys.argv[sys.argv.index("--") + 1:]
sys.argv = ["operator_runtime", "bench", "--backend", "nvidia", "--max-mib", "64", "--out", bench_out]
with contextlib.redirect_stdout(sys.stderr), contextlib.suppress(SystemExit):
    runpy.run_module("operator_runtime", run_name="__main__")
sys.argv = ["s58-few-rows-sweep.py", *sweep_args]
runpy.run_path(str(Path(__file__).with_name("s58-few-rows-sweep.py")), run_name="__main__")
