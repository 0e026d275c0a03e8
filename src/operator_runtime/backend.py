"""Backends: the enum users pass, what is available here, and how a call picks one."""

from __future__ import annotations

import enum
import functools
import importlib.util

import torch

from operator_runtime import _C
from operator_runtime.errors import BackendUnavailableError


class Backend(str, enum.Enum):
    CPU = "cpu"
    NVIDIA = "nvidia"
    TILELANG = "tilelang"
    METAX = "metax"

    def __str__(self) -> str:
        return self.value


@functools.cache
def unavailable_reason(backend: Backend) -> str | None:
    """Why `backend` cannot run on this machine, or None when it can."""
    if backend is Backend.CPU:
        return None
    if backend is Backend.METAX:
        return ("the metax backend is not built: this package ships no MetaX (MACA) kernels; "
                "the name exists to show where a further vendor backend plugs in")
    if backend is Backend.NVIDIA and not _C.cuda_built():
        return "the nvidia backend was not compiled (no nvcc at build time; rebuild with ORT_CUDA=ON)"
    if backend is Backend.TILELANG and importlib.util.find_spec("tilelang") is None:
        return "tilelang is not installed (pip install 'operator-runtime[tilelang]')"
    if not torch.cuda.is_available():
        return f"the {backend.value} backend needs a CUDA device and torch sees none"
    if backend is Backend.TILELANG:
        from operator_runtime.tilelang import backend_ready  # imported lazily: never at package import

        return backend_ready()
    return None


def available_backends() -> list[Backend]:
    """The backends that can run here, in preference order."""
    return [b for b in Backend if unavailable_reason(b) is None]


def default_backend(device: torch.device) -> Backend:
    return Backend.NVIDIA if device.type == "cuda" else Backend.CPU


def resolve_backend(backend: Backend | str | None, device: torch.device) -> Backend:
    """The backend a call runs on: the tensors' default, or the explicit choice if it can run here."""
    if backend is None:
        chosen = default_backend(device)
    else:
        try:
            chosen = Backend(backend)
        except ValueError:
            names = ", ".join(repr(b.value) for b in Backend)
            raise ValueError(f"backend: expected one of {names} or None, got {backend!r}") from None
    reason = unavailable_reason(chosen)
    if reason is not None:
        raise BackendUnavailableError(f"backend {chosen.value!r} is unavailable: {reason}")
    return chosen
