"""Values set by hand at the table (a GM's edit typed in, or read back from a log),
validated against the type the combatant's state declares for the field (pydantic), so a
hand edit can never hold what the rules' own code would not (``initiative: "x"``,
``position: 1.5``, a health of 10**400)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, get_args, get_origin, get_type_hints

from fracas.core.events import from_jsonable
from fracas.errors import InputError

MAX_HAND_NUMBER = 1_000_000_000  # a hand-set whole number: far beyond any sheet's value


def hand_value(state_type: type, field: str, value: Any, *, strict: bool = False) -> Any:
    """A value set by hand (typed by the GM, or a GM edit read back from a log) in the
    type the state's field declares, validated by pydantic against that declaration:
    ``"3"`` for a whole number, ``true``/``no`` for a flag, ``a, b`` for a list, ``none``
    where nothing is allowed; anything else is an :class:`InputError` saying what fits.
    ``strict``: the value as read from a log, of exactly the field's type (no text read as
    a number)."""
    from pydantic import TypeAdapter, ValidationError

    hint = field_hints(state_type).get(field)
    if hint is None:
        raise InputError(f"{field} cannot be set by hand", path=field,
                         allowed="health, conditions and other plain values")
    words = hint_words(hint)
    if isinstance(value, str) and not strict:
        text = value.strip()
        if text.lower() in ("", "none", "null") and _allows_none(hint):
            value = None
        elif _is_list(hint):  # "none": the empty list, as the narration shows it
            value = [] if text.lower() == "none" else [
                v.strip() for v in text.split(",") if v.strip()]
        else:
            value = text
    try:
        out = TypeAdapter(hint).validate_python(value, strict=strict)
    except ValidationError as err:  # the item of a list that does not fit is named
        where = field + "".join(f"[{p}]" for p in err.errors()[0]["loc"]
                                if isinstance(p, int))
        raise InputError(f"{shown(value)} does not fit {field}", path=where,
                         allowed=words) from None
    except (TypeError, ValueError):
        raise InputError(f"{shown(value)} does not fit {field}", path=field,
                         allowed=words) from None
    if any(type(n) is int and abs(n) > MAX_HAND_NUMBER for n in _leaves(out)):
        raise InputError(f"{shown(value)} is out of range for {field}", path=field,
                         allowed=f"{words}, from -{MAX_HAND_NUMBER:,} to {MAX_HAND_NUMBER:,}")
    return from_jsonable(out)


def shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _leaves(value: Any) -> list[Any]:
    return [x for v in value for x in _leaves(v)] if isinstance(value, tuple | list) else [
        value]


_STATE_HINTS: dict[type, dict[str, Any]] = {}


def field_hints(state_type: type) -> dict[str, Any]:
    if state_type not in _STATE_HINTS:
        try:
            hints = get_type_hints(state_type)
        except (NameError, TypeError):
            hints = {}
        _STATE_HINTS[state_type] = {f.name: hints[f.name] for f in fields(state_type)
                                    if f.name in hints and _plain(hints[f.name])}
    return _STATE_HINTS[state_type]


def _args(hint: Any) -> tuple[Any, ...]:
    return get_args(hint)


def _plain(hint: Any) -> bool:
    """A field of plain values (numbers, flags, text, tuples and optionals of them)."""
    if hint in (int, str, bool, float, type(None)):
        return True
    args = [a for a in _args(hint) if a is not Ellipsis]
    return bool(args) and all(_plain(a) for a in args)


def _allows_none(hint: Any) -> bool:
    return type(None) in _args(hint)


def _is_list(hint: Any) -> bool:
    return get_origin(hint) is tuple or any(get_origin(a) is tuple for a in _args(hint))


def hint_words(hint: Any) -> str:
    """A field's declared type in words (what a hand edit may give)."""
    names = {int: "a whole number", str: "text", bool: "true or false", float: "a number",
             type(None): "none"}
    if hint in names:
        return names[hint]
    args = _args(hint)
    if get_origin(hint) is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a comma-separated list of {hint_words(args[0]).removeprefix('a ')}"
        return "comma-separated: " + ", ".join(hint_words(a) for a in args)
    return " or ".join(hint_words(a) for a in args)
