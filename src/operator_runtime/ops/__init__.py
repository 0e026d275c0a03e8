"""One module per op: the out-of-place / `out=` function and its `prepare_<op>`."""
