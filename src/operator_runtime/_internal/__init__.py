"""Machinery behind the public API: tensor metadata, dispatch, prepared ops, streams."""
