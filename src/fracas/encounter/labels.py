"""Short labels of actions for menus, logs and advice."""

from __future__ import annotations

from collections.abc import Set

from fracas.core.model import Action


def describe_action(action: Action, hide: Set[str] = frozenset()) -> str:
    """A short label: kind, weapon and the options set, less the ``hide`` fields."""
    opts = {} if action.options is None else action.options.model_dump(exclude_defaults=True)
    opts = {k: v for k, v in opts.items() if k not in hide and k != "path"}
    parts = [] if action.kind == "attack" or action.kind in opts else [action.kind]
    if action.weapon and "weapon" not in hide:
        parts.append(action.weapon)
    for k, v in opts.items():
        parts.append(k if v is True else f"no {k}" if v is False else f"{k}={v}")
    return ", ".join(parts) or "plain"
