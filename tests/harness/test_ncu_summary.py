"""The Nsight Compute summary reads ncu's raw CSV page: units scaled, stalls ranked, preamble skipped."""

from __future__ import annotations

from operator_runtime_testing.ncu_summary import markdown, read_rows, summarise

# The shape of `ncu --csv --page raw`: process chatter, a header of metric names, a row of units, one row
# per kernel.
RAW = """==PROF== Connected to process 123
"ID","Process ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum","dram__bytes_write.sum",\
"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed","smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",\
"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio","smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"
"","","","ms","Gbyte","Mbyte","%","inst","inst","inst"
"0","123","void ort::softmax_kernels::online<float, 4, 1024>(float *, const float *, ort::RowsOfDim)","0.2","1.5",\
"1,268.4","61.3","9.5","2.25","0.5"
"""


def test_summary_scales_units_and_ranks_stalls(tmp_path):
    path = tmp_path / "softmax-case.csv"
    path.write_text(RAW)
    (kernel,) = read_rows(path)
    row = summarise(path, kernel)
    assert row["case"] == "softmax-case"
    assert row["kernel"] == "void ort::softmax_kernels::online<float, 4, 1024>"
    assert row["us"] == 200.0
    assert row["read_MB"] == 1500.0 and row["write_MB"] == 1268.4
    assert row["dram_pct"] == 61.3
    assert row["stalls"] == "long_scoreboard 9.5, barrier 2.2, wait 0.5"
    assert row["occ_pct"] != row["occ_pct"]  # a metric the profile lacks is NaN, not zero
    assert "| softmax-case |" in markdown([row])


def test_a_file_without_kernels_gives_no_rows(tmp_path):
    path = tmp_path / "failed.csv"
    path.write_text("==ERROR== the profiler could not start\n")
    assert read_rows(path) == []
