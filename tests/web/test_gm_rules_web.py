"""Issue 34 items 3 and 4 through the real server (``fracas serve`` on a loopback port):
a hand edit at a pending question leaves it asked; a free-form action's typed roll decides
which of its effects apply (on success, on failure, always), and a condition the rules
know is the rules' condition."""

from __future__ import annotations

from typing import Any

from tests.web.helpers import Client
from tests.web.test_gm_tools import answer, create, gm, post, until

__all__ = ["gm"]  # the fixture, shared with the GM tools' tests

FORD = "zamani/river-crossing-fight.yaml"


def _kofis_action(gm: Client, eid: str, view: dict[str, Any]) -> dict[str, Any]:
    """Past everybody's choice before the round (the first option), to Kofi's action."""
    for _ in range(20):
        view = until(gm, eid, view, "action", "kofi")
        if view["pending"]["decision"]["prompt"] == "Kofi's action":
            return view
        view = answer(gm, eid, view, {"option": "1"})
    raise AssertionError("Kofi's action is never asked")


def test_a_hand_edit_at_kofis_action_leaves_it_asked(gm: Client) -> None:
    view = create(gm, FORD)
    eid = view["id"]
    view = _kofis_action(gm, eid, view)
    prompt = view["pending"]["decision"]["prompt"]
    assert prompt == "Kofi's action"
    obi = next(c for c in view["combatants"] if c["id"] == "obi")
    view = post(gm, eid, "harm", view, {"combatant": "obi", "damage": 16})
    assert view["pending"]["who"] == "kofi"
    assert view["pending"]["decision"]["prompt"] == prompt
    now = next(c for c in view["combatants"] if c["id"] == "obi")
    assert now["health"]["current"] < obi["health"]["current"]


def test_a_failed_roll_applies_only_the_effects_marked_for_failure_or_always(
        gm: Client) -> None:
    view = create(gm, FORD)
    eid = view["id"]
    view = _kofis_action(gm, eid, view)
    wounds = {c["id"]: c["health"]["current"] for c in view["combatants"]}
    view = post(gm, eid, "free-action", view, {
        "description": "leaps the rocks at Jabari", "roll": "1d10", "value": 3,
        "target": 5, "effects": [
            {"damage": 3, "to": "jabari"},  # on success, by default
            {"damage": 2, "to": "kofi", "when": "failure"},
            {"condition": "stunned", "to": "jabari", "rounds": 1, "when": "always"}]})
    texts = [e["text"] for e in view["log"]]
    assert "Kofi rolls 1d10: 3, needs at least 5: failure" in texts
    now = {c["id"]: c["health"]["current"] for c in view["combatants"]}
    assert now["jabari"] == wounds["jabari"]
    assert now["kofi"] == wounds["kofi"] - 2
    assert "Jabari is stunned for 1 round" in texts
    jabari = next(c for c in view["combatants"] if c["id"] == "jabari")
    assert "stunned" in str(jabari), jabari  # the rules' condition, not a note only
    post(gm, eid, "free-action", view, {"description": "x", "effects": [
        {"damage": 1, "to": "obi", "when": "failure"}]}, status=400)


def test_a_condition_until_the_end_of_a_turn_ends_with_the_rules_condition(
        gm: Client) -> None:
    """Item 5 through the API: ``until`` a combatant's next turn's end; when it is up the
    log says so and the rules' condition is gone with the mark."""
    view = create(gm, FORD)
    eid = view["id"]
    view = _kofis_action(gm, eid, view)
    view = post(gm, eid, "conditions", view, {"combatant": "jabari", "condition": "stunned",
                                              "until": "kofi"})
    texts = [e["text"] for e in view["log"]]
    assert "Jabari is stunned until the end of Kofi's next turn" in texts
    ended = "Jabari is no longer stunned: its time is up"
    for _ in range(40):  # Kofi's turn and what it asks of others, first options
        if ended in [e["text"] for e in view["log"]]:
            break
        p = view["pending"]["decision"]
        view = answer(gm, eid, view, {"roll": True} if p["kind"] == "dice" else
                      {"option": p["options"][0]["id"]})
    texts = [e["text"] for e in view["log"]]
    assert ended in texts, texts[-12:]
    # it ended at the end of Kofi's turn: the next turn began after it
    assert "Kofi" in texts[texts.index(ended) - 3] or any(
        "Kofi" in t for t in texts[texts.index(ended) - 6:texts.index(ended)])
    jabari = next(c for c in view["combatants"] if c["id"] == "jabari")
    assert jabari["marks"] == []
