"""The end-of-fight summary (encounter.summary): a pure function of the fight's events,
checked on whole example duels of four systems, and as each viewer may see it."""

from __future__ import annotations

import pytest

from fracas.core.events import FightEnded
from fracas.encounter.redact import Viewer, summary_view
from fracas.encounter.session import Session
from fracas.encounter.summary import summarize
from fracas.registry.examples import load_example
from fracas.registry.scenarios import scenario_from_mapping

DUELS = ["tristat/duel-fight.yaml", "zamani/duel-fight.yaml", "contest/duel-fight.yaml",
         "c22/duel-fight.yaml"]


def fought(example: str, seed: int) -> Session:
    scenario = scenario_from_mapping(load_example(example), example)
    session = Session.start(scenario, seed=seed, odds=False, roll_all=True,
                            controllers={c: "aggressive" for c in scenario.roster})
    session.play_first(2000)
    assert session.state.over
    return session


@pytest.mark.parametrize("example", DUELS)
def test_a_duel_is_summed_up_from_its_events(example: str) -> None:
    """What one dealt is what the other took, each the fall of the health the system
    shows; the loser went down in the last round; winner and rounds are the end's."""
    session = fought(example, 1)
    summary = summarize(session.scenario, session.system, session.events)
    end = next(e for e in reversed(session.events) if isinstance(e, FightEnded))
    assert summary.over and summary.winner == end.winner and summary.rounds == end.rounds
    one, other = summary.combatants
    assert one.dealt == other.taken and other.dealt == one.taken
    for c in summary.combatants:
        first, now = (session.system.health(x.roster[c.id])[0]
                      for x in (session.scenario, session.state))
        assert c.taken == max(0, first - now)  # nobody healed in these duels
    loser = next(c for c in summary.combatants if c.side != summary.winner)
    assert loser.down_round == session.state.round
    assert loser.down_in_turn_of in {c.id for c in summary.combatants}
    rounds = "1 round" if summary.rounds == 1 else f"{summary.rounds} rounds"
    assert summary.headline() == f"{summary.winner} win after {rounds}"
    assert len(summary.lines()) == 3


def test_a_player_sees_the_summary_as_far_as_the_settings_allow() -> None:
    """Rin's player, Gorr as a health bar: Rin's damage taken, not Gorr's; Rin's dealt
    only where it hurt nobody whose health is hidden; with Gorr hidden, no Gorr at all."""
    session = fought("tristat/duel-fight.yaml", 0)
    whole = summarize(session.scenario, session.system, session.events).to_dict()
    sides = {"rin": "blades", "gorr": "fists"}
    seen = summary_view(whole, Viewer.player(["rin"], {"others": "bar"}, sides))
    rows = {r["id"]: r for r in seen["combatants"]}
    assert rows["rin"]["taken"] == 49 and rows["gorr"]["taken"] is None
    assert rows["rin"]["dealt"] is None  # it hurt Gorr, whose health is a bar to her
    assert rows["gorr"]["dealt"] == 49 and rows["rin"]["down_round"] is not None
    exact = summary_view(whole, Viewer.player(["rin"], {"others": "exact"}, sides))
    assert {r["id"]: r["dealt"] for r in exact["combatants"]} == {"rin": 40, "gorr": 49}
    hidden = summary_view(whole, Viewer.player(["rin"], {"hidden": ["gorr"]}, sides))
    assert [r["id"] for r in hidden["combatants"]] == ["rin"]
    assert summary_view(whole, Viewer()) == whole
