"""Merging bench runs, the per-peer geomean, the extra peers each bench module offers, and profile_once."""

from __future__ import annotations

import json
import math

import pytest
import torch

from operator_runtime_testing.performance import geomean_speedups
from operator_runtime_testing.reports import backend_ratio_markdown, merge, peers_markdown
from operator_runtime_testing.reports import main as reports_main


def _row(op, backend, case, us, torch_us, **peers):
    row = {"op": op, "backend": backend, "case": case, "dtype": "float32", "shape": "4x4", "us_median": us,
           "us_min": us, "us_max": us, "bytes": 1000, "flops": 0, "gbs": 1000 / (us * 1e3), "pct_ceiling": 1.0,
           "ceiling_gbs": 100.0, "torch_us": torch_us, "torch_gbs": 1.0, "speedup_vs_torch": torch_us / us,
           "device": "test"}
    for name, peer_us in peers.items():
        row[f"{name}_us"] = peer_us
        row[f"speedup_vs_{name}"] = peer_us / us
    return row


def _doc(path, rows, ceiling=100.0):
    path.write_text(json.dumps({"rows": rows, "ceiling_gbs": ceiling}))
    return str(path)


def test_merge_filters_by_op_and_backend_and_later_runs_win(tmp_path):
    old = _doc(tmp_path / "old.json", [_row("copy", "nvidia", "a", 2.0, 2.0), _row("copy", "tilelang", "a", 4.0, 2.0),
                                       _row("softmax", "nvidia", "a", 9.0, 3.0)])
    new = _doc(tmp_path / "new.json", [_row("copy", "nvidia", "a", 1.0, 2.0, compile=1.5),
                                       _row("softmax", "nvidia", "a", 1.0, 3.0)], ceiling=120.0)
    doc = merge([old, f"{new}=copy/nvidia"])
    by_key = {(r["op"], r["backend"]): r for r in doc["rows"]}
    assert by_key[("copy", "nvidia")]["us_median"] == 1.0          # the later run replaced the row
    assert by_key[("copy", "nvidia")]["source"] == "new.json"
    assert by_key[("softmax", "nvidia")]["us_median"] == 9.0       # filtered out of the later run: kept
    assert by_key[("copy", "tilelang")]["us_median"] == 4.0
    assert doc["sources"] == {old: 3, f"{new}=copy/nvidia": 1}
    assert doc["ceiling_gbs"] == 120.0
    assert doc["geomean_speedup_vs_torch"]["nvidia"] == doc["geomean_speedups"]["nvidia"]["torch"]


def test_merge_can_take_only_some_cases_of_a_run(tmp_path):
    old = _doc(tmp_path / "old.json", [_row("copy", "nvidia", "rows", 2.0, 2.0),
                                       _row("copy", "nvidia", "cols", 4.0, 2.0)])
    new = _doc(tmp_path / "new.json", [_row("copy", "nvidia", "rows", 1.0, 2.0),
                                       _row("copy", "nvidia", "cols", 1.0, 2.0)])
    doc = merge([old, f"{new}=*/nvidia/col*"])
    by_case = {r["case"]: r for r in doc["rows"]}
    assert by_case["cols"]["us_median"] == 1.0 and by_case["cols"]["source"] == "new.json"
    assert by_case["rows"]["us_median"] == 2.0 and by_case["rows"]["source"] == "old.json"


def test_geomean_is_per_backend_and_per_peer():
    rows = [_row("copy", "nvidia", "a", 1.0, 2.0, liger=4.0), _row("copy", "nvidia", "b", 1.0, 0.5),
            _row("copy", "tilelang", "a", 2.0, 1.0)]
    g = geomean_speedups(rows)
    assert math.isclose(g["nvidia"]["torch"], 1.0)                 # sqrt(2 * 0.5)
    assert math.isclose(g["nvidia"]["liger"], 4.0)                 # only the row that has it
    assert math.isclose(g["tilelang"]["torch"], 0.5)


def test_merge_reads_the_rows_a_cut_off_bench_left(tmp_path):
    old = _doc(tmp_path / "old.json", [_row("copy", "nvidia", "a", 2.0, 2.0), _row("copy", "nvidia", "b", 3.0, 3.0)])
    cut = tmp_path / "bench.rows.jsonl"
    cut.write_text(json.dumps(_row("copy", "nvidia", "a", 1.0, 2.0)) + "\n")
    doc = merge([old, str(cut)])
    by_case = {r["case"]: r for r in doc["rows"]}
    assert by_case["a"]["us_median"] == 1.0 and by_case["a"]["source"] == "bench.rows.jsonl"
    assert by_case["b"]["us_median"] == 3.0 and doc["sources"][str(cut)] == 1


def test_reports_cli_merges_and_renders(tmp_path):
    src = _doc(tmp_path / "run.json", [_row("copy", "nvidia", "a", 1.0, 2.0, compile=1.5)])
    out = tmp_path / "merged"
    assert reports_main(["merge", str(out), src]) == 0
    assert json.loads((out / "bench.json").read_text())["rows"][0]["compile_us"] == 1.5
    assert "compile µs" in (out / "bench.md").read_text()
    assert (out / "bench.png").stat().st_size > 0


def test_peer_and_backend_tables_give_same_run_ratios_and_count_the_goal():
    rows = [_row("softmax", "nvidia", "a", 2.0, 4.0, liger=1.0, compile=3.0), _row("copy", "nvidia", "b", 1.0, 0.5),
            _row("softmax", "tilelang", "a", 4.0, 4.0), _row("copy", "tilelang", "b", 1.1, 0.5),
            _row("vector_add", "tilelang", "c", 1.0, 1.0)]  # no nvidia row: not compared
    lines = peers_markdown(rows).splitlines()
    assert lines[0].startswith("| op | case | dtype | ours µs | TB/s | torch µs | liger µs | compile µs |")
    assert lines[2].endswith("| 2.00x | 0.50x ⚠ | 1.50x |")    # vs torch, vs liger, vs compile
    assert lines[3].endswith("| 0.50x ⚠ | - | - |")            # a row without the peers
    table, met, total = backend_ratio_markdown(rows)
    assert (met, total) == (1, 2)                                 # copy 1.0/1.1 = 0.91x; softmax 0.50x
    assert "| softmax | a | float32 | 4.00 | 2.00 | 0.50x ⚠ |" in table


def test_bench_modules_offer_no_gpu_peers_for_cpu_tensors():
    import bench.copy as copy_bench
    import bench.reduce_sum as sum_bench
    import bench.softmax as softmax_bench
    import bench.vector_add as add_bench

    x = torch.randn(8, 16)
    cases = [(copy_bench, {"src": x}, {}), (sum_bench, {"x": x}, {"dim": 0}), (softmax_bench, {"x": x}, {}),
             (add_bench, {"a": x, "b": x}, {})]
    for mod, inputs, attrs in cases:
        # On the CPU no GPU peer is offered (the CLI times peers on a GPU only).
        assert "compile" not in mod.extra_peers(inputs, attrs), mod.OP


def test_profile_once_refuses_without_a_gpu(monkeypatch):
    from operator_runtime_testing import profile_once

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # the same check on a GPU machine
    with pytest.raises(SystemExit, match="needs a CUDA device"):
        profile_once.main(["--op", "softmax", "--case", "4096x128"])


@pytest.mark.parametrize("batch", [1, 200])
def test_host_overhead_reports_every_form_including_the_cpp_part(batch):
    from operator_runtime_testing import host_overhead

    costs = host_overhead.measure(torch.device("cpu"), "cpu", numel=64, batch=batch)
    assert set(costs) == {"torch eager (y.copy_(x))", "ort.copy(x)", "ort.copy(x, out=y)", "prepared op(x2, out=y2)",
                          "prepared op()", "descriptor execute (C++ only)"}
    assert all(v > 0 for v in costs.values())


def test_host_overhead_leaves_out_the_cpp_row_for_a_python_descriptor(monkeypatch):
    # TileLang's descriptors are Python objects with no C++ execute: the bench's host table must still come
    # out (run bk: `bench --backend tilelang nvidia` stopped with an AttributeError there).
    import operator_runtime as ort
    from operator_runtime_testing import host_overhead

    real = ort.prepare_copy

    class PythonDescriptor:  # a TileLang descriptor's interface: tensors in, no pointers, no execute
        def run(self, out, x, workspace=None):
            out.copy_(x)

    def prepare(*args, **kwargs):
        op = real(*args, **kwargs)
        op._desc, op._pointer_abi = PythonDescriptor(), False
        return op

    monkeypatch.setattr(ort, "prepare_copy", prepare)
    costs = host_overhead.measure(torch.device("cpu"), "cpu", numel=64)
    assert "descriptor execute (C++ only)" not in costs
    assert costs["prepared op()"] > 0
