"""Health (public fact): at 0 unconscious and losing 1 a round, at −20 dead."""

from __future__ import annotations

from fracas.core.model import apply_events
from fracas.dice import ScriptedRoller
from tests.tristat.util import after, make, person, run, texts

AXE = {"name": "axe", "damage": 20, "kind": "melee"}


def test_zero_health_is_unconscious_and_taken_out() -> None:
    scenario = make(person("a", "x", skills={"melee": 3}, weapons=[AXE]),
                    person("b", "y", health=25), {"weapon": "axe"})
    result = run(scenario, [2, 2, 6, 6])
    assert result.damage == 25 and result.taken_out
    b = after(scenario, result)["b"]
    assert (b.state.health, b.state.conditions) == (0, ("unconscious",))
    assert not scenario.system.is_active(b)


def test_minus_twenty_is_dead() -> None:
    scenario = make(person("a", "x", skills={"melee": 3}, weapons=[AXE]),
                    person("b", "y", health=5), {"weapon": "axe"})
    result = run(scenario, [2, 2, 6, 6])
    b = after(scenario, result)["b"]
    assert (b.state.health, b.state.conditions) == (-20, ("dead",))
    assert "B is dead (-20 Health)" in texts(result)


def test_unconscious_lose_one_health_a_round_until_dead() -> None:
    scenario = make(b=person("b", "y", health=-18))
    system, roster = scenario.system, scenario.roster
    for expected in (-19, -20):
        roster = apply_events(roster, system.end_round(ScriptedRoller([]), roster, 1))
        assert roster["b"].state.health == expected
    assert roster["b"].state.conditions == ("dead",)
    roster = apply_events(roster, system.end_round(ScriptedRoller([]), roster, 3))
    assert roster["b"].state.health == -20  # the dead bleed no more


def test_unconscious_target_cannot_defend() -> None:
    scenario = make(person("a", "x", skills={"melee": 3}, weapons=[AXE]),
                    person("b", "y", health=0), {"weapon": "axe"})
    result = run(scenario, [2, 2])
    assert result.damage == 25
    assert "B is unconscious: no defense roll" in texts(result)
