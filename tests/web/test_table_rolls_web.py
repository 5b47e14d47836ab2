"""The same table rules on the web, through the real server (``fracas serve`` in a child
process on a loopback port), issue 34: a roll-off with a player in the tie asks the
player for that player's own die while the server rolls the GM side's; an edit the GM
makes before the first answer, undone, leaves the GM side's dice the server already
rolled as they were; a move refused while the order is rolled says why once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, invite, new_gm, post

DUEL = "contest/duel-fight.yaml"  # Rosa against Grub the Brute


@pytest.fixture
def gm(server: ServerProcess) -> Iterator[Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield new_gm(http)


def _table(gm: Client) -> tuple[str, Client]:
    """Seed 1, the server rolling the GM side's dice (Grub's initiative: 11), Pat
    playing Rosa."""
    r = gm.post("/api/encounters", {"example": DUEL, "seed": 1, "gm_dice": "fracas"})
    assert r.status_code == 201, r.text
    eid = str(r.json()["id"])
    return eid, invite(gm, eid, "Pat", ["rosa"])


def _texts(client: Client, eid: str) -> list[str]:
    r = client.get(f"/api/encounters/{eid}/log")
    assert r.status_code == 200, r.text
    data: Any = r.json()
    entries = data["log"] if isinstance(data, dict) else data
    return [e["text"] for e in entries]


def test_a_roll_off_asks_the_player_for_her_own_die(gm: Client) -> None:
    eid, pat = _table(gm)
    view = pat.view(eid)
    r = pat.decide(eid, view["version"], {"dice": [11]})  # Grub's 11: a tie
    assert r.status_code == 200, r.text
    view = pat.view(eid)
    pending = view["pending"]
    assert pending["who"] == "rosa", pending
    assert pending["decision"]["prompt"] == ("Rosa's initiative roll-off against Grub the "
                                             "Brute: d20")
    assert pending["decision"]["dice"]["count"] == 1
    # the server rolled Grub's die first, and the player's screen says what it showed
    assert "Grub the Brute rolls d20 for the initiative roll-off: 11" in [
        e["text"] for e in view["log"]]
    r = pat.decide(eid, view["version"], {"dice": [4]})  # Grub's roll-off die: 11
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    assert view["round"] == 1 and view["pending"]["who"] == "grub", view["pending"]
    assert any("the roll-off puts Grub the Brute, Rosa in that order" in t
               for t in _texts(gm, eid))


def test_undoing_an_edit_before_the_first_answer_keeps_the_servers_dice(gm: Client) -> None:
    eid, pat = _table(gm)
    view = gm.view(eid)
    view = post(gm, eid, "harm", view, {"combatant": "grub", "damage": 1})
    view = post(gm, eid, "undo", view, {"steps": 1})
    view = post(gm, eid, "redo", view, {"steps": 1})
    view = post(gm, eid, "undo", view, {"steps": 1})
    assert view["pending"]["who"] == "rosa"
    assert not view["pending"]["decision"]["dice"]["then"]  # Grub's die is not asked again
    r = pat.decide(eid, pat.view(eid)["version"], {"dice": [12]})
    assert r.status_code == 200, r.text
    texts = _texts(gm, eid)
    assert "Grub the Brute rolls d20 for initiative: 11 (+ 0 (initiative) = 11)" in texts
    assert not any("health 7 → 6" in t for t in texts)


def test_a_move_refused_while_the_order_is_rolled_says_why_once(gm: Client) -> None:
    eid, _ = _table(gm)
    view = gm.view(eid)
    r = gm.post(f"/api/encounters/{eid}/order", {"version": view["version"],
                                                  "combatant": "rosa", "where": "before",
                                                  "other": "grub"})
    assert r.status_code == 400, r.text
    said = r.text
    assert "this round's order is still being rolled" in said
    assert said.count("once the order is set") == 1, said

