"""A new GM's table through a real server: every word a player or the GM reads comes from
the sheets and the data pack, never a combatant's id or a code name, also where a line is
cut of a fact the player may not see."""

from __future__ import annotations

import httpx

from fracas.registry.examples import load_example
from fracas.web.testing import ServerProcess
from tests.web.helpers import Client, answer_for, invite, new_gm


def gm_runs(http: httpx.Client, example: str, seed: int) -> tuple[Client, str]:
    """A new GM and an encounter from ``example`` where the GM decides for everybody."""
    gm = new_gm(http)
    # the GM types the GM side's dice (fracas rolls them by default: test_who_rolls_web)
    r = gm.post("/api/encounters", {"example": example, "seed": seed, "gm_dice": "typed"})
    assert r.status_code == 201, r.text
    return gm, str(r.json()["id"])


def test_a_hit_cut_of_its_damage_names_the_combatants_as_on_their_sheets(
        server: ServerProcess) -> None:
    """Genesys three against three, one player with Kira, the others as health bars: the
    GM's hits on Kira's friends are told to her without the wounds, in the same words as
    the GM's log (``Gang boss → Tomas: hit``), not ``boss → tomas: plain hit``."""
    example = "genesys/three-vs-three-fight.yaml"
    names = {c["id"]: c["name"] for c in load_example(example)["combatants"]}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        gm, eid = gm_runs(http, example, 3)
        player = invite(gm, eid, "Ann", ["kira"])
        view = gm.view(eid)
        for _ in range(120):
            if view["over"]:
                break
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            view = r.json()
        gm_hits = [e["text"] for e in gm.view(eid)["log"] if e["type"] == "Outcome"]
        seen = [e["text"] for e in player.view(eid)["log"] if e["type"] == "Outcome"]
    cut = [line for line in seen if line not in gm_hits]
    assert cut, "no hit was cut of its damage for the player"
    for line in seen:
        who, _, outcome = line.partition(": ")
        assert all(part in names.values() for part in who.split(" → ")), line
        assert outcome in {"hit", "miss", "critical injury", "blast", "guarded stance"}, line
    # each cut line is the GM's line without what the target lost
    for line in cut:
        assert any(full.startswith(line + "; ") for full in gm_hits), line


def test_a_player_sees_the_enemys_conditions_not_its_cards(server: ServerProcess) -> None:
    """c22, the others shown as health bars: Captain Vos's draw pile and discards are his
    (private, as in the log), not conditions beside his name; Mara's own are hers."""
    example = "c22/duel-fight.yaml"
    with httpx.Client(base_url=server.url, timeout=30) as http:
        gm, eid = gm_runs(http, example, 2)
        player = invite(gm, eid, "Ann", ["mara"])
        view = gm.view(eid)
        while view["round"] < 1 or not view["log"]:  # both initiative cards drawn
            r = gm.decide(eid, view["version"], {"roll": True})
            assert r.status_code == 200, r.text
            view = r.json()
        gm_vos = next(c for c in gm.view(eid)["combatants"] if c["id"] == "vos")
        seen = {c["id"]: c for c in player.view(eid)["combatants"]}
    assert any(x.startswith("draw pile: ") for x in gm_vos["conditions"]), gm_vos
    assert not any(":" in x for x in seen["vos"]["conditions"]), seen["vos"]
    assert any(x.startswith("draw pile: ") for x in seen["mara"]["conditions"]), seen["mara"]


def test_a_free_form_roll_at_the_table_is_a_value_the_dice_can_show(
        server: ServerProcess) -> None:
    """The GM types the value the table rolled for a free-form action: 13 on 2d6 is
    refused with what 2d6 can show (it was taken as a success), 12 is taken."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        gm, eid = gm_runs(http, "tristat/duel-fight.yaml", 1)
        view = gm.view(eid)
        while view["pending"]["kind"] != "action":
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            view = r.json()
        body = {"version": view["version"], "description": "kicks the brazier over",
                "roll": "2d6", "value": 13, "target": 7, "needs": "at least", "effects": []}
        r = gm.post(f"/api/encounters/{eid}/free-action", body)
        assert r.status_code == 400, r.text
        assert r.json()["error"] == ("value: 2d6 cannot show 13 (allowed: 2 to 12, or leave "
                                     "it empty to roll)")
        assert gm.view(eid)["version"] == view["version"]
        r = gm.post(f"/api/encounters/{eid}/free-action", {**body, "value": 12})
        assert r.status_code == 200, r.text
        assert any(e["text"].endswith("rolls 2d6: 12, needs at least 7: success")
                   for e in r.json()["log"])


def test_a_combatant_added_at_the_table_is_told_as_the_entry_typed(
        server: ServerProcess) -> None:
    """The GM adds one combatant, typed in the page: a field it lacks is named in the
    entry, not as the first of a scenario file's combatants."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        gm, eid = gm_runs(http, "tristat/duel-fight.yaml", 1)
        r = gm.post(f"/api/encounters/{eid}/join", {
            "version": gm.view(eid)["version"], "place": "next round",
            "entry_yaml": "{id: thug, name: Thug, side: fists}"})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("entry.body: "), r.text


def test_a_genesys_condition_counted_in_rounds_is_told_in_words(server: ServerProcess) -> None:
    """Kira is disoriented for one more round after this one (kept as ``disoriented:1``):
    her player reads that beside her name and in the log, not the code."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        gm, eid = gm_runs(http, "genesys/three-vs-three-fight.yaml", 1)
        player = invite(gm, eid, "Ann", ["kira"])
        r = gm.post(f"/api/encounters/{eid}/adjust", {
            "version": gm.view(eid)["version"], "combatant": "kira", "field": "conditions",
            "value": "disoriented:1, out_of_ammo:pistol"})
        assert r.status_code == 200, r.text
        seen = player.view(eid)
    kira = next(c for c in seen["combatants"] if c["id"] == "kira")
    said = ("disoriented (1 more round after this one), out of ammunition (pistol)")
    assert kira["conditions"] == [f"conditions: {said}"]
    assert f"Kira: conditions none → {said}" in [e["text"] for e in seen["log"]]
