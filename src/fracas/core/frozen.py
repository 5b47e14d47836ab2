"""Hashable copies of plain data, for sheets and states that the exact roller memoises on."""

from __future__ import annotations

from typing import Any


def freeze(value: Any) -> Any:
    """A hashable copy of plain data: dicts become sorted item tuples, lists tuples.

    >>> freeze({"b": [1, 2], "a": {"x": 1}})
    (('a', (('x', 1),)), ('b', (1, 2)))
    """
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value
