"""The conformance kit's check that a rule system skips narration only (``fracas.testing``,
check 8): under a roller that does not narrate (the simulation's), the same dice are drawn
and the fight changes the same. Two systems that break it, each caught with a message
that says how."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from fracas.core.events import Changed
from fracas.core.model import Action, Resolution, Roster
from fracas.dice import d
from fracas.dice.rollers import Roller, narrated
from fracas.registry.scenarios import load_scenario
from fracas.systems.zamani.rules import Zamani
from fracas.testing import check_fight_hooks

DUEL = Path(__file__).resolve().parents[2] / "examples" / "zamani" / "duel-fight.yaml"


class _Zamani(Zamani):
    @classmethod
    def data_dir(cls) -> Path:
        return Zamani.data_dir()


class RollsOnlyWhenTold(_Zamani):
    """Rolls a die for its narration alone, after the action: this action changes the
    same, but every later die of the fight moves."""

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        done = super().resolve(roller, action, roster)
        if narrated(roller):
            roller.roll(d(6))
        return done


class ChangesOnlyWhenTold(_Zamani):
    """Keeps a state change among the events it skips when nobody reads them."""

    def resolve(self, roller: Roller, action: Action, roster: Roster) -> Resolution:
        done = super().resolve(roller, action, roster)
        if narrated(roller):
            return done
        return dataclasses.replace(done, events=tuple(
            e for e in done.events if not isinstance(e, Changed)))


def _with(system: Any) -> Any:
    scenario = load_scenario(DUEL)
    return dataclasses.replace(scenario, system=system)


def test_the_kit_passes_a_system_that_skips_narration_only() -> None:
    check_fight_hooks(_with(_Zamani()))


def test_the_kit_refuses_a_system_whose_dice_move_without_narration() -> None:
    with pytest.raises(AssertionError, match="without narration the dice are drawn"):
        check_fight_hooks(_with(RollsOnlyWhenTold()))


def test_the_kit_refuses_a_system_whose_changes_differ_without_narration() -> None:
    with pytest.raises(AssertionError, match="without narration the fight changes"):
        check_fight_hooks(_with(ChangesOnlyWhenTold()))
