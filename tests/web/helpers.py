"""Small clients for the tracker's JSON API, used by the API, crash and browser tests."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext

from fracas.registry.examples import load_example

#: How long a browser test waits for a page to show a change (ms): a bound on a hang, not a
#: speed check. Under the whole suite on 2 cores (Chromium beside the heaviest simulation
#: tests) a committed answer has taken over 15 s to reach the page.
WAIT_MS = 60_000


def answer_for(decision: dict[str, Any]) -> dict[str, Any]:
    """A legal answer to a decision: its first option, or let the server roll the dice."""
    if decision.get("options"):
        return {"option": decision["options"][0]["id"]}
    return {"roll": True}


class Client:
    """One key's view of the API (the GM's or a player's), on any httpx-like client."""

    def __init__(self, http: httpx.Client, key: str):
        self.http = http
        self.headers = {"Authorization": f"Bearer {key}"}

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path, headers=self.headers)

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.http.post(path, json=body, headers=self.headers)

    def put(self, path: str, body: Any) -> httpx.Response:
        return self.http.put(path, json=body, headers=self.headers)

    def view(self, eid: str) -> dict[str, Any]:
        r = self.get(f"/api/encounters/{eid}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def decide(self, eid: str, version: int, answer: dict[str, Any]) -> httpx.Response:
        return self.post(f"/api/encounters/{eid}/decisions",
                         {"version": version, "answer": answer})


def new_gm(http: httpx.Client) -> Client:
    r = http.post("/api/gms")
    assert r.status_code == 201, r.text
    return Client(http, r.json()["key"])


def new_encounter(gm: Client, example: str, people: list[str], seed: int = 1,
                  **extra: Any) -> dict[str, Any]:
    """An encounter where ``people`` are decided by hand and fracas plays the others (the
    server's default is the GM deciding for everybody)."""
    ids = [c["id"] for c in load_example(example)["combatants"]]
    controllers = {c: "person" if c in people else "aggressive" for c in ids}
    r = gm.post("/api/encounters", {"example": example, "seed": seed,
                                    "controllers": controllers, **extra})
    assert r.status_code == 201, r.text
    return dict(r.json())


def open_example(gm: Client, example: str, seed: int, **extra: Any) -> str:
    """A new encounter of ``example`` (the GM deciding for everybody): its id."""
    r = gm.post("/api/encounters", {"example": example, "seed": seed, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def invite(gm: Client, eid: str, name: str, combatants: list[str]) -> Client:
    r = gm.post(f"/api/encounters/{eid}/players", {"name": name, "combatants": combatants})
    assert r.status_code == 201, r.text
    return Client(gm.http, r.json()["key"])


def advance_to(eid: str, gm: Client, whos: set[str], limit: int = 200) -> dict[str, Any]:
    """The GM answers every decision until one of ``whos`` is asked; the GM's view then."""
    view = gm.view(eid)
    for _ in range(limit):
        if view["over"] or view["pending"]["who"] in whos:
            return view
        r = gm.decide(eid, view["version"], answer_for(view["pending"]["decision"]))
        assert r.status_code == 200, r.text
        view = r.json()
    raise AssertionError(f"nobody of {whos} was asked")


def play_to_end(eid: str, gm: Client, players: dict[str, Client], limit: int = 2000
                ) -> tuple[dict[str, Any], int]:
    """Answer every decision as whoever owns it (a player's key if one controls the
    combatant, else the GM's) until the fight is over; the final GM view and the count."""
    made = 0
    view = gm.view(eid)
    while not view["over"]:
        assert made < limit, "the fight did not end"
        pending = view["pending"]
        assert pending is not None, view
        who = pending["who"]
        client = players.get(who, gm)
        mine = client.view(eid)
        assert mine["pending"]["mine"], mine["pending"]
        r = client.decide(eid, mine["version"], answer_for(mine["pending"]["decision"]))
        assert r.status_code == 200, r.text
        made += 1
        view = gm.view(eid)
    return view, made


def post(gm: Client, eid: str, path: str, view: dict[str, Any], body: dict[str, Any],
         status: int = 200) -> dict[str, Any]:
    """A change to encounter ``eid`` sent with ``view``'s version; its answer (``status``)."""
    r = gm.post(f"/api/encounters/{eid}/{path}", {"version": view["version"], **body})
    assert r.status_code == status, r.text
    return dict(r.json())


def phone_context(browser: Browser) -> BrowserContext:
    """A player's phone: 390 × 844, touch, a mobile viewport at twice the pixels."""
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True, device_scale_factor=2)
