"""Backend choice: the default follows the tensors' device; an explicit backend never falls back."""

from __future__ import annotations

import pytest
import torch

import operator_runtime as ort
from operator_runtime.backend import unavailable_reason


def test_default_backend_follows_the_device(backend, device):
    x = torch.randn(8, 8, device=device)
    with ort.prepare_copy(x) as op:
        assert op.backend is (ort.Backend.NVIDIA if device == "cuda" else ort.Backend.CPU)


@pytest.mark.parametrize("explicit", ["cpu", "nvidia"])
def test_an_explicit_backend_that_cannot_serve_the_tensors_raises(explicit):
    other_device = "cpu" if explicit == "nvidia" else "cuda"
    if other_device == "cuda" and not torch.cuda.is_available():
        pytest.skip("needs a CUDA device to hold a tensor the cpu backend cannot serve")
    x = torch.randn(4, device=other_device)
    if unavailable_reason(ort.Backend(explicit)) is not None:
        with pytest.raises(ort.BackendUnavailableError, match=f"backend '{explicit}' is unavailable"):
            ort.copy(x, backend=explicit)
    else:
        want = "a CUDA tensor" if explicit == "nvidia" else "a CPU tensor"
        with pytest.raises(ValueError, match=f"src: this backend expects {want}"):
            ort.copy(x, backend=explicit)


@pytest.mark.parametrize("chosen", [ort.Backend.CPU, ort.Backend.TILELANG], ids=lambda b: b.value)
def test_an_op_without_a_kernel_for_the_backend_says_so(chosen):
    import dataclasses
    import importlib.util

    from operator_runtime._internal.dispatch import descriptor_class
    from operator_runtime.ops.copy import SPEC

    if chosen is ort.Backend.TILELANG and importlib.util.find_spec("tilelang") is None:
        pytest.skip("tilelang not installed: its descriptors module cannot be imported")
    spec = dataclasses.replace(SPEC, name="relu", descriptor="Relu")  # an op that ships no kernel
    with pytest.raises(ort.BackendUnavailableError, match=f"backend '{chosen.value}' has no relu kernel"):
        descriptor_class(spec, chosen)
