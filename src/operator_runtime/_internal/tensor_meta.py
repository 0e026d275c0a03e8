"""torch tensor -> descriptor metadata, and the cheap facts PreparedOp checks on every call."""

from __future__ import annotations

import torch

from operator_runtime import _C

# Codes of ort::DType (src/cpp/core/dtype.h).
DTYPE_CODES = {
    torch.bool: 0, torch.uint8: 1, torch.int8: 2, torch.int16: 3, torch.int32: 4, torch.int64: 5,
    torch.float16: 6, torch.bfloat16: 7, torch.float32: 8, torch.float64: 9,
}
_DEVICE_CODES = {"cpu": 0, "cuda": 1}


def require_tensor(t: object, name: str) -> torch.Tensor:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    return t


def require_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
    return value


def require_bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__}")
    return value


def normalize_dim(dim: int, ndim: int) -> int:
    """torch's rule: dim in [-ndim, ndim) (a 0-d tensor accepts -1 and 0). The C++ create checks it
    again with the same message; this copy exists because the out-of-place form needs the result shape
    before it can describe `out`."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise ValueError(f"dim: expected a dim in [{-n}, {n - 1}], got {dim}")
    return dim % n


def describe(t: torch.Tensor, name: str) -> _C.TensorDesc:
    """The description create() takes. Rejects here what the C++ side cannot represent."""
    code = DTYPE_CODES.get(t.dtype)
    if code is None:
        raise TypeError(f"{name}: dtype {t.dtype} is not supported")
    if t.layout != torch.strided:
        raise ValueError(f"{name}: expected a strided (dense) tensor, got layout {t.layout}")
    device = _DEVICE_CODES.get(t.device.type)
    if device is None:
        raise ValueError(f"{name}: expected a cpu or cuda tensor, got device {t.device}")
    return _C.TensorDesc(t.shape, t.stride(), code, device, t.device.index or 0)


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def span_bytes(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> int:
    """Bytes from a tensor's first element to the end of its last one (0 for empty tensors)."""
    if any(s == 0 for s in shape):
        return 0
    return (sum((n - 1) * st for n, st in zip(shape, strides)) + 1) * itemsize


class Signature:
    """What a prepared op was created for: one slot's shape, strides, dtype and device."""

    __slots__ = ("name", "shape", "strides", "dtype", "device", "span")

    def __init__(self, t: torch.Tensor, name: str):
        self.name = name
        self.shape = t.shape
        self.strides = t.stride()
        self.dtype = t.dtype
        self.device = t.device
        self.span = span_bytes(tuple(t.shape), self.strides, t.element_size())

    def check(self, t: object) -> torch.Tensor:
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{self.name}: expected a torch.Tensor, got {type(t).__name__}")
        if (t.dtype is not self.dtype or t.shape != self.shape or t.stride() != self.strides
                or t.device != self.device):
            raise ValueError(
                f"{self.name}: this prepared op was created for shape {tuple(self.shape)}, strides "
                f"{self.strides}, dtype {self.dtype} on {self.device}; got shape {tuple(t.shape)}, "
                f"strides {t.stride()}, dtype {t.dtype} on {t.device}")
        return t

    def empty(self) -> torch.Tensor:
        return torch.empty_strided(self.shape, self.strides, dtype=self.dtype, device=self.device)


def check_overlap(out: torch.Tensor, out_sig: Signature, t: torch.Tensor, sig: Signature,
                  alias_ok: bool) -> None:
    """Rejects an `out` whose bytes partly overlap an input; exact aliasing is allowed for in-place ops.

    The test is on byte ranges, so interleaved views of one buffer (x[::2] and x[1::2]) are rejected
    too: a clear error is better than a result that depends on the kernel's write order.
    """
    if not out_sig.span or not sig.span:
        return
    o, i = out.data_ptr(), t.data_ptr()
    if o < i + sig.span and i < o + out_sig.span:
        if alias_ok and o == i and out_sig.strides == sig.strides and out_sig.shape == sig.shape:
            return
        what = (f"is the same memory as {sig.name} with a different layout" if o == i
                else f"partially overlaps {sig.name}")
        raise ValueError(f"out: {what}; out must be disjoint from the inputs"
                         + (" or exactly alias one of them" if alias_ok else ""))
