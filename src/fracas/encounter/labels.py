"""Short labels of actions for menus, logs and advice, in the table's words from the
system's data pack (:func:`action_words`, :func:`option_words`, :func:`reaction_words`)."""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Any

from fracas.core.model import Action, Roster
from fracas.core.words import Words, fill


def _changed(action: Action) -> dict[str, Any]:
    return {} if action.options is None else action.options.model_dump(exclude_defaults=True)


def action_words(action: Action, roster: Roster, words: Words) -> str:
    """``Attack the vampire with knife · Called shot: vital spot`` — the action's label,
    its target's name, its weapon and its options, all in the data pack's words."""
    target = None
    if action.target is not None and action.target in roster:
        target = roster[action.target].name
    return _words(action, words, target)


def option_words(action: Action, words: Words, hide: Set[str] = frozenset()) -> str:
    """``Attack with knife · Total attack`` — one of an attacker's options against a
    defender already named, in the data pack's words: the action's label, its weapon
    (unless ``weapon`` is in ``hide``) and its options less the ``hide`` fields."""
    return _words(action, words, None, hide)


def _words(action: Action, words: Words, target: str | None,
           hide: Set[str] = frozenset()) -> str:
    word = words.action(action.kind)
    changed = {k: v for k, v in _changed(action).items() if k not in hide}
    head = word.without_options if word.without_options and not changed else word.label
    if target is not None:
        head += f" {target}"
    if "weapon" in hide:
        pass
    elif action.offensive and word.group in ("attack", "disarm"):
        head += f" with {action.weapon or words.unarmed}"
    elif action.weapon:
        head += " " + fill(word.weapon_words or "with {weapon}", weapon=action.weapon)
    return " · ".join([head, *words.options_text(changed)])


def _nothing(value: Any) -> bool:
    """An option value that declares no reaction (none, off, empty)."""
    if isinstance(value, dict):
        return all(_nothing(v) for v in value.values())
    return value in (None, False, 0, "", "none")


def reaction_words(variant: Action, first: Action, words: Words,
                   variants: Sequence[Action] = ()) -> str:
    """A reaction as the options it changes from the plain attack; the plain attack itself
    by the values it takes for the options the reactions vary (a default defence is named,
    e.g. Dodge), the system's words for no reaction (``No reaction``) only when those values
    declare none."""
    a, b = _changed(first), _changed(variant)
    changed = {k: v for k, v in b.items() if a.get(k) != v}
    full = {} if variant.options is None else variant.options.model_dump()
    changed.update({k: full[k] for k in a if k not in b})
    if not changed and variant.options is not None:
        dumps = [v.options.model_dump() for v in variants if v.options is not None]
        varied = {k: full[k] for k in full if any(d.get(k) != full[k] for d in dumps)}
        if not all(_nothing(v) for v in varied.values()):
            changed = varied
    said = words.options_text(changed)
    return " · ".join(said) if said else words.no_reaction
