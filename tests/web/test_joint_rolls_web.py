"""A roll of several people's dice at once (the contest's initiative for everybody, an
attack with its defence) through a real server (``fracas serve`` in a child process):
each die is asked of its owner, the player answers their own d20 with their own key,
and the GM's "roll all GM-side initiative" rolls the GM's dice and leaves the player's."""

from __future__ import annotations

from typing import Any

import httpx

from fracas.web.testing import ServerProcess
from tests.web.helpers import invite, new_gm, open_example

DUEL = "contest/duel-fight.yaml"  # Rosa (the player's) against Grub the Brute (the GM's)



def _texts(view: dict[str, Any]) -> list[str]:
    return [str(e["text"]) for e in view["log"]]


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_the_player_rolls_their_own_d20_and_roll_all_leaves_it(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        eid = open_example(gm, DUEL, 3, gm_dice="typed")  # the GM types Grub's dice
        ann = invite(gm, eid, "Ann", ["rosa"])
        view = gm.view(eid)
        # Rosa's own die is asked of Rosa (her player), not of the GM
        assert view["pending"]["who"] == "rosa"
        assert view["pending"]["decision"]["prompt"] == "Rosa's initiative: d20"
        mine = ann.view(eid)
        assert mine["pending"]["mine"]
        # the GM's roll-all is offered (Grub's die) and leaves Rosa's
        assert view["gm"]["initiative"]
        view = _ok(gm.post(f"/api/encounters/{eid}/initiative", {"version": view["version"]}))
        assert view["pending"]["who"] == "rosa"
        assert view["pending"]["decision"]["kind"] == "dice"
        assert not view["gm"]["initiative"]  # nothing of the GM's side is left
        assert not any("initiative:" in t for t in _texts(view))
        # Ann types her own d20
        mine = ann.view(eid)
        view = _ok(ann.decide(eid, mine["version"], {"dice": [17]}))
        texts = _texts(gm.view(eid))
        assert "Rosa rolls d20 for initiative: 17 (+ 0 (initiative) = 17)" in texts
        assert any(t.startswith("Grub the Brute rolls d20 for initiative: ") for t in texts)
        # Rosa's turn: her attack's d20 is hers, Grub's defence the GM's
        view = gm.view(eid)
        assert view["pending"]["who"] == "rosa" and view["pending"]["decision"]["kind"] \
            == "action"
        mine = ann.view(eid)
        decision = mine["pending"]["decision"]
        view = _ok(ann.decide(eid, mine["version"], {"option": decision["options"][0]["id"]}))
        view = gm.view(eid)
        if view["pending"]["decision"]["kind"] == "reaction":  # Grub's, the GM's to make
            view = _ok(gm.decide(eid, view["version"], {
                "option": view["pending"]["decision"]["options"][0]["id"]}))
        assert view["pending"]["who"] == "rosa"
        assert view["pending"]["decision"]["prompt"].startswith(
            "Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5 (sword 4, strength 1)")
        mine = ann.view(eid)
        _ok(ann.decide(eid, mine["version"], {"dice": [15]}))
        view = gm.view(eid)
        assert view["pending"]["who"] == "grub"
        assert view["pending"]["decision"]["prompt"].startswith(
            "Grub the Brute's dodge against Rosa, roll 1 of 3: d20 + 1 (dodge 1, agility 0), "
            "needs ")
        # Ann cannot answer Grub's die
        mine = ann.view(eid)
        assert not mine["pending"]["mine"]
        refused = ann.decide(eid, mine["version"], {"dice": [3]})
        assert refused.status_code != 200


def test_each_die_rolled_or_all_rolled_at_once_reads_the_same_draw(
        server: ServerProcess) -> None:
    """The GM rolls both initiative dice one by one with r, and in a second encounter
    with the same seed all at once with roll-all: the same two faces (the parts of one
    roll share its draw)."""
    faces = []
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        for at_once in (False, True):
            r = gm.post("/api/encounters", {"example": DUEL, "seed": 11, "gm_dice": "typed"})
            assert r.status_code == 201, r.text
            eid = str(r.json()["id"])
            view = gm.view(eid)
            if at_once:
                view = _ok(gm.post(f"/api/encounters/{eid}/initiative",
                                   {"version": view["version"]}))
            while view["pending"]["decision"]["kind"] == "dice":
                view = _ok(gm.decide(eid, view["version"], {"roll": True}))
            faces.append([t for t in _texts(view) if "for initiative" in t])
    assert len(faces[0]) == 2 and faces[0] == faces[1]
