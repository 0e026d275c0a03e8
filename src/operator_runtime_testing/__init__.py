"""Test-only tools shared by tests/ and benchmarks: layouts, tolerances, assertions, case types."""
