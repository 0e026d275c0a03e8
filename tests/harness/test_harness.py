"""The benchmark harness itself: byte/FLOP accounting, statistics, rotation and the report writers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import torch

from operator_runtime_testing.performance import PerformanceResult, Work, summary_latency, unique_bytes
from operator_runtime_testing.reports import write_all, write_csv
from operator_runtime_testing.timing import Stats, rotation_count, time_host


def test_unique_bytes_counts_each_distinct_element_once():
    x = torch.empty(64, 32)
    assert unique_bytes(x) == 64 * 32 * 4
    assert unique_bytes(x.t()) == 64 * 32 * 4                      # a permutation moves the same bytes
    assert unique_bytes(torch.empty(32, dtype=torch.bfloat16).expand(64, 32)) == 32 * 2  # broadcast read once
    assert unique_bytes(torch.empty(0, 5)) == 0


def test_bench_modules_count_inputs_plus_output():
    import bench.copy as copy_bench
    import bench.reduce_sum as sum_bench
    import bench.softmax as softmax_bench
    import bench.vector_add as add_bench

    a, row = torch.empty(128, 256), torch.empty(256)
    out = torch.empty(128, 256)
    assert add_bench.work({"a": a, "b": row}, out, {}) == Work(bytes=(128 * 256 * 2 + 256) * 4, flops=128 * 256)
    assert copy_bench.work({"src": a.t()}, out.t(), {}) == Work(bytes=2 * 128 * 256 * 4, flops=0)
    assert sum_bench.work({"x": a}, torch.empty(128), {}) == Work(bytes=(128 * 256 + 128) * 4, flops=128 * 256)
    assert softmax_bench.work({"x": a}, out, {}).bytes == 2 * 128 * 256 * 4


def test_stats_median_min_max():
    s = Stats.of([5.0, 1.0, 3.0, 100.0, 2.0])
    assert (s.median_us, s.min_us, s.max_us) == (3.0, 1.0, 100.0)


def test_rotation_exceeds_twice_the_l2():
    l2 = 60 << 20
    assert rotation_count(1 << 30, l2) == 1
    n = rotation_count(8 << 20, l2)
    assert n * (8 << 20) >= 2 * l2 and (n - 1) * (8 << 20) < 2 * l2
    assert rotation_count(1, l2, limit=16) == 16


def test_time_host_measures_a_known_cost():
    import time

    stats = time_host([lambda: time.sleep(0.002)], trials=3, min_total_s=0.01)
    assert 1500 < stats.median_us < 20_000  # 2 ms sleeps; generous bounds: this checks units, not speed
    assert stats.min_us <= stats.median_us <= stats.max_us


def _result(backend, us, torch_us, case="c"):
    return PerformanceResult("copy", backend, case, "float32", "4", Stats(us, us, us), Work(4000, 0),
                             Stats(torch_us, torch_us, torch_us), ceiling_gbs=8.0, provenance={"device": "CPU"})


def test_derived_rates_and_speedup():
    r = _result("cpu", us=1.0, torch_us=2.0)
    assert r.gbs == pytest.approx(4.0)           # 4000 bytes in 1 µs
    assert r.pct_of_ceiling == pytest.approx(50.0)
    assert r.speedup == pytest.approx(2.0)
    assert summary_latency([r, _result("cpu", 1.0, 8.0)])["cpu"] == pytest.approx(4.0)  # geomean of 2 and 8


def test_report_writers_round_trip(tmp_path):
    rows = [_result("cpu", 1.0, 2.0, "a"), _result("cpu", 2.0, 2.0, "b")]
    write_all(rows, tmp_path, ceiling_gbs=8.0, title="t", extra={"mode": "host"})
    doc = json.loads((tmp_path / "bench.json").read_text())
    assert [r["case"] for r in doc["rows"]] == ["a", "b"] and doc["ceiling_gbs"] == 8.0
    assert doc["rows"][0]["speedup_vs_torch"] == 2.0 and doc["rows"][0]["device"] == "CPU"
    with (tmp_path / "bench.csv").open() as f:
        assert [r["gbs"] for r in csv.DictReader(f)] == ["4.0", "2.0"]
    assert (tmp_path / "bench.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_cli_runs_on_the_cpu(tmp_path):
    from operator_runtime_testing.bench_cli import main

    if torch.cuda.is_available():
        pytest.skip("this checks the CPU labelling; the GPU bench runs in scripts/gpu_check.sh --bench")
    assert main(["--op", "vector_add", "copy", "--case", "tiny", "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "bench.json").read_text())
    assert doc["rows"] and all(r["device_type"] == "cpu" for r in doc["rows"])
    assert {(r["op"], r["case"]) for r in doc["rows"]} == {("vector_add", "tiny-4096"), ("copy", "tiny")}
    assert doc["mode"] == "host"
    # the rows file holds each row as it was timed, the same rows bench.json ends with
    lines = (tmp_path / "bench.rows.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == doc["rows"]


def test_further_peers_reach_json_and_markdown(tmp_path):
    from operator_runtime_testing.reports import markdown

    r = _result("nvidia", us=2.0, torch_us=4.0)
    r.others["liger"] = Stats(3.0, 3.0, 3.0)
    row = r.row()
    assert row["liger_us"] == 3.0 and row["speedup_vs_liger"] == 1.5
    md = markdown([row])
    assert "liger µs" in md.splitlines()[0] and md.splitlines()[2].rstrip().endswith("3.0 |")


def test_csv_header_is_the_union_of_peer_columns(tmp_path):
    # Found on the H200: liger times softmax only, so later rows carried columns the first row lacked.
    plain, with_peer = _result("nvidia", 1.0, 2.0, "a"), _result("nvidia", 1.0, 2.0, "b")
    with_peer.others["liger"] = Stats(3.0, 3.0, 3.0)
    write_csv([plain, with_peer], tmp_path / "bench.csv")
    with (tmp_path / "bench.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["liger_us"] == "" and rows[1]["liger_us"] == "3.0"


def test_holding_results_keeps_each_result_for_one_rotation():
    # A peer's output must not be freed (and its block handed to the next call) before as many further calls
    # have run as ours has output tensors; each call's result is released once that many more have run.
    import gc
    import weakref

    from operator_runtime_testing.timing import holding_results

    made = []

    def new_tensor():
        t = torch.empty(4)
        made.append(weakref.ref(t))
        return t

    calls = holding_results([new_tensor] * 3)
    for i in range(7):
        calls[i % 3]()
        gc.collect()
        alive = [r() is not None for r in made]
        assert alive == [j > i - 3 for j in range(i + 1)], (i, alive)


def test_warm_tilelang_cache_prepares_each_bench_row_once():
    # scripts/warm_tilelang_cache.py must compile what the bench will prepare: every (op, case, dtype), once.
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "warm_tilelang_cache.py"
    spec = importlib.util.spec_from_file_location("warm_tilelang_cache", path)
    warm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(warm)
    jobs = warm._jobs(None, None)
    assert len(jobs) == len(set(jobs))
    assert {op for op, _, _ in jobs} == {"copy", "reduce_sum", "softmax", "vector_add"}
    assert warm._jobs(["softmax"], ["4096x128"]) == [("softmax", "4096x128", d) for d in ("float32", "float16",
                                                                                            "bfloat16")]
