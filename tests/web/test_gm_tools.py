"""The GM decides for everyone the players don't, through the real server (``fracas serve``
in a child process on a loopback port): by default the GM is asked for every combatant
without a player and spends Genesys threat; "let fracas decide" this turn and from now on;
skip; a free-form action and its effects; all GM-side initiative at once; quick damage and
healing; conditions with their rounds left; a combatant joining at a chosen place without
anybody's initiative being rolled again. Every tool is logged and undone in one step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fracas.registry.examples import load_example
from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, invite, new_gm, post

DUEL = "tristat/duel-fight.yaml"



@pytest.fixture
def gm(server: ServerProcess) -> Iterator[Client]:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        yield new_gm(http)


def create(gm: Client, example: str, **extra: Any) -> dict[str, Any]:
    # the GM types the GM side's dice (the tracker's default; gm_dice: fracas has the
    # server roll them: test_who_rolls_web)
    r = gm.post("/api/encounters", {"example": example, "seed": 5, "gm_dice": "typed",
                                    **extra})
    assert r.status_code == 201, r.text
    return dict(r.json())


def answer(gm: Client, eid: str, view: dict[str, Any], body: dict[str, Any]
           ) -> dict[str, Any]:
    return post(gm, eid, "decisions", view, {"answer": body})


def until(gm: Client, eid: str, view: dict[str, Any], kind: str, who: str | None = None
          ) -> dict[str, Any]:
    """Roll and take the first option until a ``kind`` decision (of ``who``) is asked."""
    for _ in range(200):
        p = view["pending"]
        if p["decision"]["kind"] == kind and (who is None or p["who"] == who):
            return view
        body = {"roll": True} if p["decision"]["kind"] == "dice" else {
            "option": p["decision"]["options"][0]["id"]}
        view = answer(gm, eid, view, body)
    raise AssertionError(f"no {kind} decision")


def test_the_gm_decides_for_everyone_the_players_dont(gm: Client) -> None:
    view = create(gm, DUEL)
    eid = view["id"]
    pat = invite(gm, eid, "Pat", ["rin"])
    view = gm.view(eid)
    assert {c["id"]: c["controller"] for c in view["combatants"]} == {
        "rin": "person", "gorr": "person"}
    # initiative: the GM's side (Gorr) at once, Rin's own roll left to Rin's player
    assert view["pending"]["who"] == "rin" and not view["gm"]["initiative"]
    mine = pat.view(eid)
    r = pat.decide(eid, mine["version"], {"dice": [3, 4]})
    assert r.status_code == 200, r.text
    view = gm.view(eid)
    assert view["gm"]["initiative"] and view["pending"]["who"] == "gorr"
    view = post(gm, eid, "initiative", view, {})
    assert view["round"] == 1 and view["pending"]["decision"]["kind"] == "action"
    # the GM is asked for Gorr's action; fracas decides this turn (one undo step)
    view = until(gm, eid, view, "action", "gorr")
    before = view
    view = answer(gm, eid, view, {"policy": "aggressive"})
    assert view["pending"]["who"] == "rin"  # Gorr's attack is chosen: Rin reacts
    assert "Gorr's attack" in pat.view(eid)["pending"]["decision"]["prompt"]
    view = post(gm, eid, "undo", view, {"steps": 1})
    assert view["pending"] == before["pending"]
    # from now on: Gorr plays himself; the change is in the log and undone in one step
    view = post(gm, eid, "controllers", view, {"combatant": "gorr", "controller": "cautious"})
    assert any("fracas decides for Gorr from now on (cautious)" in e["text"]
               for e in view["log"])
    assert view["pending"]["who"] == "rin"
    assert next(c for c in view["combatants"] if c["id"] == "gorr")["controller"] == "cautious"
    view = post(gm, eid, "controllers", view, {"combatant": "gorr", "controller": "person"})
    r = pat.decide(eid, pat.view(eid)["version"], {"skip": True})
    assert r.status_code == 403  # only the GM skips a turn


def test_skip_free_action_harm_and_conditions(gm: Client) -> None:
    view = create(gm, DUEL, roll_all=True)
    eid = view["id"]
    view = until(gm, eid, view, "action")
    actor = view["pending"]["who"]
    view = post(gm, eid, "skip", view, {})
    last = [e["text"] for e in view["log"] if e["type"] == "ActionChosen"][-1]
    acting = next(c["name"] for c in view["combatants"] if c["id"] == actor)
    assert last.startswith(f"{acting}: Pass")
    view = until(gm, eid, view, "action")
    actor, other = view["pending"]["who"], ({"rin", "gorr"} - {view["pending"]["who"]}).pop()
    health = {c["id"]: c["health"]["current"] for c in view["combatants"]}
    round_now = view["round"]
    view = post(gm, eid, "free-action", view, {
        "description": "throws sand in the eyes", "roll": "2d6", "value": 5, "target": 8,
        "needs": "at most", "effects": [{"damage": 3, "to": other},
                                        {"condition": "blinded", "to": other, "rounds": 2}]})
    texts = [e["text"] for e in view["log"]]
    name = next(c["name"] for c in view["combatants"] if c["id"] == actor)
    other_name = next(c["name"] for c in view["combatants"] if c["id"] == other)
    assert f"{name}: throws sand in the eyes" in texts
    assert f"{name} rolls 2d6: 5, needs at most 8: success" in texts
    assert f"{other_name} is blinded for 2 rounds" in texts
    now = {c["id"]: c for c in view["combatants"]}
    assert now[other]["health"]["current"] == health[other] - 3
    left = 2 - (view["round"] - round_now)
    assert now[other]["marks"] == ([{"name": "blinded", "left": left}] if left > 0 else [])
    # one undo takes the whole free-form action back
    view = post(gm, eid, "undo", view, {"steps": 1})
    assert "throws sand in the eyes" not in str(view["log"])
    assert {c["id"]: c["health"]["current"] for c in view["combatants"]} == health
    # quick damage and heal; a condition until taken off
    view = post(gm, eid, "harm", view, {"combatant": other, "damage": 4})
    view = post(gm, eid, "harm", view, {"combatant": other, "heal": 1})
    assert next(c for c in view["combatants"] if c["id"] == other)["health"]["current"] == \
        health[other] - 3
    view = post(gm, eid, "conditions", view, {"combatant": other, "condition": "on fire"})
    assert {"name": "on fire", "left": None} in next(
        c for c in view["combatants"] if c["id"] == other)["marks"]
    view = post(gm, eid, "conditions", view, {"combatant": other, "condition": "on fire",
                                              "clear": True})
    assert next(c for c in view["combatants"] if c["id"] == other)["marks"] == []
    post(gm, eid, "harm", view, {"combatant": other, "damage": 0}, status=400)
    post(gm, eid, "free-action", view, {"description": "x", "roll": "2q6"}, status=400)
    post(gm, eid, "conditions", view, {"combatant": "nobody", "condition": "x"}, status=400)


def test_a_combatant_joins_without_disturbing_the_round(gm: Client) -> None:
    view = create(gm, "tristat/alley-fight.yaml", roll_all=True)
    eid = view["id"]
    view = until(gm, eid, view, "action")
    view = answer(gm, eid, view, {"option": view["pending"]["decision"]["options"][0]["id"]})
    view = until(gm, eid, view, "action")  # the second turn of the round: its order is set
    view = answer(gm, eid, view, {"option": view["pending"]["decision"]["options"][0]["id"]})
    rolled = [e["text"] for e in view["log"] if e["type"] == "Rolled"]
    order = [(s["label"], s["ids"]) for s in view["order"]]
    rounds = view["round"]
    entry = ("{id: imp, name: the imp, side: undead, body: 4, mind: 4, soul: 4,"
             " skills: {melee: 1}, weapons: [{name: claws, kind: melee, damage: 4}]}")
    view = post(gm, eid, "join", view, {"entry_yaml": entry, "place": "after this turn"})
    # nobody's roll is made again; the imp takes the place right after the current one
    assert [e["text"] for e in view["log"] if e["type"] == "Rolled"][:len(rolled)] == rolled
    now = [(s["label"], s["ids"]) for s in view["order"]]
    assert view["round"] == rounds and [x for x in now if x[1] != ["imp"]] == order
    current = next(i for i, s in enumerate(view["order"]) if s["current"] or not s["done"])
    assert view["order"][current + (1 if view["order"][current]["current"] else 0)][
        "ids"] == ["imp"]
    assert any(e["text"] == "the imp joins this round's order" for e in view["log"])
    view = post(gm, eid, "undo", view, {"steps": 1})
    assert "imp" not in {c["id"] for c in view["combatants"]}
    assert [(s["label"], s["ids"]) for s in view["order"]] == order
    post(gm, eid, "join", view, {"entry_yaml": entry, "place": 99}, status=400)


def test_genesys_threat_and_shared_slots_are_decided_by_hand(gm: Client) -> None:
    view = create(gm, "genesys/three-vs-three-fight.yaml", roll_all=True)
    eid = view["id"]
    kinds: dict[str, set[str]] = {}
    for _ in range(400):
        if view["over"]:
            break
        p = view["pending"]
        d = p["decision"]
        kinds.setdefault(d["kind"], set()).add(p["who"])
        if d["kind"] == "slot":
            names = [o["label"] for o in d["options"]]
            assert d["prompt"].startswith("Who takes ") and len(names) > 1
            view = answer(gm, eid, view, {"option": d["options"][-1]["id"]})
            actor = next(c for c in view["combatants"] if c["acting"])
            assert actor["name"] == names[-1]  # the one chosen takes the slot
            continue
        body = {"roll": True} if d["kind"] == "dice" else {"option": d["options"][0]["id"]}
        view = answer(gm, eid, view, body)
    assert "gm" in kinds.get("spend", set())  # the GM spent threat by hand
    assert "slot" in kinds


def test_the_players_spend_an_npcs_threat_at_a_table_that_says_so(gm: Client) -> None:
    """Seed 004 · Step 5: "in some cases (such as checks made by NPCs) they may give the
    players the option to spend these instead" (table option npc_threat: players)."""
    raw = load_example("genesys/three-vs-three-fight.yaml")
    raw.setdefault("rules", {})["npc_threat"] = "players"
    r = gm.post("/api/encounters", {"scenario": raw, "seed": 5, "roll_all": True})
    assert r.status_code == 201, r.text
    view = dict(r.json())
    eid = view["id"]
    pcs = {"kira", "tomas", "nia"}
    spenders: dict[str, set[str]] = {"threat": set(), "advantage": set()}
    for _ in range(600):
        if view["over"]:
            break
        p = view["pending"]
        d = p["decision"]
        if d["kind"] == "spend":
            spenders["threat" if " threat" in d["prompt"] else "advantage"].add(p["who"])
        body = {"roll": True} if d["kind"] == "dice" else {"option": d["options"][0]["id"]}
        view = answer(gm, eid, view, body)
    # the NPCs' threat was spent by the PCs they attacked; the PCs' own threat by the GM
    assert spenders["threat"] & pcs and "gm" in spenders["threat"]
