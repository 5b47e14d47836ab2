"""Hashable copies of plain data, for sheets and states that the exact roller memoises on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


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


class HashOnce:
    """For frozen dataclasses that cache their hash in ``_hash`` (exact odds look them up
    at every branch): the cached value is left out when pickled, since hashes of strings
    and classes differ from process to process, and a worker must hash afresh."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state


def cached_hash(obj: Any, compute: Callable[[], int]) -> int:
    """``obj``'s hash, computed by ``compute`` once and kept in ``obj._hash``."""
    cached: int | None = obj.__dict__.get("_hash")
    if cached is None:
        cached = compute()
        object.__setattr__(obj, "_hash", cached)
    return cached


def replaced(obj: T, **changes: Any) -> T:
    """A copy of a frozen dataclass instance with some fields changed, as
    ``dataclasses.replace`` gives, without running ``__init__`` again: only for classes
    with no ``__post_init__`` and no slots (the fight loop's own state, a combatant), on
    the fight loop's hot path. A hash cached by :func:`cached_hash` is not copied."""
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    fields.pop("_hash", None)
    return new
