"""Hidden combatants and names, through a real server (issue 34, items 7 and 8).

Genesys, three against three: Ann plays Kira; the GM keeps the Knife fighter (id ``knife``,
who fights with a knife) or the Dockside bruiser hidden. A target a player may not name is
not offered (nor taken when answered anyway: never another target in its place);
revealing shows the combatant from then on, its past only when the GM says so; allies and
enemies are seen each as the GM sets; odds against a target whose health is hidden can be
left out. Names replace ids only where an event refers to a combatant: the Knife
fighter's knife stays a knife, and the GM's words stay the GM's.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx

from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, advance_to, answer_for, invite, new_gm

EXAMPLE = "genesys/three-vs-three-fight.yaml"


def table(http: httpx.Client, settings: dict[str, Any], seed: int = 3
          ) -> tuple[Client, Client, str]:
    """A new GM deciding for everybody, Ann with Kira, and the encounter's id."""
    gm = new_gm(http)
    r = gm.post("/api/encounters", {"example": EXAMPLE, "seed": seed, "settings": settings})
    assert r.status_code == 201, r.text
    eid = str(r.json()["id"])
    return gm, invite(gm, eid, "Ann", ["kira"]), eid


def to_kiras_action(eid: str, gm: Client) -> dict[str, Any]:
    view = gm.view(eid)
    for _ in range(300):
        view = advance_to(eid, gm, {"kira"})
        if view["pending"]["kind"] == "action":
            return view
        r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
        assert r.status_code == 200, r.text
    raise AssertionError("Kira was never asked for her action")


def test_a_hidden_target_is_that_very_combatant(server: ServerProcess) -> None:
    """Kira may attack the hidden Knife fighter: Ann's menu offers "someone unseen"
    (neither his name nor his id reaches her, nor the odds, which would tell of his
    defence); the step-by-step menu on her page leads to the GM's option for an attack
    on him, and Go commits exactly that attack (not one on another combatant); a draft
    naming a target not on offer starts the menu again rather than composing another."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm, ann, eid = table(http, {"others": "bar", "hidden": ["knife"]})
        gm_view = to_kiras_action(eid, gm)
        facets = gm_view["pending"]["decision"]["menu"]["facets"]
        on_knife = {f["option"] for f in facets if f["target"] == "knife"}
        assert on_knife, facets
        mine = ann.view(eid)["pending"]["decision"]
        text = json.dumps(mine)
        assert "Knife fighter" not in text and '"knife"' not in text
        offered = {f["option"]: f for f in mine["menu"]["facets"]}
        assert {o for o, f in offered.items() if f["target"] == "unseen-1"} == on_knife
        assert all(offered[o]["target_name"] == "someone unseen" for o in on_knife)
        unseen = [o for o in mine["options"] if o["id"] in on_knife]
        assert unseen and all("someone unseen" in o["label"] and o["odds"] is None
                              for o in unseen), unseen
        # the page: "at whom" offers someone unseen; taking it, Go is an attack on him
        panel = ann.get(f"/e/{eid}/panel").text
        assert "Knife fighter" not in panel and "&#34;knife&#34;" not in panel
        go = re.compile(r'id="go" data-answer=\'([^\']*)\'')
        at_whom = json.dumps({"group": "attack", "kind": None, "weapon": None,
                              "target": None, "toggles": [], "page": 0,
                              "taken": ["group"]})
        panel = ann.http.get(f"/e/{eid}/panel", headers=ann.headers,
                             params={"draft": at_whom}).text
        entries = re.findall(r'data-draft=\'([^\']*)\'>\s*<span class="label">([^<]*)<',
                             panel)
        picked = [d for d, label in entries if "someone unseen" in label]
        assert picked, entries
        panel = ann.http.get(f"/e/{eid}/panel", headers=ann.headers,
                             params={"draft": picked[0].replace("&#34;", '"')}).text
        answer = json.loads(go.search(panel).group(1).replace("&#34;", '"'))
        assert answer["option"] in on_knife, (answer, on_knife)
        r = ann.decide(eid, gm_view["version"], answer)
        assert r.status_code == 200, r.text
        chosen = [e for e in gm.view(eid)["log"] if e["type"] == "ActionChosen"][-1]
        assert chosen["text"].startswith("Kira: ") and "Knife fighter" in chosen["text"]
        # a stale or edited draft naming nobody on offer: the first step again
        gm_view = to_kiras_action(eid, gm)
        bogus = json.dumps({"group": "attack", "kind": None, "weapon": None,
                            "target": "someone unseen", "toggles": [], "page": 0,
                            "taken": ["group", "target"]})
        fresh = ann.get(f"/e/{eid}/panel").text
        again = ann.http.get(f"/e/{eid}/panel", params={"draft": bogus},
                             headers=ann.headers).text
        assert go.search(again).group(1) == go.search(fresh).group(1)


def test_revealed_from_now_on_and_its_past_when_the_gm_shows_it(
        server: ServerProcess) -> None:
    """The Knife fighter acts while hidden; once revealed Ann sees him in the roster and
    what he does from then on, not what he did before, until the GM shows his past."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm, ann, eid = table(http, {"others": "exact", "hidden": ["knife"]})
        view = gm.view(eid)
        while view["round"] < 2:  # the Knife fighter has had a turn, hidden
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            view = r.json()
        assert any(e["type"] == "TurnStarted" and e["text"].startswith("Knife fighter")
                   for e in view["log"])
        before = ann.view(eid)
        assert "knife" not in {c["id"] for c in before["combatants"]}
        r = gm.put(f"/api/encounters/{eid}/settings", {"others": "exact", "hidden": []})
        assert r.status_code == 200, r.text
        after = ann.view(eid)
        assert "knife" in {c["id"] for c in after["combatants"]}
        assert not [e["text"] for e in after["log"] if "Knife fighter" in e["text"]]
        for _ in range(12):  # a few more decisions: his next turn is seen
            v = gm.view(eid)
            r = gm.decide(eid, v["version"], answer_for(v["pending"]["decision"]))
            assert r.status_code == 200, r.text
        later = [e["text"] for e in ann.view(eid)["log"] if "Knife fighter" in e["text"]]
        r = gm.put(f"/api/encounters/{eid}/settings",
                   {"others": "exact", "hidden": [], "past": ["knife"]})
        assert r.status_code == 200, r.text
        shown = [e["text"] for e in ann.view(eid)["log"] if "Knife fighter" in e["text"]]
        assert len(shown) > len(later)
        assert "Knife fighter's turn (NPC slot 4)" in shown or any(
            t.startswith("Knife fighter's turn") for t in shown[:3])


def test_allies_and_enemies_are_seen_each_as_set(server: ServerProcess) -> None:
    """Enemies hidden, allies exact: Ann sees Tomas's wounds and nothing of the bruiser's
    health; the other way round, the bruiser's bar and Tomas's status word only."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm, ann, eid = table(http, {"others": "hidden", "allies": "exact"})
        seen = {c["id"]: c for c in ann.view(eid)["combatants"]}
        assert "health" in seen["tomas"] and "bar" in seen["tomas"]
        assert "health" not in seen["bruiser"] and "bar" not in seen["bruiser"]
        assert "status" not in seen["bruiser"]
        r = gm.put(f"/api/encounters/{eid}/settings", {"others": "bar", "allies": "status"})
        assert r.status_code == 200, r.text
        seen = {c["id"]: c for c in ann.view(eid)["combatants"]}
        assert "bar" in seen["bruiser"] and "health" not in seen["bruiser"]
        assert "status" in seen["tomas"] and "bar" not in seen["tomas"]
        assert ann.view(eid)["settings"] == {"others": "bar", "allies": "status"}
        r = gm.put(f"/api/encounters/{eid}/settings", {"allies": "everything"})
        assert r.status_code == 400 and "allies" in r.json()["error"], r.text


def test_odds_against_a_hidden_health_can_be_left_out(server: ServerProcess) -> None:
    """Enemies as a status word: Kira's attacks show the hit chance but no "takes out";
    with hide_odds on, no odds at all against them (the GM still sees them all)."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm, ann, eid = table(http, {"others": "status"})
        to_kiras_action(eid, gm)

        def attacks() -> list[dict[str, Any]]:
            for _ in range(400):  # the odds are worked out in the background
                d = ann.view(eid)["pending"]["decision"]
                if not any(o.get("odds_pending") for o in d["options"]):
                    facets = {f["option"]: f for f in d["menu"]["facets"]}
                    return [o for o in d["options"] if facets[o["id"]]["group"] == "attack"]
                time.sleep(0.3)
            raise AssertionError("the odds never came")

        shown = attacks()
        assert all(o["odds"] and "p_hit" in o["odds"] and "p_taken_out" not in o["odds"]
                   for o in shown), shown
        r = gm.put(f"/api/encounters/{eid}/settings", {"others": "status", "hide_odds": True})
        assert r.status_code == 200, r.text
        assert all(o["odds"] is None for o in attacks())
        gm_options = gm.view(eid)["pending"]["decision"]["options"]
        assert any(o["odds"] for o in gm_options)


def test_names_only_where_the_event_refers_to_a_combatant(server: ServerProcess) -> None:
    """The Knife fighter attacks with his knife: 'with knife' stays so in every line; the
    GM's free-form words 'the boss laughs' stay the GM's; with the Knife fighter hidden,
    Ann still sees Kira's free-form line about a knife, whole."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        gm, ann, eid = table(http, {"others": "exact", "hidden": ["knife"]})
        view = gm.view(eid)
        for _ in range(400):
            if view["over"] or "Knife fighter attacks" in json.dumps(view["log"]):
                break
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            view = r.json()
        lines = [e["text"] for e in view["log"]]
        assert any(re.search(r"Knife fighter attacks \w+ with knife", t) for t in lines)
        assert not [t for t in lines if "with Knife fighter" in t or "(Knife fighter (" in t]
        view = to_kiras_action(eid, gm)
        r = gm.post(f"/api/encounters/{eid}/free-action",
                    {"version": view["version"], "description": "kicks the knife away; "
                     "the boss laughs", "effects": []})
        assert r.status_code == 200, r.text
        said = [e["text"] for e in gm.view(eid)["log"] if "kicks" in e["text"]]
        assert said and "the boss laughs" in said[-1] and "knife away" in said[-1], said
        seen = [e["text"] for e in ann.view(eid)["log"] if "kicks" in e["text"]]
        assert seen == said[-1:], seen
