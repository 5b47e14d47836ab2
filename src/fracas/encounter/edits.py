"""A GM's hand edit of a combatant's state, checked by the state's own type.

Every system's state is a frozen dataclass; a hand edit of one of its fields is checked
against that field's declared type by pydantic (the library that checks the sheets), so a
wrong type (``initiative: "x"``, ``conditions: [1, 2]``) is refused with the field named and
never reaches a later decision. Whole numbers are bounded (a value no table could mean, such
as ``10**400``, would overflow the health bar). Typed-in conveniences: ``"a, b"`` for a list,
``none`` or nothing for an empty optional value, ``yes``/``no`` for true/false.

>>> from fracas.systems.tristat.state import State
>>> s = State(health=30, max_health=30, energy=20, max_energy=20)
>>> checked_edit(s, "health", "12")
12
>>> checked_edit(s, "conditions", "stunned, prone")
('stunned', 'prone')
>>> try:
...     checked_edit(s, "conditions", [1, 2])
... except Exception as err:
...     print(err.path, err.allowed)
conditions[0] a list of text values
"""

from __future__ import annotations

import functools
import typing
from dataclasses import fields
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic.errors import PydanticSchemaGenerationError

from fracas.core.events import _frozen
from fracas.errors import InputError

MAX_WHOLE = 1_000_000  # the largest size of a whole number set by hand (either sign)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


@functools.cache
def _adapter(hint: Any) -> TypeAdapter[Any] | None:
    try:
        return TypeAdapter(hint)
    except (PydanticSchemaGenerationError, TypeError):
        return None


def _args(hint: Any) -> tuple[Any, ...]:
    return typing.get_args(hint) or ()


def _optional(hint: Any) -> bool:
    return type(None) in _args(hint)


def _is_tuple(hint: Any) -> bool:
    inner = [a for a in _args(hint) if a is not type(None)] if _optional(hint) else [hint]
    return any(typing.get_origin(a) is tuple for a in inner)


def describe(hint: Any) -> str:
    """What a field accepts, in words."""
    names = {int: "a whole number", str: "text", bool: "true or false", float: "a number"}
    if hint in names:
        return names[hint] if hint is not int else f"{names[int]} from -{MAX_WHOLE} to {MAX_WHOLE}"
    args = [a for a in _args(hint) if a is not type(None)]
    if typing.get_origin(hint) is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = describe(args[0])
            return f"a list of {inner.replace('a whole number', 'whole numbers')}" \
                if args[0] is int else f"a list of {inner} values"
        return f"a list of {len(args)} values ({', '.join(describe(a) for a in args)})"
    if _optional(hint) and len(args) == 1:
        return f"{describe(args[0])}, or none"
    return " or ".join(describe(a) for a in args) if args else str(hint)


def _too_big(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > MAX_WHOLE
    if isinstance(value, tuple | list):
        return any(_too_big(v) for v in value)
    return False


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def checked_edit(state: Any, field: str, value: Any) -> Any:
    """``value`` as the new ``field`` of ``state``, in the field's type; an InputError naming
    the field (and the item of a list) and what it accepts if it does not fit."""
    hint = _hints(type(state)).get(field)
    if field not in {f.name for f in fields(state)} or hint is None:
        raise InputError(f"no value {field!r}", path=field)
    adapter = _adapter(hint)
    if adapter is None:
        raise InputError(f"{field} cannot be set by hand", path=field,
                         allowed="health, conditions and other plain values")
    if _optional(hint) and (value is None or (isinstance(value, str)
                                              and value.strip().lower() in ("", "none"))):
        return None
    if isinstance(value, str) and _is_tuple(hint):
        value = [v.strip() for v in value.split(",") if v.strip()]
    try:
        checked = adapter.validate_python(value)
    except ValidationError as err:
        first = err.errors()[0]
        where = field + "".join(f"[{p}]" for p in first["loc"] if isinstance(p, int))
        raise InputError(f"{_shown(first['input'])} is not allowed here: {first['msg']}",
                         path=where, allowed=describe(hint)) from None
    if _too_big(checked):
        raise InputError(f"{_shown(value)} is too large for a hand edit", path=field,
                         allowed=describe(hint))
    return _frozen(checked)
