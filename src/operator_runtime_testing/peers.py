"""torch.compile as a bench peer, specialised to each case's shapes the way a user's model would be."""

from __future__ import annotations

import torch


def compiled(fn):
    """torch.compile(fn) for one case. Every case of an op compiles the same lambda, and dynamo caches on
    the code object: past its recompile limit (8) it would quietly run eager, and after a second shape it
    would switch to dynamic shapes. So: static shapes, a limit above the suite's size, and an error rather
    than a silent eager fallback (the bench reports a failing peer as a note)."""
    cfg = torch._dynamo.config
    cfg.recompile_limit = max(cfg.recompile_limit, 1024)
    cfg.accumulated_recompile_limit = max(cfg.accumulated_recompile_limit, 4096)
    cfg.fail_on_recompile_limit_hit = True
    return torch.compile(fn, dynamic=False)
