"""A player follows her own fight, through a real server (``fracas serve`` in a child
process; issue 34): the contest rolls she is in reach her log (the other's die and total,
each roll's pair and the contest's end; a threat before she is asked to confirm it), and
her own action on a hidden target is told with the target as "someone unseen", while no
hidden fact (the other's sheet values, the hidden combatant's name, id, wounds, soak)
is in anything her device receives."""

from __future__ import annotations

import json
from typing import Any

import httpx

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, invite, new_gm, open_example
from tests.web.test_hidden_and_names import table, to_kiras_action

DUEL = "contest/duel-fight.yaml"  # Rosa (Ann's) against Grub the Brute (the GM's)


def _texts(view: dict[str, Any]) -> list[str]:
    return [str(e["text"]) for e in view["log"]]


def _decide(client: Client, eid: str, answer: dict[str, Any]) -> dict[str, Any]:
    r = client.decide(eid, client.view(eid)["version"], answer)
    assert r.status_code == 200, r.text
    return dict(r.json())


def to_rosas_confirm(gm: Client, ann: Client, eid: str) -> dict[str, Any]:
    """Ann rolls 17 for initiative and 20 for Rosa's first attack (fracas rolls Grub's
    dice): her view when she is asked to confirm the threat."""
    for _ in range(20):
        who = gm.view(eid)["pending"]["who"]
        client = ann if who == "rosa" else gm
        decision = client.view(eid)["pending"]["decision"]
        if "confirm" in decision["prompt"]:
            return client.view(eid)
        answer = ({"dice": [17 if "initiative" in decision["prompt"] else 20]}
                  if decision["kind"] == "dice" else {"option": decision["options"][0]["id"]})
        _decide(client, eid, answer)
    raise AssertionError("Rosa was never asked to confirm a threat")


def test_the_contest_rolls_she_is_in_reach_her_log(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm = new_gm(http)
        eid = open_example(gm, DUEL, 3)  # visibility of others: bar (the default)
        ann = invite(gm, eid, "Ann", ["rosa"])
        sent: list[str] = []
        mine = to_rosas_confirm(gm, ann, eid)
        sent.append(json.dumps(mine))
        log = _texts(mine)
        # the threat is in her log before she is asked to confirm it, with Grub's total
        threat = [t for t in log if t.startswith("Roll 1 · Rosa, sword attack: d20 shows 20")]
        assert threat and threat[0].endswith("— critical threat"), log
        grubs = [t for t in log if t.startswith("Roll 1 · Grub the Brute, dodge: d20 shows ")]
        assert grubs and ", a total of " in grubs[0], log
        total = grubs[0].rsplit(" ", 1)[1]
        prompt = mine["pending"]["decision"]["prompt"]
        assert f"Grub the Brute's {total})" in prompt, (prompt, grubs)
        # the whole fight, Ann answering for Rosa: each pair and the end reach her
        for _ in range(200):
            view = gm.view(eid)
            if view["over"]:
                break
            client = ann if view["pending"]["who"] == "rosa" else gm
            decision = client.view(eid)["pending"]["decision"]
            answer = ({"roll": True} if decision["kind"] == "dice"
                      else {"option": decision["options"][0]["id"]})
            sent.append(json.dumps(_decide(client, eid, answer)))
        gm_log = gm.view(eid)["log"]
        mine = ann.view(eid)
        sent.append(json.dumps(mine) + ann.get(f"/e/{eid}").text)
        bytes_ = "\n".join(sent)
        pairs = [e["text"] for e in gm_log if e["type"] in ("ContestPair", "ContestDecided")]
        attacks_on_her = [e["text"] for e in gm_log if e["type"] == "ContestPair"
                          and e["text"].startswith("Grub the Brute ")]
        assert attacks_on_her, "Grub never attacked Rosa"
        assert all(p in _texts(mine) for p in pairs), (pairs, _texts(mine))
        # Grub's sheet (his checks' parts) and health never reach her
        for e in gm_log:
            if e["type"] == "ContestCheck" and e["text"].startswith("Roll ") and \
                    " · Grub the Brute, " in e["text"]:
                assert e["text"] not in bytes_, e["text"]
                assert "(dodge)" in e["text"] or "(club)" in e["text"]
            if e["type"] == "ContestWounded" or e["text"].startswith("Grub the Brute: health"):
                assert e["text"] not in bytes_, e["text"]
        grub = next(c for c in mine["combatants"] if c["id"] == "grub")
        assert "health" not in grub and "sheet" not in grub


def test_her_own_action_on_a_hidden_target_is_told_as_someone_unseen(
        server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm, ann, eid = table(http, {"others": "bar", "hidden": ["bruiser"]})
        to_kiras_action(eid, gm)
        mine = ann.view(eid)
        sent = [json.dumps(mine)]
        option = next(o for o in mine["pending"]["decision"]["options"]
                      if o["label"] == "Attack someone unseen with fists")
        sent.append(json.dumps(_decide(ann, eid, {"option": option["id"]})))
        for _ in range(10):  # her dice and spending, as asked
            if gm.view(eid)["pending"]["who"] != "kira":
                break
            decision = ann.view(eid)["pending"]["decision"]
            answer = ({"option": decision["options"][0]["id"]} if decision.get("options")
                      else {"roll": True})
            sent.append(json.dumps(_decide(ann, eid, answer)))
        gm_log = gm.view(eid)["log"]
        chosen = [e for e in gm_log if e["type"] == "ActionChosen"][-1]
        assert chosen["text"] == "Kira: Attack Dockside bruiser with fists"
        outcome = [e for e in gm_log if e["type"] == "Outcome"
                   and e["text"].startswith("Kira → Dockside bruiser: ")][-1]
        mine = ann.view(eid)
        sent.append(json.dumps(mine) + ann.get(f"/e/{eid}").text)
        log = _texts(mine)
        # her action in the words of her option, and its outcome, the target unseen
        assert "Kira: Attack someone unseen with fists" in log, log
        result = outcome["text"].split(": ", 1)[1].split(";")[0]
        assert f"Kira → someone unseen: {result}" in log, log
        # nothing of the hidden bruiser: name, id, his wounds, soak or defence
        bytes_ = "\n".join(sent)
        assert "Dockside bruiser" not in bytes_ and '"bruiser"' not in bytes_
        for e in gm_log:
            if "soak" in e["text"] or "melee defense" in e["text"]:
                assert e["text"] not in bytes_, e["text"]
