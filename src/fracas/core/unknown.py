"""Unknown keys named as such, with the nearest allowed name.

Pydantic reports a misspelt required key twice: the key it does not know
(``extra_forbidden``) and the key now missing (``missing``). A GM needs the first, with
a hint: "unknown key 'wound_treshold'; did you mean 'wound_threshold'?". For models that
allow extra keys (a combatant entry, whose extra keys are the sheet), a missing key with a
near-spelt key beside it is reported the same way.
"""

from __future__ import annotations

import difflib
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel


def nearest(name: str, allowed: Iterable[str]) -> str | None:
    """The allowed name closest to ``name`` (difflib), or None when none is close."""
    matches = difflib.get_close_matches(name, list(allowed), n=1, cutoff=0.6)
    return matches[0] if matches else None


def _likeness(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def unknown_message(kind: str, name: str, allowed: Sequence[str]) -> str:
    """``unknown key 'x'; did you mean 'y'?`` (without the hint when nothing is near)."""
    hint = nearest(name, allowed)
    text = f"unknown {kind} {name!r}"
    return f"{text}; did you mean {hint!r}?" if hint else text


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation may hold (through unions, tuples, lists, dicts)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin is None:
        return []
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        args = args[:1]
    elif origin is dict or (isinstance(origin, type) and issubclass(origin, Mapping)):
        args = args[1:]
    out: list[type[BaseModel]] = []
    for arg in args:
        if arg is not Ellipsis:
            out.extend(_models_in(arg))
    return out


def models_at(root: type[BaseModel], loc: Sequence[int | str]) -> list[type[BaseModel]]:
    """The models that may sit at ``loc`` (a pydantic error location) under ``root``."""
    current: list[type[BaseModel]] = [root]
    for part in loc:
        if isinstance(part, int):
            continue
        named = [m for m in current if m.__name__ == part]
        if named:  # a union member's name in the location
            current = named
            continue
        fields = [m.model_fields[part] for m in current if part in m.model_fields]
        if fields:
            current = [m for f in fields for m in _models_in(f.annotation)]
        # otherwise a mapping key: the models stay those of the mapping's values
        if not current:
            return []
    return current


def _field_names(models: Sequence[type[BaseModel]]) -> list[str]:
    names: list[str] = []
    for m in models:
        names.extend(n for n in m.model_fields if n not in names)
    return names


def _missing_beside(errors: Sequence[Mapping[str, Any]], parent: tuple[Any, ...]) -> list[str]:
    """The required keys missing in the mapping at ``parent``."""
    return [str(e["loc"][-1]) for e in errors
            if e.get("type") == "missing" and tuple(e.get("loc", ()))[:-1] == parent]


def _as_unknown(error: Mapping[str, Any], root: type[BaseModel],
                errors: Sequence[Mapping[str, Any]]
                ) -> tuple[dict[str, Any], str, str | None, str | None] | None:
    """An error re-read as an unknown key: (error at the key's location, message, allowed,
    the missing key it stands for), or None when it is not about an unknown key."""
    loc = tuple(error.get("loc", ()))
    if not loc or not isinstance(loc[-1], str):
        return None
    kind = error.get("type")
    names = _field_names(models_at(root, loc[:-1]))
    if kind == "extra_forbidden":
        key = loc[-1]
        missing = _missing_beside(errors, loc[:-1])
        close = difflib.get_close_matches(key, missing, n=1, cutoff=0.4)
        near = nearest(key, names)  # a missing key is the likelier meaning, unless
        hint = close[0] if close and not (near and _likeness(key, near) > _likeness(
            key, close[0])) else near  # another name is plainly nearer ('armour', 'armor')
        message = f"unknown key {key!r}" + (f"; did you mean {hint!r}?" if hint else "")
        return dict(error), message, _fields(names), hint
    if kind == "missing" and isinstance(error.get("input"), Mapping):
        missing_key = str(loc[-1])
        strangers = [str(k) for k in error["input"] if str(k) not in names]
        near = nearest(missing_key, strangers)
        if near is not None:
            return (dict(error, loc=(*loc[:-1], near)),
                    f"unknown key {near!r}; did you mean {missing_key!r}?", _fields(names),
                    missing_key)
    return None


def first_problem(errors: Sequence[Mapping[str, Any]], root: type[BaseModel] | None
                  ) -> tuple[Mapping[str, Any], tuple[str, str | None] | None,
                             list[Mapping[str, Any]]]:
    """The error to report first: an unknown key (with its message and allowed names)
    before any other, else the first error as pydantic orders them; and the other
    problems (a missing key that the unknown one stands for is not one of them)."""
    if root is not None:
        for error in errors:
            found = _as_unknown(error, root, errors)
            if found is not None:
                err, message, allowed, stands_for = found
                loc = tuple(err.get("loc", ()))
                explained = [e for e in errors if e is err or
                             (e.get("type") == "extra_forbidden" and tuple(e["loc"]) == loc)
                             or (e.get("type") == "missing"
                                 and tuple(e["loc"]) == (*loc[:-1], stands_for))]
                return err, (message, allowed), [e for e in errors
                                                 if not any(e is x for x in explained)]
    return errors[0], None, list(errors[1:])


def _fields(names: Sequence[str]) -> str | None:
    return "fields " + ", ".join(names) if names else None
