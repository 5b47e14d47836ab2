"""The turn model of the fight loop (issue 15): added and delayed slots are events, so a
saved fight log replays them; the exact (lean) step keeps them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fracas.core.events import SlotAdded, TurnStarted
from fracas.core.scenario import Scenario
from fracas.dice.rollers import ScriptedRoller
from fracas.encounter.engine import Encounter, FightSetup, step
from fracas.encounter.modes import LEAN
from fracas.encounter.state import FightState
from fracas.registry.scenarios import scenario_from_mapping
from tests.encounter.scripted import scripted


def _duel() -> Scenario:
    def who(cid: str, dex: int) -> dict[str, object]:
        return {"id": cid, "side": cid, "attributes": {"dexterity": dex, "fitness": 5,
                                                      "spirit": 5},
                "skills": {"swords": 5}, "wounds": {"max": 20},
                "weapons": [{"name": "sword", "rating": 4, "blocking": True,
                             "skill": "swords"}]}
    return scenario_from_mapping({"system": "zamani",
                                  "combatants": [who("ann", 8), who("bob", 5)]})


def test_a_delayed_slot_is_saved_and_replayed(tmp_path: Path) -> None:
    s = _duel()
    setup = FightSetup(s.system, (("ann", "scripted"), ("bob", "scripted")))
    with scripted({"ann": [{"kind": "delay"}]}):
        fight = Encounter(s, setup, roller=ScriptedRoller([99, 99]))
        for _ in range(3):
            fight.step()
        path = tmp_path / "fight.jsonl"
        fight.save(path)
    with scripted({"ann": [{"kind": "delay"}]}):  # the same choices, made again
        loaded = Encounter.load(path)  # a log names its policies: the test's must exist
    assert [e.actor for e in fight.events if isinstance(e, TurnStarted)] == ["ann", "bob", "ann"]
    assert len(fight.state.slots) == 3
    assert loaded.state == fight.state
    assert [e for e in loaded.events if isinstance(e, SlotAdded)] == [
        e for e in fight.events if isinstance(e, SlotAdded)]


def test_the_lean_step_keeps_an_added_slot() -> None:
    s = _duel()
    setup = FightSetup(s.system, (("ann", "scripted"), ("bob", "scripted")))
    with scripted({"ann": [{"kind": "delay"}]}):
        state, events = step(ScriptedRoller([]), setup, FightState(s.roster), LEAN)
    assert any(isinstance(e, SlotAdded) for e in events)
    assert [sl.label for sl in state.slots] == ["countdown 8", "countdown 5",
                                                 "countdown 8 (delayed)"]


def test_a_round_choice_offered_again_and_again_is_refused_by_name() -> None:
    # the fight loop asks round_choices in passes until nobody has one left; a system that
    # keeps offering one after a choice is made gets a RulesError naming it, not a hang
    from fracas.core.model import Action
    from fracas.dice.rollers import RandomRoller
    from fracas.errors import RulesError
    from fracas.systems.zamani.rules import Zamani
    from fracas.systems.zamani.sheet import Options

    class Insistent(Zamani):
        @classmethod
        def data_dir(cls) -> Path:
            return Zamani.data_dir()

        def round_choices(self, actor: str, roster: Any, round_number: int) -> list[Action]:
            return [Action(actor, None, None, "wait", Options(), offensive=False)]

    s = _duel()
    setup = FightSetup(Insistent(), (("ann", "aggressive"), ("bob", "aggressive")))
    with pytest.raises(RulesError, match="round_choices still offers a choice after 8 passes"):
        step(RandomRoller(1), setup, FightState(s.roster))
