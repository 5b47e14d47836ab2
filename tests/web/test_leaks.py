"""No hidden fact reaches a player's device: whole fights through the real server (a
``fracas serve`` child process on a loopback port), one per system, in every visibility
mode, with one enemy hidden from the players. Every byte sent to the player (the page, the
panel, the JSON views, the answers to their decisions, the live stream) is collected, and
none of the hidden values or names is in it:

* the hidden combatant's name and id, anywhere;
* other combatants' health numbers, state and sheet (unless the mode is ``exact``);
* every private line of the GM's log that names another combatant (health changes, defence
  totals, armour, damage after soak, ...) unless the mode is ``exact``, but the totals of a
  contest the player's combatant is in (said aloud at the table);
* "takes out" in the odds, against targets whose health the player may not see;
* conditions of others in the ``hidden`` mode.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import httpx
import pytest

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, answer_for, invite, new_gm

# (example, the player's combatant, the enemy hidden from the players)
FIGHTS = [
    ("c22/boarding-fight.yaml", "mara", "gull"),
    ("contest/gate-fight.yaml", "rosa", "grub"),
    ("genesys/three-vs-three-fight.yaml", "kira", "bruiser"),
    ("tristat/alley-fight.yaml", "joe", "thrall"),
    ("zamani/river-ambush-fight.yaml", "kofi", "obi"),
]
# a flag or the conditions, as the table's words tell them ("Gorr: total defence no → yes",
# "the vampire: conditions none → unconscious")
CONDITION = re.compile(r": ([\w ]+ (yes|no) → (yes|no)|conditions .* → .*)$")
MODES = ["exact", "bar", "status", "hidden"]
# event types whose lines the whole table sees (or a public part of them)
PUBLIC = {"RoundStarted", "TurnStarted", "ActionChosen", "SlotAdded", "SlotPassed",
          "FightEnded", "Rolled", "Outcome", "GenesysRolled", "GenesysSpent", "C22Drew",
          "C22Initiative", "C22Moved", "ZamaniCountdown", "CombatantAdded",
          "CombatantRemoved"}
# a contest's rolls said aloud between its two sides: the player hears those of a contest
# her combatant is in (the totals and who takes each roll), never the other's sheet values
# (the other's check reaches her as its die and total only: its full line is checked below)
HEARD = {"ContestPair", "ContestDecided"}



class Tap:
    """Everything the player's device receives."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.lock = threading.Lock()

    def add(self, text: str) -> None:
        with self.lock:
            self.parts.append(text)

    def text(self) -> str:
        with self.lock:
            return "\n".join(self.parts)


def follow_stream(url: str, key: str, tap: Tap, stop: threading.Event) -> None:
    """The live channel, as the player's page opens it."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=url, timeout=httpx.Timeout(5.0, read=1.0)) as http:
        while not stop.is_set():
            try:
                with http.stream("GET", f"/api/encounters/{tap.eid}/stream",
                                 headers=headers) as r:
                    for chunk in r.iter_text():
                        tap.add(chunk)
                        if stop.is_set():
                            return
            except httpx.HTTPError:
                continue


def player_pages(player: Client, eid: str, tap: Tap) -> dict[str, Any]:
    for path in (f"/e/{eid}/panel", f"/api/encounters/{eid}"):
        r = player.get(path)
        assert r.status_code == 200, r.text
        tap.add(r.text)
    return dict(r.json())


def play(url: str, example: str, mine: str, hidden: str, mode: str
         ) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """Play the fight to its end; the player's bytes, the GM's last view and every
    player view seen on the way."""
    with httpx.Client(base_url=url, timeout=60) as http:
        gm = new_gm(http)
        r = gm.post("/api/encounters", {"example": example, "seed": 7, "settings": {
            "others": mode, "allies": mode, "hidden": [hidden]}})
        assert r.status_code == 201, r.text
        eid = r.json()["id"]
        player = invite(gm, eid, "Pat", [mine])
        tap = Tap()
        tap.eid = eid  # type: ignore[attr-defined]
        stop = threading.Event()
        key = player.headers["Authorization"].split()[1]
        follower = threading.Thread(target=follow_stream, args=(url, key, tap, stop))
        follower.start()
        try:
            r = player.get(f"/e/{eid}")
            tap.add(r.text)
            views = []
            gm_view = gm.view(eid)
            side = next(c["side"] for c in gm_view["combatants"] if c["id"] == mine)
            edited = False
            for _ in range(3000):
                if gm_view["over"]:
                    break
                seen = player_pages(player, eid, tap)
                views.append(seen)
                pending = gm_view["pending"]
                if not edited and gm_view["round"] >= 1 and pending["who"] != mine:
                    # the GM's hand: damage on a visible enemy, a condition on the hidden one
                    enemy = next((c["id"] for c in gm_view["combatants"]
                                  if c["id"] not in (mine, hidden) and c["side"] != side),
                                 hidden)
                    for path, body in (("harm", {"combatant": enemy, "damage": 1}),
                                       ("conditions", {"combatant": hidden,
                                                       "condition": "marked", "rounds": 3})):
                        r = gm.post(f"/api/encounters/{eid}/{path}",
                                    {"version": gm.view(eid)["version"], **body})
                        assert r.status_code == 200, r.text
                    edited = True
                    gm_view = gm.view(eid)
                    continue
                if pending["who"] == mine:
                    assert seen["pending"]["mine"], seen["pending"]
                    r = player.decide(eid, seen["version"],
                                      answer_for(seen["pending"]["decision"]))
                    tap.add(r.text)
                else:
                    r = gm.decide(eid, gm_view["version"], answer_for(pending["decision"]))
                assert r.status_code == 200, r.text
                gm_view = gm.view(eid)
            assert gm_view["over"], "the fight did not end"
            views.append(player_pages(player, eid, tap))
            tap.add(player.get(f"/e/{eid}").text)
        finally:
            stop.set()
            follower.join(timeout=10)
        return tap.text(), gm_view, views


def word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("example", "mine", "hidden"), FIGHTS,
                         ids=[f[0].split("/")[0] for f in FIGHTS])
def test_nothing_hidden_reaches_the_player(server: ServerProcess, example: str, mine: str,
                                           hidden: str, mode: str) -> None:
    sent, gm_view, views = play(server.url, example, mine, hidden, mode)
    roster = {c["id"]: c for c in gm_view["combatants"]}
    assert len(gm_view["log"]) > 20  # a whole fight was played

    # the hidden combatant: neither its name nor its id, anywhere
    for name in (roster[hidden]["name"], hidden):
        found = word(name).search(sent)
        assert found is None, (name, sent[max(0, found.start() - 200):found.end() + 200])

    others = [cid for cid in roster if cid != mine]
    for view in views:
        for c in view["combatants"]:
            assert c["id"] != hidden
            if c["id"] == mine:
                assert "sheet" in c and "health" in c
                continue
            assert "state" not in c and "sheet" not in c
            assert ("health" in c) == (mode == "exact")
            assert ("conditions" in c) == (mode != "hidden")
        odds = [o.get("odds") for o in ((view["pending"] or {}).get("decision") or {}).get(
            "options", [])]
        if mode != "exact":
            assert all(o is None or "p_taken_out" not in o for o in odds)
    if mode != "exact":
        assert "takes out" not in sent and "p_taken_out" not in sent

    # the GM's private lines about the others: none of them reaches the player
    names = {cid: word(roster[cid]["name"]) for cid in others}
    ids = {cid: word(cid) for cid in others}
    heard = {e["text"] for e in gm_view["log"] if e["type"] in HEARD
             and word(roster[mine]["name"]).search(e["text"])}
    private = [e["text"] for e in gm_view["log"] if e["type"] not in PUBLIC and any(
        names[c].search(e["text"]) or ids[c].search(e["text"]) for c in others)]
    assert private, "the fight has private lines about the others"
    for text in private:
        about_hidden = names[hidden].search(text) or ids[hidden].search(text)
        if mode == "exact" and not about_hidden:
            continue  # exact: the others' numbers are the player's to see
        if mode in ("bar", "status") and not about_hidden and CONDITION.search(text):
            continue  # a condition (a flag, a list of named ones) is seen beside the name
        if not about_hidden and text in heard:
            continue  # her own contest's totals, said aloud
        assert text not in sent, text


def test_the_stream_carries_only_versions(server: ServerProcess) -> None:
    sent, _, _ = play(server.url, "tristat/duel-fight.yaml", "rin", "gorr", "bar")
    stream = [line for line in sent.splitlines() if line.startswith("data: ")]
    assert stream and all(re.fullmatch(r'data: \{"version": \d+\}', s) for s in stream)
