"""Benchmark entries, one per op: `python tests/bench/<op>.py` or `python -m operator_runtime bench`."""
