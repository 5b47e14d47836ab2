"""A contest typed as a table plays it, through a real server (``fracas serve`` in a child
process): the API's dice field carries the words ``fracas play`` shows (the roller, what
they add, the opponent, which roll of three, what the defender needs once the attack is
known); the GM may type both dice of a roll at once (the other die is in ``then``), a
player is asked for their own die only (no ``then``); each roll is in the log before the
next is asked."""

from __future__ import annotations

from typing import Any

import httpx

from fracas.web.testing import ServerProcess
from tests.web.helpers import invite, new_gm, open_example

DUEL = "contest/duel-fight.yaml"  # Rosa (the player's) against Grub the Brute (the GM's)


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return dict(r.json())


def _texts(view: dict[str, Any]) -> list[str]:
    return [str(e["text"]) for e in view["log"]]


def _to_the_attack(gm: Any, ann: Any, eid: str) -> dict[str, Any]:
    """Initiative (Ann's 17, the GM's 2 for Grub), Rosa's first attack, Grub's dodge."""
    view = gm.view(eid)
    while view["pending"]["decision"]["kind"] == "dice":
        who = view["pending"]["who"]
        client = ann if who == "rosa" else gm
        _ok(client.decide(eid, client.view(eid)["version"],
                          {"dice": [17 if who == "rosa" else 2]}))
        view = gm.view(eid)
    mine = ann.view(eid)
    attack = mine["pending"]["decision"]["options"][0]["id"]
    view = _ok(ann.decide(eid, mine["version"], {"option": attack}))
    view = gm.view(eid)
    assert view["pending"]["decision"]["kind"] == "reaction"  # Grub's, the GM's
    return _ok(gm.decide(eid, view["version"], {"option": "1"}))  # dodge


def test_the_dice_field_carries_the_table_words_and_each_roll_is_told_first(
        server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        eid = open_example(gm, DUEL, 3, gm_dice="typed")  # the GM types Grub's
        ann = invite(gm, eid, "Ann", ["rosa"])
        _to_the_attack(gm, ann, eid)
        # Rosa's die, asked of her player: the words, no other part to type with it
        mine = ann.view(eid)
        dice = mine["pending"]["decision"]["dice"]
        assert dice["what"] == "Rosa's sword attack on Grub the Brute, roll 1 of 3"
        assert dice["die"] == "d20" and dice["bonus"] == "+ 5 (sword 4, strength 1)"
        assert (dice["part"], dice["parts"]) == (1, 2)
        assert dice["then"] == []  # Grub's die is the GM's
        assert mine["pending"]["decision"]["prompt"] == (
            "Rosa's sword attack on Grub the Brute, roll 1 of 3: d20 + 5 (sword 4, strength 1)")
        # the GM sees the die that follows it (and could type both)
        then = gm.view(eid)["pending"]["decision"]["dice"]["then"]
        assert [(t["who"], t["what"], t["bonus"]) for t in then] == [
            ("grub", "Grub the Brute's dodge against Rosa, roll 1 of 3",
             "+ 1 (dodge 1, agility 0)")]
        _ok(ann.decide(eid, mine["version"], {"dice": [12]}))
        # Grub's die: what it needs, now that Rosa's 12 + 5 = 17 is known
        view = gm.view(eid)
        dice = view["pending"]["decision"]["dice"]
        assert dice["who"] == "grub"
        assert dice["needs"] == "16 or more (a total of at least Rosa's 17)"
        view = _ok(gm.decide(eid, view["version"], {"dice": [8]}))
        # roll 1 is in the log before roll 2 is asked
        assert "Rosa 17 > Grub the Brute 9: roll 1 to Rosa (Rosa 1, Grub the Brute 0)" in \
            _texts(view)
        assert ann.view(eid)["pending"]["decision"]["dice"]["what"] == (
            "Rosa's sword attack on Grub the Brute, roll 2 of 3")


def test_the_gm_types_both_dice_of_a_roll_at_once(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        eid = open_example(gm, DUEL, 3, gm_dice="typed")  # the GM types Grub's
        ann = invite(gm, eid, "Ann", ["rosa"])
        view = _to_the_attack(gm, ann, eid)
        # the GM types Rosa's die and Grub's together (the player's die: the GM may)
        view = _ok(gm.decide(eid, view["version"], {"dice": [12, 8]}))
        assert "Rosa 17 > Grub the Brute 9: roll 1 to Rosa (Rosa 1, Grub the Brute 0)" in \
            _texts(view)
        assert view["pending"]["decision"]["dice"]["what"] == (
            "Rosa's sword attack on Grub the Brute, roll 2 of 3")
        # a player may not type the GM's die with their own: one value only
        mine = ann.view(eid)
        refused = ann.decide(eid, mine["version"], {"dice": [15, 4]})
        assert refused.status_code == 400, refused.text
        assert "type 1 value, not 2" in refused.text
