"""PreparedOp: a descriptor created once, bound to tensors, run many times."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from operator_runtime import _C
from operator_runtime._internal.tensor_meta import Signature, check_overlap
from operator_runtime.backend import Backend
from operator_runtime.errors import OperatorRuntimeError


class PreparedOp:
    """A created descriptor plus the tensors it was prepared for.

    ``op()`` runs on the bound tensors; ``op(*inputs, out=...)`` runs on other tensors with the same
    shape, strides, dtype and device. The call passes raw pointers and torch's current stream, so its
    host cost is a few attribute reads and one C++ call. On a GPU the second bound call records the call as a
    CUDA graph, and later bound calls replay it (half the host cost of a launch on the H200:
    src/cpp/bindings/call_graph.cc), while the bound tensors keep their data pointers and the stream is not
    being captured; otherwise the call launches as before.
    """

    __slots__ = ("_desc", "_backend", "_name", "_inputs", "_out", "_in_sigs", "_out_sig", "_alias_ok",
                 "_workspace", "_ws_ptr", "_ws_size", "_stream", "_pointer_abi", "_graph", "_bound_calls",
                 "__weakref__")

    def __init__(self, desc: Any, backend: Backend, name: str, inputs: tuple[torch.Tensor, ...],
                 input_names: tuple[str, ...], out: torch.Tensor, alias_ok: bool,
                 stream: Callable[[], int]):
        self._desc = desc
        self._backend = backend
        self._name = name
        self._inputs = inputs
        self._out = out
        self._in_sigs = tuple(Signature(t, n) for t, n in zip(inputs, input_names))
        self._out_sig = Signature(out, "out")
        self._alias_ok = alias_ok
        size = desc.workspace_size
        # Execute never allocates: the workspace is owned here, sized once at create.
        self._workspace = torch.empty(size, dtype=torch.uint8, device=out.device) if size else None
        self._ws_ptr = self._workspace.data_ptr() if size else 0
        self._ws_size = size
        self._stream = stream
        # C++ descriptors take raw pointers and a stream; TileLang descriptors take the tensors themselves.
        self._pointer_abi = hasattr(desc, "execute")
        # The recorded call (a _C.CallGraph) once the bound form has run twice; False where it cannot be recorded.
        self._graph: Any = None if self._pointer_abi and out.device.type == "cuda" and _C.cuda_built() else False
        self._bound_calls = 0
        self._check_overlaps(inputs, out)

    def _check_overlaps(self, inputs: tuple[torch.Tensor, ...], out: torch.Tensor) -> None:
        for t, sig in zip(inputs, self._in_sigs):
            check_overlap(out, self._out_sig, t, sig, self._alias_ok)

    def __call__(self, *inputs: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
        desc = self._desc
        if desc is None:
            raise OperatorRuntimeError(f"prepared {self._name} was closed; prepare it again")
        if inputs or out is not None or self._out is None:
            inputs, out = self._rebind(inputs, out)
        else:
            inputs, out = self._inputs, self._out
            graph = self._graph
            if graph is None:
                graph = self._record(desc, inputs, out)
            if graph and graph.replay(self._stream(), out.data_ptr(), inputs[0].data_ptr(),
                                      inputs[1].data_ptr() if len(inputs) > 1 else 0):
                return out
        self._launch(desc, inputs, out)
        return out

    def _record(self, desc: Any, inputs: tuple, out: torch.Tensor) -> Any:
        """Records the bound call as a CUDA graph on its second call (None until then; False if it cannot)."""
        self._bound_calls += 1
        if self._bound_calls < 2 or torch.cuda.is_current_stream_capturing():
            return None  # inside a capture, recording would nest one: wait for a plain call
        if len(inputs) > 2 or out.numel() == 0:
            self._graph = False  # execute's pointer ABI takes at most two inputs; an empty call launches nothing
            return False
        ptrs = (out.data_ptr(), *(t.data_ptr() for t in inputs))
        try:
            with torch.cuda.device(out.device):
                self._graph = _C.CallGraph(
                    lambda stream: desc.execute(self._ws_ptr, self._ws_size, *ptrs, stream), *ptrs)
        except Exception:
            # Recording only saves host time: a call it cannot record still runs, by the launch below, which
            # raises the call's own error if it has one.
            self._graph = False
        return self._graph

    def _launch(self, desc: Any, inputs: tuple, out: torch.Tensor) -> None:
        # Spelled out per arity: star-unpacking a list of pointers into the nanobind call cost 0.35 µs of a
        # 0.76 µs prepared call on the CPU machine (host_overhead's "descriptor execute (C++ only)" row).
        if not self._pointer_abi:
            desc.run(out, *inputs, workspace=self._workspace)
        elif len(inputs) == 1:
            desc.execute(self._ws_ptr, self._ws_size, out.data_ptr(), inputs[0].data_ptr(), self._stream())
        elif len(inputs) == 2:
            desc.execute(self._ws_ptr, self._ws_size, out.data_ptr(), inputs[0].data_ptr(), inputs[1].data_ptr(),
                         self._stream())
        else:
            desc.execute(self._ws_ptr, self._ws_size, out.data_ptr(), *[t.data_ptr() for t in inputs],
                         self._stream())

    def _rebind(self, inputs: tuple, out: torch.Tensor | None) -> tuple[tuple, torch.Tensor]:
        if not inputs:
            if self._inputs is None:
                raise TypeError(f"prepared {self._name} is not bound to inputs; pass them: op(*inputs, out=...)")
            inputs = self._inputs
        elif len(inputs) != len(self._in_sigs):
            names = ", ".join(s.name for s in self._in_sigs)
            raise TypeError(f"prepared {self._name} takes {len(self._in_sigs)} input(s) ({names}), "
                            f"got {len(inputs)}")
        else:
            inputs = tuple(sig.check(t) for t, sig in zip(inputs, self._in_sigs))
        out = self._out_sig.empty() if out is None else self._out_sig.check(out)
        self._check_overlaps(inputs, out)
        return inputs, out

    def run_matching(self, inputs: tuple, out: torch.Tensor | None) -> torch.Tensor:
        """Runs on tensors the caller has already matched to this op's signatures (the plan cache keys on
        them): only the pointer-dependent overlap check remains."""
        if out is None:
            out = self._out_sig.empty()
        self._check_overlaps(inputs, out)
        self._launch(self._desc, inputs, out)
        return out

    def unbind(self) -> PreparedOp:
        """Drops the bound tensors (the plan cache keeps descriptors, never user tensors). Afterwards
        only `op(*inputs, out=...)` can run it."""
        self._inputs = None
        self._out = None
        if self._graph:
            self._graph = False  # it replays the dropped tensors' pointers: never again
        return self

    @property
    def backend(self) -> Backend:
        return self._backend

    @property
    def out(self) -> torch.Tensor:
        return self._out

    @property
    def workspace_size(self) -> int:
        return self._ws_size

    @property
    def closed(self) -> bool:
        return self._desc is None

    def close(self) -> None:
        """Destroys the descriptor now. Idempotent; the object also closes when collected."""
        if self._desc is not None:
            self._graph = False  # the recorded graph holds the descriptor's kernels: it goes first
            self._desc.close()
            self._desc = None
            self._workspace = None

    def __enter__(self) -> PreparedOp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._desc is None else f"workspace={self._ws_size}B"
        return f"<PreparedOp {self._name} backend={self._backend.value} {state}>"
