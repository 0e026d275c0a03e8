"""The exception types of the public API.

``OperatorRuntimeError`` is defined by the extension (so C++ can raise it) and re-exported here;
``BackendUnavailableError`` narrows it for a backend that cannot run on this machine.
"""

from operator_runtime._C import OperatorRuntimeError


class BackendUnavailableError(OperatorRuntimeError):
    """An explicitly requested backend is not built, not installed, or has no device here."""


__all__ = ["OperatorRuntimeError", "BackendUnavailableError"]
