"""Who rolls which die on the web (issue 34, item 1), through the real server (``fracas
serve`` in a child process on a loopback port): by default (no ``gm_dice`` given) an
invited player taps their own combatant's dice and the server rolls the GM side's,
each roll told in the log as it falls (to a player only what they may see); the GM may
type the GM side's dice (``gm_dice: typed`` at creation, or ``POST .../dice`` for the
side or one combatant); a combatant given a policy "from now on" rolls its own dice."""

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
    r = gm.post("/api/encounters", {"example": DUEL, "seed": 5, **extra})  # the default
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


def _to_gorrs_attack(gm: Client, pat: Client, eid: str) -> dict[str, Any]:
    """Play on (Pat rolling Rin's dice, the GM choosing for Gorr) until Rin's defence is
    asked of Pat: Gorr's attack, which the server rolled, is the turn's roll so far."""
    for _ in range(60):
        view = gm.view(eid)
        p = view["pending"]
        assert p is not None and not view["over"], view["log"][-5:]
        if p["who"] == "rin" and "defence" in p["decision"]["prompt"]:
            return view
        client = pat if p["who"] == "rin" else gm
        mine = client.view(eid)
        decision = mine["pending"]["decision"]
        answer = {"dice": [3, 3]} if decision["kind"] == "dice" else {
            "option": decision["options"][0]["id"]}
        r = client.decide(eid, mine["version"], answer)
        assert r.status_code == 200, r.text
    raise AssertionError("Rin's defence was never asked")


def test_each_roll_the_server_makes_is_told_as_it_falls(gm: Client) -> None:
    eid = _create(gm)
    pat = invite(gm, eid, "Pat", ["rin"])
    view = _to_gorrs_attack(gm, pat, eid)
    # the turn waits for Pat's defence roll: the server's roll for Gorr's attack is in
    # the log already, with its result, for the GM and for Pat (Gorr is in plain sight)
    told = [e["text"] for e in view["log"] if e["type"] == "FracasRolled"]
    assert len(told) == 1 and told[0].startswith("fracas rolls Gorr's attack: 2d6 → "), told
    rolled = int(told[0].rsplit("→ ", 1)[1])
    assert 2 <= rolled <= 12
    assert view["log"][-1]["type"] == "FracasRolled", view["log"][-3:]
    mine = pat.view(eid)
    assert [e["text"] for e in mine["log"] if e["type"] == "FracasRolled"] == told
    # Pat rolls the defence: the turn ends, and its own narration tells both rolls (the
    # server's line as it fell gives way to it, never told twice)
    r = pat.decide(eid, mine["version"], {"dice": [6, 6]})
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    assert not any(e["type"] == "FracasRolled" for e in view["log"]), view["log"][-6:]
    assert f"Gorr rolls 2d6: {rolled}" in _log(view), view["log"][-8:]


def test_a_hidden_combatants_rolls_never_reach_a_player(gm: Client) -> None:
    eid = _create(gm, settings={"others": "exact", "hidden": ["gorr"]})
    pat = invite(gm, eid, "Pat", ["rin"])
    view = _to_gorrs_attack(gm, pat, eid)
    assert any(e["text"].startswith("fracas rolls Gorr's attack")
               for e in view["log"] if e["type"] == "FracasRolled"), view["log"][-3:]
    seen = pat.get(f"/api/encounters/{eid}")
    assert seen.status_code == 200
    assert "Gorr" not in seen.text and "gorr" not in seen.text, seen.text
    assert "fracas rolls" not in seen.text, seen.text


def test_the_desk_view_says_who_rolls_each_combatants_dice(gm: Client) -> None:
    eid = _create(gm)
    invite(gm, eid, "Pat", ["rin"])
    view = gm.view(eid)
    assert view["gm"]["dice"] == "fracas"
    assert view["gm"]["rollers"] == {"rin": "typed", "gorr": "fracas"}, view["gm"]
    r = gm.post(f"/api/encounters/{eid}/dice",
                {"version": view["version"], "combatant": "gorr", "roller": "typed"})
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    assert view["gm"]["rollers"] == {"rin": "typed", "gorr": "typed"}, view["gm"]
    assert view["gm"]["dice"] == "fracas"  # the side's setting stays
    r = gm.post(f"/api/encounters/{eid}/dice", {"version": view["version"],
                                                "roller": "typed"})
    assert r.status_code == 200, r.text
    assert gm.view(eid)["gm"]["dice"] == "typed"


def test_the_servers_die_of_a_contest_roll_is_told_as_its_owners(gm: Client) -> None:
    """Rosa's attack and Grub's dodge are one roll: the server rolls Grub's die, and Pat
    sees it, in Grub's words, before typing Rosa's."""
    r = gm.post("/api/encounters", {"example": "contest/duel-fight.yaml", "seed": 1})
    assert r.status_code == 201, r.text
    eid = str(r.json()["id"])
    pat = invite(gm, eid, "Pat", ["rosa"])
    for _ in range(10):
        view = gm.view(eid)
        p = view["pending"]
        if p["who"] == "rosa" and "sword attack" in p["decision"]["prompt"]:
            break
        client = pat if p["who"] == "rosa" else gm
        mine = client.view(eid)
        decision = mine["pending"]["decision"]
        answer = {"dice": [17]} if decision["kind"] == "dice" else {
            "option": decision["options"][0]["id"]}  # attack; Grub dodges
        r = client.decide(eid, mine["version"], answer)
        assert r.status_code == 200, r.text
    told = [e["text"] for e in pat.view(eid)["log"] if e["type"] == "FracasRolled"]
    assert len(told) == 1 and told[0].startswith(
        "fracas rolls Grub the Brute's dodge against Rosa, roll 1 of 3: d20 → "), told
