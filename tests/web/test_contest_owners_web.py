"""A contest's follow-up rolls belong to the combatant whose die it is (seed 001 · Step 3:
each side rolls its own checks): a threat's confirmation is asked of the player whose
character made it, on a real server (``fracas serve`` in a child process), not of the GM."""

from __future__ import annotations

from typing import Any

import httpx

from fracas.web.testing import ServerProcess
from tests.web.helpers import invite, new_gm, open_example

DUEL = "contest/duel-fight.yaml"  # Rosa (Ann's) against Grub the Brute (Bob's)


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def _option(view: dict[str, Any], label: str) -> dict[str, str]:
    options = view["pending"]["decision"]["options"]
    return {"option": next(o["id"] for o in options if o["label"] == label)}


def test_each_players_confirmation_roll_is_asked_of_that_player(
        server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        eid = open_example(gm, DUEL, 3, gm_dice="typed")  # the GM types Grub's dice
        ann = invite(gm, eid, "Ann", ["rosa"])
        bob = invite(gm, eid, "Bob", ["grub"])
        # initiative: Rosa 15, Grub 2 (each types their own); Rosa attacks, Grub dodges
        _ok(ann.decide(eid, ann.view(eid)["version"], {"dice": [15]}))
        _ok(bob.decide(eid, bob.view(eid)["version"], {"dice": [2]}))
        mine = ann.view(eid)
        assert mine["pending"]["decision"]["kind"] == "action"
        _ok(ann.decide(eid, mine["version"], {
            "option": mine["pending"]["decision"]["options"][0]["id"]}))
        theirs = bob.view(eid)
        assert theirs["pending"]["decision"]["kind"] == "reaction"
        _ok(bob.decide(eid, theirs["version"], _option(theirs, "Dodge")))
        # both roll a natural 20: two threats, each to be confirmed by its own roller
        _ok(ann.decide(eid, ann.view(eid)["version"], {"dice": [20]}))
        _ok(bob.decide(eid, bob.view(eid)["version"], {"dice": [20]}))

        view = gm.view(eid)
        assert view["pending"]["who"] == "rosa"
        assert view["pending"]["who_name"] == "Rosa"
        assert view["pending"]["decision"]["prompt"] == \
            "Rosa's roll to confirm the critical hit: d20 + 5 (sword 4, strength 1), needs 17 " \
            "or more (a total over " \
            "Grub the Brute's 21)"
        assert not bob.view(eid)["pending"]["mine"]
        mine = ann.view(eid)
        assert mine["pending"]["mine"] and mine["pending"]["kind"] == "dice"
        assert mine["pending"]["decision"]["dice"]["die"] == "d20"
        refused = bob.decide(eid, mine["version"], {"dice": [3]})
        assert refused.status_code != 200
        _ok(ann.decide(eid, mine["version"], {"dice": [18]}))

        view = gm.view(eid)
        assert view["pending"]["who"] == "grub"
        assert view["pending"]["decision"]["prompt"] == \
            "Grub the Brute's roll to confirm the critical: d20 + 1 (dodge 1, agility 0), " \
            "needs more than a d20 can show (a total of at least Rosa's 25)"
        assert not ann.view(eid)["pending"]["mine"]
        theirs = bob.view(eid)
        assert theirs["pending"]["mine"] and theirs["pending"]["kind"] == "dice"
        _ok(bob.decide(eid, theirs["version"], {"dice": [2]}))

        # the rest of the turn: Rosa's damage (her threat deals it whatever the outcome)
        for _ in range(10):
            view = gm.view(eid)
            if view["pending"] is None or view["pending"]["decision"]["kind"] != "dice":
                break
            who = {"rosa": ann, "grub": bob}[view["pending"]["who"]]
            _ok(who.decide(eid, who.view(eid)["version"], {"dice": [5]}))
        texts = [str(e["text"]) for e in gm.view(eid)["log"]]
        assert any(t.startswith("Roll 1 · Rosa, confirming the sword attack threat: d20 "
                                "shows 18") for t in texts), texts
        assert any(t.startswith("Roll 1 · Grub the Brute, confirming the dodge threat: d20 "
                                "shows 2") for t in texts), texts
