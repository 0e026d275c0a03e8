"""Per-op case registries: correctness_cases(), api_error_cases(), benchmark_cases()."""
