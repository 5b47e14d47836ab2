"""fracas: a rules-faithful combat engine for tabletop role-playing games.

The library is the product's core; the ``fracas`` command wraps it. The names here
are the usual entry points::

    from fracas import load_scenario, attack_odds, ScriptedRoller

They are imported on first use (``import fracas`` itself loads nothing heavy), so the
command line starts at once.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_WHERE = {
    "AttackOdds": "fracas.odds.attack",
    "attack_odds": "fracas.odds.attack",
    "FracasError": "fracas.errors",
    "InputError": "fracas.errors",
    "Action": "fracas.core.model",
    "Combatant": "fracas.core.model",
    "Resolution": "fracas.core.model",
    "Roster": "fracas.core.model",
    "get_system": "fracas.registry",
    "register": "fracas.registry",
    "systems": "fracas.registry",
    "Scenario": "fracas.core.scenario",
    "load_scenario": "fracas.registry.scenarios",
    "RuleSystem": "fracas.core.system",
    "Distribution": "fracas.dice",
    "ExactRoller": "fracas.dice",
    "RandomRoller": "fracas.dice",
    "ScriptedRoller": "fracas.dice",
    "parse_dice": "fracas.dice",
    "Encounter": "fracas.encounter.engine",
    "setup_from_scenario": "fracas.encounter.engine",
}

__all__ = [
    "Action",
    "AttackOdds",
    "Combatant",
    "Distribution",
    "Encounter",
    "ExactRoller",
    "FracasError",
    "InputError",
    "RandomRoller",
    "Resolution",
    "Roster",
    "RuleSystem",
    "Scenario",
    "ScriptedRoller",
    "attack_odds",
    "get_system",
    "load_scenario",
    "parse_dice",
    "register",
    "setup_from_scenario",
    "systems",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'fracas' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


if TYPE_CHECKING:
    from fracas.core.model import Action, Combatant, Resolution, Roster
    from fracas.core.scenario import Scenario
    from fracas.core.system import RuleSystem
    from fracas.dice import Distribution, ExactRoller, RandomRoller, ScriptedRoller, parse_dice
    from fracas.encounter.engine import Encounter, setup_from_scenario
    from fracas.errors import FracasError, InputError
    from fracas.odds.attack import AttackOdds, attack_odds
    from fracas.registry import get_system, register, systems
    from fracas.registry.scenarios import load_scenario
