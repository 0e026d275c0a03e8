"""--backend selects the backend under test; an unavailable one is skipped with its reason."""

from __future__ import annotations

import os

import pytest
import torch
from hypothesis import HealthCheck, settings

import operator_runtime as ort
from operator_runtime.backend import unavailable_reason

# Bounded for CI's 2 cores; the GPU script selects the bigger profile with HYPOTHESIS_PROFILE=gpu.
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=False,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("gpu", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_sessionfinish(session, exitstatus):
    # ORT_LEAK_REPORT=1: what still holds a descriptor once the plan cache is cleared (nanobind's exit report
    # says only that they are alive; operator_runtime_testing.leaks finds their holders).
    if os.environ.get("ORT_LEAK_REPORT") == "1":
        from operator_runtime._internal.dispatch import clear_plans
        from operator_runtime_testing import leaks

        clear_plans()
        print("\n" + leaks.report())


def pytest_addoption(parser):
    default = "nvidia" if torch.cuda.is_available() else "cpu"
    parser.addoption("--backend", default=default, choices=[b.value for b in ort.Backend],
                     help=f"backend under test (default here: {default})")


@pytest.fixture(scope="session")
def backend(request) -> ort.Backend:
    chosen = ort.Backend(request.config.getoption("--backend"))
    reason = unavailable_reason(chosen)
    if reason is not None:
        pytest.skip(f"backend {chosen.value} unavailable: {reason}")
    return chosen


@pytest.fixture(scope="session")
def device(backend) -> str:
    return "cpu" if backend is ort.Backend.CPU else "cuda"
