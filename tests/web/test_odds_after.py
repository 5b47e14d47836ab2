"""Issue 24, speed: a decision is shown at once and its odds fill in after, never holding
the answer. The view leaves odds not yet worked out as ``odds_pending`` and a background
worker computes them; the next view (the page asks again) carries them."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from fastapi.testclient import TestClient

from fracas.encounter.decisions import Decision, Odds, Option
from fracas.web.app import create_app
from tests.web.helpers import answer_for, invite, new_encounter, new_gm


def test_a_decision_is_shown_before_its_odds_are_known() -> None:
    gate = threading.Event()

    def slow() -> Odds | None:
        gate.wait(10)
        return None

    decision = Decision("action", "rin", "Rin's action", (Option("1", "Attack Gorr", slow),))
    began = time.perf_counter()
    shown = decision.to_dict(wait=False)
    assert time.perf_counter() - began < 1  # not held by the odds
    assert shown["options"] == [{"id": "1", "label": "Attack Gorr", "odds": None,
                                 "odds_pending": True}]
    assert not decision.odds_ready
    gate.set()
    decision.compute_odds()
    assert decision.odds_ready and decision.to_dict(wait=False)["options"][0] == {
        "id": "1", "label": "Attack Gorr", "odds": None}


def test_odds_that_cannot_be_worked_out_leave_the_choice_without_them() -> None:
    def broken() -> Odds | None:
        raise ValueError("no odds here")

    decision = Decision("action", "rin", "Rin's action", (Option("1", "Attack Gorr", broken),))
    decision.compute_odds()
    assert decision.odds_ready and decision.options[0].odds is None


def test_the_tracker_fills_the_odds_in_after_the_choice(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")) as http:
        gm = new_gm(http)
        eid = new_encounter(gm, "tristat/duel-fight.yaml", people=["rin"])["id"]
        player = invite(gm, eid, "P", ["rin"])
        view = gm.view(eid)
        while view["pending"]["decision"]["kind"] != "action":  # initiative rolled
            r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
            assert r.status_code == 200, r.text
            view = gm.view(eid)
        deadline = time.monotonic() + 60
        while view["pending"]["odds_pending"] and time.monotonic() < deadline:
            time.sleep(0.05)
            view = gm.view(eid)
        options = view["pending"]["decision"]["options"]
        assert not view["pending"]["odds_pending"], "the odds never filled in"
        assert options and all("odds_pending" not in o for o in options)
        attacks = [o for o in options if o["label"].startswith("Attack")]
        assert attacks and all("p_hit" in o["odds"] for o in attacks)
        # the player sees the decision and its odds only if it is theirs
        mine = player.view(eid)["pending"]
        assert (mine["decision"] is not None) == (mine["who"] == "rin")
