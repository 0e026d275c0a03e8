"""The TileLang backend: every op as an eager (`T.empty`) kernel and a lazy (`out_idx`) kernel factory.

Imported only when `backend="tilelang"` (or `operator_runtime.tilelang.eager`) is asked for, never by
`import operator_runtime`.
"""

from __future__ import annotations


def backend_ready() -> str | None:
    """None when the backend can run here, else why not (tilelang import and a CUDA device are checked
    by the caller, operator_runtime.backend.unavailable_reason)."""
    from operator_runtime import _C

    if not _C.cuda_built():
        # The TileLang descriptors validate through the same C++ Info as the nvidia backend.
        return "the tilelang backend validates through the nvidia build, which was not compiled"
    return None
