"""PerformanceResult: one benchmark row, shaped like a production profiler row."""

from __future__ import annotations

import datetime as _dt
import math
import platform
from dataclasses import asdict, dataclass, field

import torch

from operator_runtime_testing.timing import Stats


def unique_bytes(t: torch.Tensor) -> int:
    """Bytes a kernel must move for t: each distinct element once (a 0-stride dim adds nothing)."""
    n = math.prod(size for size, stride in zip(t.shape, t.stride()) if stride != 0)
    return n * t.element_size() if t.numel() else 0


@dataclass(frozen=True)
class Work:
    bytes: int
    flops: int


def provenance(device: torch.device) -> dict:
    import operator_runtime as ort

    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
    else:
        name = f"CPU ({platform.processor() or platform.machine()})"
    return {
        "device": name,
        "device_type": device.type,
        "torch": torch.__version__,
        "cuda": torch.version.cuda or "",
        "operator_runtime": ort.__version__,
        "python": platform.python_version(),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


@dataclass
class PerformanceResult:
    op: str
    backend: str
    case: str
    dtype: str
    shape: str
    latency: Stats
    work: Work
    peer_latency: Stats | None
    ceiling_gbs: float
    provenance: dict = field(default_factory=dict)
    others: dict[str, Stats] = field(default_factory=dict)  # further peers (liger, compile), same run

    @property
    def gbs(self) -> float:
        return self.work.bytes / (self.latency.median_us * 1e3)

    @property
    def pct_of_ceiling(self) -> float:
        return 100.0 * self.gbs / self.ceiling_gbs if self.ceiling_gbs else float("nan")

    @property
    def peer_gbs(self) -> float:
        return self.work.bytes / (self.peer_latency.median_us * 1e3) if self.peer_latency else float("nan")

    @property
    def speedup(self) -> float:
        return self.peer_latency.median_us / self.latency.median_us if self.peer_latency else float("nan")

    def row(self) -> dict:
        """A flat dict for JSON/CSV: measured fields, derived rates, provenance."""
        return {
            "op": self.op, "backend": self.backend, "case": self.case, "dtype": self.dtype, "shape": self.shape,
            "us_median": round(self.latency.median_us, 3), "us_min": round(self.latency.min_us, 3),
            "us_max": round(self.latency.max_us, 3), "bytes": self.work.bytes, "flops": self.work.flops,
            "gbs": round(self.gbs, 1), "pct_ceiling": round(self.pct_of_ceiling, 1),
            "ceiling_gbs": round(self.ceiling_gbs, 1),
            "torch_us": round(self.peer_latency.median_us, 3) if self.peer_latency else None,
            "torch_gbs": round(self.peer_gbs, 1) if self.peer_latency else None,
            "speedup_vs_torch": round(self.speedup, 3) if self.peer_latency else None,
            **{f"{name}_us": round(st.median_us, 3) for name, st in self.others.items()},
            **{f"speedup_vs_{name}": round(st.median_us / self.latency.median_us, 3)
               for name, st in self.others.items()},
            **self.provenance,
        }


def geomean_speedups(rows: list[dict]) -> dict:
    """Geometric-mean speedup per backend over JSON rows, vs torch and vs every further peer they carry."""
    logs: dict[str, dict[str, list[float]]] = {}
    for r in rows:
        for key, value in r.items():
            if key.startswith("speedup_vs_") and value:
                logs.setdefault(r["backend"], {}).setdefault(key.removeprefix("speedup_vs_"), []).append(
                    math.log(value))
    return {b: {peer: math.exp(sum(v) / len(v)) for peer, v in by_peer.items()} for b, by_peer in logs.items()}


def vs_torch(speedups: dict) -> dict:
    """The torch column of geomean_speedups(): backend -> geomean speedup vs torch."""
    return {b: peers["torch"] for b, peers in speedups.items() if "torch" in peers}


def summary_latency(results: list[PerformanceResult]) -> dict:
    """Geometric-mean speedup vs torch per backend."""
    return vs_torch(geomean_speedups([r.row() for r in results]))


__all__ = ["PerformanceResult", "Work", "unique_bytes", "provenance", "summary_latency", "geomean_speedups",
           "vs_torch", "asdict"]
