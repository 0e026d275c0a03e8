"""Who still holds a descriptor: a leak hunt for nanobind's "leaked instances" report at interpreter exit.

nanobind lists every `_C` object alive when the extension is torn down, but not what holds it. Its instances
are not tracked by Python's garbage collector, so they are found here through their holders: every tracked
object whose referents include a `_C` instance. The test suite prints this at the end of a run when
ORT_LEAK_REPORT=1 (tests/conftest.py), after the plan cache has been cleared as it is at exit.
"""

from __future__ import annotations

import gc
from collections import Counter


def descriptor_holders(module: str = "operator_runtime._C") -> Counter:
    """(type of a live instance of `module`, type of an object holding it) -> count, over every object the
    garbage collector tracks. Objects held only by untracked holders (C++ or other untracked instances) are
    not seen."""
    gc.collect()
    held: Counter = Counter()
    for holder in gc.get_objects():
        for obj in gc.get_referents(holder):
            kind = type(obj)
            if kind.__module__ == module and not isinstance(obj, type):
                held[(kind.__name__, _describe(holder))] += 1
    return held


def _describe(holder: object) -> str:
    kind = type(holder)
    if kind.__name__ == "function":
        return f"function {holder.__qualname__}"
    if kind.__name__ == "frame":
        return f"frame {holder.f_code.co_name} ({holder.f_code.co_filename}:{holder.f_lineno})"
    if kind.__name__ == "cell":
        return "cell (a closure's variable)"
    return f"{kind.__module__}.{kind.__qualname__}"


def report(module: str = "operator_runtime._C") -> str:
    held = descriptor_holders(module)
    if not held:
        return f"no live {module} instance is held by a tracked object"
    lines = [f"{n} x {name} held by {holder}" for (name, holder), n in held.most_common()]
    return "live descriptors and their holders:\n  " + "\n  ".join(lines)
