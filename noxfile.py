"""Sessions: tests (the CI job), bench, lint, build. Venvs are reused, so re-runs stay cheap."""

from __future__ import annotations

import nox

nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["tests"]

# A CPU torch wheel: an unpinned torch would pull a multi-GB CUDA build onto a CPU-only machine.
CONSTRAINTS = ("-c", "ci/constraints-cpu.txt")
BUILD = ("--no-build-isolation", "-Cbuild-dir=build/nox")


def _install(session: nox.Session, extras: str) -> None:
    session.install(*CONSTRAINTS, "scikit-build-core>=0.10", "nanobind>=2.4", "torch", "numpy")
    # Without build isolation the CMake tree in build/nox is reused: incremental rebuilds.
    # -v and silent=False: the CI log shows every compiler line, nvcc included.
    session.install(*CONSTRAINTS, *BUILD, "-v", f".[{extras}]", silent=False)


@nox.session
def tests(session: nox.Session) -> None:
    """Builds the wheel (CUDA sources included when nvcc is present) and runs every CPU-runnable test,
    TileLang lowering for sm_90 included."""
    _install(session, "test,bench,tilelang")
    session.run("python", "-m", "operator_runtime", "info")
    session.run("python", "-m", "pytest", "tests", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks every op against torch (CPU rows on a machine without a GPU)."""
    _install(session, "test,bench")
    session.run("python", "-m", "operator_runtime", "bench", *(session.posargs or ["--out", "bench-results"]))


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the Python sources and tests (configuration in pyproject.toml)."""
    session.install("ruff")
    session.run("ruff", "check", "src", "tests", "noxfile.py")


@nox.session
def build(session: nox.Session) -> None:
    """Builds a wheel into dist/."""
    session.install("build")
    session.run("python", "-m", "build", "--wheel", "--outdir", "dist")
