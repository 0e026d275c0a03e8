"""operator_runtime: a teaching-grade operator runtime with a torch-style API.

Every op comes in three forms: out-of-place (`ort.copy(x)`), `out=` (`ort.copy(x, out=y)`) and
prepared (`op = ort.prepare_copy(x, out=y); op()`), dispatched to the cpu, nvidia or tilelang backend.
"""

from operator_runtime._internal.prepared import PreparedOp
from operator_runtime.backend import Backend, available_backends
from operator_runtime.errors import BackendUnavailableError, OperatorRuntimeError
from operator_runtime.ops.copy import copy, prepare_copy
from operator_runtime.ops.reduce_sum import prepare_reduce_sum, reduce_sum
from operator_runtime.ops.softmax import prepare_softmax, softmax
from operator_runtime.ops.vector_add import prepare_vector_add, vector_add

__version__ = "0.1.0"

__all__ = [
    "Backend", "available_backends", "BackendUnavailableError", "OperatorRuntimeError", "PreparedOp",
    "copy", "prepare_copy", "vector_add", "prepare_vector_add", "reduce_sum", "prepare_reduce_sum",
    "softmax", "prepare_softmax",
]
