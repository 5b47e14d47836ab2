"""Who rolls which die on the web (issue 34, item 1), through the real server (``fracas
serve`` in a child process on a loopback port): by default an invited player taps their
own combatant's dice and the server rolls the GM side's; the GM may type the GM side's
dice (``gm_dice: typed`` at creation, or ``POST .../dice`` for the side or one
combatant); a combatant given a policy "from now on" rolls its own dice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, invite, new_gm

DUEL = "tristat/duel-fight.yaml"  # Rin against Gorr


@pytest.fixture
def gm(server: ServerProcess) -> Iterator[Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield new_gm(http)


def _create(gm: Client, **extra: Any) -> str:
    r = gm.post("/api/encounters", {"example": DUEL, "seed": 5, "gm_dice": "fracas", **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _log(view: dict[str, Any]) -> str:
    return "\n".join(e["text"] for e in view["log"])


def test_the_player_taps_their_dice_and_the_server_rolls_the_gm_sides(gm: Client) -> None:
    eid = _create(gm)
    pat = invite(gm, eid, "Pat", ["rin"])
    view = gm.view(eid)
    # Rin's initiative waits for Pat; Gorr's is never asked of anybody
    assert view["pending"]["who"] == "rin", view["pending"]
    r = pat.decide(eid, pat.view(eid)["version"], {"dice": [3, 4]})
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    assert view["round"] == 1, view["pending"]
    assert "Rin rolls 2d6 for initiative: 7" in _log(view)
    assert "Gorr rolls 2d6 for initiative" in _log(view)
    seen = []
    for _ in range(40):  # Gorr's turns: the GM decides, the server rolls his dice
        p = view["pending"]
        if p is None or view["over"]:
            break
        seen.append((p["who"], p["decision"]["kind"]))
        client = pat if p["who"] == "rin" else gm
        mine = client.view(eid)
        kind = mine["pending"]["decision"]["kind"]
        answer = {"roll": True} if kind == "dice" else {
            "option": mine["pending"]["decision"]["options"][0]["id"]}
        r = client.decide(eid, mine["version"], answer)
        assert r.status_code == 200, r.text
        view = gm.view(eid)
    assert ("gorr", "dice") not in seen, seen
    assert ("rin", "dice") in seen, seen
    assert ("gorr", "action") in seen, seen


def test_the_gm_types_the_gm_sides_dice_when_the_encounter_says_so(gm: Client) -> None:
    eid = _create(gm, gm_dice="typed", players=["rin"])
    view = gm.view(eid)
    kinds = set()
    for _ in range(4):  # initiative: both asked, Rin's of her player and Gorr's of the GM
        p = view["pending"]
        kinds.add((p["who"], p["decision"]["kind"]))
        r = gm.decide(eid, view["version"], {"dice": [3, 4]})
        assert r.status_code == 200, r.text
        view = gm.view(eid)
        if view["round"] == 1:
            break
    assert kinds == {("rin", "dice"), ("gorr", "dice")}, kinds


def test_who_rolls_is_set_per_combatant_and_for_the_side_through_a_route(gm: Client
                                                                         ) -> None:
    eid = _create(gm, players=["rin"])
    view = gm.view(eid)
    r = gm.post(f"/api/encounters/{eid}/dice",
                {"version": view["version"], "combatant": "gorr", "roller": "typed"})
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    assert "Gorr's dice are typed at the table from now on" in _log(view)
    r = gm.post(f"/api/encounters/{eid}/dice", {"version": view["version"],
                                                "roller": "fracas"})
    assert r.status_code == 200, r.text
    assert "fracas rolls the GM side's dice from now on" in _log(gm.view(eid))
    for body, said in (({"combatant": "zed", "roller": "typed"}, "no combatant"),
                       ({"roller": "sometimes"}, "roller")):
        r = gm.post(f"/api/encounters/{eid}/dice", {"version": gm.view(eid)["version"],
                                                    **body})
        assert r.status_code in (400, 422) and said in r.text, r.text
    bad = gm.post("/api/encounters", {"example": DUEL, "players": ["zed"]})
    assert bad.status_code == 400 and "zed" in bad.text, bad.text


def test_a_combatant_given_a_policy_from_now_on_rolls_its_own_dice(gm: Client) -> None:
    eid = _create(gm, gm_dice="typed", players=["rin"])
    view = gm.view(eid)
    r = gm.post(f"/api/encounters/{eid}/controllers", {"version": view["version"],
                                                       "combatant": "gorr",
                                                       "controller": "aggressive"})
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    for _ in range(40):
        p = view["pending"]
        if p is None or view["over"] or view["round"] > 2:
            break
        assert p["who"] != "gorr", p  # never asked: neither his action nor his dice
        kind = p["decision"]["kind"]
        r = gm.decide(eid, view["version"], {"roll": True} if kind == "dice" else {
            "option": p["decision"]["options"][0]["id"]})
        assert r.status_code == 200, r.text
        view = gm.view(eid)
