"""Who's winning in the tracker, through the real server (``fracas serve`` on a loopback
port): the GM's view carries the figure, worked out off the request path and narrowing to
the exact one for a duel, moving as the fight moves; players see it only if the GM allows
it and only when it uses nothing hidden from them; the what-if changes nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import httpx
import pytest

from fracas.analysis.winning import win_chance
from fracas.registry.scenarios import load_scenario
from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, answer_for, invite, new_gm

DUEL = "tristat/duel-fight.yaml"


@pytest.fixture(scope="module")
def gm(server: ServerProcess) -> Iterator[Client]:
    with httpx.Client(base_url=server.url, timeout=120) as http:
        yield new_gm(http)


def _final(client: Client, eid: str, limit: float = 240.0) -> dict[str, Any]:
    """The view's figure once it is the last one of the current version."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        w = client.get(f"/api/encounters/{eid}/winning").json()
        if w.get("shown") is False or (w["current"] and w["final"]):
            return dict(w)
        time.sleep(0.5)
    raise AssertionError(f"no final figure in {limit} s: {w}")


def test_the_gm_sees_the_chance_move_and_exact_for_a_duel(gm: Client) -> None:
    r = gm.post("/api/encounters", {"example": DUEL, "seed": 3})
    assert r.status_code == 201, r.text
    eid = r.json()["id"]
    view = gm.view(eid)
    assert "winning" in view and view["winning"]["shown"] is True  # a field of the view
    start = _final(gm, eid)["figure"]
    assert start["exact"] is True and start["method"] == "exact"
    exact = win_chance(load_scenario(f"examples/{DUEL}"), method="exact")
    for side, c in exact.sides.items():
        assert Fraction(start["sides"][side]["exact"]) == c.exact
    assert start["played_by"]["rin"]["why"] == "default"  # the GM decides: stated policy
    # the fight moves: a few decisions later (fracas rolling every die: the GM runs both
    # sides) the figure is from a later round, and differs
    for _ in range(30):
        view = gm.view(eid)
        if view["over"] or view["round"] >= 2:
            break
        gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
    view = gm.view(eid)
    later = _final(gm, eid)["figure"]
    assert later["round"] >= 1 and later["where"] != start["where"]
    assert later["sides"] != start["sides"]


def test_players_see_it_only_when_allowed_and_nothing_is_hidden(gm: Client) -> None:
    r = gm.post("/api/encounters", {"example": DUEL, "seed": 5})
    eid = r.json()["id"]
    player = invite(gm, eid, "Pat", ["rin"])
    w = player.view(eid)["winning"]
    assert w["shown"] is False and "GM" in w["why"] and "figure" not in w
    assert gm.put(f"/api/encounters/{eid}/winning", {"players": True}).status_code == 200
    assert player.put(f"/api/encounters/{eid}/winning", {"players": True}).status_code == 403
    w = player.view(eid)["winning"]  # others shown as bars (the default): health hidden
    assert w["shown"] is False and "hidden" in w["why"] and "figure" not in w
    assert gm.put(f"/api/encounters/{eid}/settings",
                  {"others": "exact", "hidden": []}).status_code == 200  # winning kept
    assert gm.view(eid)["settings"]["winning"] is True
    w = _final(player, eid)
    assert w["shown"] is True and w["figure"]["exact"] is True
    assert gm.put(f"/api/encounters/{eid}/settings",
                  {"others": "exact", "hidden": ["gorr"], "winning": True}).status_code == 200
    assert player.view(eid)["winning"]["shown"] is False
    bad = gm.put(f"/api/encounters/{eid}/settings", {"winning": "yes"})
    assert bad.status_code == 400 and "settings.winning" in bad.json()["error"]


def test_what_if_changes_nothing_in_the_fight(gm: Client) -> None:
    r = gm.post("/api/encounters", {"example": DUEL, "seed": 7})
    eid = r.json()["id"]
    for _ in range(12):
        view = gm.view(eid)
        gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
    before = gm.view(eid)
    hurt = gm.post(f"/api/encounters/{eid}/what-if", {"values": {"gorr": {"health": 2}}})
    assert hurt.status_code == 200, hurt.text
    gone = gm.post(f"/api/encounters/{eid}/what-if", {"leave": "rin"}).json()
    assert gone["sides"]["fists"]["p"] == 1.0 and "Rin leaves" in gone["where"]
    assert hurt.json()["sides"]["blades"]["p"] > 0.8 and "at health 2" in hurt.json()["where"]
    after = gm.view(eid)
    assert after["version"] == before["version"] and after["log"] == before["log"]
    assert after["combatants"] == before["combatants"]
    bad = gm.post(f"/api/encounters/{eid}/what-if", {"leave": "nobody"})
    assert bad.status_code == 400 and "nobody" in bad.json()["error"]
    joining = gm.post(f"/api/encounters/{eid}/what-if", {"join": {"id": "kat"}})
    assert joining.status_code == 400 and "entry" in joining.json()["error"]
    player = invite(gm, eid, "Pat", ["rin"])
    assert player.post(f"/api/encounters/{eid}/what-if", {"leave": "rin"}).status_code == 403
