"""fracas: a rules-faithful combat engine for tabletop role-playing games.

The library is the product's core; the ``fracas`` command wraps it. The names here
are the usual entry points::

    from fracas import load_scenario, attack_odds, ScriptedRoller
"""

from fracas.analysis.odds import AttackOdds, attack_odds
from fracas.core.errors import FracasError, InputError
from fracas.core.model import Action, Combatant, Resolution, Roster
from fracas.core.registry import get_system, register, systems
from fracas.core.scenario import Scenario, load_scenario
from fracas.core.system import RuleSystem
from fracas.dice import Distribution, ExactRoller, RandomRoller, ScriptedRoller, parse_dice
from fracas.encounter.engine import Encounter, setup_from_scenario

__version__ = "0.1.0"

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
