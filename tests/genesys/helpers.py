"""Shared helpers of the genesys tests: the faces written out independently of the data
pack (public facts), and a brute-force pool enumeration over every face."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fracas.core.model import Action, Roster
from fracas.core.scenario import Scenario
from fracas.dice import RandomRoller
from fracas.encounter.engine import setup_from_scenario, step
from fracas.encounter.modes import LEAN, NARRATED
from fracas.encounter.state import FightState
from fracas.registry.scenarios import load_scenario, scenario_from_mapping
from fracas.systems.genesys.rules import Genesys

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "genesys"
FIGHTS = sorted(EXAMPLES.glob("*-fight.yaml"))  # the example fights

FACES = {
    "boost": ["", "", "s", "sa", "aa", "a"],
    "setback": ["", "", "f", "f", "h", "h"],
    "ability": ["", "s", "s", "ss", "a", "a", "sa", "aa"],
    "difficulty": ["", "f", "ff", "h", "h", "h", "hh", "fh"],
    "proficiency": ["", "s", "s", "ss", "ss", "a", "sa", "sa", "sa", "aa", "aa", "T"],
    "challenge": ["", "f", "f", "ff", "ff", "h", "h", "fh", "fh", "hh", "hh", "D"],
}


def net(symbols: str) -> tuple[int, int, int, int]:
    """Cancel by hand: triumph is also a success, despair also a failure."""
    s = symbols.count("s") + symbols.count("T") - symbols.count("f") - symbols.count("D")
    return (s, symbols.count("a") - symbols.count("h"), symbols.count("T"), symbols.count("D"))


def brute_pool(**counts: int) -> dict[tuple[int, int, int, int], Fraction]:
    """Every way the dice can fall, one face per die, with Fractions."""
    dice = [FACES[name] for name, n in counts.items() for _ in range(n)]
    tally: Counter[tuple[int, int, int, int]] = Counter()
    total = 0
    for faces in itertools.product(*dice):
        tally[net("".join(faces))] += 1
        total += 1
    return {k: Fraction(v, total) for k, v in tally.items()}


def pc(**extra: Any) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        "adversary": "pc",
        "characteristics": {"brawn": 3, "agility": 3, "intellect": 2, "cunning": 2,
                            "willpower": 2, "presence": 2},
        "skills": {"Melee": 2, "Brawl": 1, "Ranged (Heavy)": 2, "Cool": 1, "Vigilance": 2},
        "soak": 3, "wound_threshold": 14, "strain_threshold": 12,
        "weapons": [{"name": "sword", "skill": "Melee", "damage": "+2", "crit": 3},
                    {"name": "rifle", "skill": "Ranged (Heavy)", "damage": 8, "crit": 3,
                     "range": "long"}],
    }
    sheet.update(extra)
    return sheet


def scenario(attacker: dict[str, Any], defender: dict[str, Any], weapon: str = "sword",
             options: dict[str, Any] | None = None, dice: list[Any] | None = None,
             rules: dict[str, Any] | None = None, others: list[dict[str, Any]] | None = None
             ) -> Scenario:
    data: dict[str, Any] = {
        "system": "genesys",
        "rules": rules or {},
        "combatants": [{"id": "a", "side": "heroes", **attacker},
                       {"id": "b", "side": "villains", **defender},
                       *[{"side": "villains", **o} for o in (others or [])]],
        "attack": {"attacker": "a", "defender": "b", "weapon": weapon,
                   "options": options or {}},
    }
    if dice is not None:
        data["dice"] = dice
    return scenario_from_mapping(data)


def example(name: str) -> Scenario:
    return load_scenario(EXAMPLES / name)


def attacks_of(path: Path, seeds: range, monkeypatch: pytest.MonkeyPatch
               ) -> list[tuple[Any, Action, Roster]]:
    """Every attack the fights of these seeds resolve, with the roster it met."""
    seen: list[tuple[Any, Action, Roster]] = []
    resolve = Genesys.resolve

    def spy(self: Genesys, roller: Any, action: Action, roster: Roster) -> Any:
        if action.kind == "attack" and isinstance(roller, RandomRoller):
            seen.append((self, action, roster))
        return resolve(self, roller, action, roster)

    monkeypatch.setattr(Genesys, "resolve", spy)
    sc = load_scenario(path)
    setup = setup_from_scenario(sc)
    for seed in seeds:
        roller, state = RandomRoller(seed), FightState(sc.roster)
        while not state.over:
            state, _ = step(roller, setup, state, LEAN if seed % 2 == 0 else NARRATED)
    monkeypatch.setattr(Genesys, "resolve", resolve)
    return seen
