"""The GM's hand on the turn order through the real server (``fracas serve`` in a child
process on a loopback port): a combatant moved before or after another, an initiative
edited on the desk that re-sorts the round (or is refused with the reason), a held turn;
each in the log and undone in one step (issue 34, item 6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, new_gm, post

WAREHOUSE = "tristat/warehouse-fight.yaml"
FORD = "zamani/river-crossing-fight.yaml"


@pytest.fixture
def gm(server: ServerProcess) -> Iterator[Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield new_gm(http)


def create(gm: Client, example: str) -> dict[str, Any]:
    r = gm.post("/api/encounters", {"example": example, "seed": 2})
    assert r.status_code == 201, r.text
    return dict(r.json())


def second_turn(gm: Client, eid: str, view: dict[str, Any]) -> dict[str, Any]:
    """Roll and take the first option until the round's second action is asked."""
    actions = 0
    for _ in range(200):
        p = view["pending"]["decision"]
        if p["kind"] == "action" and view["round"] >= 1:
            actions += 1
            if actions == 2:
                return view
        body = {"roll": True} if p["kind"] == "dice" else {"option": p["options"][0]["id"]}
        view = post(gm, eid, "decisions", view, {"answer": body})
    raise AssertionError("no second turn")


def texts(view: dict[str, Any]) -> list[str]:
    return [e["text"] for e in view["log"]]


def test_move_set_initiative_and_hold_on_the_web(gm: Client) -> None:
    view = create(gm, WAREHOUSE)
    eid = view["id"]
    view = second_turn(gm, eid, view)
    first, who = view["order"][0]["ids"][0], view["pending"]["who"]
    to_come = view["gm"]["order"]
    assert to_come[0] == who and first not in to_come  # the first turn is taken
    last = to_come[-1]
    view = post(gm, eid, "order", view, {"combatant": last, "where": "before",
                                         "other": who})
    assert view["gm"]["order"][:2] == [last, who] and view["pending"]["who"] == last
    names = {c["id"]: c["name"] for c in view["combatants"]}
    assert f"{names[last]} now acts before {names[who]} (from now on)" in texts(view)
    # the places renumbered: the slots still to come say the places they now hold
    places = [int(s["label"].removeprefix("initiative place ").split(",")[0])
              for s in view["order"][-len(view["gm"]["order"]):]]
    assert places == sorted(places) and len(set(places)) == len(places)
    # refused, with the reason: the first combatant has no turn left this round
    r = gm.post(f"/api/encounters/{eid}/order", {"version": view["version"],
                                                  "combatant": first, "where": "after",
                                                  "other": who})
    assert r.status_code == 400 and f"{names[first]} has no turn left this round" in r.text
    # an initiative place set by hand re-sorts the turns still to come
    view = post(gm, eid, "adjust", view, {"combatant": who, "field": "initiative",
                                          "value": 99})
    assert view["gm"]["order"][-1] == who
    assert any(t.startswith("the order from now on: ") for t in texts(view))
    # the acting combatant holds the turn: it passes after the next one able to act
    acting = view["pending"]["who"]
    view = post(gm, eid, "hold", view, {})
    assert view["gm"]["order"][1] == acting and view["pending"]["who"] != acting
    view = post(gm, eid, "undo", view, {"steps": 1})
    assert view["pending"]["who"] == acting


def test_a_zamani_initiative_edit_is_refused_with_the_reason(gm: Client) -> None:
    view = create(gm, FORD)
    eid = view["id"]
    view = second_turn(gm, eid, view)
    r = gm.post(f"/api/encounters/{eid}/adjust", {"version": view["version"],
                                                   "combatant": "kofi",
                                                   "field": "initiative", "value": 5})
    assert r.status_code == 400
    assert "the rules work the order out again each round" in r.text
    assert "gm move" in r.text
