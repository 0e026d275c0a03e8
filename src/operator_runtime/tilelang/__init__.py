"""The TileLang backend. Imported only when backend="tilelang" is asked for, never by the package."""


def backend_ready() -> str | None:
    """None when the backend can run here, else why not."""
    return "the tilelang backend's kernels are not implemented yet (issue 4)"
