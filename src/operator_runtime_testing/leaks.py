"""Who still holds a descriptor: a leak hunt for nanobind's "leaked instances" report at interpreter exit.

nanobind lists every `_C` object alive when the extension is torn down, but not what holds it. Its instances
are not tracked by Python's garbage collector, so they are found here through their holders: every tracked
object whose referents include a `_C` instance. The test suite prints this at the end of a run when
ORT_LEAK_REPORT=1 (tests/conftest.py), after the plan cache has been cleared as it is at exit.
"""

from __future__ import annotations

import gc
import os
import types
from collections import Counter
from collections.abc import Iterable

# Walking through these would reach the whole process (a function's globals, a class's methods, a module's dict).
_OPAQUE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.CodeType, types.MethodType)


def descriptor_holders(module: str = "operator_runtime._C") -> Counter:
    """(type of a live instance of `module`, type of an object holding it) -> count, over every object the
    garbage collector tracks. Objects held only by untracked holders (C++ or other untracked instances) are
    not seen."""
    return Counter({key: len(found) for key, found in _holders(module).items()})


def _holders(module: str) -> dict[tuple[str, str], list]:
    gc.collect()
    held: dict[tuple[str, str], list] = {}
    for holder in gc.get_objects():
        for obj in gc.get_referents(holder):
            kind = type(obj)
            if kind.__module__ == module and not isinstance(obj, type):
                held.setdefault((kind.__name__, _describe(holder)), []).append(holder)
    return held


def holder_chain(obj: object, depth: int = 3, fan_out: int = 3, exclude: Iterable[object] = ()) -> list[str]:
    """Who holds `obj`, and who holds those, `depth` levels up (at most `fan_out` holders a level), one line each,
    indented by level. A level with no holder the collector tracks says so: then a reference from C keeps it (a
    C extension's, or one leaked by a refcount bug), which no Python walk can name. Session 37's GPU leak ended
    there: a finished frame of PreparedOp.__call__ held only from C, under compute-sanitizer alone (its host
    backtraces, session 57). `exclude`:
    containers of the caller's that hold `obj` only for the walk."""
    ours = {id(o) for o in exclude}  # and the lists this walk makes; its own frames are left out by module
    kept: list[list] = []  # those lists, alive until the walk ends, so that no other object takes their ids
    ours.add(id(kept))
    lines: list[str] = []

    def walk(o: object, level: int) -> None:
        every = gc.get_referrers(o)
        found = [r for r in every if id(r) not in ours and id(r) != id(every) and not _in_this_module(r)]
        kept.extend((every, found))
        ours.update((id(every), id(found)))
        if not found:
            lines.append("  " * level + "held by nothing the collector tracks (a reference from C)")
            return
        for r in found[:fan_out]:
            lines.append("  " * level + "held by " + _describe(r))
            if level < depth:
                walk(r, level + 1)
        if len(found) > fan_out:
            lines.append("  " * level + f"... and {len(found) - fan_out} more")

    walk(obj, 1)
    return lines


def reachable_from(root: object) -> list:
    """Every object reachable from `root` through the collector's referents, without entering modules, classes,
    functions or code objects: what a cache could keep alive. Tensors are listed, not entered."""
    import torch

    seen, found, todo = {id(root)}, [], [root]
    while todo:
        for o in gc.get_referents(todo.pop()):
            if id(o) in seen or isinstance(o, _OPAQUE):
                continue
            seen.add(id(o))
            found.append(o)
            if not isinstance(o, torch.Tensor):
                todo.append(o)
    return found


def under_compute_sanitizer() -> bool:
    """Whether compute-sanitizer injected itself into this process. It keeps the Python frames of the CUDA API
    calls it intercepts alive from C (session 57, runs je-jf: finished frames held by no tracked object, gone with
    its host backtraces turned off), so a test that a call's tensors die with the call cannot run under it."""
    # Both signs were read inside a process under the tool in run jf: its variables and its mapped libraries.
    if any(name.startswith("NV_SANITIZER_INJECTION_") for name in os.environ):
        return True
    try:
        with open("/proc/self/maps") as maps:
            return any("libsanitizer" in line.lower() for line in maps)
    except OSError:
        return False


def _in_this_module(obj: object) -> bool:
    return type(obj).__name__ == "frame" and obj.f_code.co_filename == __file__


def _describe(holder: object) -> str:
    kind = type(holder)
    if kind.__name__ == "function":
        return f"function {holder.__qualname__}"
    if kind.__name__ == "frame":
        return f"frame {holder.f_code.co_name} ({holder.f_code.co_filename}:{holder.f_lineno})"
    if kind.__name__ == "cell":
        return "cell (a closure's variable)"
    return f"{kind.__module__}.{kind.__qualname__}"


def report(module: str = "operator_runtime._C", depth: int = 2) -> str:
    """Each kind of live `module` instance with its holders, and for one holder of each kind, who holds that
    holder, `depth` levels up (holder_chain)."""
    held = _holders(module)
    if not held:
        return f"no live {module} instance is held by a tracked object"
    lines = ["live descriptors and their holders:"]
    for (name, holder), found in sorted(held.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"  {len(found)} x {name} held by {holder}")
        lines += ["  " + line for line in holder_chain(found[0], depth, exclude=[held, *held.values()])]
    return "\n".join(lines)
