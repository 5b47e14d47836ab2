"""A press on an option is never lost while the panel is redrawn (Playwright, Debian's
headless Chromium, a real server).

The choice comes before its odds: the page asks again every 300 ms and redraws the panel
when they come. A redraw between the press and the release put a copy of the option under
the pointer: the click fell between the old button and the new one, and nothing was sent.
The browser test of whole fights saw it (a click with no request after it, the fight
stuck). Here the redraw that brings the odds in is made to come while the button is held
down: the page's answer with the odds is held back on its way (a slow network) until the
press has begun.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, Route

from fracas.web.testing import ServerProcess
from tests.web.helpers import answer_for
from tests.web.test_browser import create_as_gm


class SlowOdds:
    """The panel's answers on their way to the page. For the decision at version
    :attr:`shown`: once the page has been shown it before its odds, the answer that
    brings the odds in is held until :meth:`deliver`."""

    def __init__(self) -> None:
        self.shown = -1
        self.before_odds = False  # the page was shown that decision before its odds
        self.held: list[tuple[Route, Any]] = []

    def watch(self, version: int) -> None:
        self.shown, self.before_odds = version, False

    def __call__(self, route: Route) -> None:
        answer = route.fetch()
        body = answer.body()
        match = re.search(rb'data-version="(\d+)"', body)
        if match and int(match.group(1)) == self.shown:
            if b"data-odds-pending" in body:
                self.before_odds = True
            elif self.before_odds and not self.held:
                self.held.append((route, answer))
                return
        route.fulfill(response=answer)

    def deliver(self) -> None:
        for route, answer in self.held:
            route.fulfill(response=answer)
        self.held.clear()


def _held_odds(gm: Page, api: httpx.Client, eid: str, slow: SlowOdds) -> int | None:
    """Answer decisions through the API until the desk is shown one before its odds (and
    the page's answer with them is held); that decision's version. None if the fight
    ends first (every decision's odds were there before the page asked)."""
    view = api.get(f"/api/encounters/{eid}").json()
    while not view["over"]:
        slow.watch(view["version"] + 1)  # each answer is one version more
        answer = api.post(f"/api/encounters/{eid}/decisions",
                          json={"version": view["version"],
                                "answer": answer_for(view["pending"]["decision"])})
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["version"] == slow.shown
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version >= v",
                             arg=slow.shown)
        end = time.monotonic() + 10
        while slow.before_odds and not slow.held and time.monotonic() < end:
            gm.wait_for_timeout(50)
        if slow.held:
            return slow.shown
    return None


def test_an_option_held_down_while_its_odds_come_in_is_taken(
        browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        gm = context.new_page()
        admin = create_as_gm(gm, server, "tristat/duel-fight.yaml", "blades", roll_all=True)
        api = httpx.Client(base_url=server.url, timeout=60,
                           headers={"Authorization": f"Bearer {admin.rsplit('/', 1)[1]}"})
        slow = SlowOdds()
        gm.route("**/panel*", slow)
        shown = _held_odds(gm, api, gm.url.rsplit("/", 1)[1], slow)
        for seed in range(1, 6):  # more fights of the same GM, until one is caught
            if shown is not None:
                break
            made = api.post("/api/encounters", json={"example": "tristat/duel-fight.yaml",
                                                     "seed": seed, "roll_all": True})
            assert made.status_code == 201, made.text
            gm.goto(f"{server.url}/e/{made.json()['id']}")
            shown = _held_odds(gm, api, made.json()["id"], slow)
        assert shown is not None, "no decision was shown before its odds in 6 fights"
        eid = gm.url.rsplit("/", 1)[1]
        assert gm.locator("#panel .panel[data-odds-pending]").count()
        box = gm.locator("#pending button.option").first.bounding_box()
        assert box is not None
        gm.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        gm.mouse.down()
        slow.deliver()  # the odds reach the page while the button is held down
        gm.wait_for_timeout(500)
        gm.mouse.up()
        gm.wait_for_function("v => +document.querySelector('#tracker').dataset.version > v",
                             arg=shown, timeout=60_000)
        assert api.get(f"/api/encounters/{eid}").json()["version"] > shown  # it was sent
    finally:
        # the page's asks still on their way when it closes are let go
        context.unroute_all(behavior="ignoreErrors")
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.close()
